//! `kubectl get hpa` and `kubectl describe hpa NAME` at a time T, as
//! kubectl v1.35 prints them, from what the HorizontalPodAutoscaler
//! controller wrote (`Run::autoscalers`, `sim/hpa`). Promise: the same
//! (run, HPA, T) gives the same bytes; nothing here reads a clock.
//!
//! Sources (read at kubectl v0.35.2 / kubernetes v1.35):
//! - `kubectl get hpa` is printed by kube-apiserver as a Table:
//!   `pkg/printers/internalversion/printers.go` `printHorizontalPodAutoscaler`
//!   (columns NAME REFERENCE TARGETS MINPODS MAXPODS REPLICAS AGE, from
//!   `AddHandlers`) and `formatHPAMetrics` (TARGETS); kubectl lays the cells
//!   out like `get pods`.
//! - `kubectl describe hpa` is kubectl's
//!   `staging/src/k8s.io/kubectl/pkg/describe/describe.go`
//!   `describeHorizontalPodAutoscalerV2` and `printDirectionBehavior`, with
//!   the prefix writer and tabwriter of `describe pod`, and `DescribeEvents`.
//!
//! The status shown at T is the one the last pass at or before T wrote
//! (`Pass`); before the first pass (0:15) an HPA has no status: REPLICAS 0,
//! every current value `<unknown>`, `0 current / 0 desired`, no Conditions.
//!
//! Quantities print as `Quantity.String()`: the controller writes every
//! current value as `resource.NewMilliQuantity(v, resource.DecimalSI)`
//! (`horizontal.go` `computeStatusFor*Metric`), so [`decimal_si`], except
//! a memory Resource metric's, BinarySI since v1.34 (`buildQuantity`,
//! [`current_quantity`]); a
//! target keeps the format the author wrote (a binary suffix such as `Gi`
//! keeps BinarySI, anything else DecimalSI; a decimal exponent such as
//! `1e3` is not kept and prints as DecimalSI).
//!
//! What the model does not keep prints as the API's empty value: labels and
//! annotations (`<none>`). Every HPA is created at 0 with the manifests.

use super::describe::{events_section, rfc1123z, tabwrite, Text};
use super::events;
use super::get_pods::listed_table;
use super::human_duration;
use crate::manifest::duration::Millis;
use crate::manifest::hpa::{MetricSource, MetricSpec, Rules, SelectPolicy, Target};
use crate::sim::hpa::{AutoscalerRun, MetricValue, Pass};
use crate::sim::Run;

/// The status the HPA's last pass at or before `at` wrote; `None` before
/// its first pass.
pub fn status_at(autoscaler: &AutoscalerRun, at: Millis) -> Option<&Pass> {
    autoscaler
        .syncs
        .iter()
        .take_while(|pass| pass.at <= at)
        .last()
}

/// `status.lastScaleTime` at `at`: the last pass that wrote a new scale.
pub fn last_scale_time(autoscaler: &AutoscalerRun, at: Millis) -> Option<Millis> {
    autoscaler
        .syncs
        .iter()
        .take_while(|pass| pass.at <= at)
        .filter(|pass| pass.rescaled)
        .map(|pass| pass.at)
        .last()
}

const SUFFIXES_10: [(i32, &str); 9] = [
    (-3, "m"),
    (0, ""),
    (3, "k"),
    (6, "M"),
    (9, "G"),
    (12, "T"),
    (15, "P"),
    (18, "E"),
    (21, "e21"),
];

/// `Quantity.String()` of `resource.NewMilliQuantity(milli, DecimalSI)`:
/// `int64Amount.AsCanonicalBytes` (factors of 10 removed, the exponent
/// brought down to a multiple of 3) and the SI suffix: `850m`, `12500m`,
/// `2`, `1200`, `3k`.
pub fn decimal_si(milli: i64) -> String {
    if milli == 0 {
        return "0".to_string();
    }
    let mut value = milli;
    let mut exponent = -3;
    while value % 1000 == 0 && exponent < 18 {
        value /= 1000;
        exponent += 3;
    }
    let suffix = SUFFIXES_10
        .iter()
        .find(|(e, _)| *e == exponent)
        .map_or("", |(_, s)| s);
    format!("{value}{suffix}")
}

/// `Quantity.String()` of a BinarySI quantity (`CanonicalizeBytes`): below
/// 1024 in magnitude, or with a fraction, it prints as DecimalSI;
/// otherwise the largest power of 1024 that divides it (`4Gi`, `1536Mi`).
pub fn binary_si(milli: i64) -> String {
    if milli.abs() < 1024 * 1000 || milli % 1000 != 0 {
        return decimal_si(milli);
    }
    const SUFFIXES: [&str; 7] = ["", "Ki", "Mi", "Gi", "Ti", "Pi", "Ei"];
    let mut value = milli / 1000;
    let mut index = 0;
    while value % 1024 == 0 && index + 1 < SUFFIXES.len() {
        value /= 1024;
        index += 1;
    }
    format!("{value}{}", SUFFIXES[index])
}

