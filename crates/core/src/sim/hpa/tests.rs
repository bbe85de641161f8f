//! Golden HPA decisions, computed by hand from the algorithm
//! (traffic-autoscaling.md §1; `horizontal.go`, `replica_calculator.go`).

use super::*;
use crate::sim::{simulate, Options};

/// A Deployment of `replicas` pods asking 500m CPU each, a readinessProbe
/// every second, a 30 s load; CPU 100m at idle and while loading, 20 ms per
/// request (60 requests/s cost 1.2 cores); uniform arrivals.
fn text(replicas: u32, hpa_spec: &str, rate: &str) -> String {
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
          resources:
            requests:
              cpu: 500m
          readinessProbe:
            httpGet:
              path: /health
              port: 8080
            periodSeconds: 1
---
apiVersion: autoscaling/v2
kind: HorizontalPodAutoscaler
metadata:
  name: model-api
spec:
  scaleTargetRef:
    apiVersion: apps/v1
    kind: Deployment
    name: model-api
{hpa_spec}
---
apiVersion: podlab.dev/v1alpha1
kind: Scenario
metadata:
  name: step
spec:
  duration: 15m
  workload:
    - container: api
      startup: 30s
      cpu:
        idle: 100m
        perRequest: 20ms
        loading: 100m
      serve:
        concurrency: 16
        latency: 50ms
  traffic:
    arrivals: uniform
    rate:
{rate}
"
    )
}

const CPU_50: &str = "  minReplicas: 2
  maxReplicas: 10
  metrics:
    - type: Resource
      resource:
        name: cpu
        target:
          type: Utilization
          averageUtilization: 50";

const STEP: &str = "      - at: 0s
        rps: 10
      - at: 5m
        rps: 60";

/// (at s, current, desired) of every pass that wrote a scale.
fn rescales(run: &Run) -> Vec<(u64, i32, i32)> {
    run.autoscalers[0]
        .syncs
        .iter()
        .filter(|pass| pass.rescaled)
        .map(|pass| (pass.at / 1000, pass.current_replicas, pass.desired_replicas))
        .collect()
}

fn utilization_at(run: &Run, at_s: u64) -> Option<i32> {
    let pass = run.autoscalers[0]
        .syncs
        .iter()
        .find(|p| p.at == at_s * 1000)?;
    match pass.metrics.first()?.as_ref()? {
        MetricValue::Utilization { percent, .. } => Some(*percent),
        MetricValue::AverageValue { .. } => None,
    }
}

fn limited_at(run: &Run, at_s: u64) -> Option<&'static str> {
    let pass = run.autoscalers[0]
        .syncs
        .iter()
        .find(|p| p.at == at_s * 1000)?;
    pass.conditions
        .iter()
        .find(|c| c.kind == "ScalingLimited")
        .map(|c| c.reason)
}

fn able_at(run: &Run, at_s: u64) -> Option<&'static str> {
    let pass = run.autoscalers[0]
        .syncs
        .iter()
        .find(|p| p.at == at_s * 1000)?;
    pass.conditions
        .iter()
        .find(|c| c.kind == "AbleToScale")
        .map(|c| c.reason)
}

