//! What the failure families share: the evidence lines quoted from what
//! `kubectl describe pod` and `kubectl logs` print at T (`Evidence`), the
//! run's facts they rest on (the container's spec, its restarts, its
//! previous instance), the target of the next command, durations as the
//! Scenario and the blog write them, and the assumed numbers an outcome
//! rests on.

use crate::manifest::assumed::{assumed_value, Assumption};
use crate::manifest::duration::Millis;
use crate::manifest::model::Container;
use crate::manifest::path::{Path, ProgramField};
use crate::sim::{ContainerRun, ContainerState, PodRun, Run};

pub(super) fn object(pod: &PodRun) -> String {
    format!("Pod/{}", pod.name)
}

pub(super) fn field_path(container: &ContainerRun) -> String {
    format!("spec.containers{{{}}}", container.name)
}

pub(super) fn spec<'p>(pod: &'p PodRun, container: &ContainerRun) -> Option<&'p Container> {
    pod.spec
        .containers
        .iter()
        .find(|c| c.name == container.name)
}

/// The program's own last words when it exits with `code` as the Scenario
/// planned (`exit.log`'s last non-blank line).
pub(super) fn planned_last_words(container: &ContainerRun, code: i64) -> Option<&str> {
    container
        .program
        .exit
        .as_ref()
        .filter(|planned| planned.code == code)
        .and_then(|planned| planned.log.lines().rev().find(|l| !l.trim().is_empty()))
}

/// Whether the container has a terminated instance before the current
/// one: what `kubectl logs --previous` needs.
pub(super) fn has_previous(container: &ContainerRun, at: Millis) -> bool {
    container
        .status_at(at)
        .is_some_and(|s| matches!(s.last_state, Some(ContainerState::Terminated { .. })))
}

/// The logs command to run next: `--previous` once there is a terminated
/// instance to read.
pub(super) fn logs_command(pod: &PodRun, container: &ContainerRun, at: Millis) -> String {
    if has_previous(container, at) {
        format!("kubectl logs {} --previous", target(pod, container))
    } else {
        format!("kubectl logs {}", target(pod, container))
    }
}

/// The describe lines that prove an OOM kill: the reason, the exit code,
/// the restart count and the memory limit.
pub(super) fn oom_evidence(evidence: &mut Evidence, described: &str) {
    evidence.find(
        described,
        "Reason:       OOMKilled",
        Some("Reason: OOMKilled"),
    );
    evidence.find(described, "Exit Code:    137", None);
    evidence.find(described, "Restart Count:", None);
    evidence.find_after(described, "    Limits:", "memory:");
}

/// `kubectl logs <pod>` or `kubectl logs <pod> -c <container>`.
pub(super) fn target(pod: &PodRun, container: &ContainerRun) -> String {
    if pod.containers.len() > 1 {
        format!("{} -c {}", pod.name, container.name)
    } else {
        pod.name.clone()
    }
}

/// Collects evidence lines: from a rendered text, the first line containing
/// a needle (trimmed); a needle found nowhere falls back to `fallback`.
pub(super) struct Evidence {
    pub(super) lines: Vec<String>,
}

impl Evidence {
    pub(super) fn new() -> Evidence {
        Evidence { lines: Vec::new() }
    }

    pub(super) fn push(&mut self, line: &str) {
        let line = line.trim();
        if !line.is_empty() && !self.lines.iter().any(|known| known == line) {
            self.lines.push(line.to_string());
        }
    }

    /// The line of `text` containing `needle`; else `fallback` when given.
    pub(super) fn find(&mut self, text: &str, needle: &str, fallback: Option<&str>) {
        match text.lines().find(|line| line.contains(needle)) {
            Some(line) => self.push(line),
            None => {
                if let Some(fallback) = fallback {
                    self.push(fallback);
                }
            }
        }
    }

    /// The first line containing `needle` after the line containing `after`.
    pub(super) fn find_after(&mut self, text: &str, after: &str, needle: &str) {
        let mut seen = false;
        for line in text.lines() {
            if seen && line.trim_start().starts_with(needle) {
                self.push(line);
                return;
            }
            if line.contains(after) {
                seen = true;
            }
        }
    }
}

/// A duration in a diagnosis: the one person-facing formatter
/// (`explain::duration_text`, kubectl's rounding), so the diagnosis's
/// instants read as the rules' bounds do.
pub(super) fn secs(ms: Millis) -> String {
    crate::explain::duration_text(ms).en
}

pub(super) fn secs_zh(ms: Millis) -> String {
    crate::explain::duration_text(ms).zh_tw
}

/// RESTARTS at `at`: the instances started by then, less the first.
pub(super) fn restarts_at(container: &ContainerRun, at: Millis) -> usize {
    container
        .instances
        .iter()
        .filter(|i| i.started <= at)
        .count()
        .saturating_sub(1)
}

pub(super) fn last_line(text: &str) -> Option<&str> {
    text.lines().rev().find(|line| !line.trim().is_empty())
}

/// The numbers among `fields` of the container's program that nothing in
/// the text states (`manifest::assumed`): what an outcome resting on them
/// is conditional on. Read from the program the container ran, so two
/// workloads' containers of one name keep their own values.
pub(super) fn assumed_in(container: &ContainerRun, fields: &[ProgramField]) -> Vec<Assumption> {
    fields
        .iter()
        .filter_map(|&field| {
            let value = assumed_value(&container.program, field)?;
            Some(Assumption {
                path: Path::program(&container.name, field),
                value,
            })
        })
        .collect()
}

/// The cluster, when the run's was assumed (no `cluster.nodePools`).
pub(super) fn assumed_cluster(run: &Run) -> Vec<Assumption> {
    run.assumed
        .iter()
        .filter(|assumption| assumption.path == Path::Cluster)
        .cloned()
        .collect()
}
