//! The HorizontalPodAutoscaler (`autoscaling/v2`) lowered to what the
//! controller reads (`sim/hpa`), with the API server's defaults applied.
//!
//! Defaults (traffic-autoscaling.md §1.2, §1.4): `minReplicas` nil means 1;
//! `behavior` is filled in by `SetDefaults_HorizontalPodAutoscalerBehavior`
//! (`pkg/apis/autoscaling/v2/defaults.go`) **only when it is written**: each
//! direction's nil `stabilizationWindowSeconds`, `selectPolicy` and
//! `policies` take the default rules (`GenerateHPAScaleUpRules`,
//! `GenerateHPAScaleDownRules`, `copyHPAScalingRules`); scale-down's window
//! stays nil and the controller fills it with its flag (300 s,
//! `maybeInitScaleDownStabilizationWindow`). Without `behavior` the legacy
//! path applies.
//!
//! Like the other lowerings it never fails: a value of the wrong shape was
//! reported by `validate.rs` (PL003) and is treated as absent here.

use crate::manifest::quantity;
use crate::manifest::yaml::Node;
use crate::span::Span;

/// One HorizontalPodAutoscaler document.
#[derive(Clone, Debug, PartialEq)]
pub struct Autoscaler {
    pub name: String,
    pub kind_span: Span,
    /// The whole document.
    pub span: Span,
    /// `spec.scaleTargetRef`: `Deployment`, `model-api`.
    pub target_kind: String,
    pub target_name: String,
    /// `spec.minReplicas`, default 1.
    pub min_replicas: i32,
    pub max_replicas: i32,
    /// Where `minReplicas` and `maxReplicas` are written (for the rules).
    pub min_span: Option<Span>,
    pub max_span: Option<Span>,
    /// `spec.metrics`, in order. The API defaults an empty list to CPU at
    /// 80 % (`SetDefaults_HorizontalPodAutoscaler`).
    pub metrics: Vec<MetricSpec>,
    /// `spec.behavior` with its defaults, when written.
    pub behavior: Option<Behavior>,
    /// Set when this HPA is the one a KEDA ScaledObject owns
    /// (`keda-hpa-<name>`, `manifest::keda`): KEDA's own loop runs beside it.
    pub keda: Option<crate::manifest::keda::Keda>,
}

/// One entry of `spec.metrics`.
#[derive(Clone, Debug, PartialEq)]
pub struct MetricSpec {
    pub source: MetricSource,
    pub target: Target,
    /// The target quantity was written with a binary suffix (`4Gi`): the
    /// API server keeps it BinarySI, so kubectl prints it that way
    /// (`explain::hpa`).
    pub binary_target: bool,
    /// An `Object` metric's `describedObject` (kind, name), as `describe
    /// hpa` prints it.
    pub described_object: Option<(String, String)>,
    /// The metric's entry in `spec.metrics`; `None` for the API's default.
    pub span: Option<Span>,
}

#[derive(Clone, Debug, PartialEq)]
pub enum MetricSource {
    /// `type: Resource` (`container: None`) or `ContainerResource`.
    Resource {
        name: String,
        container: Option<String>,
    },
    /// `type: Pods`: a per-pod metric of the custom metrics API.
    Pods { name: String },
    /// `Object` or `External`: not simulated (the metric always fails).
    Other { kind: String, name: String },
}

/// `target`: values are milli-units, as the controller reads them
/// (`Quantity.MilliValue()`).
#[derive(Clone, Debug, PartialEq)]
pub enum Target {
    Utilization(i32),
    AverageValue(i64),
    Value(i64),
    /// No usable target was written.
    Missing,
}

/// `spec.behavior`, defaults filled.
#[derive(Clone, Debug, PartialEq)]
pub struct Behavior {
    pub scale_up: Rules,
    pub scale_down: Rules,
}

