//! `kubectl describe pod`, the Event objects behind it and `kubectl logs` on
//! the golden runs (`tests/golden/*.yaml`), with the expected text derived
//! in comments from `shared/reference/kubectl-output.md` (§n) and the run's
//! timeline (`tests/golden.rs` derives the timeline itself). Times are ms
//! from pod creation; t = 0 prints as Thu, 01 Jan 2026 00:00:00 +0000.
//! `crates/cli/tests/describe_kubectl.rs` compares the same texts byte for
//! byte with a real kubectl v1.35.

use std::path::Path;

use podlab_core::explain::{describe, events, logs};
use podlab_core::sim::{simulate, Options, PodRun, Run};

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

fn times(run: &Run, reason: &str) -> Vec<u64> {
    run.events
        .iter()
        .filter(|e| e.reason == reason)
        .map(|e| e.at)
        .collect()
}

/// The lines from `Events:` to the end.
fn events_section(text: &str) -> String {
    match text.find("\nEvents:") {
        Some(start) => text[start + 1..].to_string(),
        None => panic!("no Events section in\n{text}"),
    }
}

/// The article's crash loop at 12:00. Kubelet occurrences (golden.rs):
/// - Pulled, Created, Started at each start: 2.0, 41.8, 81.8, 121.8, 161.8,
///   201.8, 322.8, 524.05 s;
/// - Unhealthy ×3 and Killing at each kill: 40.5, 80.5, …, 240.5, 360.5,
///   560.5 s (24 and 8);
/// - BackOff at each sync in back-off: asserted below (11).
///
/// The recorder (§3.5): identical texts share an object. The spam filter
/// (one bucket per type, burst 25, +1 token per 300 s) decides what is
/// written:
/// - Normal: the 24 occurrences up to 240.5 pass; at 322.8 the bucket holds
///   1 + 320.8/300 = 2.07: Pulled and Created pass, Started is dropped;
///   Killing 360.5 (0.19), the 8th start 524.05 (0.74) and Killing 560.5
///   (0.86) are dropped. So Pulled/Created ×7 last 322.8, Started ×6 last
///   201.8, Killing ×6 last 240.5.
/// - Warning: 18 Unhealthy to 240.5, BackOff 241.5, 242.5, 317.5, Unhealthy
///   340.5-360.5, BackOff 361.5, 362.5: the 26th passes on 342 s of refill
///   (1.14 tokens, 0.14 left); 437.5, 512.5 and 540.5-562.5 are dropped;
///   637.5 has 0.14 + 275/300 = 1.057 and writes BackOff ×10; 712.5 is
///   dropped. So Unhealthy ×21 last 360.5 (not ×24: 3 are still only in the
///   recorder's cache), BackOff ×10 last 637.5.
///
/// Age (§3.2, timestamps in whole seconds, HumanDuration): Started 720 − 201
/// = 519 s → `8m39s`; Killing 480 → `8m`; Pulled/Created 720 − 322 = 398 →
/// `6m38s`; Unhealthy 360 → `6m`, first 20 → 700 → `11m`; BackOff 720 − 637
/// = 83 → `83s`, first 241 → 479 → `7m59s`; Scheduled (eventTime 0) `12m`. Rows sorted by
/// lastTimestamp (§3.4): Scheduled has none and comes first; Pulled before
/// Created at the same second (API order).
#[test]
fn crash_loop_events_at_12_minutes() {
    let run = run("crash-loop-liveness-40s.yaml", 720);
    let pod = &run.pods[0];
    assert_eq!(
        times(&run, "BackOff"),
        vec![
            241_500, 242_500, 317_500, 361_500, 362_500, 437_500, 512_500, 561_500, 562_500,
            637_500, 712_500
        ]
    );
    let text = describe::describe_pod(&run, pod, 720_000);
    let expected = format!(
        "\
Events:
  Type     Reason     Age                   From               Message
  ----     ------     ----                  ----               -------
  Normal   Scheduled  12m                   default-scheduler  Successfully assigned default/{name} to gpu-0
  Normal   Started    8m39s (x6 over 11m)   kubelet            spec.containers{{api}}: Container started
  Normal   Killing    8m (x6 over 11m)      kubelet            spec.containers{{api}}: Container api failed liveness probe, will be restarted
  Normal   Pulled     6m38s (x7 over 11m)   kubelet            spec.containers{{api}}: Container image \"registry.example.com/model-api:0.3.1\" already present on machine and can be accessed by the pod
  Normal   Created    6m38s (x7 over 11m)   kubelet            spec.containers{{api}}: Container created
  Warning  Unhealthy  6m (x21 over 11m)     kubelet            spec.containers{{api}}: Liveness probe failed: Get \"http://{ip}:8000/health\": dial tcp {ip}:8000: connect: connection refused
  Warning  BackOff    83s (x10 over 7m59s)  kubelet            spec.containers{{api}}: Back-off restarting failed container api in pod {name}_default({uid})
",
        name = pod.name,
        ip = pod.ip,
        uid = pod.uid
    );
    assert_eq!(events_section(&text), expected);
}

