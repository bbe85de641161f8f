//! The replay of a Pending pod (`pending-insufficient-gpu`,
//! `pending-insufficient-resources`, `pending-untolerated-taint`,
//! `pending-node-affinity`, `pending-cordoned-node`), read from a
//! `describe pod`.
//!
//! The scheduler's message names the cluster: `0/3 nodes are available: 1
//! Insufficient nvidia.com/gpu, 2 node(s) had untolerated taint(s). no new
//! claims to deallocate, preemption: 0/3 nodes are available: 1 No
//! preemption victims found for incoming pod, 2 Preemption is not helpful
//! for scheduling.` (`(*FitError).Error`, kubectl-output.md §3.6;
//! scheduler-controllers.md §1). Each node is counted under the reasons of
//! its first failing filter (TaintToleration, NodeAffinity,
//! NodeResourcesFit), so the replay gives each entry a pool of that many
//! nodes: a tainted pool (the taint the message names; v1.35's
//! `untolerated taint(s)` names none, so `nvidia.com/gpu=present` for a
//! pod that asks for GPUs, GKE's GPU taint, else `dedicated=reserved`,
//! stated in `assumed`), a pool without the pod's `Node-Selectors:`
//! labels, and for `Insufficient <r>`: nodes whose allocatable is below the
//! request (`Preemption is not helpful`: since v1.34 a request above
//! allocatable is UnschedulableAndUnresolvable) or, where the message says
//! `No preemption victims found`, nodes that have it but whose `<r>` other
//! pods (`occupant`, same priority) hold. The pod's requests, node
//! selector and tolerations are the pasted ones. podlab's scheduler then
//! writes its own message, compared with the pasted one modulo the
//! scheduler's version (the taint's key, the older wordings).
//!
//! The fix: the answer's toleration for a taint; for a shortage or a
//! selector no node matches, one more node that has what the pod asks for
//! and its selector's labels (the answer proposes none: freeing GPUs, a
//! bigger node or a smaller request are all ways).

use super::{
    cluster_assumed, cluster_yaml, container_yaml, dns_name, header, image_of, pod_age, quoted,
    run, scenario_yaml, status_and_restarts, Asks, Compared, Pool, Rebuilt, Replay, View, Workload,
};
use crate::i18n::Text;
use crate::manifest::assumed::Assumption;
use crate::paste::read::{ContainerFacts, PodFacts};
use crate::sched::{NODE_AFFINITY, NODE_UNSCHEDULABLE, NO_VICTIMS, UNTOLERATED_TAINT};
use crate::text;

/// One entry of a FailedScheduling histogram, its wording normalised to
/// v1.35's (the taint's key kept apart).
#[derive(Clone, Debug, PartialEq, Eq)]
struct Entry {
    nodes: usize,
    reason: String,
    /// `{nvidia.com/gpu: present}` → (`nvidia.com/gpu`, `present`).
    taint: Option<(String, String)>,
}

/// A message split: the node count, the filters' histogram and the
/// preemption's (when the message has one).
#[derive(Clone, Debug, PartialEq, Eq)]
struct Message {
    nodes: usize,
    filters: Vec<Entry>,
    preemption: Option<Vec<Entry>>,
}

impl Message {
    /// The parts compared: the histograms, normalised and sorted.
    fn normal(entries: &[Entry]) -> String {
        let mut items: Vec<String> = entries
            .iter()
            .map(|e| format!("{} {}", e.nodes, e.reason))
            .collect();
        items.sort();
        items.join(", ")
    }
}

/// `{nvidia.com/gpu: present}` → key and value.
fn taint_of(item: &str) -> Option<(String, String)> {
    let (_, rest) = item.split_once('{')?;
    let (inner, _) = rest.split_once('}')?;
    let (key, value) = inner.split_once(':').unwrap_or((inner, ""));
    Some((key.trim().to_string(), value.trim().to_string()))
}

