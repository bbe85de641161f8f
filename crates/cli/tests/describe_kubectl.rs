//! podlab's `describe pod` compared byte for byte with a real kubectl v1.35
//! describing the same Pod and Event objects, served by a fake API server
//! (kubectl/mod.rs explains how the two clocks are made to agree); and its
//! `describe service` and `get endpointslices` against kubectl given the
//! same Service and EndpointSlice objects (kubectl/services.rs says what
//! each comparison covers); and `get hpa` / `describe hpa` against kubectl
//! given the same autoscaling/v2 objects and their Events
//! (kubectl/autoscalers.rs); and `get deploy`, `get rs` and `describe
//! deployment` against kubectl given the same apps/v1 Deployments,
//! ReplicaSets and their Events (kubectl/deployments.rs); and the command
//! line of `podlab kubectl` (`podlab_core::kubectl::run`): kubectl's own
//! errors and the server's NotFound, `describe pod <prefix>`, `get deploy`
//! and `get rs` (docs/kubectl.md lists what is compared and what is not).
//!
//! Needs `PODLAB_KUBECTL` (set by `cargo xtask test`); without it every test
//! here fails and says so.

mod kubectl;

use std::path::Path;

use kubectl::objects::{self, Clock, EPOCH};
use kubectl::server::{ApiServer, Objects};
use kubectl::KubectlRun;
use kubectl::{autoscalers, deployments, jobs, services};
use kubectl::{line_diff, next_whole_second, run_kubectl, unix_now, write_kubeconfig, TempDir};
use podlab_core::explain::deployment::{
    describe_deployment, get_deployments, get_replica_sets, rollout_status,
};
use podlab_core::explain::describe::describe_pod;
use podlab_core::explain::hpa::{describe_hpa, get_hpa};
use podlab_core::explain::service::{describe_service, endpoint_slices, get_endpointslices};
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
        ..Objects::default()
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

// ---- Services and EndpointSlices -------------------------------------------------

/// What kubectl printed for `args` against the run's Services and their
/// EndpointSlices at `at`, and the requests it made. Nothing printed
/// depends on kubectl's clock: `describe service` shows no time, and the
/// AGE of `get endpointslices` is a cell the (fake) API server computes at
/// `at`.
fn kubectl_services(run: &Run, at: Millis, args: &[&str]) -> (KubectlRun, Vec<String>) {
    let clock = Clock { base: EPOCH };
    let (services, endpoint_slices) = services::served(run, at, clock);
    let table = services::table(&endpoint_slices, clock, at);
    let server = ApiServer::start(Objects {
        services,
        endpoint_slices,
        endpoint_slice_table: Some(table),
        ..Objects::default()
    });
    let dir = TempDir::new("kubectl-svc");
    let kubeconfig = write_kubeconfig(&dir.0, &server);
    let out = run_kubectl(&dir.0, &kubeconfig, args);
    (out, server.requests())
}

/// `kubectl describe service` for every Service of `text` and `kubectl get
/// endpointslices` at each time, podlab against kubectl; returns the
/// failures.
fn compare_services(label: &str, text: &str, times: &[Millis]) -> Vec<String> {
    let mut failures = Vec::new();
    for &at in times {
        let run = sim::simulate(text, &Options { until: Some(at) });
        assert!(!run.services.is_empty(), "{label} has Services");
        for service in &run.services {
            let (out, requests) =
                kubectl_services(&run, at, &["describe", "service", &service.name]);
            assert!(
                out.success,
                "kubectl describe service {} failed:\n{}\nrequests:\n{}",
                service.name,
                out.stderr,
                requests.join("\n")
            );
            // describe lists the slices by the Service's label; a failed
            // list would print `<none>` without failing.
            let wanted = format!(
                "GET /apis/discovery.k8s.io/v1/namespaces/default/endpointslices?labelSelector=kubernetes.io%2Fservice-name%3D{}",
                service.name
            );
            assert!(
                requests.iter().any(|request| request.starts_with(&wanted)),
                "{requests:#?}"
            );
            let podlab = describe_service(&run, service, at);
            if out.stdout != podlab {
                failures.push(format!(
                    "describe service {} ({label} at {} ms) differs from kubectl v1.35 \
                     (- podlab, + kubectl; · is a trailing space):\n{}",
                    service.name,
                    at,
                    line_diff(&podlab, &out.stdout)
                ));
            }
        }
        let (out, requests) = kubectl_services(&run, at, &["get", "endpointslices"]);
        assert!(
            out.success,
            "kubectl get endpointslices failed:\n{}\n{requests:#?}",
            out.stderr
        );
        let podlab = get_endpointslices(&run, &run.services, at);
        if podlab.is_empty() {
            assert_eq!(out.stdout, "", "{label} at {at} ms");
            assert_eq!(out.stderr, "No resources found in default namespace.\n");
        } else if out.stdout != podlab {
            failures.push(format!(
                "get endpointslices ({label} at {at} ms) differs from kubectl v1.35 \
                 (- podlab, + kubectl; · is a trailing space):\n{}",
                line_diff(&podlab, &out.stdout)
            ));
        }
    }
    failures
}

fn golden_text(name: &str) -> String {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/golden")
        .join(name);
    std::fs::read_to_string(&path)
        .unwrap_or_else(|error| panic!("cannot read {}: {error}", path.display()))
}

