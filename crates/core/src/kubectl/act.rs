//! The commands that act, at the cursor's time: what kubectl v1.35.2
//! prints for `delete pod`, `cordon`, `uncordon` and `drain`, and the
//! action each records in the Scenario (`Output::acts`; `controls::record`
//! writes it into the text, `sim/act.rs` performs it). The texts were
//! checked against the real kubectl through the fake API server
//! (`crates/cli/tests/kubectl/acts.rs`); their sources:
//! - delete: `staging/src/k8s.io/kubectl/pkg/cmd/delete/delete.go`
//!   (`PrintObj`: `<kind> "<name>" deleted from <namespace> namespace`,
//!   `force deleted` when the grace period is 0; the warning of
//!   `--force`; NotFound per name, the others still deleted);
//! - cordon/uncordon: `pkg/cmd/drain/drain.go` `RunCordonOrUncordon` and
//!   `pkg/drain/cordon.go` (`node/<name> cordoned`, `already cordoned`);
//! - drain: `pkg/cmd/drain/drain.go` `RunDrain` and `pkg/drain/filters.go`
//!   (`daemonSetFilter`, `localStorageFilter`, `unreplicatedFilter`: each
//!   pod's status is the last filter's, a later one dropping an earlier
//!   warning; errors and warnings grouped by message).
//!
//! kubectl then waits for what it deleted to be gone; the cursor stays at
//! T, and a note says what kubectl waits for.

use super::{node_names, not_found, Output};
use crate::exercise::exec::ExecContext;
use crate::manifest::duration::{self, Millis};
use crate::manifest::scenario::{Act, Delete, NodeRef};
use crate::sim::PodRun;
use crate::span::Span;
use crate::text;

/// `kubectl delete pod NAME…`.
pub(super) fn delete(
    context: &ExecContext,
    namespace: &str,
    pods: &[String],
    grace_period: Option<i64>,
    force: bool,
    at: Millis,
) -> Output {
    let mut output = Output::out(String::new());
    if force {
        // `--force` (its grace is 0 or unset, `parse/act.rs` refused more).
        output.stderr.push_str("Warning: Immediate deletion does not wait for confirmation that the running resource has been terminated. The resource may continue to run on the cluster indefinitely.\n");
    }
    let operation = if force { "force deleted" } else { "deleted" };
    for name in pods {
        let pod = existing(context, name, at).filter(|_| namespace == "default");
        let Some(pod) = pod else {
            output.stderr.push_str(&not_found_text("pods", name));
            output.exit_code = 1;
            continue;
        };
        output.stdout.push_str(&format!(
            "pod \"{name}\" {operation} from {namespace} namespace\n"
        ));
        let delete = Delete {
            pod: name.clone(),
            span: Span::empty(0),
            grace_period_seconds: grace_period,
            force,
        };
        let grace = delete.grace().unwrap_or_else(|| pod.grace_seconds());
        output.acts.push(Act::Delete(delete));
        let when = duration::format(at);
        output.notes.push(if grace == 0 {
            text!(
                "the pod object is gone at {when}; the kubelet still stops its containers, and its owner makes a replacement now: move the cursor on to watch",
                "Pod 物件在 {when} 立即消失；kubelet 仍會停止它的容器，它的擁有者此刻就建立替代的 Pod：把游標往後移即可觀察"
            )
        } else {
            text!(
                "kubectl now waits until `{name}` is gone: its containers get SIGTERM and up to {grace}s to stop. The cursor stays at {when}; move it on to see the termination and what replaces the pod",
                "kubectl 接著會等到 `{name}` 消失：它的容器收到 SIGTERM，最多有 {grace} 秒可以結束。游標停在 {when}；往後移即可看到終止過程以及取代它的 Pod"
            )
        });
    }
    output
}

