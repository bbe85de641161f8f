//! `kubectl get deploy`, `kubectl get rs`, `kubectl describe deployment`
//! and `kubectl rollout status` from a run's Deployments
//! (`sim::DeploymentRun`, docs/rollouts.md). Columns and texts:
//! traffic-autoscaling.md §6.4 (`pkg/printers/internalversion/printers.go`
//! `printDeployment`, `printReplicaSet`; kubectl
//! `pkg/polymorphichelpers/rollout_status.go` `DeploymentStatusViewer.Status`
//! @v0.35.0; kubectl `pkg/describe/describe.go` `describeDeployment`,
//! `printReplicaSetsByLabels` and `DescribePodTemplate`, and
//! `pkg/util/deployment` `GetAllReplicaSetsInChunks` @v0.35.2).
//!
//! What the model does not keep prints as the API's empty value: the
//! Deployment's own labels (`<none>`); of its annotations only the
//! controller's `deployment.kubernetes.io/revision`. The selector is the
//! template's labels (`matchLabels`), as podlab assumes everywhere.

use super::describe::{events_section, multiline, pod_template, rfc1123z, tabwrite, Text};
use super::events;
use super::get_pods::{container_cells, listed_table};
use super::human_duration;
use crate::manifest::duration::Millis;
use crate::manifest::model::PodSpec;
use crate::sim::{DeploymentRun, ReplicaSetRun, Run};

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
            .pods_of(rs, &run.pods, at)
            .filter(|pod| pod.active_at(at))
        {
            status.replicas += 1;
            if new.as_deref() == Some(rs.hash.as_str()) {
                status.updated += 1;
            }
            if pod.ready_at(at) {
                status.ready += 1;
            }
            if pod.available_at(at, deployment.rollout_at(at).min_ready_seconds) {
                status.available += 1;
            }
        }
    }
    status
}

/// `kubectl get deploy`: `NAME READY UP-TO-DATE AVAILABLE AGE`, READY as
/// `ready/desired`; empty when there is no Deployment.
pub fn get_deployments(run: &Run, at: Millis) -> String {
    listed_table(&deployment_rows(run, at, false))
}

/// The `-o wide` columns `printDeployment` and `printReplicaSet` add.
const WIDE: [&str; 3] = ["CONTAINERS", "IMAGES", "SELECTOR"];

/// [`get_deployments`]' header and rows (`get all` names them
/// `deployment.apps/NAME`); `wide` adds CONTAINERS and IMAGES of the
/// template at `at` (`layoutContainerCells`) and the SELECTOR
/// (`printDeployment`'s `selector.String()`, [`selector`]).
pub fn deployment_rows(run: &Run, at: Millis, wide: bool) -> Vec<Vec<String>> {
    let mut header = vec!["NAME", "READY", "UP-TO-DATE", "AVAILABLE", "AGE"];
    if wide {
        header.extend(WIDE);
    }
    let mut rows = vec![header.into_iter().map(String::from).collect::<Vec<_>>()];
    // The API server lists by name.
    let mut deployments: Vec<&DeploymentRun> = run.deployments.iter().collect();
    crate::sort::sort_by(&mut deployments, |a, b| a.name.cmp(&b.name));
    for deployment in deployments {
        let status = status_at(run, deployment, at);
        let created = deployment.replicas.first().map_or(0, |(from, _)| *from);
        let mut row = vec![
            deployment.name.clone(),
            format!("{}/{}", status.ready, status.desired),
            status.updated.to_string(),
            status.available.to_string(),
            human_duration(at.saturating_sub(created)),
        ];
        if wide {
            row.extend(container_cells(&template_at(deployment, at).containers));
            row.push(selector(deployment));
        }
        rows.push(row);
    }
    rows
}

/// `kubectl get rs`: `NAME DESIRED CURRENT READY AGE` (spec, active pods,
/// Ready pods), every ReplicaSet of every Deployment that exists at `at`,
/// by name.
pub fn get_replica_sets(run: &Run, at: Millis) -> String {
    listed_table(&replica_set_rows(run, at, false))
}

