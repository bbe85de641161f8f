//! The StatefulSets and DaemonSets of a text at a time T as the API server
//! would return them: apps/v1 objects (name, template, selector, replicas)
//! whose status is counted here from the run's pods at T, as the
//! controllers count it (`computeReplicaStatus`: `readyReplicas`;
//! `updateDaemonSetStatus`: the nodes that should run a pod, those that
//! have one, Ready, updated, available), for `tables::stateful_set_table`
//! and `daemon_set_table` to print.

use podlab_core::manifest::duration::Millis;
use podlab_core::manifest::model::{Workload, WorkloadKind};
use podlab_core::sim::{PodRun, Run};
use serde_json::{json, Map, Value};

use super::objects::Clock;

fn labels(pairs: &[(String, String)]) -> Map<String, Value> {
    pairs
        .iter()
        .map(|(key, value)| (key.clone(), json!(value)))
        .collect()
}

/// The object of `workload` without its status.
fn object(workload: &Workload, kind: &str, clock: Clock) -> Value {
    let containers: Vec<Value> = workload
        .pod
        .containers
        .iter()
        .map(|c| {
            json!({
                "name": c.name,
                "image": c.image.as_ref().map_or("", |image| image.value.as_str()),
            })
        })
        .collect();
    let mut spec = json!({ "containers": containers });
    if !workload.pod.node_selector.is_empty() {
        spec["nodeSelector"] = Value::Object(labels(&workload.pod.node_selector));
    }
    json!({
        "apiVersion": "apps/v1",
        "kind": kind,
        "metadata": {
            "name": workload.name,
            "namespace": "default",
            "resourceVersion": "1000",
            "creationTimestamp": clock.time(0),
        },
        "spec": {
            "selector": { "matchLabels": labels(&workload.pod_labels) },
            "template": {
                "metadata": { "labels": labels(&workload.pod_labels) },
                "spec": spec,
            },
        },
    })
}

/// The pods `owner` (`Kind/name`) has at `at`.
fn pods<'r>(run: &'r Run, owner: &str, at: Millis) -> Vec<&'r PodRun> {
    run.pods
        .iter()
        .filter(|pod| pod.owner == owner && pod.exists_at(at))
        .collect()
}

/// The text's DaemonSets and StatefulSets at `at`, each by name. A
/// DaemonSet's DESIRED is the number of pods its controller made when it
/// was created (one per node that should run it, at once).
pub fn served(text: &str, run: &Run, at: Millis, clock: Clock) -> (Vec<Value>, Vec<Value>) {
    let mut workloads = podlab_core::manifest::read::read(text).workloads;
    workloads.sort_by(|a, b| a.name.cmp(&b.name));
    let mut daemon_sets = Vec::new();
    let mut stateful_sets = Vec::new();
    for workload in &workloads {
        match workload.kind {
            WorkloadKind::DaemonSet => {
                let owner = format!("DaemonSet/{}", workload.name);
                let first = run
                    .pods
                    .iter()
                    .filter(|pod| pod.owner == owner)
                    .map(|pod| pod.created)
                    .min();
                let desired = run
                    .pods
                    .iter()
                    .filter(|pod| pod.owner == owner && Some(pod.created) == first)
                    .count();
                let current = pods(run, &owner, at);
                let ready = current.iter().filter(|pod| pod.ready_at(at)).count();
                let mut value = object(workload, "DaemonSet", clock);
                value["status"] = json!({
                    "desiredNumberScheduled": desired,
                    "currentNumberScheduled": current.len(),
                    "numberReady": ready,
                    "updatedNumberScheduled": current.len(),
                    "numberAvailable": ready,
                });
                daemon_sets.push(value);
            }
            WorkloadKind::StatefulSet => {
                let owner = format!("StatefulSet/{}", workload.name);
                let ready = pods(run, &owner, at)
                    .iter()
                    .filter(|pod| pod.ready_at(at))
                    .count();
                let mut value = object(workload, "StatefulSet", clock);
                value["spec"]["replicas"] =
                    json!(workload.replicas.as_ref().map_or(1, |r| r.value));
                value["status"] = json!({ "readyReplicas": ready });
                stateful_sets.push(value);
            }
            _ => {}
        }
    }
    (daemon_sets, stateful_sets)
}
