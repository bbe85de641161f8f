//! A simulated pod at a time T as the API server would return it: a v1 Pod
//! object, and its v1 Events from podlab's event aggregator.
//!
//! What a real cluster invents and the simulator does not know (the node's
//! IP, container and image IDs, the `kube-api-access-*` suffix) comes from
//! the describe renderer's own functions (`explain::describe`), so kubectl
//! and podlab describe the same objects. Everything kubectl derives itself
//! is served raw: quantities as written (kubectl canonicalises them), the
//! tolerations and labels the admission plugins and controllers add, the
//! container states, so the renderer's own derivations are checked.

use podlab_core::explain::events::{self, EventObject};
use podlab_core::explain::{pod_object, printers};
use podlab_core::manifest::duration::Millis;
use podlab_core::manifest::model::Container;
use podlab_core::sim::{PodRun, Run};
use serde_json::{json, Map, Value};

/// Where simulated time 0 lies on the real clock, in whole Unix seconds.
#[derive(Clone, Copy, Debug)]
pub struct Clock {
    pub base: i64,
}

/// podlab's fixed epoch, 2026-01-01T00:00:00Z, in Unix seconds.
pub const EPOCH: i64 = events::EPOCH_UNIX_SECONDS as i64;

impl Clock {
    /// `metav1.Time`: RFC 3339 in whole seconds (the API server truncates).
    pub fn time(self, at: Millis) -> String {
        rfc3339(self.base + seconds(at), None)
    }

    /// `metav1.MicroTime`: RFC 3339 with microseconds (events.k8s.io).
    pub fn micro_time(self, at: Millis) -> String {
        let micros = (at.rem_euclid(1000)) * 1000;
        rfc3339(self.base + at.div_euclid(1000) as i64, Some(micros as u32))
    }
}

fn seconds(at: Millis) -> i64 {
    at.div_euclid(1000) as i64
}

/// Days since 1970-01-01 → (year, month, day) (Howard Hinnant's algorithm).
fn civil(days: i64) -> (i64, u32, u32) {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let month = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    let year = yoe + era * 400 + i64::from(month <= 2);
    (year, month, day)
}

/// (year, month, day) → days since 1970-01-01.
pub fn days_from_civil(year: i64, month: u32, day: u32) -> i64 {
    let year = if month <= 2 { year - 1 } else { year };
    let era = year.div_euclid(400);
    let yoe = year.rem_euclid(400);
    let month = i64::from(month);
    let doy = (153 * (if month > 2 { month - 3 } else { month + 9 }) + 2) / 5 + i64::from(day) - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146_097 + doe - 719_468
}

pub fn rfc3339(unix: i64, micros: Option<u32>) -> String {
    let (year, month, day) = civil(unix.div_euclid(86_400));
    let second_of_day = unix.rem_euclid(86_400);
    let (hour, minute, second) = (
        second_of_day / 3600,
        second_of_day / 60 % 60,
        second_of_day % 60,
    );
    let fraction = micros.map_or(String::new(), |micros| format!(".{micros:06}"));
    format!("{year:04}-{month:02}-{day:02}T{hour:02}:{minute:02}:{second:02}{fraction}Z")
}

const WEEKDAYS: [&str; 7] = ["Thu", "Fri", "Sat", "Sun", "Mon", "Tue", "Wed"];
const MONTHS: [&str; 12] = [
    "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec",
];

/// Go's `time.RFC1123Z` in UTC: `Thu, 01 Jan 2026 00:00:00 +0000`.
pub fn rfc1123z(unix: i64) -> String {
    let days = unix.div_euclid(86_400);
    let (year, month, day) = civil(days);
    let second_of_day = unix.rem_euclid(86_400);
    format!(
        "{}, {day:02} {} {year:04} {:02}:{:02}:{:02} +0000",
        WEEKDAYS[days.rem_euclid(7) as usize],
        MONTHS[(month - 1) as usize],
        second_of_day / 3600,
        second_of_day / 60 % 60,
        second_of_day % 60
    )
}

fn parse_rfc1123z(text: &str) -> Option<i64> {
    // "Thu, 01 Jan 2026 00:00:00 +0000"
    if text.len() != 31 || !text.is_ascii() || &text[3..5] != ", " || &text[25..] != " +0000" {
        return None;
    }
    WEEKDAYS.iter().position(|w| *w == &text[..3])?;
    let day: u32 = text[5..7].parse().ok()?;
    let month = MONTHS.iter().position(|m| *m == &text[8..11])? as u32 + 1;
    let year: i64 = text[12..16].parse().ok()?;
    let hour: i64 = text[17..19].parse().ok()?;
    let minute: i64 = text[20..22].parse().ok()?;
    let second: i64 = text[23..25].parse().ok()?;
    Some(days_from_civil(year, month, day) * 86_400 + hour * 3600 + minute * 60 + second)
}

