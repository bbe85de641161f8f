//! One HorizontalPodAutoscaler's reconcile loop: `reconcileAutoscaler`,
//! `computeReplicasForMetrics`, the normalization with and without
//! `behavior` and the conditions and events they set, as
//! `pkg/controller/podautoscaler/horizontal.go` (kubernetes/kubernetes,
//! read at an upstream-tracking fork after v1.35) does them.
//!
//! The controller's memory between passes (recommendations, scale events)
//! is kept whole and filtered by time: upstream reuses the slot of an entry
//! older than every window, which never changes what a window sees.

use super::metrics::{Outcome, Source, Tolerances};
use super::{Condition, MetricValue, Pass, DOWNSCALE_STABILIZATION, TOLERANCE};
use crate::manifest::duration::Millis;
use crate::manifest::hpa::{Autoscaler, MetricSource, Rules, SelectPolicy};

/// An event the HPA records (component `horizontal-pod-autoscaler`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct HpaEvent {
    pub at: Millis,
    pub warning: bool,
    pub reason: &'static str,
    pub message: String,
}

pub(super) struct Controller<'a> {
    pub hpa: &'a Autoscaler,
    /// (recommendation, when), `recommendations[key]`.
    recommendations: Vec<(i32, Millis)>,
    /// (replica change, when), stored only with `behavior`.
    scale_up_events: Vec<(i32, Millis)>,
    scale_down_events: Vec<(i32, Millis)>,
    conditions: Vec<Condition>,
    pub events: Vec<HpaEvent>,
    pub last_scale: Option<Millis>,
    /// `status.desiredReplicas` as the last pass left it (0 before any).
    desired_status: i32,
}