/// [`get_replica_sets`]' header and rows (`get all` names them
/// `replicaset.apps/NAME`); `wide` adds its template's CONTAINERS and
/// IMAGES and its SELECTOR (the Deployment's with `pod-template-hash`,
/// [`replica_set_selector`]).
pub fn replica_set_rows(run: &Run, at: Millis, wide: bool) -> Vec<Vec<String>> {
    let mut header = vec!["NAME", "DESIRED", "CURRENT", "READY", "AGE"];
    if wide {
        header.extend(WIDE);
    }
    let mut rows = vec![header.into_iter().map(String::from).collect::<Vec<_>>()];
    for deployment in &run.deployments {
        for rs in deployment.replica_sets_at(at) {
            let active: Vec<_> = deployment
                .pods_of(rs, &run.pods, at)
                .filter(|pod| pod.active_at(at))
                .collect();
            let ready = active.iter().filter(|pod| pod.ready_at(at)).count();
            let mut row = vec![
                rs.name.clone(),
                rs.size_at(at).to_string(),
                active.len().to_string(),
                ready.to_string(),
                human_duration(at.saturating_sub(rs.created)),
            ];
            if wide {
                row.extend(container_cells(
                    &replica_set_template(deployment, rs).containers,
                ));
                row.push(replica_set_selector(deployment, rs));
            }
            rows.push(row);
        }
    }
    // The API server lists by name.
    let header = rows.remove(0);
    crate::sort::sort_by(&mut rows, |a, b| a[0].cmp(&b[0]));
    rows.insert(0, header);
    rows
}

/// The Deployment's pod template at `at`: the written spec with the new
/// ReplicaSet's images (a rollout changes only an image).
pub fn template_at(deployment: &DeploymentRun, at: Millis) -> PodSpec {
    match deployment
        .new_replica_set_at(at)
        .or_else(|| deployment.replica_sets.last())
    {
        Some(rs) => replica_set_template(deployment, rs),
        None => deployment.pod.clone(),
    }
}

/// A ReplicaSet's pod template: the written spec with its images.
pub fn replica_set_template(deployment: &DeploymentRun, rs: &ReplicaSetRun) -> PodSpec {
    let mut spec = deployment.pod.clone();
    let images = rs.images.as_slice();
    for container in &mut spec.containers {
        let image = images
            .iter()
            .find(|(name, _)| *name == container.name)
            .map(|(_, image)| image.clone());
        if let (Some(image), Some(setting)) = (image, container.image.as_mut()) {
            setting.value = image;
        }
    }
    spec
}

/// The Deployment's own `metadata.labels` at `at`: none written (podlab
/// reads only the template's), then the `label` actions up to `at`.
pub fn labels_at(run: &Run, deployment: &DeploymentRun, at: Millis) -> Vec<(String, String)> {
    use crate::manifest::scenario::MetaTarget;
    run.metadata_at(
        MetaTarget::Deployment,
        &deployment.name,
        true,
        Vec::new(),
        at,
    )
}

/// Its `metadata.annotations` at `at`: the revision ([`revision_at`]),
/// then the `annotate` actions up to `at`.
pub fn annotations_at(run: &Run, deployment: &DeploymentRun, at: Millis) -> Vec<(String, String)> {
    use crate::manifest::scenario::MetaTarget;
    let revision = revision_at(deployment, at).to_string();
    let base = vec![("deployment.kubernetes.io/revision".to_string(), revision)];
    run.metadata_at(MetaTarget::Deployment, &deployment.name, false, base, at)
}

/// `metadata.annotations["deployment.kubernetes.io/revision"]` at `at`:
/// the new ReplicaSet's revision (`SetNewReplicaSetAnnotations` copies it
/// to the Deployment), else the highest.
pub fn revision_at(deployment: &DeploymentRun, at: Millis) -> usize {
    deployment.new_replica_set_at(at).map_or_else(
        || {
            deployment
                .replica_sets_at(at)
                .map(|rs| rs.revision_at(at))
                .max()
                .unwrap_or(0)
        },
        |rs| rs.revision_at(at),
    )
}

