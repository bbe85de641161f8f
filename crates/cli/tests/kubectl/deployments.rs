//! The Deployments of a run at a time T as the API server would return
//! them: apps/v1 Deployment and ReplicaSet objects whose status is counted
//! here from the run's pods (the Deployment controller's `calculateStatus`,
//! the ReplicaSet controller's `calculateStatus`), their core/v1 Events
//! (`ScalingReplicaSet` from `deployment-controller`), and the
//! `meta.k8s.io/v1` Tables the API server prints for `kubectl get deploy`
//! and `kubectl get rs` (`pkg/printers/internalversion/printers.go`
//! `printDeployment`, `printReplicaSet`, ported here over the JSON objects
//! independently of podlab's renderer).
//!
//! `kubectl describe deployment` is kubectl's own (`describeDeployment`):
//! it GETs the Deployment, lists the ReplicaSets by the Deployment's
//! selector, keeps those it controls, and finds the new one by comparing
//! templates (`EqualIgnoreHash`), so each ReplicaSet's template is served
//! as the Deployment's was when that ReplicaSet was made (the written pod
//! spec with its images) and the Deployment's template is the newest.
//!
//! `kubectl rollout status --watch=false` is compared too: it lists the
//! Deployment by `fieldSelector=metadata.name=` and prints the status
//! viewer's line for it (the server answers the informer's watch with an
//! empty stream); the watching form's sequence of lines is pinned by
//! `crates/core/tests/rollouts.rs`.

use podlab_core::explain::deployment;
use podlab_core::explain::events;
use podlab_core::explain::human_duration;
use podlab_core::manifest::duration::Millis;
use podlab_core::manifest::model::PodSpec;
use podlab_core::sim::{DeploymentRun, ReplicaSetRun, Run};
use serde_json::{json, Map, Value};

use super::objects::{container_spec, Clock};

/// A uid fixed by the object's kind and name.
pub fn uid(kind: &str, name: &str) -> String {
    let hash = format!("{kind}/{name}")
        .bytes()
        .fold(0xcbf2_9ce4_8422_2325u64, |hash, byte| {
            (hash ^ u64::from(byte)).wrapping_mul(0x0000_0100_0000_01b3)
        });
    format!(
        "{:08x}-{:04x}-4{:03x}-9{:03x}-{:012x}",
        hash >> 32,
        (hash >> 16) & 0xffff,
        hash & 0xfff,
        (hash >> 8) & 0xfff,
        hash & 0xffff_ffff_ffff
    )
}

fn labels(pairs: &[(String, String)]) -> Map<String, Value> {
    pairs
        .iter()
        .map(|(key, value)| (key.clone(), json!(value)))
        .collect()
}

/// The pod template with `images` ((container, image) of a ReplicaSet).
pub fn template(
    source: &str,
    spec: &PodSpec,
    labels: Map<String, Value>,
    images: &[(String, String)],
) -> Value {
    let mut spec = spec.clone();
    for container in &mut spec.containers {
        if let Some((_, image)) = images.iter().find(|(name, _)| *name == container.name) {
            if let Some(setting) = container.image.as_mut() {
                setting.value = image.clone();
            }
        }
    }
    let containers: Vec<Value> = spec
        .containers
        .iter()
        .map(|container| container_spec(source, container, None))
        .collect();
    let mut pod = json!({
        "containers": containers,
        "restartPolicy": spec.restart_policy.value,
        "terminationGracePeriodSeconds": spec.termination_grace_period_seconds.value,
        "dnsPolicy": "ClusterFirst",
        "securityContext": {},
        "schedulerName": "default-scheduler",
    });
    if !spec.init_containers.is_empty() {
        pod["initContainers"] = json!(spec
            .init_containers
            .iter()
            .map(|container| container_spec(source, container, None))
            .collect::<Vec<_>>());
    }
    if !spec.node_selector.is_empty() {
        pod["nodeSelector"] = Value::Object(self::labels(&spec.node_selector));
    }
    if !spec.tolerations.is_empty() {
        pod["tolerations"] = json!(spec
            .tolerations
            .iter()
            .map(|t| {
                let mut value = Map::new();
                if !t.key.is_empty() {
                    value.insert("key".into(), json!(t.key));
                }
                value.insert("operator".into(), json!(t.operator));
                if !t.value.is_empty() {
                    value.insert("value".into(), json!(t.value));
                }
                if !t.effect.is_empty() {
                    value.insert("effect".into(), json!(t.effect));
                }
                Value::Object(value)
            })
            .collect::<Vec<_>>());
    }
    assert!(
        spec.volumes.is_empty(),
        "volumes of a template are not served by this harness"
    );
    json!({ "metadata": { "labels": labels }, "spec": pod })
}

