//! kube-scheduler, once: the filters that judge a node for a pod and the
//! FailedScheduling message, used by the simulator (`sim`) and by the lint
//! rules PL501, PL502, PL504 and PL505 alike, so the text a rule quotes is
//! the text the simulated scheduler writes for the same input.
//!
//! Layering: this module reads the manifest model and the Scenario and
//! nothing above them; `rules` and `sim` both use it and neither uses the
//! other through it.
//!
//! The filters run in the default profile's order and a node is rejected by
//! the *first* one that fails (scheduler-controllers.md §1.2):
//! TaintToleration, NodeAffinity (nodeSelector, required node affinity, and
//! a DaemonSet pod's `matchFields metadata.name`), then NodeResourcesFit
//! (cpu, memory, extended resources against what is still free). Sources:
//! `kubernetes/kubernetes:pkg/scheduler/framework/plugins/tainttoleration/
//! taint_toleration.go` `Filter`, `.../nodeaffinity/node_affinity.go`
//! `Filter`, `.../noderesources/fit.go` `fitsRequest`,
//! `pkg/scheduler/framework/types.go` `(*FitError).Error`.

use crate::manifest::model::{PodSpec, Requirement, Toleration, Workload};
use crate::manifest::scenario::{NodePool, Scenario, Taint};

/// The NodeAffinity filter's reason (`ErrReasonPod`, scheduler-controllers.md §2).
pub const NODE_AFFINITY: &str = "node(s) didn't match Pod's node affinity/selector";

// ---- the FailedScheduling message -----------------------------------------------

/// `TaintToleration` in v1.35 (PR #134740; earlier `{key: value}` forms in
/// scheduler-controllers.md §2).
pub const UNTOLERATED_TAINT: &str = "node(s) had untolerated taint(s)";
/// `NodeUnschedulable`'s reason for a cordoned node (`ErrReasonUnschedulable`,
/// `pkg/scheduler/framework/plugins/nodeunschedulable/node_unschedulable.go`;
/// scheduler-controllers.md §2).
pub const NODE_UNSCHEDULABLE: &str = "node(s) were unschedulable";
/// The preemption histogram entry of a node preemption cannot help.
pub const NOT_HELPFUL: &str = "Preemption is not helpful for scheduling";
/// The preemption entry of a node without lower-priority pods.
pub const NO_VICTIMS: &str = "No preemption victims found for incoming pod";

/// What the preemption dry run (`DefaultPreemption` PostFilter) finds on a
/// rejected node (scheduler-controllers.md §1.3).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Preemption {
    /// The filter status was UnschedulableAndUnresolvable (taint, node
    /// affinity, cordon, node name, and in v1.34+ a request above the node's
    /// allocatable): preemption skips the node.
    NotHelpful,
    /// Unschedulable, and no pod on the node has a lower priority.
    NoVictims,
    /// Unschedulable; even without every lower-priority pod these reasons remain.
    StillRejected(Vec<String>),
}

/// Nodes that one filter rejected with the same reasons.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Rejection {
    /// How many nodes.
    pub nodes: usize,
    /// Every reason of the first failing filter plugin (a node can give several,
    /// `Insufficient cpu` and `Insufficient memory`).
    pub reasons: Vec<String>,
    pub preemption: Preemption,
}

impl Rejection {
    /// Rejected by an UnschedulableAndUnresolvable status.
    pub fn unresolvable(nodes: usize, reasons: Vec<String>) -> Rejection {
        Rejection {
            nodes,
            reasons,
            preemption: Preemption::NotHelpful,
        }
    }

    /// Rejected as Unschedulable, with no lower-priority pod to preempt.
    pub fn no_victims(nodes: usize, reasons: Vec<String>) -> Rejection {
        Rejection {
            nodes,
            reasons,
            preemption: Preemption::NoVictims,
        }
    }
}