impl<'a> Controller<'a> {
    pub fn new(hpa: &'a Autoscaler) -> Controller<'a> {
        Controller {
            hpa,
            recommendations: Vec::new(),
            scale_up_events: Vec::new(),
            scale_down_events: Vec::new(),
            conditions: Vec::new(),
            events: Vec::new(),
            last_scale: None,
            desired_status: 0,
        }
    }

    /// `setConditionInList`: the transition time changes only with the status.
    fn set(
        &mut self,
        kind: &'static str,
        status: bool,
        reason: &'static str,
        message: String,
        at: Millis,
    ) {
        match self.conditions.iter_mut().find(|c| c.kind == kind) {
            Some(condition) => {
                if condition.status != status {
                    condition.last_transition = at;
                }
                condition.status = status;
                condition.reason = reason;
                condition.message = message;
            }
            None => self.conditions.push(Condition {
                kind,
                status,
                reason,
                message,
                last_transition: at,
            }),
        }
    }

    fn event(&mut self, at: Millis, warning: bool, reason: &'static str, message: String) {
        self.events.push(HpaEvent {
            at,
            warning,
            reason,
            message,
        });
    }

    /// `tolerancesForHpa`: the flag's 0.1, or `behavior`'s per direction.
    fn tolerances(&self) -> Tolerances {
        let mut tolerances = Tolerances {
            down: TOLERANCE,
            up: TOLERANCE,
        };
        if let Some(behavior) = &self.hpa.behavior {
            if let Some(milli) = behavior.scale_down.tolerance_milli {
                tolerances.down = milli as f64 / 1000.0;
            }
            if let Some(milli) = behavior.scale_up.tolerance_milli {
                tolerances.up = milli as f64 / 1000.0;
            }
        }
        tolerances
    }

    /// A pass whose target's scale cannot be read (`reconcileAutoscaler`:
    /// `scaleForResourceMappings` fails): Warning `FailedGetScale` with the
    /// error, `AbleToScale` False `FailedGetScale` `the HPA controller was
    /// unable to get the target's current scale: <error>`, and the status
    /// otherwise as it was (`updateStatusIfNeeded` with the original
    /// replicas and metrics).
    pub fn failed_get_scale(&mut self, error: String, at: Millis) -> Pass {
        self.event(at, true, "FailedGetScale", error.clone());
        self.set(
            "AbleToScale",
            false,
            "FailedGetScale",
            format!("the HPA controller was unable to get the target's current scale: {error}"),
            at,
        );
        Pass {
            at,
            current_replicas: 0,
            desired_replicas: self.desired_status,
            rescaled: false,
            reason: None,
            metrics: vec![None; self.hpa.metrics.len()],
            conditions: self.conditions.clone(),
        }
    }

    /// One pass at `at` with the target's `spec.replicas` `current` and its
    /// pods `pods` (`reconcileAutoscaler`). Returns the status it wrote;
    /// `Pass::rescaled` says whether it wrote a new scale.
    pub fn reconcile(&mut self, source: &Source, pods: &[usize], current: i32, at: Millis) -> Pass {
        let hpa = self.hpa;
        self.set(
            "AbleToScale",
            true,
            "SucceededGetScale",
            "the HPA controller was able to get the target's current scale".into(),
            at,
        );
        if self.recommendations.is_empty() {
            // `recordInitialRecommendation`.
            self.recommendations.push((current, at));
        }
        let min = hpa.min_replicas;
        let mut desired: i32 = 0;
        let mut reason = String::new();
        let mut metrics: Vec<Option<MetricValue>> = vec![None; hpa.metrics.len()];
        let mut rescale = true;
        if current == 0 {
            desired = 0;
            rescale = false;
            self.set(
                "ScalingActive",
                false,
                "ScalingDisabled",
                "scaling is disabled since the replica count of the target is zero".into(),
                at,
            );
        } else if current > hpa.max_replicas {
            reason = "Current number of replicas above Spec.MaxReplicas".into();
            desired = hpa.max_replicas;
        } else if current < min {
            reason = "Current number of replicas below Spec.MinReplicas".into();
            desired = min;
        } else {
            // `computeReplicasForMetrics`: the largest proposal wins.
            let tolerances = self.tolerances();
            let outcomes: Vec<Outcome> = hpa
                .metrics
                .iter()
                .map(|spec| match (&hpa.keda, &spec.source) {
                    // A ScaledObject's trigger: KEDA's metrics server.
                    (Some(keda), MetricSource::Other { name, .. }) => {
                        source.keda_external(keda, name, &spec.target, pods, tolerances, at)
                    }
                    _ => source.compute(spec, pods, current, tolerances, at),
                })
                .collect();
            let mut proposal: i32 = 0;
            let mut metric_name = String::new();
            let mut invalid = 0;
            let mut first_error: Option<(&'static str, String, String)> = None;
            for (index, outcome) in outcomes.into_iter().enumerate() {
                match outcome {
                    Ok(found) => {
                        metrics[index] = Some(found.value);
                        if proposal == 0 || found.replicas > proposal {
                            proposal = found.replicas;
                            metric_name = found.name;
                        }
                    }
                    Err(failure) => {
                        // `getUnableComputeReplicaCountCondition` records
                        // the event for every failing metric.
                        self.event(at, true, failure.reason, failure.error.clone());
                        if first_error.is_none() {
                            first_error = Some((failure.reason, failure.error, failure.wrapped));
                        }
                        invalid += 1;
                    }
                }
            }
            let total = hpa.metrics.len();
            if let Some((failed_reason, error, wrapped)) = &first_error {
                if invalid >= total || proposal < current {
                    self.set(
                        "ScalingActive",
                        false,
                        failed_reason,
                        format!("the HPA was unable to compute the replica count: {error}"),
                        at,
                    );
                    self.event(
                        at,
                        true,
                        "FailedComputeMetricsReplicas",
                        format!("invalid metrics ({invalid} invalid out of {total}), first error is: {wrapped}"),
                    );
                    // `setCurrentReplicasAndMetricsInStatus` writes the
                    // current count and the metrics only: the desired
                    // count stays what the last pass wrote (0 at first),
                    // hence describe's `2 current / 0 desired`.
                    let kept = self.desired_status;
                    return self.status(at, current, kept, metrics, false, None);
                }
            }
            self.set(
                "ScalingActive",
                true,
                "ValidMetricFound",
                format!(
                    "the HPA was able to successfully calculate a replica count from {metric_name}"
                ),
                at,
            );
            let mut rescale_metric = String::new();
            if proposal > desired {
                desired = proposal;
                rescale_metric = metric_name;
            }
            if desired > current {
                reason = format!("{rescale_metric} above target");
            }
            if desired < current {
                reason = "All metrics below target".into();
            }
            desired = if hpa.behavior.is_none() {
                self.normalize_legacy(current, desired, min, at)
            } else {
                self.normalize_with_behavior(current, desired, min, at)
            };
            rescale = desired != current;
        }
        if rescale {
            self.set(
                "AbleToScale",
                true,
                "SucceededRescale",
                format!("the HPA controller was able to update the target scale to {desired}"),
                at,
            );
            self.event(
                at,
                false,
                "SuccessfulRescale",
                format!("New size: {desired}; reason: {reason}"),
            );
            self.store_scale_event(current, desired, at);
            self.last_scale = Some(at);
            self.status(at, current, desired, metrics, true, Some(reason))
        } else {
            self.status(at, current, current, metrics, false, None)
        }
    }

    fn status(
        &mut self,
        at: Millis,
        current: i32,
        desired: i32,
        metrics: Vec<Option<MetricValue>>,
        rescaled: bool,
        reason: Option<String>,
    ) -> Pass {
        self.desired_status = desired;
        Pass {
            at,
            current_replicas: current,
            desired_replicas: desired,
            rescaled,
            reason,
            metrics,
            conditions: self.conditions.clone(),
        }
    }

    /// `normalizeDesiredReplicas` without `behavior`: the highest
    /// recommendation of the last 5 min (`stabilizeRecommendation`), then
    /// `convertDesiredReplicasWithRules` (`[min, min(max, scaleUpLimit)]`,
    /// `scaleUpLimit = max(2 × current, 4)`).
    fn normalize_legacy(&mut self, current: i32, proposal: i32, min: i32, at: Millis) -> i32 {
        let cutoff = at as i64 - DOWNSCALE_STABILIZATION as i64;
        // `rec.timestamp.Before(cutoff)` is old. The timestamps are the
        // `time.Now()` of real passes, which are 15 s *plus processing*
        // apart (`processNextWorkItem` re-queues after the pass), so the
        // entry 20 passes back is a little more than 300 s old: an entry
        // exactly at the cutoff on podlab's exact grid is already out.
        let stabilized = self
            .recommendations
            .iter()
            .filter(|(_, when)| *when as i64 > cutoff)
            .map(|(rec, _)| *rec)
            .fold(proposal, i32::max);
        self.recommendations.push((proposal, at));
        if stabilized != proposal {
            self.set(
                "AbleToScale",
                true,
                "ScaleDownStabilized",
                "recent recommendations were higher than current one, applying the highest recent recommendation".into(),
                at,
            );
        } else {
            self.set(
                "AbleToScale",
                true,
                "ReadyForNewScale",
                "recommended size matches current size".into(),
                at,
            );
        }
        let scale_up_limit = (2 * i64::from(current)).max(4).min(i64::from(i32::MAX)) as i32;
        let max = self.hpa.max_replicas;
        let (maximum, limit_reason, limit_message) = if max > scale_up_limit {
            (
                scale_up_limit,
                "ScaleUpLimit",
                "the desired replica count is increasing faster than the maximum scale rate",
            )
        } else {
            (
                max,
                "TooManyReplicas",
                "the desired replica count is more than the maximum replica count",
            )
        };
        let (desired, reason, message) = if stabilized < min {
            (
                min,
                "TooFewReplicas",
                "the desired replica count is less than the minimum replica count",
            )
        } else if stabilized > maximum {
            (maximum, limit_reason, limit_message)
        } else {
            (
                stabilized,
                "DesiredWithinRange",
                "the desired count is within the acceptable range",
            )
        };
        self.set(
            "ScalingLimited",
            desired != stabilized,
            reason,
            message.into(),
            at,
        );
        desired
    }

    /// `normalizeDesiredReplicasWithBehaviors`:
    /// `stabilizeRecommendationWithBehaviors`, then
    /// `convertDesiredReplicasWithBehaviorRate`.
    fn normalize_with_behavior(
        &mut self,
        current: i32,
        proposal: i32,
        min: i32,
        at: Millis,
    ) -> i32 {
        let Some(behavior) = self.hpa.behavior.as_ref() else {
            return proposal;
        };
        let up = &behavior.scale_up;
        let down = &behavior.scale_down;
        let window_ms = |rules: &Rules, default: Millis| {
            rules
                .stabilization_window_seconds
                .map_or(default, |seconds| {
                    Millis::from(seconds.max(0) as u32) * 1000
                })
        };
        // `maybeInitScaleDownStabilizationWindow`: nil is the flag's 300 s.
        let up_cutoff = at as i64 - window_ms(up, 0) as i64;
        let down_cutoff = at as i64 - window_ms(down, DOWNSCALE_STABILIZATION) as i64;
        let mut up_recommendation = proposal;
        let mut down_recommendation = proposal;
        for &(rec, when) in &self.recommendations {
            // `After`: strictly newer than the cutoff.
            if when as i64 > up_cutoff {
                up_recommendation = up_recommendation.min(rec);
            }
            if when as i64 > down_cutoff {
                down_recommendation = down_recommendation.max(rec);
            }
        }
        let mut stabilized = current;
        if stabilized < up_recommendation {
            stabilized = up_recommendation;
        }
        if stabilized > down_recommendation {
            stabilized = down_recommendation;
        }
        self.recommendations.push((proposal, at));
        if stabilized != proposal {
            if proposal >= current {
                self.set(
                    "AbleToScale",
                    true,
                    "ScaleUpStabilized",
                    "recent recommendations were lower than current one, applying the lowest recent recommendation".into(),
                    at,
                );
            } else {
                self.set(
                    "AbleToScale",
                    true,
                    "ScaleDownStabilized",
                    "recent recommendations were higher than current one, applying the highest recent recommendation".into(),
                    at,
                );
            }
        } else {
            self.set(
                "AbleToScale",
                true,
                "ReadyForNewScale",
                "recommended size matches current size".into(),
                at,
            );
        }
        let max = self.hpa.max_replicas;
        let mut result = (
            stabilized,
            "DesiredWithinRange",
            "the desired count is within the acceptable range",
        );
        if stabilized > current {
            let limit = self.scale_up_limit(current, up, at).max(current);
            let (maximum, reason, message) = if max > limit {
                (
                    limit,
                    "ScaleUpLimit",
                    "the desired replica count is increasing faster than the maximum scale rate",
                )
            } else {
                (
                    max,
                    "TooManyReplicas",
                    "the desired replica count is more than the maximum replica count",
                )
            };
            if stabilized > maximum {
                result = (maximum, reason, message);
            }
        } else if stabilized < current {
            let limit = self.scale_down_limit(current, down, at).min(current);
            let (minimum, reason, message) = if min < limit {
                (
                    limit,
                    "ScaleDownLimit",
                    "the desired replica count is decreasing faster than the maximum scale rate",
                )
            } else {
                (
                    min,
                    "TooFewReplicas",
                    "the desired replica count is less than the minimum replica count",
                )
            };
            if stabilized < minimum {
                result = (minimum, reason, message);
            }
        }
        let (desired, reason, message) = result;
        self.set(
            "ScalingLimited",
            desired != stabilized,
            reason,
            message.into(),
            at,
        );
        desired
    }

    /// `getReplicasChangePerPeriod`: changes strictly newer than the period.
    fn changed_in(events: &[(i32, Millis)], period_seconds: i32, at: Millis) -> i32 {
        let cutoff = at as i64 - i64::from(period_seconds) * 1000;
        events
            .iter()
            .filter(|(_, when)| *when as i64 > cutoff)
            .map(|(change, _)| *change)
            .sum()
    }

    /// `calculateScaleUpLimitWithScalingRules`.
    fn scale_up_limit(&self, current: i32, rules: &Rules, at: Millis) -> i32 {
        let select: fn(i32, i32) -> i32 = match rules.select_policy {
            SelectPolicy::Disabled => return current,
            SelectPolicy::Min => i32::min,
            SelectPolicy::Max => i32::max,
        };
        let mut result = if rules.select_policy == SelectPolicy::Min {
            i32::MAX
        } else {
            i32::MIN
        };
        for policy in &rules.policies {
            let added = Self::changed_in(&self.scale_up_events, policy.period_seconds, at);
            let removed = Self::changed_in(&self.scale_down_events, policy.period_seconds, at);
            let period_start = current - added + removed;
            let proposed = if policy.percent {
                (f64::from(period_start) * (1.0 + f64::from(policy.value) / 100.0)).ceil() as i32
            } else {
                period_start.saturating_add(policy.value)
            };
            result = select(result, proposed);
        }
        result
    }

    /// `calculateScaleDownLimitWithBehaviors`.
    fn scale_down_limit(&self, current: i32, rules: &Rules, at: Millis) -> i32 {
        let select: fn(i32, i32) -> i32 = match rules.select_policy {
            SelectPolicy::Disabled => return current,
            SelectPolicy::Min => i32::max,
            SelectPolicy::Max => i32::min,
        };
        let mut result = if rules.select_policy == SelectPolicy::Min {
            i32::MIN
        } else {
            i32::MAX
        };
        for policy in &rules.policies {
            let added = Self::changed_in(&self.scale_up_events, policy.period_seconds, at);
            let removed = Self::changed_in(&self.scale_down_events, policy.period_seconds, at);
            let period_start = current - added + removed;
            let proposed = if policy.percent {
                (f64::from(period_start) * (1.0 - f64::from(policy.value) / 100.0)) as i32
            } else {
                period_start.saturating_sub(policy.value)
            };
            result = select(result, proposed);
        }
        result
    }

    /// `storeScaleEvent`: only with `behavior`.
    fn store_scale_event(&mut self, previous: i32, new: i32, at: Millis) {
        if self.hpa.behavior.is_none() {
            return;
        }
        if new > previous {
            self.scale_up_events.push((new - previous, at));
        } else {
            self.scale_down_events.push((previous - new, at));
        }
    }
}
