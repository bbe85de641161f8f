//! A Deployment's rollout parameters over time (`sim/rollout.rs` reads
//! them at each sync; `explain` and describe read them at the cursor).

use crate::manifest::duration::Millis;
use crate::manifest::model::IntOrPercent;
use crate::sim::DeploymentRun;

/// The resolved number, as written: `25%` stays `25%`.
fn shown(setting: IntOrPercent) -> String {
    setting.text()
}

/// A Deployment's rollout parameters as its controller reads them at each
/// sync: `spec.strategy` (`RollingUpdate`, `Recreate`; `maxSurge` and
/// `maxUnavailable` as written or defaulted, `25%`, `1`),
/// `minReadySeconds`, `progressDeadlineSeconds`. The controller reads the
/// Deployment afresh at each `syncDeployment`
/// (`pkg/controller/deployment/deployment_controller.go`), so a `patch`
/// of these alone acts from its time on without a new ReplicaSet
/// (`FindNewReplicaSet` compares templates only): `maxSurge: 0,
/// maxUnavailable: 1` unsticks a rollout that waits for a GPU no node has
/// free (PL507's fix).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RolloutSpec {
    /// `RollingUpdate` or `Recreate`.
    pub strategy: String,
    pub max_surge: String,
    pub max_unavailable: String,
    pub min_ready_seconds: i64,
    pub progress_deadline_seconds: i64,
}

impl RolloutSpec {
    pub(in crate::sim) fn of(spec: &crate::manifest::model::DeploymentSpec) -> RolloutSpec {
        RolloutSpec {
            strategy: spec.strategy.value.clone(),
            max_surge: shown(spec.max_surge.value),
            max_unavailable: shown(spec.max_unavailable.value),
            min_ready_seconds: spec.min_ready_seconds.value,
            progress_deadline_seconds: spec.progress_deadline_seconds.value,
        }
    }

    /// `minReadySeconds` in milliseconds.
    pub fn min_ready_ms(&self) -> Millis {
        Millis::try_from(self.min_ready_seconds.max(0))
            .unwrap_or(0)
            .saturating_mul(1000)
    }
}

impl DeploymentRun {
    /// The rollout parameters in force at `at`.
    pub fn rollout_at(&self, at: Millis) -> &RolloutSpec {
        let mut current = &self.rollout[0].1;
        for (from, spec) in &self.rollout {
            if *from <= at {
                current = spec;
            }
        }
        current
    }

    /// The parameters in force now (the last written).
    pub(in crate::sim) fn rollout_now(&self) -> &RolloutSpec {
        &self.rollout[self.rollout.len() - 1].1
    }
}
