//! Golden scenarios for the controllers and the scheduler queue
//! (`tests/golden/*.yaml`, scheduler-controllers.md §3, §7-§9): facts at
//! given times, arithmetic in comments. Times in ms from t = 0
//! (2026-01-01T00:00:00Z). Fixed timing as in `golden.rs`: a pod bound at b
//! starts its container at b + 2.0 s, the PLEG sees an exit 1 s later, and
//! that sync is when the pod's phase (Succeeded/Failed) reaches the
//! controllers and the scheduler.

mod common;

use common::{events_of, is_generated, run};
use podlab_core::explain::get_pods;
use podlab_core::sim::{simulate, Options};

/// Never, backoffLimit 2. Pod 1: bound 0, starts 2.0, exits 1 at 7.0,
/// Failed at the 8.0 sync → failed 1; back-off 10 s from finishedAt 7 →
/// pod 2 at 17.0. Pod 2: starts 19.0, exits 24.0, seen 25.0 → failed 2;
/// back-off 20 s → pod 3 at 44.0. Pod 3: exits 51.0, seen 52.0 → failed 3 >
/// 2 → FailureTarget, and Failed at once (no active pod to delete).
#[test]
fn a_never_job_replaces_failed_pods_after_the_back_off_and_fails_on_the_third() {
    let run = run("job-never-backoff.yaml", 300);
    let created: Vec<u64> = run.pods.iter().map(|p| p.created).collect();
    assert_eq!(created, vec![0, 17_000, 44_000]);
    for pod in &run.pods {
        assert!(is_generated(&pod.name, "train-"), "{}", pod.name);
        assert_eq!(pod.owner, "Job/train");
        assert_eq!(pod.phase_at(300_000), "Failed");
        assert_eq!(get_pods::row(pod, 300_000).status, "Error");
    }
    let job = &run.jobs[0];
    assert_eq!(
        (job.name.as_str(), job.succeeded, job.failed),
        ("train", 0, 3)
    );
    let conditions: Vec<(&str, &str, &str, u64)> = job
        .conditions
        .iter()
        .map(|c| (c.kind, c.reason, c.message, c.at))
        .collect();
    let message = "Job has reached the specified backoff limit";
    assert_eq!(
        conditions,
        vec![
            ("FailureTarget", "BackoffLimitExceeded", message, 52_000),
            ("Failed", "BackoffLimitExceeded", message, 52_000),
        ]
    );
    let events = events_of(&run, "Job/train");
    let creates: Vec<String> = run
        .pods
        .iter()
        .map(|p| format!("Created pod: {}", p.name))
        .collect();
    assert_eq!(
        events,
        vec![
            (0, "SuccessfulCreate", creates[0].as_str()),
            (17_000, "SuccessfulCreate", creates[1].as_str()),
            (44_000, "SuccessfulCreate", creates[2].as_str()),
            (52_000, "BackoffLimitExceeded", message),
        ]
    );
    assert!(run
        .events
        .iter()
        .any(|e| e.reason == "BackoffLimitExceeded" && e.warning && e.source == "job-controller"));
}

