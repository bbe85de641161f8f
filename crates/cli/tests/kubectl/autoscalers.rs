//! The HorizontalPodAutoscalers of a run at a time T as the API server
//! would return them: autoscaling/v2 objects whose status is what the
//! controller's last pass at or before T wrote (`sim::hpa::Pass`:
//! `currentReplicas`, `desiredReplicas`, `currentMetrics`, `conditions`,
//! `lastScaleTime`), their core/v1 Events (the legacy recorder of
//! kube-controller-manager: `source.component: horizontal-pod-autoscaler`,
//! no host), and the `meta.k8s.io/v1` Table the API server prints for
//! `kubectl get hpa`.
//!
//! Why a Table: as for EndpointSlices (services.rs), the HPA columns are
//! computed in kube-apiserver (`pkg/printers/internalversion/printers.go`
//! `printHorizontalPodAutoscaler`, `formatHPAMetrics`), so `table` ports
//! that Go printer over the JSON objects below, independently of podlab's
//! renderer, and kubectl lays the cells out. `kubectl describe hpa` is
//! kubectl's own (`describeHorizontalPodAutoscalerV2`).
//!
//! Current values are served as raw milli-quantities (`"12000m"`): kubectl
//! parses and prints them itself (`Quantity.String()`), so podlab's
//! canonical forms are checked, not copied. Targets are served in the form
//! the API server stores them, which podlab's `explain::hpa` computes.

use podlab_core::explain::events;
use podlab_core::explain::human_duration;
use podlab_core::manifest::duration::Millis;
use podlab_core::manifest::hpa::{MetricSource, MetricSpec, SelectPolicy, Target};
use podlab_core::sim::hpa::{AutoscalerRun, MetricValue};
use podlab_core::sim::Run;
use serde_json::{json, Value};

use super::objects::Clock;

/// A uid fixed by the HPA's name.
pub fn uid(name: &str) -> String {
    let hash = format!("hpa/{name}")
        .bytes()
        .fold(0xcbf2_9ce4_8422_2325u64, |hash, byte| {
            (hash ^ u64::from(byte)).wrapping_mul(0x0000_0100_0000_01b3)
        });
    format!(
        "{:08x}-{:04x}-4{:03x}-9{:03x}-{:012x}",
        hash >> 32,
        (hash >> 16) & 0xffff,
        hash & 0xfff,
        (hash >> 8) & 0xfff,
        hash & 0xffff_ffff_ffff
    )
}

/// A target quantity as stored (BinarySI when written with a binary suffix).
fn target_quantity(spec: &MetricSpec, milli: i64) -> String {
    if spec.binary_target {
        podlab_core::explain::hpa::binary_si(milli)
    } else {
        podlab_core::explain::hpa::decimal_si(milli)
    }
}

fn target(spec: &MetricSpec) -> Value {
    match spec.target {
        Target::Utilization(percent) => {
            json!({ "type": "Utilization", "averageUtilization": percent })
        }
        Target::AverageValue(milli) => {
            json!({ "type": "AverageValue", "averageValue": target_quantity(spec, milli) })
        }
        Target::Value(milli) => json!({ "type": "Value", "value": target_quantity(spec, milli) }),
        Target::Missing => json!({ "type": "AverageValue" }),
    }
}

fn metric_spec(spec: &MetricSpec) -> Value {
    match &spec.source {
        MetricSource::Resource {
            name,
            container: None,
        } => json!({ "type": "Resource", "resource": { "name": name, "target": target(spec) } }),
        MetricSource::Resource {
            name,
            container: Some(container),
        } => json!({
            "type": "ContainerResource",
            "containerResource": { "name": name, "container": container, "target": target(spec) },
        }),
        MetricSource::Pods { name } => json!({
            "type": "Pods",
            "pods": { "metric": { "name": name }, "target": target(spec) },
        }),
        MetricSource::Other { kind, name } if kind == "Object" => {
            let (described_kind, described_name) =
                spec.described_object.clone().unwrap_or_default();
            json!({
                "type": "Object",
                "object": {
                    "describedObject": { "kind": described_kind, "name": described_name },
                    "metric": { "name": name },
                    "target": target(spec),
                },
            })
        }
        MetricSource::Other { kind, name } => json!({
            "type": kind,
            "external": { "metric": { "name": name }, "target": target(spec) },
        }),
    }
}