/// Without the spam filter (decision 4 allows it) every occurrence is
/// written: Unhealthy ×24, the last at 560.5 → 720 − 560 = 160 s → `2m40s`.
#[test]
fn without_the_spam_filter_every_occurrence_counts() {
    let run = run("crash-loop-liveness-40s.yaml", 720);
    let pod = &run.pods[0];
    let objects = events::aggregate_with(&run, &format!("Pod/{}", pod.name), 720_000, false);
    let unhealthy = objects.iter().find(|o| o.reason == "Unhealthy").unwrap();
    assert_eq!(
        (unhealthy.count, unhealthy.first, unhealthy.last),
        (24, 20_500, 560_500)
    );
    assert_eq!(
        describe::age_column(unhealthy, 720_000),
        "2m40s (x24 over 11m)"
    );
    let back_off = objects.iter().find(|o| o.reason == "BackOff").unwrap();
    assert_eq!((back_off.count, back_off.last), (11, 712_500));
}

/// The stored objects themselves, in API list order (by name: the first
/// occurrence's time, §3.4), as the fake API server serves them.
#[test]
fn crash_loop_event_objects() {
    let run = run("crash-loop-liveness-40s.yaml", 720);
    let pod = &run.pods[0];
    let objects = events::aggregate(&run, &format!("Pod/{}", pod.name), 720_000);
    let summary: Vec<(&str, u32, u64, u64)> = objects
        .iter()
        .map(|o| (o.reason, o.count, o.first, o.last))
        .collect();
    assert_eq!(
        summary,
        vec![
            ("Scheduled", 1, 0, 0),
            ("Pulled", 7, 2_000, 322_800),
            ("Created", 7, 2_000, 322_800),
            ("Started", 6, 2_000, 201_800),
            ("Unhealthy", 21, 20_500, 360_500),
            ("Killing", 6, 40_500, 240_500),
            ("BackOff", 10, 241_500, 637_500),
        ]
    );
    assert!(objects[0].uses_event_time());
    assert!(objects[1..].iter().all(|o| !o.uses_event_time()));
    // `<pod>.<hex UnixNano>`: 2026-01-01T00:00:02Z = 1767225602 s.
    assert_eq!(
        objects[1].name,
        format!("{}.{:x}", pod.name, 1_767_225_602_000_000_000u64 + 1)
    );
}