/// (status.replicas, readyReplicas, availableReplicas) of `rs` at `at`,
/// counted over its active pods.
fn counts(run: &Run, deployment: &DeploymentRun, rs: &ReplicaSetRun, at: Millis) -> [usize; 3] {
    let mut out = [0; 3];
    for pod in deployment
        .pods_of(rs, &run.pods, at)
        .filter(|pod| pod.active_at(at))
    {
        out[0] += 1;
        out[1] += usize::from(pod.ready_at(at));
        out[2] += usize::from(pod.available_at(at, deployment.rollout_at(at).min_ready_seconds));
    }
    out
}

fn step<T: Copy>(steps: &[(Millis, T)], at: Millis) -> Option<T> {
    steps
        .iter()
        .rev()
        .find(|(from, _)| *from <= at)
        .map(|(_, value)| *value)
}

/// `deployment.kubernetes.io/max-replicas` (`SetReplicasAnnotations`):
/// `spec.replicas` plus `maxSurge` resolved against it
/// (`intstr.GetScaledValueFromIntOrPercent`, rounding up; 0 for
/// `Recreate`).
fn max_replicas(deployment: &DeploymentRun, at: Millis) -> usize {
    let desired = step(&deployment.replicas, at).unwrap_or(0);
    let rollout = deployment.rollout_at(at);
    let surge = if rollout.strategy == "RollingUpdate" {
        match rollout.max_surge.strip_suffix('%') {
            Some(percent) => (desired * percent.parse::<usize>().unwrap_or(0)).div_ceil(100),
            None => rollout.max_surge.parse().unwrap_or(0),
        }
    } else {
        0
    };
    desired + surge
}

/// `maxSurge`/`maxUnavailable` as an IntOrString: `"25%"` or `1`.
fn int_or_string(text: &str) -> Value {
    text.parse::<i64>()
        .map_or_else(|_| json!(text), |n| json!(n))
}

