//! `kubectl get deploy`, `kubectl get rs` and `kubectl rollout status`
//! from a run's Deployments (`sim::DeploymentRun`, docs/rollouts.md).
//! Columns and texts: traffic-autoscaling.md §6.4
//! (`pkg/printers/internalversion/printers.go` `printDeployment`,
//! `printReplicaSet`; kubectl `pkg/polymorphichelpers/rollout_status.go`
//! `DeploymentStatusViewer.Status` @v0.35.0).

use super::get_pods::table;
use super::human_duration;
use crate::manifest::duration::Millis;
use crate::sim::{DeploymentRun, Run};

/// A Deployment's status at `at`, as `calculateStatus` counts it over
/// the active pods of its ReplicaSets.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Status {
    /// `spec.replicas`.
    pub desired: usize,
    pub replicas: usize,
    pub updated: usize,
    pub ready: usize,
    pub available: usize,
}

/// The status of `deployment` at `at`.
pub fn status_at(run: &Run, deployment: &DeploymentRun, at: Millis) -> Status {
    let new = deployment.new_replica_set_at(at).map(|rs| rs.hash.clone());
    let mut status = Status {
        desired: deployment.replicas_at(at),
        ..Status::default()
    };
    for rs in deployment.replica_sets_at(at) {
        for pod in deployment
            .pods_of(rs, &run.pods)
            .filter(|pod| pod.active_at(at))
        {
            status.replicas += 1;
            if new.as_deref() == Some(rs.hash.as_str()) {
                status.updated += 1;
            }
            if pod.ready_at(at) {
                status.ready += 1;
            }
            if pod.available_at(at, deployment.min_ready_seconds) {
                status.available += 1;
            }
        }
    }
    status
}

/// `kubectl get deploy`: `NAME READY UP-TO-DATE AVAILABLE AGE`, READY as
/// `ready/desired`; empty when there is no Deployment.
pub fn get_deployments(run: &Run, at: Millis) -> String {
    if run.deployments.is_empty() {
        return String::new();
    }
    let mut rows = vec![["NAME", "READY", "UP-TO-DATE", "AVAILABLE", "AGE"]
        .map(String::from)
        .to_vec()];
    for deployment in &run.deployments {
        let status = status_at(run, deployment, at);
        let created = deployment.replicas.first().map_or(0, |(from, _)| *from);
        rows.push(vec![
            deployment.name.clone(),
            format!("{}/{}", status.ready, status.desired),
            status.updated.to_string(),
            status.available.to_string(),
            human_duration(at.saturating_sub(created)),
        ]);
    }
    table(&rows)
}

/// `kubectl get rs`: `NAME DESIRED CURRENT READY AGE` (spec, active pods,
/// Ready pods), every ReplicaSet of every Deployment that exists at `at`.
pub fn get_replica_sets(run: &Run, at: Millis) -> String {
    let mut rows = vec![["NAME", "DESIRED", "CURRENT", "READY", "AGE"]
        .map(String::from)
        .to_vec()];
    for deployment in &run.deployments {
        for rs in deployment.replica_sets_at(at) {
            let active: Vec<_> = deployment
                .pods_of(rs, &run.pods)
                .filter(|pod| pod.active_at(at))
                .collect();
            let ready = active.iter().filter(|pod| pod.ready_at(at)).count();
            rows.push(vec![
                rs.name.clone(),
                rs.size_at(at).to_string(),
                active.len().to_string(),
                ready.to_string(),
                human_duration(at.saturating_sub(rs.created)),
            ]);
        }
    }
    if rows.len() == 1 {
        return String::new();
    }
    table(&rows)
}

/// What `kubectl rollout status deployment/<name>` prints for the status
/// at `at` (`DeploymentStatusViewer.Status`; the generation is taken as
/// observed): the line, and whether the command ends there (success or
/// the deadline's error). `None` for an unknown Deployment.
pub fn rollout_status(run: &Run, name: &str, at: Millis) -> Option<(String, bool)> {
    let deployment = run.deployments.iter().find(|d| d.name == name)?;
    let timed_out = deployment
        .conditions_at(at)
        .iter()
        .any(|c| c.kind == "Progressing" && c.reason == "ProgressDeadlineExceeded");
    if timed_out {
        return Some((
            format!("error: deployment \"{name}\" exceeded its progress deadline"),
            true,
        ));
    }
    let status = status_at(run, deployment, at);
    let line = if status.updated < status.desired {
        format!(
            "Waiting for deployment \"{name}\" rollout to finish: {} out of {} new replicas have been updated...",
            status.updated, status.desired
        )
    } else if status.replicas > status.updated {
        format!(
            "Waiting for deployment \"{name}\" rollout to finish: {} old replicas are pending termination...",
            status.replicas - status.updated
        )
    } else if status.available < status.updated {
        format!(
            "Waiting for deployment \"{name}\" rollout to finish: {} of {} updated replicas are available...",
            status.available, status.updated
        )
    } else {
        return Some((
            format!("deployment \"{name}\" successfully rolled out"),
            true,
        ));
    };
    Some((line, false))
}

/// The lines `kubectl rollout status` prints when started at `from` and
/// left to run until `to`: a line at each change of what it would print
/// (kubectl prints one per watch event, so a real terminal may repeat a
/// line), up to and including the final one.
pub fn rollout_status_lines(run: &Run, name: &str, from: Millis, to: Millis) -> Vec<String> {
    let Some(deployment) = run.deployments.iter().find(|d| d.name == name) else {
        return Vec::new();
    };
    let min_ready = Millis::try_from(deployment.min_ready_seconds.max(0))
        .unwrap_or(0)
        .saturating_mul(1000);
    let mut times: Vec<Millis> = vec![from];
    times.extend(deployment.conditions.iter().map(|(at, _)| *at));
    times.extend(deployment.new_replica_set.iter().map(|(at, _)| *at));
    for rs in &deployment.replica_sets {
        times.extend(rs.sizes.iter().map(|(at, _)| *at));
        for pod in deployment.pods_of(rs, &run.pods) {
            times.push(pod.created);
            times.extend(pod.deleting);
            for (ready, _) in crate::sim::pod_ready_intervals(pod) {
                times.push(ready);
                times.push(ready.saturating_add(min_ready));
            }
        }
    }
    crate::sort::sort_by_key(&mut times, |at| *at);
    times.dedup();
    let mut lines: Vec<String> = Vec::new();
    for at in times.into_iter().filter(|at| (from..=to).contains(at)) {
        let Some((line, done)) = rollout_status(run, name, at) else {
            break;
        };
        if lines.last() != Some(&line) {
            lines.push(line);
        }
        if done {
            break;
        }
    }
    lines
}
