//! KEDA's own loop beside the HPA a ScaledObject owns (KEDA v2.18.3,
//! traffic-autoscaling.md §3.2; docs/autoscaling.md, "KEDA").
//!
//! `startScaleLoop` (`pkg/scaling/scale_handler.go`) checks the scalers
//! when the ScaledObject is reconciled (applied with the manifests, at 0)
//! and then every `pollingInterval`; each check is `RequestScale`
//! (`pkg/scaling/executor/scale_scaledobjects.go`):
//! - a trigger is active when its value is **strictly** above
//!   `activationThreshold` (`prometheus_scaler.go` `GetMetricsAndActivity`);
//!   a scaler error (an empty result with `ignoreNullValues: false`) records
//!   `KEDAScalerFailed` and counts as inactive, but never scales to zero:
//!   `RequestScale` takes `isError && Fallback == nil` (Ready False,
//!   `TriggerError`) before the scale-in case, and a written `fallback`
//!   with replicas (only logged there) likewise;
//! - active with 0 replicas: `scaleFromZeroOrIdle` scales to
//!   `max(minReplicaCount, 1)`, records `KEDAScaleTargetActivated` and sets
//!   `lastActiveTime`; active above 0: only `lastActiveTime = now`;
//! - inactive, above 0, `minReplicaCount` 0: `scaleToZeroOrIdle` scales to 0
//!   once `lastActiveTime + cooldownPeriod` is **before** now (`Before`:
//!   strictly), or, never active, once `creationTimestamp +
//!   initialCooldownPeriod` (default 0) is; `KEDAScaleTargetDeactivated`.
//!   Both times are stored in the object as `metav1.Time`, whole seconds
//!   (RFC 3339 without a fraction), while the check that compares them
//!   runs a little after its whole second: so on podlab's whole-second
//!   checks the comparison is `<=`: the check exactly `cooldownPeriod`
//!   after the last active one already scales in, and a target never
//!   active with `initialCooldownPeriod` 0 is scaled in at the first check.
//!
//! From 1 to N the HPA scales (`controller.rs`), reading the same query as
//! an External metric.

use super::controller::HpaEvent;
use crate::manifest::duration::Millis;
use crate::manifest::keda::Keda;

/// The empty result's error (`ExecutePromQuery`).
pub const EMPTY_RESULT: &str =
    "prometheus metrics 'prometheus' target may be lost, the result is empty";

/// KEDA's memory of one ScaledObject between checks.
#[derive(Default)]
pub(super) struct Loop {
    /// `status.lastActiveTime`.
    last_active: Option<Millis>,
    pub events: Vec<HpaEvent>,
}

impl Loop {
    /// One check at `at`: `value` is the query's result (milli-units;
    /// `None` an empty result), `current` the target's `spec.replicas`,
    /// `target` as the event prints it (`apps/v1.Deployment default/NAME`).
    /// Returns the scale it writes, if any.
    pub fn check(
        &mut self,
        keda: &Keda,
        value: Option<i64>,
        current: i32,
        target: &str,
        at: Millis,
    ) -> Option<i32> {
        let trigger = keda.trigger.as_ref()?;
        let value = match value {
            Some(value) => Some(value),
            None if trigger.ignore_null_values => Some(0),
            None => None,
        };
        let error = value.is_none();
        let active = match value {
            Some(value) => value > trigger.activation_milli,
            None => {
                // `getScaledObjectState`: the scaler's error, as a Warning.
                self.event(at, true, "KEDAScalerFailed", EMPTY_RESULT.into());
                false
            }
        };
        if active {
            self.last_active = Some(at);
            if current == 0 {
                let to = keda.min_replica_count.max(1);
                self.event(
                    at,
                    false,
                    "KEDAScaleTargetActivated",
                    format!("Scaled {target} from 0 to {to}, triggered by prometheusScaler"),
                );
                return Some(to);
            }
            return None;
        }
        // `RequestScale`: inactive with a scaler error and no `fallback`
        // only sets Ready False (`TriggerError`): never a scale-in.
        if error {
            return None;
        }
        if current > 0 && keda.min_replica_count == 0 {
            // `scaleToZeroOrIdle`: `lastActiveTime.Add(cooldown).Before(now)`,
            // or, never active, the creation (0) plus
            // `initialCooldownPeriod`; both stored in whole seconds and
            // compared a moment after the check's second (module doc).
            let cooled = match self.last_active {
                Some(last) => last.saturating_add(keda.cooldown_ms) <= at,
                None => keda.initial_cooldown_ms <= at,
            };
            if cooled {
                self.event(
                    at,
                    false,
                    "KEDAScaleTargetDeactivated",
                    format!("Deactivated {target} from {current} to 0"),
                );
                return Some(0);
            }
        }
        None
    }

    fn event(&mut self, at: Millis, warning: bool, reason: &'static str, message: String) {
        self.events.push(HpaEvent {
            at,
            warning,
            reason,
            message,
        });
    }
}