/// One `status.currentMetrics` entry (`computeStatusFor*Metric`); a failed
/// metric leaves the zero `MetricStatus`.
fn metric_status(spec: &MetricSpec, value: Option<&MetricValue>) -> Value {
    let Some(value) = value else {
        return json!({ "type": "" });
    };
    // A memory average is BinarySI (`buildQuantity`, v1.34): served in
    // whole KiB when it is a whole number of KiB, so that kubectl, not
    // podlab, brings it to its largest binary suffix; any other value
    // reaches kubectl as DecimalSI, as the API server's suffix-less text
    // would (`explain::hpa::current_quantity`).
    let memory = matches!(&spec.source, MetricSource::Resource { name, .. } if name == "memory");
    let served = |milli: i64| {
        if memory && milli >= 1024 * 1000 && milli % (1024 * 1000) == 0 {
            format!("{}Ki", milli / (1024 * 1000))
        } else {
            format!("{milli}m")
        }
    };
    let current = match value {
        MetricValue::Utilization {
            percent,
            average_milli,
        } => json!({ "averageValue": served(*average_milli), "averageUtilization": percent }),
        MetricValue::AverageValue { milli } => json!({ "averageValue": served(*milli) }),
    };
    match &spec.source {
        MetricSource::Resource {
            name,
            container: None,
        } => json!({ "type": "Resource", "resource": { "name": name, "current": current } }),
        MetricSource::Resource {
            name,
            container: Some(container),
        } => json!({
            "type": "ContainerResource",
            "containerResource": { "name": name, "container": container, "current": current },
        }),
        MetricSource::Pods { name } => json!({
            "type": "Pods",
            "pods": { "metric": { "name": name }, "current": current },
        }),
        MetricSource::Other { kind, name } if kind == "External" => json!({
            "type": "External",
            "external": { "metric": { "name": name }, "current": current },
        }),
        MetricSource::Other { .. } => json!({ "type": "" }),
    }
}

fn rules(rules: &podlab_core::manifest::hpa::Rules) -> Value {
    let mut out = json!({
        "selectPolicy": match rules.select_policy {
            SelectPolicy::Max => "Max",
            SelectPolicy::Min => "Min",
            SelectPolicy::Disabled => "Disabled",
        },
        "policies": rules.policies.iter().map(|policy| json!({
            "type": if policy.percent { "Percent" } else { "Pods" },
            "value": policy.value,
            "periodSeconds": policy.period_seconds,
        })).collect::<Vec<_>>(),
    });
    if let Some(window) = rules.stabilization_window_seconds {
        out["stabilizationWindowSeconds"] = json!(window);
    }
    out
}

/// The autoscaling/v2 object at `at`.
pub fn autoscaler(autoscaler: &AutoscalerRun, at: Millis, clock: Clock) -> Value {
    let spec = &autoscaler.spec;
    let mut spec_json = json!({
        "scaleTargetRef": {
            "apiVersion": "apps/v1",
            "kind": spec.target_kind,
            "name": spec.target_name,
        },
        "minReplicas": spec.min_replicas,
        "maxReplicas": spec.max_replicas,
        "metrics": spec.metrics.iter().map(metric_spec).collect::<Vec<_>>(),
    });
    if let Some(behavior) = &spec.behavior {
        spec_json["behavior"] = json!({
            "scaleUp": rules(&behavior.scale_up),
            "scaleDown": rules(&behavior.scale_down),
        });
    }
    let pass = autoscaler
        .syncs
        .iter()
        .take_while(|pass| pass.at <= at)
        .last();
    let mut status = json!({
        "currentReplicas": pass.map_or(0, |pass| pass.current_replicas),
        "desiredReplicas": pass.map_or(0, |pass| pass.desired_replicas),
    });
    if let Some(pass) = pass {
        status["currentMetrics"] = json!(spec
            .metrics
            .iter()
            .zip(&pass.metrics)
            .map(|(spec, value)| metric_status(spec, value.as_ref()))
            .collect::<Vec<_>>());
        status["conditions"] = json!(pass
            .conditions
            .iter()
            .map(|condition| json!({
                "type": condition.kind,
                "status": if condition.status { "True" } else { "False" },
                "lastTransitionTime": clock.time(condition.last_transition),
                "reason": condition.reason,
                "message": condition.message,
            }))
            .collect::<Vec<_>>());
    }
    if let Some(last) = podlab_core::explain::hpa::last_scale_time(autoscaler, at) {
        status["lastScaleTime"] = json!(clock.time(last));
    }
    json!({
        "apiVersion": "autoscaling/v2",
        "kind": "HorizontalPodAutoscaler",
        "metadata": {
            "name": autoscaler.name,
            "namespace": "default",
            "uid": uid(&autoscaler.name),
            "resourceVersion": "100",
            "creationTimestamp": clock.time(0),
        },
        "spec": spec_json,
        "status": status,
    })
}

