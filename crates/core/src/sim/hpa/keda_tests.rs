//! Golden KEDA timelines (traffic-autoscaling.md §3; `keda.rs`), the
//! arithmetic written beside each.

use super::*;
use crate::sim::{pod_ready_intervals, simulate, Options};

/// A Deployment at `replicas` (0: scaled to zero) behind a ScaledObject on
/// the Service's request rate (threshold 10 per replica), a 30 s load,
/// uniform arrivals: none until 2:00, 10/s until 6:00, 40/s until 9:00,
/// then none.
fn text(replicas: u32, scaled_object: &str) -> String {
    format!(
        "apiVersion: apps/v1
kind: Deployment
metadata:
  name: model-api
spec:
  replicas: {replicas}
  selector:
    matchLabels:
      app: model-api
  template:
    metadata:
      labels:
        app: model-api
    spec:
      containers:
        - name: api
          image: registry.example.com/model-api:0.3.1
          ports:
            - containerPort: 8080
          readinessProbe:
            httpGet:
              path: /health
              port: 8080
            periodSeconds: 1
---
apiVersion: v1
kind: Service
metadata:
  name: model-api
spec:
  selector:
    app: model-api
  ports:
    - port: 80
      targetPort: 8080
---
apiVersion: keda.sh/v1alpha1
kind: ScaledObject
metadata:
  name: model-api
spec:
  scaleTargetRef:
    name: model-api
{scaled_object}
---
apiVersion: podlab.dev/v1alpha1
kind: Scenario
metadata:
  name: idle-then-busy
spec:
  duration: 20m
  workload:
    - container: api
      startup: 30s
      serve:
        concurrency: 16
        latency: 50ms
  traffic:
    service: model-api
    arrivals: uniform
    rate:
      - at: 0s
        rps: 0
      - at: 2m
        rps: 10
      - at: 6m
        rps: 40
      - at: 9m
        rps: 0
"
    )
}

