//! `kubectl scale` from the Scenario's `actions`: the Deployment (or
//! ReplicaSet) controller brings the pods to the new count at the action's
//! time. Scale-up creates pods as at the start; scale-down deletes the
//! pods the ReplicaSet controller ranks first: `getPodsToDelete`
//! (`pkg/controller/replicaset/replica_set.go`) sorts the ReplicaSet's
//! active pods with Go's `sort.Sort` (`go_sort`) over
//! `ActivePodsWithRanks.Less` (`pkg/controller/controller_utils.go`,
//! `LogarithmicScaleDown` on since v1.22, GA), when it deletes fewer than
//! all of them:
//! 1. not on a node before on a node;
//! 2. Pending before Unknown before Running (no Unknown here);
//! 3. not Ready before Ready;
//! 4. lower `controller.kubernetes.io/pod-deletion-cost` first: not
//!    modelled, since every pod of a ReplicaSet comes from one template
//!    and so carries the same cost (only `kubectl annotate` on a single
//!    pod, which podlab does not do, makes them differ);
//! 5. more active pods of the same Deployment on its node first
//!    (`getPodsRankedByRelatedPodsOnSameNode`);
//! 6. both Ready: Ready for less time first, in log₂ buckets of the time
//!    since the Ready condition's `lastTransitionTime` (whole seconds)
//!    measured in nanoseconds at the controller's now
//!    (`logarithmicRankDiff`), the same bucket ordered by UID;
//! 7. a higher maximum restart count of the app containers first, then
//!    of the sidecars (`compareMaxContainerRestarts`);
//! 8. newer first, in log₂ buckets of the time since creation (whole
//!    seconds), the same bucket ordered by UID.
//!
//! So two pods created a few seconds apart, minutes ago, fall into one
//! bucket and the UID (random in a cluster, made up here) decides. Each
//! deleted pod goes through `delete_pod`: preStop, SIGTERM, the grace
//! period — what `sim/traffic.rs` shows in the requests. Events
//! (scheduler-controllers.md §6.3): `ScalingReplicaSet` `Scaled down
//! replica set <rs> from <old> to <new>` by the deployment-controller,
//! then `SuccessfulDelete` `Deleted pod: <pod>` (or `SuccessfulCreate`
//! `Created pod: <pod>`) by the replicaset-controller.

use super::*;
use crate::manifest::model::WorkloadKind;
use crate::manifest::scenario::Scale;