/// The Deployment and its ReplicaSets at `at`.
pub fn objects(
    run: &Run,
    deployment: &DeploymentRun,
    source: &str,
    at: Millis,
    clock: Clock,
) -> (Value, Vec<Value>) {
    let sets: Vec<&ReplicaSetRun> = deployment
        .replica_sets
        .iter()
        .filter(|rs| rs.created <= at)
        .collect();
    let new_index = step(&deployment.new_replica_set, at).flatten();
    let new = new_index.and_then(|index| deployment.replica_sets.get(index));
    let selector = labels(&deployment.labels);
    let replica_sets: Vec<Value> = sets
        .iter()
        .map(|rs| {
            let mut rs_labels = selector.clone();
            rs_labels.insert("pod-template-hash".into(), json!(rs.hash));
            let [replicas, ready, available] = counts(run, deployment, rs, at);
            json!({
                "apiVersion": "apps/v1",
                "kind": "ReplicaSet",
                "metadata": {
                    "name": rs.name,
                    "namespace": "default",
                    "uid": uid("ReplicaSet", &rs.name),
                    "resourceVersion": "1000",
                    "generation": 1,
                    "creationTimestamp": clock.time(rs.created),
                    "labels": rs_labels,
                    "annotations": {
                        "deployment.kubernetes.io/desired-replicas": step(&deployment.replicas, at).unwrap_or(0).to_string(),
                        "deployment.kubernetes.io/max-replicas": max_replicas(deployment, at).to_string(),
                        "deployment.kubernetes.io/revision": rs.revision_at(at).to_string(),
                    },
                    "ownerReferences": [{
                        "apiVersion": "apps/v1",
                        "kind": "Deployment",
                        "name": deployment.name,
                        "uid": uid("Deployment", &deployment.name),
                        "controller": true,
                        "blockOwnerDeletion": true,
                    }],
                },
                "spec": {
                    "replicas": rs.size_at(at),
                    "selector": { "matchLabels": rs_labels },
                    "template": template(source, &deployment.pod, rs_labels.clone(), &rs.images),
                },
                "status": {
                    "replicas": replicas,
                    "fullyLabeledReplicas": replicas,
                    "readyReplicas": ready,
                    "availableReplicas": available,
                    "observedGeneration": 1,
                },
            })
        })
        .collect();
    // calculateStatus over all ReplicaSets.
    let mut totals = [0; 3];
    let mut spec_total = 0;
    for rs in &sets {
        let [replicas, ready, available] = counts(run, deployment, rs, at);
        totals[0] += replicas;
        totals[1] += ready;
        totals[2] += available;
        spec_total += rs.size_at(at);
    }
    let updated = new.map_or(0, |rs| counts(run, deployment, rs, at)[0]);
    let conditions: Vec<Value> = step_conditions(deployment, at)
        .iter()
        .map(|c| {
            json!({
                "type": c.kind,
                "status": c.status,
                "lastUpdateTime": clock.time(c.last_update),
                "lastTransitionTime": clock.time(c.last_transition),
                "reason": c.reason,
                "message": c.message,
            })
        })
        .collect();
    let revision = new
        .map(|rs| rs.revision_at(at))
        .or_else(|| sets.iter().map(|rs| rs.revision_at(at)).max())
        .unwrap_or(0);
    let images = new.map_or(&[][..], |rs| rs.images.as_slice());
    let rollout = deployment.rollout_at(at);
    let mut strategy = json!({ "type": rollout.strategy });
    if rollout.strategy == "RollingUpdate" {
        strategy["rollingUpdate"] = json!({
            "maxUnavailable": int_or_string(&rollout.max_unavailable),
            "maxSurge": int_or_string(&rollout.max_surge),
        });
    }
    let created = deployment.replicas.first().map_or(0, |(from, _)| *from);
    let object = json!({
        "apiVersion": "apps/v1",
        "kind": "Deployment",
        "metadata": {
            "name": deployment.name,
            "namespace": "default",
            "uid": uid("Deployment", &deployment.name),
            "resourceVersion": "1000",
            "generation": revision,
            "creationTimestamp": clock.time(created),
            "annotations": Value::Object(labels(&deployment::annotations_at(run, deployment, at))),
        },
        "spec": {
            "replicas": step(&deployment.replicas, at).unwrap_or(0),
            "selector": { "matchLabels": selector },
            "template": template(source, &deployment.pod, selector.clone(), images),
            "strategy": strategy,
            "minReadySeconds": rollout.min_ready_seconds,
            "revisionHistoryLimit": 10,
            "progressDeadlineSeconds": rollout.progress_deadline_seconds,
        },
        "status": {
            "observedGeneration": revision,
            "replicas": totals[0],
            "updatedReplicas": updated,
            "readyReplicas": totals[1],
            "availableReplicas": totals[2],
            "unavailableReplicas": spec_total.saturating_sub(totals[2]),
            "conditions": conditions,
        },
    });
    // Its own labels (`kubectl label deployment`), absent when none, as
    // the API server omits an empty map.
    let mut object = object;
    let own = deployment::labels_at(run, deployment, at);
    if !own.is_empty() {
        object["metadata"]["labels"] = Value::Object(labels(&own));
    }
    (object, replica_sets)
}