/// The container block at 12:00 (§2.3-§2.4). State Waiting/CrashLoopBackOff
/// (back-off until 861.5 s), Last State = C7: started 524.05 → 00:08:44,
/// killed at 560.5, exit 143 at 561.5 → 00:09:21; restartCount 7. The run of
/// values is set by `    Restart Count:` (18 + 2 = column 20); with no
/// Limits/Requests the Liveness and Environment lines share it.
#[test]
fn crash_loop_container_block_at_12_minutes() {
    let run = run("crash-loop-liveness-40s.yaml", 720);
    let pod = &run.pods[0];
    let text = describe::describe_pod(&run, pod, 720_000);
    let start = text.find("    Image:").expect("an Image line");
    let end = text.find("    Mounts:").expect("a Mounts line");
    assert_eq!(
        &text[start..end],
        "    Image:          registry.example.com/model-api:0.3.1
    Image ID:       "
            .to_string()
            + &describe::image_id("registry.example.com/model-api:0.3.1")
            + "
    Port:           8000/TCP
    Host Port:      0/TCP
    State:          Waiting
      Reason:       CrashLoopBackOff
    Last State:     Terminated
      Reason:       Error
      Exit Code:    143
      Started:      Thu, 01 Jan 2026 00:08:44 +0000
      Finished:     Thu, 01 Jan 2026 00:09:21 +0000
    Ready:          False
    Restart Count:  7
    Liveness:       http-get http://:8000/health delay=10s timeout=1s period=10s #success=1 #failure=3
    Environment:    <none>
"
    );
    // The status's container is the newest instance (C7, restart 7).
    assert!(text.contains(&format!(
        "    Container ID:   {}\n",
        describe::container_id(pod, "api", 7)
    )));
    for line in [
        "Status:           Running",
        "Start Time:       Thu, 01 Jan 2026 00:00:00 +0000",
        "Node:             gpu-0/172.18.0.2",
        "  PodReadyToStartContainers   True ",
        "  Ready                       False ",
        "QoS Class:                   BestEffort",
    ] {
        assert!(text.lines().any(|l| l == line), "{line:?} in\n{text}");
    }
    insta::assert_snapshot!("crash_loop_describe_at_12m", text);
}

/// §8.3's layout for the second replica that found no GPU: no Start Time,
/// `IP:` with trailing padding, `IPs:\t<none>` keeping the header run (so
/// `Controlled By:` aligns at column 18), no Container ID/State lines, one
/// condition, and the scheduler's attempts: at 0, then from the 30 s flush
/// of pods unschedulable for more than 5 min at 330 s and 660 s
/// (scheduler-controllers.md §3.2). The first FailedScheduling changed the
/// pod (PodScheduled=False), so the retries form a second object, a series
/// of 2: last 660 s → `4m`, first 330 s → `over 9m30s`.
#[test]
fn pending_pod_matches_the_reference_layout() {
    let run = run("reference-one-gpu.yaml", 900);
    let pod: &PodRun = &run.pods[1];
    let hash = pod.template_hash.as_deref().unwrap_or_default();
    let access = describe::api_access_volume(pod);
    let expected = format!(
        "\
Name:             {name}
Namespace:        default
Priority:         0
Service Account:  default
Node:             <none>
Labels:           app=model-api
                  pod-template-hash={hash}
Annotations:      <none>
Status:           Pending
IP:               
IPs:              <none>
Controlled By:    ReplicaSet/model-api-{hash}
Containers:
  api:
    Image:      registry.example.com/model-api:0.3.1
    Port:       8000/TCP
    Host Port:  0/TCP
    Limits:
      cpu:             2
      memory:          8Gi
      nvidia.com/gpu:  1
    Requests:
      cpu:             1
      memory:          4Gi
      nvidia.com/gpu:  1
    Liveness:          http-get http://:8000/health delay=0s timeout=1s period=20s #success=1 #failure=3
    Readiness:         http-get http://:8000/health delay=0s timeout=1s period=5s #success=1 #failure=3
    Startup:           http-get http://:8000/health delay=0s timeout=1s period=10s #success=1 #failure=30
    Environment:
      MODEL_REGISTRY_URI:  <set to the key 'tracking-uri' in secret 'mlflow-secret'>  Optional: false
    Mounts:
      /var/run/secrets/kubernetes.io/serviceaccount from {access} (ro)
Conditions:
  Type           Status
  PodScheduled   False 
Volumes:
  {access}:
    Type:                    Projected (a volume that contains injected data from multiple sources)
    TokenExpirationSeconds:  3607
    ConfigMapName:           kube-root-ca.crt
    Optional:                false
    DownwardAPI:             true
QoS Class:                   Burstable
Node-Selectors:              <none>
Tolerations:                 node.kubernetes.io/not-ready:NoExecute op=Exists for 300s
                             node.kubernetes.io/unreachable:NoExecute op=Exists for 300s
Events:
  Type     Reason            Age                 From               Message
  ----     ------            ----                ----               -------
  Warning  FailedScheduling  15m                 default-scheduler  0/1 nodes are available: 1 Insufficient nvidia.com/gpu. no new claims to deallocate, preemption: 0/1 nodes are available: 1 No preemption victims found for incoming pod.
  Warning  FailedScheduling  4m (x2 over 9m30s)  default-scheduler  0/1 nodes are available: 1 Insufficient nvidia.com/gpu. no new claims to deallocate, preemption: 0/1 nodes are available: 1 No preemption victims found for incoming pod.
",
        name = pod.name
    );
    assert_eq!(describe::describe_pod(&run, pod, 900_000), expected);
}