/// A load step from 10 to 60 requests/s at 5:00 on 2 replicas, CPU at
/// 50 % of 500m. Metrics come from the scrape 7 s into each period, over
/// the 15 s before it (metrics.rs). Per pod: 100m idle; per request 20 ms.
///
/// - 0:15: the scrape at 0:07 has no pod with two points: `no metrics
///   returned from resource metrics API`. 0:30, 0:45: the pods are Ready
///   at ~0:31 and their samples count once a whole window follows the
///   Ready transition (`groupPods`, CPU initialization): `did not receive
///   metrics for targeted pods`.
/// - until 5:00: 10 req/s × 20 ms = 200m + 2 × 100m = 400m of 1000m
///   requested: 39–40 % (a request at the window's edge ends in the next
///   one); ratio 0.8, ⌈0.8 × 2⌉ = 2: no change.
/// - 5:15 (scrape 5:07, window 4:52–5:07: 8 s at 10/s, 7 s at 60/s): 80 +
///   420 = 500 requests × 20 ms / 15 s = 666m + 200m = 866m → 86 %; ratio
///   1.72, ⌈1.72 × 2⌉ = ⌈3.44⌉ = 4; legacy limit max(2 × 2, 4) = 4 → **4**.
/// - 5:30 (window 5:07–5:22, all at 60/s on the 2 old pods): 1200m + 200m
///   → 140 % (the requests at the window's edges, and which pod each reaches, are the seeded generator's); the 2 new pods (started ~5:16) have no metric yet (< 10 s
///   old at the scrape): missing, counted 0 on a scale-up: 1398m / 2000m
///   = 69 % → ratio 1.38, ⌈1.38 × 4⌉ = ⌈5.52⌉ = 6; limit 8 → **6**.
/// - 5:45–6:15: the unready new pods count 0 on the scale-up and bring the
///   ratio within the tolerance (or past 1): stays 6.
/// - 6:30: all 6 Ready with whole windows: 1200m + 600m over 3000m = 59 %
///   → ratio 1.18, ⌈1.18 × 6⌉ = ⌈7.08⌉ = 8 → **8**.
/// - from 7:30: 1200m + 800m over 4000m = 49 % → ratio 0.98, within 0.1:
///   stays 8.
#[test]
fn cpu_load_step_golden() {
    let run = simulate(&text(2, CPU_50, STEP), &Options::default());
    assert_eq!(
        rescales(&run),
        vec![(315, 2, 4), (330, 4, 6), (390, 6, 8)],
        "{}",
        debug(&run)
    );
    assert_eq!(utilization_at(&run, 15), None);
    assert_eq!(utilization_at(&run, 300), Some(39));
    assert_eq!(utilization_at(&run, 315), Some(86));
    assert_eq!(utilization_at(&run, 330), Some(140));
    assert_eq!(utilization_at(&run, 390), Some(59));
    assert_eq!(utilization_at(&run, 900), Some(49));
    let hpa_events: Vec<(u64, &str, &str)> = run
        .events
        .iter()
        .filter(|e| e.source == "horizontal-pod-autoscaler")
        .map(|e| (e.at / 1000, e.reason, &*e.message))
        .collect();
    assert_eq!(
        hpa_events.first(),
        Some(&(15, "FailedGetResourceMetric", "failed to get cpu utilization: unable to get metrics for resource cpu: no metrics returned from resource metrics API"))
    );
    assert!(hpa_events.contains(&(
        315,
        "SuccessfulRescale",
        "New size: 4; reason: cpu resource utilization (percentage of request) above target"
    )));
    // The HPA's event comes before the scale it causes.
    let rescale = run
        .events
        .iter()
        .position(|e| e.reason == "SuccessfulRescale")
        .unwrap();
    assert_eq!(run.events[rescale + 1].reason, "ScalingReplicaSet");
    assert_eq!(
        &*run.events[rescale + 1].message,
        "Scaled up replica set model-api-74b848bcc8 from 2 to 4"
    );
    // 4 + 2 + 2 pods created by the controller, plus the first 2.
    assert_eq!(run.pods.len(), 8);
}

/// The replay is deterministic: the same text gives the same run.
#[test]
fn replay_is_deterministic() {
    let text = text(2, CPU_50, STEP);
    assert_eq!(
        simulate(&text, &Options::default()),
        simulate(&text, &Options::default())
    );
}