/// Moves every RFC 1123Z date in `text` by `delta` seconds (kubectl's
/// absolute times, printed from objects on the real clock, back onto
/// podlab's epoch). Nothing else changes: column widths stay the same.
pub fn shift_dates(text: &str, delta: i64) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while !rest.is_empty() {
        let found = rest.char_indices().find_map(|(i, _)| {
            let candidate = rest.get(i..i + 31)?;
            parse_rfc1123z(candidate).map(|unix| (i, unix))
        });
        match found {
            Some((i, unix)) => {
                out.push_str(&rest[..i]);
                out.push_str(&rfc1123z(unix + delta));
                rest = &rest[i + 31..];
            }
            None => {
                out.push_str(rest);
                rest = "";
            }
        }
    }
    out
}

// ---- the Pod ---------------------------------------------------------------------

/// The core's JSON value as serde_json's (keys in the core's order).
pub fn to_json(value: &printers::Value) -> Value {
    match value {
        printers::Value::Null => Value::Null,
        printers::Value::Bool(flag) => json!(flag),
        printers::Value::Int(number) => json!(number),
        printers::Value::Str(text) => json!(text),
        printers::Value::List(items) => Value::Array(items.iter().map(to_json).collect()),
        printers::Value::Object(entries) => Value::Object(
            entries
                .iter()
                .map(|(key, item)| (key.clone(), to_json(item)))
                .collect::<Map<String, Value>>(),
        ),
    }
}

/// The v1 Pod object of `pod` at `at`, as podlab's `get pod -o yaml` builds
/// it (`explain::pod_object`), on `clock`. `source` is the manifest text
/// the run was simulated from (for quantities in their written format).
pub fn pod(run: &Run, pod: &PodRun, at: Millis, clock: Clock, source: &str) -> Value {
    to_json(&pod_object::pod(
        run,
        pod,
        at,
        source,
        pod_object::Clock { base: clock.base },
    ))
}

/// A container of a template as served (no token volume mounted).
pub fn container_spec(source: &str, container: &Container, api_volume: Option<&str>) -> Value {
    to_json(&pod_object::container_spec(source, container, api_volume))
}

// ---- the Events ------------------------------------------------------------------

/// The v1 Event objects about `pod` that exist at `at`, from podlab's event
/// aggregator, in its (API list) order. The scheduler's are events.k8s.io
/// objects seen through core/v1: `eventTime` and `series`, no first/last
/// timestamps, no count, `reportingComponent` instead of `source`.
pub fn events(run: &Run, pod: &PodRun, at: Millis, clock: Clock) -> Vec<Value> {
    let node = pod.node.as_ref().map_or("", |(node, _)| node.as_str());
    events::aggregate(run, &format!("Pod/{}", pod.name), at)
        .iter()
        .map(|event| event_object(pod, node, event, clock))
        .collect()
}

fn event_object(pod: &PodRun, node: &str, event: &EventObject, clock: Clock) -> Value {
    let mut involved = json!({
        "kind": "Pod",
        "namespace": "default",
        "name": pod.name,
        "uid": pod.uid,
        "apiVersion": "v1",
        "resourceVersion": "1000"
    });
    if let Some(path) = &event.field_path {
        involved["fieldPath"] = json!(path);
    }
    let mut object = json!({
        "kind": "Event",
        "apiVersion": "v1",
        "metadata": {
            "name": event.name,
            "namespace": "default",
            "resourceVersion": "1000",
            "creationTimestamp": clock.time(event.first)
        },
        "involvedObject": involved,
        "reason": event.reason,
        "message": event.message,
        "type": event.type_name()
    });
    if event.uses_event_time() {
        object["source"] = json!({});
        object["firstTimestamp"] = Value::Null;
        object["lastTimestamp"] = Value::Null;
        object["eventTime"] = json!(clock.micro_time(event.first));
        if let Some((count, last)) = event.series() {
            object["series"] =
                json!({ "count": count, "lastObservedTime": clock.micro_time(last) });
        }
        object["action"] = json!(if event.reason == "Scheduled" {
            "Binding"
        } else {
            "Scheduling"
        });
        object["reportingComponent"] = json!(event.source);
        object["reportingInstance"] = json!(format!("{}-control-plane", event.source));
    } else {
        object["source"] = json!({ "component": event.source, "host": node });
        object["firstTimestamp"] = json!(clock.time(event.first));
        object["lastTimestamp"] = json!(clock.time(event.last));
        object["count"] = json!(event.count);
        object["eventTime"] = Value::Null;
        object["reportingComponent"] = json!(event.source);
        object["reportingInstance"] = json!(node);
    }
    object
}
