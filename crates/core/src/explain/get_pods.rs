//! `kubectl get pods` at a time T (`kubectl-output.md` §1).

use super::human_duration;
use crate::manifest::duration::Millis;
use crate::sim::{init, ContainerState, ContainerStatus, PodRun, Run};

/// One row: NAME, READY, STATUS, RESTARTS, AGE.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Row {
    pub name: String,
    pub ready: String,
    pub status: String,
    pub restarts: String,
    pub age: String,
    /// The RESTARTS count alone.
    pub restart_count: usize,
}

/// The STATUS column (`printPod` §1.4): the phase, then the init
/// containers (`Init:N/M`, `Init:<reason>`), then — unless initialization
/// blocks — the first container in spec order with a waiting or terminated
/// reason.
pub fn status(pod: &PodRun, at: Millis) -> String {
    printed(pod, at).status
}

/// What `printPod` computes for one pod: READY, STATUS and RESTARTS with
/// the latest Last State finish (`kubectl-output.md` §1.3-§1.5,
/// `pkg/printers/internalversion/printers.go` `printPod`).
struct Printed {
    ready: usize,
    total: usize,
    status: String,
    restarts: usize,
    last_finish: Option<Millis>,
}

fn last_finish(status: &ContainerStatus) -> Option<Millis> {
    match &status.last_state {
        Some(ContainerState::Terminated { finished, .. }) => Some(*finished),
        _ => None,
    }
}

fn printed(pod: &PodRun, at: Millis) -> Printed {
    let mut reason = pod.phase_at(at).to_string();
    // Until the kubelet's first sync the object has no container statuses:
    // printPod shows the phase, `Pending`.
    let bound = pod.synced_at().is_some_and(|synced| synced <= at);
    let sidecars = (0..pod.spec.init_containers.len())
        .filter(|index| init::is_sidecar(pod, *index))
        .count();
    let total = pod.containers.len() + sidecars;
    if !bound {
        return Printed {
            ready: 0,
            total,
            status: reason,
            restarts: 0,
            last_finish: None,
        };
    }
    let mut ready = 0;
    let mut restarts = 0;
    let mut last: Option<Millis> = None;
    let mut initializing = false;
    // The sidecars' restarts, over the init statuses the walk visits.
    let mut sidecar_restarts = 0;
    let mut sidecar_last: Option<Millis> = None;
    let init_count = pod.spec.init_containers.len();
    let init_statuses = pod.init_statuses_at(at);
    for (index, status) in init_statuses.iter().enumerate() {
        restarts += status.restart_count;
        last = last.max(last_finish(status));
        let sidecar = init::is_sidecar(pod, index);
        if sidecar {
            sidecar_restarts += status.restart_count;
            sidecar_last = sidecar_last.max(last_finish(status));
        }
        let started = matches!(status.state, ContainerState::Running { .. })
            && pod.init_containers.get(index).is_some_and(|container| {
                container
                    .instances
                    .iter()
                    .rev()
                    .find(|instance| instance.started <= at)
                    .is_some_and(|instance| instance.started_ok.is_some_and(|ok| ok <= at))
            });
        if sidecar && started {
            if status.ready {
                ready += 1;
            }
            continue;
        }
        match &status.state {
            ContainerState::Terminated { code: 0, .. } => continue,
            ContainerState::Terminated {
                reason: exit, code, ..
            } => {
                reason = if exit.is_empty() {
                    format!("Init:ExitCode:{code}")
                } else {
                    format!("Init:{exit}")
                };
            }
            ContainerState::Waiting {
                reason: waiting, ..
            } if !waiting.is_empty() && waiting != "PodInitializing" => {
                reason = format!("Init:{waiting}");
            }
            _ => reason = format!("Init:{index}/{init_count}"),
        }
        initializing = true;
        break;
    }
    if !initializing || init::initialized_at(pod, at) {
        // The sidecars' restarts count with the app containers' (§1.5).
        restarts = sidecar_restarts;
        last = sidecar_last;
        let statuses = pod.statuses_at(at);
        let mut has_running = false;
        for status in statuses.iter().rev() {
            restarts += status.restart_count;
            last = last.max(last_finish(status));
            match &status.state {
                ContainerState::Waiting {
                    reason: waiting, ..
                } if !waiting.is_empty() => {
                    reason = waiting.clone();
                }
                ContainerState::Terminated {
                    reason: terminated, ..
                } if !terminated.is_empty() => {
                    reason = terminated.clone();
                }
                ContainerState::Terminated { code, .. } => reason = format!("ExitCode:{code}"),
                ContainerState::Running { .. } if status.ready => {
                    has_running = true;
                    ready += 1;
                }
                _ => {}
            }
        }
        if reason == "Completed" && has_running {
            let all_ready = statuses.iter().all(|s| s.ready);
            reason = if all_ready { "Running" } else { "NotReady" }.to_string();
        }
    }
    Printed {
        ready,
        total,
        status: terminating(pod, at).unwrap_or(reason),
        restarts,
        last_finish: last,
    }
}

/// `printPod`'s last step (kubectl-output.md §1.4, 5): a pod with a
/// `deletionTimestamp` whose phase is not `Succeeded`/`Failed` shows
/// `Terminating`, whatever its containers say. (`Unknown` for a pod on a
/// lost node is not modelled: podlab's nodes do not fail.)
fn terminating(pod: &PodRun, at: Millis) -> Option<String> {
    let deleting = pod.deleting.is_some_and(|deleting| deleting <= at);
    let terminal = matches!(pod.phase_at(at), "Succeeded" | "Failed");
    (deleting && !terminal).then(|| "Terminating".to_owned())
}