fn step_conditions(
    deployment: &DeploymentRun,
    at: Millis,
) -> Vec<podlab_core::sim::DeploymentCondition> {
    deployment
        .conditions
        .iter()
        .rev()
        .find(|(from, _)| *from <= at)
        .map(|(_, list)| list.clone())
        .unwrap_or_default()
}

/// The core/v1 Events about the Deployment at `at`, from podlab's aggregator.
pub fn events(run: &Run, deployment: &DeploymentRun, at: Millis, clock: Clock) -> Vec<Value> {
    let object = format!("Deployment/{}", deployment.name);
    events::aggregate(run, &object, at)
        .iter()
        .map(|event| {
            json!({
                "kind": "Event",
                "apiVersion": "v1",
                "metadata": {
                    "name": event.name,
                    "namespace": "default",
                    "resourceVersion": "1000",
                    "creationTimestamp": clock.time(event.first),
                },
                "involvedObject": {
                    "kind": "Deployment",
                    "namespace": "default",
                    "name": deployment.name,
                    "uid": uid("Deployment", &deployment.name),
                    "apiVersion": "apps/v1",
                    "resourceVersion": "1000",
                },
                "reason": event.reason,
                "message": event.message,
                "type": event.type_name(),
                "source": { "component": event.source },
                "firstTimestamp": clock.time(event.first),
                "lastTimestamp": clock.time(event.last),
                "count": event.count,
                "eventTime": null,
                "reportingComponent": "",
                "reportingInstance": "",
            })
        })
        .collect()
}

/// Every Deployment of the run, all their ReplicaSets and their events.
pub fn served(
    run: &Run,
    source: &str,
    at: Millis,
    clock: Clock,
) -> (Vec<Value>, Vec<Value>, Vec<Value>) {
    let mut deployments = Vec::new();
    let mut replica_sets = Vec::new();
    let mut all_events = Vec::new();
    for deployment in &run.deployments {
        let (object, sets) = objects(run, deployment, source, at, clock);
        deployments.push(object);
        replica_sets.extend(sets);
        all_events.extend(events(run, deployment, at, clock));
    }
    (deployments, replica_sets, all_events)
}

/// `translateTimestampSince` on the server's clock at `at` (whole
/// seconds) of the object named `name` (a Deployment's creation is its
/// first `replicas` entry, a ReplicaSet's its `created`).
fn age(run: &Run, name: &str, at: Millis) -> String {
    let created = run
        .deployments
        .iter()
        .find_map(|d| {
            if d.name == name {
                return d.replicas.first().map(|(from, _)| *from);
            }
            d.replica_sets
                .iter()
                .find(|rs| rs.name == name)
                .map(|rs| rs.created)
        })
        .unwrap_or(0);
    human_duration((at - at % 1000).saturating_sub(created - created % 1000))
}

fn table(columns: &[(&str, &str)], rows: Vec<Value>) -> Value {
    json!({
        "kind": "Table",
        "apiVersion": "meta.k8s.io/v1",
        "metadata": { "resourceVersion": "1000" },
        "columnDefinitions": columns.iter().map(|(name, kind)| json!({
            "name": name,
            "type": kind,
            "format": if *name == "Name" { "name" } else { "" },
            "description": "",
            "priority": 0,
        })).collect::<Vec<_>>(),
        "rows": rows,
    })
}

/// The cells `printDeployment` and `printReplicaSet` add for `-o wide`
/// (priority 1: the server always prints them, kubectl shows them with
/// `-o wide`): `layoutContainerCells` of the template's containers, and
/// the selector's `matchLabels` as `labels.SelectorFromSet(...).String()`
/// writes them (sorted by key, `k=v` joined by commas).
fn wide_cells(object: &Value) -> [Value; 3] {
    let [names, images] = super::tables::container_cells(object);
    let selector = super::tables::format_labels(&object["spec"]["selector"]["matchLabels"]);
    [names, images, json!(selector)]
}