/// `"<count> <reason>"` entries, sorted byte-wise as whole strings and
/// joined with `", "` (`(*FitError).Error`).
fn histogram<'a>(entries: impl Iterator<Item = (usize, &'a str)>) -> String {
    let mut tally: Vec<(&str, usize)> = Vec::new();
    for (count, reason) in entries {
        match tally.iter_mut().find(|(known, _)| *known == reason) {
            Some((_, sum)) => *sum = sum.saturating_add(count),
            None => tally.push((reason, count)),
        }
    }
    let mut lines: Vec<String> = tally
        .into_iter()
        .filter(|(_, count)| *count > 0)
        .map(|(reason, count)| format!("{count} {reason}"))
        .collect();
    crate::sort::sort(&mut lines);
    lines.join(", ")
}

/// The message of a FailedScheduling event (and of the `PodScheduled=False`
/// condition) when no node fits, as kube-scheduler v1.35 writes it with its
/// default plugins and DRA enabled (scheduler-controllers.md §1, §12):
///
/// `0/<N> nodes are available: <histogram>. no new claims to deallocate,
/// preemption: 0/<N> nodes are available: <preemption histogram>.`
///
/// `all_nodes` is every node of the cluster; `rejected` says how each
/// evaluated node failed (the reasons of its *first* failing filter:
/// `node(s) had untolerated taint(s)` comes before `Insufficient
/// nvidia.com/gpu`). Nodes not listed are "absent": they add nothing to the
/// first histogram and count as `Preemption is not helpful for scheduling` in
/// the second. When no node is a preemption candidate, every node counts as
/// not helpful. A cluster without nodes gives `no nodes available to schedule
/// pods`. (Source: `kubernetes/kubernetes:pkg/scheduler/framework/types.go`
/// `(*FitError).Error`; `.../preemption/preemption.go` `Preempt`;
/// `.../dynamicresources/dynamicresources.go` `PostFilter`.)
pub fn failed_scheduling_message(all_nodes: usize, rejected: &[Rejection]) -> String {
    if all_nodes == 0 {
        return "no nodes available to schedule pods".to_string();
    }
    let filters = histogram(rejected.iter().flat_map(|rejection| {
        rejection
            .reasons
            .iter()
            .map(move |reason| (rejection.nodes, reason.as_str()))
    }));
    let evaluated = rejected
        .iter()
        .fold(0usize, |sum, rejection| sum.saturating_add(rejection.nodes));
    let candidates = rejected
        .iter()
        .any(|rejection| rejection.nodes > 0 && rejection.preemption != Preemption::NotHelpful);
    let preemption = if candidates {
        let mut entries: Vec<(usize, &str)> =
            vec![(all_nodes.saturating_sub(evaluated), NOT_HELPFUL)];
        for rejection in rejected {
            match &rejection.preemption {
                Preemption::NotHelpful => entries.push((rejection.nodes, NOT_HELPFUL)),
                Preemption::NoVictims => entries.push((rejection.nodes, NO_VICTIMS)),
                Preemption::StillRejected(reasons) => entries.extend(
                    reasons
                        .iter()
                        .map(|reason| (rejection.nodes, reason.as_str())),
                ),
            }
        }
        histogram(entries.into_iter())
    } else {
        format!("{all_nodes} {NOT_HELPFUL}")
    };
    format!(
        "0/{all_nodes} nodes are available: {filters}. no new claims to deallocate, preemption: 0/{all_nodes} nodes are available: {preemption}."
    )
}

// ---- what a pod asks for ---------------------------------------------------------

// The GPU counts live in the manifest (`manifest::resources`), where the
// inferred cluster reads them too; re-exported so `sched::gpu_requests` stays.
pub use crate::manifest::resources::{gpu_requests, is_gpu_resource, pod_gpu_requests};

/// What NodeResourcesFit compares with a node's free resources: the sum of
/// the app containers' effective cpu and memory requests (a limit alone
/// defaults the request) and the GPU resources of [`pod_gpu_requests`].
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Request {
    pub cpu_milli: i128,
    pub memory: i128,
    pub extended: Vec<(String, i64)>,
}