/// A target value as the API server returns it (see the module doc).
fn target_quantity(spec: &MetricSpec, milli: i64) -> String {
    if spec.binary_target {
        binary_si(milli)
    } else {
        decimal_si(milli)
    }
}

/// A `*resource.Quantity` target of `spec.target`'s kind `AverageValue`
/// (`<nil>` when it has another kind: `Quantity.String()` on nil).
fn average_value_target(spec: &MetricSpec) -> Option<String> {
    match spec.target {
        Target::AverageValue(milli) => Some(target_quantity(spec, milli)),
        _ => None,
    }
}

fn value_target(spec: &MetricSpec) -> String {
    match spec.target {
        Target::Value(milli) => target_quantity(spec, milli),
        _ => "<nil>".to_string(),
    }
}

/// A current value as kubectl prints it: `horizontal.go` `buildQuantity`
/// (since v1.34, PR #132351) makes a Resource or ContainerResource
/// metric's average `NewMilliQuantity(raw, BinarySI)` for memory and
/// DecimalSI for anything else (Pods, Object and External currents stay
/// `NewMilliQuantity(v, DecimalSI)`). The status then travels as JSON:
/// a BinarySI value that `CanonicalizeBytes` writes with a binary suffix
/// (`68Mi`) is read back as BinarySI, but one it writes without a suffix
/// (a fraction of a byte, fewer than 1024 bytes, or bytes that 1024 does
/// not divide: `2000000`) is read back as DecimalSI and prints as such
/// (`2M`).
pub fn current_quantity(spec: &MetricSpec, milli: i64) -> String {
    let memory = matches!(&spec.source, MetricSource::Resource { name, .. } if name == "memory");
    let binary = binary_si(milli);
    if memory && binary.ends_with('i') {
        binary
    } else {
        decimal_si(milli)
    }
}

fn current_average(spec: &MetricSpec, metric: Option<&MetricValue>) -> Option<String> {
    match metric? {
        MetricValue::AverageValue { milli } => Some(current_quantity(spec, *milli)),
        MetricValue::Utilization { average_milli, .. } => {
            Some(current_quantity(spec, *average_milli))
        }
    }
}

fn current_utilization(metric: Option<&MetricValue>) -> Option<i32> {
    match metric? {
        MetricValue::Utilization { percent, .. } => Some(*percent),
        MetricValue::AverageValue { .. } => None,
    }
}

fn utilization_target(spec: &MetricSpec) -> String {
    match spec.target {
        Target::Utilization(percent) => format!("{percent}%"),
        _ => "<auto>".to_string(),
    }
}

const UNKNOWN: &str = "<unknown>";

/// The TARGETS cell (`printers.go` `formatHPAMetrics`): each metric's
/// `current/target`, a resource's prefixed with its name (`cpu: 85%/60%`),
/// `<unknown>` for a current value not (yet) in the status; at most 2,
/// then `+ N more...`; `<none>` without metrics.
pub fn targets(autoscaler: &AutoscalerRun, status: Option<&Pass>) -> String {
    let specs = &autoscaler.spec.metrics;
    if specs.is_empty() {
        return "<none>".to_string();
    }
    let current = |index: usize| status.and_then(|pass| pass.metrics.get(index)?.as_ref());
    let list: Vec<String> = specs
        .iter()
        .enumerate()
        .map(|(index, spec)| match &spec.source {
            MetricSource::Resource { name, .. } => match average_value_target(spec) {
                Some(target) => {
                    let now = current_average(spec, current(index));
                    format!("{name}: {}/{target}", now.as_deref().unwrap_or(UNKNOWN))
                }
                None => {
                    let now = current_utilization(current(index))
                        .map_or(UNKNOWN.to_string(), |percent| format!("{percent}%"));
                    format!("{name}: {now}/{}", utilization_target(spec))
                }
            },
            MetricSource::Pods { .. } => {
                let now = current_average(spec, current(index));
                let target = average_value_target(spec).unwrap_or_else(|| "<nil>".into());
                format!("{}/{target}", now.as_deref().unwrap_or(UNKNOWN))
            }
            // Only a ScaledObject's External metric has a current value
            // (KEDA's metrics server); Object metrics are not simulated.
            MetricSource::Other { kind, .. } if kind == "External" || kind == "Object" => {
                let now = current_average(spec, current(index));
                let now = now.as_deref().unwrap_or(UNKNOWN);
                match average_value_target(spec) {
                    Some(target) => format!("{now}/{target} (avg)"),
                    None => format!("{now}/{}", value_target(spec)),
                }
            }
            MetricSource::Other { .. } => "<unknown type>".to_string(),
        })
        .collect();
    const MAXIMUM: usize = 2;
    let shown = list
        .iter()
        .take(MAXIMUM)
        .cloned()
        .collect::<Vec<_>>()
        .join(", ");
    if list.len() > MAXIMUM {
        format!("{shown} + {} more...", list.len() - MAXIMUM)
    } else {
        shown
    }
}

