//! The traffic engine on timelines whose every number can be worked out by
//! hand (uniform arrivals, fixed service), then its properties and the
//! queueing theory it must agree with.

use super::arrivals::{ArrivalClock, Rng};
use super::*;
use crate::manifest::read::read;
use crate::manifest::scenario::Arrivals;
use crate::sim::Options;

/// A one-replica Deployment behind a Service, the container's program
/// loading in 20 s; `probe` is the readinessProbe block (or nothing) and
/// `scenario` the Scenario's `spec` lines after `workload:`'s entry.
fn text(probe: &str, serve: &str, traffic: &str) -> String {
    format!(
        "\
apiVersion: v1
kind: Service
metadata: {{name: model-api}}
spec:
  selector: {{app: model-api}}
  ports: [{{port: 80, targetPort: 8000}}]
---
apiVersion: apps/v1
kind: Deployment
metadata: {{name: model-api}}
spec:
  replicas: 1
  selector: {{matchLabels: {{app: model-api}}}}
  template:
    metadata: {{labels: {{app: model-api}}}}
    spec:
      containers:
        - name: api
          image: registry.example.com/model-api:1.0
          ports: [{{containerPort: 8000}}]
{probe}
---
apiVersion: podlab.dev/v1alpha1
kind: Scenario
metadata: {{name: t}}
spec:
  duration: 2m
  workload:
    - container: api
      startup: 20s
      serve: {serve}
  traffic: {traffic}
"
    )
}

const PROBE: &str = "          readinessProbe:
            httpGet: {path: /health, port: 8000}
            periodSeconds: 1";

fn run_of(text: &str, trace: bool) -> (Run, TrafficRun) {
    let reading = read(text);
    assert!(
        reading
            .diagnostics
            .iter()
            .all(|d| d.severity != crate::diagnostic::Severity::Error),
        "{:?}",
        reading.diagnostics
    );
    let run = crate::sim::simulate_reading(&reading, reading.seed, &Options::default());
    let traffic = simulate_traffic(&reading, &run, reading.seed, TrafficOptions { trace })
        .expect("the Scenario sends traffic");
    assert_eq!(
        run.traffic.as_ref().map(|t| &t.windows),
        Some(&traffic.windows)
    );
    (run, traffic)
}

/// The first time the pod was Ready, in ms.
fn ready_at(run: &Run) -> Millis {
    pod_ready_intervals(&run.pods[0])[0].0
}

fn ms(micros: Option<u64>) -> Option<u64> {
    micros.map(|m| m / 1000)
}

#[test]
fn a_replica_with_room_answers_every_request_in_its_service_time() {
    // 10 requests/s, evenly spaced: request k arrives at k × 100 ms.
    // One slot, 50 ms each: no request ever waits.
    let text = text(
        PROBE,
        "{concurrency: 1, latency: 50ms}",
        "{service: model-api, rate: [{at: 0s, rps: 10}], arrivals: uniform}",
    );
    let (run, traffic) = run_of(&text, true);
    let ready = ready_at(&run);
    // The container loads for 20 s from its start; the readiness probe
    // (period 1 s, answered in the program's 20 ms) sees it ready within
    // the next second, and kube-proxy routes to it 1 s later.
    let started = run.pods[0].containers[0].instances[0].started;
    assert!(
        (started + 20_000..started + 21_100).contains(&ready),
        "started at {started}, ready at {ready}"
    );
    let routed = ready + 1000;
    // Every arrival before `routed` found no endpoint: arrivals at
    // 100, 200, … ms strictly before it (and at it: a change applies
    // before an arrival at the same instant).
    let before = (routed - 1) / 100;
    let total = traffic.stats(0, 120_000);
    assert_eq!(total.failed(Failure::NoEndpoints), before);
    // The rest (up to the last arrival before 2 min, the 1199th) were
    // served in exactly 50 ms; the one at 119.95 s… does not exist:
    // arrivals end at 119.9 s, whose answer comes at 119.95 s.
    assert_eq!(total.arrived, 1199);
    assert_eq!(total.served, 1199 - before);
    assert_eq!(ms(total.p50), Some(50));
    assert_eq!(ms(total.p99), Some(50));
    // Each served request was answered 50 ms after it arrived, by pod 0.
    assert!(traffic
        .trace
        .iter()
        .all(|&(pod, a, _, d)| pod == 0 && d - a == 50_000));
    // Capacity: 1 slot / 50 ms = 20 requests/s once routed.
    assert_eq!(traffic.capacity_at(routed), 20_000);
    assert_eq!(traffic.capacity_at(routed - 1), 0);
}