impl Request {
    pub fn of(workload: &Workload) -> Request {
        let containers = || workload.pod.containers.iter();
        Request {
            cpu_milli: containers()
                .filter_map(|c| c.resources.effective_request("cpu"))
                .map(|q| q.milli)
                .fold(0, i128::saturating_add),
            memory: containers()
                .filter_map(|c| c.resources.effective_request("memory"))
                .map(|q| q.value())
                .fold(0, i128::saturating_add),
            extended: pod_gpu_requests(workload),
        }
    }
}

// ---- the filters -------------------------------------------------------------------

/// How many nodes a pool has (a negative count is none; at most 1,000, the
/// simulator's cap).
pub fn nodes(pool: &NodePool) -> usize {
    usize::try_from(pool.count.clamp(0, 1000)).unwrap_or(0)
}

/// Every node of the cluster.
pub fn all_nodes(scenario: &Scenario) -> usize {
    scenario
        .node_pools
        .iter()
        .fold(0usize, |sum, pool| sum.saturating_add(nodes(pool)))
}

/// The name of node `index` of `pool`: `gpu-0`.
pub fn node_name(pool: &NodePool, index: usize) -> String {
    format!("{}-{index}", pool.name)
}

/// How many of `resource` one node of `pool` advertises (its allocatable).
pub fn per_node(pool: &NodePool, resource: &str) -> i64 {
    pool.extended_resources()
        .iter()
        .filter(|(name, _)| name == resource)
        .fold(0i64, |sum, (_, count)| sum.saturating_add((*count).max(0)))
}

/// Whether one node of `pool` advertises every requested resource in the
/// requested count (taints aside).
pub fn fits(pool: &NodePool, requests: &[(String, i64)]) -> bool {
    nodes(pool) > 0
        && requests
            .iter()
            .all(|(resource, count)| per_node(pool, resource) >= *count)
}

/// How many pods of `requests` one node of `pool` holds at once.
pub fn pods_per_node(pool: &NodePool, requests: &[(String, i64)]) -> i64 {
    requests
        .iter()
        .map(|(resource, count)| per_node(pool, resource) / (*count).max(1))
        .min()
        .unwrap_or(0)
}

/// A label of node `node` of `pool`: the pool's labels plus the
/// well-known ones the kubelet sets on its node, which win over a pool's
/// (`initialNode`, `updateDefaultLabels`; the deprecated `beta.` ones are
/// still set in 1.35; `explain::node::labels`).
pub fn pool_label<'p>(pool: &'p NodePool, node: &'p str, key: &str) -> Option<&'p str> {
    match key {
        "kubernetes.io/hostname" => Some(node),
        "kubernetes.io/os" | "beta.kubernetes.io/os" => Some("linux"),
        "kubernetes.io/arch" | "beta.kubernetes.io/arch" => Some("amd64"),
        _ => pool
            .labels
            .iter()
            .find(|(k, _)| k == key)
            .map(|(_, v)| v.as_str()),
    }
}

/// The NodeAffinity filter (scheduler-controllers.md §2): every
/// `nodeSelector` pair, and one of the required terms (each requirement
/// of it) when there are any, against a node's `label`s.
pub fn admits<'l>(pod: &PodSpec, label: impl Fn(&str) -> Option<&'l str>) -> bool {
    let selector = pod
        .node_selector
        .iter()
        .all(|(key, value)| label(key) == Some(value.as_str()));
    let requirement = |r: &Requirement| {
        let label = label(&r.key);
        let number = |text: &str| text.trim().parse::<i64>().ok();
        match r.operator.as_str() {
            "In" => label.is_some_and(|l| r.values.iter().any(|v| v == l)),
            "NotIn" => label.is_none_or(|l| r.values.iter().all(|v| v != l)),
            "Exists" => label.is_some(),
            "DoesNotExist" => label.is_none(),
            "Gt" | "Lt" => {
                let (Some(have), Some(bound)) = (
                    label.and_then(number),
                    r.values.first().and_then(|v| number(v)),
                ) else {
                    return false;
                };
                if r.operator == "Gt" {
                    have > bound
                } else {
                    have < bound
                }
            }
            _ => false,
        }
    };
    let affinity = pod.node_affinity.is_empty()
        || pod
            .node_affinity
            .iter()
            .any(|term| !term.is_empty() && term.iter().all(requirement));
    selector && affinity
}