/// Without `behavior`, a scale-down waits for 5 min of lower
/// recommendations (`stabilizeRecommendation` in `horizontal.go`: the
/// highest of the recommendations not `Before(now − 300 s)`). Each entry's
/// timestamp is the `time.Now()` of its pass, and real passes are 15 s
/// plus the pass's own processing apart (`processNextWorkItem` re-queues
/// with `AddRateLimited` once the pass is done), so 20 passes later the
/// entry is a little more than 300 s old: already outside. 8 replicas at
/// 60/s (49 %, stays 8); at 5:00 the rate drops to 10/s.
/// - 5:15 (window 4:52–5:07: 8 s at 60/s, 7 s at 10/s): 550 requests × 20
///   ms / 15 s = 733m + 800m over 4000m = 38 % → ratio 0.76, ⌈6.08⌉ = 7.
/// - from 5:30: 200m + 800m over 4000m = 24–25 % → ratio 0.48, ⌈3.84⌉ = 4.
/// - The last 8 was recorded at 5:00: every pass from 5:15 to 9:45 keeps 8
///   (`ScaleDownStabilized`); at 10:00 (cutoff 5:00) the 8 is out and the
///   highest is the 7 of 5:15 → **7**; at 10:15 only 4s remain → **4**.
#[test]
fn default_scale_down_stabilization_waits_300s() {
    let rate = "      - at: 0s
        rps: 60
      - at: 5m
        rps: 10";
    let run = simulate(&text(8, CPU_50, rate), &Options::default());
    let rescales = rescales(&run);
    assert_eq!(rescales.first().map(|r| r.0), Some(600), "{}", debug(&run));
    for at in (315..=585).step_by(15) {
        assert_eq!(
            able_at(&run, at),
            Some("ScaleDownStabilized"),
            "at {at}: {}",
            debug(&run)
        );
    }
    assert_eq!(rescales, vec![(600, 8, 7), (615, 7, 4)], "{}", debug(&run));
}

/// Without `behavior`, one pass grows at most to max(2 × current, 4)
/// (`convertDesiredReplicasWithRules`, `calculateScaleUpLimit`): 10 → 200
/// requests/s on 2 replicas asks for far more (200 × 20 ms = 4000m + 200m
/// over 1000m: 420 % at 5:30, ratio 8.4, ⌈16.8⌉ = 17), but the pass at
/// 5:15 may only reach 4, then 8 from 4, then `maxReplicas` 10.
#[test]
fn legacy_scale_up_limit() {
    let rate = "      - at: 0s
        rps: 10
      - at: 5m
        rps: 200";
    let run = simulate(&text(2, CPU_50, rate), &Options::default());
    let rescales = rescales(&run);
    assert_eq!(rescales.first(), Some(&(315, 2, 4)), "{}", debug(&run));
    assert_eq!(limited_at(&run, 315), Some("ScaleUpLimit"));
    assert_eq!(rescales.get(1), Some(&(330, 4, 8)), "{}", debug(&run));
    assert_eq!(rescales.get(2).map(|r| r.2), Some(10), "{}", debug(&run));
}

/// With `behavior`, a `Pods 1 / 60s` scale-up policy adds one replica per
/// minute: the change of a period counts events strictly newer than
/// `now − 60 s` (`getReplicasChangePerPeriod`), so after the rescale at
/// 5:15 the passes at 5:30–6:00 see it (period start 2, limit 3) and the
/// one at 6:15 no longer does: 5:15 → 3, 6:15 → 4, 7:15 → 5, …
#[test]
fn behavior_pods_policy_paces_scale_up() {
    let spec = format!(
        "{CPU_50}
  behavior:
    scaleUp:
      policies:
        - type: Pods
          value: 1
          periodSeconds: 60"
    );
    let run = simulate(&text(2, &spec, STEP), &Options::default());
    let rescales = rescales(&run);
    assert_eq!(rescales.first(), Some(&(315, 2, 3)), "{}", debug(&run));
    assert_eq!(limited_at(&run, 315), Some("ScaleUpLimit"));
    assert_eq!(rescales.get(1), Some(&(375, 3, 4)), "{}", debug(&run));
    for pair in rescales.windows(2) {
        assert!(pair[1].0 - pair[0].0 >= 60, "{}", debug(&run));
        assert_eq!(pair[1].2, pair[0].2 + 1);
    }
}