/// `1 Insufficient nvidia.com/gpu, 2 node(s) had untolerated taint {k: v}`
/// → entries. kubectl ≤ 1.2x: `had taint {k: v}, that the pod didn't
/// tolerate` (its comma splits the entry), `didn't match node selector`.
fn histogram(text: &str) -> Option<Vec<Entry>> {
    let mut items: Vec<String> = Vec::new();
    for item in text.split(", ") {
        if item.starts_with("that the pod didn't tolerate") {
            continue;
        }
        items.push(item.trim().to_string());
    }
    let mut out: Vec<Entry> = Vec::new();
    for item in items {
        let (count, reason) = item.split_once(' ')?;
        let nodes: usize = count.parse().ok()?;
        let (reason, taint) = if reason.contains("taint") {
            (UNTOLERATED_TAINT.to_string(), taint_of(reason))
        } else if reason.contains("node affinity") || reason.contains("node selector") {
            (NODE_AFFINITY.to_string(), None)
        } else {
            (reason.to_string(), None)
        };
        out.push(Entry {
            nodes,
            reason,
            taint,
        });
    }
    Some(out)
}

/// Nodes rejected alike: how many, the reasons, the taint.
type Group = (usize, Vec<String>, Option<(String, String)>);

/// Pods that hold a pool's resources: the pool's label, how many, what
/// each takes.
type Occupants = (String, usize, Vec<(String, String)>);

/// Splits a FailedScheduling message (see the module's doc).
fn parse_message(message: &str) -> Option<Message> {
    let rest = message.trim().strip_prefix("0/")?;
    let (count, rest) = rest.split_once(" nodes are available: ")?;
    let nodes: usize = count.parse().ok()?;
    let (filters, after) = match rest.split_once(". ") {
        Some((f, a)) => (f, a),
        None => (rest.trim_end_matches('.'), ""),
    };
    let preemption = match after.split_once("preemption: ") {
        Some((_, p)) => {
            let p = p.split_once("nodes are available: ").map(|(_, r)| r)?;
            Some(histogram(p.trim_end().trim_end_matches('.'))?)
        }
        None => None,
    };
    Some(Message {
        nodes,
        filters: histogram(filters)?,
        preemption,
    })
}

/// A pasted toleration line (`printTolerationsMultiline`:
/// `key[=value][:effect][ op=Exists][ for Ns]`) as a YAML flow item; the
/// two the API server adds to every pod (DefaultTolerationSeconds) are
/// left to the simulator, which adds them too.
fn toleration_yaml(line: &str) -> Option<Option<String>> {
    if line.starts_with("node.kubernetes.io/not-ready:NoExecute")
        || line.starts_with("node.kubernetes.io/unreachable:NoExecute")
    {
        return Some(None);
    }
    let mut words = line.split_whitespace();
    let head = words.next()?;
    let exists = words.any(|w| w == "op=Exists");
    let (key_value, effect) = head.split_once(':').unwrap_or((head, ""));
    let (key, value) = key_value.split_once('=').unwrap_or((key_value, ""));
    let mut fields = Vec::new();
    if !key.is_empty() {
        fields.push(format!("key: {}", quoted(key)?));
    }
    fields.push(format!(
        "operator: {}",
        if exists { "Exists" } else { "Equal" }
    ));
    if !value.is_empty() {
        fields.push(format!("value: {}", quoted(value)?));
    }
    if !effect.is_empty() {
        fields.push(format!("effect: {effect}"));
    }
    Some(Some(format!("{{ {} }}", fields.join(", "))))
}