/// The running replica: Running since 2.0 s, Ready, 4 startup failures
/// (10.5 … 40.5 s) as one object: last 40 → 860 s → `14m`, first 10 →
/// 890 s → `14m`; Pulled/Created/Started at 2 s (898 s → `14m`) tie on
/// lastTimestamp and keep the API order.
#[test]
fn running_replica_shows_its_startup_failures_once() {
    let run = run("reference-one-gpu.yaml", 900);
    let pod = &run.pods[0];
    let text = describe::describe_pod(&run, pod, 900_000);
    for line in [
        "    State:          Running",
        "      Started:      Thu, 01 Jan 2026 00:00:02 +0000",
        "    Ready:          True",
        "  Ready                       True ",
    ] {
        assert!(text.lines().any(|l| l == line), "{line:?} in\n{text}");
    }
    let events = events_section(&text);
    let reasons: Vec<&str> = events
        .lines()
        .skip(3)
        .filter_map(|l| l.split_whitespace().nth(1))
        .collect();
    assert_eq!(
        reasons,
        vec!["Scheduled", "Pulled", "Created", "Started", "Unhealthy"]
    );
    assert!(events.contains("  Warning  Unhealthy  14m (x4 over 14m)  kubelet            spec.containers{api}: Startup probe failed: Get"));
}

/// §5: `--previous` and plain `logs` of a pod in CrashLoopBackOff both read
/// the last terminated instance (C7, started 524.05, SIGTERM at 560.5 while
/// loading: 36.45 s of a 40 s load, so progress lines at 10, 20, 30 s and no
/// shutdown line — no handler is installed while loading).
#[test]
fn crash_loop_logs_show_the_killed_instance_twice() {
    let run = run("crash-loop-liveness-40s.yaml", 720);
    let pod = &run.pods[0];
    let expected = "\
Loading model weights...
Loading model weights: 25% (10s)
Loading model weights: 50% (20s)
Loading model weights: 75% (30s)
";
    assert_eq!(
        logs::logs(&run, pod, "api", 720_000, true).as_deref(),
        Ok(expected)
    );
    assert_eq!(
        logs::logs(&run, pod, "api", 720_000, false).as_deref(),
        Ok(expected)
    );
    // At 530 s C7 runs (started 524.05): 5.95 s in, only the first line.
    assert_eq!(
        logs::logs(&run, pod, "api", 530_000, false).as_deref(),
        Ok("Loading model weights...\n")
    );
}

