//! Rolling updates and Recreate (issue 16 items 3 and 8): the Scenario's
//! `rollout` performed by the Deployment controller (`sim/rollout.rs`,
//! traffic-autoscaling.md §6, docs/rollouts.md). Times in ms from t = 0.
//!
//! Fixed timing as in `golden.rs`: a pod bound when it is created starts
//! its container 2.0 s later; without a readinessProbe it is Ready then,
//! and available `minReadySeconds` after that. The controllers act in the
//! instant of what triggers them, and a sync that scales a ReplicaSet is
//! followed at once by another (the ReplicaSet's update re-queues the
//! Deployment).

use podlab_core::sim::{simulate, DeploymentRun, Options, Run};

/// A Deployment `model-api` of `replicas` pods (`strategy` is the YAML of
/// its `spec.strategy`, or empty), rolled out to 0.3.2 at 60 s.
fn deployment(replicas: u32, strategy: &str, extra: &str, gpu: bool, cluster: &str) -> String {
    let resources = if gpu {
        "\n          resources: { limits: { nvidia.com/gpu: 1 } }"
    } else {
        ""
    };
    format!(
        "apiVersion: apps/v1
kind: Deployment
metadata: {{ name: model-api }}
spec:
  replicas: {replicas}
{strategy}{extra}  selector: {{ matchLabels: {{ app: model-api }} }}
  template:
    metadata: {{ labels: {{ app: model-api }} }}
    spec:
      containers:
        - name: api
          image: registry.example.com/model-api:0.3.1{resources}
---
apiVersion: podlab.dev/v1alpha1
kind: Scenario
spec:
  duration: 12m
  workload: [{{ container: api, startup: 5s, imagePull: 0s }}]
{cluster}  rollout:
    - {{ at: 60s, workload: model-api, image: registry.example.com/model-api:0.3.2 }}
"
    )
}