/// A Deployment's ReplicaSet's selector printed as [`selector`] prints
/// the Deployment's: its `matchLabels` with `pod-template-hash` added
/// (`pkg/controller/deployment/sync.go` `getNewReplicaSet`,
/// `labelsutil.CloneSelectorAndAddLabel`).
pub fn replica_set_selector(deployment: &DeploymentRun, rs: &ReplicaSetRun) -> String {
    let mut labels = deployment.labels.clone();
    labels.retain(|(key, _)| key != "pod-template-hash");
    labels.push(("pod-template-hash".to_string(), rs.hash.clone()));
    super::service::format_labels(&labels)
}

/// `metav1.LabelSelectorAsSelector` of `matchLabels` printed: the terms
/// sorted by key, `key=value` joined by commas.
pub fn selector(deployment: &DeploymentRun) -> String {
    let mut labels = deployment.labels.clone();
    crate::sort::sort_by(&mut labels, |a, b| a.0.cmp(&b.0));
    labels
        .iter()
        .map(|(key, value)| format!("{key}={value}"))
        .collect::<Vec<_>>()
        .join(",")
}

/// The active pods of `rs` at `at` (its `status.replicas`).
fn active_pods(run: &Run, deployment: &DeploymentRun, rs: &ReplicaSetRun, at: Millis) -> usize {
    deployment
        .pods_of(rs, &run.pods, at)
        .filter(|pod| pod.active_at(at))
        .count()
}

/// `printReplicaSetsByLabels`: `name (status.replicas/spec.replicas
/// replicas created)`, comma-separated, `<none>` for none.
fn replica_sets_line(
    run: &Run,
    deployment: &DeploymentRun,
    sets: &[&ReplicaSetRun],
    at: Millis,
) -> String {
    if sets.is_empty() {
        return "<none>".to_string();
    }
    sets.iter()
        .map(|rs| {
            format!(
                "{} ({}/{} replicas created)",
                rs.name,
                active_pods(run, deployment, rs, at),
                rs.size_at(at)
            )
        })
        .collect::<Vec<_>>()
        .join(", ")
}