/// A replica that loaded and serves: its log ends with uvicorn's startup;
/// it never restarted, so `--previous` is kubectl's BadRequest (§5).
#[test]
fn serving_pod_logs_and_the_previous_error() {
    let run = run("reference-one-gpu.yaml", 900);
    let pod = &run.pods[0];
    assert_eq!(
        logs::logs(&run, pod, "api", 900_000, false).as_deref(),
        Ok("\
Loading model weights...
Loading model weights: 25% (10s)
Loading model weights: 50% (20s)
Loading model weights: 75% (30s)
Model loaded in 40.0s
INFO:     Started server process [1]
INFO:     Waiting for application startup.
INFO:     Application startup complete.
INFO:     Uvicorn running on http://0.0.0.0:8000 (Press CTRL+C to quit)
")
    );
    assert_eq!(
        logs::logs(&run, pod, "api", 900_000, true),
        Err(format!(
            "Error from server (BadRequest): previous terminated container \"api\" in pod \"{}\" not found",
            pod.name
        ))
    );
    // Scheduled, first sync at 0.5 s, container not started until 2.0 s.
    assert_eq!(
        logs::logs(&run, pod, "api", 1_000, false),
        Err(format!(
            "Error from server (BadRequest): container \"api\" in pod \"{}\" is waiting to start: ContainerCreating",
            pod.name
        ))
    );
    // Unscheduled: the API server streams nothing and kubectl exits 0.
    assert_eq!(
        logs::logs(&run, &run.pods[1], "api", 900_000, false).as_deref(),
        Ok("")
    );
}

/// OOMKilled: the kernel kills the process at 80 % of its 40 s load
/// (32 s): the 30 s progress line is its last.
#[test]
fn an_oom_killed_instance_just_stops() {
    let run = run("oom-at-loading-peak.yaml", 720);
    let pod = &run.pods[0];
    let previous = logs::logs(&run, pod, "api", 720_000, true).unwrap_or_default();
    assert!(
        previous.ends_with("Loading model weights: 75% (30s)\n"),
        "{previous}"
    );
    let text = describe::describe_pod(&run, pod, 720_000);
    assert!(
        text.contains("      Reason:       OOMKilled\n      Exit Code:    137\n"),
        "{text}"
    );
}

#[test]
fn describe_and_logs_are_deterministic() {
    let a = run("crash-loop-liveness-40s.yaml", 720);
    let b = run("crash-loop-liveness-40s.yaml", 720);
    assert_eq!(
        describe::describe_pod(&a, &a.pods[0], 720_000),
        describe::describe_pod(&b, &b.pods[0], 720_000)
    );
}

/// Every `.yaml`/`.yml` file under `dir`, sorted, recursively.
fn yaml_files(dir: &Path) -> Vec<std::path::PathBuf> {
    let mut files = Vec::new();
    let mut pending = vec![dir.to_path_buf()];
    while let Some(current) = pending.pop() {
        let Ok(entries) = std::fs::read_dir(&current) else {
            continue;
        };
        for path in entries.flatten().map(|entry| entry.path()) {
            if path.is_dir() {
                pending.push(path);
            } else if matches!(
                path.extension().and_then(|ext| ext.to_str()),
                Some("yaml" | "yml")
            ) {
                files.push(path);
            }
        }
    }
    files.sort();
    files
}

/// Robustness: real manifests (the corpus), the rule fixtures and the golden
/// files, described and logged at several times, never panic and always
/// give kubectl-shaped text.
#[test]
fn every_manifest_describes_and_logs_without_panicking() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = yaml_files(&root.join("tests/corpus"));
    files.extend(yaml_files(&root.join("tests/fixtures")));
    files.extend(yaml_files(&root.join("../../tests/golden")));
    assert!(files.len() > 10, "found {} files", files.len());
    for file in files {
        let Ok(text) = std::fs::read_to_string(&file) else {
            continue;
        };
        let run = simulate(
            &text,
            &Options {
                until: Some(300_000),
            },
        );
        for pod in run.pods.iter().take(5) {
            for at in [0, 400, 1_000, 60_000, 300_000] {
                let described = describe::describe_pod(&run, pod, at);
                // The header's column is as wide as its longest label
                // (`Termination Grace Period:` once the pod is deleted).
                let first = described.lines().next().unwrap_or_default();
                assert!(
                    first.strip_prefix("Name:").map(str::trim_start) == Some(pod.name.as_str()),
                    "{}: {described}",
                    file.display()
                );
                assert!(described.ends_with('\n'), "{}", file.display());
                for container in &pod.containers {
                    for previous in [false, true] {
                        match logs::logs(&run, pod, &container.name, at, previous) {
                            Ok(text) => assert!(text.is_empty() || text.ends_with('\n')),
                            Err(error) => assert!(
                                error.starts_with("Error from server (BadRequest): "),
                                "{}: {error}",
                                file.display()
                            ),
                        }
                    }
                }
            }
        }
    }
}