#[test]
fn an_overloaded_replica_queues_then_refuses_past_its_queue_limit() {
    // 10 requests/s evenly, one slot of 150 ms: 6.67/s served. Ready
    // endpoint from R; the first routed request starts at once; request n
    // (n = 0, 1, …) of the routed ones arrives at a₀ + 100n and starts when
    // the slot frees, at a₀ + 150n, so it waits 50n ms: latency 150 + 50n.
    // With queueLimit 3, request n is refused when 3 are already waiting.
    let text = text(
        PROBE,
        "{concurrency: 1, latency: 150ms, queueLimit: 3}",
        "{service: model-api, rate: [{at: 0s, rps: 10}], arrivals: uniform}",
    );
    let (run, traffic) = run_of(&text, true);
    let routed = ready_at(&run) + 1000;
    let first = routed.div_ceil(100) * 100;
    let served: Vec<(u64, u64)> = traffic
        .trace
        .iter()
        .map(|&(_, a, _, d)| (a / 1000, (d - a) / 1000))
        .collect();
    // By hand: arrivals a₀, a₀+100, … ; slot free at a₀+150n.
    // n=0: 150 ms. n=1 arrives +100, starts +150, ends +300: 200 ms.
    // n=2: arrives +200, starts +300: 250 ms. n=3: +300 → +450: 300 ms.
    assert_eq!(served[0], (first, 150));
    assert_eq!(served[1], (first + 100, 200));
    assert_eq!(served[2], (first + 200, 250));
    assert_eq!(served[3], (first + 300, 300));
    // Waiting at a₀ + 100k: the arrivals after the one in service that
    // have not started. At +600 (k=6) the slot holds n=4 (started +600,
    // an instant before: ends first), n=5 and n=6 wait... The queue is
    // full (3 waiting) from the first arrival that finds 3 waiting:
    // waiting just before arrival k = k − ⌊k·100/150⌋ − 1 ≥ 3 → k = 12.
    let refused = traffic.stats(0, 120_000).failed(Failure::QueueFull);
    assert!(refused > 0);
    // From then on, a steady state: 2 of every 3 arrivals are served
    // (6.67/s), 1 refused (3.33/s), from the 12th arrival (+1.1 s) to the
    // end.
    let after = (120_000 - first - 1100) as f64 / 1000.0;
    let expected = after * 10.0 / 3.0;
    assert!(
        (refused as f64 - expected).abs() < 3.0,
        "refused {refused}, expected about {expected}"
    );
    // Latency is bounded by the full queue: 3 waiting ahead + own
    // 150 ms ≤ 4 × 150 = 600 ms.
    assert!(ms(traffic.stats(0, 120_000).p99).unwrap() <= 600);
}

#[test]
fn without_a_readiness_probe_requests_reach_a_loading_model_and_fail() {
    // No readinessProbe: the pod is Ready as soon as the container runs
    // (traffic-autoscaling.md §4.2), kube-proxy routes to it 1 s later, and
    // every request until the model has loaded (20 s after the start) is
    // refused: NotReady.
    let text = text(
        "",
        "{concurrency: 4, latency: 50ms}",
        "{service: model-api, rate: [{at: 0s, rps: 10}], arrivals: uniform}",
    );
    let (run, traffic) = run_of(&text, false);
    let started = run.pods[0].containers[0].instances[0].started;
    assert_eq!(ready_at(&run), started, "Ready when it runs");
    let routed = started + 1000;
    let loaded = started + 20_000;
    let count = |from: Millis, to: Millis| (to - 1) / 100 - (from - 1) / 100;
    let total = traffic.stats(0, 120_000);
    assert_eq!(total.failed(Failure::NoEndpoints), count(1, routed));
    assert_eq!(total.failed(Failure::NotReady), count(routed, loaded));
    assert_eq!(total.failed_total(), count(1, loaded));
    // With the probe, the same requests find no endpoint instead, and none
    // reaches the loading model.
    let probed = super::tests::text(
        PROBE,
        "{concurrency: 4, latency: 50ms}",
        "{service: model-api, rate: [{at: 0s, rps: 10}], arrivals: uniform}",
    );
    let (_, traffic) = run_of(&probed, false);
    assert_eq!(traffic.stats(0, 120_000).failed(Failure::NotReady), 0);
}

