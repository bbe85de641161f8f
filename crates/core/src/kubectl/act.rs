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
//! - set resources, set image: `pkg/cmd/set/set_resources.go`,
//!   `set_image.go` (the template changed, a strategic merge patch of the
//!   difference, `<kind>/<name> resource requirements updated` or `image
//!   updated`; nothing printed when nothing changes; `unable to find
//!   container named`);
//! - rollout undo: `pkg/cmd/rollout/rollout_undo.go` and
//!   `pkg/polymorphichelpers/rollback.go` (`rolled back`, `skipped
//!   rollback (current template already matches revision N)`, `no rollout
//!   history found`, `unable to find specified revision N in history`);
//! - patch: `pkg/cmd/patch/patch.go` (`patched`, or `patched (no change)`
//!   when the object the server returns equals the one before).
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
            // A pod a relabel released has no controller either.
            let unreplicated = || {
                if (!pod.owner.starts_with("Pod/") && pod.owned_at(at)) || finished {
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

/// `kubectl set resources|image` and `kubectl patch` of Deployments: the
/// object at `at` (`manifest::patch::deployment_at`, the recorded changes
/// before it included), the patch kubectl sends, and the `patch` action
/// that changes the template from `at` on (`sim/act.rs`).
pub(super) fn patch(
    context: &ExecContext,
    namespace: &str,
    names: &[String],
    change: &super::parse::Change,
    at: Millis,
) -> Output {
    use super::parse::Change;
    use crate::manifest::canonical::Canon;
    use crate::manifest::patch::{merge, PatchType};
    use crate::manifest::scenario::Patch;
    // The builder reads every name first: a missing one stops the command.
    let objects: Vec<Option<crate::manifest::yaml::Node>> = names
        .iter()
        .map(|name| deployment_object(context, namespace, name, at).map(|history| history.object))
        .collect();
    if let Some(missing) = names.iter().zip(&objects).find(|(_, o)| o.is_none()) {
        return Output::error(not_found_text("deployments.apps", missing.0));
    }
    // What each Deployment's patch is made of, checked once.
    let prepared = match change {
        Change::Resources {
            containers,
            limits,
            requests,
        } => {
            if limits.is_empty() && requests.is_empty() {
                return Output::error("error: you must specify an update to requests or limits (in the form of --requests/--limits)\n".into());
            }
            match (resource_list(limits), resource_list(requests)) {
                (Ok(limits), Ok(requests)) => Prepared::Resources(containers, limits, requests),
                (Err(error), _) | (_, Err(error)) => return Output::error(error),
            }
        }
        Change::Image { pairs } => Prepared::Image(pairs),
        Change::Body { body, kind } => match patch_body(body) {
            Ok(parsed) => Prepared::Body(parsed, *kind),
            Err(output) => return output,
        },
    };
    let kind = match prepared {
        Prepared::Body(_, kind) => kind,
        _ => PatchType::Strategic,
    };
    let operation = match change {
        Change::Resources { .. } => "resource requirements updated",
        Change::Image { .. } => "image updated",
        Change::Body { .. } => "patched",
    };
    let mut output = Output::out(String::new());
    for (name, object) in names.iter().zip(objects.into_iter().flatten()) {
        let body = match prepared.body(&object) {
            Ok(body) => body,
            Err(error) => {
                output.stderr.push_str(&error);
                output.exit_code = 1;
                continue;
            }
        };
        let changed = Canon::of(&merge(&object, &body, kind)) != Canon::of(&object);
        match (changed, change) {
            (true, _) => output
                .stdout
                .push_str(&format!("deployment.apps/{name} {operation}\n")),
            (false, Change::Body { .. }) => output
                .stdout
                .push_str(&format!("deployment.apps/{name} patched (no change)\n")),
            // `set`: an empty patch is skipped, nothing printed.
            (false, _) => {}
        }
        if changed {
            output.acts.push(Act::Patch(Patch {
                deployment: name.clone(),
                span: Span::empty(0),
                kind,
                body,
            }));
        }
    }
    if !output.acts.is_empty() {
        let when = duration::format(at);
        output.notes.push(text!(
            "the pod template changes at {when}: a new ReplicaSet rolls out with it, and the pods made before keep the old template until they are replaced. Move the cursor on to watch",
            "Pod 範本在 {when} 改變：新的 ReplicaSet 會以它逐步上線，之前建立的 Pod 在被取代前仍是舊範本。把游標往後移即可觀察"
        ));
    }
    output
}

/// Deployment `name` as the API server holds it at `at`, with its
/// revisions (`manifest::patch::deployment_at`); `None` outside `default`
/// or for a Deployment the text does not have (kubectl's NotFound).
fn deployment_object(
    context: &ExecContext,
    namespace: &str,
    name: &str,
    at: Millis,
) -> Option<crate::manifest::patch::History> {
    (namespace == "default")
        .then(|| {
            crate::manifest::patch::deployment_at(
                &context.source,
                &context.reading.scenario,
                name,
                at,
            )
        })
        .flatten()
}

/// `kubectl rollout undo deployment NAME… [--to-revision=N]`: the
/// Deployment's revisions at T (`manifest::patch::History`, the recorded
/// changes up to T), kubectl's line per name, and an `undo` action for
/// each that rolls back.
pub(super) fn undo(
    context: &ExecContext,
    namespace: &str,
    names: &[String],
    to_revision: i64,
    at: Millis,
) -> Output {
    use crate::manifest::patch::Unrolled;
    use crate::manifest::scenario::Undo;
    let mut output = Output::out(String::new());
    for name in names {
        let Some(mut history) = deployment_object(context, namespace, name, at) else {
            output
                .stderr
                .push_str(&not_found_text("deployments.apps", name));
            output.exit_code = 1;
            continue;
        };
        match history.undo((to_revision > 0).then_some(to_revision)) {
            Ok(_) => {
                output
                    .stdout
                    .push_str(&format!("deployment.apps/{name} rolled back\n"));
                output.acts.push(Act::Undo(Undo {
                    deployment: name.clone(),
                    span: Span::empty(0),
                    to_revision: (to_revision > 0).then_some(to_revision),
                }));
            }
            Err(Unrolled::Current(revision)) => output.stdout.push_str(&format!(
                "deployment.apps/{name} skipped rollback (current template already matches revision {revision})\n"
            )),
            Err(Unrolled::NoHistory) => {
                output.stderr.push_str(&format!(
                    "error: no rollout history found for deployment \"{name}\"\n"
                ));
                output.exit_code = 1;
            }
            Err(Unrolled::NoRevision(revision)) => {
                output.stderr.push_str(&format!(
                    "error: unable to find specified revision {revision} in history\n"
                ));
                output.exit_code = 1;
            }
        }
    }
    if !output.acts.is_empty() {
        let when = duration::format(at);
        output.notes.push(text!(
            "the Deployment's template goes back to that revision's at {when}: its old ReplicaSet scales up again and takes the next revision number. Move the cursor on to watch",
            "Deployment 的範本在 {when} 回到該 revision 的版本：舊的 ReplicaSet 重新擴增，並拿到下一個 revision 編號。把游標往後移即可觀察"
        ));
    }
    output
}

/// `kubectl rollout history deployment NAME…`
/// (`pkg/polymorphichelpers/history.go` `DeploymentHistoryViewer`): the
/// revisions of the Deployment's ReplicaSets at T, in order, each with its
/// `kubernetes.io/change-cause` (none is ever set here: `<none>`), in a
/// tabwriter's columns; a read, recorded as nothing.
pub(super) fn history(
    context: &ExecContext,
    namespace: &str,
    names: &[String],
    at: Millis,
) -> Output {
    let mut output = Output::out(String::new());
    for name in names {
        let deployment = context
            .run
            .deployments
            .iter()
            .find(|d| d.name == *name && namespace == "default");
        let Some(deployment) = deployment else {
            output
                .stderr
                .push_str(&not_found_text("deployments.apps", name));
            output.exit_code = 1;
            continue;
        };
        let mut revisions: Vec<usize> = deployment
            .replica_sets
            .iter()
            .filter(|rs| rs.created <= at)
            .map(|rs| rs.revision_at(at))
            .collect();
        revisions.sort_unstable();
        // `tabbedString`: `printers.GetNewTabWriter` (minwidth 0, padding
        // 2): the first column as wide as its longest cell plus 2.
        let cells: Vec<String> = revisions.iter().map(usize::to_string).collect();
        let width = cells
            .iter()
            .map(String::len)
            .chain(["REVISION".len()])
            .max()
            .unwrap_or(0)
            + 2;
        output
            .stdout
            .push_str(&format!("deployment.apps/{name} \n"));
        output
            .stdout
            .push_str(&format!("{:<width$}CHANGE-CAUSE\n", "REVISION"));
        for cell in cells {
            output.stdout.push_str(&format!("{cell:<width$}<none>\n"));
        }
        output.stdout.push('\n');
    }
    output
}

/// A `set`'s or `patch`'s change, checked: what makes each Deployment's
/// patch.
enum Prepared<'c> {
    /// The containers selector, the limits and the requests.
    Resources(&'c str, Vec<(String, String)>, Vec<(String, String)>),
    Image(&'c [(String, String)]),
    Body(
        crate::manifest::yaml::Node,
        crate::manifest::patch::PatchType,
    ),
}

impl Prepared<'_> {
    /// The patch kubectl sends for `object` (the Deployment at T), or the
    /// error it prints for it.
    fn body(
        &self,
        object: &crate::manifest::yaml::Node,
    ) -> Result<crate::manifest::yaml::Node, String> {
        match self {
            Prepared::Resources(selector, limits, requests) => {
                resources_patch(object, selector, limits, requests)
            }
            Prepared::Image(pairs) => image_patch(object, pairs),
            Prepared::Body(body, _) => Ok(body.clone()),
        }
    }
}

/// `--limits`/`--requests` as `HandleResourceRequirementsV1` reads them
/// (`pkg/generate/versioned/generator.go` `populateResourceListV1`):
/// `name=quantity` pairs separated by commas.
fn resource_list(spec: &str) -> Result<Vec<(String, String)>, String> {
    if spec.is_empty() {
        return Ok(Vec::new());
    }
    spec.split(',')
        .map(|statement| {
            let parts: Vec<&str> = statement.split('=').collect();
            let [name, value] = parts.as_slice() else {
                return Err(format!(
                    "error: Invalid argument syntax {statement}, expected <resource>=<value>\n"
                ));
            };
            crate::manifest::quantity::parse(value).map_err(|_| {
                "error: quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'\n".to_string()
            })?;
            Ok((name.to_string(), value.to_string()))
        })
        .collect()
}

/// The template's container lists of a Deployment object: (field, items).
fn container_lists(
    object: &crate::manifest::yaml::Node,
) -> Vec<(&'static str, &[crate::manifest::yaml::Node])> {
    let spec = object
        .get("spec")
        .and_then(|s| s.get("template"))
        .and_then(|t| t.get("spec"));
    ["initContainers", "containers"]
        .into_iter()
        .filter_map(|field| Some((field, spec?.get(field)?.items()?)))
        .collect()
}

fn name_of(container: &crate::manifest::yaml::Node) -> &str {
    container
        .get("name")
        .and_then(crate::manifest::yaml::Node::as_str)
        .unwrap_or("")
}

/// `{spec: {template: {spec: {FIELD: [ITEMS]}}}}`, the fields in order.
fn template_patch(
    lists: Vec<(&str, Vec<crate::manifest::yaml::Node>)>,
) -> crate::manifest::yaml::Node {
    use crate::manifest::patch::map;
    let span = Span::empty(0);
    let entries = lists
        .into_iter()
        .filter(|(_, items)| !items.is_empty())
        .map(|(field, items)| {
            (
                field,
                crate::manifest::yaml::Node {
                    kind: crate::manifest::yaml::NodeKind::Seq(items),
                    span,
                },
            )
        })
        .collect();
    let pod = map(entries, span);
    map(
        vec![(
            "spec",
            map(vec![("template", map(vec![("spec", pod)], span))], span),
        )],
        span,
    )
}

/// `set resources`: the selected containers (init containers too, as
/// `selectContainers` picks both) with the given limits and requests.
fn resources_patch(
    object: &crate::manifest::yaml::Node,
    selector: &str,
    limits: &[(String, String)],
    requests: &[(String, String)],
) -> Result<crate::manifest::yaml::Node, String> {
    use crate::manifest::patch::{map, scalar};
    let span = Span::empty(0);
    let list = |pairs: &[(String, String)]| {
        map(
            pairs
                .iter()
                .map(|(name, value)| (name.as_str(), scalar(value, span)))
                .collect(),
            span,
        )
    };
    let mut found = false;
    let mut lists = Vec::new();
    for (field, containers) in container_lists(object) {
        let mut items = Vec::new();
        for container in containers {
            let name = name_of(container);
            if !glob(selector, name) {
                continue;
            }
            found = true;
            let mut resources = Vec::new();
            if !limits.is_empty() {
                resources.push(("limits", list(limits)));
            }
            if !requests.is_empty() {
                resources.push(("requests", list(requests)));
            }
            items.push(map(
                vec![
                    ("name", scalar(name, span)),
                    ("resources", map(resources, span)),
                ],
                span,
            ));
        }
        lists.push((field, items));
    }
    if !found {
        return Err(format!(
            "error: unable to find container named {selector}\n"
        ));
    }
    Ok(template_patch(lists))
}

/// `set image`: each named container (`*`: every one) gets its image.
fn image_patch(
    object: &crate::manifest::yaml::Node,
    pairs: &[(String, String)],
) -> Result<crate::manifest::yaml::Node, String> {
    use crate::manifest::patch::{map, scalar};
    let span = Span::empty(0);
    let mut errors = String::new();
    let mut lists = Vec::new();
    let container_lists = container_lists(object);
    for (wanted, _) in pairs {
        let known = container_lists
            .iter()
            .any(|(_, items)| items.iter().any(|c| wanted == "*" || name_of(c) == wanted));
        if !known {
            errors.push_str(&format!(
                "error: unable to find container named \"{wanted}\"\n"
            ));
        }
    }
    for (field, containers) in &container_lists {
        let mut items = Vec::new();
        for container in *containers {
            let name = name_of(container);
            // The last pair naming the container wins (a Go map has one).
            let image = pairs
                .iter()
                .rev()
                .find(|(wanted, _)| wanted == "*" || wanted == name)
                .map(|(_, image)| image);
            if let Some(image) = image {
                items.push(map(
                    vec![("name", scalar(name, span)), ("image", scalar(image, span))],
                    span,
                ));
            }
        }
        lists.push((*field, items));
    }
    if !errors.is_empty() {
        return Err(errors);
    }
    Ok(template_patch(lists))
}

/// `-p`'s text read as kubectl reads it (`yaml.ToJSON`: JSON or YAML),
/// a mapping of the Deployment's `metadata` and `spec` checked against
/// the Deployment's fields as the API server's strict field validation
/// would.
fn patch_body(body: &str) -> Result<crate::manifest::yaml::Node, Output> {
    use crate::manifest::yaml::{self, Limits};
    let index = crate::span::LineIndex::new(body);
    let stream = yaml::parse(body, &index, &Limits::default());
    let position = |span: Span| {
        let at = index.line_col(body, span.start);
        (at.line, at.column)
    };
    if let Some(error) = stream.diagnostics.first() {
        let (line, column) = position(error.span);
        let mut output = Output::error(format!(
            "error: unable to parse \"{body}\": the patch is not valid YAML or JSON\n"
        ));
        let message = &error.message;
        output.notes.push(text!(
            "the patch's line {line}, column {column}: {message}",
            "patch 的第 {line} 行第 {column} 欄：{message}"
        ));
        return Err(output);
    }
    let root = stream
        .documents
        .into_iter()
        .find_map(|document| document.root)
        .filter(|root| root.entries().is_some());
    let Some(root) = root else {
        return Err(Output::error(format!(
            "error: unable to parse \"{body}\": the patch must be a mapping, like '{{\"spec\":{{\"replicas\":2}}}}'\n"
        )));
    };
    let mut problems = Vec::new();
    crate::manifest::validate::check_document(&root, "Deployment", &mut problems);
    let unread = root
        .entries()
        .unwrap_or(&[])
        .iter()
        .find(|entry| !matches!(entry.key_str(), "metadata" | "spec"));
    if let Some(entry) = unread {
        let key = entry.key_str();
        return Err(Output::note(
            text!(
                "podlab applies the `metadata` and `spec` of a patch; this one also writes `{key}`",
                "podlab 只套用 patch 的 `metadata` 和 `spec`；這個 patch 還寫了 `{key}`"
            ),
            1,
        ));
    }
    if let Some(problem) = problems.first() {
        let (line, column) = position(problem.span);
        let message = &problem.message;
        let mut output = Output::error(
            "Error from server (BadRequest): the API server's strict field validation refuses this patch\n".into(),
        );
        output.notes.push(text!(
            "the patch's line {line}, column {column}: {message}",
            "patch 的第 {line} 行第 {column} 欄：{message}"
        ));
        return Err(output);
    }
    Ok(root)
}

/// Go's `filepath.Match` for a container selector: `*` any run of
/// characters, `?` one, anything else itself.
fn glob(pattern: &str, name: &str) -> bool {
    let (p, n): (Vec<char>, Vec<char>) = (pattern.chars().collect(), name.chars().collect());
    let (mut pi, mut ni, mut star, mut mark) = (0, 0, None, 0);
    while ni < n.len() {
        if pi < p.len() && (p[pi] == '?' || p[pi] == n[ni]) {
            pi += 1;
            ni += 1;
        } else if pi < p.len() && p[pi] == '*' {
            star = Some(pi);
            mark = ni;
            pi += 1;
        } else if let Some(at) = star {
            pi = at + 1;
            mark += 1;
            ni = mark;
        } else {
            return false;
        }
    }
    p[pi..].iter().all(|c| *c == '*')
}