/// OnFailure, backoffLimit 2: one pod, restarted in place. C0 2.0 → exit
/// 7.0, sync 8.0 → restart at 8.3 (restartCount 1); C1 exits 13.3, sync
/// 14.3 in back-off (10 s, until 23.3) → BackOff, re-queued after the
/// remaining 9 s × 1.25 = 11.25 s (`sim::requeue`) → sync 25.55 → restart
/// at 25.85 (restartCount 2 ≥ 2) → FailureTarget at 25.85, the pod is deleted
/// (Killing `Stopping container main`), SIGTERM, gone 1 s later at 26.85 →
/// Failed; the deleted pod counts as failed.
#[test]
fn an_on_failure_job_fails_when_restarts_reach_the_backoff_limit() {
    let run = run("job-onfailure-restarts.yaml", 300);
    assert_eq!(run.pods.len(), 1, "restarted in place, never replaced");
    let pod = &run.pods[0];
    let starts: Vec<u64> = pod.containers[0]
        .instances
        .iter()
        .map(|i| i.started)
        .collect();
    assert_eq!(starts, vec![2_000, 8_300, 25_850]);
    let killing: Vec<(u64, &str)> = run
        .events
        .iter()
        .filter(|e| e.reason == "Killing")
        .map(|e| (e.at, &*e.message))
        .collect();
    assert_eq!(killing, vec![(25_850, "Stopping container main")]);
    assert_eq!((pod.deleting, pod.deleted), (Some(25_850), Some(26_850)));
    assert!(!pod.exists_at(300_000));
    assert!(get_pods::render(&run, 300_000).is_empty());
    let job = &run.jobs[0];
    assert_eq!((job.succeeded, job.failed), (0, 1));
    let conditions: Vec<(&str, u64)> = job.conditions.iter().map(|c| (c.kind, c.at)).collect();
    assert_eq!(
        conditions,
        vec![("FailureTarget", 25_850), ("Failed", 26_850)]
    );
    assert_eq!(
        events_of(&run, "Job/train").last(),
        Some(&(
            26_850,
            "BackoffLimitExceeded",
            "Job has reached the specified backoff limit"
        ))
    );
}

/// completions 3, parallelism 2, 10 s pods: two pods at 0 finish at 12.0,
/// seen at 13.0; the first one seen leaves 2 to go with 1 active → a third
/// pod at 13.0; the second one seen leaves 1 with 1 active. The third exits
/// at 25.0, seen 26.0 → SuccessCriteriaMet and Complete (CompletionsReached).
/// `slow` (activeDeadlineSeconds 30): at 30.0 FailureTarget
/// DeadlineExceeded, its pod deleted, SIGTERM → exits 31.0 → Failed.
#[test]
fn completions_with_parallelism_and_the_active_deadline() {
    let run = run("job-completions-deadline.yaml", 120);
    let batch: Vec<u64> = run
        .pods
        .iter()
        .filter(|p| p.owner == "Job/batch")
        .map(|p| p.created)
        .collect();
    assert_eq!(batch, vec![0, 0, 13_000]);
    let job = run.jobs.iter().find(|j| j.name == "batch").unwrap();
    assert_eq!((job.succeeded, job.failed), (3, 0));
    let conditions: Vec<(&str, &str, u64)> = job
        .conditions
        .iter()
        .map(|c| (c.kind, c.reason, c.at))
        .collect();
    assert_eq!(
        conditions,
        vec![
            ("SuccessCriteriaMet", "CompletionsReached", 26_000),
            ("Complete", "CompletionsReached", 26_000)
        ]
    );
    assert_eq!(
        events_of(&run, "Job/batch").last(),
        Some(&(26_000, "Completed", "Job completed"))
    );
    let slow = run.jobs.iter().find(|j| j.name == "slow").unwrap();
    let conditions: Vec<(&str, &str, u64)> = slow
        .conditions
        .iter()
        .map(|c| (c.kind, c.reason, c.at))
        .collect();
    assert_eq!(
        conditions,
        vec![
            ("FailureTarget", "DeadlineExceeded", 30_000),
            ("Failed", "DeadlineExceeded", 31_000)
        ]
    );
    assert_eq!(slow.failed, 1);
    assert_eq!(
        events_of(&run, "Job/slow").last(),
        Some(&(
            31_000,
            "DeadlineExceeded",
            "Job was active longer than specified deadline"
        ))
    );
}