#[test]
fn batching_waits_at_most_max_wait_and_serves_a_batch_in_latency_plus_per_item() {
    // 100 requests/s evenly (every 10 ms), batches of up to 4 waiting at
    // most 25 ms, one slot: a batch of b takes 40 + (b − 1) × 10 ms.
    // The first routed request waits 25 ms for company: by then the
    // arrivals at +10 and +20 have joined (3 requests; the one at +30 is
    // too late): the batch takes 60 ms, ending at +85. Latencies: 85, 75,
    // 65 ms.
    let text = text(
        PROBE,
        "{concurrency: 1, latency: 40ms, batching: {maxBatch: 4, maxWait: 25ms, perItem: 10ms}}",
        "{service: model-api, rate: [{at: 0s, rps: 100}], arrivals: uniform}",
    );
    let (_, traffic) = run_of(&text, true);
    let lat: Vec<u64> = traffic
        .trace
        .iter()
        .take(3)
        .map(|&(_, a, _, d)| (d - a) / 1000)
        .collect();
    assert_eq!(lat, [85, 75, 65]);
    // At +85 the slot frees with +30…+80 waiting (6): a full batch of 4
    // (+30, +40, +50, +60) starts at once, 70 ms, ending at +155.
    let next: Vec<u64> = traffic.trace[3..7]
        .iter()
        .map(|&(_, a, _, d)| (d - a) / 1000)
        .collect();
    assert_eq!(next, [125, 115, 105, 95]);
    // Capacity: 4 per 70 ms = 57.1 requests/s: it keeps up with 100/s? No:
    // the queue grows until the default limit (100) refuses the excess.
    assert!(traffic.stats(0, 120_000).failed(Failure::QueueFull) > 0);
}

#[test]
fn the_client_gives_up_after_its_timeout() {
    // 10/s for a replica that serves 2/s (one slot, 500 ms), a 2 s client
    // timeout and room for 1000 waiting: the queue grows 8/s and every
    // request that would wait past 2 s fails as Timeout; none served takes
    // longer than 2 s.
    let text = text(
        PROBE,
        "{concurrency: 1, latency: 500ms, queueLimit: 1000}",
        "{service: model-api, rate: [{at: 0s, rps: 10}], arrivals: uniform, timeout: 2s}",
    );
    let (_, traffic) = run_of(&text, false);
    let total = traffic.stats(0, 120_000);
    assert!(total.failed(Failure::Timeout) > 500);
    assert!(ms(total.p99).unwrap() <= 2000);
    assert_eq!(total.failed(Failure::QueueFull), 0);
}

#[test]
fn a_service_that_selects_nothing_refuses_everything() {
    let text = text(
        PROBE,
        "{}",
        "{service: model-api, rate: [{at: 0s, rps: 5}], arrivals: uniform}",
    )
    .replace("selector: {app: model-api}", "selector: {app: other}");
    let (_, traffic) = run_of(&text, false);
    let total = traffic.stats(0, 120_000);
    assert_eq!(total.failed(Failure::NoEndpoints), total.arrived);
    assert!(traffic.pods.is_empty());
}

#[test]
fn rate_steps_and_ramps() {
    let steps = |text: &str| read(&text_with(text)).scenario.traffic.unwrap().rate;
    fn text_with(traffic: &str) -> String {
        format!("apiVersion: podlab.dev/v1alpha1\nkind: Scenario\nspec:\n  traffic: {traffic}\n")
    }
    let rate =
        steps("{rate: [{at: 0s, rps: 20, ramp: true}, {at: 10s, rps: 120}, {at: 20s, rps: 2.5}]}");
    assert_eq!(rate_at(&rate, 0), 20_000);
    assert_eq!(rate_at(&rate, 5_000), 70_000);
    assert_eq!(rate_at(&rate, 15_000), 120_000);
    assert_eq!(rate_at(&rate, 30_000), 2_500);
    // Uniform arrivals over the ramp: Λ(10 s) = (20 + 120)/2 × 10 = 700.
    let mut clock = ArrivalClock::new(&rate, Arrivals::Uniform, 10_000_000);
    let mut rng = Rng(1);
    let mut n = 0;
    while clock.next(&mut rng).is_some() {
        n += 1;
    }
    assert_eq!(n, 699);
}