/// `kubectl get hpa` at `at`: one row per HPA of the run, by name as the
/// API server lists them (`printHorizontalPodAutoscaler`: REFERENCE is
/// `Kind/name`, MINPODS the defaulted `minReplicas`, REPLICAS
/// `status.currentReplicas`, AGE since creation at 0). Empty when the text
/// has no HPA (kubectl then prints `No resources found in default
/// namespace.` on stderr).
pub fn get_hpa(run: &Run, at: Millis) -> String {
    listed_table(&hpa_rows(run, at))
}

/// [`get_hpa`]'s header and rows (`get all` names them
/// `horizontalpodautoscaler.autoscaling/NAME`).
pub fn hpa_rows(run: &Run, at: Millis) -> Vec<Vec<String>> {
    let mut autoscalers: Vec<&AutoscalerRun> = run.autoscalers.iter().collect();
    crate::sort::sort_by(&mut autoscalers, |a, b| a.name.cmp(&b.name));
    let header = [
        "NAME",
        "REFERENCE",
        "TARGETS",
        "MINPODS",
        "MAXPODS",
        "REPLICAS",
        "AGE",
    ]
    .map(String::from);
    std::iter::once(header.to_vec())
        .chain(autoscalers.into_iter().map(|autoscaler| {
            let status = status_at(autoscaler, at);
            vec![
                autoscaler.name.clone(),
                autoscaler.target.clone(),
                targets(autoscaler, status),
                autoscaler.min_replicas.to_string(),
                autoscaler.max_replicas.to_string(),
                status.map_or(0, |pass| pass.current_replicas).to_string(),
                human_duration(at),
            ]
        }))
        .collect()
}

