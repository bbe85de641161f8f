//! `kubectl scale` from the Scenario's `actions`: the Deployment (or
//! ReplicaSet) controller brings the pods to the new count at the action's
//! time. Scale-up creates pods as at the start; scale-down deletes the
//! pods the ReplicaSet controller ranks first (`getPodsToDelete` over
//! `ActivePodsWithRanks`, `pkg/controller/replicaset/replica_set.go` and
//! `pkg/controller/controller_utils.go` `ActivePods.Less`):
//! 1. not yet on a node before on a node;
//! 2. Pending before Unknown before Running (no Unknown here: not
//!    running before running);
//! 3. not Ready before Ready;
//! 4. Ready for a shorter time before a longer one;
//! 5. more restarts before fewer;
//! 6. newer before older.
//!
//! (The pod-deletion-cost annotation and the co-location rank are not
//! modelled.) Each deleted pod goes through `delete_pod`: preStop,
//! SIGTERM, the grace period — what `sim/traffic.rs` shows in the requests.
//! Events (scheduler-controllers.md §6.3): `ScalingReplicaSet` `Scaled
//! down replica set <rs> from <old> to <new>` by the deployment-controller,
//! then `SuccessfulDelete` `Deleted pod: <pod>` (or `SuccessfulCreate`
//! `Created pod: <pod>`) by the replicaset-controller.

use super::*;
use crate::manifest::model::WorkloadKind;

impl<'a> Sim<'a> {
    /// The Scenario's action `index` happens now.
    pub(super) fn action(&mut self, index: usize) {
        let Some(scale) = self
            .scenario
            .actions
            .iter()
            .chain(self.applied)
            .nth(index)
            .and_then(|a| a.scale.as_ref())
        else {
            return;
        };
        let Some(workload) = self.workloads.iter().find(|w| {
            w.name == scale.name
                && matches!(w.kind, WorkloadKind::Deployment | WorkloadKind::ReplicaSet)
        }) else {
            return;
        };
        if workload.kind == WorkloadKind::Deployment {
            if let Some(d) = self.deployment_of(&workload.name) {
                // Through the Deployment controller (`rollout.rs`), which
                // keeps the ReplicaSets' sizes.
                self.deployment_scale(d, usize::try_from(scale.replicas).unwrap_or(0));
                return;
            }
        }
        let now = self.now;
        let live: Vec<usize> = (0..self.pods.len())
            .filter(|&p| {
                let pod = &self.pods[p];
                std::ptr::eq(pod.spec, &workload.pod) && !pod.done && pod.run.deleting.is_none()
            })
            .collect();
        let old = live.len();
        let new = usize::try_from(scale.replicas).unwrap_or(0);
        if new == old {
            return;
        }
        let hash = live
            .iter()
            .find_map(|&p| self.pods[p].run.template_hash.clone());
        let replica_set = match (&workload.kind, &hash) {
            (WorkloadKind::Deployment, Some(hash)) => format!("{}-{hash}", workload.name),
            _ => workload.name.clone(),
        };
        if workload.kind == WorkloadKind::Deployment {
            let direction = if new > old { "up" } else { "down" };
            self.object_event(
                format!("Deployment/{}", workload.name),
                false,
                "ScalingReplicaSet",
                format!("Scaled {direction} replica set {replica_set} from {old} to {new}"),
                "deployment-controller",
            );
        }
        let rs_object = format!("ReplicaSet/{replica_set}");
        if new < old {
            let mut victims = live;
            crate::sort::sort_by_key(&mut victims, |&p| self.deletion_rank(p, now));
            for pod in victims.into_iter().take(old - new) {
                let name = self.pods[pod].run.name.clone();
                self.object_event(
                    rs_object.clone(),
                    false,
                    "SuccessfulDelete",
                    format!("Deleted pod: {name}"),
                    "replicaset-controller",
                );
                self.delete_pod(pod);
            }
        } else {
            for _ in old..new {
                let name = format!("{replica_set}-{}", self.rng.suffix(5));
                self.object_event(
                    rs_object.clone(),
                    false,
                    "SuccessfulCreate",
                    format!("Created pod: {name}"),
                    "replicaset-controller",
                );
                let hash = if workload.kind == WorkloadKind::Deployment {
                    hash.clone()
                } else {
                    None
                };
                self.create_pod(workload, name, Owner::None, hash, None);
            }
        }
    }

    /// `ActivePods.Less` as a sort key: the first ones are deleted first.
    /// (During the run a pod's containers live in `PodSim::containers`.)
    pub(super) fn deletion_rank(&self, pod: usize, now: Millis) -> DeletionRank {
        let sim = &self.pods[pod];
        let app = &sim.containers[..sim.spec.containers.len().min(sim.containers.len())];
        let assigned = sim
            .run
            .node
            .as_ref()
            .is_some_and(|(_, bound)| *bound <= now);
        let running = assigned && app.iter().any(|c| c.running);
        // Ready since: the latest start of the containers' open Ready
        // intervals, when every one has one.
        let ready_since = app.iter().try_fold(0, |since: Millis, c| {
            let open = c.run.instances.last()?.ready.last()?;
            match open {
                (from, None) => Some(since.max(*from)),
                _ => None,
            }
        });
        let restarts: usize = app
            .iter()
            .map(|c| c.run.instances.len().saturating_sub(1))
            .sum();
        (
            assigned,
            running,
            ready_since.is_some(),
            // Ready for less time first: a later start sorts first.
            std::cmp::Reverse(ready_since.unwrap_or(0)),
            std::cmp::Reverse(restarts),
            std::cmp::Reverse(sim.run.created),
        )
    }
}

/// Not on a node first, then not running, then not Ready, then Ready for
/// less time, then more restarts, then newer.
pub(super) type DeletionRank = (
    bool,
    bool,
    bool,
    std::cmp::Reverse<Millis>,
    std::cmp::Reverse<usize>,
    std::cmp::Reverse<Millis>,
);