/// "* * * * *" from t = 0: schedule times 60, 120, 180, 240 s, each synced
/// 100 ms later. Job names: (1 767 225 600 + 60) / 60 = 29 453 761, … Jobs
/// run 90 s: started at 60.1 + 2.0, exit 152.1, seen 153.1.
/// - Allow: a Job every minute, overlapping.
/// - Forbid: 120.1 → JobAlreadyActive; the first Job completes at 153.1, the
///   unmet 120 s time runs at once (forbid-29453762); 180.1 and 240.1 →
///   JobAlreadyActive; it completes at 155.1 + 91 = 246.1 → the most recent
///   unmet time, 240 s, runs (forbid-29453764); 180 s is skipped.
/// - Replace: at 120.1 the running Job is deleted, its pod killed
///   (`Stopping container main`), a new Job created.
/// - Suspended: nothing.
#[test]
fn cronjob_names_and_concurrency_policies() {
    let run = run("cronjob-policies.yaml", 300);
    let jobs = |prefix: &str| -> Vec<(String, u64)> {
        run.jobs
            .iter()
            .filter(|j| j.owner.as_deref() == Some(prefix))
            .map(|j| (j.name.clone(), j.created))
            .collect()
    };
    let named = |list: &[(&str, u64)]| -> Vec<(String, u64)> {
        list.iter().map(|(n, t)| (n.to_string(), *t)).collect()
    };
    assert_eq!(
        jobs("CronJob/allow"),
        named(&[
            ("allow-29453761", 60_100),
            ("allow-29453762", 120_100),
            ("allow-29453763", 180_100),
            ("allow-29453764", 240_100)
        ])
    );
    assert_eq!(
        jobs("CronJob/forbid"),
        named(&[
            ("forbid-29453761", 60_100),
            ("forbid-29453762", 153_100),
            ("forbid-29453764", 246_100)
        ])
    );
    let forbid = events_of(&run, "CronJob/forbid");
    let skipped: Vec<u64> = forbid
        .iter()
        .filter(|e| e.1 == "JobAlreadyActive")
        .map(|e| e.0)
        .collect();
    assert_eq!(skipped, vec![120_100, 180_100, 240_100]);
    assert!(forbid.contains(&(
        153_100,
        "SawCompletedJob",
        "Saw completed job: forbid-29453761, status: Complete"
    )));
    assert!(forbid.contains(&(60_100, "SuccessfulCreate", "Created job forbid-29453761")));
    let replace = events_of(&run, "CronJob/replace");
    assert_eq!(
        &replace[..3],
        &[
            (60_100, "SuccessfulCreate", "Created job replace-29453761"),
            (120_100, "SuccessfulDelete", "Deleted job replace-29453761"),
            (120_100, "SuccessfulCreate", "Created job replace-29453762"),
        ]
    );
    let first = run
        .pods
        .iter()
        .find(|p| p.owner == "Job/replace-29453761")
        .unwrap();
    assert!(
        is_generated(&first.name, "replace-29453761-"),
        "{}",
        first.name
    );
    assert_eq!(
        first.deleted,
        Some(121_100),
        "SIGTERM at 120.1, exits 1 s later"
    );
    assert!(events_of(&run, &format!("Pod/{}", first.name)).contains(&(
        120_100,
        "Killing",
        "Stopping container main"
    )));
    // While it is being deleted `kubectl get pods` says Terminating
    // (printPod: a deletionTimestamp on a pod that is not Succeeded or
    // Failed), and the timeline's lane says the same.
    assert_eq!(first.deleting, Some(120_100));
    assert_eq!(get_pods::status(first, 120_000), "Running");
    assert_eq!(get_pods::status(first, 120_100), "Terminating");
    assert_eq!(get_pods::status(first, 121_000), "Terminating");
    let table = get_pods::render(&run, 120_500);
    let row = table
        .lines()
        .find(|line| line.starts_with(&first.name))
        .unwrap_or_default();
    assert!(row.contains("1/1     Terminating"), "{table}");
    assert!(!get_pods::render(&run, 121_100).contains(&first.name));
    assert!(run
        .jobs
        .iter()
        .all(|j| j.owner.as_deref() != Some("CronJob/paused")));
}