const GPU_NODE: &str = "  cluster:
    nodePools: [{ name: gpu, count: 1, cpu: \"16\", memory: 64Gi, gpu: { model: A100-80GB, count: 2 } }]
";

fn run(text: &str) -> Run {
    simulate(text, &Options::default())
}

fn the_deployment(run: &Run) -> &DeploymentRun {
    run.deployments
        .iter()
        .find(|d| d.name == "model-api")
        .expect("the Deployment is kept")
}

/// (old size, new size) at each time in `times` (seconds).
fn sizes(run: &Run, times: &[u64]) -> Vec<(u64, usize, usize)> {
    let deployment = the_deployment(run);
    times
        .iter()
        .map(|&s| {
            let at = s * 1000;
            let old = deployment.replica_sets[0].size_at(at);
            let new = deployment
                .replica_sets
                .get(1)
                .map_or(0, |rs| rs.size_at(at));
            (s, old, new)
        })
        .collect()
}

/// The Deployment's events: (at, message).
fn scaling_events(run: &Run) -> Vec<(u64, String)> {
    run.events
        .iter()
        .filter(|e| &*e.object == "Deployment/model-api")
        .map(|e| {
            assert_eq!(
                (e.reason, e.source),
                ("ScalingReplicaSet", "deployment-controller")
            );
            (e.at, e.message.to_string())
        })
        .collect()
}

/// (at, reason) of each Progressing condition written.
fn progressing(run: &Run) -> Vec<(u64, &'static str, String)> {
    let mut out: Vec<(u64, &'static str, String)> = Vec::new();
    for (_, conditions) in &the_deployment(run).conditions {
        if let Some(c) = conditions.iter().find(|c| c.kind == "Progressing") {
            if out
                .last()
                .is_none_or(|last| last.0 != c.last_update || last.1 != c.reason)
            {
                out.push((c.last_update, c.reason, c.message.clone()));
            }
        }
    }
    out
}

/// 4 replicas, defaults: maxSurge ceil(25 % × 4) = 1, maxUnavailable
/// floor(25 % × 4) = 1 (§6.1), minReadySeconds 10: a new pod is
/// available 2 + 10 = 12 s after it is created. The two new pods of each
/// step turn Ready in one instant, so both are the last of their
/// ReplicaSet to do so: `syncReplicaSet` (`replica_set.go`) sees every pod
/// Ready and not available and re-queues after minReadySeconds
/// (`AddAfter`), and at that sync `IsPodAvailable` counts both, exactly
/// Ready + 10 s (docs/rollouts.md, "The simplification in
/// `minReadySeconds`": a pod that is not the last would be counted up to
/// 1 s later, via `updatePod`'s `enqueueRSAfter(minReadySeconds + 1 s)`;
/// podlab does not model that second).
/// - 60: the new RS is created with NewRSNewReplicas = min(4 + 1 − 4, 4)
///   = 1; in the same sync reconcileOldReplicaSets: maxScaledDown = 5 − 3
///   − (1 − 0) = 1, 4 available > 3 → old 4→3; the next sync: 4 < 5 →
///   new 1→2; then 5 − 3 − 2 = 0: wait.
/// - 72: both new pods available: maxScaledDown = 5 − 3 − 0 = 2, available
///   3 + 2 = 5 → old 3→1; next sync 3 < 5 → new 2→4.
/// - 84: the last two available: available 1 + 4 = 5 → old 1→0; complete.
#[test]
fn four_replicas_roll_with_one_surge_and_one_unavailable() {
    let text = deployment(4, "", "  minReadySeconds: 10\n", false, "");
    let run = run(&text);
    assert_eq!(
        sizes(&run, &[59, 60, 71, 72, 83, 84, 700]),
        vec![
            (59, 4, 0),
            (60, 3, 2),
            (71, 3, 2),
            (72, 1, 4),
            (83, 1, 4),
            (84, 0, 4),
            (700, 0, 4)
        ]
    );
    let deployment = the_deployment(&run);
    let (old, new) = (
        deployment.replica_sets[0].name.clone(),
        deployment.replica_sets[1].name.clone(),
    );
    assert_ne!(old, new);
    assert_eq!(
        scaling_events(&run),
        vec![
            (60_000, format!("Scaled up replica set {new} from 0 to 1")),
            (60_000, format!("Scaled down replica set {old} from 4 to 3")),
            (60_000, format!("Scaled up replica set {new} from 1 to 2")),
            (72_000, format!("Scaled down replica set {old} from 3 to 1")),
            (72_000, format!("Scaled up replica set {new} from 2 to 4")),
            (84_000, format!("Scaled down replica set {old} from 1 to 0")),
        ]
    );
    // The new pods run the new image; the old ones were deleted.
    let new_pods: Vec<_> = run
        .pods
        .iter()
        .filter(|p| p.name.starts_with(&format!("{new}-")))
        .collect();
    assert_eq!(new_pods.len(), 4);
    assert!(new_pods.iter().all(|p| p.spec.containers[0]
        .image
        .as_ref()
        .is_some_and(|i| i.value == "registry.example.com/model-api:0.3.2")));
    let deleted: Vec<u64> = run.pods.iter().filter_map(|p| p.deleting).collect();
    assert_eq!(deleted, vec![60_000, 72_000, 72_000, 84_000]);
    let last = progressing(&run).pop().expect("a Progressing condition");
    assert_eq!(
        last,
        (
            84_000,
            "NewReplicaSetAvailable",
            format!("ReplicaSet \"{new}\" has successfully progressed.")
        )
    );
}

/// `maxSurge: 0` (maxUnavailable 25 % → 1): one old pod goes before each
/// new one. 60: new RS created at 0 (no event), old 4→3 (maxScaledDown =
/// 4 − 3 − 0 = 1), then new 0→1. Each new pod is available 12 s later and
/// lets one more old pod go: 72: old 3→2, new 1→2; 84: 2→1, 2→3; 96: 1→0,
/// 3→4; 108: complete.
#[test]
fn max_surge_zero_replaces_one_pod_at_a_time() {
    let strategy = "  strategy: { rollingUpdate: { maxSurge: 0 } }\n";
    let text = deployment(4, strategy, "  minReadySeconds: 10\n", false, "");
    let run = run(&text);
    assert_eq!(
        sizes(&run, &[60, 71, 72, 84, 96, 108]),
        vec![
            (60, 3, 1),
            (71, 3, 1),
            (72, 2, 2),
            (84, 1, 3),
            (96, 0, 4),
            (108, 0, 4)
        ]
    );
    let deployment = the_deployment(&run);
    let (old, new) = (
        &deployment.replica_sets[0].name,
        &deployment.replica_sets[1].name,
    );
    assert_eq!(
        scaling_events(&run),
        vec![
            (60_000, format!("Scaled down replica set {old} from 4 to 3")),
            (60_000, format!("Scaled up replica set {new} from 0 to 1")),
            (72_000, format!("Scaled down replica set {old} from 3 to 2")),
            (72_000, format!("Scaled up replica set {new} from 1 to 2")),
            (84_000, format!("Scaled down replica set {old} from 2 to 1")),
            (84_000, format!("Scaled up replica set {new} from 2 to 3")),
            (96_000, format!("Scaled down replica set {old} from 1 to 0")),
            (96_000, format!("Scaled up replica set {new} from 3 to 4")),
        ]
    );
    assert_eq!(
        progressing(&run).pop().map(|p| (p.0, p.1)),
        Some((108_000, "NewReplicaSetAvailable"))
    );
}

/// The GPU trap (§6.5): 2 replicas × 1 GPU on a node with 2 GPUs. Surge
/// ceil(0.5) = 1, unavailable floor(0.5) = 0: the new RS goes 0→1 and its
/// pod stays Pending (Insufficient nvidia.com/gpu); maxScaledDown = 3 − 2
/// − 1 = 0, so the old RS never shrinks. The new pod's creation is the
/// last progress (updatedReplicas 0 → 1 at 60 s): the check queued for
/// 60 + 600 + 1 = 661 s finds lastUpdateTime + 600 s < now → Progressing
/// False ProgressDeadlineExceeded. Nothing rolls back.
#[test]
fn surge_pod_without_a_free_gpu_stalls_until_the_progress_deadline() {
    let run = run(&deployment(2, "", "", true, GPU_NODE));
    assert_eq!(
        sizes(&run, &[60, 661, 720]),
        vec![(60, 2, 1), (661, 2, 1), (720, 2, 1)]
    );
    let deployment = the_deployment(&run);
    let new = &deployment.replica_sets[1].name;
    let surge = run
        .pods
        .iter()
        .find(|p| p.name.starts_with(&format!("{new}-")))
        .expect("the surge pod");
    assert_eq!(surge.node, None);
    let failed: Vec<&str> = run
        .events
        .iter()
        .filter(|e| *e.object == *format!("Pod/{}", surge.name) && e.reason == "FailedScheduling")
        .map(|e| &*e.message)
        .collect();
    assert_eq!(
        failed.first().copied(),
        Some("0/1 nodes are available: 1 Insufficient nvidia.com/gpu. no new claims to deallocate, preemption: 0/1 nodes are available: 1 No preemption victims found for incoming pod.")
    );
    // The run keeps the last conditions of each instant: at 0 the first
    // RS's pods are created (NewReplicaSetCreated, then progress), at 2 s
    // they are Ready and complete; at 60 the new RS is created and its
    // pod counted (ReplicaSetUpdated, lastUpdateTime 60 s).
    let first = &deployment.replica_sets[0].name;
    assert_eq!(
        progressing(&run),
        vec![
            (
                0,
                "ReplicaSetUpdated",
                format!("ReplicaSet \"{first}\" is progressing.")
            ),
            (
                2_000,
                "NewReplicaSetAvailable",
                format!("ReplicaSet \"{first}\" has successfully progressed.")
            ),
            (
                60_000,
                "ReplicaSetUpdated",
                format!("ReplicaSet \"{new}\" is progressing.")
            ),
            (
                661_000,
                "ProgressDeadlineExceeded",
                format!("ReplicaSet \"{new}\" has timed out progressing.")
            ),
        ]
    );
    // The old pods keep serving.
    let old_running = run
        .pods
        .iter()
        .filter(|p| p.deleting.is_none() && p.node.is_some())
        .count();
    assert_eq!(old_running, 2);
}

/// Fix A, `maxSurge: 0, maxUnavailable: 1`: 60: old 2→1 (its pod stops:
/// SIGTERM, exit 1 s later, gone at 61), new 0→1 whose pod fails to
/// schedule at 60 and is re-queued when the GPU is freed at 61 (its 1 s
/// back-off from 60 is over): bound at 61, Ready at 63 (available,
/// minReadySeconds 0): old 1→0, new 1→2; that pod fails at 63 and waits
/// for the second GPU: freed at 64, bound at 64, Ready at 66: complete.
#[test]
fn max_surge_zero_max_unavailable_one_rolls_the_gpu_deployment() {
    let strategy = "  strategy: { rollingUpdate: { maxSurge: 0, maxUnavailable: 1 } }\n";
    let run = run(&deployment(2, strategy, "", true, GPU_NODE));
    assert_eq!(
        sizes(&run, &[60, 62, 63, 720]),
        vec![(60, 1, 1), (62, 1, 1), (63, 0, 2), (720, 0, 2)]
    );
    let bound: Vec<u64> = run.pods[2..]
        .iter()
        .filter_map(|p| p.node.as_ref().map(|(_, at)| *at))
        .collect();
    assert_eq!(bound, vec![61_000, 64_000]);
    assert_eq!(
        progressing(&run).pop().map(|p| (p.0, p.1)),
        Some((66_000, "NewReplicaSetAvailable"))
    );
}

/// Fix B, `Recreate` (recreate.go): 60: old 2→0; the new ReplicaSet is
/// created only when no old pod exists (`oldPodsRunning`): both gone at
/// 61 → `Scaled up replica set <new> from 0 to 2`, bound at once on the
/// freed GPUs, Ready at 63: complete. Full downtime from 60 to 63.
#[test]
fn recreate_deletes_every_old_pod_before_creating_the_new_ones() {
    let strategy = "  strategy: { type: Recreate }\n";
    let run = run(&deployment(2, strategy, "", true, GPU_NODE));
    let deployment = the_deployment(&run);
    let (old, new) = (
        &deployment.replica_sets[0].name,
        &deployment.replica_sets[1].name,
    );
    assert_eq!(deployment.replica_sets[1].created, 61_000);
    assert_eq!(
        scaling_events(&run),
        vec![
            (60_000, format!("Scaled down replica set {old} from 2 to 0")),
            (61_000, format!("Scaled up replica set {new} from 0 to 2")),
        ]
    );
    let bound: Vec<u64> = run.pods[2..]
        .iter()
        .filter_map(|p| p.node.as_ref().map(|(_, at)| *at))
        .collect();
    assert_eq!(bound, vec![61_000, 61_000]);
    assert_eq!(
        progressing(&run).pop().map(|p| (p.0, p.1)),
        Some((63_000, "NewReplicaSetAvailable"))
    );
}

/// `kubectl rollout status` started at the rollout (rollout_status.go):
/// 60: 2 of 4 pods are of the new ReplicaSet; 72: all 4 are, 1 old pod is
/// still active (the one deleted at 84); 84: done.
#[test]
fn rollout_status_follows_the_four_replica_rollout_to_success() {
    let run = run(&deployment(4, "", "  minReadySeconds: 10\n", false, ""));
    assert_eq!(
        podlab_core::explain::deployment::rollout_status_lines(&run, "model-api", 60_000, 720_000),
        vec![
            "Waiting for deployment \"model-api\" rollout to finish: 2 out of 4 new replicas have been updated...",
            "Waiting for deployment \"model-api\" rollout to finish: 1 old replicas are pending termination...",
            "deployment \"model-api\" successfully rolled out",
        ]
    );
    let deployment = the_deployment(&run);
    let (old, new) = (
        &deployment.replica_sets[0].name,
        &deployment.replica_sets[1].name,
    );
    // At 73 s: 4 new pods (2 Ready since 62, available since 72; 2 just
    // created), 1 old pod Ready.
    assert_eq!(
        podlab_core::explain::deployment::get_deployments(&run, 73_000),
        "NAME        READY   UP-TO-DATE   AVAILABLE   AGE\nmodel-api   3/4     4            3           73s\n"
    );
    assert_eq!(
        podlab_core::explain::deployment::get_replica_sets(&run, 73_000),
        format!("NAME                   DESIRED   CURRENT   READY   AGE\n{old}   1         1         1       73s\n{new}   4         4         2       13s\n")
    );
}

/// The stalled GPU rollout: waiting on the Pending surge pod until the
/// deadline's error at 661 s.
#[test]
fn rollout_status_of_the_gpu_trap_ends_with_the_deadline_error() {
    let run = run(&deployment(2, "", "", true, GPU_NODE));
    assert_eq!(
        podlab_core::explain::deployment::rollout_status_lines(&run, "model-api", 60_000, 720_000),
        vec![
            "Waiting for deployment \"model-api\" rollout to finish: 1 out of 2 new replicas have been updated...",
            "error: deployment \"model-api\" exceeded its progress deadline",
        ]
    );
}

/// `kubectl describe deployment` (describe.go `describeDeployment`) in
/// the middle of the four-replica rollout (73 s), after it, and for the
/// GPU trap past its deadline (the full text is compared with kubectl's in
/// crates/cli/tests/kubectl/deployments.rs).
#[test]
fn describe_deployment_during_and_after_rollouts() {
    use podlab_core::explain::deployment::describe_deployment;
    let run = run(&deployment(4, "", "  minReadySeconds: 10\n", false, ""));
    let deployment = the_deployment(&run);
    let (old, new) = (
        &deployment.replica_sets[0].name,
        &deployment.replica_sets[1].name,
    );
    let during = describe_deployment(&run, deployment, 73_000);
    for line in [
        "Replicas:               4 desired | 4 updated | 5 total | 3 available | 2 unavailable\n".to_string(),
        "RollingUpdateStrategy:  25% max unavailable, 25% max surge\n".to_string(),
        "  Progressing    True    ReplicaSetUpdated\n".to_string(),
        format!("OldReplicaSets:  {old} (1/1 replicas created)\nNewReplicaSet:   {new} (4/4 replicas created)\n"),
        format!("  Normal  ScalingReplicaSet  1s    deployment-controller  Scaled up replica set {new} from 2 to 4\n"),
    ] {
        assert!(during.contains(&line), "{line}\nnot in\n{during}");
    }
    let after = describe_deployment(&run, deployment, 720_000);
    assert!(after.contains("    Image:         registry.example.com/model-api:0.3.2\n"));
    // The old ReplicaSet at 0 is still listed (`allOldRSes`).
    assert!(after.contains(&format!(
        "  Progressing    True    NewReplicaSetAvailable\nOldReplicaSets:  {old} (0/0 replicas created)\n"
    )));

    let gpu = self::run(&self::deployment(2, "", "", true, GPU_NODE));
    let trap = the_deployment(&gpu);
    let text = describe_deployment(&gpu, trap, 700_000);
    for line in [
        "Replicas:               2 desired | 1 updated | 3 total | 2 available | 1 unavailable\n".to_string(),
        "    Limits:\n      nvidia.com/gpu:  1\n    Requests:\n      nvidia.com/gpu:  1\n".to_string(),
        "  Available      True    MinimumReplicasAvailable\n  Progressing    False   ProgressDeadlineExceeded\n".to_string(),
        format!("NewReplicaSet:   {} (1/1 replicas created)\n", trap.replica_sets[1].name),
    ] {
        assert!(text.contains(&line), "{line}\nnot in\n{text}");
    }
}
