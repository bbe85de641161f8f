//! KEDA's `ScaledObject` (`keda.sh/v1alpha1`, KEDA v2.18.3) lowered to the
//! HorizontalPodAutoscaler it owns plus what KEDA's own loop reads
//! (traffic-autoscaling.md §3.1, §3.2; docs/autoscaling.md, "KEDA").
//!
//! - The HPA (`controllers/keda/hpa.go` `newHPAForScaledObject`,
//!   `getHPAName`): named `keda-hpa-<name>` unless
//!   `advanced.horizontalPodAutoscalerConfig.name` says otherwise;
//!   `minReplicas` = `minReplicaCount` when above 0, else 1
//!   (`GetHPAMinReplicas`: only KEDA moves 0 ↔ 1); `maxReplicas` =
//!   `maxReplicaCount` (default 100, `defaultHPAMaxReplicas`); `behavior`
//!   from `advanced.horizontalPodAutoscalerConfig.behavior`, else nil (the
//!   legacy path); one External metric per trigger named `s<i>-<type>`
//!   (`GenerateMetricNameWithIndex`) with an `AverageValue` target = the
//!   trigger's `threshold` (`GetMetricTargetType`).
//! - KEDA's loop (`withtriggers_types.go`, `scale_scaledobjects.go`):
//!   `pollingInterval` 30 s, `cooldownPeriod` 300 s, `minReplicaCount` 0.
//! - A `prometheus` trigger (`pkg/scalers/prometheus_scaler.go`):
//!   `serverAddress`, `query`, `threshold` required, `activationThreshold`
//!   0, `ignoreNullValues` true. podlab cannot run PromQL: the query is read
//!   for the name of a series the traffic model serves ([`Series`]).
//!
//! Never fails: a wrong value is a PL003 diagnostic and is treated as
//! absent.

use crate::diagnostic::Diagnostic;
use crate::manifest::duration::Millis;
use crate::manifest::hpa::{self, Autoscaler, MetricSource, MetricSpec, Target};
use crate::manifest::quantity;
use crate::manifest::validate::invalid_value;
use crate::manifest::yaml::Node;
use crate::span::Span;
use crate::text;

/// `defaultPollingInterval`.
pub const DEFAULT_POLLING_SECONDS: i64 = 30;
/// `defaultCooldownPeriod`.
pub const DEFAULT_COOLDOWN_SECONDS: i64 = 300;
/// `defaultHPAMaxReplicas`.
pub const DEFAULT_MAX_REPLICAS: i64 = 100;

/// What KEDA's own loop reads of a ScaledObject.
#[derive(Clone, Debug, PartialEq)]
pub struct Keda {
    /// The ScaledObject's name (its events' object).
    pub name: String,
    pub polling_ms: Millis,
    pub cooldown_ms: Millis,
    /// `initialCooldownPeriod` (default 0): before the first activity, the
    /// target is not scaled to 0 until this long after creation.
    pub initial_cooldown_ms: Millis,
    /// `minReplicaCount` as written (default 0).
    pub min_replica_count: i32,
    /// The first `prometheus` trigger; `None` when there is none (KEDA's
    /// loop then never acts in podlab).
    pub trigger: Option<Prometheus>,
    /// `minReplicaCount`'s value, when written (for the rules).
    pub min_span: Option<Span>,
}

/// A `prometheus` trigger.
#[derive(Clone, Debug, PartialEq)]
pub struct Prometheus {
    pub query: String,
    /// The series the query names, or `None`: a series nobody exports
    /// (an empty result).
    pub series: Option<Series>,
    pub threshold_milli: i64,
    pub activation_milli: i64,
    /// `ignoreNullValues` (default true): an empty result reads 0 instead
    /// of failing.
    pub ignore_null_values: bool,
    /// The index of its External metric in the HPA (`s<i>-prometheus`).
    pub metric_index: usize,
}

/// The series of the traffic model a query can name (docs/autoscaling.md,
/// "KEDA": how podlab reads a PromQL query).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Series {
    /// `requests_per_second`: the requests that arrive at the Service, as
    /// the ingress (or the HTTP add-on's interceptor) in front of it counts
    /// them, whatever became of them; `rate()` over a minute.
    RequestsPerSecond,
    /// `requests_in_queue`: the pods' queue gauges, summed over the target's
    /// pods that listen (empty when none does).
    RequestsInQueue,
}