/// One GPU. The Job's pod is bound at 0; `serve` fails at 0 (§11 (b)). The
/// Job's pod exits at 2.0 + 30 = 32.0 and is Succeeded at the 33.0 sync:
/// the scheduler sees a delete, `serve`'s 1 s backoff is long over → bound
/// at 33.0, container at 35.0. One FailedScheduling only.
#[test]
fn a_pending_pod_is_scheduled_when_a_job_pod_frees_the_gpu() {
    let run = run("gpu-job-frees-capacity.yaml", 120);
    let serve = run.pods.iter().find(|p| p.name == "serve").unwrap();
    assert_eq!(serve.node, Some(("gpu-0".to_string(), 33_000)));
    assert_eq!(serve.containers[0].instances[0].started, 35_000);
    let events = events_of(&run, "Pod/serve");
    assert_eq!(events[0].0, 0);
    assert_eq!(events[0].1, "FailedScheduling");
    assert_eq!(
        events[1],
        (
            33_000,
            "Scheduled",
            "Successfully assigned default/serve to gpu-0"
        )
    );
    assert_eq!(
        events.iter().filter(|e| e.1 == "FailedScheduling").count(),
        1
    );
    assert_eq!(get_pods::row(serve, 20_000).status, "Pending");
    assert_eq!(get_pods::row(serve, 120_000).status, "Running");
}

/// Without any freed capacity the pending replica is retried by the 30 s
/// flush once it has been unschedulable more than 5 min: 0 → 330 s (300 is
/// not > 300) → 660 s (330 + 300 = 630 < 660, the first tick after).
#[test]
fn a_pod_nothing_frees_is_retried_every_five_and_a_half_minutes() {
    let run = run("reference-one-gpu.yaml", 900);
    let object = format!("Pod/{}", run.pods[1].name);
    let attempts: Vec<u64> = events_of(&run, &object)
        .iter()
        .filter(|e| e.1 == "FailedScheduling")
        .map(|e| e.0)
        .collect();
    assert_eq!(attempts, vec![0, 330_000, 660_000]);
}

/// cpu-0, cpu-1 (label pool=cpu) and gpu-0 (pool=gpu, tainted
/// nvidia.com/gpu=present:NoSchedule).
/// - DaemonSet `logs`: no toleration → cpu-0 and cpu-1 only.
/// - StatefulSet `db` (OrderedReady, readiness tcpSocket, program loads in
///   20 s): db-0 starts 2.0, readiness runs at once (fails), then on its
///   grid 12.0 (fails), 22.0 (listening since 2 + 20) → Ready → db-1 at 22.0;
///   likewise db-2 at 22 + 22 = 44.0.
/// - `wrong-pool` (nodeSelector pool=gpu, no toleration): the GPU node fails
///   on the taint (first filter), the CPU nodes on node affinity.
/// - `on-gpu` (required affinity pool In [gpu], spot DoesNotExist, toleration)
///   → gpu-0.
#[test]
fn daemonset_statefulset_and_node_affinity_placement() {
    let run = run("daemonset-statefulset-placement.yaml", 120);
    let node_of = |name: &str| {
        run.pods
            .iter()
            .find(|p| p.name == name)
            .and_then(|p| p.node.as_ref().map(|(n, _)| n.as_str()))
    };
    let daemons: Vec<(&str, Option<&str>)> = run
        .pods
        .iter()
        .filter(|p| p.owner == "DaemonSet/logs")
        .map(|p| (p.name.as_str(), p.node.as_ref().map(|(n, _)| n.as_str())))
        .collect();
    assert_eq!(daemons.len(), 2);
    assert!(is_generated(daemons[0].0, "logs-"), "{}", daemons[0].0);
    assert_eq!(daemons[0].1, Some("cpu-0"));
    assert_eq!(daemons[1].1, Some("cpu-1"));
    let db: Vec<(&str, u64)> = run
        .pods
        .iter()
        .filter(|p| p.owner == "StatefulSet/db")
        .map(|p| (p.name.as_str(), p.created))
        .collect();
    assert_eq!(db, vec![("db-0", 0), ("db-1", 22_000), ("db-2", 44_000)]);
    assert_eq!(
        events_of(&run, "StatefulSet/db")[1],
        (
            22_000,
            "SuccessfulCreate",
            "create Pod db-1 in StatefulSet db successful"
        )
    );
    assert_eq!(node_of("wrong-pool"), None);
    let failed = run
        .events
        .iter()
        .find(|e| &*e.object == "Pod/wrong-pool")
        .unwrap();
    assert_eq!(
        &*failed.message,
        "0/3 nodes are available: 1 node(s) had untolerated taint(s), 2 node(s) didn't match Pod's node affinity/selector. no new claims to deallocate, preemption: 0/3 nodes are available: 3 Preemption is not helpful for scheduling."
    );
    assert_eq!(node_of("on-gpu"), Some("gpu-0"));
}