/// The row of one pod at `at`.
pub fn row(pod: &PodRun, at: Millis) -> Row {
    let printed = printed(pod, at);
    let restart_count = printed.restarts;
    // §1.5: "N (X ago)", X since the latest Last State finish.
    let restarts = match (restart_count, printed.last_finish) {
        (0, _) | (_, None) => restart_count.to_string(),
        // `finishedAt` travels in whole seconds (metav1.Time, RFC 3339).
        (n, Some(finished)) => format!(
            "{n} ({} ago)",
            human_duration(at.saturating_sub(finished / 1000 * 1000))
        ),
    };
    Row {
        name: pod.name.clone(),
        ready: format!("{}/{}", printed.ready, printed.total),
        status: printed.status,
        restarts,
        // `creationTimestamp` travels in whole seconds too.
        age: human_duration(at.saturating_sub(pod.created / 1000 * 1000)),
        restart_count,
    }
}

/// The table, laid out as kubectl's tabwriter does (§1.2): each column
/// `max(6, longest cell + 3)` wide, the last one not padded.
pub fn render(run: &Run, at: Millis) -> String {
    if !run.pods.iter().any(|pod| pod.exists_at(at)) {
        return String::new();
    }
    let rows: Vec<Vec<String>> = std::iter::once(
        ["NAME", "READY", "STATUS", "RESTARTS", "AGE"]
            .map(String::from)
            .to_vec(),
    )
    .chain(run.pods.iter().filter(|pod| pod.exists_at(at)).map(|pod| {
        let row = row(pod, at);
        vec![row.name, row.ready, row.status, row.restarts, row.age]
    }))
    .collect();
    table(&rows)
}

/// Rows (the header first) as every `kubectl get` table prints them
/// (`kubectl-output.md` §1.2: `tabwriter.NewWriter(out, 6, 4, 3, ' ',
/// RememberWidths)`): each column but the last `max(6, longest cell + 3)`
/// characters wide, cells left-aligned, no trailing spaces.
pub fn table(rows: &[Vec<String>]) -> String {
    let columns = rows.iter().map(Vec::len).max().unwrap_or(0);
    let widths: Vec<usize> = (0..columns.saturating_sub(1))
        .map(|column| {
            rows.iter()
                .filter_map(|row| row.get(column))
                .map(|cell| cell.chars().count())
                .max()
                .unwrap_or(0)
                .saturating_add(3)
                .max(6)
        })
        .collect();
    let mut out = String::new();
    for row in rows {
        for (column, cell) in row.iter().enumerate() {
            match widths.get(column) {
                Some(&width) if column + 1 < row.len() => {
                    out.push_str(&format!("{cell:<width$}"));
                }
                _ => out.push_str(cell),
            }
        }
        out.push('\n');
    }
    out
}

/// `layoutContainerCells` (`pkg/printers/internalversion/printers.go`): the
/// containers' names and images, each joined by commas, the CONTAINERS and
/// IMAGES cells of a controller's `-o wide` row (Deployments, ReplicaSets,
/// Jobs, CronJobs).
pub fn container_cells(containers: &[crate::manifest::model::Container]) -> [String; 2] {
    let names: Vec<&str> = containers.iter().map(|c| c.name.as_str()).collect();
    let images: Vec<&str> = containers
        .iter()
        .map(|c| c.image.as_ref().map_or("", |image| image.value.as_str()))
        .collect();
    [names.join(","), images.join(",")]
}

/// [`table`] of a kind's header and rows, or nothing when there are no
/// rows: kubectl prints no header for an empty list (cli-runtime
/// `printers.printTable`), so a list command then says `No resources
/// found` and `get all` leaves the kind out.
pub fn listed_table(rows: &[Vec<String>]) -> String {
    if rows.len() <= 1 {
        return String::new();
    }
    table(rows)
}

/// The rows with each object's NAME written `KIND/NAME` (`pod/x`,
/// `deployment.apps/x`), the header kept: what kubectl prints when several
/// kinds are asked for at once (`get pods,svc`, `get all`; kubectl
/// `pkg/cmd/get/get.go` `printWithKind`, the name from the mapping's
/// `GroupKind`, lower case).
pub fn with_kind(mut rows: Vec<Vec<String>>, kind: &str) -> Vec<Vec<String>> {
    for row in rows.iter_mut().skip(1) {
        if let Some(name) = row.first_mut() {
            *name = format!("{kind}/{name}");
        }
    }
    rows
}

#[cfg(test)]
mod tests {
    use crate::sim::{simulate, Options};

    /// Until the kubelet's first sync after the binding, the Pod object has
    /// no container statuses: `get pods` prints `Pending`, describe has no
    /// Start Time yet; `status.startTime` is that sync, also for a pod the
    /// scheduler bound late (gpu-job-frees-capacity: `serve` waits for the
    /// Job's GPU and is bound when the Job's pod finishes).
    #[test]
    fn a_pod_is_pending_until_the_kubelets_first_sync_after_its_binding() {
        let text = include_str!("../../../../tests/golden/gpu-job-frees-capacity.yaml");
        let run = simulate(text, &Options::default());
        let serve = run
            .pods
            .iter()
            .find(|pod| pod.name.starts_with("serve"))
            .expect("the serving pod");
        let (_, bound) = serve.node.clone().expect("bound once the GPU is free");
        assert!(bound > serve.created + 10_000, "bound late: {bound}");
        let synced = serve.synced_at().expect("synced");
        assert_eq!(synced, bound + 500);
        assert_eq!(super::status(serve, synced - 1), "Pending");
        assert_eq!(super::status(serve, synced), "ContainerCreating");
        let describe = crate::explain::describe::describe_pod(&run, serve, synced + 5_000);
        let start = crate::explain::describe::rfc1123z(synced);
        assert!(
            describe.contains(&format!("Start Time:       {start}")),
            "{describe}"
        );
    }
}