const RPS_10: &str = "  maxReplicaCount: 10
  triggers:
    - type: prometheus
      metadata:
        serverAddress: http://prometheus.monitoring:9090
        query: sum(rate(requests_per_second{service=\"model-api\"}[1m]))
        threshold: \"10\"";

/// (at s, reason, message) of KEDA's events.
fn keda_events(run: &Run) -> Vec<(u64, &'static str, String)> {
    run.events
        .iter()
        .filter(|e| e.source == "keda-operator")
        .map(|e| (e.at / 1000, e.reason, e.message.to_string()))
        .collect()
}

fn rescales(run: &Run) -> Vec<(u64, i32, i32)> {
    run.autoscalers[0]
        .syncs
        .iter()
        .filter(|pass| pass.rescaled)
        .map(|pass| (pass.at / 1000, pass.current_replicas, pass.desired_replicas))
        .collect()
}

/// The Service's rate is read from the scrape 7 s into each 15 s, as a
/// `rate()` over the minute before it; KEDA checks at 0 and every 30 s.
///
/// - Activation: arrivals start at 2:00. The check at 2:00 reads the
///   scrape at 1:52 (nothing yet): 0, not above activationThreshold 0. The
///   check at 2:30 reads the scrape at 2:22, window 1:22–2:22: 22 s × 10 =
///   220 requests / 60 s = 3.667 > 0 → **0 → 1 at 2:30**
///   (`KEDAScaleTargetActivated`). The HPA's pass at 2:30 still reads 0
///   (`ScalingDisabled`).
/// - 1 → N by the HPA (External AverageValue, desired ⌈total / 10⌉, the
///   0.1 tolerance on total / (10 × current)): 6:15 (scrape 6:07, window
///   5:07–6:07: 53 s × 10 + 7 s × 40 = 810 / 60 = 13.5; 13.5 / 10 = 1.35)
///   → ⌈1.35⌉ = **2**; 6:30 (21 / 20 = 1.05, within) stays; 6:45 (5:37–
///   6:37: 23 × 10 + 37 × 40 = 1710 / 60 = 28.5; 28.5 / 20 = 1.425) →
///   ⌈2.85⌉ = **3**; 7:00 (5:52–6:52: 8 × 10 + 52 × 40 = 2160 / 60 = 36;
///   36 / 30 = 1.2) → ⌈3.6⌉ = **4**; from 7:15 40 / 40 = 1.0: stays 4.
/// - Scale-down after 9:00, legacy path (`behavior` nil): the highest
///   recommendation of the last 300 s. Proposals: 9:15 (8:07–9:07: 53 ×
///   40 = 2120 / 60 = 35.3; 35.3 / 40 = 0.88, out of tolerance) ⌈3.53⌉ =
///   4; 9:30 (8:22–9:22: 38 × 40 / 60 = 25.3) 3; 9:45 (23 × 40 / 60 =
///   15.3) 2; 10:00 (8 × 40 / 60 = 5.3) 1; then 0. The 4 of 9:15 counts
///   until 14:00: at 14:15 it is 300 s old, already out
///   (`stabilizeRecommendation`: real passes are 15 s plus processing
///   apart), so **4 → 3 at 14:15**, **→ 2 at 14:30**, **→ 1 at 14:45**,
///   then 0 clamped to minReplicas 1 (`GetHPAMinReplicas`: max(0, 1)).
/// - Deactivation: the last check that sees a request is 10:00 (scrape
///   9:52, window 8:52–9:52: 8 × 40 = 320 > 0): `lastActiveTime` 10:00,
///   stored in whole seconds. 10:30 reads 0: inactive, cooling down until
///   10:00 + 300 s = 15:00; the check at 15:00 runs a moment after 15:00,
///   so `lastActiveTime.Add(cooldown).Before(now)` already holds
///   (`scaleToZeroOrIdle`): **15:00 scales 1 → 0**
///   (`KEDAScaleTargetDeactivated`).
#[test]
fn scale_from_zero_and_back_golden() {
    let run = simulate(&text(0, RPS_10), &Options::default());
    let target = "apps/v1.Deployment default/model-api";
    assert_eq!(
        keda_events(&run),
        vec![
            (
                150,
                "KEDAScaleTargetActivated",
                format!("Scaled {target} from 0 to 1, triggered by prometheusScaler")
            ),
            (
                900,
                "KEDAScaleTargetDeactivated",
                format!("Deactivated {target} from 1 to 0")
            ),
        ]
    );
    assert_eq!(
        rescales(&run),
        vec![
            (375, 1, 2),
            (405, 2, 3),
            (420, 3, 4),
            (855, 4, 3),
            (870, 3, 2),
            (885, 2, 1)
        ]
    );
    let hpa = &run.autoscalers[0];
    assert_eq!(hpa.name, "keda-hpa-model-api");
    assert_eq!((hpa.min_replicas, hpa.max_replicas), (1, 10));
    let pass_at = |s: u64| hpa.syncs.iter().find(|p| p.at == s * 1000).unwrap();
    let active = |s: u64| {
        pass_at(s)
            .conditions
            .iter()
            .find(|c| c.kind == "ScalingActive")
            .map(|c| c.reason)
    };
    assert_eq!(active(150), Some("ScalingDisabled"));
    assert_eq!(active(165), Some("ValidMetricFound"));
    assert_eq!(active(945), Some("ScalingDisabled"));
    // 6:15: 13.5 requests/s over 1 replica: the status's average 13500m.
    assert_eq!(
        pass_at(375).metrics,
        vec![Some(MetricValue::AverageValue { milli: 13_500 })]
    );
    assert_eq!(
        pass_at(375).reason.as_deref(),
        Some("external metric s0-prometheus(&LabelSelector{MatchLabels:map[string]string{scaledobject.keda.sh/name: model-api,},MatchExpressions:[]LabelSelectorRequirement{},}) above target")
    );
    // The cold start made visible: the first pod is created at 2:30 and
    // Ready after its pull, its start and 30 s of loading; every request
    // from 2:00 until kube-proxy sees it Ready finds no endpoint.
    let first = &run.pods[0];
    assert_eq!(first.created, 150_000);
    let ready = pod_ready_intervals(first)[0].0;
    let traffic = run.traffic.as_ref().unwrap();
    let before = traffic.stats(120_000, ready);
    assert_eq!(before.served, 0);
    assert_eq!(
        before.failed(crate::sim::traffic::Failure::NoEndpoints),
        before.arrived
    );
    let after = traffic.stats(ready + 2_000, 360_000);
    assert_eq!(after.failed_total(), 0);
    assert!(after.served > 0);
}

/// The same scale from zero behind the HTTP add-on's interceptor
/// (traffic-autoscaling.md §3.3): the requests from 2:00 are held instead
/// of refused. The first pod is Ready some 30 s after its creation at
/// 2:30, so with the shipped `conditionWait` of 20 s every request that
/// arrived more than 20 s before kube-proxy routes to it gets the
/// interceptor's 502, and the last 20 s of them are forwarded and served;
/// but the interceptor forwards them all at once, and the one pod's
/// queue (16 slots, `queueLimit` 100) refuses what does not fit with 503s.
/// With `conditionWait: 90s` (the client's timeout raised to match) and
/// room for the burst (`queueLimit: 1000`) every one of them is served,
/// the first after waiting the whole cold start. KEDA's activation does not change: the prometheus trigger reads
/// the requests that arrived, answered or not.
#[test]
fn the_interceptor_holds_the_cold_start_instead_of_refusing_it() {
    use crate::sim::traffic::Failure;
    let held = |wait: &str, timeout: &str, queue: &str| {
        let text = text(0, RPS_10).replace("latency: 50ms\n", &format!("latency: 50ms\n        queueLimit: {queue}\n")).replace(
            "    arrivals: uniform\n",
            &format!(
                "    arrivals: uniform\n    timeout: {timeout}\n    interceptor: {{conditionWait: {wait}, responseHeader: 10s}}\n"
            ),
        );
        simulate(&text, &Options::default())
    };
    let run = held("20s", "30s", "100");
    assert_eq!(keda_events(&run)[0].0, 150);
    let ready = pod_ready_intervals(&run.pods[0])[0].0;
    let routed = ready + 1000;
    let traffic = run.traffic.as_ref().unwrap();
    let cold = traffic.stats(120_000, routed + 1);
    assert_eq!(cold.failed(Failure::NoEndpoints), 0);
    // Arrivals at 120 s + k × 100 ms (k ≥ 1: evenly spaced, the first a
    // gap after the step): those with arrival + 20 s < routed get a 502
    // at arrival + 20 s.
    let refused = (routed - 20_000 - 120_000 - 1) / 100;
    let whole = traffic.stats(0, 360_000);
    assert_eq!(whole.failed(Failure::InterceptorWait), refused);
    // Forwarded at `routed`: the rest of the arrivals before it, 16 into
    // the slots and 100 into the queue; the others are refused.
    let forwarded = (routed - 120_000 - 1) / 100 - refused;
    assert!(forwarded > 116, "{forwarded}");
    assert_eq!(whole.failed(Failure::QueueFull), forwarded - 116);
    assert_eq!(whole.failed_total(), refused + forwarded - 116);

    let run = held("90s", "120s", "1000");
    let routed = pod_ready_intervals(&run.pods[0])[0].0 + 1000;
    let traffic = run.traffic.as_ref().unwrap();
    let whole = traffic.stats(0, 360_000);
    assert_eq!(whole.failed_total(), 0);
    assert_eq!(whole.served, whole.arrived);
    // The request of 2:00.1 waited until `routed`, then 50 ms of service:
    // the slowest answer (each later one arrived 100 ms later and waits
    // at most 50 ms / 16 longer in the queue).
    let slowest = traffic
        .windows
        .iter()
        .flat_map(|w| w.latencies.iter())
        .max();
    assert_eq!(
        slowest.map(|&us| u64::from(us)),
        Some((routed - 120_100) * 1000 + 50_000)
    );
}

/// An empty result (a series nobody exports) reads 0 with
/// `ignoreNullValues` (the default): never active, so a Deployment
/// written at 1 is scaled to 0 at the first check, at 0:00
/// (`scaleToZeroOrIdle`: never active, `creationTimestamp +
/// initialCooldownPeriod` 0, a whole second, is before the check that runs
/// a moment after it), and never comes back.
#[test]
fn an_unknown_series_never_activates_scale_to_zero_or_idle() {
    let unknown = RPS_10.replace("requests_per_second", "vllm:num_requests_waiting");
    let run = simulate(&text(1, &unknown), &Options::default());
    assert_eq!(
        keda_events(&run),
        vec![(
            0,
            "KEDAScaleTargetDeactivated",
            "Deactivated apps/v1.Deployment default/model-api from 1 to 0".to_string()
        )]
    );
}

/// With `ignoreNullValues: "false"` the same empty result is a scaler
/// error at every check (`KEDAScalerFailed` at 0:00, 0:30, …): inactive,
/// but `RequestScale` takes `isError && Fallback == nil` (Ready False,
/// `TriggerError`) before the scale-in case, so the Deployment written at
/// 1 keeps its replica for the whole run.
#[test]
fn a_scaler_error_never_scales_to_zero_request_scale() {
    let unknown = RPS_10.replace("requests_per_second", "vllm:num_requests_waiting");
    let strict = format!("{unknown}\n        ignoreNullValues: \"false\"");
    let run = simulate(&text(1, &strict), &Options::default());
    let events = keda_events(&run);
    let failed = (
        "KEDAScalerFailed",
        "prometheus metrics 'prometheus' target may be lost, the result is empty".to_string(),
    );
    assert_eq!(
        events.iter().take(3).cloned().collect::<Vec<_>>(),
        vec![
            (0, failed.0, failed.1.clone()),
            (30, failed.0, failed.1.clone()),
            (60, failed.0, failed.1.clone())
        ]
    );
    assert!(events
        .iter()
        .all(|(_, reason, _)| *reason == "KEDAScalerFailed"));
    assert_eq!(events.len(), 20 * 60 / 30 + 1);
    assert!(run.pods[0].deleting.is_none());
}

/// `minReplicaCount: 1` keeps a warm replica: KEDA never deactivates and
/// the HPA's floor is 1.
#[test]
fn a_warm_replica_is_never_deactivated() {
    let warm = format!("  minReplicaCount: 1\n{RPS_10}");
    let run = simulate(&text(1, &warm), &Options::default());
    assert_eq!(keda_events(&run), vec![]);
    assert_eq!(run.autoscalers[0].min_replicas, 1);
    let traffic = run.traffic.as_ref().unwrap();
    assert_eq!(traffic.stats(120_000, 360_000).failed_total(), 0);
}

/// A scaler error reaches the HPA as KEDA's metrics server words it
/// (`scale_handler.go` `GetScaledObjectMetrics`: `metric:%s encountered
/// error`; `metricsservice/server.go` `GetMetrics`: `error when getting
/// metric values %w`; the gRPC status as captured in KEDA issue #4556),
/// inside the HPA's own layers (`GetExternalPerPodMetricReplicas`,
/// `computeStatusForExternalMetric`, `computeReplicasForMetric`). The
/// Deployment is at 1 (KEDA never scales it in, the query failing), so
/// the HPA computes from 0:15.
#[test]
fn a_scaler_error_reaches_the_hpa_in_keda_metrics_server_words_get_metrics() {
    let unknown = RPS_10.replace("requests_per_second", "vllm:num_requests_waiting");
    let strict = format!("{unknown}\n        ignoreNullValues: \"false\"");
    let run = simulate(&text(1, &strict), &Options::default());
    let warnings: Vec<(&str, String)> = run
        .events
        .iter()
        .filter(|e| e.source == "horizontal-pod-autoscaler" && e.at == 15_000)
        .map(|e| (e.reason, e.message.to_string()))
        .collect();
    let error = "unable to get external metric default/s0-prometheus/&LabelSelector{MatchLabels:map[string]string{scaledobject.keda.sh/name: model-api,},MatchExpressions:[]LabelSelectorRequirement{},}: unable to fetch metrics from external metrics API: rpc error: code = Unknown desc = error when getting metric values metric:s0-prometheus encountered error";
    assert_eq!(
        warnings,
        vec![
            ("FailedGetExternalMetric", error.to_string()),
            (
                "FailedComputeMetricsReplicas",
                format!("invalid metrics (1 invalid out of 1), first error is: failed to get s0-prometheus external metric value: failed to get s0-prometheus external metric: {error}")
            ),
        ]
    );
}

/// `computeStatusForExternalMetric` hands `GetExternalPerPodMetricReplicas`
/// the target's `status.replicas`, not `spec.replicas`. A warm replica
/// (`minReplicaCount: 1`) at 10 requests/s against a threshold of 10, and
/// a rollout at 5:00 whose surge pod (maxSurge 25 % of 1, rounded up) is
/// still loading at the pass of 5:15: `spec.replicas` 1, `status.replicas`
/// 2. The query reads 10 (scrape 5:07, window 4:07–5:07: 600 / 60 s):
/// the ratio is 10 / (10 × 2) = 0.5, out of tolerance, so the proposal is
/// ⌈10 / 10⌉ = 1 (no change) and the status shows ⌈10 / 2⌉ = **5**, where
/// dividing by `spec.replicas` would show 10.
#[test]
fn external_per_pod_metrics_divide_by_status_replicas_get_external_per_pod_metric_replicas() {
    let warm = format!("  minReplicaCount: 1\n{RPS_10}");
    let text = text(1, &warm).replace(
        "  duration: 20m\n",
        "  duration: 20m\n  rollout:\n    - at: 5m\n      workload: model-api\n      image: registry.example.com/model-api:0.3.2\n",
    );
    let run = simulate(&text, &Options::default());
    let hpa = &run.autoscalers[0];
    let pass_at = |s: u64| hpa.syncs.iter().find(|p| p.at == s * 1000).unwrap();
    assert_eq!(
        pass_at(300).metrics,
        vec![Some(MetricValue::AverageValue { milli: 10_000 })]
    );
    assert_eq!(pass_at(315).current_replicas, 1);
    assert_eq!(
        pass_at(315).metrics,
        vec![Some(MetricValue::AverageValue { milli: 5_000 })]
    );
    assert!(!pass_at(315).rescaled);
}