/// `HPAScalingRules`.
#[derive(Clone, Debug, PartialEq)]
pub struct Rules {
    /// Seconds; `None` for scale-down means the controller's flag (300 s).
    pub stabilization_window_seconds: Option<i32>,
    pub select_policy: SelectPolicy,
    pub policies: Vec<Policy>,
    /// `tolerance` (gate `HPAConfigurableTolerance`, beta and on in 1.35),
    /// milli-units; `None`: the flag's 0.1.
    pub tolerance_milli: Option<i64>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SelectPolicy {
    Max,
    Min,
    Disabled,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Policy {
    pub percent: bool,
    pub value: i32,
    pub period_seconds: i32,
}

impl Rules {
    /// `GenerateHPAScaleUpRules`' defaults: window 0, Max, 4 pods or 100 %
    /// per 15 s.
    pub fn default_scale_up() -> Rules {
        Rules {
            stabilization_window_seconds: Some(0),
            select_policy: SelectPolicy::Max,
            policies: vec![
                Policy {
                    percent: false,
                    value: 4,
                    period_seconds: 15,
                },
                Policy {
                    percent: true,
                    value: 100,
                    period_seconds: 15,
                },
            ],
            tolerance_milli: None,
        }
    }

    /// `GenerateHPAScaleDownRules`' defaults: window nil (the flag's 300 s),
    /// Max, 100 % per 15 s.
    pub fn default_scale_down() -> Rules {
        Rules {
            stabilization_window_seconds: None,
            select_policy: SelectPolicy::Max,
            policies: vec![Policy {
                percent: true,
                value: 100,
                period_seconds: 15,
            }],
            tolerance_milli: None,
        }
    }
}

/// Lowers a `kind: HorizontalPodAutoscaler` document.
pub fn lower_autoscaler(root: &Node, kind_span: Span, span: Span) -> Autoscaler {
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
            .unwrap_or_default()
            .to_string()
    };
    let int = |node: Option<&Node>| node.and_then(Node::as_int);
    let to_i32 = |value: i64| i32::try_from(value).unwrap_or(if value < 0 { 0 } else { i32::MAX });
    let mut metrics: Vec<MetricSpec> = get("metrics")
        .and_then(Node::items)
        .unwrap_or(&[])
        .iter()
        .map(lower_metric)
        .collect();
    if metrics.is_empty() {
        // `SetDefaults_HorizontalPodAutoscaler`: no metrics means CPU at 80 %.
        metrics.push(MetricSpec {
            source: MetricSource::Resource {
                name: "cpu".into(),
                container: None,
            },
            target: Target::Utilization(80),
            binary_target: false,
            described_object: None,
            span: None,
        });
    }
    let behavior = lower_behavior(get("behavior"));
    Autoscaler {
        name,
        kind_span,
        span,
        target_kind: target_str("kind"),
        target_name: target_str("name"),
        min_replicas: int(get("minReplicas")).map_or(1, to_i32),
        max_replicas: int(get("maxReplicas")).map_or(0, to_i32),
        min_span: get("minReplicas").map(|node| node.span),
        max_span: get("maxReplicas").map(|node| node.span),
        metrics,
        behavior,
        keda: None,
    }
}

/// `spec.behavior` with the API's defaults, when written
/// (`SetDefaults_HorizontalPodAutoscalerBehavior`).
pub fn lower_behavior(node: Option<&Node>) -> Option<Behavior> {
    node.filter(|node| !node.is_null()).map(|node| {
        let rules =
            |key: &str, defaults: Rules| match node.get(key).filter(|rules| !rules.is_null()) {
                Some(rules) => lower_rules(rules, defaults),
                None => defaults,
            };
        Behavior {
            scale_up: rules("scaleUp", Rules::default_scale_up()),
            scale_down: rules("scaleDown", Rules::default_scale_down()),
        }
    })
}

/// `copyHPAScalingRules`: every written field replaces the default.
fn lower_rules(node: &Node, mut rules: Rules) -> Rules {
    if let Some(window) = node
        .get("stabilizationWindowSeconds")
        .and_then(Node::as_int)
    {
        rules.stabilization_window_seconds = Some(window.clamp(0, 3600) as i32);
    }
    match node.get("selectPolicy").and_then(Node::as_str) {
        Some("Max") => rules.select_policy = SelectPolicy::Max,
        Some("Min") => rules.select_policy = SelectPolicy::Min,
        Some("Disabled") => rules.select_policy = SelectPolicy::Disabled,
        _ => {}
    }
    if let Some(items) = node.get("policies").and_then(Node::items) {
        rules.policies = items
            .iter()
            .filter_map(|item| {
                let percent = match item.get("type").and_then(Node::as_str)? {
                    "Pods" => false,
                    "Percent" => true,
                    _ => return None,
                };
                Some(Policy {
                    percent,
                    value: item.get("value")?.as_int()?.clamp(0, i64::from(i32::MAX)) as i32,
                    period_seconds: item.get("periodSeconds")?.as_int()?.clamp(0, 1800) as i32,
                })
            })
            .collect();
    }
    if let Some(tolerance) = node.get("tolerance").and_then(milli_of) {
        rules.tolerance_milli = Some(tolerance);
    }
    rules
}

fn lower_metric(item: &Node) -> MetricSpec {
    let kind = item.get("type").and_then(Node::as_str).unwrap_or_default();
    let key = match kind {
        "Resource" => "resource",
        "ContainerResource" => "containerResource",
        "Pods" => "pods",
        "Object" => "object",
        "External" => "external",
        _ => "",
    };
    let source_node = item.get(key);
    let field = |key: &str| {
        source_node
            .and_then(|node| node.get(key))
            .and_then(Node::as_str)
            .unwrap_or_default()
            .to_string()
    };
    let metric_name = source_node
        .and_then(|node| node.get("metric"))
        .and_then(|metric| metric.get("name"))
        .and_then(Node::as_str)
        .unwrap_or_default()
        .to_string();
    let source = match kind {
        "Resource" => MetricSource::Resource {
            name: field("name"),
            container: None,
        },
        "ContainerResource" => MetricSource::Resource {
            name: field("name"),
            container: Some(field("container")),
        },
        "Pods" => MetricSource::Pods { name: metric_name },
        _ => MetricSource::Other {
            kind: kind.to_string(),
            name: metric_name,
        },
    };
    let target_node = source_node.and_then(|node| node.get("target"));
    let target = target_node.map_or(Target::Missing, |target| {
        let utilization = target
            .get("averageUtilization")
            .and_then(Node::as_int)
            .map(|value| Target::Utilization(value.clamp(1, i64::from(i32::MAX)) as i32));
        let average = target
            .get("averageValue")
            .and_then(milli_of)
            .map(Target::AverageValue);
        let value = target.get("value").and_then(milli_of).map(Target::Value);
        match target.get("type").and_then(Node::as_str) {
            Some("Utilization") => utilization,
            Some("AverageValue") => average,
            Some("Value") => value,
            _ => utilization.or(average).or(value),
        }
        .unwrap_or(Target::Missing)
    });
    let binary_target = target_node
        .and_then(|target| {
            let key = match target.get("type").and_then(Node::as_str) {
                Some("Value") => "value",
                _ => "averageValue",
            };
            target.get(key)?.as_str()
        })
        .is_some_and(|written| written.trim_end().ends_with('i'));
    let described_object = (kind == "Object").then(|| {
        let described = source_node.and_then(|node| node.get("describedObject"));
        let part = |key: &str| {
            described
                .and_then(|node| node.get(key))
                .and_then(Node::as_str)
                .unwrap_or_default()
                .to_string()
        };
        (part("kind"), part("name"))
    });
    MetricSpec {
        source,
        target,
        binary_target,
        described_object,
        span: Some(item.span),
    }
}

/// A quantity's milli-value (`MilliValue()`), rounded up as Kubernetes does.
fn milli_of(node: &Node) -> Option<i64> {
    let parsed = quantity::parse(node.as_str()?).ok()?;
    if parsed.is_negative() {
        return None;
    }
    i64::try_from(parsed.milli).ok()
}