#[test]
fn ln_is_the_natural_logarithm() {
    for &x in &[
        1e-300, 1e-10, 0.001, 0.1, 0.5, 0.7072, 1.0, 1.5, 2.0, 10.0, 12345.678,
    ] {
        let ours = ln(x);
        let std = x.ln();
        assert!(
            (ours - std).abs() <= 4.0 * f64::EPSILON * std.abs().max(1.0),
            "{x}: {ours} vs {std}"
        );
    }
    assert_eq!(ln(1.0), 0.0);
    assert_eq!(ln(0.0), f64::NEG_INFINITY);
}

#[test]
fn percentiles_are_nearest_rank() {
    let mut values: Vec<u32> = (1..=100).rev().collect();
    assert_eq!(percentile(&mut values, 50), Some(50));
    assert_eq!(percentile(&mut values, 99), Some(99));
    let mut one = vec![7];
    assert_eq!(percentile(&mut one, 99), Some(7));
    assert_eq!(percentile(&mut [], 50), None);
}

/// `select` (the quickselect behind `percentile`) gives the k-th smallest
/// as sorting would, on shuffled values with runs of duplicates, for every
/// k, and on already sorted and reversed input.
#[test]
fn select_agrees_with_sorting() {
    let mut state: u64 = 0x9e37_79b9_7f4a_7c15;
    let mut next = move || {
        state = state
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        (state >> 33) as u32
    };
    for len in [1usize, 2, 3, 5, 8, 17, 64, 101] {
        for modulus in [1u32, 3, 10, 1000] {
            let values: Vec<u32> = (0..len).map(|_| next() % modulus).collect();
            let mut sorted = values.clone();
            sorted.sort_unstable();
            for (k, &expected) in sorted.iter().enumerate() {
                let mut work = values.clone();
                assert_eq!(select(&mut work, k), expected, "{values:?} k={k}");
            }
        }
    }
    let mut ascending: Vec<u32> = (0..1000).collect();
    assert_eq!(select(&mut ascending, 990), 990);
    let mut descending: Vec<u32> = (0..1000).rev().collect();
    assert_eq!(select(&mut descending, 10), 10);
}

#[test]
fn no_request_is_served_by_a_pod_kube_proxy_did_not_route_to() {
    // Two replicas, one crash-looping on its liveness probe (killed
    // mid-load), Poisson arrivals: every served request arrived while its
    // pod was Ready (and not terminating) as kube-proxy knew it, that is
    // `propagation` (1 s) earlier — the serving-terminating fallback aside,
    // which needs a deleted pod.
    let text = text(
        "          readinessProbe:
            httpGet: {path: /health, port: 8000}
            periodSeconds: 1
          livenessProbe:
            httpGet: {path: /health, port: 8000}
            periodSeconds: 5
            failureThreshold: 2",
        "{concurrency: 2, latency: 80ms, distribution: exponential}",
        "{service: model-api, rate: [{at: 0s, rps: 30}, {at: 60s, rps: 5}], arrivals: poisson}",
    )
    .replace("replicas: 1", "replicas: 2")
    .replace("startup: 20s", "startup: 8s");
    let (run, traffic) = run_of(&text, true);
    assert!(traffic.trace.len() > 500);
    for &(pod, arrival, start, answer) in &traffic.trace {
        let seen = (arrival / 1000).saturating_sub(1000);
        let ready = pod_ready_intervals(&run.pods[pod]);
        assert!(
            ready.iter().any(|&(from, to)| from <= seen && seen < to),
            "pod {pod} served a request arriving at {arrival} µs, not Ready at {seen} ms: {ready:?}"
        );
        assert!(arrival <= start && start < answer);
    }
}

/// Erlang C: the probability that an arrival waits in an M/M/c queue with
/// offered load a = λ/μ (traffic-autoscaling.md §7).
fn erlang_c(c: u32, a: f64) -> f64 {
    let mut sum = 0.0;
    let mut term = 1.0; // a^k / k!
    for k in 0..c {
        if k > 0 {
            term *= a / f64::from(k);
        }
        sum += term;
    }
    let top = term * a / f64::from(c) * f64::from(c) / (f64::from(c) - a);
    top / (sum + top)
}

