//! The HorizontalPodAutoscalers' part of `podlab simulate --format json`
//! (issue 16): what each HPA decided up to `--at` and the status it shows
//! then.

use podlab_core::explain::hpa::{status_at, targets};
use podlab_core::sim::hpa::AutoscalerRun;
use serde_json::{json, Value};

/// `[{"name", "target", "minReplicas", "maxReplicas", "decisions": [{"at",
/// "from", "to", "reason"}], "status": {...}}]`: every pass up to `at` (ms)
/// that wrote a new scale, and the last pass's status (`null` before the
/// first, at 15 s). Seconds throughout.
pub fn json(autoscalers: &[AutoscalerRun], at: u64) -> Value {
    let seconds = |ms: u64| ms as f64 / 1000.0;
    let items: Vec<Value> = autoscalers
        .iter()
        .map(|autoscaler| {
            let decisions: Vec<Value> = autoscaler
                .syncs
                .iter()
                .filter(|pass| pass.at <= at && pass.rescaled)
                .map(|pass| {
                    json!({
                        "at": seconds(pass.at),
                        "from": pass.current_replicas,
                        "to": pass.desired_replicas,
                        "reason": pass.reason,
                    })
                })
                .collect();
            let status = status_at(autoscaler, at).map(|pass| {
                let conditions: Vec<Value> = pass
                    .conditions
                    .iter()
                    .map(|condition| {
                        json!({
                            "type": condition.kind,
                            "status": if condition.status { "True" } else { "False" },
                            "reason": condition.reason,
                            "message": condition.message,
                        })
                    })
                    .collect();
                json!({
                    "at": seconds(pass.at),
                    "currentReplicas": pass.current_replicas,
                    "desiredReplicas": pass.desired_replicas,
                    "conditions": conditions,
                })
            });
            let mut item = json!({
                "name": autoscaler.name,
                "target": autoscaler.target,
                "minReplicas": autoscaler.min_replicas,
                "maxReplicas": autoscaler.max_replicas,
                "targets": targets(autoscaler, status_at(autoscaler, at)),
                "decisions": decisions,
                "status": status,
            });
            if let Some(capped) = autoscaler.capped {
                item["cappedAt"] = json!(seconds(capped));
            }
            item
        })
        .collect();
    json!(items)
}