/// The core/v1 Events about the HPA at `at`, from podlab's aggregator.
pub fn events(run: &Run, autoscaler: &AutoscalerRun, at: Millis, clock: Clock) -> Vec<Value> {
    let object = format!("HorizontalPodAutoscaler/{}", autoscaler.name);
    events::aggregate(run, &object, at)
        .iter()
        .map(|event| {
            json!({
                "kind": "Event",
                "apiVersion": "v1",
                "metadata": {
                    "name": event.name,
                    "namespace": "default",
                    "resourceVersion": "1000",
                    "creationTimestamp": clock.time(event.first),
                },
                "involvedObject": {
                    "kind": "HorizontalPodAutoscaler",
                    "namespace": "default",
                    "name": autoscaler.name,
                    "uid": uid(&autoscaler.name),
                    "apiVersion": "autoscaling/v2",
                    "resourceVersion": "100",
                },
                "reason": event.reason,
                "message": event.message,
                "type": event.type_name(),
                "source": { "component": event.source },
                "firstTimestamp": clock.time(event.first),
                "lastTimestamp": clock.time(event.last),
                "count": event.count,
                "eventTime": null,
                "reportingComponent": "",
                "reportingInstance": "",
            })
        })
        .collect()
}

/// Every HPA of the run and all their events at `at`.
pub fn served(run: &Run, at: Millis, clock: Clock) -> (Vec<Value>, Vec<Value>) {
    let objects = run
        .autoscalers
        .iter()
        .map(|hpa| autoscaler(hpa, at, clock))
        .collect();
    let events = run
        .autoscalers
        .iter()
        .flat_map(|hpa| events(run, hpa, at, clock))
        .collect();
    (objects, events)
}

/// `Quantity.String()` of a quantity as served here (`"850m"`, `"1Gi"`):
/// a test-side port of `CanonicalizeBytes` for the two formats served.
fn quantity(text: &str) -> String {
    let binary = ["Ki", "Mi", "Gi", "Ti", "Pi", "Ei"];
    for (index, suffix) in binary.iter().enumerate() {
        if let Some(number) = text.strip_suffix(suffix) {
            let value: i64 = number.parse().expect("a served quantity");
            let milli = value * 1024_i64.pow(index as u32 + 1) * 1000;
            return podlab_core::explain::hpa::binary_si(milli);
        }
    }
    let milli: i64 = match text.strip_suffix('m') {
        Some(number) => number.parse().expect("a served quantity"),
        None => {
            let (number, scale) = [("k", 1_000), ("M", 1_000_000), ("G", 1_000_000_000)]
                .iter()
                .find_map(|(suffix, scale)| text.strip_suffix(suffix).map(|n| (n, *scale)))
                .unwrap_or((text, 1));
            number.parse::<i64>().expect("a served quantity") * scale * 1000
        }
    };
    // DecimalSI: factors of 1000 removed while the exponent allows.
    let (mut value, mut exponent) = (milli, -3);
    while value != 0 && value % 1000 == 0 && exponent < 18 {
        value /= 1000;
        exponent += 3;
    }
    let suffix = match exponent {
        -3 => "m",
        3 => "k",
        6 => "M",
        9 => "G",
        12 => "T",
        15 => "P",
        18 => "E",
        _ => "",
    };
    if value == 0 {
        "0".to_string()
    } else {
        format!("{value}{suffix}")
    }
}

fn text_or(value: &Value, fallback: &str) -> String {
    value.as_str().map_or(fallback.to_string(), quantity)
}