#[test]
fn random_routing_over_n_replicas_gives_the_erlang_c_waiting_times() {
    // λ = 32/s Poisson spread at random over n = 2 Ready replicas of c = 2
    // slots with exponential service of mean 100 ms (μ = 10/s): each is an
    // M/M/2 queue fed 16/s, a = 1.6, ρ = 0.8. Erlang C gives
    // C = 6.4 / 9 = 0.711, P(Wq > t) = C·e^{−(cμ − λ/n)t} = C·e^{−4t}:
    // P(no wait) = 0.289, P50(Wq) = ln(C/0.5)/4 = 88 ms,
    // P95(Wq) = ln(C/0.05)/4 = 664 ms, P99(Wq) = ln(C/0.01)/4 = 1066 ms.
    // Tolerance: 3 points on P(no wait), 10 % on the percentiles, over two
    // simulated hours (≈ 230,000 requests).
    let text = text(
        PROBE,
        "{concurrency: 2, latency: 100ms, distribution: exponential, queueLimit: 100000}",
        "{service: model-api, rate: [{at: 0s, rps: 32}], arrivals: poisson, timeout: 1h}",
    )
    .replace("replicas: 1", "replicas: 2")
    .replace("duration: 2m", "duration: 2h");
    let (run, traffic) = run_of(&text, true);
    // From when both are routed on.
    let both = (0..2)
        .map(|p| pod_ready_intervals(&run.pods[p])[0].0)
        .max()
        .unwrap()
        + 1000;
    let mut waits: Vec<u32> = traffic
        .trace
        .iter()
        .filter(|t| t.1 / 1000 > both + 60_000)
        .map(|&(_, a, s, _)| (s - a) as u32)
        .collect();
    assert!(waits.len() > 200_000, "{}", waits.len());
    let c = erlang_c(2, 1.6);
    assert!((c - 0.7111).abs() < 1e-3);
    let no_wait = waits.iter().filter(|&&w| w == 0).count() as f64 / waits.len() as f64;
    assert!(
        (no_wait - (1.0 - c)).abs() < 0.03,
        "P(no wait) {no_wait} vs {}",
        1.0 - c
    );
    for (p, q) in [(50, 0.5), (95, 0.05), (99, 0.01)] {
        let theory = (c / q).ln() / 4.0 * 1e6;
        let measured = percentile(&mut waits, p).unwrap() as f64;
        assert!(
            (measured - theory).abs() <= 0.1 * theory,
            "P{p}(Wq): measured {:.0} ms, Erlang C {:.0} ms",
            measured / 1000.0,
            theory / 1000.0
        );
    }
}

#[test]
fn the_same_text_gives_the_same_requests() {
    let text = text(
        PROBE,
        "{concurrency: 2, latency: 80ms, distribution: exponential}",
        "{service: model-api, rate: [{at: 0s, rps: 40}], arrivals: poisson}",
    );
    let (_, a) = run_of(&text, true);
    let (_, b) = run_of(&text, true);
    assert_eq!(a, b);
    assert!(a.trace.len() > 1000);
}

/// A chat model behind a Service on a time-sliced GPU (4 replicas of one
/// card), and a neighbour on the same card when `neighbour` is set: a
/// training Job that computes the whole run.
fn sliced(neighbour: bool) -> String {
    let job = "---
apiVersion: batch/v1
kind: Job
metadata: {name: finetune}
spec:
  template:
    spec:
      restartPolicy: Never
      containers:
        - name: train
          image: registry.example.com/train:1.0
          resources: {limits: {nvidia.com/gpu: 1}}
";
    format!(
        "apiVersion: v1
kind: Service
metadata: {{name: chat}}
spec:
  selector: {{app: chat}}
  ports: [{{port: 80, targetPort: 8000}}]
---
apiVersion: apps/v1
kind: Deployment
metadata: {{name: chat}}
spec:
  replicas: 1
  selector: {{matchLabels: {{app: chat}}}}
  template:
    metadata: {{labels: {{app: chat}}}}
    spec:
      containers:
        - name: chat
          image: registry.example.com/chat:2.1.0
          ports: [{{containerPort: 8000}}]
          resources: {{limits: {{nvidia.com/gpu: 1}}}}
          readinessProbe: {{httpGet: {{path: /health, port: 8000}}, periodSeconds: 1}}
{}---
apiVersion: podlab.dev/v1alpha1
kind: Scenario
spec:
  duration: 3m
  workload:
    - container: chat
      startup: 10s
      serve: {{concurrency: 1, latency: 100ms}}
    - container: train
      startup: 5s
      runFor: 1h
  cluster:
    nodePools:
      - name: t4
        cpu: \"16\"
        memory: 64Gi
        gpu: {{model: T4, count: 1}}
        sharing: {{mode: timeSlicing, replicas: 4}}
  traffic: {{service: chat, rate: [{{at: 0s, rps: 2}}], arrivals: uniform}}
",
        if neighbour { job } else { "" }
    )
}

