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
        .join("tests/golden")
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

/// What kubectl printed for `describe pod` at `at`, its dates moved onto
/// podlab's epoch, the requests it made, and where kubectl's clock could
/// have been while it ran.
struct Described {
    text: String,
    requests: Vec<String>,
    /// The simulated "now" (milliseconds, `unix now − base`) just before
    /// kubectl was started and just after it returned. kubectl reads its
    /// clock somewhere in between, so its ages are podlab's at some instant
    /// of `[before, after]`; both lie in `[at, at + 1000)`.
    before: Millis,
    after: Millis,
}

impl Described {
    /// podlab's `describe` at either end of kubectl's run, or the first of
    /// them that kubectl's text equals. Events at whole seconds age the
    /// same at both ends; one at x.1 s (a CronJob's sync) turns its age
    /// over at some instant of the second, and kubectl's text then equals
    /// podlab's at the end on the same side of that instant.
    fn podlab(&self, run: &Run, pod: &PodRun) -> (String, String) {
        let before = describe_pod(run, pod, self.before);
        let after = describe_pod(run, pod, self.after);
        (before, after)
    }
}

fn simulated_now(base: i64) -> Millis {
    let now = unix_now();
    let millis = i64::try_from(now.as_millis()).expect("a time in range") - base * 1000;
    Millis::try_from(millis).expect("kubectl runs after simulated time 0")
}

/// What kubectl prints for `describe pod` at `at` (see `Described`).
fn kubectl_describe(text: &str, run: &Run, pod: &PodRun, at: Millis) -> Described {
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
        let before = simulated_now(clock.base);
        let out = run_kubectl(&dir.0, &kubeconfig, &["describe", "pod", &pod.name]);
        let after = simulated_now(clock.base);
        assert!(
            out.success,
            "kubectl describe pod {} failed:\n{}\nrequests:\n{}",
            pod.name,
            out.stderr,
            server.requests().join("\n")
        );
        if before >= at && after < at + 1000 {
            return Described {
                text: objects::shift_dates(&out.stdout, EPOCH - clock.base),
                requests: server.requests(),
                before,
                after,
            };
        }
    }
    panic!("kubectl took a second or more five times in a row; its ages cannot be compared");
}

/// `None` when kubectl's text equals podlab's at either end of its run,
/// else the diff against the nearer miss (the end with fewer changed lines).
fn mismatch(run: &Run, pod: &PodRun, described: &Described) -> Option<String> {
    let (before, after) = described.podlab(run, pod);
    if described.text == before || described.text == after {
        return None;
    }
    let diff_before = line_diff(&before, &described.text);
    let diff_after = line_diff(&after, &described.text);
    let changed = |diff: &str| {
        diff.lines()
            .filter(|line| line.starts_with('-') || line.starts_with('+'))
            .count()
    };
    Some(if changed(&diff_after) < changed(&diff_before) {
        format!("(podlab at {} ms)\n{diff_after}", described.after)
    } else {
        format!("(podlab at {} ms)\n{diff_before}", described.before)
    })
}

/// Describes every pod of a golden run at `at` with both and reports each
/// pod whose text differs.
fn compare(golden_file: &str, at: Millis) {
    let (text, run) = golden(golden_file, at);
    assert!(!run.pods.is_empty(), "{golden_file} has pods");
    let mut failures = Vec::new();
    for pod in &run.pods {
        let described = kubectl_describe(&text, &run, pod, at);
        if let Some(diff) = mismatch(&run, pod, &described) {
            failures.push(format!(
                "describe pod {} ({golden_file} at {}s) differs from kubectl v1.35 \
                 (- podlab, + kubectl; · is a trailing space):\n{diff}",
                pod.name,
                at / 1000,
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
/// `Termination Grace Period: 30s`, the Job labels, `Controlled By: Job/…`),
/// compared in full. Their events happen at x.1 s (the CronJob syncs 100 ms
/// after the minute): `Scheduled` at 120.1 s (eventTime, microseconds) is
/// `0s` old while kubectl's clock reads 121.0-121.099 s (0.9-0.999 s) and
/// `1s` from 121.1 s on, so kubectl's text depends on where in its second
/// it read the clock; `compare` accepts podlab's at either end of the run.
#[test]
fn cronjob_pods_and_a_terminating_pod_match_kubectl() {
    let at = 121_000;
    compare("cronjob-policies.yaml", at);
    let (_, run) = golden("cronjob-policies.yaml", at);
    let terminating = run
        .pods
        .iter()
        .filter(|pod| describe_pod(&run, pod, at).contains("Terminating (lasts <invalid>)"))
        .count();
    assert_eq!(terminating, 1, "the replaced Job's pod is being deleted");
}

/// The comparison itself: an event whose age turns over inside kubectl's
/// second is accepted at either end and at no other text.
#[test]
fn kubectl_text_is_accepted_at_either_end_of_its_run() {
    let at = 121_000;
    let (_, run) = golden("cronjob-policies.yaml", at);
    let pod = run
        .pods
        .iter()
        .find(|pod| describe_pod(&run, pod, 121_050) != describe_pod(&run, pod, 121_150))
        .expect("a pod with an event at x.1 s");
    let early = describe_pod(&run, pod, 121_050);
    let late = describe_pod(&run, pod, 121_150);
    let described = |text: &str| Described {
        text: text.to_owned(),
        requests: Vec::new(),
        before: 121_050,
        after: 121_150,
    };
    assert_eq!(mismatch(&run, pod, &described(&early)), None);
    assert_eq!(mismatch(&run, pod, &described(&late)), None);
    assert!(mismatch(&run, pod, &described(&early.replace("Events:", "Events: "))).is_some());
    // A run that ended before the turn over cannot produce the later text.
    let before_turn = Described {
        before: 121_010,
        after: 121_090,
        ..described(&late)
    };
    assert!(mismatch(&run, pod, &before_turn).is_some());
}

/// A pod whose Secret volume cannot be mounted (`FailedMount` from the
/// volume manager's back-off, Pending in ContainerCreating without a pod
/// IP), and one whose ConfigMap volume is `optional: true` and runs.
#[test]
fn failed_mounts_match_kubectl() {
    compare("volumes-and-shm.yaml", 30_000);
    compare("volumes-and-shm.yaml", 600_000);
}

/// /dev/shm (`tests/golden/shm.yaml`): at 40 s each failing pod runs its
/// second instance with the first in Last State (the bus error's Error /
/// exit 1; OOMKilled / 137), at 10 m they wait in CrashLoopBackOff; the
/// pods with an emptyDir `medium: Memory` show it under Volumes.
#[test]
fn shm_failures_match_kubectl() {
    compare("shm.yaml", 40_000);
    compare("shm.yaml", 600_000);
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
    let described = kubectl_describe(&text, &run, pod, 720_000);
    let (out, requests) = (described.text, described.requests);
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