pub(super) fn replay(pod: &PodFacts, container: &ContainerFacts) -> Option<Replay> {
    let pasted = pod
        .events
        .iter()
        .rfind(|e| e.reason == "FailedScheduling")
        .map(|e| e.message.clone())
        .or_else(|| pod.unschedulable.as_ref().map(|(m, _)| m.clone()))?;
    let message = parse_message(&pasted)?;
    let kind = super::super::scheduling_kind(&pasted);
    let age = pod_age(pod)?;
    let workload = Workload::of(pod);
    let mut assumed = Vec::new();
    // A resource the message says is short is one the pod asks for: when
    // the paste does not show the request (an events table alone), one
    // GPU, 1 CPU or 1Gi is assumed.
    let mut container = container.clone();
    let mut guessed = Vec::new();
    for entry in &message.filters {
        let Some(resource) = entry.reason.strip_prefix("Insufficient ") else {
            continue;
        };
        let shown = container
            .requests
            .iter()
            .chain(&container.limits)
            .any(|(k, _)| k == resource);
        if !shown {
            let amount = match resource {
                "cpu" => "1",
                "memory" => "1Gi",
                _ => "1",
            };
            quoted(resource)?;
            container
                .requests
                .push((resource.to_string(), amount.to_string()));
            if resource.contains('/') {
                container
                    .limits
                    .push((resource.to_string(), amount.to_string()));
            }
            guessed.push(format!("{resource}: {amount}"));
        }
    }
    if !guessed.is_empty() {
        let prefix = match workload.owner {
            super::Owner::Deployment => "spec.template.spec",
            super::Owner::Pod(_) => "spec",
        };
        if let Ok(path) = crate::manifest::path::parse(&format!(
            "{prefix}.containers[{}].resources.requests",
            container.name
        )) {
            assumed.push(Assumption {
                path,
                value: format!("{{ {} }}", guessed.join(", ")),
            });
        }
    }
    let container = &container;
    let asks = Asks::of(container)?;
    if asks.other_devices() {
        return None;
    }
    let name = dns_name(&container.name, "app");
    let image =
        image_of(container).unwrap_or_else(|| "registry.example.com/app:pasted".to_string());
    let gpu_pod = asks.gpus() > 0 || !asks.extended.is_empty();
    // The pod's node selector: as pasted, or (an affinity describe does
    // not print) one assumed.
    let mut selectors = pod.node_selectors.clone();
    let affinity = message.filters.iter().any(|e| e.reason == NODE_AFFINITY);
    if affinity && selectors.is_empty() {
        selectors.push(("podlab.dev/pool".into(), "wanted".into()));
        assumed.push(Assumption {
            path: selector_path(&workload),
            value: "{ podlab.dev/pool: wanted }".into(),
        });
    }
    for (k, v) in &selectors {
        quoted(k)?;
        quoted(v)?;
    }
    // `No preemption victims found` nodes: the shortages other pods hold.
    let mut victims_free = message
        .preemption
        .as_ref()
        .map(|p| {
            p.iter()
                .filter(|e| e.reason == NO_VICTIMS)
                .map(|e| e.nodes)
                .sum::<usize>()
        })
        .unwrap_or(0);
    // Reasons of one node are counted once each: a node short of cpu and
    // memory gives `1 Insufficient cpu, 1 Insufficient memory`; entries of
    // equal counts merge while the histogram counts more than the nodes.
    let mut groups: Vec<Group> = Vec::new();
    let mut total: usize = message.filters.iter().map(|e| e.nodes).sum();
    for entry in &message.filters {
        if let Some(resource) = entry.reason.strip_prefix("Insufficient ") {
            if total > message.nodes {
                if let Some(group) = groups.iter_mut().find(|(n, r, t)| {
                    *n == entry.nodes
                        && t.is_none()
                        && !r.is_empty()
                        && r[0].starts_with("Insufficient ")
                }) {
                    group.1.push(format!("Insufficient {resource}"));
                    total -= entry.nodes;
                    continue;
                }
            }
        }
        groups.push((entry.nodes, vec![entry.reason.clone()], entry.taint.clone()));
    }
    if total != message.nodes {
        return None;
    }
    let mut pools: Vec<Pool> = Vec::new();
    let mut occupants: Vec<Occupants> = Vec::new();
    let mut taints: Vec<(String, String)> = Vec::new();
    // Cordoned nodes (`node(s) were unschedulable`): nodes that would fit,
    // cordoned by the Scenario at 0 s (`sim/act.rs`).
    let mut cordoned: Vec<String> = Vec::new();
    // Every taint's key is in the message (kubectl ≤ 1.34's scheduler).
    let mut taint_named = true;
    let mut affinity_pool: Option<String> = None;
    for (i, (nodes, reasons, taint)) in groups.iter().enumerate() {
        let mut pool = Pool::fitting(&format!("pool{i}"), *nodes, &asks);
        let reason = reasons[0].as_str();
        if reason == UNTOLERATED_TAINT {
            taint_named &= taint.is_some();
            let taint = taint.clone().unwrap_or_else(|| {
                if gpu_pod {
                    ("nvidia.com/gpu".into(), "present".into())
                } else {
                    ("dedicated".into(), "reserved".into())
                }
            });
            quoted(&taint.0)?;
            pool.labels = selectors.clone();
            pool.taints.push(taint.clone());
            taints.push(taint);
        } else if reason == NODE_AFFINITY {
            // No label the pod selects (the fix labels its first node).
            affinity_pool.get_or_insert_with(|| pool.name.clone());
        } else if reason == NODE_UNSCHEDULABLE {
            pool.labels = selectors.clone();
            cordoned.extend((0..*nodes).map(|n| format!("pool{i}-{n}")));
        } else if reasons.iter().all(|r| r.starts_with("Insufficient ")) {
            pool.labels = selectors.clone();
            let held = victims_free >= *nodes;
            if held {
                victims_free -= nodes;
                // Other pods hold the node's `<r>`: the pool's own amount.
                let label = format!("pool{i}");
                pool.labels
                    .push(("podlab.dev/occupied".into(), label.clone()));
                let mut takes = Vec::new();
                for r in reasons {
                    let resource = r.trim_start_matches("Insufficient ");
                    let amount = match resource {
                        "cpu" => format!("{}m", pool.cpu_milli),
                        "memory" => crate::manifest::quantity::format_bytes(pool.memory),
                        "nvidia.com/gpu" => pool.gpus.to_string(),
                        other => pool
                            .mig
                            .iter()
                            .find(|(p, _)| other == format!("nvidia.com/mig-{p}"))
                            .map(|(_, n)| n.to_string())?,
                    };
                    takes.push((resource.to_string(), amount));
                }
                occupants.push((label, *nodes, takes));
            } else {
                for r in reasons {
                    match r.trim_start_matches("Insufficient ") {
                        "cpu" => pool.cpu_milli = asks.cpu_milli / 2,
                        "memory" => pool.memory = asks.memory / 2,
                        "nvidia.com/gpu" => pool.gpus = 0,
                        other => pool
                            .mig
                            .retain(|(p, _)| other != format!("nvidia.com/mig-{p}")),
                    }
                }
            }
        } else {
            // A reason podlab's scheduler does not write (`Too many pods`,
            // volumes): not rebuilt.
            return None;
        }
        pools.push(pool);
    }
    // The occupied pools first: the occupants bind there at t = 0.
    pools.sort_by_key(|p| !p.labels.iter().any(|(k, _)| k == "podlab.dev/occupied"));
    assumed.push(cluster_assumed(&pools));
    let keys = super::resources_yaml(container, None).unwrap_or_default();
    let mut pod_extra = String::new();
    if !selectors.is_empty() {
        let pairs: Vec<String> = selectors
            .iter()
            .map(|(k, v)| format!("{k}: \"{v}\""))
            .collect();
        pod_extra.push_str(&format!("nodeSelector: {{ {} }}\n", pairs.join(", ")));
    }
    let mut tolerations: Vec<String> = Vec::new();
    for line in &pod.tolerations {
        if let Some(item) = toleration_yaml(line)? {
            tolerations.push(item);
        }
    }
    let pod_lines = |extra_tolerations: &[String]| {
        let mut out = container_yaml(&name, &image, &keys);
        out.push_str(&pod_extra);
        let all: Vec<&String> = tolerations.iter().chain(extra_tolerations).collect();
        if !all.is_empty() {
            out.push_str("tolerations:\n");
            for t in all {
                out.push_str(&format!("  - {t}\n"));
            }
        }
        out
    };
    let occupant_yaml: String = occupants
        .iter()
        .map(|(label, replicas, takes)| {
            let takes: Vec<String> = takes
                .iter()
                .map(|(k, v)| format!("{k}: \"{v}\""))
                .collect();
            format!(
                "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: occupant-{label}\nspec:\n  replicas: {replicas}\n  selector:\n    matchLabels: {{ app: occupant-{label} }}\n  template:\n    metadata:\n      labels: {{ app: occupant-{label} }}\n    spec:\n      nodeSelector: {{ podlab.dev/occupied: {label} }}\n      containers:\n        - name: work\n          image: registry.example.com/occupant:1\n          resources:\n            limits: {{ {} }}\n            requests: {{ {} }}\n---\n",
                takes.join(", "),
                takes.join(", ")
            )
        })
        .collect();
    let cordons: String = if cordoned.is_empty() {
        String::new()
    } else {
        let items: Vec<String> = cordoned
            .iter()
            .map(|node| format!("  - {{ at: 0s, cordon: {{ node: {node} }} }}\n"))
            .collect();
        format!("actions:\n{}", items.concat())
    };
    let build = |pools: &[Pool], extra_tolerations: &[String], cordons: &str| {
        format!(
            "{}{occupant_yaml}{}{}",
            header("the pod's requests, node selector and tolerations as pasted; the nodes from the FailedScheduling message."),
            workload.yaml(&pod_lines(extra_tolerations)),
            scenario_yaml(age.1, &format!("{}{cordons}", cluster_yaml(pools, &[])))
        )
    };
    let text = build(&pools, &[], &cordons);
    // The fix.
    let (fixed_text, fix_note): (String, Text) = if kind == "pending-untolerated-taint" {
        let own: Vec<String> = taints
            .iter()
            .filter(|(k, _)| !k.starts_with("node-role.kubernetes.io/"))
            .map(|(k, _)| format!("{{ key: {k}, operator: Exists }}"))
            .collect();
        let keys: Vec<&str> = taints.iter().map(|(k, _)| k.as_str()).collect();
        let keys = keys.join(", ");
        let note = if taint_named {
            text!(
                "the fix adds the answer's toleration (operator Exists) for the taint {keys}",
                "修正加上答案裡對 taint {keys} 的 toleration（operator Exists）"
            )
        } else {
            // v1.35's `untolerated taint(s)` (PR #134740) names no key.
            text!(
                "the fix adds a toleration (operator Exists) for the taint the replay assumes, {keys}: the scheduler's message does not name the taint since Kubernetes 1.35, so the answer proposes none; kubectl get nodes -o custom-columns=NAME:.metadata.name,TAINTS:.spec.taints shows the real one",
                "修正加上對重播假設的 taint {keys} 的 toleration（operator Exists）：從 Kubernetes 1.35 起排程器的訊息不再寫出 taint，所以答案沒有給修正；真正的 taint 可以用 kubectl get nodes -o custom-columns=NAME:.metadata.name,TAINTS:.spec.taints 查看"
            )
        };
        (build(&pools, &own, &cordons), note)
    } else if kind == "pending-cordoned-node" {
        // `kubectl uncordon`: the same nodes, none cordoned.
        (
            build(&pools, &[], ""),
            text!(
                "the fix uncordons the nodes (kubectl uncordon NODE, spec.unschedulable back to false): the same cluster, none of its nodes cordoned",
                "修正把節點 uncordon（kubectl uncordon NODE，spec.unschedulable 改回 false）：同樣的叢集，沒有任何節點被 cordon"
            ),
        )
    } else if let Some(pool) = affinity_pool.filter(|_| kind == "pending-node-affinity") {
        // `kubectl label node`: a node that has room gets the labels the
        // nodeSelector wants, at 0 s (as the cluster starts).
        let pairs: Vec<String> = selectors
            .iter()
            .map(|(k, v)| format!("{k}: \"{v}\""))
            .collect();
        let node = format!("{pool}-0");
        let label = format!(
            "  - {{ at: 0s, label: {{ node: {node}, labels: {{ {} }} }} }}\n",
            pairs.join(", ")
        );
        let actions = match cordons.as_str() {
            "" => format!("actions:\n{label}"),
            cordons => format!("{cordons}{label}"),
        };
        (
            build(&pools, &[], &actions),
            text!(
                "the fix labels one node that has room for the pod with what its nodeSelector wants (kubectl label node {node} …): the same cluster, that node labelled",
                "修正為一個有空間放這個 Pod 的節點加上 nodeSelector 要的 label（kubectl label node {node} …）：同樣的叢集，只有那個節點加了 label"
            ),
        )
    } else {
        let mut fixed_pools: Vec<Pool> = pools
            .iter()
            .map(|p| Pool {
                name: p.name.clone(),
                count: p.count,
                cpu_milli: p.cpu_milli,
                memory: p.memory,
                gpus: p.gpus,
                mig: p.mig.clone(),
                labels: p.labels.clone(),
                taints: p.taints.clone(),
            })
            .collect();
        let mut added = Pool::fitting("added", 1, &asks);
        added.labels = selectors.clone();
        fixed_pools.push(added);
        (
            build(&fixed_pools, &[], &cordons),
            text!(
                "the fix adds one node that has what the pod asks for free and the labels its nodeSelector wants (the answer names no fix: freeing the resources, a bigger node or a smaller request are other ways)",
                "修正加上一個節點，它有 Pod 要求的空閒資源，也有 nodeSelector 要的 label（答案沒有給修正：釋出資源、換更大的節點或降低 requests 也都可以）"
            ),
        )
    };
    let pasted_message = pasted.clone();
    let compare = move |view: &View<'_>| -> Vec<Compared> {
        let mut out = status_and_restarts("Pending", Some(0), view);
        let replayed = view
            .last_event("FailedScheduling")
            .unwrap_or("-")
            .to_string();
        let same = parse_message(&replayed).is_some_and(|r| {
            r.nodes == message.nodes
                && Message::normal(&r.filters) == Message::normal(&message.filters)
                && match (&message.preemption, &r.preemption) {
                    (Some(p), Some(q)) => Message::normal(p) == Message::normal(q),
                    (None, _) => true,
                    (Some(_), None) => false,
                }
        });
        out.push(Compared {
            what: "FailedScheduling",
            pasted: pasted_message.clone(),
            replayed,
            same,
        });
        out
    };
    Some(run(
        Rebuilt {
            kind,
            text,
            fixed_text: Some(fixed_text),
            workload,
            age,
            startup_s: 0,
            compare,
            recovers: |view: &View<'_>| {
                view.pod
                    .is_some_and(|p| p.node.as_ref().is_some_and(|(_, t)| *t <= view.at))
            },
            assumed,
            fix_note,
        },
        pod,
    ))
}