impl<'a> Sim<'a> {
    /// `kubectl scale` (an action, or an autoscaler's decision) now.
    pub(super) fn scale_action(&mut self, scale: &Scale) {
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
                std::ptr::eq(pod.spec, &workload.pod)
                    && !pod.done
                    && pod.run.deleting.is_none()
                    && pod.run.owned_at(Millis::MAX)
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
            let related = live.clone();
            for pod in self.pods_to_delete(live, &related, old - new, now) {
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

    /// `getPodsToDelete`: the `count` pods of `candidates` (one
    /// ReplicaSet's active pods) that `ActivePodsWithRanks.Less` ranks
    /// first, `related` being the active pods of every ReplicaSet of the
    /// same owner (the co-location rank). Deleting them all needs no sort.
    pub(super) fn pods_to_delete(
        &self,
        candidates: Vec<usize>,
        related: &[usize],
        count: usize,
        now: Millis,
    ) -> Vec<usize> {
        if count >= candidates.len() {
            return candidates;
        }
        let node_of = |pod: usize| {
            let sim = &self.pods[pod];
            sim.run
                .node
                .as_ref()
                .filter(|(_, bound)| *bound <= now)
                .map(|(name, _)| name.as_str())
        };
        let mut ranked: Vec<Ranked> = candidates
            .iter()
            .map(|&pod| {
                let sim = &self.pods[pod];
                let apps = sim.spec.containers.len().min(sim.containers.len());
                let app = &sim.containers[..apps];
                let node = node_of(pod);
                let restarts = |c: &ContainerSim| c.run.instances.len().saturating_sub(1);
                let sidecars = sim.containers[apps..]
                    .iter()
                    .enumerate()
                    .filter(|(i, _)| {
                        sim.spec
                            .init_containers
                            .get(*i)
                            .is_some_and(|c| c.restart_policy.as_deref() == Some("Always"))
                    })
                    .map(|(_, c)| restarts(c))
                    .max()
                    .unwrap_or(0);
                Ranked {
                    pod,
                    node,
                    // Running once an app container has started (it stays
                    // Running through restarts); Pending before.
                    running: node.is_some() && app.iter().any(|c| !c.run.instances.is_empty()),
                    // The Ready condition's `lastTransitionTime`, whole
                    // seconds as the API server keeps it.
                    ready: self.pod_ready_since(pod).map(|since| since / 1000 * 1000),
                    colocated: related.iter().filter(|&&r| node_of(r) == node).count(),
                    restarts: app.iter().map(restarts).max().unwrap_or(0),
                    sidecar_restarts: sidecars,
                    created: sim.run.created / 1000 * 1000,
                    uid: sim.run.uid.as_str(),
                }
            })
            .collect();
        crate::go_sort::sort(&mut ranked, &|a, b| a.less(b, now));
        ranked.into_iter().take(count).map(|r| r.pod).collect()
    }
}

/// What `ActivePodsWithRanks.Less` reads of a pod.
struct Ranked<'s> {
    pod: usize,
    /// `spec.nodeName` (bound by now).
    node: Option<&'s str>,
    running: bool,
    /// Ready since (whole seconds), `None` when not Ready.
    ready: Option<Millis>,
    /// Active pods of the same owner on its node, itself included.
    colocated: usize,
    restarts: usize,
    sidecar_restarts: usize,
    created: Millis,
    uid: &'s str,
}

impl Ranked<'_> {
    /// `ActivePodsWithRanks.Less(i, j)` with `LogarithmicScaleDown`.
    fn less(&self, other: &Ranked, now: Millis) -> bool {
        if self.node != other.node && (self.node.is_none() || other.node.is_none()) {
            return self.node.is_none();
        }
        if self.running != other.running {
            return !self.running;
        }
        if self.ready.is_some() != other.ready.is_some() {
            return self.ready.is_none();
        }
        if self.colocated != other.colocated {
            return self.colocated > other.colocated;
        }
        if let (Some(mine), Some(theirs)) = (self.ready, other.ready) {
            if mine != theirs {
                return match log_rank(mine, now) - log_rank(theirs, now) {
                    0 => self.uid < other.uid,
                    diff => diff < 0,
                };
            }
        }
        if self.restarts != other.restarts {
            return self.restarts > other.restarts;
        }
        if self.sidecar_restarts != other.sidecar_restarts {
            return self.sidecar_restarts > other.sidecar_restarts;
        }
        if self.created != other.created {
            return match log_rank(self.created, now) - log_rank(other.created, now) {
                0 => self.uid < other.uid,
                diff => diff < 0,
            };
        }
        false
    }
}

