//! podlab's `describe pod` compared byte for byte with a real kubectl v1.35
//! describing the same Pod and Event objects, served by a fake API server
//! (kubectl/mod.rs explains how the two clocks are made to agree).
//!
//! Needs `PODLAB_KUBECTL` (set by `cargo xtask test`); without it every test
//! here fails and says so.

mod kubectl;

use std::path::Path;

use kubectl::objects::{self, Clock, EPOCH};
use kubectl::server::{ApiServer, Objects};
use kubectl::{line_diff, next_whole_second, run_kubectl, unix_now, write_kubeconfig, TempDir};
use podlab_core::explain::describe::describe_pod;
use podlab_core::manifest::duration::Millis;
use podlab_core::sim::{self, Options, PodRun, Run};

/// A golden file's text and its run up to `at`.
fn golden(name: &str, at: Millis) -> (String, Run) {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../tests/golden")
        .join(name);
    let text = std::fs::read_to_string(&path)
        .unwrap_or_else(|error| panic!("cannot read {}: {error}", path.display()));
    let run = sim::simulate(&text, &Options { until: Some(at) });
    (text, run)
}

/// Every pod of the run and all their events, on `clock`.
fn served(text: &str, run: &Run, at: Millis, clock: Clock) -> Objects {
    Objects {
        pods: run
            .pods
            .iter()
            .map(|pod| objects::pod(run, pod, at, clock, text))
            .collect(),
        events: run
            .pods
            .iter()
            .flat_map(|pod| objects::events(run, pod, at, clock))
            .collect(),
    }
}

/// What kubectl prints for `describe pod` at `at`, its dates moved onto
/// podlab's epoch, and the requests it made.
fn kubectl_describe(text: &str, run: &Run, pod: &PodRun, at: Millis) -> (String, Vec<String>) {
    assert_eq!(at % 1000, 0, "describe times are whole seconds");
    let at_seconds = i64::try_from(at / 1000).expect("a time in range");
    let dir = TempDir::new("kubectl");
    for _attempt in 0..5 {
        // kubectl's clock must read base + T plus less than one second.
        let second = i64::try_from(next_whole_second()).expect("a time in range");
        let clock = Clock {
            base: second - at_seconds,
        };
        let server = ApiServer::start(served(text, run, at, clock));
        let kubeconfig = write_kubeconfig(&dir.0, &server);
        let out = run_kubectl(&dir.0, &kubeconfig, &["describe", "pod", &pod.name]);
        let finished = unix_now().as_secs();
        assert!(
            out.success,
            "kubectl describe pod {} failed:\n{}\nrequests:\n{}",
            pod.name,
            out.stderr,
            server.requests().join("\n")
        );
        if i64::try_from(finished).is_ok_and(|finished| finished == second) {
            return (
                objects::shift_dates(&out.stdout, EPOCH - clock.base),
                server.requests(),
            );
        }
    }
    panic!("kubectl took a second or more five times in a row; its ages cannot be compared");
}