fn debug(run: &Run) -> String {
    run.autoscalers[0]
        .syncs
        .iter()
        .map(|p| {
            format!(
                "{} {}->{} {:?} {:?}\n",
                p.at / 1000,
                p.current_replicas,
                p.desired_replicas,
                p.metrics,
                p.conditions.iter().map(|c| c.reason).collect::<Vec<_>>()
            )
        })
        .collect()
}

/// A Pods metric from the traffic, as prometheus-adapter serves it:
/// `requests_per_second` is each pod's request counter's `rate()` over the
/// last minute of scrapes. At 10 requests/s over 2 pods the average is 5/s
/// (5000m) whatever kube-proxy's random split; against a target of 20 the
/// ratio is 0.25, ⌈0.5⌉ = 1; but the first pass recorded 2
/// (`recordInitialRecommendation`, 0:15), which still counts at 5:00
/// (`ScaleDownStabilized`): the HPA keeps 2.
/// After the step to 60/s the per-pod rate climbs over the minute and the
/// HPA scales with the reason `pods metric requests_per_second above
/// target`.
#[test]
fn pods_metric_requests_per_second() {
    let spec = "  minReplicas: 2
  maxReplicas: 10
  metrics:
    - type: Pods
      pods:
        metric:
          name: requests_per_second
        target:
          type: AverageValue
          averageValue: \"20\"";
    let run = simulate(&text(2, spec, STEP), &Options::default());
    let pass = run.autoscalers[0]
        .syncs
        .iter()
        .find(|p| p.at == 300_000)
        .unwrap();
    match pass.metrics.first() {
        Some(Some(MetricValue::AverageValue { milli })) => {
            assert!((4900..=5100).contains(milli), "{milli}")
        }
        other => panic!("{other:?}"),
    }
    assert_eq!(
        able_at(&run, 300),
        Some("ScaleDownStabilized"),
        "{}",
        debug(&run)
    );
    let first = run.autoscalers[0]
        .syncs
        .iter()
        .find(|p| p.rescaled)
        .unwrap();
    assert_eq!(
        first.reason.as_deref(),
        Some("pods metric requests_per_second above target")
    );
    assert!(first.at > 300_000, "{}", debug(&run));
}

/// An unknown custom metric fails as the adapter's API does, every pass,
/// through `GetRawMetric`'s wrapper (`metrics/client.go`: `unable to fetch
/// metrics from custom metrics API: %v`) inside `GetMetricReplicas`'
/// (`unable to get metric %s: %w`).
#[test]
fn unknown_pods_metric_fails() {
    let spec = "  maxReplicas: 10
  metrics:
    - type: Pods
      pods:
        metric:
          name: gpu_duty_cycle
        target:
          type: AverageValue
          averageValue: \"1\"";
    let run = simulate(&text(2, spec, STEP), &Options::default());
    assert!(run.autoscalers[0].syncs.iter().all(|p| !p.rescaled));
    let pass = run.autoscalers[0].syncs.last().unwrap();
    let active = pass
        .conditions
        .iter()
        .find(|c| c.kind == "ScalingActive")
        .unwrap();
    assert_eq!(active.reason, "FailedGetPodsMetric");
    assert_eq!(
        active.message,
        "the HPA was unable to compute the replica count: unable to get metric gpu_duty_cycle: unable to fetch metrics from custom metrics API: the server could not find the metric gpu_duty_cycle for pods"
    );
    // From the first pass at 0:15, one Warning a pass with the same words.
    let failures: Vec<(u64, String)> = run
        .events
        .iter()
        .filter(|e| e.reason == "FailedGetPodsMetric")
        .map(|e| (e.at / 1000, e.message.to_string()))
        .take(2)
        .collect();
    let words = "unable to get metric gpu_duty_cycle: unable to fetch metrics from custom metrics API: the server could not find the metric gpu_duty_cycle for pods";
    assert_eq!(
        failures,
        vec![(15, words.to_string()), (30, words.to_string())]
    );
}