/// `logarithmicRankDiff`'s rank of one time: `int64(math.Log2(float64(d)))`
/// of the nanoseconds `d` from `at` to `now`, −1 when `d` is not positive.
/// Computed on the integer: `d` is a whole number of milliseconds, so it is
/// at least 2⁶ below the next power of two, far from where Go's float
/// rounding could reach it, and the two agree.
fn log_rank(at: Millis, now: Millis) -> i64 {
    let nanos = u128::from(now.saturating_sub(at)) * 1_000_000;
    if now <= at || nanos == 0 {
        return -1;
    }
    i64::from(127 - nanos.leading_zeros())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::{simulate, Options};

    fn ranked(ready: Option<Millis>, created: Millis, uid: &'static str) -> Ranked<'static> {
        Ranked {
            pod: 0,
            node: Some("node-1"),
            running: true,
            ready,
            colocated: 1,
            restarts: 0,
            sidecar_restarts: 0,
            created,
            uid,
        }
    }

    /// `logarithmicRankDiff`: ⌊log₂⌋ of the nanoseconds since.
    #[test]
    fn log_rank_is_the_floor_of_log2_of_the_nanoseconds() {
        // 600 s = 6 × 10¹¹ ns, between 2³⁹ and 2⁴⁰.
        assert_eq!(log_rank(0, 600_000), 39);
        // 500 s = 5 × 10¹¹ ns, below 2³⁹ ≈ 5.4976 × 10¹¹.
        assert_eq!(log_rank(100_000, 600_000), 38);
        // 1 ms = 10⁶ ns: 2¹⁹ ≤ 10⁶ < 2²⁰.
        assert_eq!(log_rank(599_999, 600_000), 19);
        assert_eq!(log_rank(600_000, 600_000), -1);
    }

    /// `ActivePodsWithRanks.Less` with `LogarithmicScaleDown`: at 11:40
    /// pods Ready since 0:21 and 1:21 are 679 s and 619 s old, both in
    /// bucket 39, so the UID decides; at 10:00 (579 s, 519 s: buckets 39
    /// and 38) the one Ready for less time goes first. More pods of the
    /// owner on the node goes before everything after Ready; more
    /// restarts before fewer; then creation, likewise in buckets.
    #[test]
    fn active_pods_with_ranks_less_uses_log_buckets_and_the_uid() {
        let old = ranked(Some(21_000), 0, "b");
        let young = ranked(Some(81_000), 60_000, "c");
        assert!(old.less(&young, 700_000));
        assert!(!young.less(&old, 700_000));
        assert!(young.less(&old, 600_000));
        assert!(!old.less(&young, 600_000));
        let crowded = Ranked {
            colocated: 2,
            ..ranked(Some(21_000), 0, "z")
        };
        assert!(crowded.less(&young, 600_000));
        let restarted = Ranked {
            restarts: 3,
            ..ranked(Some(21_000), 0, "z")
        };
        assert!(restarted.less(&ranked(Some(21_000), 0, "a"), 600_000));
        // Not Ready first, whatever the rest.
        assert!(ranked(None, 0, "z").less(&young, 600_000));
        // Creation: the same bucket falls to the UID, two buckets to age.
        assert!(ranked(None, 10_000, "a").less(&ranked(None, 0, "b"), 700_000));
        assert!(!ranked(None, 10_000, "c").less(&ranked(None, 0, "b"), 700_000));
        assert!(ranked(None, 300_000, "c").less(&ranked(None, 0, "b"), 700_000));
    }

    /// Three replicas created at 0:00 and a fourth at 1:00 (each Ready
    /// 20 s after its start), scaled back to 3 at 11:40: the four are in
    /// one log₂ bucket of Ready time (679 and 619 s: both 2³⁹ ≤ d < 2⁴⁰),
    /// so `getPodsToDelete`'s `sort.Sort` orders the fourth against the
    /// others by UID alone (the first three tie with each other: Ready at
    /// the same second, created at the same second). Insertion sort (n <
    /// 12) moves the fourth to the front only past every smaller-UID pod;
    /// the front pod is deleted. Before `LogarithmicScaleDown` the newest
    /// would always go.
    #[test]
    fn a_scale_down_picks_the_victim_by_get_pods_to_delete() {
        let text = "apiVersion: apps/v1
kind: Deployment
metadata: {name: model-api}
spec:
  replicas: 3
  selector: {matchLabels: {app: model-api}}
  template:
    metadata: {labels: {app: model-api}}
    spec:
      containers:
        - name: api
          image: registry.example.com/model-api:1.0
          ports: [{containerPort: 8000}]
          readinessProbe:
            httpGet: {path: /health, port: 8000}
            periodSeconds: 1
---
apiVersion: podlab.dev/v1alpha1
kind: Scenario
metadata: {name: t}
spec:
  duration: 13m
  workload:
    - container: api
      startup: 20s
  actions:
    - {at: 60s, scale: {name: model-api, replicas: 4}}
    - {at: 700s, scale: {name: model-api, replicas: 3}}
";
        let run = simulate(text, &Options::default());
        assert_eq!(run.pods.len(), 4);
        let ready = |p: usize| crate::sim::pod_ready_intervals(&run.pods[p])[0].0 / 1000;
        assert_eq!(ready(0), ready(1));
        assert_eq!(ready(0), ready(2));
        assert_eq!(log_rank(ready(0) * 1000, 700_000), 39);
        assert_eq!(log_rank(ready(3) * 1000, 700_000), 39);
        let uid = |p: usize| run.pods[p].uid.as_str();
        let fourth_first = uid(3) < uid(2) && uid(3) < uid(1) && uid(3) < uid(0);
        let expected = if fourth_first { 3 } else { 0 };
        let deleted: Vec<usize> = (0..4).filter(|&p| run.pods[p].deleting.is_some()).collect();
        assert_eq!(deleted, vec![expected]);
        assert_eq!(run.pods[expected].deleting, Some(700_000));
    }
}