/// Go's `%q` for a metric name: quoted, `"` and `\` escaped, control
/// characters as `\xNN` (names are DNS-like, so this is all it meets).
fn go_quote(text: &str) -> String {
    let mut out = String::from("\"");
    for c in text.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\t' => out.push_str("\\t"),
            c if (c as u32) < 0x20 => out.push_str(&format!("\\x{:02x}", c as u32)),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// One `Metrics:` line (`describeHorizontalPodAutoscalerV2`'s switch over
/// `metric.Type`). A line written by two `LEVEL_1` writes carries the
/// second write's indent inside it (`on pods  (as a percentage`).
fn metric_line(spec: &MetricSpec, metric: Option<&MetricValue>) -> String {
    let current_utilization = || match metric {
        Some(MetricValue::Utilization {
            percent,
            average_milli,
        }) => format!("{percent}% ({})", current_quantity(spec, *average_milli)),
        _ => UNKNOWN.to_string(),
    };
    match &spec.source {
        MetricSource::Resource { name, container } => {
            let lead = match container {
                Some(container) => format!("resource {name} of container \"{container}\" on pods"),
                None => format!("resource {name} on pods"),
            };
            match average_value_target(spec) {
                Some(target) => {
                    let now = current_average(spec, metric);
                    format!("{lead}:\t{} / {target}", now.as_deref().unwrap_or(UNKNOWN))
                }
                None => format!(
                    "{lead}  (as a percentage of request):\t{} / {}",
                    current_utilization(),
                    utilization_target(spec)
                ),
            }
        }
        MetricSource::Pods { name } => {
            let now = current_average(spec, metric);
            let target = average_value_target(spec).unwrap_or_else(|| "<nil>".into());
            format!(
                "{} on pods:\t{} / {target}",
                go_quote(name),
                now.as_deref().unwrap_or(UNKNOWN)
            )
        }
        MetricSource::Other { kind, name } if kind == "External" => {
            let now = current_average(spec, metric);
            let now = now.as_deref().unwrap_or(UNKNOWN);
            match average_value_target(spec) {
                Some(target) => format!(
                    "{} (target average value):\t{now} / {target}",
                    go_quote(name)
                ),
                None => format!(
                    "{} (target value):\t{UNKNOWN} / {}",
                    go_quote(name),
                    value_target(spec)
                ),
            }
        }
        MetricSource::Other { kind, name } if kind == "Object" => {
            let (kind, object) = spec.described_object.clone().unwrap_or_default();
            match average_value_target(spec) {
                Some(target) => format!(
                    "\"{name}\" on {kind}/{object} (target average value):\t{UNKNOWN} / {target}"
                ),
                None => format!(
                    "\"{name}\" on {kind}/{object} (target value):\t{UNKNOWN} / {}",
                    value_target(spec)
                ),
            }
        }
        MetricSource::Other { kind, .. } => format!("<unknown metric type {}>", go_quote(kind)),
    }
}

/// `printDirectionBehavior`.
fn direction_behavior(text: &mut Text, direction: &str, rules: &Rules) {
    text.line(1, &format!("{direction}:"));
    if let Some(window) = rules.stabilization_window_seconds {
        text.line(2, &format!("Stabilization Window: {window} seconds"));
    }
    if !rules.policies.is_empty() {
        let select = match rules.select_policy {
            SelectPolicy::Max => "Max",
            SelectPolicy::Min => "Min",
            SelectPolicy::Disabled => "Disabled",
        };
        text.line(2, &format!("Select Policy: {select}"));
        text.line(2, "Policies:");
        for policy in &rules.policies {
            let kind = if policy.percent { "Percent" } else { "Pods" };
            text.line(
                3,
                &format!(
                    "- Type: {kind}\tValue: {}\tPeriod: {} seconds",
                    policy.value, policy.period_seconds
                ),
            );
        }
    }
}

/// The text of `kubectl describe hpa <autoscaler.name>` at `at`
/// (`describeHorizontalPodAutoscalerV2`).
pub fn describe_hpa(run: &Run, autoscaler: &AutoscalerRun, at: Millis) -> String {
    let spec = &autoscaler.spec;
    let status = status_at(autoscaler, at);
    let mut text = Text::default();
    text.line(0, &format!("Name:\t{}", autoscaler.name));
    text.line(0, "Namespace:\tdefault");
    text.line(0, "Labels:\t<none>");
    text.line(0, "Annotations:\t<none>");
    text.line(0, &format!("CreationTimestamp:\t{}", rfc1123z(0)));
    text.line(0, &format!("Reference:\t{}", autoscaler.target));
    text.line(0, "Metrics:\t( current / target )");
    for (index, metric) in spec.metrics.iter().enumerate() {
        let current = status.and_then(|pass| pass.metrics.get(index)?.as_ref());
        text.line(1, &metric_line(metric, current));
    }
    // `minReplicas` is never nil once stored (`SetDefaults_HorizontalPodAutoscaler`).
    text.line(0, &format!("Min replicas:\t{}", autoscaler.min_replicas));
    text.line(0, &format!("Max replicas:\t{}", autoscaler.max_replicas));
    if let Some(behavior) = &spec.behavior {
        text.line(0, "Behavior:");
        direction_behavior(&mut text, "Scale Up", &behavior.scale_up);
        direction_behavior(&mut text, "Scale Down", &behavior.scale_down);
    }
    let (current, desired) = status.map_or((0, 0), |pass| {
        (pass.current_replicas, pass.desired_replicas)
    });
    text.line(
        0,
        &format!(
            "{} pods:\t{current} current / {desired} desired",
            spec.target_kind
        ),
    );
    if let Some(pass) = status.filter(|pass| !pass.conditions.is_empty()) {
        text.line(0, "Conditions:");
        text.line(1, "Type\tStatus\tReason\tMessage");
        text.line(1, "----\t------\t------\t-------");
        for condition in &pass.conditions {
            let status = if condition.status { "True" } else { "False" };
            text.line(
                1,
                &format!(
                    "{}\t{status}\t{}\t{}",
                    condition.kind, condition.reason, condition.message
                ),
            );
        }
    }
    let object = format!("HorizontalPodAutoscaler/{}", autoscaler.name);
    events_section(&mut text, &events::aggregate(run, &object, at), at);
    tabwrite(&text.0, 2)
}

/// The HPAs' part of `podlab simulate`'s transcript at `at`: `$ kubectl get
/// hpa` and its table, then `$ kubectl describe hpa NAME` for each HPA;
/// each block starts with an empty line. Empty when the text has no HPA.
pub fn transcript(run: &Run, at: Millis) -> String {
    if run.autoscalers.is_empty() {
        return String::new();
    }
    let mut out = String::from("\n$ kubectl get hpa\n");
    out.push_str(&get_hpa(run, at));
    for autoscaler in &run.autoscalers {
        out.push_str(&format!("\n$ kubectl describe hpa {}\n", autoscaler.name));
        out.push_str(&describe_hpa(run, autoscaler, at));
    }
    out
}

#[cfg(test)]
#[path = "hpa_tests.rs"]
mod tests;