/// [`table`] with the three `-o wide` columns (priority 1) after the
/// others, each row's cells from [`wide_cells`] of its object.
fn with_wide_columns(mut printed: Value, objects: &[&Value]) -> Value {
    if let Some(columns) = printed["columnDefinitions"].as_array_mut() {
        for name in ["Containers", "Images", "Selector"] {
            columns.push(json!({
                "name": name, "type": "string", "format": "", "description": "", "priority": 1,
            }));
        }
    }
    if let Some(rows) = printed["rows"].as_array_mut() {
        for (row, object) in rows.iter_mut().zip(objects) {
            if let Some(cells) = row["cells"].as_array_mut() {
                cells.extend(wide_cells(object));
            }
        }
    }
    printed
}

fn sorted_by_name(objects: &[Value]) -> Vec<&Value> {
    let mut sorted: Vec<&Value> = objects.iter().collect();
    sorted.sort_by(|a, b| {
        a["metadata"]["name"]
            .as_str()
            .cmp(&b["metadata"]["name"].as_str())
    });
    sorted
}

fn row(object: &Value, cells: Vec<Value>) -> Value {
    json!({
        "cells": cells,
        "object": {
            "kind": "PartialObjectMetadata",
            "apiVersion": "meta.k8s.io/v1",
            "metadata": object["metadata"],
        },
    })
}

/// The Table for `kubectl get deploy` (`printDeployment`: READY is
/// `readyReplicas/spec.replicas`), by name as the API lists them.
pub fn deployment_table(run: &Run, objects: &[Value], at: Millis) -> Value {
    let rows = sorted_by_name(objects)
        .into_iter()
        .map(|d| {
            let ready = format!(
                "{}/{}",
                d["status"]["readyReplicas"].as_i64().unwrap_or(0),
                d["spec"]["replicas"].as_i64().unwrap_or(0)
            );
            row(
                d,
                vec![
                    d["metadata"]["name"].clone(),
                    json!(ready),
                    json!(d["status"]["updatedReplicas"].as_i64().unwrap_or(0)),
                    json!(d["status"]["availableReplicas"].as_i64().unwrap_or(0)),
                    json!(age(
                        run,
                        d["metadata"]["name"].as_str().unwrap_or_default(),
                        at
                    )),
                ],
            )
        })
        .collect();
    let printed = table(
        &[
            ("Name", "string"),
            ("Ready", "string"),
            ("Up-to-date", "string"),
            ("Available", "string"),
            ("Age", "string"),
        ],
        rows,
    );
    with_wide_columns(printed, &sorted_by_name(objects))
}

/// The Table for `kubectl get rs` (`printReplicaSet`: DESIRED
/// `spec.replicas`, CURRENT `status.replicas`, READY
/// `status.readyReplicas`), by name.
pub fn replica_set_table(run: &Run, objects: &[Value], at: Millis) -> Value {
    let rows = sorted_by_name(objects)
        .into_iter()
        .map(|rs| {
            row(
                rs,
                vec![
                    rs["metadata"]["name"].clone(),
                    json!(rs["spec"]["replicas"].as_i64().unwrap_or(0)),
                    json!(rs["status"]["replicas"].as_i64().unwrap_or(0)),
                    json!(rs["status"]["readyReplicas"].as_i64().unwrap_or(0)),
                    json!(age(
                        run,
                        rs["metadata"]["name"].as_str().unwrap_or_default(),
                        at
                    )),
                ],
            )
        })
        .collect();
    let printed = table(
        &[
            ("Name", "string"),
            ("Desired", "integer"),
            ("Current", "integer"),
            ("Ready", "integer"),
            ("Age", "string"),
        ],
        rows,
    );
    with_wide_columns(printed, &sorted_by_name(objects))
}