/// Describes every pod of a golden run at `at` with both and reports each
/// pod whose text differs.
fn compare(golden_file: &str, at: Millis) {
    let (text, run) = golden(golden_file, at);
    assert!(!run.pods.is_empty(), "{golden_file} has pods");
    let mut failures = Vec::new();
    for pod in &run.pods {
        let (kubectl_text, _) = kubectl_describe(&text, &run, pod, at);
        let podlab_text = describe_pod(&run, pod, at);
        if podlab_text != kubectl_text {
            failures.push(format!(
                "describe pod {} ({golden_file} at {}s) differs from kubectl v1.35 \
                 (- podlab, + kubectl; · is a trailing space):\n{}",
                pod.name,
                at / 1000,
                line_diff(&podlab_text, &kubectl_text)
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn crash_loop_at_12_minutes_matches_kubectl() {
    compare("crash-loop-liveness-40s.yaml", 720_000);
}

/// Waiting pods: ContainerCreating during a pull, ImagePullBackOff and
/// CreateContainerConfigError, and Pulling/Pulled/Failed/BackOff events.
#[test]
fn image_pulls_and_config_errors_match_kubectl() {
    compare("image-pull-and-config.yaml", 30_000);
    compare("image-pull-and-config.yaml", 200_000);
}

/// Probe results at their return time (`Unhealthy` and `Killing` at x.5 s
/// and x.52 s, events stored in whole seconds), a container that exited 0
/// after a liveness kill (`Completed`), readiness failures every 2 s.
#[test]
fn probe_latency_matches_kubectl() {
    compare("probe-latency.yaml", 120_000);
}

/// Containers that exit 1 on CUDA out of memory, and GPU limits of every
/// kind (`nvidia.com/gpu`, `nvidia.com/mig-1g.10gb`).
#[test]
fn gpu_memory_failures_match_kubectl() {
    compare("gpu-memory-at-run-time.yaml", 120_000);
}

/// Init containers (`init-containers.yaml`): at 300 s a download running
/// (`Init:0/1`, the server `Waiting`/`PodInitializing`, `Initialized
/// False`), one in `CrashLoopBackOff` with its Last State, one `Terminated`
/// `Error` in a Failed pod, a running sidecar, a Job's pod whose sidecar
/// was stopped; at 64 s that sidecar still running after the work
/// completed (phase Running); at 420 s a Completed init container before a
/// Ready server; `spec.initContainers{…}` event prefixes.
#[test]
fn init_containers_match_kubectl() {
    compare("init-containers.yaml", 64_000);
    compare("init-containers.yaml", 300_000);
    compare("init-containers.yaml", 420_000);
}

/// Job pods of four CronJobs at 121 s, one of them being deleted by
/// `concurrencyPolicy: Replace` (`Status: Terminating (lasts <invalid>)`,
/// `Termination Grace Period: 30s`, the Job labels, `Controlled By: Job/…`).
/// The header only, up to `Containers:`: these pods' events happen at
/// x.1 s (the CronJob syncs 100 ms after the minute), and their ages in
/// kubectl then depend on where in its second kubectl reads the clock
/// (60.9 s + up to 1 s) — a full comparison passed 3 runs in 6.
#[test]
fn cronjob_pods_and_a_terminating_pod_match_kubectl_in_the_header() {
    let at = 121_000;
    let (text, run) = golden("cronjob-policies.yaml", at);
    let header = |describe: &str| -> String {
        describe
            .split_once("\nContainers:\n")
            .map_or(describe, |(head, _)| head)
            .to_owned()
    };
    let mut terminating = 0;
    for pod in &run.pods {
        let (kubectl_text, _) = kubectl_describe(&text, &run, pod, at);
        let podlab_text = header(&describe_pod(&run, pod, at));
        terminating += usize::from(podlab_text.contains("Terminating (lasts <invalid>)"));
        assert_eq!(
            podlab_text,
            header(&kubectl_text),
            "describe pod {} differs from kubectl v1.35 (- podlab, + kubectl):\n{}",
            pod.name,
            line_diff(&podlab_text, &header(&kubectl_text))
        );
    }
    assert_eq!(terminating, 1, "the replaced Job's pod is being deleted");
}

#[test]
fn reference_one_gpu_at_15_minutes_matches_kubectl_for_both_pods() {
    compare("reference-one-gpu.yaml", 900_000);
}

/// The harness itself: kubectl finds the pod and its events through the
/// fake server and prints them.
#[test]
fn kubectl_reads_the_served_pod_and_its_events() {
    let (text, run) = golden("crash-loop-liveness-40s.yaml", 720_000);
    let pod = &run.pods[0];
    let (out, requests) = kubectl_describe(&text, &run, pod, 720_000);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(
        lines.first().copied(),
        Some(format!("Name:             {}", pod.name).as_str()),
        "{out}"
    );
    assert!(lines.contains(&"Status:           Running"), "{out}");
    assert!(
        lines.contains(&"Start Time:       Thu, 01 Jan 2026 00:00:00 +0000"),
        "{out}"
    );
    assert!(lines.contains(&"    State:          Waiting"), "{out}");
    assert!(
        lines.contains(&"      Reason:       CrashLoopBackOff"),
        "{out}"
    );
    assert!(lines.contains(&"Events:"), "{out}");
    assert!(
        out.contains("kubelet            spec.containers{api}: Container started"),
        "{out}"
    );
    let pod_path = format!("GET /api/v1/namespaces/default/pods/{}", pod.name);
    assert!(requests.contains(&pod_path), "{requests:#?}");
    // kubectl builds the field selector from a Go map, so the order of its
    // terms changes from run to run: compare them as a set.
    let events = requests
        .iter()
        .find_map(|request| {
            request.strip_prefix("GET /api/v1/namespaces/default/events?fieldSelector=")
        })
        .unwrap_or_else(|| panic!("no events request: {requests:#?}"));
    let (selector, rest) = events.split_once('&').unwrap_or((events, ""));
    assert_eq!(rest, "limit=500", "{requests:#?}");
    let mut terms: Vec<String> = selector
        .replace("%3D", "=")
        .split("%2C")
        .map(str::to_string)
        .collect();
    terms.sort();
    let mut expected = vec![
        format!("involvedObject.name={}", pod.name),
        "involvedObject.namespace=default".to_string(),
        format!("involvedObject.uid={}", pod.uid),
    ];
    expected.sort();
    assert_eq!(terms, expected, "{requests:#?}");
}

#[test]
fn dates_move_by_whole_seconds_and_keep_their_width() {
    let moved = objects::shift_dates(
        "Start Time:  Fri, 04 Dec 2026 10:00:00 +0000\n  é:  Fri, 04 Dec 2026 10:09:21 +0000\n",
        EPOCH - 1_796_378_400,
    );
    assert_eq!(
        moved,
        "Start Time:  Thu, 01 Jan 2026 00:00:00 +0000\n  é:  Thu, 01 Jan 2026 00:09:21 +0000\n"
    );
    assert_eq!(objects::rfc3339(EPOCH + 561, None), "2026-01-01T00:09:21Z");
    assert_eq!(
        objects::rfc3339(EPOCH, Some(20_000)),
        "2026-01-01T00:00:00.020000Z"
    );
}

#[test]
fn the_diff_marks_changed_lines_and_trailing_spaces() {
    assert_eq!(
        line_diff("a\nb \nc\n", "a\nb\nc\nd\n"),
        "  a\n- b·\n+ b\n  c\n+ d\n"
    );
}