/// (reason, message) of the HPA's Warnings at `at_s`.
fn warnings_at(run: &Run, at_s: u64) -> Vec<(&'static str, String)> {
    run.events
        .iter()
        .filter(|e| e.source == "horizontal-pod-autoscaler" && e.warning && e.at == at_s * 1000)
        .map(|e| (e.reason, e.message.to_string()))
        .collect()
}

/// External and Object metrics fail in upstream's layers (`horizontal.go`
/// `computeStatusForExternalMetric`, `computeStatusForObjectMetric`,
/// `computeReplicasForMetric`; `replica_calculator.go`
/// `GetExternalPerPodMetricReplicas`, `GetExternalMetricReplicas`,
/// `GetObjectMetricReplicas`; `metrics/client.go` `GetExternalMetric`,
/// `GetObjectMetric`). At the first pass, 0:15: one Warning per metric
/// with the calculator's words, then `FailedComputeMetricsReplicas` with
/// the first metric's whole chain. Without KEDA no external metrics API is
/// served (the aggregator's 404, as captured in prometheus-adapter issue
/// #642); the Object metric's adapter answers NotFound, and
/// `GetObjectMetricReplicas` keeps its arguments out of order.
#[test]
fn external_and_object_metric_errors_follow_compute_status_for_external_metric() {
    let spec = "  maxReplicas: 10
  metrics:
    - type: External
      external:
        metric:
          name: queue_depth
        target:
          type: AverageValue
          averageValue: \"30\"
    - type: External
      external:
        metric:
          name: queue_total
        target:
          type: Value
          value: \"100\"
    - type: Object
      object:
        describedObject:
          apiVersion: networking.k8s.io/v1
          kind: Ingress
          name: main-route
        metric:
          name: requests_per_second
        target:
          type: Value
          value: \"10\"";
    let run = simulate(&text(2, spec, STEP), &Options::default());
    let external = |name: &str| {
        format!("unable to get external metric default/{name}/nil: unable to fetch metrics from external metrics API: the server could not find the requested resource (get {name}.external.metrics.k8s.io)")
    };
    let object = "unable to get metric requests_per_second: Ingress on default main-route/unable to fetch metrics from custom metrics API: the server could not find the metric requests_per_second for ingresses.networking.k8s.io main-route";
    assert_eq!(
        warnings_at(&run, 15),
        vec![
            ("FailedGetExternalMetric", external("queue_depth")),
            ("FailedGetExternalMetric", external("queue_total")),
            ("FailedGetObjectMetric", object.to_string()),
            (
                "FailedComputeMetricsReplicas",
                format!(
                    "invalid metrics (3 invalid out of 3), first error is: failed to get queue_depth external metric value: failed to get queue_depth external metric: {}",
                    external("queue_depth")
                )
            ),
        ]
    );
    let first = &run.autoscalers[0].syncs[0];
    let active = first
        .conditions
        .iter()
        .find(|c| c.kind == "ScalingActive")
        .unwrap();
    assert_eq!(
        active.message,
        format!(
            "the HPA was unable to compute the replica count: {}",
            external("queue_depth")
        )
    );
    // A Value target's layer reads `failed to get external metric NAME`,
    // an Object metric's `failed to get object metric value`.
    let value_first = spec.replacen(
        "    - type: External
      external:
        metric:
          name: queue_depth
        target:
          type: AverageValue
          averageValue: \"30\"
",
        "",
        1,
    );
    let run = simulate(&text(2, &value_first, STEP), &Options::default());
    assert_eq!(
        warnings_at(&run, 15).last().map(|w| w.1.clone()),
        Some(format!(
            "invalid metrics (2 invalid out of 2), first error is: failed to get queue_total external metric value: failed to get external metric queue_total: {}",
            external("queue_total")
        ))
    );
    let object_only = format!(
        "  maxReplicas: 10\n  metrics:\n{}",
        &spec[spec.find("    - type: Object").unwrap()..]
    );
    let run = simulate(&text(2, &object_only, STEP), &Options::default());
    assert_eq!(
        warnings_at(&run, 15).last().map(|w| w.1.clone()),
        Some(format!(
            "invalid metrics (1 invalid out of 1), first error is: failed to get object metric value: {object}"
        ))
    );
}