/// Whether the pod's `nodeSelector` and required node affinity let it onto
/// some node of `pool` (the nodes differ only in `kubernetes.io/hostname`).
pub fn selects(pool: &NodePool, pod: &PodSpec) -> bool {
    if pod.node_selector.is_empty() && pod.node_affinity.is_empty() {
        return true;
    }
    (0..nodes(pool)).any(|index| {
        let name = node_name(pool, index);
        admits(pod, |key| pool_label(pool, &name, key))
    })
}

/// The node-condition taints the DaemonSet controller adds tolerations for
/// (`pkg/controller/daemon/util` `AddOrUpdateDaemonPodTolerations`).
const DAEMON_TOLERATED: &[&str] = &[
    "node.kubernetes.io/not-ready",
    "node.kubernetes.io/unreachable",
    "node.kubernetes.io/disk-pressure",
    "node.kubernetes.io/memory-pressure",
    "node.kubernetes.io/pid-pressure",
    "node.kubernetes.io/unschedulable",
];

/// The `NoSchedule`/`NoExecute` taints of `pool` that none of `tolerations`
/// tolerates (`PreferNoSchedule` never blocks; scheduler-controllers.md §2);
/// with `daemon`, the DaemonSet controller's automatic tolerations count too.
pub fn untolerated_taints<'p>(
    pool: &'p NodePool,
    tolerations: &[Toleration],
    daemon: bool,
) -> Vec<&'p Taint> {
    pool.taints
        .iter()
        .filter(|taint| matches!(taint.effect.as_str(), "NoSchedule" | "NoExecute"))
        .filter(|taint| !(daemon && DAEMON_TOLERATED.contains(&taint.key.as_str())))
        .filter(|taint| {
            !tolerations
                .iter()
                .any(|toleration| toleration.tolerates(&taint.key, &taint.value, &taint.effect))
        })
        .collect()
}

/// The blocking taints of `pool` for an ordinary (not DaemonSet) pod.
pub fn blocking_taints<'p>(pool: &'p NodePool, tolerations: &[Toleration]) -> Vec<&'p Taint> {
    untolerated_taints(pool, tolerations, false)
}

// ---- nodes and the scheduling cycle -------------------------------------------------

/// A node as the scheduler sees it: its pool (labels, taints, allocatable)
/// and what is still free on it.
#[derive(Clone, Debug)]
pub struct Node<'p> {
    pub name: String,
    pub pool: &'p NodePool,
    pub free_cpu_milli: i128,
    pub free_memory: i128,
    pub free_extended: Vec<(String, i64)>,
    /// `spec.unschedulable` (`kubectl cordon`).
    pub unschedulable: bool,
    /// Labels a `kubectl label node` set (`Some`) or removed (`None`)
    /// since the node joined, in order: the NodeAffinity filter reads the
    /// node's labels as they are now (`node_affinity.go` `Filter`).
    pub relabeled: Vec<(String, Option<String>)>,
}