/// The text of `kubectl describe deployment <deployment.name>` at `at`
/// (`describeDeployment`). The ReplicaSets are kubectl's
/// `GetAllReplicaSetsInChunks`: the new one (same template), and as old
/// ones every other, by creation time, those scaled to 0 included
/// (`describeDeployment` takes its second result, `allOldRSes`).
pub fn describe_deployment(run: &Run, deployment: &DeploymentRun, at: Millis) -> String {
    let status = status_at(run, deployment, at);
    let created = deployment.replicas.first().map_or(0, |(from, _)| *from);
    let mut text = Text::default();
    text.line(0, &format!("Name:\t{}", deployment.name));
    text.line(0, "Namespace:\tdefault");
    text.line(0, &format!("CreationTimestamp:\t{}", rfc1123z(created)));
    let labels = labels_at(run, deployment, at).into_iter();
    let labels = labels
        .map(|(k, v)| (k.clone(), format!("{k}={v}")))
        .collect();
    multiline(&mut text, "Labels", labels);
    // `printAnnotationsMultiline`, as for a pod.
    super::service::annotations(&mut text, &annotations_at(run, deployment, at));
    text.line(0, &format!("Selector:\t{}", selector(deployment)));
    // `calculateStatus`: unavailable = Σ spec.replicas of the ReplicaSets
    // − available, never below 0.
    let total_spec: usize = deployment
        .replica_sets_at(at)
        .map(|rs| rs.size_at(at))
        .sum();
    let unavailable = total_spec.saturating_sub(status.available);
    text.line(
        0,
        &format!(
            "Replicas:\t{} desired | {} updated | {} total | {} available | {unavailable} unavailable",
            status.desired, status.updated, status.replicas, status.available
        ),
    );
    let rollout = deployment.rollout_at(at);
    text.line(0, &format!("StrategyType:\t{}", rollout.strategy));
    text.line(
        0,
        &format!("MinReadySeconds:\t{}", rollout.min_ready_seconds),
    );
    if rollout.strategy == "RollingUpdate" {
        text.line(
            0,
            &format!(
                "RollingUpdateStrategy:\t{} max unavailable, {} max surge",
                rollout.max_unavailable, rollout.max_surge
            ),
        );
    }
    pod_template(&mut text, &deployment.labels, &template_at(deployment, at));
    let conditions = deployment.conditions_at(at);
    if !conditions.is_empty() {
        text.line(0, "Conditions:");
        text.line(1, "Type\tStatus\tReason");
        text.line(1, "----\t------\t------");
        for condition in &conditions {
            text.line(
                1,
                &format!(
                    "{} \t{}\t{}",
                    condition.kind, condition.status, condition.reason
                ),
            );
        }
    }
    let new = deployment.new_replica_set_at(at);
    let mut sets: Vec<&ReplicaSetRun> = deployment.replica_sets_at(at).collect();
    crate::sort::sort_by(&mut sets, |a, b| {
        (a.created / 1000, &a.name).cmp(&(b.created / 1000, &b.name))
    });
    let old: Vec<&ReplicaSetRun> = sets
        .iter()
        .copied()
        .filter(|rs| new.is_none_or(|new| new.name != rs.name))
        .collect();
    let new: Vec<&ReplicaSetRun> = new.into_iter().collect();
    if !old.is_empty() || !new.is_empty() {
        text.line(
            0,
            &format!(
                "OldReplicaSets:\t{}",
                replica_sets_line(run, deployment, &old, at)
            ),
        );
        text.line(
            0,
            &format!(
                "NewReplicaSet:\t{}",
                replica_sets_line(run, deployment, &new, at)
            ),
        );
    }
    let object = format!("Deployment/{}", deployment.name);
    events_section(&mut text, &events::aggregate(run, &object, at), at);
    tabwrite(&text.0, 2)
}

/// `maxSurge` resolved against `replicas` (`ResolveFenceposts`: a
/// percentage rounds up); 0 for `Recreate` (`MaxSurge`).
fn surge(rollout: &crate::sim::RolloutSpec, replicas: usize) -> usize {
    if rollout.strategy != "RollingUpdate" {
        return 0;
    }
    match rollout.max_surge.strip_suffix('%') {
        Some(percent) => {
            let percent: usize = percent.parse().unwrap_or(0);
            (replicas.saturating_mul(percent)).div_ceil(100)
        }
        None => rollout.max_surge.parse().unwrap_or(0),
    }
}

/// The ReplicaSets of every Deployment that exist at `at`, by name, each
/// with its Deployment.
pub fn replica_sets_at(run: &Run, at: Millis) -> Vec<(&DeploymentRun, &ReplicaSetRun)> {
    let mut sets: Vec<(&DeploymentRun, &ReplicaSetRun)> = run
        .deployments
        .iter()
        .flat_map(|d| d.replica_sets_at(at).map(move |rs| (d, rs)))
        .collect();
    crate::sort::sort_by(&mut sets, |a, b| a.1.name.cmp(&b.1.name));
    sets
}