#[test]
fn a_time_sliced_neighbour_that_computes_doubles_the_service_time() {
    // 2 requests/s evenly, one slot of 100 ms: no request waits. Alone on
    // the card each takes 100 ms; with the training Job computing on the
    // same card (2 tenants busy), 2 × 100 = 200 ms.
    let (_, alone) = run_of(&sliced(false), false);
    let (run, shared) = run_of(&sliced(true), false);
    assert_eq!(run.pods.len(), 2);
    let (a, b) = (alone.stats(0, 180_000), shared.stats(0, 180_000));
    assert!(a.served > 300 && b.served > 300);
    assert_eq!((ms(a.p50), ms(a.p99)), (Some(100), Some(100)));
    assert_eq!((ms(b.p50), ms(b.p99)), (Some(200), Some(200)));
}

#[test]
fn a_scale_down_without_pre_stop_fails_the_requests_routed_before_the_endpoint_goes() {
    // 2 replicas, 40 requests/s evenly, scaled to 1 at 60 s. The deleted
    // pod's endpoint turns not-ready at 60 s but kube-proxy routes to it
    // until 61 s (propagation 1 s); without preStop the kubelet sends
    // SIGTERM at 60 s and its server stops accepting: of the 40 requests
    // of that second, those routed to it (about half: each picks one of
    // the two ready endpoints at random) fail as `terminating`. What it
    // held when SIGTERM came (80 ms batches) drains within its 1 s
    // shutdown: nothing in flight is lost.
    let scaled = |pre_stop: &str| {
        text(
            &format!("{PROBE}{pre_stop}"),
            "{concurrency: 4, latency: 80ms}",
            "{service: model-api, rate: [{at: 0s, rps: 40}], arrivals: uniform}",
        )
        .replace("replicas: 1", "replicas: 2")
        .replace(
            "  traffic:",
            "  actions: [{at: 60s, scale: {name: model-api, replicas: 1}}]\n  traffic:",
        )
    };
    let (run, traffic) = run_of(&scaled(""), false);
    let deleted: Vec<_> = run.pods.iter().filter(|p| p.deleting.is_some()).collect();
    assert_eq!(deleted.len(), 1);
    assert_eq!(deleted[0].deleting, Some(60_000));
    let after = traffic.stats(60_000, 120_000);
    let cut = after.failed(Failure::Terminating);
    assert!((10..=30).contains(&cut), "{cut} requests cut");
    assert_eq!(after.failed_total(), cut);
    assert_eq!(
        traffic.stats(60_000, 61_000).failed(Failure::Terminating),
        cut
    );
    // With `preStop: sleep 5` the pod keeps accepting for 5 s, longer than
    // the propagation: nothing fails.
    let pre_stop = "
          lifecycle:
            preStop:
              sleep: {seconds: 5}";
    let (run, traffic) = run_of(&scaled(pre_stop), false);
    assert_eq!(run.pods.iter().filter(|p| p.deleting.is_some()).count(), 1);
    assert_eq!(traffic.stats(60_000, 120_000).failed_total(), 0);
    // The ReplicaSet controller's and the Deployment controller's events.
    let messages: Vec<&str> = run
        .events
        .iter()
        .filter(|e| e.at == 60_000 && e.reason != "Killing")
        .map(|e| &*e.message)
        .collect();
    assert_eq!(messages.len(), 2, "{messages:?}");
    assert!(
        messages[0].starts_with("Scaled down replica set model-api-")
            && messages[0].ends_with(" from 2 to 1")
    );
    assert!(messages[1].starts_with("Deleted pod: model-api-"));
}