/// `spec.template.spec.nodeSelector` (a Deployment) or `spec.nodeSelector`.
fn selector_path(workload: &Workload) -> crate::manifest::path::Path {
    let text = match workload.owner {
        super::Owner::Deployment => "spec.template.spec.nodeSelector",
        super::Owner::Pod(_) => "spec.nodeSelector",
    };
    crate::manifest::path::parse(text).unwrap_or(crate::manifest::path::Path::Cluster)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn messages() {
        let m = parse_message("0/3 nodes are available: 1 node(s) had untolerated taint(s), 2 node(s) didn't match Pod's node affinity/selector. no new claims to deallocate, preemption: 0/3 nodes are available: 3 Preemption is not helpful for scheduling.").expect("parsed");
        assert_eq!(m.nodes, 3);
        assert_eq!(m.filters.len(), 2);
        assert_eq!(m.preemption.as_ref().map(Vec::len), Some(1));
        let old = parse_message("0/3 nodes are available: 1 Insufficient nvidia.com/gpu, 2 node(s) had taint {nvidia.com/gpu: present}, that the pod didn't tolerate.").expect("parsed");
        assert_eq!(old.filters[1].reason, UNTOLERATED_TAINT);
        assert_eq!(
            old.filters[1].taint,
            Some(("nvidia.com/gpu".into(), "present".into()))
        );
        assert!(old.preemption.is_none());
    }

    #[test]
    fn tolerations() {
        assert_eq!(
            toleration_yaml("nvidia.com/gpu:NoSchedule op=Exists"),
            Some(Some(
                "{ key: \"nvidia.com/gpu\", operator: Exists, effect: NoSchedule }".into()
            ))
        );
        assert_eq!(
            toleration_yaml("node.kubernetes.io/not-ready:NoExecute op=Exists for 300s"),
            Some(None)
        );
    }
}