/// The text of `kubectl describe replicaset <rs.name>` at `at`
/// (`describeReplicaSet`). Its labels and selector are the template's with
/// `pod-template-hash`; its annotations the Deployment controller's
/// (`SetReplicasAnnotations`: `desired-replicas` the Deployment's
/// `spec.replicas`, `max-replicas` that plus the resolved `maxSurge`, and
/// the revision). Pods Status counts the phases of the pods it controls
/// that exist at `at` (`getPodStatusForController`), those being deleted
/// included.
pub fn describe_replica_set(
    run: &Run,
    deployment: &DeploymentRun,
    rs: &ReplicaSetRun,
    at: Millis,
) -> String {
    let mut labels = deployment.labels.clone();
    labels.retain(|(key, _)| key != "pod-template-hash");
    labels.push(("pod-template-hash".to_string(), rs.hash.clone()));
    let key_value = |entries: &[(String, String)]| {
        entries
            .iter()
            .map(|(key, value)| (key.clone(), format!("{key}={value}")))
            .collect::<Vec<_>>()
    };
    let mut text = Text::default();
    text.line(0, &format!("Name:\t{}", rs.name));
    text.line(0, "Namespace:\tdefault");
    text.line(
        0,
        &format!("Selector:\t{}", replica_set_selector(deployment, rs)),
    );
    multiline(&mut text, "Labels", key_value(&labels));
    let desired = deployment.replicas_at(at);
    let annotations = [
        ("deployment.kubernetes.io/desired-replicas", desired),
        (
            "deployment.kubernetes.io/max-replicas",
            desired + surge(deployment.rollout_at(at), desired),
        ),
        ("deployment.kubernetes.io/revision", rs.revision_at(at)),
    ]
    .iter()
    .map(|(key, value)| (key.to_string(), format!("{key}: {value}")))
    .collect();
    multiline(&mut text, "Annotations", annotations);
    text.line(
        0,
        &format!("Controlled By:\tDeployment/{}", deployment.name),
    );
    text.line(
        0,
        &format!(
            "Replicas:\t{} current / {} desired",
            active_pods(run, deployment, rs, at),
            rs.size_at(at)
        ),
    );
    let mut phases = [0usize; 4];
    for pod in deployment
        .pods_of(rs, &run.pods, at)
        .filter(|pod| pod.exists_at(at))
    {
        match pod.phase_at(at) {
            "Running" => phases[0] += 1,
            "Pending" => phases[1] += 1,
            "Succeeded" => phases[2] += 1,
            "Failed" => phases[3] += 1,
            _ => {}
        }
    }
    text.line(
        0,
        &format!(
            "Pods Status:\t{} Running / {} Waiting / {} Succeeded / {} Failed",
            phases[0], phases[1], phases[2], phases[3]
        ),
    );
    let mut spec = deployment.pod.clone();
    for container in &mut spec.containers {
        let image = rs
            .images
            .iter()
            .find(|(name, _)| *name == container.name)
            .map(|(_, image)| image.clone());
        if let (Some(image), Some(setting)) = (image, container.image.as_mut()) {
            setting.value = image;
        }
    }
    pod_template(&mut text, &labels, &spec);
    let object = format!("ReplicaSet/{}", rs.name);
    events_section(&mut text, &events::aggregate(run, &object, at), at);
    tabwrite(&text.0, 2)
}

/// The Deployments' part of `podlab simulate`'s transcript at `at`, for a
/// text whose Scenario rolls a Deployment out: `$ kubectl get deploy`,
/// `$ kubectl get rs`, then `$ kubectl describe deployment NAME` for each
/// Deployment rolled out; each block starts with an empty line. Empty
/// when no Deployment has more than one template over the run.
pub fn transcript(run: &Run, at: Millis) -> String {
    let rolled: Vec<&DeploymentRun> = run
        .deployments
        .iter()
        .filter(|d| d.new_replica_set.len() > 1 || d.replica_sets.len() > 1)
        .collect();
    if rolled.is_empty() {
        return String::new();
    }
    let mut out = String::from("\n$ kubectl get deploy\n");
    out.push_str(&get_deployments(run, at));
    out.push_str("\n$ kubectl get rs\n");
    out.push_str(&get_replica_sets(run, at));
    for deployment in rolled {
        out.push_str(&format!(
            "\n$ kubectl describe deployment {}\n",
            deployment.name
        ));
        out.push_str(&describe_deployment(run, deployment, at));
    }
    out
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
    let min_ready = deployment.rollout_at(from).min_ready_ms();
    let mut times: Vec<Millis> = vec![from];
    times.extend(deployment.conditions.iter().map(|(at, _)| *at));
    times.extend(deployment.new_replica_set.iter().map(|(at, _)| *at));
    for rs in &deployment.replica_sets {
        times.extend(rs.sizes.iter().map(|(at, _)| *at));
        for pod in deployment.pods_of(rs, &run.pods, Millis::MIN) {
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