/// The reference Deployment behind a Service (`service-endpoints.yaml`):
/// at 1 s the controller's placeholder slice (no IP yet: `Endpoints:` is
/// empty, PORTS and ENDPOINTS `<unset>`), at 3 s two endpoints not ready,
/// at 105 s one ready and one not, at 115 s both ready.
#[test]
fn a_service_and_its_endpoint_slices_match_kubectl() {
    let text = golden_text("service-endpoints.yaml");
    let failures = compare_services(
        "service-endpoints.yaml",
        &text,
        &[1_000, 3_000, 105_000, 115_000],
    );
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// Every kind of Service podlab shows, five CPU replicas behind them (`+ 2
/// more...`; describe's `+ 0 more...` quirk, three ready endpoints then a
/// not-ready one, is a unit test of `explain::service`): NodePort with two ports (a named target port, labels, a long and a
/// multi-line annotation), LoadBalancer with `externalTrafficPolicy: Local`
/// (its health-check node port) and the optional fields, a headless
/// Service without ports, ExternalName, a selector that matches nothing, no
/// selector, `publishNotReadyAddresses` with an unnamed port.
#[test]
fn services_of_every_kind_match_kubectl() {
    let failures = compare_services("variants", VARIANTS, &[4_000, 30_000]);
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

const VARIANTS: &str = "\
apiVersion: apps/v1
kind: Deployment
metadata: { name: web }
spec:
  replicas: 5
  selector: { matchLabels: { app: web } }
  template:
    metadata: { labels: { app: web } }
    spec:
      containers:
        - name: web
          image: registry.example.com/web:1.0
          ports: [{ name: web, containerPort: 8080 }]
          readinessProbe:
            httpGet: { path: /ready, port: web }
            periodSeconds: 5
---
apiVersion: v1
kind: Service
metadata:
  name: web-nodeport
  labels: { app: web, tier: front }
  annotations:
    example.com/owner: platform-team
    example.com/description: \"a very long description that goes past the one hundred and forty byte limit of kubectl describe for annotations, so it is folded\"
    example.com/multi: |
      first line
      second line
spec:
  type: NodePort
  selector: { app: web }
  ports:
    - { name: http, port: 80, targetPort: web }
    - { name: metrics, port: 9090, targetPort: 9090, nodePort: 31090 }
---
apiVersion: v1
kind: Service
metadata: { name: web-lb }
spec:
  type: LoadBalancer
  selector: { app: web }
  externalTrafficPolicy: Local
  externalIPs: [203.0.113.10]
  loadBalancerIP: 203.0.113.20
  loadBalancerSourceRanges: [10.0.0.0/8, 192.168.0.0/16]
  sessionAffinity: ClientIP
  trafficDistribution: PreferClose
  ports:
    - { name: https, port: 443, targetPort: 8080, protocol: TCP }
---
apiVersion: v1
kind: Service
metadata: { name: web-headless }
spec:
  clusterIP: None
  selector: { app: web }
---
apiVersion: v1
kind: Service
metadata: { name: web-external }
spec:
  type: ExternalName
  externalName: web.example.com
---
apiVersion: v1
kind: Service
metadata: { name: web-nobody }
spec:
  selector: { app: nobody }
  ports: [{ port: 80 }]
---
apiVersion: v1
kind: Service
metadata: { name: web-manual }
spec:
  ports: [{ name: http, port: 80 }]
---
apiVersion: v1
kind: Service
metadata: { name: web-all }
spec:
  selector: { app: web }
  publishNotReadyAddresses: true
  ports: [{ port: 8080 }]
---
apiVersion: podlab.dev/v1alpha1
kind: Scenario
metadata: { name: variants }
spec:
  workload:
    - container: web
      startup: 20s
      listenPort: 8080
      healthPath: /ready
";

/// A pod being deleted (`cronjob-policies.yaml` at 121 s: Replace deletes
/// the running Job's pod), behind a Service selecting its Job: the
/// endpoint is kept, `ready: false, serving: true, terminating: true`, so
/// describe's Endpoints is empty and get's ENDPOINTS shows the address.
#[test]
fn a_terminating_endpoint_matches_kubectl() {
    let text = format!(
        "{}---
apiVersion: v1
kind: Service
metadata: {{ name: replaced }}
spec:
  selector: {{ job-name: replace-29453761 }}
  ports: [{{ port: 8080 }}]
",
        golden_text("cronjob-policies.yaml")
    );
    let at = 121_000;
    let run = sim::simulate(&text, &Options { until: Some(at) });
    let slices = endpoint_slices(&run, &run.services[0], at);
    let endpoint = &slices[0].endpoints[0];
    assert_eq!(
        (endpoint.ready, endpoint.serving, endpoint.terminating),
        (false, true, true),
        "{slices:#?}"
    );
    let failures = compare_services("cronjob-policies.yaml + Service", &text, &[at]);
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

// ---- HorizontalPodAutoscalers ----------------------------------------------------

/// What kubectl printed for `args` against the run's HPAs and their events
/// at `at` (dates moved onto podlab's epoch), and the simulated "now" just
/// before and after it ran: `describe hpa`'s event ages come from kubectl's
/// clock, so the clocks are made to agree as for `describe pod`.
fn kubectl_autoscalers(run: &Run, at: Millis, args: &[&str]) -> (String, Millis, Millis) {
    assert_eq!(at % 1000, 0, "describe times are whole seconds");
    let at_seconds = i64::try_from(at / 1000).expect("a time in range");
    let dir = TempDir::new("kubectl-hpa");
    for _attempt in 0..5 {
        let second = i64::try_from(next_whole_second()).expect("a time in range");
        let clock = Clock {
            base: second - at_seconds,
        };
        let (hpas, events) = autoscalers::served(run, at, clock);
        let table = autoscalers::table(&hpas, at);
        let server = ApiServer::start(Objects {
            autoscalers: hpas,
            autoscaler_table: Some(table),
            events,
            ..Objects::default()
        });
        let kubeconfig = write_kubeconfig(&dir.0, &server);
        let before = simulated_now(clock.base);
        let out = run_kubectl(&dir.0, &kubeconfig, args);
        let after = simulated_now(clock.base);
        assert!(
            out.success,
            "kubectl {args:?} failed:\n{}\nrequests:\n{}",
            out.stderr,
            server.requests().join("\n")
        );
        if before >= at && after < at + 1000 {
            return (
                objects::shift_dates(&out.stdout, EPOCH - clock.base),
                before,
                after,
            );
        }
    }
    panic!("kubectl took a second or more five times in a row; its ages cannot be compared");
}

/// `get hpa` and `describe hpa` of every HPA of a golden file at each
/// time, podlab against kubectl; returns the failures.
fn compare_autoscalers(golden_file: &str, times: &[Millis]) -> Vec<String> {
    compare_autoscalers_in(golden_file, &golden_text(golden_file), times)
}

/// As [`compare_autoscalers`], for a text made by the test (`golden_file`
/// names it in the failures).
fn compare_autoscalers_in(golden_file: &str, text: &str, times: &[Millis]) -> Vec<String> {
    let mut failures = Vec::new();
    for &at in times {
        let run = sim::simulate(text, &Options { until: Some(at) });
        assert!(!run.autoscalers.is_empty(), "{golden_file} has HPAs");
        let (printed, _, _) = kubectl_autoscalers(&run, at, &["get", "hpa"]);
        let podlab = get_hpa(&run, at);
        if printed != podlab {
            failures.push(format!(
                "get hpa ({golden_file} at {at} ms) differs from kubectl v1.35 \
                 (- podlab, + kubectl; · is a trailing space):\n{}",
                line_diff(&podlab, &printed)
            ));
        }
        for hpa in &run.autoscalers {
            let (printed, before, after) =
                kubectl_autoscalers(&run, at, &["describe", "hpa", &hpa.name]);
            let at_before = describe_hpa(&run, hpa, before);
            let at_after = describe_hpa(&run, hpa, after);
            if printed != at_before && printed != at_after {
                failures.push(format!(
                    "describe hpa {} ({golden_file} at {at} ms) differs from kubectl v1.35 \
                     (- podlab, + kubectl; · is a trailing space):\n{}",
                    hpa.name,
                    line_diff(&at_before, &printed)
                ));
            }
        }
    }
    failures
}

/// A CPU HPA over a load step (`hpa-cpu-step.yaml`): before its first pass
/// (no status: `<unknown>`, `0 current / 0 desired`, no conditions), after
/// the first passes that find no metrics (the failure events, `2 current /
/// 0 desired`), at rest at `minReplicas` and just after the scale-out.
#[test]
fn a_cpu_autoscaler_matches_kubectl() {
    let failures = compare_autoscalers(
        "hpa-cpu-step.yaml",
        &[10_000, 40_000, 120_000, 320_000, 600_000],
    );
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// `behavior` (its `Behavior:` block), a Pods metric, a BinarySI memory
/// target, three metrics (`+ 1 more...`), one the adapter does not serve
/// (`FailedGetPodsMetric` events), scale-ups paced by a Pods policy.
#[test]
fn an_autoscaler_with_behavior_and_three_metrics_matches_kubectl() {
    let failures = compare_autoscalers("hpa-behavior.yaml", &[20_000, 120_000, 420_000]);
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// A memory Resource metric's current average is BinarySI since v1.34
/// (`horizontal.go` `buildQuantity`): `hpa-behavior.yaml` with a steady
/// 68Mi per pod shows `68Mi / 1Gi` in `describe hpa` and `memory:
/// 68Mi/1Gi` in `get hpa`'s TARGETS (the status served in KiB, so that
/// kubectl brings it to `Mi` itself).
#[test]
fn a_memory_autoscaler_prints_binary_quantities_like_kubectl() {
    let text = golden_text("hpa-behavior.yaml").replace(
        "    - container: api\n",
        "    - container: api\n      memory: { steady: 68Mi, peak: 68Mi }\n",
    );
    let failures = compare_autoscalers_in("hpa-behavior.yaml (68Mi)", &text, &[180_000]);
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// An HPA whose target does not exist (`reconcileAutoscaler`'s
/// `FailedGetScale`): `AbleToScale False FailedGetScale` in `describe
/// hpa`, `0 current / 0 desired`, the Warnings, and `<unknown>` TARGETS.
#[test]
fn an_autoscaler_without_its_target_matches_kubectl() {
    let text = golden_text("hpa-cpu-step.yaml").replace(
        "    kind: Deployment\n    name: model-api\n",
        "    kind: Deployment\n    name: model-api-v2\n",
    );
    assert!(text.contains("model-api-v2"));
    let failures = compare_autoscalers_in("hpa-cpu-step.yaml (no target)", &text, &[40_000]);
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// The HPA a KEDA ScaledObject owns (`keda-hpa-model-api`): its External
/// metric `s0-prometheus` as `…/10 (avg)`, `ScalingDisabled` while the
/// target is at 0 (2:20, 2:40, 16:00), the value KEDA serves once it is at
/// 1 and more (6:20).
#[test]
fn a_keda_autoscaler_matches_kubectl() {
    let failures = compare_autoscalers(
        "keda-scale-to-zero.yaml",
        &[140_000, 160_000, 380_000, 960_000],
    );
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

// ---- Deployments -----------------------------------------------------------------

/// What kubectl printed for `args` against the run's Deployments, their
/// ReplicaSets and events at `at` (dates moved onto podlab's epoch), and
/// the simulated "now" just before and after it ran.
fn kubectl_deployments(
    run: &Run,
    source: &str,
    at: Millis,
    args: &[&str],
) -> (String, Millis, Millis) {
    let (out, before, after) = kubectl_deployments_run(run, source, at, args);
    assert!(out.success, "kubectl {args:?} failed:\n{}", out.stderr);
    (out.stdout, before, after)
}

/// As [`kubectl_deployments`], whatever kubectl's exit status: its stdout
/// (dates moved onto podlab's epoch), stderr and success.
fn kubectl_deployments_run(
    run: &Run,
    source: &str,
    at: Millis,
    args: &[&str],
) -> (kubectl::KubectlRun, Millis, Millis) {
    assert_eq!(at % 1000, 0, "describe times are whole seconds");
    let at_seconds = i64::try_from(at / 1000).expect("a time in range");
    let dir = TempDir::new("kubectl-deploy");
    for _attempt in 0..5 {
        let second = i64::try_from(next_whole_second()).expect("a time in range");
        let clock = Clock {
            base: second - at_seconds,
        };
        let (objects, mut replica_sets, mut events) = deployments::served(run, source, at, clock);
        // The pods, for `describe rs` (it counts those it controls, by
        // their ownerReference's uid, which the ReplicaSet then carries),
        // and the ReplicaSets' events.
        let pods: Vec<serde_json::Value> = run
            .pods
            .iter()
            .filter(|pod| pod.exists_at(at))
            .map(|pod| objects::pod(run, pod, at, clock, source))
            .collect();
        for rs in &mut replica_sets {
            let name = rs["metadata"]["name"].clone();
            let owned = pods
                .iter()
                .find(|pod| pod["metadata"]["ownerReferences"][0]["name"] == name);
            if let Some(pod) = owned {
                rs["metadata"]["uid"] = pod["metadata"]["ownerReferences"][0]["uid"].clone();
            }
            let uid = rs["metadata"]["uid"]
                .as_str()
                .unwrap_or_default()
                .to_string();
            let name = name.as_str().unwrap_or_default().to_string();
            events.extend(jobs::events_about(
                run,
                &format!("ReplicaSet/{name}"),
                "apps/v1",
                &uid,
                at,
                clock,
            ));
        }
        let server = ApiServer::start(Objects {
            pods,
            deployment_table: Some(deployments::deployment_table(run, &objects, at)),
            replica_set_table: Some(deployments::replica_set_table(run, &replica_sets, at)),
            deployments: objects,
            replica_sets,
            events,
            ..Objects::default()
        });
        let kubeconfig = write_kubeconfig(&dir.0, &server);
        let before = simulated_now(clock.base);
        let mut out = run_kubectl(&dir.0, &kubeconfig, args);
        let after = simulated_now(clock.base);
        if !out.success && out.stderr.is_empty() {
            panic!(
                "kubectl {args:?} failed silently; requests:\n{}",
                server.requests().join("\n")
            );
        }
        if before >= at && after < at + 1000 {
            out.stdout = objects::shift_dates(&out.stdout, EPOCH - clock.base);
            return (out, before, after);
        }
    }
    panic!("kubectl took a second or more five times in a row; its ages cannot be compared");
}

/// `get deploy`, `get rs` and `describe deployment` of every Deployment of
/// `text` at each time, podlab against kubectl; returns the failures.
fn compare_deployments(label: &str, text: &str, times: &[Millis]) -> Vec<String> {
    let mut failures = Vec::new();
    for &at in times {
        let run = sim::simulate(text, &Options { until: Some(at) });
        assert!(!run.deployments.is_empty(), "{label} has Deployments");
        let diff = |what: &str, podlab: &str, printed: &str| {
            format!(
                "{what} ({label} at {at} ms) differs from kubectl v1.35 \
                 (- podlab, + kubectl; · is a trailing space):\n{}",
                line_diff(podlab, printed)
            )
        };
        for (args, podlab) in [
            (["get", "deploy"], get_deployments(&run, at)),
            (["get", "rs"], get_replica_sets(&run, at)),
        ] {
            let (printed, _, _) = kubectl_deployments(&run, text, at, &args);
            if printed != podlab {
                failures.push(diff(&args.join(" "), &podlab, &printed));
            }
        }
        let context = podlab_core::exercise::exec::ExecContext::new(text, &run);
        for (_, rs) in podlab_core::explain::deployment::replica_sets_at(&run, at) {
            let line = format!("describe rs {}", rs.name);
            let args: Vec<&str> = line.split_whitespace().collect();
            let (printed, before, after) = kubectl_deployments(&run, text, at, &args);
            let at_before = podlab_core::kubectl::run(&context, &line, before).stdout;
            let at_after = podlab_core::kubectl::run(&context, &line, after).stdout;
            if printed != at_before && printed != at_after {
                failures.push(diff(&line, &at_before, &printed));
            }
        }
        for deployment in &run.deployments {
            let (printed, before, after) = kubectl_deployments(
                &run,
                text,
                at,
                &["describe", "deployment", &deployment.name],
            );
            let at_before = describe_deployment(&run, deployment, before);
            let at_after = describe_deployment(&run, deployment, after);
            if printed != at_before && printed != at_after {
                failures.push(diff("describe deployment", &at_before, &printed));
            }
        }
    }
    failures
}

/// `kubectl rollout status deployment/NAME --watch=false` at each time:
/// what the status viewer says of the Deployment as served (one line, on
/// stdout, exit 0; the deadline as `error: …` on stderr, exit 1), against
/// `explain::deployment::rollout_status`. With `--watch=false` kubectl
/// decides on the object its ListWatch lists, so the test server's empty
/// watch stream changes nothing (`pkg/cmd/rollout/rollout_status.go`).
/// Returns the failures and the lines compared.
fn compare_rollout_status(label: &str, text: &str, times: &[Millis]) -> (Vec<String>, Vec<String>) {
    let (mut failures, mut compared) = (Vec::new(), Vec::new());
    for &at in times {
        let run = sim::simulate(text, &Options { until: Some(at) });
        for deployment in &run.deployments {
            let target = format!("deployment/{}", deployment.name);
            let (out, _, _) = kubectl_deployments_run(
                &run,
                text,
                at,
                &["rollout", "status", &target, "--watch=false"],
            );
            let (line, _) = rollout_status(&run, &deployment.name, at)
                .expect("a Deployment of the run has a status");
            // client-go's klog lines (`I1205 11:44:15.139062 … "Warning:
            // watch ended with error" … very short watch`) are about the
            // test server's empty watch stream, not kubectl's answer.
            let stderr: String = out
                .stderr
                .lines()
                .filter(|l| !is_klog_line(l))
                .map(|l| format!("{l}\n"))
                .collect();
            let (printed, podlab_success) = match line.strip_prefix("error: ") {
                Some(_) => (stderr, false),
                None => (out.stdout.clone(), true),
            };
            compared.push(line.clone());
            if printed != format!("{line}\n") || out.success != podlab_success {
                failures.push(format!(
                    "rollout status ({label} at {at} ms): podlab {line:?} (success {podlab_success}), \
                     kubectl v1.35 stdout {:?} stderr {:?} (success {})",
                    out.stdout, out.stderr, out.success
                ));
            }
        }
    }
    (failures, compared)
}

/// A klog header: severity, `MMDD`, a space (`I1205 11:44:15.139062 …`).
fn is_klog_line(line: &str) -> bool {
    let bytes = line.as_bytes();
    bytes.len() > 6
        && matches!(bytes[0], b'I' | b'W' | b'E')
        && bytes[1..5].iter().all(u8::is_ascii_digit)
        && bytes[5] == b' '
}

/// A Deployment `model-api` of `replicas` pods rolled out to 0.3.2 at 60 s
/// (crates/core/tests/rollouts.rs's text).
fn rolled_deployment(replicas: u32, extra: &str, resources: &str, cluster: &str) -> String {
    format!(
        "apiVersion: apps/v1
kind: Deployment
metadata: {{ name: model-api }}
spec:
  replicas: {replicas}
{extra}  selector: {{ matchLabels: {{ app: model-api }} }}
  template:
    metadata: {{ labels: {{ app: model-api, tier: serving }} }}
    spec:
      containers:
        - name: api
          image: registry.example.com/model-api:0.3.1
          ports: [{{ name: http, containerPort: 8080 }}]{resources}
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

/// 4 replicas with the defaults and `minReadySeconds: 10`: before the
/// rollout, at its instant (two ReplicaSets, the surge), in the middle
/// (73 s: 5 total, 2 unavailable) and after it (the old ReplicaSet at 0
/// is still listed: `OldReplicaSets: <rs> (0/0 replicas created)`).
#[test]
fn a_rolling_update_matches_kubectl() {
    let text = rolled_deployment(
        4,
        "  minReadySeconds: 10\n",
        "\n          resources: { requests: { cpu: 500m, memory: 1Gi } }",
        "",
    );
    let mut failures = compare_deployments("4 replicas", &text, &[30_000, 60_000, 73_000, 300_000]);
    // Every message of the rolling update: done before it (30 s), the new
    // ReplicaSet's pods being created (60 s), old ones pending termination
    // or updated ones not yet available (73 s: minReadySeconds 10), done.
    let (more, lines) = compare_rollout_status(
        "4 replicas",
        &text,
        &[30_000, 60_000, 66_000, 73_000, 80_000, 300_000],
    );
    failures.extend(more);
    for kind in [
        "new replicas have been updated",
        "old replicas are pending termination",
        "successfully rolled out",
    ] {
        assert!(
            lines.iter().any(|line| line.contains(kind)),
            "no '{kind}' among {lines:?}"
        );
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// The GPU trap: 2 replicas × 1 GPU on a node of 2 GPUs, the surge pod
/// Pending, `Progressing False ProgressDeadlineExceeded` at 661 s.
#[test]
fn the_gpu_trap_at_its_deadline_matches_kubectl() {
    let text = rolled_deployment(
        2,
        "",
        "\n          resources: { limits: { nvidia.com/gpu: 1 } }",
        "  cluster:\n    nodePools: [{ name: gpu, count: 1, cpu: \"16\", memory: 64Gi, gpu: { model: A100-80GB, count: 2 } }]\n",
    );
    let mut failures = compare_deployments("the GPU trap", &text, &[120_000, 700_000]);
    // Waiting on the Pending surge pod, then the deadline's error (exit 1).
    let (more, lines) = compare_rollout_status("the GPU trap", &text, &[120_000, 700_000]);
    failures.extend(more);
    assert!(
        lines
            .iter()
            .any(|line| line.contains("exceeded its progress deadline")),
        "{lines:?}"
    );
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// The GPU trap unstuck by a `patch` of the strategy at 5 m (`maxSurge: 0,
/// maxUnavailable: 1`, PL507's fix), the new image set by a recorded
/// `set image` at 60 s: describe deployment|rs and get before the patch,
/// just after it (the strategy changed, no new ReplicaSet) and once the
/// rollout has completed, as kubectl prints the served objects.
#[test]
fn a_patched_strategy_matches_kubectl() {
    let text = rolled_deployment(
        2,
        "",
        "\n          resources: { limits: { nvidia.com/gpu: 1 } }",
        "  cluster:\n    nodePools: [{ name: gpu, count: 1, cpu: \"16\", memory: 64Gi, gpu: { model: A100-80GB, count: 2 } }]\n",
    );
    let rollout = "  rollout:\n    - { at: 60s, workload: model-api, image: registry.example.com/model-api:0.3.2 }\n";
    assert!(text.contains(rollout));
    let text = text.replace(
        rollout,
        "  actions:\n    - { at: 60s, patch: { deployment: model-api, spec: { template: { spec: { containers: [{ name: api, image: registry.example.com/model-api:0.3.2 }] } } } } }\n    - { at: 5m, patch: { deployment: model-api, spec: { strategy: { rollingUpdate: { maxSurge: 0, maxUnavailable: 1 } } } } }\n",
    );
    let failures = compare_deployments("the GPU trap patched", &text, &[120_000, 301_000, 700_000]);
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

// ---- `podlab kubectl`'s command line -----------------------------------------------

/// What the core's kubectl line (`podlab_core::kubectl::run`, what `podlab
/// kubectl` and the terminal print) answers, next to what kubectl v1.35
/// printed for the same words against the run's objects at `at`.
fn both(golden_file: &str, at: Millis, line: &str) -> (podlab_core::kubectl::Output, KubectlRun) {
    let (text, run) = golden(golden_file, at);
    let context = podlab_core::exercise::exec::ExecContext::new(&text, &run);
    let podlab = podlab_core::kubectl::run(&context, line, at);
    let clock = Clock { base: EPOCH };
    let server = ApiServer::start(served(&text, &run, at, clock));
    let dir = TempDir::new("kubectl-line");
    let kubeconfig = write_kubeconfig(&dir.0, &server);
    let args: Vec<&str> = line.split_whitespace().collect();
    (podlab, run_kubectl(&dir.0, &kubeconfig, &args))
}

/// kubectl's own refusals and the API server's NotFound, podlab's line
/// against the real binary: same stdout (empty), same stderr, same status.
#[test]
fn kubectl_line_errors_match_kubectl() {
    for line in [
        "get frob",
        "describe frob model-api",
        "get pods nothing",
        "describe pod nothing",
        "describe pods nothing",
        "logs --prevous model-api",
        "get pods --prevous",
        "get pods -z",
        "logs",
        "logs nothing",
        "exec nothing",
        "exec -it",
        "describe",
        "get pods -o foo",
        "logs model-api --tail abc",
        "get jobs nope",
        "get jobs",
        "describe job nope",
        "describe jobs",
        "get cj nope",
        "describe cronjob nope",
        "describe rs nope",
        "get jobs -o foo",
        "get pods -o jsonpath={.a",
        "get pods -o jsonpath=",
        "get pods -o custom-columns=A",
        "get pods -o custom-columns=",
        "get frob -o jsonpath={#}",
        "get pod p -l a=b",
        "get pod p -l a=b -o jsonpath={#}",
        "get pods,frob",
        "get pods -l a=b,",
        "get svc nope",
    ] {
        let (podlab, kubectl) = both("crash-loop-liveness-40s.yaml", 720_000, line);
        assert_eq!(podlab.stdout, kubectl.stdout, "{line}");
        assert_eq!(podlab.stderr, kubectl.stderr, "{line}");
        assert_eq!(podlab.exit_code == 0, kubectl.success, "{line}");
    }
}

/// `describe pod <prefix>`: kubectl asks for the name, gets NotFound, lists
/// the pods and describes each whose name starts so, each followed by a
/// newline (`DescribeMatchingResources`); podlab's line prints the same
/// bytes. At 12 m the Events' ages are whole minutes, the same whichever
/// wall-clock second kubectl ran in (no sub-second event near a turn).
#[test]
fn describe_by_prefix_matches_kubectl() {
    let at = 720_000;
    let (text, run) = golden("crash-loop-liveness-40s.yaml", at);
    let context = podlab_core::exercise::exec::ExecContext::new(&text, &run);
    let pod = &run.pods[0];
    let described = kubectl_describe(&text, &run, pod, at);
    assert!(mismatch(&run, pod, &described).is_none());
    let podlab = podlab_core::kubectl::run(&context, &format!("describe pod {}", pod.name), at);
    assert_eq!(podlab.stdout, described.text);
    let dir = TempDir::new("kubectl-prefix");
    for _attempt in 0..5 {
        let second = i64::try_from(next_whole_second()).expect("a time in range");
        let clock = Clock { base: second - 720 };
        let server = ApiServer::start(served(&text, &run, at, clock));
        let kubeconfig = write_kubeconfig(&dir.0, &server);
        let out = run_kubectl(&dir.0, &kubeconfig, &["describe", "pod", "model"]);
        let after = simulated_now(clock.base);
        assert!(out.success, "{}", out.stderr);
        if after < at + 1000 {
            let printed = objects::shift_dates(&out.stdout, EPOCH - clock.base);
            let podlab = podlab_core::kubectl::run(&context, "describe pod model", at);
            assert_eq!(
                podlab.stdout,
                printed,
                "{}",
                line_diff(&podlab.stdout, &printed)
            );
            assert!(printed.ends_with("\n\n"), "{printed}");
            return;
        }
    }
    panic!("kubectl took a second or more five times in a row");
}

/// `get deploy` through podlab's line against kubectl given the Deployments
/// (the 4-replica rolling update in its middle).
#[test]
fn get_deploy_line_matches_kubectl() {
    let text = rolled_deployment(4, "  minReadySeconds: 10\n", "", "");
    let at = 73_000;
    let run = sim::simulate(&text, &Options { until: Some(at) });
    let context = podlab_core::exercise::exec::ExecContext::new(&text, &run);
    for line in ["get deploy", "get rs"] {
        let args: Vec<&str> = line.split_whitespace().collect();
        let (printed, _, _) = kubectl_deployments(&run, &text, at, &args);
        let podlab = podlab_core::kubectl::run(&context, line, at);
        assert_eq!(
            podlab.stdout,
            printed,
            "{line}\n{}",
            line_diff(&podlab.stdout, &printed)
        );
    }
}

// ---- Jobs and CronJobs -------------------------------------------------------------

/// What kubectl printed for `args` against the run's Jobs and CronJobs and
/// their events at `at` (stdout's dates moved onto podlab's epoch), and
/// the simulated "now" just before and after it ran.
fn kubectl_jobs(
    run: &Run,
    source: &str,
    at: Millis,
    args: &[&str],
) -> (KubectlRun, Millis, Millis) {
    assert_eq!(at % 1000, 0, "times are whole seconds");
    let at_seconds = i64::try_from(at / 1000).expect("a time in range");
    let workloads = podlab_core::manifest::read::read(source).workloads;
    let dir = TempDir::new("kubectl-jobs");
    for _attempt in 0..5 {
        let second = i64::try_from(next_whole_second()).expect("a time in range");
        let clock = Clock {
            base: second - at_seconds,
        };
        let (jobs, crons, events) = jobs::served(run, &workloads, source, at, clock);
        let server = ApiServer::start(Objects {
            job_table: Some(jobs::job_table(&jobs, at, clock)),
            cron_job_table: Some(jobs::cron_job_table(&crons, at, clock)),
            jobs,
            cron_jobs: crons,
            events,
            ..Objects::default()
        });
        let kubeconfig = write_kubeconfig(&dir.0, &server);
        let before = simulated_now(clock.base);
        let mut out = run_kubectl(&dir.0, &kubeconfig, args);
        let after = simulated_now(clock.base);
        if before >= at && after < at + 1000 {
            out.stdout = objects::shift_dates(&out.stdout, EPOCH - clock.base);
            return (out, before, after);
        }
    }
    panic!("kubectl took a second or more five times in a row; its ages cannot be compared");
}

/// `get jobs`, `get cronjobs`, `describe job` and `describe cronjob` of
/// every Job and CronJob of a golden file at each time, through podlab's
/// line, against kubectl v1.35 given the same objects: stdout, stderr and
/// success. Returns the failures and how many lines were compared.
fn compare_jobs(golden_file: &str, times: &[Millis]) -> (Vec<String>, usize) {
    let text = golden_text(golden_file);
    let workloads = podlab_core::manifest::read::read(&text).workloads;
    let mut failures = Vec::new();
    let mut compared = 0;
    for &at in times {
        let run = sim::simulate(&text, &Options { until: Some(at) });
        let context = podlab_core::exercise::exec::ExecContext::new(&text, &run);
        let mut lines = vec![
            "get jobs".to_string(),
            "get cronjobs".to_string(),
            "get jobs -o wide".to_string(),
            "get cronjobs -o wide".to_string(),
            // Without a name: every object, separated by a blank line.
            "describe jobs".to_string(),
            "describe cronjobs".to_string(),
        ];
        for job in run.jobs.iter().filter(|job| job.exists_at(at)) {
            lines.push(format!("describe job {}", job.name));
            lines.push(format!("get job {}", job.name));
        }
        for cron in workloads
            .iter()
            .filter(|w| w.kind == podlab_core::manifest::model::WorkloadKind::CronJob)
        {
            lines.push(format!("describe cronjob {}", cron.name));
        }
        for line in &lines {
            let args: Vec<&str> = line.split_whitespace().collect();
            let (printed, before, after) = kubectl_jobs(&run, &text, at, &args);
            compared += 1;
            let matches = [before, after].iter().any(|&now| {
                let podlab = podlab_core::kubectl::run(&context, line, now);
                podlab.stdout == printed.stdout
                    && podlab.stderr == printed.stderr
                    && (podlab.exit_code == 0) == printed.success
            });
            if !matches {
                let podlab = podlab_core::kubectl::run(&context, line, before);
                failures.push(format!(
                    "{line} ({golden_file} at {at} ms) differs from kubectl v1.35 \
                     (- podlab, + kubectl; · is a trailing space):\n{}stderr: podlab {:?}, kubectl {:?}",
                    line_diff(&podlab.stdout, &printed.stdout),
                    podlab.stderr,
                    printed.stderr
                ));
            }
        }
    }
    (failures, compared)
}

/// The Jobs of `job-completions-deadline.yaml`: both running (5 s), two of
/// `batch`'s pods counted (13 s), `slow` past its deadline (30 s), both
/// finished (60 s: `slow`'s DURATION still growing).
#[test]
fn jobs_with_completions_and_a_deadline_match_kubectl() {
    let (failures, compared) = compare_jobs(
        "job-completions-deadline.yaml",
        &[5_000, 13_000, 30_000, 60_000],
    );
    assert!(compared >= 20, "{compared}");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// Four CronJobs: none has run yet (59 s: LAST SCHEDULE `<none>`), the
/// first Jobs (61 s), Replace having deleted its Jobs and Forbid skipping
/// (200 s), the history limit deleting old Jobs (420 s).
#[test]
fn cronjobs_and_their_jobs_match_kubectl() {
    let (failures, _) = compare_jobs("cronjob-policies.yaml", &[59_000, 61_000, 200_000, 420_000]);
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// Failing Jobs: `Never` pods replaced after the back-off until the limit,
/// `OnFailure` restarts; and the GPU Job that frees the node.
#[test]
fn failing_jobs_and_a_gpu_job_match_kubectl() {
    let mut failures = Vec::new();
    for (file, times) in [
        ("job-never-backoff.yaml", &[30_000, 120_000, 900_000][..]),
        ("job-onfailure-restarts.yaml", &[30_000, 900_000][..]),
        ("gpu-job-frees-capacity.yaml", &[10_000, 60_000][..]),
    ] {
        failures.extend(compare_jobs(file, times).0);
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

// ---- `get pod -o yaml|json` ---------------------------------------------------------

/// `kubectl get pod NAME -o yaml` and `-o json`, and `get pods -o yaml|json`
/// (kubectl's `v1` `List`), from the real kubectl given the core's Pod
/// objects (`explain::pod_object`, the same objects every `describe pod`
/// comparison above serves), against podlab's line, byte for byte. Nothing
/// printed depends on kubectl's clock, so the objects carry podlab's epoch.
fn compare_get_objects(golden_file: &str, at: Millis) -> Vec<String> {
    let (text, run) = golden(golden_file, at);
    let context = podlab_core::exercise::exec::ExecContext::new(&text, &run);
    let clock = Clock { base: EPOCH };
    let mut objects = served(&text, &run, at, clock);
    // The API server lists the pods that exist, by name.
    let mut existing: Vec<&PodRun> = run.pods.iter().filter(|pod| pod.exists_at(at)).collect();
    existing.sort_by(|a, b| a.name.cmp(&b.name));
    objects.pods = existing
        .iter()
        .map(|pod| objects::pod(&run, pod, at, clock, &text))
        .collect();
    let server = ApiServer::start(objects);
    let dir = TempDir::new("kubectl-get-yaml");
    let kubeconfig = write_kubeconfig(&dir.0, &server);
    let mut lines = vec![
        "get pods -o yaml".to_string(),
        "get pods -o json".to_string(),
    ];
    for pod in &existing {
        lines.push(format!("get pod {} -o yaml", pod.name));
        lines.push(format!("get pod {} -o json", pod.name));
    }
    let mut failures = Vec::new();
    for line in &lines {
        let args: Vec<&str> = line.split_whitespace().collect();
        let printed = run_kubectl(&dir.0, &kubeconfig, &args);
        assert!(printed.success, "kubectl {line} failed: {}", printed.stderr);
        let podlab = podlab_core::kubectl::run(&context, line, at);
        if podlab.stdout != printed.stdout || podlab.exit_code != 0 {
            failures.push(format!(
                "{line} ({golden_file} at {}s) differs from kubectl v1.35 (- podlab, + kubectl):\n{}",
                at / 1000,
                line_diff(&podlab.stdout, &printed.stdout)
            ));
        }
    }
    failures
}

#[test]
fn get_pod_yaml_and_json_match_kubectl() {
    let cases: &[(&str, &[Millis])] = &[
        ("crash-loop-liveness-40s.yaml", &[10_000, 720_000]),
        ("image-pull-and-config.yaml", &[30_000, 200_000]),
        ("probe-latency.yaml", &[120_000]),
        ("gpu-memory-at-run-time.yaml", &[120_000]),
        ("init-containers.yaml", &[64_000, 300_000, 420_000]),
        ("cronjob-policies.yaml", &[121_000]),
        ("volumes-and-shm.yaml", &[30_000, 600_000]),
        ("shm.yaml", &[40_000, 600_000]),
        ("reference-one-gpu.yaml", &[900_000]),
    ];
    let mut failures = Vec::new();
    for (file, times) in cases {
        for at in *times {
            failures.extend(compare_get_objects(file, *at));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

// ---- `get pods [-o wide]` and `get events` ------------------------------------------

/// `get pods`, `get pods -o wide`, `get pod NAME [-o wide]`, `get events`,
/// `--sort-by=.lastTimestamp` and `--field-selector involvedObject.name=P`
/// through podlab's line against kubectl, the server's Tables built from
/// the served objects by an independent port of `printPod`/`printEvent`
/// (kubectl/tables.rs), on the goldens and times of the `-o yaml` test.
#[test]
fn get_pods_and_events_match_kubectl() {
    let cases: &[(&str, &[Millis])] = &[
        ("crash-loop-liveness-40s.yaml", &[10_000, 45_000, 720_000]),
        ("image-pull-and-config.yaml", &[30_000, 200_000]),
        ("probe-latency.yaml", &[120_000]),
        ("gpu-memory-at-run-time.yaml", &[120_000]),
        ("init-containers.yaml", &[64_000, 300_000, 420_000]),
        ("cronjob-policies.yaml", &[121_000]),
        ("volumes-and-shm.yaml", &[30_000, 600_000]),
        ("shm.yaml", &[40_000, 600_000]),
        ("reference-one-gpu.yaml", &[900_000]),
    ];
    let mut failures = Vec::new();
    for (file, times) in cases {
        for at in *times {
            let (text, run) = golden(file, *at);
            failures.extend(kubectl::lines::compare_tables(file, &text, &run, *at));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// `describe node` byte for byte with kubectl v1.35.2, for every node by
/// name, all nodes, and each pool's name as a prefix (kubectl/nodes.rs):
/// the reference's GPU node with its pod and two Pending pods at 15 m, the
/// GPU-sharing pools (time-slicing, MPS, MIG mixed, L4) at 120 s, a tainted
/// GPU pool with DaemonSet and StatefulSet pods, init containers' requests
/// (the largest init container against the containers' sum) while they run
/// and after, and the crash loop at 12 m (heartbeats past two 5-minute
/// reports).
#[test]
fn describe_node_matches_kubectl() {
    let cases: &[(&str, &[Millis])] = &[
        ("reference-one-gpu.yaml", &[900_000]),
        ("gpu-memory-at-run-time.yaml", &[120_000]),
        ("daemonset-statefulset-placement.yaml", &[60_000]),
        ("init-containers.yaml", &[30_000, 300_000]),
        ("crash-loop-liveness-40s.yaml", &[720_000]),
    ];
    let mut failures = Vec::new();
    for (file, times) in cases {
        for at in *times {
            let (text, run) = golden(file, *at);
            failures.extend(kubectl::nodes::compare(file, &text, &run, *at));
        }
    }
    // A node drained at 30 s (`Unschedulable: true`, the lifecycle
    // controller's taint, `SchedulingDisabled`), the other uncordoned again.
    let text = format!(
        "{}\n  actions:\n    - {{ at: 30s, drain: {{ node: cpu-0 }} }}\n    - {{ at: 40s, cordon: {{ node: cpu-1 }} }}\n    - {{ at: 50s, uncordon: {{ node: cpu-1 }} }}\n",
        golden_text("daemonset-statefulset-placement.yaml").trim_end()
    );
    for at in [45_000, 60_000] {
        let run = sim::simulate(&text, &Options { until: Some(at) });
        assert!(run.cordoned_at("cpu-0", at));
        failures.extend(kubectl::nodes::compare("drained", &text, &run, at));
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// What kubectl reads for `describe node`: the node, its pods by field
/// selector across namespaces, its events by uid and by name, its Lease;
/// the served node carries the pool's taint and the device plugin's GPUs.
#[test]
fn describe_node_reads_the_node_its_pods_events_and_lease() {
    let (text, run) = golden("daemonset-statefulset-placement.yaml", 60_000);
    let requests = kubectl::nodes::requests_for(&text, &run, 60_000, "gpu-0");
    let asked = |part: &str| requests.iter().any(|request| request.contains(part));
    assert!(asked("/api/v1/nodes/gpu-0"), "{requests:#?}");
    assert!(
        asked("/apis/coordination.k8s.io/v1/namespaces/kube-node-lease/leases/gpu-0"),
        "{requests:#?}"
    );
    assert!(
        asked("/api/v1/pods?fieldSelector=spec.nodeName%3Dgpu-0"),
        "{requests:#?}"
    );
    assert_eq!(
        requests
            .iter()
            .filter(|r| r.starts_with("GET /api/v1/events?"))
            .count(),
        2,
        "{requests:#?}"
    );
    let node = kubectl::nodes::node_json(&text, &run, 60_000, "gpu-0").expect("served");
    assert_eq!(node["spec"]["taints"][0]["effect"], "NoSchedule");
    assert_eq!(node["status"]["allocatable"]["nvidia.com/gpu"], "1");
}

/// A pod's requests on `describe node` as kubectl's `PodRequestsAndLimits`
/// adds them: the largest init container (plus the sidecars declared
/// before it) against the containers' and sidecars' sum, requests copied
/// from limits, limits only where written; quantities summed in mixed
/// formats (`6G` next to `512Mi`: 6536870912, as Go adds them); percentages truncated from Go's float
/// (7 CPUs: 2 of them is 28.57 %, printed 28). Compared with kubectl while
/// the init container runs and after.
#[test]
fn describe_node_adds_requests_as_kubectl_does() {
    let text = r#"apiVersion: v1
kind: Pod
metadata: { name: sized }
spec:
  initContainers:
    - name: download
      image: busybox:1.36
      resources: { requests: { cpu: "2", memory: 6Gi } }
    - name: proxy
      image: envoyproxy/envoy:v1.33.0
      restartPolicy: Always
      resources: { requests: { cpu: 250m, memory: 512Mi }, limits: { memory: 1Gi } }
  containers:
    - name: server
      image: vllm/vllm-openai:v0.8.5
      resources:
        requests: { cpu: "1", memory: 6G }
        limits: { cpu: "3", memory: 8Gi, nvidia.com/gpu: 1 }
---
apiVersion: v1
kind: Pod
metadata: { name: small }
spec:
  containers:
    - name: app
      image: nginx:1.27
      resources: { limits: { cpu: 300m, memory: 1536Mi } }
---
apiVersion: podlab.dev/v1alpha1
kind: Scenario
metadata: { name: node-requests }
spec:
  duration: 5m
  workload:
    - container: download
      runFor: 20s
    - container: server
      startup: 10s
    - container: app
      startup: 1s
  cluster:
    nodePools:
      - name: gpu
        cpu: "7"
        memory: 30Gi
        gpu: { model: L4, count: 1 }
"#;
    let mut failures = Vec::new();
    for at in [10_000, 120_000] {
        let run = sim::simulate(text, &Options { until: Some(at) });
        assert_eq!(run.pods.len(), 2, "both pods run");
        failures.extend(kubectl::nodes::compare("node-requests", text, &run, at));
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// `get pods -w` (also `-o wide`, and with a NAME for every pod) byte for
/// byte with kubectl v1.35.2 reading a watch stream of the rows podlab
/// prints (kubectl/lines.rs `compare_watch`): the crash loop from 10 s
/// (restarts, Error, CrashLoopBackOff, the RESTARTS column widening past
/// the header), CronJobs from 30 s (no pod at T: the header comes with the
/// first row; Jobs' pods created and deleted), init containers from 30 s.
#[test]
fn get_pods_watch_matches_kubectl() {
    let cases: &[(&str, Millis)] = &[
        ("crash-loop-liveness-40s.yaml", 10_000),
        ("cronjob-policies.yaml", 30_000),
        ("init-containers.yaml", 30_000),
    ];
    let mut failures = Vec::new();
    for (file, at) in cases {
        let (text, _) = golden(file, *at);
        // The whole run: the watch goes on past T.
        let run = sim::simulate(&text, &Options::default());
        failures.extend(kubectl::lines::compare_watch(file, &text, &run, *at));
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// The read forms of issue 33 item 3 (`-l` in every form, `-A`,
/// `--no-headers`, `--show-labels`, `-o name`, `-o jsonpath=`, `-o
/// custom-columns=`, their errors) through podlab's line against kubectl
/// v1.35.2 given the same objects, the fake server applying the label
/// selector as the API server does (kubectl/lines.rs `read_form_lines`),
/// on the goldens and times of the `get pods` comparison.
#[test]
fn get_pods_read_forms_match_kubectl() {
    let cases: &[(&str, &[Millis])] = &[
        ("crash-loop-liveness-40s.yaml", &[10_000, 720_000]),
        ("image-pull-and-config.yaml", &[30_000]),
        ("init-containers.yaml", &[64_000, 420_000]),
        ("cronjob-policies.yaml", &[121_000]),
        ("reference-one-gpu.yaml", &[900_000]),
    ];
    let mut failures = Vec::new();
    for (file, times) in cases {
        for at in *times {
            let (text, run) = golden(file, *at);
            failures.extend(kubectl::lines::compare_read_forms(file, &text, &run, *at));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// `get svc`, `get svc NAME`, `-o wide` and `get pods,svc` (each type's
/// table apart, names as `TYPE/NAME`) through podlab's line against kubectl
/// v1.35.2 (kubectl/lines.rs `compare_services`): Services of every kind
/// with their pods, an autoscaled Deployment's Service, and a run without
/// Services.
#[test]
fn get_services_and_pods_with_services_match_kubectl() {
    let cases: &[(&str, &[Millis])] = &[
        ("service-endpoints.yaml", &[30_000, 120_000]),
        ("hpa-cpu-step.yaml", &[200_000]),
        ("crash-loop-liveness-40s.yaml", &[720_000]),
    ];
    let mut failures = Vec::new();
    for (file, times) in cases {
        for at in *times {
            let (text, run) = golden(file, *at);
            failures.extend(kubectl::lines::compare_services(file, &text, &run, *at));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// `get configmaps`, `get secrets` and each by name (NAME, [TYPE,] DATA,
/// AGE; values never shown) through podlab's line against kubectl v1.35.2
/// (kubectl/lines.rs `compare_config_objects`): a ConfigMap with `data` and
/// `binaryData`, an Opaque Secret with `data` and `stringData` sharing a
/// key, a TLS Secret, and `kube-root-ca.crt`; and a file without any (the
/// crash loop: `kube-root-ca.crt` alone, no Secrets).
#[test]
fn get_configmaps_and_secrets_match_kubectl() {
    let text = r#"apiVersion: v1
kind: ConfigMap
metadata:
  name: model-config
  labels: { app: model-api, tier: serving }
  annotations: { team: ml, note: "two words" }
data:
  MODEL_NAME: llama
  MAX_BATCH: "8"
  a-first: one
  z-last: last
  config.yaml: |
    model: llama
    batch:
      max: 8
binaryData:
  vocab.bin: AAEC
  tokenizer.bin: AAECAwQFBgc=
---
apiVersion: v1
kind: ConfigMap
metadata: { name: empty }
---
apiVersion: v1
kind: Secret
metadata: { name: hf-token }
data:
  token: c2VjcmV0
  b-key: c2VjcmV0
stringData:
  token: other
  user: me
  unicode: "台灣"
---
apiVersion: v1
kind: Secret
metadata: { name: model-credentials, labels: { app: model-api } }
---
apiVersion: v1
kind: Secret
metadata: { name: robot-token }
type: kubernetes.io/service-account-token
data:
  token: ZXlKaGJHY2lPaUpTVXpJMU5pSjk=
  namespace: ZGVmYXVsdA==
---
apiVersion: v1
kind: Secret
metadata: { name: tls }
type: kubernetes.io/tls
data:
  tls.crt: Y3J0
  tls.key: a2V5
---
apiVersion: v1
kind: Pod
metadata: { name: api }
spec:
  containers:
    - name: api
      image: vllm/vllm-openai:v0.8.5
      envFrom:
        - configMapRef: { name: model-config }
"#;
    let mut failures = Vec::new();
    for at in [30_000, 720_000] {
        let run = sim::simulate(text, &Options { until: Some(at) });
        failures.extend(kubectl::lines::compare_config_objects(
            "configs", text, &run, at,
        ));
    }
    let (crash, run) = golden("crash-loop-liveness-40s.yaml", 720_000);
    failures.extend(kubectl::lines::compare_config_objects(
        "crash loop",
        &crash,
        &run,
        720_000,
    ));
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// Each line through podlab's line and the real kubectl, each against a
/// fresh server holding the objects at `at` (kubectl/acts.rs); a diff for
/// each that differs. kubectl evicts a drain's pods in goroutines, so the
/// order of its `evicting`/`evicted` lines varies: stdout is compared as a
/// sorted set of lines, after checking the first and last lines.
fn compare_acts(label: &str, text: &str, at: Millis, lines: &[String]) -> Vec<String> {
    let run = sim::simulate(text, &Options { until: Some(at) });
    let context = podlab_core::exercise::exec::ExecContext::new(text, &run);
    fn sorted(out: &str) -> ((Option<&str>, Option<&str>), Vec<&str>) {
        let mut lines: Vec<&str> = out.lines().collect();
        let ends = (lines.first().copied(), lines.last().copied());
        lines.sort_unstable();
        (ends, lines)
    }
    let mut failures = Vec::new();
    for line in lines {
        let (printed, _) = kubectl::acts::kubectl_acts(text, &run, at, line);
        let podlab = podlab_core::kubectl::run(&context, line, at);
        if sorted(&podlab.stdout) != sorted(&printed.stdout)
            || podlab.stderr != printed.stderr
            || (podlab.exit_code == 0) != printed.success
        {
            failures.push(format!(
                "{line} ({label} at {at} ms) differs from kubectl v1.35 (- podlab, + kubectl):\n{}stderr: podlab {:?}, kubectl {:?}; exit: podlab {}, kubectl success {}",
                line_diff(&podlab.stdout, &printed.stdout),
                podlab.stderr,
                printed.stderr,
                podlab.exit_code,
                printed.success,
            ));
        }
    }
    failures
}

fn strings(lines: &[&str]) -> Vec<String> {
    lines.iter().map(|line| line.to_string()).collect()
}

/// `delete pod` in each form, `cordon`, `uncordon` and `drain` on the
/// article's crash loop at 12 m, as kubectl v1.35 prints them.
#[test]
fn the_acting_commands_on_the_crash_loop_match_kubectl() {
    let text = golden_text("crash-loop-liveness-40s.yaml");
    let run = sim::simulate(
        &text,
        &Options {
            until: Some(720_000),
        },
    );
    let name = run.pods[0].name.clone();
    let mut lines: Vec<String> = [
        "delete pod {}",
        "delete pod/{}",
        "delete pods {} --grace-period=0 --force",
        "delete pod {} --force",
        "delete pod {} --grace-period=5",
        "delete pod {} --grace-period=0",
        "delete pod {} --now",
        "delete pod {} nope",
        "delete pod {} -n other",
        "delete pod {} --force --grace-period=5",
    ]
    .iter()
    .map(|form| form.replace("{}", &name))
    .collect();
    lines.extend(strings(&[
        "delete pod nope",
        "delete pods",
        "delete",
        "cordon gpu-0",
        "uncordon gpu-0",
        "cordon nope",
        "cordon",
        "drain gpu-0",
        "drain gpu-0 --ignore-daemonsets",
        "drain nope --ignore-daemonsets",
        "drain",
    ]));
    let failures = compare_acts("crash loop", &text, 720_000, &lines);
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    // A node cordoned at 1 m: cordon again, uncordon, drain.
    let cordoned = format!(
        "{}\n  actions:\n    - {{ at: 1m, cordon: {{ node: gpu-0 }} }}\n",
        text.trim_end()
    );
    let lines = strings(&[
        "cordon gpu-0",
        "uncordon gpu-0",
        "drain gpu-0 --ignore-daemonsets",
    ]);
    let failures = compare_acts("cordoned at 1m", &cordoned, 720_000, &lines);
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// drain's filters: DaemonSet pods (refused, or ignored with a warning),
/// pods without a controller (`--force`), local storage
/// (`--delete-emptydir-data`, whose warning the next filter drops), and
/// several pods evicted together; several names at once.
#[test]
fn drain_filters_and_several_names_match_kubectl() {
    let text = golden_text("daemonset-statefulset-placement.yaml");
    let lines = strings(&[
        "drain cpu-0",
        "drain cpu-0 --ignore-daemonsets",
        "drain cpu-1 --ignore-daemonsets",
        "drain gpu-0 --ignore-daemonsets",
        "drain gpu-0 --ignore-daemonsets --force",
        "delete pod db-0 db-1 nope",
        "delete pod/db-0 pod/db-2",
        "delete pod/db-0 db-1",
        "delete pod pod/db-0",
        "cordon cpu-0 cpu-1",
        "uncordon cpu-0 nope",
    ]);
    let failures = compare_acts("placement", &text, 120_000, &lines);
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    let text = golden_text("shm.yaml");
    let lines = strings(&[
        "drain cpu-0 --ignore-daemonsets --force",
        "drain cpu-0 --force --delete-emptydir-data",
    ]);
    let failures = compare_acts("shm", &text, 30_000, &lines);
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// `kubectl scale` of a Deployment and of its ReplicaSet, several names,
/// and its refusals, as kubectl v1.35 prints them.
#[test]
fn scale_matches_kubectl() {
    let text = golden_text("crash-loop-liveness-40s.yaml");
    let run = sim::simulate(
        &text,
        &Options {
            until: Some(720_000),
        },
    );
    let rs = run.deployments[0].replica_sets[0].name.clone();
    let mut lines = strings(&[
        "scale deployment model-api --replicas=3",
        "scale deploy/model-api --replicas=0",
        "scale deployment nope --replicas=3",
        "scale deployment model-api nope --replicas=2",
        "scale deployment model-api",
        "scale --replicas=2",
        "scale deployment --replicas=2",
        "scale deployment model-api --replicas=-1",
        "scale deployment model-api --replicas=x",
    ]);
    lines.push(format!("scale rs {rs} --replicas=2"));
    let failures = compare_acts("crash loop", &text, 720_000, &lines);
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// `kubectl rollout restart` by name, all Deployments, a missing one and
/// its refusal, as kubectl v1.35 prints them.
#[test]
fn rollout_restart_matches_kubectl() {
    let text = golden_text("crash-loop-liveness-40s.yaml");
    let lines = strings(&[
        "rollout restart deployment model-api",
        "rollout restart deployment/model-api",
        "rollout restart deploy model-api nope",
        "rollout restart deployment nope",
        "rollout restart deployment",
        "rollout restart",
    ]);
    let mut failures = compare_acts("crash loop", &text, 720_000, &lines);
    // A text without Deployments.
    let text = golden_text("daemonset-statefulset-placement.yaml");
    let lines = strings(&[
        "rollout restart deployment",
        "rollout restart deployment db",
    ]);
    failures.extend(compare_acts("placement", &text, 60_000, &lines));
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// `set resources`, `set image` and `patch` of the article's Deployment at
/// 12 m, each form and each refusal, as kubectl v1.35.2 prints them
/// against a server that applies the patch (kubectl/server.rs `merge`):
/// `resource requirements updated`, `image updated`, nothing for a change
/// that changes nothing, `patched`, `patched (no change)`.
#[test]
fn the_set_and_patch_commands_match_kubectl() {
    let text = golden_text("crash-loop-liveness-40s.yaml");
    let probe = r#"'{"spec":{"template":{"spec":{"containers":[{"name":"api","startupProbe":{"httpGet":{"path":"/health","port":8000},"failureThreshold":30}}]}}}}'"#;
    let lines = strings(&[
        "set resources deployment model-api -c api --limits=memory=12Gi",
        "set resources deploy/model-api --limits=memory=12Gi,cpu=2 --requests=memory=8Gi",
        "set resources deployment model-api -c 'a*' --requests=cpu=500m",
        "set resources deployment model-api -c nope --limits=memory=1Gi",
        "set resources deployment model-api",
        "set resources deployment model-api --limits=memory",
        "set resources deployment model-api --limits=memory=lots",
        "set resources deployment nope --limits=memory=1Gi",
        "set image deployment/model-api api=registry.example.com/model-api:0.4.0",
        "set image deployment model-api api=registry.example.com/model-api:0.3.1",
        "set image deployment/model-api nope=x:1",
        "set image deployment/model-api *=x:2",
        "set image deployment/model-api",
        &format!("patch deployment model-api -p {probe}"),
        r#"patch deploy model-api -p '{"spec":{"replicas":1}}'"#,
        r#"patch deployment model-api --type merge -p '{"spec":{"replicas":2}}'"#,
        "patch deployment/model-api -p 'spec: {replicas: 3}'",
        r#"patch deployment nope -p '{"spec":{"replicas":2}}'"#,
        "patch deployment model-api",
        r#"patch deployment model-api --type foo -p '{}'"#,
    ]);
    let failures = compare_acts("crash loop", &text, 720_000, &lines);
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// `rollout undo` after a recorded `set image` at 3 m, at 12 m, against a
/// server holding both ReplicaSets with their revision annotations (the
/// rollback's JSON patch applied, kubectl/server.rs `json_patch`); and on
/// the crash loop alone, which has one revision.
#[test]
fn rollout_undo_matches_kubectl() {
    let golden = golden_text("crash-loop-liveness-40s.yaml");
    let text = format!(
        "{}\n  actions:\n    - {{ at: 3m, patch: {{ deployment: model-api, spec: {{ template: {{ spec: {{ containers: [{{ name: api, image: registry.example.com/model-api:0.4.0 }}] }} }} }} }} }}\n",
        golden.trim_end()
    );
    let lines = strings(&[
        "rollout undo deployment model-api",
        "rollout undo deployment/model-api --to-revision=2",
        "rollout undo deployment/model-api --to-revision=1",
        "rollout undo deployment/model-api --to-revision=7",
        "rollout undo deployment nope",
        "rollout undo",
        "rollout history deployment/model-api",
        "rollout history deployment model-api nope",
    ]);
    let mut failures = compare_acts("set image at 3m", &text, 720_000, &lines);
    failures.extend(compare_acts(
        "crash loop",
        &golden,
        720_000,
        &strings(&[
            "rollout undo deployment model-api",
            "rollout history deployment/model-api",
        ]),
    ));
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// `kubectl get all` through podlab's line against kubectl v1.35.2
/// expanding the `all` category through the fake server's discovery
/// (kubectl/lines.rs `compare_all`): pods, a Service, a Deployment with its
/// ReplicaSet and an HPA; CronJobs with their Jobs and pods; Jobs alone;
/// a pod alone; the crash loop's Deployment; a DaemonSet and a
/// StatefulSet; each with `-o wide`, `-n other`, `-w` (kubectl's
/// refusal), and `get deploy|rs -o wide`, `get ds`, `get sts -o wide`.
#[test]
fn get_all_matches_kubectl() {
    let cases: &[(&str, &[Millis])] = &[
        ("hpa-cpu-step.yaml", &[10_000, 200_000, 600_000]),
        ("service-endpoints.yaml", &[30_000, 120_000]),
        ("cronjob-policies.yaml", &[30_000, 121_000]),
        ("job-completions-deadline.yaml", &[5_000, 60_000]),
        ("gpu-job-frees-capacity.yaml", &[30_000]),
        ("crash-loop-liveness-40s.yaml", &[720_000]),
        ("oom-at-loading-peak.yaml", &[60_000]),
        ("daemonset-statefulset-placement.yaml", &[10_000, 60_000]),
    ];
    let mut failures = Vec::new();
    let mut compared = 0;
    for (file, times) in cases {
        for at in *times {
            let (text, run) = golden(file, *at);
            let (failed, lines) = kubectl::lines::compare_all(file, &text, &run, *at);
            failures.extend(failed);
            compared += lines;
        }
    }
    assert_eq!(compared, 126, "9 lines on each of 14 runs");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// A template's annotations are the pods' (`describe pod`'s
/// `Annotations:` through `printAnnotationsMultiline`: sorted, a long
/// value under its key), and a restarted Deployment's new pods carry
/// `kubectl.kubernetes.io/restartedAt`, as kubectl v1.35.2 prints them
/// from the served pods.
#[test]
fn pod_annotations_and_a_restart_match_kubectl() {
    let long = "x".repeat(150);
    let text = format!(
        "apiVersion: apps/v1\nkind: Deployment\nmetadata: {{ name: model-api }}\nspec:\n  replicas: 1\n  selector: {{ matchLabels: {{ app: model-api }} }}\n  template:\n    metadata:\n      labels: {{ app: model-api }}\n      annotations:\n        prometheus.io/scrape: \"true\"\n        example.com/note: {long}\n    spec:\n      containers:\n        - name: api\n          image: registry.example.com/model-api:0.3.1\n---\napiVersion: podlab.dev/v1alpha1\nkind: Scenario\nmetadata: {{ name: annotated }}\nspec:\n  workload:\n    - container: api\n      startup: 20s\n  actions:\n    - {{ at: 2m, restart: {{ deployment: model-api }} }}\n"
    );
    let at = 240_000;
    let run = sim::simulate(&text, &Options { until: Some(at) });
    let restarted = run
        .pods
        .iter()
        .find(|pod| pod.created >= 120_000)
        .expect("the restart's pod");
    assert!(restarted
        .annotations
        .iter()
        .any(|(key, _)| key == "kubectl.kubernetes.io/restartedAt"));
    let mut failures = Vec::new();
    for pod in &run.pods {
        let described = kubectl_describe(&text, &run, pod, at);
        assert!(
            described.text.contains("prometheus.io/scrape: true"),
            "{}",
            described.text
        );
        if let Some(diff) = mismatch(&run, pod, &described) {
            failures.push(format!("describe pod {}:\n{diff}", pod.name));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// `kubectl label` and `kubectl annotate` of the article's pod, its node
/// and its Deployment at 12 m, each form and each refusal, as kubectl
/// v1.35.2 prints them against a server that applies the merge patch and
/// checks the keys (kubectl/server.rs `invalid_metadata`): `labeled`, `not
/// labeled`, `unlabeled`, `label "K" not found.`, the overwrite errors,
/// kubectl's value check and the server's key check, NotFound.
#[test]
fn label_and_annotate_match_kubectl() {
    let text = golden_text("crash-loop-liveness-40s.yaml");
    let run = sim::simulate(
        &text,
        &Options {
            until: Some(720_000),
        },
    );
    let pod = run.pods[0].name.clone();
    let long = "v".repeat(64);
    let forms = [
        "label pod {} team=ml",
        "label pod/{} team=ml tier=gpu",
        "label pod {} app=other",
        "label pod {} app=other team=ml --overwrite",
        "label pod {} app=model-api",
        "label pod {} app-",
        "label pod {} app- --overwrite",
        "label pod {} nope-",
        "label pod {} team=ml nope-",
        "label pod {} team=bad_",
        "label pod {} team=LONG",
        "label pod {} a=b=c",
        "label pod {} a=b a-",
        "label pod {}",
        "label pod {} a=b extra",
        "label pod {} nope a=b",
        "label pod {} nope app=x",
        "label pod {} nope 'Bad Key=x'",
        "annotate pod {} nope a=1",
        "label pod {} 'Bad Key=x'",
        "label pod {} example.com/team=ml",
        "label pod {} a=b -n other",
        "annotate pod {} note=hello",
        "annotate pod {} note='two words' a=1",
        "annotate pod {} note-",
        "annotate pod {} a=1 a-",
        "annotate pod {}",
        "annotate pod {} 'Bad Key=x'",
        "annotate pod {} a=1 extra",
    ];
    let mut lines: Vec<String> = forms
        .iter()
        .map(|form| form.replace("{}", &pod).replace("LONG", &long))
        .collect();
    lines.extend(strings(&[
        "label pod a=b",
        "label a=b",
        "label pod nope a=b",
        "label pod nope other a=b",
        "label node gpu-0 accelerator=nvidia-a100",
        "label node gpu-0 kubernetes.io/hostname=other",
        "label nodes gpu-0 nope team=ml",
        "label node/gpu-0 kubernetes.io/arch- --overwrite",
        "label deployment model-api team=ml",
        "label deploy/model-api team-",
        "label deployment nope team=ml",
        "annotate node gpu-0 node.alpha.kubernetes.io/ttl=5",
        "annotate node gpu-0 node.alpha.kubernetes.io/ttl=5 --overwrite",
        "annotate deployment model-api deployment.kubernetes.io/revision=9",
        "annotate deployment model-api note=x",
        "annotate deploy/model-api kubernetes.io/change-cause=fix",
    ]));
    let mut failures = compare_acts("crash loop", &text, 720_000, &lines);
    // A bare pod without labels: the API server stores none (`omitempty`),
    // so even removing an absent key adds `labels: {}` and kubectl says
    // `labeled`.
    let bare = golden_text("oom-at-loading-peak.yaml");
    let lines = strings(&[
        "label pod trainer gone-",
        "label pod trainer team=ml",
        "annotate pod trainer note=x",
    ]);
    failures.extend(compare_acts("bare pod", &bare, 60_000, &lines));
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// What recorded `label`/`annotate` actions leave, read as kubectl v1.35.2
/// reads the served objects: at 5 m, after a label and an annotation on
/// the crash loop's pod at 1 m, a node label and annotation at 2 m and the
/// pod relabelled out of its ReplicaSet at 3 m, `describe pod` of the
/// orphan (no `Controlled By`) and of its replacement, `get pods -l …`,
/// `--show-labels`, `describe node`, `get nodes --show-labels`, the
/// overwrite error naming the recorded value, and `drain`, which refuses
/// the orphan as a pod that declares no controller.
#[test]
fn recorded_labels_and_annotations_match_kubectl() {
    let golden = golden_text("crash-loop-liveness-40s.yaml");
    let first = sim::simulate(
        &golden,
        &Options {
            until: Some(60_000),
        },
    );
    let pod = first.pods[0].name.clone();
    let text = format!(
        "{}\n  actions:\n    - {{ at: 1m, label: {{ pod: {pod}, labels: {{ team: ml }} }} }}\n    - {{ at: 1m, annotate: {{ pod: {pod}, annotations: {{ note: hello }} }} }}\n    - {{ at: 2m, label: {{ node: gpu-0, labels: {{ accelerator: nvidia-a100 }} }} }}\n    - {{ at: 2m, annotate: {{ node: gpu-0, annotations: {{ maintenance: friday }} }} }}\n    - {{ at: 3m, label: {{ pod: {pod}, labels: {{ app: debug }} }} }}\n",
        golden.trim_end()
    );
    let at = 300_000;
    let run = sim::simulate(&text, &Options { until: Some(at) });
    assert!(run.action_errors.is_empty(), "{:?}", run.action_errors);
    assert_eq!(run.pods.len(), 2, "the orphan and its replacement");
    let mut failures = Vec::new();
    for pod in &run.pods {
        let described = kubectl_describe(&text, &run, pod, at);
        if let Some(diff) = mismatch(&run, pod, &described) {
            failures.push(format!("describe pod {}:\n{diff}", pod.name));
        }
    }
    assert!(
        !kubectl_describe(&text, &run, &run.pods[0], at)
            .text
            .contains("Controlled By"),
        "the released pod has no controller"
    );
    failures.extend(kubectl::lines::compare_read_forms(
        "labelled", &text, &run, at,
    ));
    failures.extend(kubectl::nodes::compare("labelled", &text, &run, at));
    failures.extend(compare_acts(
        "labelled",
        &text,
        at,
        &[
            format!("label pod {pod} team=other"),
            format!("label pod {pod} app=model-api"),
            format!("annotate pod {pod} note=bye"),
            "label node gpu-0 accelerator=other".to_string(),
            "annotate node gpu-0 maintenance-".to_string(),
            // The orphan declares no controller: drain refuses it.
            "drain gpu-0 --ignore-daemonsets".to_string(),
            "drain gpu-0 --ignore-daemonsets --force".to_string(),
        ],
    ));
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