/// A target the API server does not have: `reconcileAutoscaler`'s
/// `scaleForResourceMappings` fails, and every pass records Warning
/// `FailedGetScale` with the error and sets `AbleToScale` False
/// `FailedGetScale` (`the HPA controller was unable to get the target's
/// current scale: …`), which `describe hpa` shows from 0:15 on; the
/// status keeps no replicas (`0 current / 0 desired`).
#[test]
fn a_missing_target_sets_able_to_scale_false_reconcile_autoscaler() {
    let text = text(2, CPU_50, STEP).replace(
        "    kind: Deployment\n    name: model-api\n",
        "    kind: Deployment\n    name: model-api-v2\n",
    );
    let run = simulate(&text, &Options::default());
    let error = "deployments.apps \"model-api-v2\" not found";
    assert_eq!(
        warnings_at(&run, 15),
        vec![("FailedGetScale", error.to_string())]
    );
    assert_eq!(
        warnings_at(&run, 30),
        vec![("FailedGetScale", error.to_string())]
    );
    let first = &run.autoscalers[0].syncs[0];
    assert_eq!(first.at, 15_000);
    assert_eq!((first.current_replicas, first.desired_replicas), (0, 0));
    let able = &first.conditions[0];
    assert_eq!(
        (able.kind, able.status, able.reason),
        ("AbleToScale", false, "FailedGetScale")
    );
    assert_eq!(
        able.message,
        format!("the HPA controller was unable to get the target's current scale: {error}")
    );
    let describe = crate::explain::hpa::describe_hpa(&run, &run.autoscalers[0], 60_000);
    assert!(
        describe.contains("  AbleToScale  False   FailedGetScale  the HPA controller was unable to get the target's current scale: deployments.apps \"model-api-v2\" not found\n"),
        "{describe}"
    );
}

/// An HPA on a StatefulSet of the text: a cluster would scale it, podlab
/// does not yet. No pass runs (no `not found`, which the StatefulSet
/// controller's scale subresource would never answer), and the reading
/// says so in both languages (PL004, info).
#[test]
fn a_statefulset_target_is_said_not_simulated() {
    let text = text(2, CPU_50, STEP)
        .replacen("kind: Deployment\n", "kind: StatefulSet\n", 1)
        .replace(
            "    kind: Deployment\n    name: model-api\n",
            "    kind: StatefulSet\n    name: model-api\n",
        );
    let run = simulate(&text, &Options::default());
    assert!(run.autoscalers[0].syncs.is_empty());
    assert!(run
        .events
        .iter()
        .all(|e| e.source != "horizontal-pod-autoscaler"));
    let reading = crate::manifest::read::read(&text);
    let said: Vec<_> = reading
        .diagnostics
        .iter()
        .filter(|d| d.rule == "PL004")
        .collect();
    assert_eq!(said.len(), 1);
    assert_eq!(
        said[0].message.en,
        "the autoscaler `model-api` targets the StatefulSet `model-api`: podlab does not scale StatefulSets by HPA yet, so its passes are not simulated and the StatefulSet keeps its replicas"
    );
    assert!(said[0].message.zh_tw.contains("StatefulSet"));
    // Said by default, while PL004 about other kinds is quiet.
    let linted = crate::lint::lint(&text);
    assert_eq!(
        linted
            .diagnostics
            .iter()
            .filter(|d| d.rule == "PL004")
            .count(),
        1
    );
}