impl Series {
    /// The series a PromQL query names: the first of the two names found as
    /// a whole identifier.
    pub fn of_query(query: &str) -> Option<Series> {
        let named = |name: &str| {
            query.match_indices(name).any(|(start, _)| {
                let ident = |c: char| c.is_ascii_alphanumeric() || c == '_' || c == ':';
                let before = query[..start].chars().next_back();
                let after = query[start + name.len()..].chars().next();
                !before.is_some_and(ident) && !after.is_some_and(ident)
            })
        };
        if named("requests_per_second") {
            Some(Series::RequestsPerSecond)
        } else if named("requests_in_queue") {
            Some(Series::RequestsInQueue)
        } else {
            None
        }
    }
}

/// Lowers a `kind: ScaledObject` document to the HPA KEDA creates for it,
/// with the PL003 diagnostics of what KEDA would refuse; `None` when KEDA's
/// reconcile refuses the replica counts (it then creates no HPA).
pub fn lower_scaled_object(
    root: &Node,
    kind_span: Span,
    span: Span,
) -> (Option<Autoscaler>, Vec<Diagnostic>) {
    let mut diagnostics = Vec::new();
    let name = root
        .get("metadata")
        .and_then(|meta| meta.get("name"))
        .and_then(Node::as_str)
        .unwrap_or_default()
        .to_string();
    let spec = root.get("spec");
    let get = |key: &str| spec.and_then(|spec| spec.get(key));
    let target = get("scaleTargetRef");
    let target_str = |key: &str| {
        target
            .and_then(|target| target.get(key))
            .and_then(Node::as_str)
            .map(str::to_string)
    };
    let int = |key: &str, default: i64| {
        get(key)
            .and_then(Node::as_int)
            .unwrap_or(default)
            .clamp(0, i64::from(i32::MAX))
    };
    let min_replica_count = int("minReplicaCount", 0) as i32;
    let max_replica_count = int("maxReplicaCount", DEFAULT_MAX_REPLICAS) as i32;
    // `CheckReplicaCountBoundsAreValid` (`scaledobject_types.go`), run by
    // the ScaledObject controller's reconcile (`scaledobject_controller.go`:
    // `ScaledObject doesn't have correct Idle/Min/Max Replica Counts
    // specification`; the webhook only logs it): the minimum it compares is
    // `GetHPAMinReplicas` (`minReplicaCount` when above 0, else 1) when
    // `minReplicaCount` is written, 0 when it is not. KEDA then creates no
    // HPA and never scales the target: the autoscaler is not read.
    let min_node = get("minReplicaCount").filter(|node| node.as_int().is_some());
    let bound_min = if min_node.is_some() {
        min_replica_count.max(1)
    } else {
        0
    };
    let mut refused = false;
    if bound_min > max_replica_count {
        refused = true;
        let span = get("maxReplicaCount")
            .or(min_node)
            .map_or(kind_span, |node| node.span);
        diagnostics.push(invalid_value(
            span,
            text!(
                "MinReplicaCount={bound_min} must be less than MaxReplicaCount={max_replica_count}: KEDA creates no HPA for this ScaledObject and never scales its target",
                "MinReplicaCount={bound_min} 必須小於 MaxReplicaCount={max_replica_count}：KEDA 不會為這個 ScaledObject 建立 HPA，也不會擴縮它的目標"
            ),
        ));
    } else if let Some(node) = get("idleReplicaCount") {
        if let Some(idle) = node.as_int() {
            if idle >= i64::from(bound_min) {
                refused = true;
                diagnostics.push(invalid_value(
                    node.span,
                    text!(
                        "IdleReplicaCount={idle} must be less than MinReplicaCount={bound_min}: KEDA creates no HPA for this ScaledObject and never scales its target",
                        "IdleReplicaCount={idle} 必須小於 MinReplicaCount={bound_min}：KEDA 不會為這個 ScaledObject 建立 HPA，也不會擴縮它的目標"
                    ),
                ));
            }
        }
    }
    let config = get("advanced").and_then(|advanced| advanced.get("horizontalPodAutoscalerConfig"));
    let hpa_name = config
        .and_then(|config| config.get("name"))
        .and_then(Node::as_str)
        .filter(|written| !written.is_empty())
        .map_or_else(|| format!("keda-hpa-{name}"), str::to_string);
    let behavior = hpa::lower_behavior(config.and_then(|config| config.get("behavior")));
    let mut metrics = Vec::new();
    let mut trigger = None;
    for (index, item) in get("triggers")
        .and_then(Node::items)
        .unwrap_or(&[])
        .iter()
        .enumerate()
    {
        let kind = item.get("type").and_then(Node::as_str).unwrap_or_default();
        let metadata = |key: &str| item.get("metadata").and_then(|m| m.get(key));
        let mut threshold = None;
        if kind == "prometheus" {
            for required in ["serverAddress", "query", "threshold"] {
                if metadata(required).and_then(Node::as_str).is_none() {
                    diagnostics.push(invalid_value(
                        item.get("metadata").map_or(item.span, |m| m.span),
                        text!(
                            "the prometheus trigger needs `metadata.{required}`",
                            "prometheus 觸發器需要 `metadata.{required}`"
                        ),
                    ));
                }
            }
            let number = |key: &str, diagnostics: &mut Vec<Diagnostic>| {
                let node = metadata(key)?;
                let written = node.as_str()?;
                match quantity::parse(written.trim()) {
                    Ok(parsed) if !parsed.is_negative() => i64::try_from(parsed.milli).ok(),
                    _ => {
                        diagnostics.push(invalid_value(
                            node.span,
                            text!(
                                "`{key}` must be a number, not `{written}`",
                                "`{key}` 必須是數字，不是 `{written}`"
                            ),
                        ));
                        None
                    }
                }
            };
            threshold = number("threshold", &mut diagnostics);
            let activation = number("activationThreshold", &mut diagnostics).unwrap_or(0);
            if trigger.is_none() {
                if let (Some(threshold), Some(query)) =
                    (threshold, metadata("query").and_then(Node::as_str))
                {
                    trigger = Some(Prometheus {
                        query: query.to_string(),
                        series: Series::of_query(query),
                        threshold_milli: threshold,
                        activation_milli: activation,
                        ignore_null_values: metadata("ignoreNullValues")
                            .and_then(Node::as_str)
                            .is_none_or(|value| !value.trim().eq_ignore_ascii_case("false")),
                        metric_index: index,
                    });
                }
            }
        }
        metrics.push(MetricSpec {
            source: MetricSource::Other {
                kind: "External".into(),
                name: format!("s{index}-{kind}"),
            },
            target: threshold.map_or(Target::Missing, Target::AverageValue),
            binary_target: false,
            described_object: None,
            span: Some(item.span),
        });
    }
    let seconds =
        |key: &str, default: i64| Millis::try_from(int(key, default).max(1)).unwrap_or(1) * 1000;
    let keda = Keda {
        name: name.clone(),
        polling_ms: seconds("pollingInterval", DEFAULT_POLLING_SECONDS),
        cooldown_ms: Millis::try_from(int("cooldownPeriod", DEFAULT_COOLDOWN_SECONDS)).unwrap_or(0)
            * 1000,
        initial_cooldown_ms: Millis::try_from(int("initialCooldownPeriod", 0)).unwrap_or(0) * 1000,
        min_replica_count,
        trigger,
        min_span: get("minReplicaCount").map(|node| node.span),
    };
    let autoscaler = Autoscaler {
        name: hpa_name,
        kind_span,
        span,
        target_kind: target_str("kind").unwrap_or_else(|| "Deployment".into()),
        target_name: target_str("name").unwrap_or_default(),
        // `GetHPAMinReplicas`: only KEDA scales between 0 and 1.
        min_replicas: min_replica_count.max(1),
        max_replicas: max_replica_count,
        min_span: get("minReplicaCount").map(|node| node.span),
        max_span: get("maxReplicaCount").map(|node| node.span),
        metrics,
        behavior,
        keda: Some(keda),
    };
    ((!refused).then_some(autoscaler), diagnostics)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_query_names_a_series_as_a_whole_identifier() {
        assert_eq!(
            Series::of_query("sum(rate(requests_per_second[1m]))"),
            Some(Series::RequestsPerSecond)
        );
        assert_eq!(
            Series::of_query("sum(requests_in_queue{app=\"x\"})"),
            Some(Series::RequestsInQueue)
        );
        assert_eq!(Series::of_query("sum(my_requests_in_queue_total)"), None);
        assert_eq!(Series::of_query("vllm:num_requests_waiting"), None);
    }

    fn lower(text: &str) -> (Option<Autoscaler>, Vec<Diagnostic>) {
        let index = crate::span::LineIndex::new(text);
        let stream = crate::manifest::yaml::parse(text, &index, &Default::default());
        let root = stream.documents[0].root.as_ref().expect("a document");
        lower_scaled_object(root, Span::new(0, 0), Span::new(0, text.len()))
    }

    #[test]
    fn defaults_and_the_hpa_it_owns() {
        let (hpa, diagnostics) = lower(
            "apiVersion: keda.sh/v1alpha1\nkind: ScaledObject\nmetadata: { name: model-api }\nspec:\n  scaleTargetRef: { name: model-api }\n  triggers:\n    - type: prometheus\n      metadata: { serverAddress: \"http://prometheus:9090\", query: \"sum(requests_in_queue)\", threshold: \"5\" }\n",
        );
        assert!(diagnostics.is_empty());
        let hpa = hpa.expect("read");
        assert_eq!(hpa.name, "keda-hpa-model-api");
        assert_eq!(hpa.target_kind, "Deployment");
        assert_eq!((hpa.min_replicas, hpa.max_replicas), (1, 100));
        assert_eq!(hpa.behavior, None);
        assert_eq!(
            hpa.metrics[0].source,
            MetricSource::Other {
                kind: "External".into(),
                name: "s0-prometheus".into()
            }
        );
        assert_eq!(hpa.metrics[0].target, Target::AverageValue(5000));
        let keda = hpa.keda.expect("keda");
        assert_eq!((keda.polling_ms, keda.cooldown_ms), (30_000, 300_000));
        assert_eq!(keda.min_replica_count, 0);
        let trigger = keda.trigger.expect("trigger");
        assert_eq!(trigger.series, Some(Series::RequestsInQueue));
        assert_eq!(trigger.activation_milli, 0);
        assert!(trigger.ignore_null_values);
    }

    #[test]
    fn a_bad_threshold_and_an_idle_count_are_refused() {
        let (hpa, diagnostics) = lower(
            "kind: ScaledObject\nmetadata: { name: m }\nspec:\n  scaleTargetRef: { name: m }\n  minReplicaCount: 1\n  idleReplicaCount: 1\n  triggers:\n    - type: prometheus\n      metadata: { serverAddress: \"http://p:9090\", query: \"up\", threshold: \"ten\" }\n",
        );
        let messages: Vec<String> = diagnostics
            .iter()
            .map(|d| d.message.en.to_string())
            .collect();
        assert_eq!(
            messages,
            [
                "IdleReplicaCount=1 must be less than MinReplicaCount=1: KEDA creates no HPA for this ScaledObject and never scales its target",
                "`threshold` must be a number, not `ten`"
            ]
        );
        assert_eq!(hpa, None);
    }

    /// `CheckReplicaCountBoundsAreValid` (KEDA v2.18.3
    /// `scaledobject_types.go`): the minimum compared is
    /// `GetHPAMinReplicas` (`max(minReplicaCount, 1)`) when
    /// `minReplicaCount` is written, 0 when it is not; `min > max` is
    /// checked first, with `maxReplicaCount`'s default 100.
    #[test]
    fn replica_count_bounds_follow_check_replica_count_bounds_are_valid() {
        let check = |fields: &str| {
            let (hpa, diagnostics) = lower(&format!(
                "kind: ScaledObject\nmetadata: {{ name: m }}\nspec:\n  scaleTargetRef: {{ name: m }}\n{fields}  triggers:\n    - type: prometheus\n      metadata: {{ serverAddress: \"http://p:9090\", query: \"up\", threshold: \"1\" }}\n"
            ));
            let first = diagnostics.first().map(|d| {
                let message = d.message.en.to_string();
                message.split(':').next().unwrap_or_default().to_string()
            });
            (hpa.is_some(), first)
        };
        // `minReplicaCount: 0` written: compared as 1, so idle 0 is fine.
        assert_eq!(
            check("  minReplicaCount: 0\n  idleReplicaCount: 0\n"),
            (true, None)
        );
        // Not written: compared as 0.
        assert_eq!(
            check("  idleReplicaCount: 0\n"),
            (
                false,
                Some("IdleReplicaCount=0 must be less than MinReplicaCount=0".into())
            )
        );
        assert_eq!(
            check("  minReplicaCount: 5\n  maxReplicaCount: 3\n"),
            (
                false,
                Some("MinReplicaCount=5 must be less than MaxReplicaCount=3".into())
            )
        );
        assert_eq!(
            check("  minReplicaCount: 0\n  maxReplicaCount: 0\n"),
            (
                false,
                Some("MinReplicaCount=1 must be less than MaxReplicaCount=0".into())
            )
        );
        assert_eq!(
            check("  minReplicaCount: 3\n  maxReplicaCount: 3\n"),
            (true, None)
        );
        // Both wrong: `min > max` is reported, as it is checked first.
        assert_eq!(
            check("  minReplicaCount: 5\n  maxReplicaCount: 3\n  idleReplicaCount: 9\n"),
            (
                false,
                Some("MinReplicaCount=5 must be less than MaxReplicaCount=3".into())
            )
        );
    }
}
