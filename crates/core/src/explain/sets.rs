//! `kubectl get statefulsets` and `kubectl get daemonsets` (and their
//! tables in `get all`) from the text's StatefulSets and DaemonSets and
//! their pods in the run, as the API server's Tables print them
//! (`pkg/printers/internalversion/printers.go` `printStatefulSet`,
//! `printDaemonSet` and their column definitions).
//!
//! Their status is counted from the pods at T, as the controllers count
//! it when a pod changes (`pkg/controller/statefulset/
//! stateful_set_control.go` `computeReplicaStatus`,
//! `pkg/controller/daemon/daemon_controller.go` `updateDaemonSetStatus`);
//! podlab does not model the instant each status write lands.

use super::get_pods::container_cells;
use super::human_duration;
use super::service::format_labels;
use crate::manifest::duration::Millis;
use crate::manifest::model::{Workload, WorkloadKind};
use crate::manifest::read::Reading;
use crate::sim::{PodRun, Run};

/// The workloads of `kind` in the text, by name (the API server's list
/// order), `name` keeping only that one.
fn written<'r>(reading: &'r Reading, kind: WorkloadKind, name: Option<&str>) -> Vec<&'r Workload> {
    let mut found: Vec<&Workload> = reading
        .workloads
        .iter()
        .filter(|w| w.kind == kind && name.is_none_or(|name| w.name == name))
        .collect();
    crate::sort::sort_by(&mut found, |a, b| a.name.cmp(&b.name));
    found
}

/// The pods `workload` owns that exist at `at` (terminating ones too: the
/// controllers list them).
fn pods_of<'r>(run: &'r Run, workload: &Workload, at: Millis) -> Vec<&'r PodRun> {
    let owner = format!("{}/{}", workload.kind.as_str(), workload.name);
    run.pods
        .iter()
        .filter(|pod| pod.owner == owner && pod.exists_at(at))
        .collect()
}

/// `kubectl get statefulsets [NAME] [-o wide]`: NAME, READY
/// (`status.readyReplicas/spec.replicas`: the pods Running and Ready of
/// `spec.replicas`), AGE; wide adds CONTAINERS and IMAGES
/// (`layoutContainerCells`). The header first; only the header when there
/// is none.
pub fn stateful_set_rows(
    run: &Run,
    reading: &Reading,
    at: Millis,
    name: Option<&str>,
    wide: bool,
) -> Vec<Vec<String>> {
    let mut header = vec!["NAME", "READY", "AGE"];
    if wide {
        header.extend(["CONTAINERS", "IMAGES"]);
    }
    let mut rows = vec![header.into_iter().map(String::from).collect::<Vec<_>>()];
    for set in written(reading, WorkloadKind::StatefulSet, name) {
        let ready = pods_of(run, set, at)
            .into_iter()
            .filter(|pod| pod.ready_at(at))
            .count();
        let replicas = set.replicas.as_ref().map_or(1, |r| r.value);
        let mut row = vec![
            set.name.clone(),
            format!("{ready}/{replicas}"),
            human_duration(at),
        ];
        if wide {
            row.extend(container_cells(&set.pod.containers));
        }
        rows.push(row);
    }
    rows
}

/// `kubectl get daemonsets [NAME] [-o wide]`: NAME, DESIRED (the nodes
/// that should run its pod: `NodeShouldRunDaemonPod`, the same test the
/// simulated controller makes, `sched::Node::{tolerated, matches}`),
/// CURRENT (its pods on those nodes), READY, UP-TO-DATE (all: podlab has no
/// DaemonSet rollout), AVAILABLE (Ready, `minReadySeconds` 0), NODE
/// SELECTOR (the template's `nodeSelector`, `labels.FormatLabels`:
/// `k=v` by key, `<none>`), AGE;
/// wide adds CONTAINERS, IMAGES and SELECTOR (`metav1.FormatLabelSelector`
/// of the `matchLabels`, the template's labels as podlab assumes).
pub fn daemon_set_rows(
    run: &Run,
    reading: &Reading,
    at: Millis,
    name: Option<&str>,
    wide: bool,
) -> Vec<Vec<String>> {
    let mut header = vec![
        "NAME",
        "DESIRED",
        "CURRENT",
        "READY",
        "UP-TO-DATE",
        "AVAILABLE",
        "NODE SELECTOR",
        "AGE",
    ];
    if wide {
        header.extend(["CONTAINERS", "IMAGES", "SELECTOR"]);
    }
    let mut rows = vec![header.into_iter().map(String::from).collect::<Vec<_>>()];
    let nodes = super::node::nodes(&reading.scenario);
    for set in written(reading, WorkloadKind::DaemonSet, name) {
        let desired = nodes
            .iter()
            .filter(|node| {
                let node = crate::sched::Node::empty(node.pool, node.number);
                node.tolerated(&set.pod, true) && node.matches(&set.pod)
            })
            .count();
        let pods = pods_of(run, set, at);
        let current = pods.len();
        let ready = pods.iter().filter(|pod| pod.ready_at(at)).count();
        let mut row = vec![
            set.name.clone(),
            desired.to_string(),
            current.to_string(),
            ready.to_string(),
            current.to_string(),
            ready.to_string(),
            format_labels(&set.pod.node_selector),
            human_duration(at),
        ];
        if wide {
            row.extend(container_cells(&set.pod.containers));
            row.push(format_labels(&set.pod_labels));
        }
        rows.push(row);
    }
    rows
}