impl<'p> Node<'p> {
    /// Node `index` of `pool`, with nothing on it.
    pub fn empty(pool: &'p NodePool, index: usize) -> Node<'p> {
        Node {
            name: node_name(pool, index),
            pool,
            free_cpu_milli: pool.cpu_milli,
            free_memory: pool.memory_bytes,
            free_extended: pool.extended_resources(),
            unschedulable: false,
            relabeled: Vec::new(),
        }
    }

    /// The NodeUnschedulable filter (`node_unschedulable.go` `Filter`): a
    /// cordoned node admits only a pod that tolerates the
    /// `node.kubernetes.io/unschedulable:NoSchedule` taint, which the
    /// DaemonSet controller adds to its pods
    /// (`AddOrUpdateDaemonPodTolerations`; scheduler-controllers.md §2).
    pub fn admits_while_cordoned(&self, pod: &PodSpec, daemon: bool) -> bool {
        !self.unschedulable
            || daemon
            || pod.tolerations.iter().any(|toleration| {
                toleration.tolerates("node.kubernetes.io/unschedulable", "", "NoSchedule")
            })
    }

    /// The NodeAffinity filter on this node.
    pub fn matches(&self, pod: &PodSpec) -> bool {
        admits(pod, |key| self.label(key))
    }

    /// Label `key` of the node now: the last `kubectl label` of it, else
    /// the pool's and the kubelet's.
    pub fn label(&self, key: &str) -> Option<&str> {
        match self.relabeled.iter().rev().find(|(k, _)| k == key) {
            Some((_, value)) => value.as_deref(),
            None => pool_label(self.pool, &self.name, key),
        }
    }

    /// The TaintToleration filter; a DaemonSet's pods also carry the
    /// controller's automatic tolerations for the node-condition taints.
    pub fn tolerated(&self, pod: &PodSpec, daemon: bool) -> bool {
        untolerated_taints(self.pool, &pod.tolerations, daemon).is_empty()
    }

    /// A bound pod takes its requests from the node.
    pub fn take(&mut self, request: &Request) {
        self.free_cpu_milli = self.free_cpu_milli.saturating_sub(request.cpu_milli);
        self.free_memory = self.free_memory.saturating_sub(request.memory);
        for (resource, count) in &request.extended {
            if let Some((_, free)) = self.free_extended.iter_mut().find(|(k, _)| k == resource) {
                *free = free.saturating_sub(*count);
            }
        }
    }

    /// A pod that stopped holding the node gives its requests back.
    pub fn give_back(&mut self, request: &Request) {
        self.free_cpu_milli = self.free_cpu_milli.saturating_add(request.cpu_milli);
        self.free_memory = self.free_memory.saturating_add(request.memory);
        for (resource, count) in &request.extended {
            if let Some((_, free)) = self.free_extended.iter_mut().find(|(k, _)| k == resource) {
                *free = free.saturating_add(*count);
            }
        }
    }
}

/// Every node of the Scenario's cluster, empty, in pool order.
pub fn cluster(scenario: &Scenario) -> Vec<Node<'_>> {
    scenario
        .node_pools
        .iter()
        .flat_map(|pool| (0..nodes(pool)).map(move |index| Node::empty(pool, index)))
        .collect()
}

/// Why a scheduling cycle found no node: how the nodes failed, as data.
/// The FailedScheduling text is written from it on demand (`message`), so
/// a caller that sees the same outcome again can keep the text it wrote.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Unschedulable {
    /// How many nodes the cycle looked at (every node of the cluster).
    pub nodes: usize,
    /// The rejected nodes grouped by their first failing filter's reasons,
    /// in the order the groups were first seen.
    pub rejections: Vec<Rejection>,
    /// Some node rejected the pod for resources that are merely in use
    /// (not above its allocatable), so a pod that frees them helps.
    pub waits_for_capacity: bool,
}

impl Unschedulable {
    /// The FailedScheduling message ([`failed_scheduling_message`]).
    pub fn message(&self) -> String {
        failed_scheduling_message(self.nodes, &self.rejections)
    }
}

/// How one node failed, before any text is written: a retried pod is
/// judged against every node on each attempt, so the reasons are words
/// only once per distinct outcome of the cycle.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Verdict {
    Cordoned,
    Taint,
    Affinity,
    /// NodeResourcesFit: the resources that did not fit, a range of the
    /// cycle's `lacking` list (0 cpu, 1 memory, 2 + i `request.extended[i]`).
    Insufficient {
        unresolvable: bool,
        start: usize,
        len: usize,
    },
}

