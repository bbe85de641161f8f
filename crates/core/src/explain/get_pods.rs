//! `kubectl get pods` at a time T (`kubectl-output.md` §1).

use super::human_duration;
use crate::manifest::duration::Millis;
use crate::sim::{ContainerState, PodRun, Run};

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

/// The STATUS column (`printPod` §1.4, regular containers): the phase, then
/// the first container in spec order with a waiting or terminated reason.
pub fn status(pod: &PodRun, at: Millis) -> String {
    let mut reason = pod.phase_at(at).to_string();
    if pod.node.as_ref().is_none_or(|(_, bound)| *bound > at) {
        return reason;
    }
    let statuses = pod.statuses_at(at);
    let mut has_running = false;
    for status in statuses.iter().rev() {
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
            ContainerState::Running { .. } if status.ready => has_running = true,
            _ => {}
        }
    }
    if reason == "Completed" && has_running {
        let all_ready = statuses.iter().all(|s| s.ready);
        reason = if all_ready { "Running" } else { "NotReady" }.to_string();
    }
    terminating(pod, at).unwrap_or(reason)
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
    let statuses = pod.statuses_at(at);
    let ready = statuses
        .iter()
        .filter(|s| s.ready && matches!(s.state, ContainerState::Running { .. }))
        .count();
    let restart_count: usize = statuses.iter().map(|s| s.restart_count).sum();
    // §1.5: "N (X ago)", X since the latest Last State finish.
    let last_finish = statuses
        .iter()
        .filter_map(|s| match &s.last_state {
            Some(ContainerState::Terminated { finished, .. }) => Some(*finished),
            _ => None,
        })
        .max();
    let restarts = match (restart_count, last_finish) {
        (0, _) | (_, None) => restart_count.to_string(),
        // `finishedAt` travels in whole seconds (metav1.Time, RFC 3339).
        (n, Some(finished)) => format!(
            "{n} ({} ago)",
            human_duration(at.saturating_sub(finished / 1000 * 1000))
        ),
    };
    Row {
        name: pod.name.clone(),
        ready: format!("{ready}/{}", pod.containers.len()),
        status: status(pod, at),
        restarts,
        age: human_duration(at.saturating_sub(pod.created)),
        restart_count,
    }
}

/// The table, laid out as kubectl's tabwriter does (§1.2): each column
/// `max(6, longest cell + 3)` wide, the last one not padded.
pub fn render(run: &Run, at: Millis) -> String {
    if !run.pods.iter().any(|pod| pod.exists_at(at)) {
        return String::new();
    }
    let rows: Vec<[String; 5]> =
        std::iter::once(["NAME", "READY", "STATUS", "RESTARTS", "AGE"].map(String::from))
            .chain(run.pods.iter().filter(|pod| pod.exists_at(at)).map(|pod| {
                let row = row(pod, at);
                [row.name, row.ready, row.status, row.restarts, row.age]
            }))
            .collect();
    let widths: Vec<usize> = (0..4)
        .map(|column| {
            rows.iter()
                .map(|row| row[column].chars().count())
                .max()
                .unwrap_or(0)
                .saturating_add(3)
                .max(6)
        })
        .collect();
    let mut out = String::new();
    for row in &rows {
        for (column, cell) in row.iter().enumerate() {
            if column < 4 {
                out.push_str(&format!("{cell:<width$}", width = widths[column]));
            } else {
                out.push_str(cell);
            }
        }
        out.push('\n');
    }
    out
}
