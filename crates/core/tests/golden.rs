//! Golden scenarios (`tests/golden/*.yaml`): facts asserted at given times,
//! with the arithmetic in comments. Times are milliseconds from pod creation.
//! Fixed timing (kubelet.md §11's assumptions, `sim::Timing`): first sync
//! W = 0.5 s, first start S0 = 2.0 s, restart 0.3 s after the deciding sync,
//! PLEG 1 s, the process exits 1 s after SIGTERM; the pod worker re-queues
//! a pod in back-off after 1.25 × min(remaining back-off, 60 s) and a failed
//! sync after 1.25 × 10 s = 12.5 s (`wait.Jitter(d, 0.5)` at its mean,
//! `sim::requeue`).

use std::path::Path;

use podlab_core::explain::get_pods;
use podlab_core::sim::{simulate, ContainerState, Options, Run};

fn golden(name: &str) -> String {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../tests/golden")
        .join(name);
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

fn run(name: &str, until_s: u64) -> Run {
    simulate(
        &golden(name),
        &Options {
            until: Some(until_s * 1000),
        },
    )
}

fn event_times(run: &Run, reason: &str) -> Vec<u64> {
    run.events
        .iter()
        .filter(|e| e.reason == reason)
        .map(|e| e.at)
        .collect()
}

/// kubelet.md §11, tick by tick. Liveness ticks on the grid 0.5 + 10k s; the
/// first counted probe is the first tick with ⌊t − StartedAt⌋ ≥ 10.
#[test]
fn the_article_crash_loop_shows_restarts_7_at_12_minutes() {
    let run = run("crash-loop-liveness-40s.yaml", 720);
    let pod = &run.pods[0];
    let api = &pod.containers[0];
    let starts: Vec<u64> = api.instances.iter().map(|i| i.started).collect();
    // C0 at S0 = 2.0. Each instance fails at a, a+10, a+20 with a = S + [10, 20),
    // is killed at the third, exits 1 s later (143, still loading). doBackOff
    // looks at the previous instance: C0 and C1 restart at once (no entry, then
    // a new 10 s entry); C2: 121.5 − 81.5 = 40 ≥ 10 → 20 s; C3: 40 ≥ 20 → 40 s;
    // C4: 40 ≥ 40 (strict <) → 80 s; C5: 241.5 − 201.5 = 40 < 80 → back-off
    // until 241.5 + 80 = 321.5. The pod worker re-queues after 1.25 ×
    // min(remaining, 60 s): PLEG sync 242.5 (79 s left → 60 → 75) → 317.5
    // (4 s left → 5) → 322.5: 81 ≥ 80 → restart, C6 at 322.8 (was 321.8
    // when the re-queue was exact). C6: 330.5 is 7.7 s in, so 340.5, 350.5,
    // 360.5 fail; killed at 360.5: 361.5 − 241.5 = 120 < 160 → back-off
    // until 521.5: 362.5 (159 left → 75) → 437.5 (84 → 75) → 512.5 (9 →
    // 11.25) → 523.75 → C7 at 524.05 (was 521.8). C7: 530.5 is 6.45 s in,
    // so 540.5, 550.5, 560.5 fail; killed at 560.5 as before: 561.5 − 361.5
    // = 200 < 300 → back-off until 861.5.
    assert_eq!(
        starts,
        vec![2_000, 41_800, 81_800, 121_800, 161_800, 201_800, 322_800, 524_050]
    );
    let kills = event_times(&run, "Killing");
    assert_eq!(
        kills,
        vec![40_500, 80_500, 120_500, 160_500, 200_500, 240_500, 360_500, 560_500]
    );
    let exits: Vec<(u64, i64, &str)> = api
        .instances
        .iter()
        .filter_map(|i| i.exit.as_ref().map(|e| (e.at, e.code, e.reason)))
        .collect();
    assert_eq!(exits[0], (41_500, 143, "Error"));
    assert_eq!(exits.last(), Some(&(561_500, 143, "Error")));
    // 8 instances × 3 failed probes; the first of C0 at 20.5 (10.5: ⌊8.5⌋ < 10).
    let unhealthy = event_times(&run, "Unhealthy");
    assert_eq!(unhealthy.len(), 24);
    assert_eq!(&unhealthy[..3], &[20_500, 30_500, 40_500]);
    let message = &run
        .events
        .iter()
        .find(|e| e.reason == "Unhealthy")
        .unwrap()
        .message;
    assert_eq!(
        &**message,
        &*format!(
            "Liveness probe failed: Get \"http://{ip}:8000/health\": dial tcp {ip}:8000: connect: connection refused",
            ip = pod.ip
        )
    );
    assert_eq!(
        run.events
            .iter()
            .find(|e| e.reason == "Killing")
            .unwrap()
            .message
            .as_ref(),
        "Container api failed liveness probe, will be restarted"
    );
    // At 12:00: RESTARTS 7 (720 − 561 = 159 s ago: finishedAt is stored in whole seconds), CrashLoopBackOff, 0/1.
    let row = get_pods::row(pod, 720_000);
    assert_eq!(row.ready, "0/1");
    assert_eq!(row.status, "CrashLoopBackOff");
    assert_eq!(row.restarts, "7 (2m39s ago)");
    assert_eq!(row.age, "12m");
    let status = api.status_at(720_000).unwrap();
    match &status.state {
        ContainerState::Waiting { reason, message } => {
            assert_eq!(reason, "CrashLoopBackOff");
            assert!(
                message.starts_with("back-off 5m0s restarting failed container=api pod="),
                "{message}"
            );
        }
        other => panic!("{other:?}"),
    }
    assert!(matches!(
        status.last_state,
        Some(ContainerState::Terminated { code: 143, ref reason, .. }) if reason == "Error"
    ));
    assert_eq!(pod.phase_at(720_000), "Running");
    // Back-off events: at each kill-sync in back-off and every later sync.
    let back_offs = event_times(&run, "BackOff");
    assert_eq!(back_offs.first(), Some(&241_500));
    assert!(back_offs.iter().all(|t| *t < 720_000));
}

/// With the reference Deployment's startupProbe (10 s × 30) the pod goes
/// Ready shortly after 40 s and never restarts: startup ticks at 0.5 + 10k;
/// the program answers from 2.0 + 40 = 42.0, so 10.5 … 40.5 fail (refused at
/// once; 4 < 30) and 50.5 succeeds when the answer arrives, 20 ms later
/// (`healthLatency` default): Started at 50.52; readiness runs then (manual
/// trigger) and its answer makes the container Ready at 50.54.
#[test]
fn the_reference_deployment_goes_ready_after_its_load_and_never_restarts() {
    let run = run("reference-two-gpus.yaml", 900);
    assert_eq!(run.pods.len(), 2);
    for pod in &run.pods {
        assert!(pod.name.starts_with("model-api-"), "{}", pod.name);
        let api = &pod.containers[0];
        assert_eq!(api.instances.len(), 1, "never restarts");
        assert_eq!(api.instances[0].started_ok, Some(50_520));
        assert_eq!(api.instances[0].ready.first().map(|r| r.0), Some(50_540));
        let row = get_pods::row(pod, 900_000);
        assert_eq!(
            (
                row.ready.as_str(),
                row.status.as_str(),
                row.restarts.as_str()
            ),
            ("1/1", "Running", "0")
        );
        let row = get_pods::row(pod, 45_000);
        assert_eq!(
            (row.ready.as_str(), row.status.as_str()),
            ("0/1", "Running")
        );
    }
    assert_eq!(
        event_times(&run, "Unhealthy").len(),
        8,
        "4 startup failures per pod"
    );
    assert!(event_times(&run, "Killing").is_empty());
}

/// One node with one GPU: the second replica stays Pending with the v1.35
/// message (scheduler-controllers.md §11 (b)).
#[test]
fn a_single_gpu_leaves_the_second_replica_pending_with_the_exact_message() {
    let run = run("reference-one-gpu.yaml", 900);
    let pending = &run.pods[1];
    let row = get_pods::row(pending, 900_000);
    assert_eq!(
        (row.ready.as_str(), row.status.as_str()),
        ("0/1", "Pending")
    );
    let event = run
        .events
        .iter()
        .find(|e| e.reason == "FailedScheduling")
        .expect("a FailedScheduling event");
    assert_eq!(*event.object, *format!("Pod/{}", pending.name));
    assert_eq!(
        &*event.message,
        "0/1 nodes are available: 1 Insufficient nvidia.com/gpu. no new claims to deallocate, preemption: 0/1 nodes are available: 1 No preemption victims found for incoming pod."
    );
    assert_eq!(get_pods::row(&run.pods[0], 900_000).status, "Running");
}

/// A container that dies by itself backs off from the second crash: waits
/// 0, 10, 20, 40, 80, 160, 300 s (kubernetes-behavior.md; the node e2e test).
/// OOM at 80 % of the 40 s load (limit 8Gi of a 10Gi peak, linear climb) = 32 s
/// after each start; the PLEG sync 1 s later decides. In back-off the pod
/// worker re-queues after 1.25 × min(remaining, 60 s), so each restart lands
/// a quarter of the last wait late: 10 s → sync at 1 s (9 left) → +11.25 →
/// restart 12.25 after the exit, start 12.55; 20 s → 1 + 23.75 → 25.05;
/// 40 s → 1 + 48.75 → 50.05; 80 s → 1 + 75 (79 → 60) → 76 + 5 (4 left) →
/// 81, start 81.3; 160 s → 1 + 75 + 75 → 151 + 11.25 (9 left) → 162.55.
#[test]
fn oom_at_the_loading_peak_crash_loops_with_exit_137() {
    let run = run("oom-at-loading-peak.yaml", 720);
    let api = &run.pods[0].containers[0];
    let gaps: Vec<u64> = api
        .instances
        .windows(2)
        .map(|pair| pair[1].started - pair[0].exit.as_ref().unwrap().at)
        .collect();
    // 1.3 = PLEG 1 s + restart 0.3 s; then the back-off measured from the exit.
    assert_eq!(gaps, vec![1_300, 12_550, 25_050, 50_050, 81_300, 162_550]);
    let first = api.instances[0].exit.as_ref().unwrap();
    assert_eq!(
        (first.at, first.code, first.reason),
        (34_000, 137, "OOMKilled")
    );
    let row = get_pods::row(&run.pods[0], 720_000);
    assert_eq!(row.status, "CrashLoopBackOff");
    assert_eq!(row.restart_count, 6);
    assert!(
        event_times(&run, "Killing").is_empty(),
        "OOM has no Killing event"
    );
}

#[test]
fn the_same_input_gives_the_same_run() {
    let a = run("crash-loop-liveness-40s.yaml", 900);
    let b = run("crash-loop-liveness-40s.yaml", 900);
    assert_eq!(a, b);
    assert_eq!(a.pods[0].name, b.pods[0].name);
}

fn status_column(run: &Run, pod: &str, at: u64) -> String {
    let table = get_pods::render(run, at);
    table
        .lines()
        .find(|line| line.starts_with(pod))
        .and_then(|line| line.split_whitespace().nth(2))
        .unwrap_or_else(|| panic!("{pod} not in\n{table}"))
        .to_string()
}

fn pod_events(run: &Run, pod: &str) -> Vec<(u64, &'static str, String)> {
    run.events
        .iter()
        .filter(|e| *e.object == *format!("Pod/{pod}"))
        .map(|e| (e.at, e.reason, e.message.to_string()))
        .collect()
}

/// kubelet.md §9: both replicas start their sync at S0 = 2.0 s. The first
/// pull takes the whole 2 m (done 122.0 s); the serial puller makes the
/// second wait until then, and the layers are present: 0.5 s more (done
/// 122.5 s, 122.5 − 2.0 = 120.5 s including waiting). Until then the pods are
/// ContainerCreating; the container starts right after its pull.
#[test]
fn image_pulls_take_their_time_and_queue_on_the_node() {
    let run = run("image-pull-and-config.yaml", 300);
    let api: Vec<&podlab_core::sim::PodRun> = run
        .pods
        .iter()
        .filter(|p| p.owner == "Deployment/model-api")
        .collect();
    assert_eq!(api.len(), 2);
    let first = pod_events(&run, &api[0].name);
    let second = pod_events(&run, &api[1].name);
    let image = "ghcr.io/acme/model-api:1.4.2";
    assert!(first.contains(&(2_000, "Pulling", format!("Pulling image \"{image}\""))));
    let pulled = |events: &[(u64, &'static str, String)]| -> (u64, &'static str, String) {
        events
            .iter()
            .find(|(_, reason, _)| *reason == "Pulled")
            .cloned()
            .expect("a Pulled event")
    };
    let (at, _, message) = pulled(&first);
    assert_eq!(at, 122_000);
    let size = podlab_core::sim::image::size_bytes(image);
    assert_eq!(
        message,
        format!("Successfully pulled image \"{image}\" in 2m0s (2m0s including waiting). Image size: {size} bytes.")
    );
    let (at, _, message) = pulled(&second);
    assert_eq!(at, 122_500);
    assert!(
        message.contains("in 500ms (2m0.5s including waiting)"),
        "{message}"
    );
    assert_eq!(api[0].containers[0].instances[0].started, 122_000);
    assert_eq!(api[1].containers[0].instances[0].started, 122_500);
    assert_eq!(
        status_column(&run, &api[0].name, 60_000),
        "ContainerCreating"
    );
    assert_eq!(
        status_column(&run, &api[1].name, 122_000),
        "ContainerCreating"
    );
    assert_eq!(status_column(&run, &api[1].name, 123_000), "Running");
}

/// kubelet.md §9 with the re-sync of a failed pod sync after 1.25 × 10 s =
/// 12.5 s: pulls fail 1 s after they start. 2.0 Pulling, 3.0 Failed
/// (back-off 10 s from 3.0) → 15.5: 12.5 ≥ 10: pull again, 16.5 Failed (20 s
/// from 16.5) → 29.0: 12.5 < 20: BackOff, ImagePullBackOff → 41.5: 25 ≥ 20:
/// pull, 42.5 Failed (40 s) → 55.0, 67.5, 80.0 back off (12.5, 25, 37.5 <
/// 40) → 92.5: 50 ≥ 40: pull.
#[test]
fn a_missing_tag_goes_err_image_pull_then_image_pull_back_off() {
    let run = run("image-pull-and-config.yaml", 300);
    let events = pod_events(&run, "bad-tag");
    let pulls: Vec<u64> = events
        .iter()
        .filter(|(_, r, _)| *r == "Pulling")
        .map(|(at, _, _)| *at)
        .collect();
    assert_eq!(&pulls[..4], &[2_000, 15_500, 41_500, 92_500]);
    let back_offs: Vec<u64> = events
        .iter()
        .filter(|(_, r, _)| *r == "BackOff")
        .map(|(at, _, _)| *at)
        .collect();
    assert_eq!(&back_offs[..4], &[29_000, 55_000, 67_500, 80_000]);
    let full = "ghcr.io/acme/model-api:9.9";
    let error = format!("rpc error: code = NotFound desc = failed to pull and unpack image \"{full}\": failed to resolve reference \"{full}\": {full}: not found");
    assert!(events.contains(&(
        3_000,
        "Failed",
        format!("Failed to pull image \"{full}\": {error}")
    )));
    assert!(events.contains(&(3_000, "Failed", "Error: ErrImagePull".into())));
    assert!(events.contains(&(29_000, "Failed", "Error: ImagePullBackOff".into())));
    assert_eq!(status_column(&run, "bad-tag", 10_000), "ErrImagePull");
    assert_eq!(status_column(&run, "bad-tag", 30_000), "ImagePullBackOff");
    let status = &run
        .pods
        .iter()
        .find(|p| p.name == "bad-tag")
        .unwrap()
        .statuses_at(30_000)[0];
    assert_eq!(
        status.state,
        ContainerState::Waiting {
            reason: "ImagePullBackOff".into(),
            message: format!("Back-off pulling image \"{full}\": {error}"),
        }
    );
    assert_eq!(status.restart_count, 0);
}

/// kubernetes-behavior.md: the image is there (Pulled "already present"),
/// then `generateContainerConfig` fails: `Failed` `Error: secret … not
/// found`, waiting CreateContainerConfigError, again on every sync, 12.5 s
/// apart (2.0, 14.5, 27.0 …); the pod stays Pending and restartCount 0.
#[test]
fn a_missing_secret_waits_in_create_container_config_error() {
    let run = run("image-pull-and-config.yaml", 300);
    let events = pod_events(&run, "needs-secret");
    let failed: Vec<u64> = events
        .iter()
        .filter(|(_, r, m)| *r == "Failed" && m == "Error: secret \"mlflow-secret\" not found")
        .map(|(at, _, _)| *at)
        .collect();
    assert_eq!(&failed[..3], &[2_000, 14_500, 27_000]);
    // 2 + 12.5 k ≤ 300 → k ≤ 23.8: 24 syncs, the last at 289.5 s.
    assert_eq!(failed.len(), 24, "every 12.5 s from 2 s to 289.5 s");
    assert_eq!(failed.last(), Some(&289_500));
    assert!(events.iter().all(|(_, r, _)| *r != "Started"));
    let pod = run.pods.iter().find(|p| p.name == "needs-secret").unwrap();
    assert_eq!(pod.phase_at(100_000), "Pending");
    assert_eq!(
        status_column(&run, "needs-secret", 100_000),
        "CreateContainerConfigError"
    );
    let status = &pod.statuses_at(100_000)[0];
    assert_eq!(
        status.state,
        ContainerState::Waiting {
            reason: "CreateContainerConfigError".into(),
            message: "secret \"mlflow-secret\" not found".into(),
        }
    );
}

fn exits(run: &Run, pod: &str) -> Vec<(u64, i64)> {
    run.pods
        .iter()
        .find(|p| p.name == pod)
        .unwrap_or_else(|| panic!("no pod {pod}"))
        .containers[0]
        .instances
        .iter()
        .filter_map(|i| i.exit.as_ref().map(|e| (e.at, e.code)))
        .collect()
}

/// gpu-sharing.md §3: time-slicing has no memory isolation. Both chat
/// replicas start at 2.0 s on one T4 (15360 MiB = 15 GiB as nvidia-smi and
/// CUDA report it, not the nominal 16) and climb to 10 GiB over 60 s:
/// 2 × 10 × (t − 2) / 60 = 15 → t = 47.0, and the one allocating last
/// (same start: the later pod) fails with exit 1. It restarts at once
/// (PLEG 48.0 + 0.3): the neighbour holds 10 GiB from 62.0, so it fails at
/// 5 GiB: 48.3 + 30 = 78.3; then back-off 10 s from 78.3: PLEG sync 79.3
/// (9 s left) re-queued after 9 × 1.25 = 11.25 s → 90.55, start 90.85,
/// fails at 90.85 + 30 = 120.85. The first replica never restarts.
#[test]
fn time_slicing_neighbours_run_the_last_allocator_out_of_device_memory() {
    let run = run("gpu-memory-at-run-time.yaml", 300);
    let chat: Vec<&podlab_core::sim::PodRun> = run
        .pods
        .iter()
        .filter(|p| p.owner == "Deployment/chat")
        .collect();
    assert_eq!(exits(&run, &chat[0].name), vec![]);
    assert_eq!(
        &exits(&run, &chat[1].name)[..3],
        &[(47_000, 1), (78_300, 1), (120_850, 1)]
    );
    let oom = chat[1].containers[0].instances[1]
        .exit
        .as_ref()
        .and_then(|e| e.gpu_oom.clone())
        .expect("a CUDA OOM");
    assert_eq!(oom.mode, "time-slicing");
    assert_eq!(oom.capacity, 15_360 << 20);
    assert_eq!(oom.others, 10 << 30);
    assert_eq!(oom.own, 5 << 30);
    assert_eq!(oom.neighbours, vec![chat[0].name.clone()]);
    let previous = podlab_core::explain::logs::logs(&run, chat[1], "chat", 120_000, true)
        .expect("a previous instance");
    assert_eq!(
        previous.lines().last(),
        Some("torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 1024.00 MiB. GPU 0 has a total capacity of 15.00 GiB of which 0 bytes is free. Including non-PyTorch memory, this process has 5.00 GiB memory in use.")
    );
    // The device memory curve the timeline draws agrees with the failure.
    assert_eq!(
        chat[1].containers[0].gpu_memory_at(78_299) >> 20,
        (5 << 10) - 1
    );
    assert_eq!(chat[0].containers[0].gpu_memory_at(100_000), 10 << 30);
}

/// gpu-sharing.md §4 and §5: an MPS client is capped at the T4's nvidia-smi
/// total 15360 MiB / 4 = 3840 MiB = 3.75 GiB (5 GiB over 20 s: 3.75/5 × 20 =
/// 15 s → 17.0, then 18.3 + 15 = 33.3); a MIG 1g.10gb device keeps its
/// profile's 10 GiB (12 GiB over 30 s: 25 s → 27.0); 16 GiB on a whole L4
/// (23034 MiB ≈ 22.5 GiB) loads and never restarts.
#[test]
fn mps_caps_and_mig_slices_fail_alone_and_a_whole_card_fits() {
    let run = run("gpu-memory-at-run-time.yaml", 300);
    assert_eq!(&exits(&run, "embedder")[..2], &[(17_000, 1), (33_300, 1)]);
    assert_eq!(exits(&run, "ranker")[0], (27_000, 1));
    assert_eq!(exits(&run, "whole-card"), vec![]);
    let mode = |pod: &str| {
        run.pods.iter().find(|p| p.name == pod).unwrap().containers[0].instances[0]
            .exit
            .as_ref()
            .and_then(|e| e.gpu_oom.as_ref())
            .map(|oom| (oom.mode.clone(), oom.capacity >> 30))
    };
    // 3840 MiB >> 10 = 3 (whole GiB, rounded down).
    assert_eq!(mode("embedder"), Some(("MPS".to_string(), 3)));
    assert_eq!(mode("ranker"), Some(("MIG 1g.10gb".to_string(), 10)));
    assert_eq!(status_column(&run, "whole-card", 300_000), "Running");
}

/// scheduler-controllers.md §4 (PL102): the API server refuses `0.5` of a
/// GPU at `kubectl apply`, so no pod is ever created; a valid object in the
/// same file still runs.
#[test]
fn a_fractional_gpu_is_refused_and_nothing_of_it_runs() {
    let text = "apiVersion: apps/v1\nkind: Deployment\nmetadata: { name: rerank }\nspec:\n  selector: { matchLabels: { app: r } }\n  template:\n    metadata: { labels: { app: r } }\n    spec:\n      containers:\n        - name: r\n          image: r:1\n          resources: { limits: { nvidia.com/gpu: 0.5 } }\n---\napiVersion: v1\nkind: Pod\nmetadata: { name: ok }\nspec:\n  containers:\n    - { name: c, image: c:1 }\n";
    let run = simulate(
        text,
        &Options {
            until: Some(60_000),
        },
    );
    assert_eq!(run.refused.len(), 1);
    assert_eq!(run.refused[0].object, "Deployment/rerank");
    assert_eq!(
        run.refused[0].message,
        "The Deployment \"rerank\" is invalid: spec.template.spec.containers[0].resources.limits[nvidia.com/gpu]: Invalid value: \"500m\": must be an integer"
    );
    let names: Vec<&str> = run.pods.iter().map(|p| p.name.as_str()).collect();
    assert_eq!(names, vec!["ok"]);
}

/// A T4 holds 15360 MiB as nvidia-smi and CUDA report it, not the nominal
/// 16 GiB: a model of 15.5 GiB = 15872 MiB > 15360 MiB fails with a CUDA
/// out-of-memory error alone on a whole card, one of 15 GiB = 15360 MiB fits.
#[test]
fn a_15_5_gib_model_no_longer_fits_a_t4() {
    let text = |memory: &str| {
        format!("apiVersion: v1\nkind: Pod\nmetadata: {{ name: llm }}\nspec:\n  containers:\n    - name: llm\n      image: x:1\n      resources:\n        limits: {{ nvidia.com/gpu: 1 }}\n---\napiVersion: podlab.dev/v1alpha1\nkind: Scenario\nmetadata: {{ name: s }}\nspec:\n  duration: 2m\n  workload:\n    - {{ container: llm, startup: 10s, gpuMemory: {memory} }}\n  cluster:\n    nodePools:\n      - name: gpu\n        gpu: {{ model: T4, count: 1 }}\n")
    };
    let oom = |memory: &str| {
        let run = simulate(
            &text(memory),
            &Options {
                until: Some(120_000),
            },
        );
        run.pods[0].containers[0]
            .instances
            .iter()
            .find_map(|i| i.exit.as_ref().and_then(|e| e.gpu_oom.clone()))
    };
    let too_big = oom("15.5Gi").expect("15.5Gi must not fit a T4");
    assert_eq!(too_big.capacity, 15_360 << 20);
    assert!(oom("15Gi").is_none());
}

fn unhealthy_of(run: &Run, pod: &str, probe: &str) -> Vec<(u64, String)> {
    run.events
        .iter()
        .filter(|e| {
            *e.object == *format!("Pod/{pod}")
                && e.reason == "Unhealthy"
                && e.message.starts_with(probe)
        })
        .map(|e| (e.at, e.message.to_string()))
        .collect()
}

/// A probe's result arrives when its call returns (`worker.go` `doProbe`
/// blocks in `prober.probe`, which records `Unhealthy` after the call).
/// slow-health: W = 0.5, S0 = 2.0, the program listens from 2.0 + 20 = 22.0
/// and answers in 2 s; liveness timeoutSeconds 1, period 10, threshold 3,
/// no initial delay. 10.5 and 20.5 are refused at once; 30.5 times out at
/// 31.5 — the third failure, so `Killing` at 31.5 (it was 30.5 when the
/// result counted at the tick). The program was serving: exit 0 after its
/// 1 s shutdown, 32.5, restart 32.8 (no earlier instance: no back-off).
/// C1 listens from 52.8: 40.5, 50.5 refused, 60.5 times out at 61.5 → kill;
/// exit 62.5, doBackOff sees C0 (32.5): new 10 s entry, restart 62.8. C2:
/// 70.5, 80.5 refused, 90.5 → 91.5 kill, exit 92.5: 92.5 − 62.5 = 30 ≥ 10
/// → 20 s entry, restart 92.8.
#[test]
fn a_slow_health_endpoint_moves_the_liveness_kill_to_the_timeout() {
    let run = run("probe-latency.yaml", 120);
    let pod = run.pods.iter().find(|p| p.name == "slow-health").unwrap();
    let ip = &pod.ip;
    let liveness = unhealthy_of(&run, "slow-health", "Liveness");
    let refused = format!(
        "Liveness probe failed: Get \"http://{ip}:8000/health\": dial tcp {ip}:8000: connect: connection refused"
    );
    let deadline = format!(
        "Liveness probe failed: Get \"http://{ip}:8000/health\": context deadline exceeded (Client.Timeout exceeded while awaiting headers)"
    );
    assert_eq!(
        &liveness[..3],
        &[
            (10_500, refused.clone()),
            (20_500, refused),
            (31_500, deadline)
        ]
    );
    let kills: Vec<u64> = run
        .events
        .iter()
        .filter(|e| &*e.object == "Pod/slow-health" && e.reason == "Killing")
        .map(|e| e.at)
        .collect();
    assert_eq!(&kills[..3], &[31_500, 61_500, 91_500]);
    let api = &pod.containers[0];
    let starts: Vec<u64> = api.instances.iter().map(|i| i.started).collect();
    assert_eq!(&starts[..4], &[2_000, 32_800, 62_800, 92_800]);
    let first = api.instances[0].exit.as_ref().unwrap();
    assert_eq!(
        (first.at, first.code, first.reason),
        (32_500, 0, "Completed")
    );
}

/// gated: startup and liveness tick together at 0.5 + 10k; the program
/// listens from 2.0 + 15 = 17.0 and answers in 20 ms. Startup: 10.5
/// refused; 20.5 succeeds when the answer comes, 20.52, and only then is
/// Started written. Liveness (on `/live`, a 404): 10.5 and 20.5 see
/// Started=false (the startup call is in flight) and skip; 30.5, 40.5, 50.5
/// fail when their answers come, 20 ms later, so `Killing` at 50.52 (with
/// the result at the tick and Started seen at once it would have been
/// 20.5, 30.5, 40.5). Exit 0 at 51.52, restart 51.82; C1's startup probe
/// fails at 60.5 (refused, listening from 66.82), succeeds at 70.52; its
/// liveness skips 70.5 and fails at 80.52, 90.52, 100.52 (kill; exit
/// 101.52, restart 101.82), and C2's startup probe is refused at 110.5.
#[test]
fn liveness_waits_until_the_startup_success_is_written() {
    let run = run("probe-latency.yaml", 120);
    let times = |probe: &str| -> Vec<u64> {
        unhealthy_of(&run, "gated", probe)
            .into_iter()
            .map(|(at, _)| at)
            .collect()
    };
    assert_eq!(times("Startup"), vec![10_500, 60_500, 110_500]);
    assert_eq!(
        times("Liveness"),
        vec![30_520, 40_520, 50_520, 80_520, 90_520, 100_520]
    );
    let pod = run.pods.iter().find(|p| p.name == "gated").unwrap();
    let server = &pod.containers[0];
    assert_eq!(server.instances[0].started_ok, Some(20_520));
    assert_eq!(server.instances[1].started, 51_820);
    assert_eq!(server.instances[1].started_ok, Some(70_520));
    let killing: Vec<(u64, &str)> = run
        .events
        .iter()
        .filter(|e| &*e.object == "Pod/gated" && e.reason == "Killing")
        .map(|e| (e.at, &*e.message))
        .collect();
    assert_eq!(
        killing[0],
        (
            50_520,
            "Container server failed liveness probe, will be restarted"
        )
    );
}

/// busy: readiness every 1 s, the endpoint answers in 2 s (timeout 3 s).
/// The container starts at 2.0 and is Started at once, so the manual
/// trigger probes at 2.0 and moves the grid there (2.0 + k). Refused at
/// once until the program listens at 2.0 + 5 = 7.0: 2.0 … 6.0. The 7.0
/// call returns its 404 at 9.0; the 8.0 tick waits in the ticker channel
/// and runs as soon as the call returns, so the worker probes every 2 s:
/// 9.0, 11.0, 13.0 …
#[test]
fn a_worker_blocked_in_a_slow_call_probes_when_it_returns() {
    let run = run("probe-latency.yaml", 20);
    let readiness = unhealthy_of(&run, "busy", "Readiness");
    let times: Vec<u64> = readiness.iter().map(|(at, _)| *at).collect();
    assert_eq!(
        times,
        vec![2_000, 3_000, 4_000, 5_000, 6_000, 9_000, 11_000, 13_000, 15_000, 17_000, 19_000]
    );
    assert_eq!(
        readiness[5].1,
        "Readiness probe failed: HTTP probe failed with statuscode: 404"
    );
}

/// The volume manager's retries (sim/volumes.rs): the first attempt at the
/// first sync W = 0.5 s, then at the first 100 ms reconciler tick after
/// each back-off (0.5 s doubling to 122 s; `<=` refuses the tick on it):
/// 0.5, 0.5+0.6 = 1.1, +1.1 = 2.2, +2.1 = 4.3, +4.1 = 8.4, +8.1 = 16.5,
/// +16.1 = 32.6, +32.1 = 64.7, +64.1 = 128.8, +122.1 = 250.9, 373.0, 495.1.
/// Nothing else happens to the pod: no pull, no Created, no sandbox.
#[test]
fn a_missing_secret_volume_fails_to_mount_with_the_volume_managers_back_off() {
    let run = run("volumes-and-shm.yaml", 600);
    let events = pod_events(&run, "needs-token");
    let message =
        "MountVolume.SetUp failed for volume \"hf-token\" : secret \"hf-token\" not found";
    assert!(events.iter().all(
        |(_, reason, text)| *reason == "FailedMount" && text == message || *reason == "Scheduled"
    ));
    let failed = event_times(&run, "FailedMount");
    assert_eq!(
        failed,
        [
            500, 1_100, 2_200, 4_300, 8_400, 16_500, 32_600, 64_700, 128_800, 250_900, 373_000,
            495_100
        ]
    );
    let pod = run.pods.iter().find(|p| p.name == "needs-token").unwrap();
    assert_eq!(pod.sandbox, None, "the sandbox comes after the volumes");
    assert_eq!(pod.phase_at(600_000), "Pending");
    assert_eq!(
        status_column(&run, "needs-token", 600_000),
        "ContainerCreating"
    );
    // An optional ConfigMap volume mounts empty: that pod runs.
    assert_eq!(status_column(&run, "optional-config", 600_000), "Running");
    let diagnoses = podlab_core::explain::diagnosis::diagnose(&run, 600_000);
    assert_eq!(diagnoses.len(), 1, "{diagnoses:#?}");
    assert_eq!(
        diagnoses[0].kind,
        podlab_core::explain::diagnosis::Kind::FailedMount
    );
    assert_eq!(diagnoses[0].next_command, "kubectl get secret hf-token");
    // 12 attempts; the last at 495.1 s is 104.9 s old at 600 s: `105s`.
    assert!(diagnoses[0]
        .evidence
        .iter()
        .any(|line| line.contains("105s (x12 over 10m)") && line.ends_with(message)));
}

/// docs/simulator.md "/dev/shm" (`sim/shm.rs`): the workers put 4 × 256Mi
/// = 1Gi into /dev/shm when the 30 s load ends, at S + 30 s.
/// loader-64mi: the runtime's 64Mi is too small → bus error, exit 1
/// (`Error`) at 2.0 + 30 = 32.0 s; then the crash back-off of a container
/// that dies by itself, the same gaps as the OOM golden: 1.3 (PLEG 1 s +
/// 0.3 s), 12.55, 25.05, 50.05, 81.3, 162.55 s from each exit. Starts 2.0,
/// 33.3, 75.85, 130.9, 210.95, 322.25, 514.8; exits 30 s after each. At
/// 600 s: RESTARTS 6, CrashLoopBackOff (the next start is after 544.8 + 300).
#[test]
fn a_64mi_dev_shm_is_a_bus_error_then_the_crash_back_off() {
    let run = run("shm.yaml", 600);
    let pod = run.pods.iter().find(|p| p.name == "loader-64mi").unwrap();
    let trainer = &pod.containers[0];
    let starts: Vec<u64> = trainer.instances.iter().map(|i| i.started).collect();
    assert_eq!(
        starts,
        vec![2_000, 33_300, 75_850, 130_900, 210_950, 322_250, 514_800]
    );
    for instance in &trainer.instances {
        let exit = instance.exit.as_ref().unwrap();
        assert_eq!(
            (exit.at - instance.started, exit.code, exit.reason),
            (30_000, 1, "Error")
        );
        let shm = exit.shm.as_ref().expect("the shm ended it");
        assert!(shm.is_bus_error());
        assert_eq!((shm.need, shm.workers), (1 << 30, 4));
    }
    let row = get_pods::row(pod, 600_000);
    assert_eq!(
        (row.status.as_str(), row.restart_count),
        ("CrashLoopBackOff", 6)
    );
    let previous = podlab_core::explain::logs::logs(&run, pod, "trainer", 600_000, true).unwrap();
    let tail: Vec<&str> = previous
        .lines()
        .skip_while(|l| *l != "Job started")
        .collect();
    assert_eq!(
        tail,
        vec![
            "Job started",
            "ERROR: Unexpected bus error encountered in worker. This might be caused by insufficient shared memory (shm).",
            "RuntimeError: DataLoader worker (pid 2) is killed by signal: Bus error. It is possible that dataloader's workers are out of shared memory. Please try to raise your shared memory limit.",
            "",
            "The above exception was the direct cause of the following exception:",
            "",
            "RuntimeError: DataLoader worker (pid(s) 2) exited unexpectedly",
        ]
    );
}

/// `hostIPC: true` on loader-64mi: the kubelet asks for the node's IPC
/// namespace (`IpcNamespaceForPod`, `pkg/kubelet/kuberuntime/util/util.go`)
/// and containerd bind-mounts the node's /dev/shm instead of the sandbox's
/// 64Mi (`containerMounts`, `internal/cri/server/container_create_linux.go`).
/// The workers' 1Gi fits: no bus error at 32.0 s, Running with no restart at
/// 600 s, and the pages are charged to the container as with a memory
/// emptyDir: 4Gi + 1Gi = 5Gi at 60 s, under the 8Gi limit.
#[test]
fn a_host_ipc_pod_uses_the_nodes_dev_shm_not_the_runtimes_64mi() {
    let text = golden("shm.yaml").replacen(
        "metadata: { name: loader-64mi }\nspec:\n",
        "metadata: { name: loader-64mi }\nspec:\n  hostIPC: true\n",
        1,
    );
    assert!(text.contains("  hostIPC: true\n"));
    let run = simulate(
        &text,
        &Options {
            until: Some(600_000),
        },
    );
    let pod = run.pods.iter().find(|p| p.name == "loader-64mi").unwrap();
    let trainer = &pod.containers[0];
    assert_eq!(trainer.instances.len(), 1);
    assert_eq!(trainer.instances[0].started, 2_000);
    assert!(trainer.instances[0].exit.is_none());
    let row = get_pods::row(pod, 600_000);
    assert_eq!((row.status.as_str(), row.restart_count), ("Running", 0));
    assert_eq!(trainer.memory_at(60_000), 5 << 30);
    // `df` sees the node's tmpfs: half the pool's 64Gi, the workers' 1Gi used.
    let context = podlab_core::exercise::exec::ExecContext::new(&text, &run);
    let command: Vec<String> = ["df", "-h", "/dev/shm"].map(String::from).to_vec();
    let df = context.exec_in_terminal(pod, "trainer", &command, 120_000);
    assert_eq!(
        df.stdout,
        "Filesystem      Size  Used Avail Use% Mounted on\n\
         tmpfs            32G  1.0G   31G   4% /dev/shm\n",
    );
}

/// loader-dshm: an emptyDir `medium: Memory` at /dev/shm lifts the 64Mi cap;
/// 4Gi of process + 1Gi of shared memory = 5Gi fits the 8Gi limit. Ready
/// from its start (no probes) and never restarted; its memory counts the
/// shared memory once loaded: 5Gi at 60 s.
#[test]
fn an_in_memory_dev_shm_runs_and_counts_against_memory() {
    let run = run("shm.yaml", 600);
    let pod = run.pods.iter().find(|p| p.name == "loader-dshm").unwrap();
    let row = get_pods::row(pod, 600_000);
    assert_eq!((row.status.as_str(), row.restart_count), ("Running", 0));
    assert!(pod.statuses_at(600_000)[0].ready);
    let trainer = &pod.containers[0];
    assert_eq!(trainer.instances.len(), 1);
    assert!(trainer.instances[0].exit.is_none());
    assert_eq!(trainer.memory_at(60_000), 5 << 30);
    // Loading: 4 × 1Gi climbing over 30 s, half-way at 17.0 s.
    assert_eq!(trainer.memory_at(17_000), 2 << 30);
}

/// loader-tight: the same emptyDir with a 4608Mi limit. The load's peak
/// (4 × 1Gi = 4Gi) fits; at the end of the load the workers add 1Gi of
/// tmpfs pages charged to the container: 5Gi > 4.5Gi → OOMKilled 137 at
/// 2.0 + 30 = 32.0 s, then the same back-off as loader-64mi.
#[test]
fn an_in_memory_dev_shm_over_the_limit_is_oom_killed_when_the_workers_start() {
    let run = run("shm.yaml", 600);
    let pod = run.pods.iter().find(|p| p.name == "loader-tight").unwrap();
    let trainer = &pod.containers[0];
    let first = trainer.instances[0].exit.as_ref().unwrap();
    assert_eq!(
        (first.at, first.code, first.reason),
        (32_000, 137, "OOMKilled")
    );
    let shm = first.shm.as_ref().unwrap();
    assert!(!shm.is_bus_error());
    assert_eq!(
        (shm.process, shm.need, shm.limit),
        (4 << 30, 1 << 30, Some(4608 << 20))
    );
    let starts: Vec<u64> = trainer.instances.iter().map(|i| i.started).collect();
    assert_eq!(starts[..3], [2_000, 33_300, 75_850]);
    let row = get_pods::row(pod, 600_000);
    assert_eq!(
        (row.status.as_str(), row.restart_count),
        ("CrashLoopBackOff", 6)
    );
    assert!(
        event_times(&run, "Killing").is_empty(),
        "OOM has no Killing event"
    );
}

/// PL106 now has a simulated consequence: it fires on loader-64mi (4
/// workers in the Scenario, no volume at /dev/shm), and its fix (an
/// emptyDir `medium: Memory` mounted at /dev/shm) turns the bus error
/// into a pod that runs: 4Gi + 1Gi ≤ 8Gi, Ready, no restart at 600 s.
#[test]
fn pl106s_fix_makes_the_bus_error_pod_run() {
    let text = golden("shm.yaml");
    let report = podlab_core::lint::lint(&text);
    let pl106: Vec<_> = report
        .diagnostics
        .iter()
        .filter(|d| d.rule == "PL106")
        .collect();
    // Only loader-64mi: the other two mount a memory emptyDir at /dev/shm.
    assert_eq!(pl106.len(), 1, "{pl106:#?}");
    let fix = pl106[0].fix.as_ref().expect("PL106 has a fix");
    let fixed = podlab_core::diagnostic::apply_edits(&text, &fix.edits);
    assert!(podlab_core::lint::lint(&fixed)
        .diagnostics
        .iter()
        .all(|d| d.rule != "PL106"));
    let run = simulate(
        &fixed,
        &Options {
            until: Some(600_000),
        },
    );
    let pod = run.pods.iter().find(|p| p.name == "loader-64mi").unwrap();
    let row = get_pods::row(pod, 600_000);
    assert_eq!((row.status.as_str(), row.restart_count), ("Running", 0));
    assert!(pod.containers[0].instances[0].exit.is_none());
}

// ---- init containers (tests/golden/init-containers.yaml) -------------------

fn row_of(run: &Run, pod: &str, at: u64) -> get_pods::Row {
    let pod = run
        .pods
        .iter()
        .find(|p| p.name == pod)
        .unwrap_or_else(|| panic!("no pod {pod}"));
    get_pods::row(pod, at)
}

/// `llm-server`: storage-initializer starts at S0 = 2.0 s and downloads for
/// `runFor` 6 m = 360 s (an init container's `startup` defaults to 0): exit
/// 0 at 362.0. The PLEG sees it at 363.0; that sync starts the server 0.3 s
/// later, at 363.3 (`computeInitContainerActions` → the app containers).
/// The startupProbe's worker ticks on 0.5 + 10k s from the first sync, but
/// there is no instance to probe before 363.3: 370.5, 380.5, 390.5, 400.5
/// are refused (the server listens from 363.3 + 40 = 403.3), 410.5 answers
/// after 20 ms: Started and (no readinessProbe) Ready at 410.52.
#[test]
fn a_six_minute_download_then_a_ready_server() {
    let run = run("init-containers.yaml", 600);
    let pod = run
        .pods
        .iter()
        .find(|p| p.name == "llm-server")
        .expect("pod");
    let init = &pod.init_containers[0];
    assert_eq!(init.name, "storage-initializer");
    assert_eq!(init.instances.len(), 1);
    assert_eq!(init.instances[0].started, 2_000);
    let exit = init.instances[0].exit.as_ref().expect("the download ends");
    assert_eq!((exit.at, exit.code, exit.reason), (362_000, 0, "Completed"));
    let server = &pod.containers[0];
    assert_eq!(server.instances.len(), 1);
    assert_eq!(server.instances[0].started, 363_300);
    assert_eq!(server.instances[0].started_ok, Some(410_520));
    let unhealthy: Vec<u64> = pod_events(&run, "llm-server")
        .into_iter()
        .filter(|(_, reason, _)| *reason == "Unhealthy")
        .map(|(at, _, _)| at)
        .collect();
    assert_eq!(unhealthy, vec![370_500, 380_500, 390_500, 400_500]);
    assert!(!pod_events(&run, "llm-server")
        .iter()
        .any(|(_, reason, _)| *reason == "Killing"));
    // kubectl get pods: Init:0/1 during the download (the init container
    // runs: `Init:%d/%d`), PodInitializing between its exit and the
    // server's start (initialized; the server waits with the kubelet's
    // default reason), Running 0/1 while it loads, 1/1 once started.
    assert_eq!(status_column(&run, "llm-server", 300_000), "Init:0/1");
    assert_eq!(
        status_column(&run, "llm-server", 362_500),
        "PodInitializing"
    );
    assert_eq!(status_column(&run, "llm-server", 400_000), "Running");
    assert_eq!(row_of(&run, "llm-server", 400_000).ready, "0/1");
    assert_eq!(row_of(&run, "llm-server", 411_000).ready, "1/1");
    assert_eq!(pod.phase_at(300_000), "Pending");
    assert_eq!(pod.phase_at(411_000), "Running");
    // The events name the init container by its own field path.
    let started: Vec<(u64, Option<&str>)> = run
        .events
        .iter()
        .filter(|e| &*e.object == "Pod/llm-server" && e.reason == "Started")
        .map(|e| (e.at, e.field_path.as_deref()))
        .collect();
    assert_eq!(
        started,
        vec![
            (2_000, Some("spec.initContainers{storage-initializer}")),
            (363_300, Some("spec.containers{server}")),
        ]
    );
}

/// `llm-retry` (OnFailure): each download exits 1 twenty seconds after it
/// starts; the PLEG sync 1 s later runs `doBackOff` on it, exactly as for
/// an app container. C0 2.0 → 22.0, sync 23.0: no entry → restart, 10 s
/// entry, C1 at 23.3 → 43.3; sync 44.3: 1 < 10 → BackOff, re-queue 1.25 ×
/// 9 = 11.25 → 55.55: 12.25 ≥ 10 → 20 s, C2 at 55.85 → 75.85; 76.85
/// BackOff, 1.25 × 19 → 100.6 → 40 s, C3 at 100.9 → 120.9; 121.9 BackOff,
/// 1.25 × 39 → 170.65 → 80 s, C4 at 170.95 → 190.95; 191.95 BackOff,
/// 1.25 × 60 → 266.95 BackOff (76 < 80), 1.25 × 4 → 271.95 → 160 s, C5 at
/// 272.25 → 292.25; 293.25, 368.25, 443.25 BackOff, 454.5 (162.25 ≥ 160)
/// → 300 s, C6 at 454.8 → 474.8; 475.8 BackOff.
#[test]
fn a_failing_download_under_on_failure_crash_loops_in_init() {
    let run = run("init-containers.yaml", 600);
    let pod = run
        .pods
        .iter()
        .find(|p| p.name == "llm-retry")
        .expect("pod");
    let starts: Vec<u64> = pod.init_containers[0]
        .instances
        .iter()
        .map(|i| i.started)
        .collect();
    assert_eq!(
        starts,
        vec![2_000, 23_300, 55_850, 100_900, 170_950, 272_250, 454_800]
    );
    let back_offs: Vec<u64> = pod_events(&run, "llm-retry")
        .into_iter()
        .filter(|(_, reason, _)| *reason == "BackOff")
        .map(|(at, _, _)| at)
        .collect();
    assert_eq!(
        back_offs,
        vec![
            44_300, 76_850, 121_900, 191_950, 266_950, 293_250, 368_250, 443_250, 475_800, 550_800
        ]
    );
    // The server never starts; the pod stays Pending.
    assert!(pod.containers[0].instances.is_empty());
    assert_eq!(pod.phase_at(300_000), "Pending");
    // At 300 s C5 has exited (292.25) and waits: Init:CrashLoopBackOff,
    // RESTARTS 5 counted over the init container, 300 − 292 = 8 s ago.
    let row = row_of(&run, "llm-retry", 300_000);
    assert_eq!(row.status, "Init:CrashLoopBackOff");
    assert_eq!(row.restarts, "5 (8s ago)");
    assert_eq!(row.ready, "0/1");
    // While a download runs: Init:0/1 (C3 runs 100.9–120.9).
    assert_eq!(status_column(&run, "llm-retry", 110_000), "Init:0/1");
    // Between its exit and the sync that decides (22.0–23.0): the
    // terminated reason, Init:Error.
    assert_eq!(status_column(&run, "llm-retry", 22_500), "Init:Error");
}

/// `llm-once` (Never): the download exits 1 at 22.0; the sync at 23.0
/// kills the pod instead of restarting (`changes.KillPod`), and `getPhase`
/// says Failed (a failed init container under Never). STATUS shows the
/// init container's reason, `Init:Error`; the server never starts.
#[test]
fn a_failing_download_under_never_fails_the_pod() {
    let run = run("init-containers.yaml", 600);
    let pod = run.pods.iter().find(|p| p.name == "llm-once").expect("pod");
    assert_eq!(pod.init_containers[0].instances.len(), 1);
    let exit = pod.init_containers[0].instances[0]
        .exit
        .as_ref()
        .expect("exit");
    assert_eq!((exit.at, exit.code, exit.reason), (22_000, 1, "Error"));
    assert!(pod.containers[0].instances.is_empty());
    assert_eq!(pod.phase_at(21_000), "Pending");
    assert_eq!(pod.phase_at(22_000), "Failed");
    assert_eq!(pod.phase_at(600_000), "Failed");
    assert_eq!(status_column(&run, "llm-once", 10_000), "Init:0/1");
    assert_eq!(status_column(&run, "llm-once", 600_000), "Init:Error");
    assert!(!pod_events(&run, "llm-once")
        .iter()
        .any(|(_, reason, _)| *reason == "BackOff"));
}

/// `llm-sidecar`: the restartable init container `proxy` starts at S0 =
/// 2.0 s and listens after its `startup` 5 s, at 7.0. Its startupProbe
/// (tcpSocket, period 2 s) ticks on 0.5 + 2k: 2.5, 4.5, 6.5 are refused,
/// 8.5 connects: Started (and, with no readinessProbe, Ready) at 8.5. That
/// sync starts the next container — the server — 0.3 s later, at 8.8
/// (`computeInitContainerActions`: a started sidecar is not awaited). The
/// sidecar keeps running; READY counts it (0/2 → 2/2).
#[test]
fn a_sidecar_is_started_and_not_awaited() {
    let run = run("init-containers.yaml", 600);
    let pod = run
        .pods
        .iter()
        .find(|p| p.name == "llm-sidecar")
        .expect("pod");
    let proxy = &pod.init_containers[0];
    assert_eq!(proxy.instances.len(), 1);
    assert_eq!(proxy.instances[0].started, 2_000);
    assert_eq!(proxy.instances[0].started_ok, Some(8_500));
    assert!(
        proxy.instances[0].exit.is_none(),
        "the sidecar keeps running"
    );
    let unhealthy: Vec<(u64, Option<&str>)> = run
        .events
        .iter()
        .filter(|e| &*e.object == "Pod/llm-sidecar" && e.reason == "Unhealthy")
        .map(|e| (e.at, e.field_path.as_deref()))
        .collect();
    let proxy_path = Some("spec.initContainers{proxy}");
    assert_eq!(
        unhealthy,
        vec![
            (2_500, proxy_path),
            (4_500, proxy_path),
            (6_500, proxy_path)
        ]
    );
    assert_eq!(pod.containers[0].instances[0].started, 8_800);
    assert_eq!(status_column(&run, "llm-sidecar", 5_000), "Init:0/1");
    assert_eq!(row_of(&run, "llm-sidecar", 5_000).ready, "0/2");
    assert_eq!(status_column(&run, "llm-sidecar", 60_000), "Running");
    assert_eq!(row_of(&run, "llm-sidecar", 60_000).ready, "2/2");
    assert_eq!(pod.phase_at(5_000), "Pending");
    assert_eq!(pod.phase_at(60_000), "Running");
}

/// `finetune` (a Job, Never) with the sidecar `log-shipper`: the sidecar
/// starts at 2.0 s and, without a startupProbe, is Started at once; the
/// PLEG's sync 1 s later starts `train` 0.3 s after it: 3.3 s. `train`
/// runs `runFor` 60 s and exits 0 at 63.3; at the PLEG sync (64.3) nothing
/// is left to keep or start, so the kubelet kills the pod without
/// restarting its sidecar (`computePodActions` → `KillPod`): `Killing`
/// `Stopping container log-shipper` at 64.3, SIGTERM to a program that is
/// serving (loaded at 2.0 + 2 = 4.0), exit 0 after `shutdown` 1 s at 65.3;
/// the PLEG sees it at 66.3 and the pod is Succeeded: the Job completes
/// then. Until the sidecar has stopped the pod is Running (`getPhase`
/// counts a running sidecar).
#[test]
fn a_jobs_sidecar_is_stopped_when_the_work_is_done() {
    let run = run("init-containers.yaml", 600);
    let pod = run
        .pods
        .iter()
        .find(|p| p.name.starts_with("finetune-"))
        .expect("the Job's pod");
    let shipper = &pod.init_containers[0];
    assert_eq!(shipper.instances.len(), 1, "not restarted after its stop");
    assert_eq!(shipper.instances[0].started, 2_000);
    let stop = shipper.instances[0].exit.as_ref().expect("stopped");
    assert_eq!((stop.at, stop.code, stop.reason), (65_300, 0, "Completed"));
    let train = &pod.containers[0].instances[0];
    assert_eq!(train.started, 3_300);
    assert_eq!(
        train.exit.as_ref().map(|e| (e.at, e.code)),
        Some((63_300, 0))
    );
    let killing: Vec<(u64, String)> = pod_events(&run, &pod.name)
        .into_iter()
        .filter(|(_, reason, _)| *reason == "Killing")
        .map(|(at, _, message)| (at, message))
        .collect();
    assert_eq!(
        killing,
        vec![(64_300, "Stopping container log-shipper".to_string())]
    );
    assert_eq!(pod.phase_at(64_000), "Running");
    assert_eq!(pod.phase_at(66_000), "Succeeded");
    let completed: Vec<u64> = run
        .events
        .iter()
        .filter(|e| &*e.object == "Job/finetune" && e.reason == "Completed")
        .map(|e| e.at)
        .collect();
    assert_eq!(completed, vec![66_300]);
    assert_eq!(status_column(&run, &pod.name, 70_000), "Completed");
}

/// Two sidecars stop in reverse order after the app container
/// (`newTerminationOrdering`, `pkg/kubelet/kuberuntime/kuberuntime_termination_order.go`):
/// `finetune` with a second sidecar `metrics-agent` after `log-shipper`.
/// Both get `Killing` at the same sync K; `metrics-agent` (the later one)
/// is sent SIGTERM at once and exits after its 4 s shutdown, at K + 4;
/// only then is `log-shipper` sent its stop (`waitForTurn`), and it exits
/// 1 s later, at K + 5 (before: both at once, K + 4 and K + 1). With a
/// 3 s grace period `metrics-agent` is SIGKILLed at K + 3 (137); the 3 s
/// `log-shipper` waited come off its grace, the 2 s minimum is left
/// (`minimumGracePeriodInSeconds`), and its 1 s shutdown fits: K + 4, 0.
#[test]
fn sidecars_stop_in_reverse_order_after_the_app_containers() {
    let two = |grace: &str| {
        let text = golden("init-containers.yaml")
            .replace(
                "      restartPolicy: Never\n      initContainers:\n        - name: log-shipper\n          image: fluent/fluent-bit:3.2\n          restartPolicy: Always\n",
                &format!("      restartPolicy: Never\n{grace}      initContainers:\n        - name: log-shipper\n          image: fluent/fluent-bit:3.2\n          restartPolicy: Always\n        - name: metrics-agent\n          image: prom/node-exporter:v1.8.2\n          restartPolicy: Always\n"),
            )
            .replace(
                "    - container: log-shipper\n      startup: 2s\n",
                "    - container: log-shipper\n      startup: 2s\n    - container: metrics-agent\n      startup: 2s\n      shutdown: 4s\n",
            );
        assert!(text.contains("name: metrics-agent"));
        let run = simulate(
            &text,
            &Options {
                until: Some(600_000),
            },
        );
        let pod = run
            .pods
            .iter()
            .find(|p| p.name.starts_with("finetune-"))
            .expect("the Job's pod")
            .clone();
        let killing: Vec<(u64, String)> = pod_events(&run, &pod.name)
            .into_iter()
            .filter(|(_, reason, _)| *reason == "Killing")
            .map(|(at, _, message)| (at, message))
            .collect();
        let exit = |i: usize| {
            let exit = pod.init_containers[i].instances[0]
                .exit
                .as_ref()
                .expect("stopped");
            (exit.at, exit.code)
        };
        (killing, exit(0), exit(1), pod)
    };
    let (killing, shipper, agent, pod) = two("");
    let k = killing[0].0;
    assert_eq!(
        killing,
        vec![
            (k, "Stopping container log-shipper".to_string()),
            (k, "Stopping container metrics-agent".to_string()),
        ]
    );
    let train_exit = pod.containers[0].instances[0].exit.as_ref().map(|e| e.at);
    assert_eq!(train_exit.map(|at| at + 1_000), Some(k), "the PLEG's sync");
    assert_eq!(agent, (k + 4_000, 0));
    assert_eq!(shipper, (k + 5_000, 0));
    assert_eq!(pod.phase_at(k + 4_500), "Running");
    assert_eq!(pod.phase_at(k + 6_000), "Succeeded");

    let (killing, shipper, agent, _) = two("      terminationGracePeriodSeconds: 3\n");
    let k = killing[0].0;
    assert_eq!(agent, (k + 3_000, 137));
    assert_eq!(shipper, (k + 4_000, 0));
}

/// An init container's GPU is reused by the containers after it
/// (`pkg/kubelet/cm/devicemanager/manager.go` `Allocate`, `devicesToReuse`):
/// two pods, each a 1-GPU `fetch` init container then a 1-GPU `server`,
/// on one node with 2 GPUs. The scheduler counts max(1, 1) = 1 GPU per pod,
/// so both bind; each pod's init container and server share one GPU, the
/// two pods hold one GPU each (before: the server took a GPU and the init
/// container of the second pod found none).
#[test]
fn an_init_containers_gpu_is_reused_by_the_app_container() {
    let pod = |name: &str| {
        format!(
            "apiVersion: v1\nkind: Pod\nmetadata: {{ name: {name} }}\nspec:\n  tolerations: [{{ key: nvidia.com/gpu, operator: Exists }}]\n  initContainers:\n    - name: fetch\n      image: registry.example.com/fetch:1.0\n      resources: {{ limits: {{ nvidia.com/gpu: 1 }} }}\n  containers:\n    - name: server\n      image: registry.example.com/server:1.0\n      resources: {{ limits: {{ nvidia.com/gpu: 1 }} }}\n---\n"
        )
    };
    let text = format!(
        "{}{}apiVersion: podlab.dev/v1alpha1\nkind: Scenario\nmetadata: {{ name: s }}\nspec:\n  duration: 5m\n  workload:\n    - {{ container: fetch, runFor: 10s }}\n    - {{ container: server, startup: 5s }}\n  cluster:\n    nodePools:\n      - name: gpu\n        count: 1\n        cpu: \"16\"\n        memory: 64Gi\n        gpu: {{ model: L4, count: 2 }}\n",
        pod("first"),
        pod("second")
    );
    let run = simulate(
        &text,
        &Options {
            until: Some(300_000),
        },
    );
    let gpus: Vec<(Vec<usize>, Vec<usize>)> = run
        .pods
        .iter()
        .map(|pod| {
            (
                pod.init_containers[0].gpus.clone(),
                pod.containers[0].gpus.clone(),
            )
        })
        .collect();
    assert_eq!(gpus, vec![(vec![0], vec![0]), (vec![1], vec![1])]);
    for pod in &run.pods {
        assert_eq!(
            get_pods::row(pod, 300_000).status,
            "Running",
            "{}",
            pod.name
        );
    }
}

/// A sidecar's liveness kill (`computeInitContainerActions`): the message
/// is `Init container <name> failed liveness probe` (no `, will be
/// restarted`), and a sidecar is restarted even in a `Never` pod. Ticks on
/// 0.5 + 5k: the probe asks port 9999 (the sidecar listens on 15000), so
/// 5.5 and 10.5 are refused (0.5 comes before it started at 2.0); the
/// second failure reaches failureThreshold 2 and kills it at 10.5; serving
/// since 2.0 + 1 = 3.0, it exits 0 one second after SIGTERM, at 11.5, and
/// the kill's sync restarts it at once (doBackOff looks at the previous
/// instance: none), at 11.8. Each instance then fails at the next two
/// ticks: kills at 20.5, 30.5, 40.5; restarts at 21.8 (first back-off
/// entry, 10 s) and 31.8 (31.5 − 21.5 = 10, not < 10 → 20 s entry); the
/// fourth kill finds 41.5 − 31.5 = 10 < 20: back-off.
#[test]
fn a_sidecars_liveness_kill_restarts_it_even_under_never() {
    let text = "apiVersion: v1
kind: Pod
metadata: { name: mesh }
spec:
  restartPolicy: Never
  initContainers:
    - name: proxy
      image: envoyproxy/envoy:v1.33.0
      restartPolicy: Always
      livenessProbe:
        httpGet: { path: /ready, port: 9999 }
        periodSeconds: 5
        failureThreshold: 2
  containers:
    - name: server
      image: vllm/vllm-openai:v0.8.5
---
apiVersion: podlab.dev/v1alpha1
kind: Scenario
metadata: { name: mesh }
spec:
  duration: 1m
  workload:
    - container: proxy
      startup: 1s
      listenPort: 15000
";
    let run = simulate(text, &Options::default());
    let pod = &run.pods[0];
    let killing: Vec<(u64, Option<&str>, &str)> = run
        .events
        .iter()
        .filter(|e| e.reason == "Killing")
        .map(|e| (e.at, e.field_path.as_deref(), &*e.message))
        .collect();
    assert_eq!(
        killing,
        [10_500, 20_500, 30_500, 40_500]
            .map(|at| (
                at,
                Some("spec.initContainers{proxy}"),
                "Init container proxy failed liveness probe"
            ))
            .to_vec()
    );
    let starts: Vec<u64> = pod.init_containers[0]
        .instances
        .iter()
        .map(|i| i.started)
        .collect();
    assert_eq!(starts, vec![2_000, 11_800, 21_800, 31_800]);
    assert_eq!(pod.containers[0].instances[0].started, 3_300);
    // get pods at 35 s: the sidecar's restarts count with the app's (3,
    // the last finish 31.5 → whole second 31, 4 s ago); both are Ready.
    let row = get_pods::row(pod, 35_000);
    assert_eq!(
        (
            row.ready.as_str(),
            row.status.as_str(),
            row.restarts.as_str()
        ),
        ("2/2", "Running", "3 (4s ago)")
    );
}

/// An init container the Scenario does not describe is a quick setup step:
/// `Scenario::init_program` gives it `startup` 0 and `runFor` 0 (the `*`
/// entry describes the app's server and does not apply), so it exits 0 at
/// its start, 2.0 s; the PLEG's sync at 3.0 starts the app at 3.3.
#[test]
fn an_undescribed_init_container_finishes_at_once() {
    let text = "apiVersion: v1
kind: Pod
metadata: { name: chown }
spec:
  initContainers:
    - name: fix-permissions
      image: busybox:1.36
      command: [chown, -R, '1000:1000', /models]
  containers:
    - name: server
      image: vllm/vllm-openai:v0.8.5
---
apiVersion: podlab.dev/v1alpha1
kind: Scenario
metadata: { name: chown }
spec:
  duration: 1m
  workload:
    - container: '*'
      startup: 30s
";
    let run = simulate(text, &Options::default());
    let pod = &run.pods[0];
    let init = &pod.init_containers[0].instances[0];
    assert_eq!(init.started, 2_000);
    assert_eq!(init.exit.as_ref().map(|e| (e.at, e.code)), Some((2_000, 0)));
    assert_eq!(pod.containers[0].instances[0].started, 3_300);
    // `*` still applies to the app container: loaded 30 s after its start.
    assert_eq!(pod.containers[0].program.startup.value, 30_000);
}