/// `Error from server (NotFound): <resource> "<name>" not found` as a line.
fn not_found_text(resource: &str, name: &str) -> String {
    format!("Error from server (NotFound): {resource} \"{name}\" not found\n")
}

/// The pod of that name that exists at `at` (the newest: a StatefulSet's
/// replacement has the old one's name).
fn existing<'r>(context: &'r ExecContext, name: &str, at: Millis) -> Option<&'r PodRun> {
    context
        .run
        .pods
        .iter()
        .rev()
        .find(|pod| pod.name == name && pod.exists_at(at))
}

/// `kubectl scale deployment|rs NAME… --replicas=N`
/// (`staging/src/k8s.io/kubectl/pkg/cmd/scale/scale.go`: the scale
/// subresource patched, `<kind>.apps/<name> scaled`; a missing name is
/// NotFound, the others still scaled). A Deployment's own ReplicaSet is
/// scaled back by the Deployment controller at once: said, not recorded.
pub(super) fn scale(
    context: &ExecContext,
    namespace: &str,
    kind: super::Kind,
    names: &[String],
    replicas: i64,
) -> Output {
    use crate::manifest::model::WorkloadKind;
    use crate::manifest::scenario::Scale;
    let mut output = Output::out(String::new());
    let (singular, workload_kind) = match kind {
        super::Kind::ReplicaSet => ("replicaset.apps", WorkloadKind::ReplicaSet),
        _ => ("deployment.apps", WorkloadKind::Deployment),
    };
    for name in names {
        let written = context
            .reading
            .workloads
            .iter()
            .any(|w| w.kind == workload_kind && w.name == *name);
        let owner = context.run.deployments.iter().find(|d| {
            workload_kind == WorkloadKind::ReplicaSet
                && d.replica_sets.iter().any(|rs| rs.name == *name)
        });
        if namespace != "default" || !(written || owner.is_some()) {
            output.stderr.push_str(&not_found_text(kind.plural(), name));
            output.exit_code = 1;
            continue;
        }
        output.stdout.push_str(&format!(
            "{singular}/{name} scaled
"
        ));
        match owner.filter(|_| !written) {
            Some(deployment) => {
                let deployment = &deployment.name;
                output.notes.push(text!(
                    "the Deployment `{deployment}` owns `{name}`: its controller sets the ReplicaSet's replicas back at once, so podlab records nothing; scale the Deployment instead",
                    "`{name}` 屬於 Deployment `{deployment}`：它的控制器會立刻把 ReplicaSet 的副本數改回去，所以 podlab 不記錄；請改為調整 Deployment"
                ));
            }
            None => output.acts.push(Act::Scale(Scale {
                name: name.clone(),
                replicas,
            })),
        }
    }
    output
}

/// `kubectl rollout restart deployment [NAME…]`
/// (`staging/src/k8s.io/kubectl/pkg/cmd/rollout/rollout_restart.go`:
/// `<kind>.apps/<name> restarted`; no name: every Deployment, in name
/// order; a missing one NotFound, the others restarted).
pub(super) fn restart(
    context: &ExecContext,
    namespace: &str,
    names: &[String],
    at: Millis,
) -> Output {
    use crate::manifest::model::WorkloadKind;
    use crate::manifest::scenario::DeploymentRef;
    let deployments: Vec<&str> = context
        .reading
        .workloads
        .iter()
        .filter(|w| w.kind == WorkloadKind::Deployment && namespace == "default")
        .map(|w| w.name.as_str())
        .collect();
    let mut all: Vec<String> = deployments.iter().map(|name| name.to_string()).collect();
    crate::sort::sort(&mut all);
    let wanted = if names.is_empty() { &all } else { names };
    if wanted.is_empty() {
        // The builder listed nothing (checked with the binary).
        return Output::none_found(namespace);
    }
    let mut output = Output::out(String::new());
    for name in wanted {
        if !deployments.contains(&name.as_str()) {
            output
                .stderr
                .push_str(&not_found_text("deployments.apps", name));
            output.exit_code = 1;
            continue;
        }
        output
            .stdout
            .push_str(&format!("deployment.apps/{name} restarted\n"));
        output.acts.push(Act::Restart(DeploymentRef {
            deployment: name.clone(),
            span: Span::empty(0),
        }));
    }
    if !output.acts.is_empty() {
        let when = duration::format(at);
        output.notes.push(text!(
            "the template's kubectl.kubernetes.io/restartedAt annotation changes at {when}: a new ReplicaSet rolls out as for a new image, with the same pods. Move the cursor on to watch the rollout",
            "範本的 kubectl.kubernetes.io/restartedAt 註解在 {when} 改變：新的 ReplicaSet 會像換映像一樣逐步上線，Pod 內容相同。把游標往後移即可觀察"
        ));
    }
    output
}