/// One scheduling cycle: first fit over `nodes` in order, each node rejected
/// by its first failing filter: TaintToleration (NoSchedule/NoExecute must
/// be tolerated), NodeAffinity (nodeSelector, required terms, and a
/// DaemonSet pod's node `pin`), then cpu, memory and extended resources
/// against what is still free. Ok: the index of the node.
pub fn schedule<'n, 'p: 'n>(
    nodes: impl IntoIterator<Item = &'n Node<'p>>,
    pod: &PodSpec,
    pin: Option<usize>,
    request: &Request,
) -> Result<usize, Unschedulable> {
    // Rejected nodes counted per verdict, in first-seen order.
    let mut tally: Vec<(Verdict, usize)> = Vec::new();
    let mut lacking: Vec<usize> = Vec::new();
    let mut node_lacks: Vec<usize> = Vec::new();
    // A pool's allocatable of each extended resource the pod asks for,
    // for the nodes of the pool at hand (nodes come pool by pool).
    let mut allocatable: Option<(&NodePool, Vec<i64>)> = None;
    let mut waits_for_capacity = false;
    let mut total = 0usize;
    fn count(tally: &mut Vec<(Verdict, usize)>, verdict: Verdict) {
        match tally.iter_mut().find(|(known, _)| *known == verdict) {
            Some((_, nodes)) => *nodes += 1,
            None => tally.push((verdict, 1)),
        }
    }
    for (index, node) in nodes.into_iter().enumerate() {
        total += 1;
        // The default filter order: NodeUnschedulable first (§2).
        if !node.admits_while_cordoned(pod, pin.is_some()) {
            count(&mut tally, Verdict::Cordoned);
            continue;
        }
        if !node.tolerated(pod, pin.is_some()) {
            count(&mut tally, Verdict::Taint);
            continue;
        }
        if !node.matches(pod) || pin.is_some_and(|pin| pin != index) {
            count(&mut tally, Verdict::Affinity);
            continue;
        }
        node_lacks.clear();
        // v1.34+: a request above the node's allocatable is unresolvable (PR #131345).
        let mut above_allocatable = true;
        if request.cpu_milli > node.free_cpu_milli {
            node_lacks.push(0);
            above_allocatable &= request.cpu_milli > node.pool.cpu_milli;
        }
        if request.memory > node.free_memory {
            node_lacks.push(1);
            above_allocatable &= request.memory > node.pool.memory_bytes;
        }
        for (i, (name, wanted)) in request.extended.iter().enumerate() {
            let free = node
                .free_extended
                .iter()
                .find(|(known, _)| known == name)
                .map_or(0, |(_, free)| *free);
            if *wanted > free {
                node_lacks.push(2 + i);
                let per_pool = match &allocatable {
                    Some((pool, counts)) if std::ptr::eq(*pool, node.pool) => counts,
                    _ => {
                        let counts = request
                            .extended
                            .iter()
                            .map(|(name, _)| per_node(node.pool, name))
                            .collect();
                        &allocatable.insert((node.pool, counts)).1
                    }
                };
                above_allocatable &= *wanted > per_pool[i];
            }
        }
        if node_lacks.is_empty() {
            return Ok(index);
        }
        waits_for_capacity |= !above_allocatable;
        let known = tally.iter_mut().find(|(verdict, _)| match *verdict {
            Verdict::Insufficient {
                unresolvable,
                start,
                len,
            } => unresolvable == above_allocatable && lacking[start..start + len] == node_lacks[..],
            _ => false,
        });
        match known {
            Some((_, nodes)) => *nodes += 1,
            None => {
                let start = lacking.len();
                lacking.extend_from_slice(&node_lacks);
                let verdict = Verdict::Insufficient {
                    unresolvable: above_allocatable,
                    start,
                    len: node_lacks.len(),
                };
                tally.push((verdict, 1));
            }
        }
    }
    // The words, once per verdict; verdicts that read the same are one
    // group, first seen first (as `(*FitError).Error` counts reasons).
    let mut rejections: Vec<Rejection> = Vec::new();
    for (verdict, nodes) in tally {
        let (unresolvable, reasons) = match verdict {
            Verdict::Cordoned => (true, vec![NODE_UNSCHEDULABLE.to_string()]),
            Verdict::Taint => (true, vec![UNTOLERATED_TAINT.to_string()]),
            Verdict::Affinity => (true, vec![NODE_AFFINITY.to_string()]),
            Verdict::Insufficient {
                unresolvable,
                start,
                len,
            } => (
                unresolvable,
                lacking[start..start + len]
                    .iter()
                    .map(|&resource| match resource {
                        0 => "Insufficient cpu".to_string(),
                        1 => "Insufficient memory".to_string(),
                        i => format!("Insufficient {}", request.extended[i - 2].0),
                    })
                    .collect(),
            ),
        };
        let rejection = if unresolvable {
            Rejection::unresolvable(nodes, reasons)
        } else {
            Rejection::no_victims(nodes, reasons)
        };
        match rejections.iter_mut().find(|known| {
            known.reasons == rejection.reasons && known.preemption == rejection.preemption
        }) {
            Some(known) => known.nodes += nodes,
            None => rejections.push(rejection),
        }
    }
    Err(Unschedulable {
        nodes: total,
        rejections,
        waits_for_capacity,
    })
}