/// `publishNotReadyAddresses` keeps a terminating endpoint `ready`
/// (`staging/src/k8s.io/endpointslice/utils.go` `podToEndpoint`: `ready :=
/// service.Spec.PublishNotReadyAddresses || (serving && !terminating)`),
/// and kube-proxy routes to ready endpoints first (`pkg/proxy/topology.go`
/// `CategorizeEndpoints`). The scale-down of
/// `a_scale_down_without_pre_stop_…` with `preStop: sleep 5`: without the
/// field the deleted pod gets no request once kube-proxy sees it
/// terminating (61 s) and nothing fails; with it the pod still gets about
/// half the requests until it leaves the slice, and once its server stops
/// accepting at SIGTERM (65 s, after the preStop) those fail as
/// `terminating` until kube-proxy sees the endpoint gone.
#[test]
fn publish_not_ready_addresses_keeps_a_terminating_endpoint_ready_pod_to_endpoint() {
    let scaled = |publish: bool| {
        let text = text(
            &format!(
                "{PROBE}
          lifecycle:
            preStop:
              sleep: {{seconds: 5}}"
            ),
            "{concurrency: 4, latency: 80ms}",
            "{service: model-api, rate: [{at: 0s, rps: 40}], arrivals: uniform}",
        )
        .replace("replicas: 1", "replicas: 2")
        .replace(
            "  traffic:",
            "  actions: [{at: 60s, scale: {name: model-api, replicas: 1}}]\n  traffic:",
        );
        if publish {
            text.replace(
                "  selector: {app: model-api}\n  ports:",
                "  selector: {app: model-api}\n  publishNotReadyAddresses: true\n  ports:",
            )
        } else {
            text
        }
    };
    // Requests the deleted pod took in during [from, to) seconds.
    let received = |run: &Run, traffic: &TrafficRun, from: usize, to: usize| -> u32 {
        let deleted = run
            .pods
            .iter()
            .position(|p| p.deleting.is_some())
            .expect("one pod deleted");
        let slot = traffic
            .pods
            .iter()
            .position(|&p| p == deleted)
            .expect("an endpoint");
        traffic.per_pod[slot].received[from..to].iter().sum()
    };
    let (run, traffic) = run_of(&scaled(false), false);
    assert_eq!(received(&run, &traffic, 61, 65), 0);
    assert_eq!(traffic.stats(60_000, 120_000).failed_total(), 0);

    let (run, traffic) = run_of(&scaled(true), false);
    assert!(text_has_publish(&scaled(true)));
    let during = received(&run, &traffic, 61, 65);
    assert!(
        (40..=120).contains(&during),
        "{during} requests to the terminating pod"
    );
    let failed = traffic.stats(65_000, 120_000).failed(Failure::Terminating);
    assert!(failed > 0, "no request failed after SIGTERM");
    assert_eq!(traffic.stats(60_000, 65_000).failed_total(), 0);
}

fn text_has_publish(text: &str) -> bool {
    text.contains("publishNotReadyAddresses: true")
}

/// KEDA's HTTP add-on (traffic-autoscaling.md §3.3): the interceptor holds
/// a request while the Service has no ready endpoint and forwards it as
/// soon as one is ready (podlab: when kube-proxy sees it, `propagation`
/// after the pod turned Ready).
#[test]
fn the_interceptor_holds_requests_until_an_endpoint_is_ready() {
    // 10/s evenly spaced (request k at k × 100 ms), room for all at once
    // (1000 slots, 50 ms each); the interceptor waits up to 60 s and the
    // client as long.
    let text = text(
        PROBE,
        "{concurrency: 1000, latency: 50ms, queueLimit: 1000}",
        "{service: model-api, rate: [{at: 0s, rps: 10}], arrivals: uniform, timeout: 60s, interceptor: {conditionWait: 60s, responseHeader: 10s}}",
    );
    let (run, traffic) = run_of(&text, true);
    let routed = ready_at(&run) + 1000;
    let total = traffic.stats(0, 120_000);
    // Without the interceptor the (routed − 1) / 100 requests before it
    // found no endpoint (`a_replica_with_room_…`); now none fails.
    assert_eq!(total.failed_total(), 0);
    assert_eq!(total.served, 1199);
    // A held request is forwarded at `routed` and answered 50 ms later;
    // the others in 50 ms.
    let routed_us = routed * 1000;
    for &(_, arrival, start, done) in &traffic.trace {
        if arrival < routed_us {
            assert_eq!((start, done), (routed_us, routed_us + 50_000));
        } else {
            assert_eq!(done - arrival, 50_000);
        }
    }
    // The first request (at 100 ms) waited the whole cold start: it is
    // the slowest answer.
    let slowest = traffic.trace.iter().map(|&(_, a, _, d)| d - a).max();
    assert_eq!(slowest, Some(routed_us + 50_000 - 100_000));
    // The held requests are in the queue gauge: all of them at once just
    // before `routed`.
    let held = (routed - 1) / 100;
    assert_eq!(
        traffic.windows[((routed - 1) / 1000) as usize].queue_max as u64,
        held
    );
}