/// `kubectl cordon|uncordon NODE…`: every node is read first (a missing one
/// stops the command before any change), then each is patched.
pub(super) fn cordon(context: &ExecContext, nodes: &[String], cordon: bool, at: Millis) -> Output {
    let known = node_names(context);
    if let Some(missing) = nodes.iter().find(|node| !known.contains(node)) {
        return not_found(super::Kind::Node, missing);
    }
    let mut output = Output::out(String::new());
    let verb = if cordon { "cordon" } else { "uncordon" };
    for node in nodes {
        if context.run.cordoned_at(node, at) == cordon {
            output
                .stdout
                .push_str(&format!("node/{node} already {verb}ed\n"));
            continue;
        }
        output.stdout.push_str(&format!("node/{node} {verb}ed\n"));
        let named = NodeRef {
            node: node.clone(),
            span: Span::empty(0),
        };
        output.acts.push(if cordon {
            Act::Cordon(named)
        } else {
            Act::Uncordon(named)
        });
    }
    output
}

/// What drain's filters decided for one pod (`PodDeleteStatus`).
#[derive(Clone, Copy, PartialEq, Eq)]
enum Status {
    Okay,
    /// Deleted (`true`) or skipped, with a warning.
    Warning(bool, &'static str),
    Error(&'static str),
}

impl Status {
    fn deletes(self) -> bool {
        matches!(self, Status::Okay | Status::Warning(true, _))
    }
}

/// `kubectl drain NODE`: cordon, the filters, then the evictions.
pub(super) fn drain(
    context: &ExecContext,
    node: &str,
    flags: (bool, bool, bool),
    at: Millis,
) -> Output {
    let (ignore_daemonsets, force, delete_emptydir_data) = flags;
    if !node_names(context).iter().any(|known| known == node) {
        return not_found(super::Kind::Node, node);
    }
    let mut output = Output::out(String::new());
    let cordoned = context.run.cordoned_at(node, at);
    if cordoned {
        output
            .stdout
            .push_str(&format!("node/{node} already cordoned\n"));
    } else {
        output.stdout.push_str(&format!("node/{node} cordoned\n"));
    }
    // The pods bound to the node, as the API server lists them (by name).
    let mut pods: Vec<&PodRun> = context
        .run
        .pods
        .iter()
        .filter(|pod| {
            pod.exists_at(at)
                && pod
                    .node
                    .as_ref()
                    .is_some_and(|(bound, when)| bound == node && *when <= at)
        })
        .collect();
    crate::sort::sort_by(&mut pods, |a, b| a.name.cmp(&b.name));
    let statuses: Vec<(&PodRun, Status)> = pods
        .iter()
        .map(|pod| {
            let finished = matches!(pod.phase_at(at), "Succeeded" | "Failed");
            let daemon = || {
                if !pod.owner.starts_with("DaemonSet/") || finished {
                    Status::Okay
                } else if ignore_daemonsets {
                    Status::Warning(false, "ignoring DaemonSet-managed Pods")
                } else {
                    Status::Error("DaemonSet-managed Pods (use --ignore-daemonsets to ignore)")
                }
            };
            let local = || {
                let empty_dir = pod
                    .spec
                    .volumes
                    .iter()
                    .any(|v| v.empty_dir_medium.is_some());
                if !empty_dir || finished {
                    Status::Okay
                } else if delete_emptydir_data {
                    Status::Warning(true, "deleting Pods with local storage")
                } else {
                    Status::Error(
                        "Pods with local storage (use --delete-emptydir-data to override)",
                    )
                }
            };
            let unreplicated = || {
                if !pod.owner.starts_with("Pod/") || finished {
                    Status::Okay
                } else if force {
                    Status::Warning(true, "deleting Pods that declare no controller")
                } else {
                    Status::Error(
                        "cannot delete Pods that declare no controller (use --force to override)",
                    )
                }
            };
            let mut status = Status::Okay;
            for filter in [&daemon as &dyn Fn() -> Status, &local, &unreplicated] {
                status = filter();
                if !status.deletes() {
                    break;
                }
            }
            (*pod, status)
        })
        .collect();
    let grouped = |wanted: &dyn Fn(Status) -> Option<&'static str>| {
        let mut groups: Vec<(&'static str, Vec<String>)> = Vec::new();
        for (pod, status) in &statuses {
            let Some(message) = wanted(*status) else {
                continue;
            };
            let name = format!("default/{}", pod.name);
            match groups.iter_mut().find(|(known, _)| *known == message) {
                Some((_, names)) => names.push(name),
                None => groups.push((message, vec![name])),
            }
        }
        groups
            .into_iter()
            .map(|(message, names)| format!("{message}: {}", names.join(", ")))
            .collect::<Vec<String>>()
    };
    let errors: Vec<String> = grouped(&|status| match status {
        Status::Error(message) => Some(message),
        _ => None,
    })
    .into_iter()
    .map(|error| format!("cannot delete {error}"))
    .collect();
    let named = NodeRef {
        node: node.to_string(),
        span: Span::empty(0),
    };
    if !errors.is_empty() {
        let joined = if errors.len() == 1 {
            errors[0].clone()
        } else {
            format!("[{}]", errors.join(", "))
        };
        output.stderr = format!(
            "error: unable to drain node \"{node}\" due to error: {joined}, continuing command...\nThere are pending nodes to be drained:\n {node}\n{}\n",
            errors.join("\n")
        );
        output.exit_code = 1;
        if !cordoned {
            output.acts.push(Act::Cordon(named));
        }
        return output;
    }
    let warnings = grouped(&|status| match status {
        Status::Warning(_, message) => Some(message),
        _ => None,
    });
    if !warnings.is_empty() {
        output.stderr = format!("Warning: {}\n", warnings.join("; "));
    }
    let evicted: Vec<&PodRun> = statuses
        .iter()
        .filter(|(_, status)| status.deletes())
        .map(|(pod, _)| *pod)
        .collect();
    for pod in &evicted {
        output
            .stdout
            .push_str(&format!("evicting pod default/{}\n", pod.name));
    }
    for pod in &evicted {
        output
            .stdout
            .push_str(&format!("pod/{} evicted\n", pod.name));
    }
    output.stdout.push_str(&format!("node/{node} drained\n"));
    output.acts.push(Act::Drain(named));
    if !evicted.is_empty() {
        let when = duration::format(at);
        output.notes.push(text!(
            "kubectl evicts the pods together (the order of its lines varies) and waits for each to be gone, up to its grace period, before `drained`. The cursor stays at {when}; move it on to see the evictions and where the replacements land",
            "kubectl 會同時驅逐這些 Pod（輸出行的順序每次不同），並等每個 Pod 在寬限期內消失後才印出 `drained`。游標停在 {when}；往後移即可看到驅逐過程以及替代的 Pod 落在哪裡"
        ));
    }
    output
}