/// `formatHPAMetrics` over the served JSON.
fn format_metrics(specs: &[Value], statuses: &[Value]) -> String {
    if specs.is_empty() {
        return "<none>".to_string();
    }
    let mut list = Vec::new();
    for (i, spec) in specs.iter().enumerate() {
        let status = statuses.get(i);
        let entry = match spec["type"].as_str().unwrap_or_default() {
            "External" | "Object" => {
                let key = if spec["type"] == "External" {
                    "external"
                } else {
                    "object"
                };
                let target = &spec[key]["target"];
                if target.get("averageValue").is_some() {
                    let current = status
                        .and_then(|s| s.get(key))
                        .map(|s| text_or(&s["current"]["averageValue"], "<unknown>"))
                        .unwrap_or_else(|| "<unknown>".into());
                    format!(
                        "{current}/{} (avg)",
                        text_or(&target["averageValue"], "<nil>")
                    )
                } else {
                    let current = status
                        .and_then(|s| s.get(key))
                        .map(|s| text_or(&s["current"]["value"], "<nil>"))
                        .unwrap_or_else(|| "<unknown>".into());
                    format!("{current}/{}", text_or(&target["value"], "<nil>"))
                }
            }
            "Pods" => {
                let current = status
                    .and_then(|s| s.get("pods"))
                    .map(|s| text_or(&s["current"]["averageValue"], "<nil>"))
                    .unwrap_or_else(|| "<unknown>".into());
                format!(
                    "{current}/{}",
                    text_or(&spec["pods"]["target"]["averageValue"], "<nil>")
                )
            }
            kind @ ("Resource" | "ContainerResource") => {
                let key = if kind == "Resource" {
                    "resource"
                } else {
                    "containerResource"
                };
                let name = spec[key]["name"].as_str().unwrap_or_default();
                let target = &spec[key]["target"];
                let current_status = status.and_then(|s| s.get(key));
                if target.get("averageValue").is_some() {
                    let current = current_status
                        .map(|s| text_or(&s["current"]["averageValue"], "<nil>"))
                        .unwrap_or_else(|| "<unknown>".into());
                    format!(
                        "{name}: {current}/{}",
                        text_or(&target["averageValue"], "<nil>")
                    )
                } else {
                    let current = current_status
                        .and_then(|s| s["current"]["averageUtilization"].as_i64())
                        .map_or("<unknown>".to_string(), |u| format!("{u}%"));
                    let wanted = target["averageUtilization"]
                        .as_i64()
                        .map_or("<auto>".to_string(), |u| format!("{u}%"));
                    format!("{name}: {current}/{wanted}")
                }
            }
            _ => "<unknown type>".to_string(),
        };
        list.push(entry);
    }
    let maximum = 2;
    let count = list.len();
    if count > maximum {
        format!(
            "{} + {} more...",
            list[..maximum].join(", "),
            count - maximum
        )
    } else {
        list.join(", ")
    }
}

/// The Table kube-apiserver returns for `kubectl get hpa`
/// (`printHorizontalPodAutoscaler`, the columns of `AddHandlers`), its AGE
/// at the simulated time `at` (`translateTimestampSince`, the server's
/// clock: every HPA is created at 0).
pub fn table(objects: &[Value], at: Millis) -> Value {
    let column = |name: &str, kind: &str, format: &str| json!({ "name": name, "type": kind, "format": format, "description": "", "priority": 0 });
    let mut sorted: Vec<&Value> = objects.iter().collect();
    sorted.sort_by(|a, b| {
        a["metadata"]["name"]
            .as_str()
            .cmp(&b["metadata"]["name"].as_str())
    });
    let rows: Vec<Value> = sorted
        .into_iter()
        .map(|hpa| {
            let reference = format!(
                "{}/{}",
                hpa["spec"]["scaleTargetRef"]["kind"]
                    .as_str()
                    .unwrap_or_default(),
                hpa["spec"]["scaleTargetRef"]["name"]
                    .as_str()
                    .unwrap_or_default()
            );
            let min_pods = hpa["spec"]["minReplicas"]
                .as_i64()
                .map_or("<unset>".to_string(), |min| min.to_string());
            let metrics = format_metrics(
                hpa["spec"]["metrics"]
                    .as_array()
                    .map_or(&[][..], Vec::as_slice),
                hpa["status"]["currentMetrics"]
                    .as_array()
                    .map_or(&[][..], Vec::as_slice),
            );
            json!({
                "cells": [
                    hpa["metadata"]["name"],
                    reference,
                    metrics,
                    min_pods,
                    hpa["spec"]["maxReplicas"],
                    hpa["status"]["currentReplicas"],
                    human_duration(at - at % 1000),
                ],
                "object": {
                    "kind": "PartialObjectMetadata",
                    "apiVersion": "meta.k8s.io/v1",
                    "metadata": hpa["metadata"],
                },
            })
        })
        .collect();
    json!({
        "kind": "Table",
        "apiVersion": "meta.k8s.io/v1",
        "metadata": { "resourceVersion": "1000" },
        "columnDefinitions": [
            column("Name", "string", "name"),
            column("Reference", "string", ""),
            column("Targets", "string", ""),
            column("MinPods", "string", ""),
            column("MaxPods", "integer", ""),
            column("Replicas", "integer", ""),
            column("Age", "string", ""),
        ],
        "rows": rows,
    })
}