/// The interceptor's `conditionWait` is shorter than the cold start:
/// each request it holds longer gets a 502 at arrival + 5 s; with a
/// client timeout shorter than it, the client gives up first.
#[test]
fn a_cold_start_longer_than_condition_wait_is_a_502_from_the_interceptor() {
    let text_with = |timeout: &str, wait: &str| {
        text(
            PROBE,
            "{concurrency: 1000, latency: 50ms, queueLimit: 1000}",
            &format!("{{service: model-api, rate: [{{at: 0s, rps: 10}}], arrivals: uniform, timeout: {timeout}, interceptor: {{conditionWait: {wait}, responseHeader: 10s}}}}"),
        )
    };
    let (run, traffic) = run_of(&text_with("30s", "5s"), false);
    let routed = ready_at(&run) + 1000;
    // Request k (at k × 100 ms) fails when k × 100 + 5000 < routed (the
    // endpoint change at `routed` applies before a wait that ends then).
    let failed = (routed - 5000 - 1) / 100;
    let total = traffic.stats(0, 120_000);
    assert_eq!(total.failed(Failure::InterceptorWait), failed);
    assert_eq!(total.failed_total(), failed);
    assert_eq!(total.served, 1199 - failed);
    // The first 502 is at 0.1 + 5 = 5.1 s: none before.
    assert_eq!(traffic.stats(0, 5000).failed_total(), 0);
    // Window 5 (5.0 to 6.0 s) holds the 502s of requests 1 to 9.
    assert_eq!(
        traffic.windows[5].failed[Failure::InterceptorWait as usize],
        9
    );

    let (run, traffic) = run_of(&text_with("3s", "20s"), false);
    let routed = ready_at(&run) + 1000;
    let total = traffic.stats(0, 120_000);
    assert_eq!(total.failed(Failure::Timeout), (routed - 3000 - 1) / 100);
    assert_eq!(total.failed(Failure::InterceptorWait), 0);
}

/// v0.11.1's `responseHeader` of 500 ms (the default: only
/// `conditionWait` is written, longer than the cold start): a model that
/// takes 800 ms to answer never gets an answer through the interceptor;
/// one that takes 400 ms always does.
#[test]
fn the_interceptor_answers_502_when_response_headers_come_too_late() {
    let text_with = |latency: &str| {
        text(
            PROBE,
            &format!("{{concurrency: 1000, latency: {latency}, queueLimit: 1000}}"),
            "{service: model-api, rate: [{at: 0s, rps: 10}], arrivals: uniform, timeout: 60s, interceptor: {conditionWait: 60s}}",
        )
    };
    let (_, traffic) = run_of(&text_with("800ms"), false);
    let total = traffic.stats(0, 120_000);
    assert_eq!(total.served, 0);
    // Every request forwarded by 119.5 s fails 500 ms after it was
    // forwarded (k × 100 ms + 500 < 120 s: k ≤ 1194); the later ones are
    // still in flight when the run ends.
    assert_eq!(total.failed(Failure::ResponseHeader), 1194);
    assert_eq!(total.failed_total(), 1194);

    let (_, traffic) = run_of(&text_with("400ms"), false);
    let total = traffic.stats(0, 120_000);
    assert_eq!(total.failed_total(), 0);
    // The last four (119.6 to 119.9 s) would be answered at 2:00 or
    // later: the run ends at 2:00, before an event at that instant.
    assert_eq!(total.served, 1195);
}