/// History limit (successfulJobsHistoryLimit 3): `allow`'s Jobs complete at
/// 153.1, 213.1, 273.1, 333.1 s (each created a minute later, 93 s to run);
/// at the fourth the oldest finished Job is deleted and its pod goes with it.
#[test]
fn a_cronjob_keeps_three_successful_jobs() {
    let run = run("cronjob-policies.yaml", 420);
    let allow = events_of(&run, "CronJob/allow");
    let deletes: Vec<(u64, &str)> = allow
        .iter()
        .filter(|e| e.1 == "SuccessfulDelete")
        .map(|e| (e.0, e.2))
        .collect();
    assert_eq!(
        deletes,
        vec![
            (333_100, "Deleted job allow-29453761"),
            (393_100, "Deleted job allow-29453762")
        ]
    );
    let pod = run
        .pods
        .iter()
        .find(|p| p.owner == "Job/allow-29453761")
        .unwrap();
    assert_eq!(pod.deleted, Some(333_100));
    assert!(!get_pods::render(&run, 420_000).contains("allow-29453761-"));
    assert!(get_pods::render(&run, 420_000).contains("allow-29453763-"));
}

/// `kubectl scale` from the Scenario's `actions` (`sim/scale.rs`): the
/// ReplicaSet controller deletes the pods it ranks first — a pod not yet
/// on a node before one that is (`ActivePods.Less`) — and scales up with
/// new pods of the same ReplicaSet.
#[test]
fn scaling_down_deletes_the_unscheduled_pod_first_and_scaling_up_adds_pods() {
    let text = "apiVersion: apps/v1
kind: Deployment
metadata: { name: model-api }
spec:
  replicas: 2
  selector: { matchLabels: { app: model-api } }
  template:
    metadata: { labels: { app: model-api } }
    spec:
      containers:
        - name: api
          image: registry.example.com/model-api:1.0
          resources: { limits: { nvidia.com/gpu: 1 } }
---
apiVersion: podlab.dev/v1alpha1
kind: Scenario
spec:
  duration: 5m
  workload: [{ container: api, startup: 10s }]
  cluster:
    nodePools: [{ name: gpu, count: 1, cpu: \"8\", memory: 32Gi, gpu: { model: A100-80GB, count: 1 } }]
  actions:
    - { at: 2m, scale: { name: model-api, replicas: 1 } }
    - { at: 3m, scale: { name: model-api, replicas: 3 } }
";
    let run = simulate(text, &Options::default());
    // One GPU: one pod runs, the other is Pending; at 2 m the Pending one
    // goes, at once (nothing to stop).
    let pending: Vec<_> = run.pods[..2].iter().filter(|p| p.node.is_none()).collect();
    assert_eq!(pending.len(), 1);
    assert_eq!(pending[0].deleting, Some(120_000));
    assert_eq!(pending[0].deleted, Some(120_000));
    let running = run.pods[..2].iter().find(|p| p.node.is_some()).unwrap();
    assert_eq!(running.deleting, None);
    // At 3 m, two new pods of the same ReplicaSet.
    assert_eq!(run.pods.len(), 4);
    assert!(run.pods[2..]
        .iter()
        .all(|p| p.created == 180_000 && p.template_hash == running.template_hash));
    let scaled: Vec<(u64, &str)> = run
        .events
        .iter()
        .filter(|e| e.reason == "ScalingReplicaSet")
        .map(|e| (e.at, &*e.message))
        .collect();
    let rs = format!("model-api-{}", running.template_hash.as_deref().unwrap());
    assert_eq!(
        scaled,
        [
            (
                120_000,
                format!("Scaled down replica set {rs} from 2 to 1").as_str()
            ),
            (
                180_000,
                format!("Scaled up replica set {rs} from 1 to 3").as_str()
            ),
        ]
    );
}