/// What the scheduler writes for the pods of `workload` alone on the
/// Scenario's empty cluster: up to `pods` of them are placed one after the
/// other (first fit, as the simulator does at creation), and the message of
/// the first that finds no node is returned; `None` when all `pods` fit.
/// With `pods = 1` it is the message of a pod that no node can take at all.
pub fn first_failure(scenario: &Scenario, workload: &Workload, pods: usize) -> Option<String> {
    let mut nodes = cluster(scenario);
    let request = Request::of(workload);
    // The pod as the API server stores it: admission may have added
    // tolerations (`Scenario::tolerations`, ExtendedResourceToleration), as
    // the simulator's pods have them.
    let tolerations = scenario.tolerations(&workload.pod);
    let admitted;
    let pod = if tolerations.len() == workload.pod.tolerations.len() {
        &workload.pod
    } else {
        let mut pod = workload.pod.clone();
        pod.tolerations = tolerations.into_owned();
        admitted = pod;
        &admitted
    };
    for _ in 0..pods {
        match schedule(&nodes, pod, None, &request) {
            Ok(index) => nodes.get_mut(index)?.take(&request),
            Err(unschedulable) => return Some(unschedulable.message()),
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    fn insufficient_gpu() -> Vec<String> {
        vec!["Insufficient nvidia.com/gpu".to_string()]
    }

    // scheduler-controllers.md §11 (a): 1 node, no nvidia.com/gpu advertised.
    #[test]
    fn no_device_plugin_is_unresolvable() {
        assert_eq!(
            failed_scheduling_message(1, &[Rejection::unresolvable(1, insufficient_gpu())]),
            "0/1 nodes are available: 1 Insufficient nvidia.com/gpu. no new claims to deallocate, preemption: 0/1 nodes are available: 1 Preemption is not helpful for scheduling."
        );
    }

    // §11 (b): 1 node whose GPU is taken by an equal-priority pod.
    #[test]
    fn gpu_in_use_has_no_victims() {
        assert_eq!(
            failed_scheduling_message(1, &[Rejection::no_victims(1, insufficient_gpu())]),
            "0/1 nodes are available: 1 Insufficient nvidia.com/gpu. no new claims to deallocate, preemption: 0/1 nodes are available: 1 No preemption victims found for incoming pod."
        );
    }

    // §11 (c): 1 tainted GPU node and 2 CPU-only nodes.
    #[test]
    fn tainted_gpu_node_and_cpu_nodes() {
        assert_eq!(
            failed_scheduling_message(
                3,
                &[
                    Rejection::unresolvable(1, vec![UNTOLERATED_TAINT.into()]),
                    Rejection::unresolvable(2, insufficient_gpu()),
                ]
            ),
            "0/3 nodes are available: 1 node(s) had untolerated taint(s), 2 Insufficient nvidia.com/gpu. no new claims to deallocate, preemption: 0/3 nodes are available: 3 Preemption is not helpful for scheduling."
        );
    }

    // §1.4 E1 (PROFILE-NEW): 3 nodes, each GPU in use.
    #[test]
    fn three_full_nodes() {
        assert_eq!(
            failed_scheduling_message(3, &[Rejection::no_victims(3, insufficient_gpu())]),
            "0/3 nodes are available: 3 Insufficient nvidia.com/gpu. no new claims to deallocate, preemption: 0/3 nodes are available: 3 No preemption victims found for incoming pod."
        );
    }

    // §1.4 E2 (PROFILE-NEW): 2 cordoned nodes and 1 with too little free CPU.
    #[test]
    fn cordoned_and_busy_nodes() {
        assert_eq!(
            failed_scheduling_message(
                3,
                &[
                    Rejection::unresolvable(2, vec!["node(s) were unschedulable".into()]),
                    Rejection::no_victims(1, vec!["Insufficient cpu".into()]),
                ]
            ),
            "0/3 nodes are available: 1 Insufficient cpu, 2 node(s) were unschedulable. no new claims to deallocate, preemption: 0/3 nodes are available: 1 No preemption victims found for incoming pod, 2 Preemption is not helpful for scheduling."
        );
    }

    // §1.4 E3 (PROFILE-NEW): a control-plane taint on a 1-node cluster.
    #[test]
    fn single_tainted_node() {
        assert_eq!(
            failed_scheduling_message(1, &[Rejection::unresolvable(1, vec![UNTOLERATED_TAINT.into()])]),
            "0/1 nodes are available: 1 node(s) had untolerated taint(s). no new claims to deallocate, preemption: 0/1 nodes are available: 1 Preemption is not helpful for scheduling."
        );
    }

    // §1.4 E4 with the v1.35 taint text: "10 …" sorts before "2 …".
    #[test]
    fn counts_sort_as_strings() {
        assert_eq!(
            failed_scheduling_message(
                12,
                &[
                    Rejection::no_victims(10, vec!["Insufficient cpu".into()]),
                    Rejection::unresolvable(2, vec![UNTOLERATED_TAINT.into()]),
                ]
            ),
            "0/12 nodes are available: 10 Insufficient cpu, 2 node(s) had untolerated taint(s). no new claims to deallocate, preemption: 0/12 nodes are available: 10 No preemption victims found for incoming pod, 2 Preemption is not helpful for scheduling."
        );
    }

    // §1.4 E1's real event: a node may give two reasons; counts add up past N.
    #[test]
    fn several_reasons_per_node() {
        assert_eq!(
            failed_scheduling_message(
                11,
                &[
                    Rejection::no_victims(
                        4,
                        vec!["Insufficient memory".into(), "Insufficient cpu".into()]
                    ),
                    Rejection::no_victims(6, vec!["Insufficient memory".into()]),
                    Rejection::no_victims(1, vec![]),
                ]
            ),
            "0/11 nodes are available: 10 Insufficient memory, 4 Insufficient cpu. no new claims to deallocate, preemption: 0/11 nodes are available: 11 No preemption victims found for incoming pod."
        );
    }

    #[test]
    fn preemption_that_still_fails_repeats_the_filter() {
        assert_eq!(
            failed_scheduling_message(
                2,
                &[Rejection {
                    nodes: 2,
                    reasons: insufficient_gpu(),
                    preemption: Preemption::StillRejected(insufficient_gpu()),
                }]
            ),
            "0/2 nodes are available: 2 Insufficient nvidia.com/gpu. no new claims to deallocate, preemption: 0/2 nodes are available: 2 Insufficient nvidia.com/gpu."
        );
    }

    #[test]
    fn absent_nodes_and_an_empty_cluster() {
        assert_eq!(
            failed_scheduling_message(0, &[]),
            "no nodes available to schedule pods"
        );
        // 2 nodes rejected as busy, 1 never evaluated.
        assert_eq!(
            failed_scheduling_message(3, &[Rejection::no_victims(2, insufficient_gpu())]),
            "0/3 nodes are available: 2 Insufficient nvidia.com/gpu. no new claims to deallocate, preemption: 0/3 nodes are available: 1 Preemption is not helpful for scheduling, 2 No preemption victims found for incoming pod."
        );
    }
}
