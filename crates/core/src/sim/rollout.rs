//! The Deployment controller: its ReplicaSets, the Scenario's `rollout`
//! (a new pod template at a time) performed as `rolloutRolling` or
//! `rolloutRecreate` does, and the status it writes (`Progressing`,
//! `Available`, the progress deadline). Sources:
//! `shared/reference/traffic-autoscaling.md` §6 and
//! `kubernetes/kubernetes:pkg/controller/deployment/` (`rolling.go`,
//! `recreate.go`, `sync.go`, `progress.go`, `util/deployment_util.go`);
//! what the reference does not say is in docs/rollouts.md with its source.
//!
//! Invariant: a ReplicaSet's live pods (created, not being deleted) equal
//! its `spec.replicas` after every sync; the ReplicaSet controller's work
//! (`SuccessfulCreate`, `SuccessfulDelete`) is done in the same instant
//! as the Deployment controller's scale.
//!
//! Timing [model]: the controllers act in the instant of what triggers
//! them (a watch event reaches them in milliseconds). One sync that
//! changes a ReplicaSet is followed at once by another, as the
//! ReplicaSet's update event re-queues the Deployment; syncs run at a
//! rollout, when a pod of the Deployment becomes Ready, when it becomes
//! available (Ready + `minReadySeconds`), when a pod is gone, and at the
//! progress check `requeueStuckDeployment` asks for.

use super::templates::template_hash;
use super::*;
use crate::sim::{DeploymentCondition, DeploymentRun, ReplicaSetRun};

/// At most this many syncs in one instant (each must change a
/// ReplicaSet to be followed by another; a rollout needs a handful).
const SYNCS_PER_INSTANT: usize = 32;

/// A Deployment: its template's workload per ReplicaSet and its status.
pub(super) struct DeploymentSim<'a> {
    workload: &'a Workload,
    /// The workload whose pod template each ReplicaSet stamps out.
    templates: Vec<&'a Workload>,
    /// The ReplicaSet with the current template (`None`: Recreate has not
    /// created it yet).
    new_rs: Option<usize>,
    /// The current template (`new_rs`'s once it exists).
    template: &'a Workload,
    replicas: usize,
    /// The status last written: (replicas, updated, ready, available).
    status: Status,
    /// Per ReplicaSet, its pods and their counts.
    sets: Vec<Members>,
    run: DeploymentRun,
}

/// A ReplicaSet's pods ever created, in creation order: those whose owner
/// is its Deployment and whose pod-template-hash is its own (found once
/// when the ReplicaSet appears, then added by `create_pod`), so a sync
/// reads its pods without a pass over all; and how many are live and
/// Ready, kept as they change (`Sim::pod_recount`), so a sync that only
/// counts reads no pod at all.
#[derive(Debug, Default)]
struct Members {
    pods: Vec<usize>,
    live: usize,
    ready: usize,
}

/// What a pod adds to the counts of its ReplicaSets (`Members`): live
/// (not finished, not being deleted), and live and Ready.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(super) struct Tally {
    live: bool,
    ready: bool,
}

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct Status {
    replicas: usize,
    updated: usize,
    ready: usize,
    available: usize,
}

impl<'a> DeploymentSim<'a> {
    fn recreate(&self) -> bool {
        self.run.rollout_now().strategy == "Recreate"
    }

    /// `MaxSurge` and `MaxUnavailable` (`util/deployment_util.go`) over
    /// `ResolveFenceposts`: surge rounded up, unavailable down, both 0 →
    /// unavailable 1; unavailable capped at `replicas`; 0 for Recreate or
    /// 0 replicas (traffic-autoscaling.md §6.1).
    fn fenceposts(&self) -> (usize, usize) {
        let Some(spec) = &self.workload.deployment else {
            return (0, 0);
        };
        if self.recreate() || self.replicas == 0 {
            return (0, 0);
        }
        let desired = self.replicas as i64;
        let surge = spec.max_surge.value.scaled(desired, true).max(0);
        let mut unavailable = spec.max_unavailable.value.scaled(desired, false).max(0);
        if surge == 0 && unavailable == 0 {
            unavailable = 1;
        }
        (surge as usize, unavailable.min(desired) as usize)
    }

    fn min_ready_ms(&self) -> Millis {
        self.run.rollout_now().min_ready_ms()
    }

    fn size(&self, rs: usize) -> usize {
        self.run.replica_sets[rs]
            .sizes
            .last()
            .map_or(0, |(_, n)| *n)
    }

    fn condition(&self, kind: &str) -> Option<&DeploymentCondition> {
        let (_, conditions) = self.run.conditions.last()?;
        conditions.iter().find(|c| c.kind == kind)
    }
}

impl<'a> Sim<'a> {
    /// The Deployment controller adopts a Deployment created at 0 with its
    /// first ReplicaSet (`hash`, `replicas` pods already created).
    pub(super) fn deployment_created(&mut self, workload: &'a Workload, hash: String) {
        let replicas = count(&workload.replicas);
        let Some(spec) = &workload.deployment else {
            return;
        };
        let name = format!("{}-{hash}", workload.name);
        let now = self.now;
        // `getNewReplicaSet` on creation: Progressing True
        // NewReplicaSetCreated; `calculateStatus`: Available False until
        // enough pods are available (sync.go; §6.3).
        let progressing = DeploymentCondition {
            kind: "Progressing",
            status: "True",
            reason: "NewReplicaSetCreated",
            message: format!("Created new replica set \"{name}\""),
            last_update: now,
            last_transition: now,
        };
        let run = DeploymentRun {
            name: workload.name.clone(),
            replicas: vec![(now, replicas)],
            rollout: vec![(now, RolloutSpec::of(spec))],
            labels: workload.pod_labels.clone(),
            pod: workload.pod.clone(),
            replica_sets: vec![ReplicaSetRun {
                name,
                hash,
                created: now,
                revision: 1,
                revised: Vec::new(),
                sizes: vec![(now, replicas)],
                images: images_of(workload),
            }],
            new_replica_set: vec![(now, Some(0))],
            conditions: vec![(now, vec![progressing])],
        };
        let members = self.members_scan(&workload.name, &run.replica_sets[0].hash);
        self.deployments.push(DeploymentSim {
            workload,
            templates: vec![workload],
            new_rs: Some(0),
            template: workload,
            replicas,
            status: Status::default(),
            sets: vec![Members::default()],
            run,
        });
        let index = self.deployments.len() - 1;
        for pod in members {
            self.join(index, 0, pod);
        }
        self.deployment_sync(index);
    }

    /// The Scenario's rollout `index`: the Deployment's template changes now.
    pub(super) fn rollout(&mut self, index: usize) {
        let Some(rollout) = self.scenario.rollouts.get(index) else {
            return;
        };
        let Some(Some(template)) = self.rollout_templates.get(index) else {
            return;
        };
        self.new_template(&rollout.workload, template);
    }

    /// The Scenario's action `index`, a `restart` or a `patch` (`act.rs`):
    /// the Deployment's template becomes the one the action leaves
    /// (`manifest::patch`), its `restartedAt` annotation or the patched
    /// fields.
    pub(super) fn template_action(&mut self, index: usize) {
        let Some(Some(template)) = self.action_templates.get(index) else {
            return;
        };
        let name = template.name.clone();
        self.new_template(&name, template);
    }

    /// Deployment `name`'s template becomes `template` now.
    fn new_template(&mut self, name: &str, template: &'a Workload) {
        let Some(d) = self
            .deployments
            .iter()
            .position(|d| d.workload.name == name)
        else {
            return;
        };
        let now = self.now;
        // `FindNewReplicaSet`: a ReplicaSet with an equal template is the
        // new one (a rollback reuses it); else none until the sync
        // creates it (sync.go `getNewReplicaSet`). Equal: the same pod
        // and the same template metadata (a restart changes only an
        // annotation).
        let found = self.deployments[d].templates.iter().position(|t| {
            match (&t.template, &template.template) {
                (Some(old), Some(new)) => old == new,
                _ => t.pod == template.pod,
            }
        });
        // An old ReplicaSet made new again (a rollback) takes the highest
        // revision plus one (`SetNewReplicaSetAnnotations`).
        if let Some(rs) = found.filter(|rs| Some(*rs) != self.deployments[d].new_rs) {
            let revision = next_revision(&self.deployments[d].run, now);
            self.deployments[d].run.replica_sets[rs]
                .revised
                .push((now, revision));
        }
        // The rollout's first sync runs with the status written before
        // it: the old ReplicaSet is no longer the updated one.
        let updated = found.map_or(0, |rs| self.live_of(d, rs).len());
        let deployment = &mut self.deployments[d];
        // The patched object's strategy and timings, read from now on
        // (`RolloutSpec`); the fenceposts read `workload`'s spec.
        if let Some(spec) = &template.deployment {
            let spec = RolloutSpec::of(spec);
            if *deployment.run.rollout_now() != spec {
                deployment.run.rollout.push((now, spec));
            }
            deployment.workload = template;
        }
        deployment.template = template;
        deployment.new_rs = found;
        deployment.run.new_replica_set.push((now, found));
        deployment.status.updated = updated;
        self.deployment_sync(d);
    }

    /// A pod of some Deployment changed (Ready, gone): its controller
    /// syncs now, and again once the pod may be available.
    pub(super) fn deployment_pod_changed(&mut self, pod: usize) {
        let owner = &self.pods[pod].run.owner;
        let Some(d) = self
            .deployments
            .iter()
            .position(|d| owner.strip_prefix("Deployment/") == Some(d.workload.name.as_str()))
        else {
            return;
        };
        // Queued, not run here: a pod can be gone inside a sync's own
        // deletion, and a sync does not re-enter itself.
        self.push(self.now, Ev::DeploymentSync(d));
        let min_ready = self.deployments[d].min_ready_ms();
        if min_ready > 0 {
            // The ReplicaSet controller re-queues itself after
            // minReadySeconds to count the pod available
            // (`replica_set.go` `updatePod`); its status update
            // re-queues the Deployment.
            self.push(self.now.saturating_add(min_ready), Ev::DeploymentSync(d));
        }
    }

    /// Syncs Deployment `d` until a sync changes no ReplicaSet.
    pub(super) fn deployment_sync(&mut self, d: usize) {
        for _ in 0..SYNCS_PER_INSTANT {
            let changed = if self.deployments[d].recreate() {
                self.sync_recreate(d)
            } else {
                self.sync_rolling(d)
            };
            self.sync_rollout_status(d);
            if !changed {
                break;
            }
        }
    }

    /// One sync of `rolloutRolling` (rolling.go, §6.2): create the new
    /// ReplicaSet (`getNewReplicaSet`), scale it up within maxSurge and
    /// return if it did; else scale the old ones down within
    /// maxUnavailable: first their unavailable pods
    /// (`cleanupUnhealthyReplicas`), then available ones down to
    /// `replicas − maxUnavailable` available pods, oldest ReplicaSet first.
    fn sync_rolling(&mut self, d: usize) -> bool {
        let (surge, unavailable) = self.deployments[d].fenceposts();
        let replicas = self.deployments[d].replicas;
        let mut changed = false;
        let new_rs = match self.deployments[d].new_rs {
            Some(rs) => rs,
            None => {
                let total = self.total_size(d);
                let count = new_rs_replicas(replicas, surge, total, 0);
                changed = true;
                self.create_replica_set(d, count)
            }
        };
        // `reconcileNewReplicaSet`.
        let new_size = self.deployments[d].size(new_rs);
        if new_size > replicas {
            self.scale_replica_set(d, new_rs, replicas);
            return true;
        }
        if new_size < replicas {
            let total = self.total_size(d);
            let count = new_rs_replicas(replicas, surge, total, new_size);
            if count != new_size {
                self.scale_replica_set(d, new_rs, count);
                return true;
            }
        }
        // `reconcileOldReplicaSets`.
        let old: Vec<usize> = (0..self.deployments[d].run.replica_sets.len())
            .filter(|&rs| rs != new_rs && self.deployments[d].size(rs) > 0)
            .collect();
        if old.is_empty() {
            return changed;
        }
        let all = self.total_size(d);
        let min_available = replicas.saturating_sub(unavailable);
        let new_unavailable = self.deployments[d]
            .size(new_rs)
            .saturating_sub(self.available_of(d, new_rs));
        let max_scaled_down = all as i64 - min_available as i64 - new_unavailable as i64;
        if max_scaled_down <= 0 {
            return changed;
        }
        let max_scaled_down = max_scaled_down as usize;
        // The availability the sync read, before it deleted anything.
        let available: Vec<usize> = old.iter().map(|&rs| self.available_of(d, rs)).collect();
        let all_available = self.available_of(d, new_rs) + available.iter().sum::<usize>();
        let mut cleaned = 0;
        for (&rs, &rs_available) in old.iter().zip(&available) {
            if cleaned >= max_scaled_down {
                break;
            }
            let size = self.deployments[d].size(rs);
            if size == rs_available {
                continue;
            }
            let down = (max_scaled_down - cleaned).min(size - rs_available.min(size));
            self.scale_replica_set(d, rs, size - down);
            cleaned += down;
            changed = true;
        }
        if all_available <= min_available {
            return changed;
        }
        let to_scale = all_available - min_available;
        let mut scaled = 0;
        for &rs in &old {
            if scaled >= to_scale {
                break;
            }
            let size = self.deployments[d].size(rs);
            if size == 0 {
                continue;
            }
            let down = size.min(to_scale - scaled);
            self.scale_replica_set(d, rs, size - down);
            scaled += down;
            changed = true;
        }
        changed
    }

    /// One sync of `rolloutRecreate` (recreate.go, §6.5 fix B): scale
    /// every old ReplicaSet to 0; wait while any old pod still exists
    /// (`oldPodsRunning`); then create the new ReplicaSet at full size.
    fn sync_recreate(&mut self, d: usize) -> bool {
        let new_rs = self.deployments[d].new_rs;
        let sets = self.deployments[d].run.replica_sets.len();
        let mut changed = false;
        for rs in (0..sets).filter(|&rs| Some(rs) != new_rs) {
            if self.deployments[d].size(rs) > 0 {
                self.scale_replica_set(d, rs, 0);
                changed = true;
            }
        }
        if changed {
            return true;
        }
        let old_running = (0..sets)
            .filter(|&rs| Some(rs) != new_rs)
            .any(|rs| self.pods_of(d, rs).any(|pod| !self.pods[pod].done));
        if old_running {
            return false;
        }
        let replicas = self.deployments[d].replicas;
        match new_rs {
            None => {
                self.create_replica_set(d, replicas);
                true
            }
            Some(rs) if self.deployments[d].size(rs) != replicas => {
                self.scale_replica_set(d, rs, replicas);
                true
            }
            Some(_) => false,
        }
    }

    /// `getNewReplicaSet` creating the ReplicaSet of the current template
    /// with `count` replicas: a fresh pod-template-hash, the event `Scaled
    /// up replica set <rs> from 0 to <n>` when `count > 0` (v1.31+,
    /// scheduler-controllers.md §6.3), and Progressing True
    /// `NewReplicaSetCreated` `Created new replica set "<rs>"`.
    fn create_replica_set(&mut self, d: usize, count: usize) -> usize {
        let now = self.now;
        let known: Vec<String> = self.deployments[d]
            .run
            .replica_sets
            .iter()
            .map(|rs| rs.hash.clone())
            .collect();
        // `getNewReplicaSet`: a name taken by a ReplicaSet of another
        // template is a hash collision; the controller bumps
        // `status.collisionCount` and hashes again (sync.go).
        let template = self.deployments[d].template;
        let mut collision_count = None;
        let mut hash = template_hash(template, collision_count);
        while known.contains(&hash) {
            let next = collision_count.map_or(1, |count: u32| count.saturating_add(1));
            collision_count = Some(next);
            hash = template_hash(template, collision_count);
            if next > 1000 {
                break;
            }
        }
        let deployment = &mut self.deployments[d];
        let name = format!("{}-{hash}", deployment.workload.name);
        let revision = next_revision(&deployment.run, now);
        let members = self.members_scan(&self.deployments[d].workload.name, &hash);
        let deployment = &mut self.deployments[d];
        deployment.sets.push(Members::default());
        deployment.run.replica_sets.push(ReplicaSetRun {
            name: name.clone(),
            hash,
            created: now,
            revision,
            revised: Vec::new(),
            sizes: vec![(now, 0)],
            images: images_of(deployment.template),
        });
        deployment.templates.push(deployment.template);
        let rs = deployment.run.replica_sets.len() - 1;
        deployment.new_rs = Some(rs);
        deployment.run.new_replica_set.push((now, Some(rs)));
        for pod in members {
            self.join(d, rs, pod);
        }
        self.set_condition(
            d,
            "Progressing",
            "True",
            "NewReplicaSetCreated",
            format!("Created new replica set \"{name}\""),
        );
        if count > 0 {
            let object = format!("Deployment/{}", self.deployments[d].workload.name);
            self.object_event(
                object,
                false,
                "ScalingReplicaSet",
                format!("Scaled up replica set {name} from 0 to {count}"),
                "deployment-controller",
            );
            self.replica_set_to(d, rs, count);
        }
        rs
    }

    /// `scaleReplicaSet` (sync.go): `spec.replicas` of ReplicaSet `rs` to
    /// `count`, the event `Scaled up|down replica set <rs> from <a> to
    /// <b>`, and the ReplicaSet controller bringing its pods to the count.
    fn scale_replica_set(&mut self, d: usize, rs: usize, count: usize) {
        let from = self.deployments[d].size(rs);
        if from == count {
            return;
        }
        let direction = if count > from { "up" } else { "down" };
        let name = self.deployments[d].run.replica_sets[rs].name.clone();
        let object = format!("Deployment/{}", self.deployments[d].workload.name);
        self.object_event(
            object,
            false,
            "ScalingReplicaSet",
            format!("Scaled {direction} replica set {name} from {from} to {count}"),
            "deployment-controller",
        );
        self.replica_set_to(d, rs, count);
    }

    /// The ReplicaSet controller (`manageReplicas`): its live pods to
    /// `count`, creating (`SuccessfulCreate`) or deleting the pods
    /// `ActivePodsWithRanks.Less` ranks first (`scale.rs`
    /// `pods_to_delete`; `SuccessfulDelete`, then
    /// `delete_pod`: preStop, SIGTERM, the grace period).
    fn replica_set_to(&mut self, d: usize, rs: usize, count: usize) {
        let now = self.now;
        let deployment = &mut self.deployments[d];
        let entry = &mut deployment.run.replica_sets[rs];
        match entry.sizes.last_mut() {
            Some(last) if last.0 == now => last.1 = count,
            _ => entry.sizes.push((now, count)),
        }
        let rs_name = entry.name.clone();
        let hash = entry.hash.clone();
        let template = deployment.templates[rs];
        let live = self.live_of(d, rs);
        let object = format!("ReplicaSet/{rs_name}");
        if live.len() > count {
            // The co-location rank counts the active pods of every
            // ReplicaSet of the Deployment (`getIndirectlyRelatedPods`).
            let related: Vec<usize> = (0..self.deployments[d].sets.len())
                .flat_map(|other| self.live_of(d, other))
                .collect();
            let excess = live.len() - count;
            for pod in self.pods_to_delete(live, &related, excess, now) {
                let name = self.pods[pod].run.name.clone();
                self.object_event(
                    object.clone(),
                    false,
                    "SuccessfulDelete",
                    format!("Deleted pod: {name}"),
                    "replicaset-controller",
                );
                self.delete_pod(pod);
            }
        } else {
            for _ in live.len()..count {
                let name = format!("{rs_name}-{}", self.rng.suffix(5));
                self.object_event(
                    object.clone(),
                    false,
                    "SuccessfulCreate",
                    format!("Created pod: {name}"),
                    "replicaset-controller",
                );
                self.create_pod(template, name, Owner::None, Some(hash.clone()), None);
            }
        }
    }

    /// The ReplicaSet controller sees a pod of its own deleted (`act.rs`):
    /// `manageReplicas` brings each of the pod's ReplicaSets back to its
    /// `spec.replicas` (`FilterActivePods` leaves the terminating pod out),
    /// then the Deployment syncs.
    pub(super) fn replica_sets_resync(&mut self, pod: usize) {
        for i in 0..self.pods[pod].sets.len() {
            let (d, rs) = self.pods[pod].sets[i];
            let size = self.deployments[d].size(rs);
            if self.live_of(d, rs).len() != size {
                self.replica_set_to(d, rs, size);
            }
        }
        self.deployment_pod_changed(pod);
    }

    /// A `label` took pod `pod` out of its ReplicaSets' selectors: it
    /// leaves their counts and they make up for it (`metadata.rs`).
    pub(super) fn replica_sets_release(&mut self, pod: usize) {
        let tally = self.pods[pod].tally;
        for (d, rs) in self.pods[pod].sets.clone() {
            let set = &mut self.deployments[d].sets[rs];
            set.pods.retain(|&p| p != pod);
            set.live -= usize::from(tally.live);
            set.ready -= usize::from(tally.ready);
        }
        self.replica_sets_resync(pod);
        self.pods[pod].sets.clear();
    }

    /// `kubectl scale` of a Deployment (`scale.rs`): `spec.replicas`
    /// changes and the controller syncs (proportional scaling of several
    /// ReplicaSets is not modelled: the rolling sync moves the new one).
    pub(super) fn deployment_scale(&mut self, d: usize, replicas: usize) {
        let now = self.now;
        let deployment = &mut self.deployments[d];
        deployment.replicas = replicas;
        deployment.run.replicas.push((now, replicas));
        if let Some(rs) = deployment.new_rs {
            if deployment.run.replica_sets.len() == 1 {
                self.scale_replica_set(d, rs, replicas);
            }
        }
        self.deployment_sync(d);
    }

    /// The Deployment of a workload, if its controller keeps it.
    pub(super) fn deployment_of(&self, name: &str) -> Option<usize> {
        self.deployments
            .iter()
            .position(|d| d.workload.name == name)
    }

    /// `syncRolloutStatus` (progress.go, §6.3): the status from the pods,
    /// Available from `replicas − maxUnavailable`, Progressing from
    /// completion, progress or the deadline; a check is queued for
    /// `lastUpdateTime + progressDeadlineSeconds + 1 s`
    /// (`requeueStuckDeployment`; `lastUpdateTime` is stored in whole
    /// seconds, RFC 3339).
    fn sync_rollout_status(&mut self, d: usize) {
        let now = self.now;
        let status = self.status_of(d);
        let (_, unavailable) = self.deployments[d].fenceposts();
        let replicas = self.deployments[d].replicas;
        let name = self.deployments[d]
            .new_rs
            .map(|rs| self.deployments[d].run.replica_sets[rs].name.clone());
        let subject = |d_name: &str| match &name {
            Some(rs) => format!("ReplicaSet \"{rs}\""),
            None => format!("Deployment \"{d_name}\""),
        };
        let d_name = self.deployments[d].workload.name.clone();
        if status.available >= replicas.saturating_sub(unavailable) {
            self.set_condition(
                d,
                "Available",
                "True",
                "MinimumReplicasAvailable",
                "Deployment has minimum availability.".into(),
            );
        } else {
            self.set_condition(
                d,
                "Available",
                "False",
                "MinimumReplicasUnavailable",
                "Deployment does not have minimum availability.".into(),
            );
        }
        let before = self.deployments[d].status;
        let deadline_s = self.deployments[d]
            .run
            .rollout_now()
            .progress_deadline_seconds;
        let current = self.deployments[d].condition("Progressing").cloned();
        let complete_before = status.replicas == status.updated
            && current
                .as_ref()
                .is_some_and(|c| c.reason == "NewReplicaSetAvailable");
        let complete = status.updated == replicas
            && status.replicas == replicas
            && status.available == replicas;
        let progressing = status.updated > before.updated
            || (status.replicas as i64 - status.updated as i64)
                < (before.replicas as i64 - before.updated as i64)
            || status.ready > before.ready
            || status.available > before.available;
        let deadline = |c: &DeploymentCondition| {
            (c.last_update / 1000 * 1000)
                .saturating_add(Millis::try_from(deadline_s.max(0)).unwrap_or(0) * 1000)
        };
        if !complete_before {
            if complete {
                self.set_condition(
                    d,
                    "Progressing",
                    "True",
                    "NewReplicaSetAvailable",
                    format!("{} has successfully progressed.", subject(&d_name)),
                );
            } else if progressing {
                // Rewritten on each progress: lastUpdateTime moves,
                // lastTransitionTime stays while True (progress.go).
                let transition = current
                    .as_ref()
                    .filter(|c| c.status == "True")
                    .map_or(now, |c| c.last_transition);
                self.replace_condition(
                    d,
                    DeploymentCondition {
                        kind: "Progressing",
                        status: "True",
                        reason: "ReplicaSetUpdated",
                        message: format!("{} is progressing.", subject(&d_name)),
                        last_update: now,
                        last_transition: transition,
                    },
                );
            } else if let Some(c) = current
                .as_ref()
                .filter(|c| c.reason == "ProgressDeadlineExceeded" || deadline(c) < now)
            {
                if c.reason != "NewReplicaSetAvailable" {
                    self.set_condition(
                        d,
                        "Progressing",
                        "False",
                        "ProgressDeadlineExceeded",
                        format!("{} has timed out progressing.", subject(&d_name)),
                    );
                }
            }
        }
        self.deployments[d].status = status;
        // `requeueStuckDeployment`.
        if let Some(c) = self.deployments[d].condition("Progressing").cloned() {
            if !complete
                && c.reason != "ProgressDeadlineExceeded"
                && c.reason != "NewReplicaSetAvailable"
            {
                let at = deadline(&c);
                let check = if at < now.saturating_add(1000) {
                    now
                } else {
                    at.saturating_add(1000)
                };
                if check > now {
                    self.push(check, Ev::DeploymentSync(d));
                }
            }
        }
    }

    /// `SetDeploymentCondition` (`util/deployment_util.go`): nothing when
    /// the status and reason are unchanged; else the condition moves to
    /// the end of the list, keeping lastTransitionTime if the status is
    /// the same.
    fn set_condition(
        &mut self,
        d: usize,
        kind: &'static str,
        status: &'static str,
        reason: &'static str,
        message: String,
    ) {
        let now = self.now;
        let current = self.deployments[d].condition(kind).cloned();
        if current
            .as_ref()
            .is_some_and(|c| c.status == status && c.reason == reason)
        {
            return;
        }
        let transition = current
            .filter(|c| c.status == status)
            .map_or(now, |c| c.last_transition);
        self.replace_condition(
            d,
            DeploymentCondition {
                kind,
                status,
                reason,
                message,
                last_update: now,
                last_transition: transition,
            },
        );
    }

    fn replace_condition(&mut self, d: usize, condition: DeploymentCondition) {
        let now = self.now;
        let conditions = &mut self.deployments[d].run.conditions;
        let mut list: Vec<DeploymentCondition> = conditions
            .last()
            .map(|(_, list)| list.clone())
            .unwrap_or_default();
        list.retain(|c| c.kind != condition.kind);
        list.push(condition);
        match conditions.last_mut() {
            Some((at, last)) if *at == now => *last = list,
            _ => conditions.push((now, list)),
        }
    }

    /// `calculateStatus`: replicas, updated (the new ReplicaSet's), ready
    /// and available pods, counting active pods only.
    fn status_of(&self, d: usize) -> Status {
        let sets = self.deployments[d].run.replica_sets.len();
        let mut status = Status::default();
        for rs in 0..sets {
            let (live, ready) = self.counts(d, rs);
            status.replicas += live;
            if Some(rs) == self.deployments[d].new_rs {
                status.updated = live;
            }
            status.ready += ready;
            status.available += self.available_of(d, rs);
        }
        status
    }

    /// ReplicaSet `rs`'s live pods and its live and Ready ones, as kept
    /// (`pod_recount`); checked against its pods in debug builds.
    fn counts(&self, d: usize, rs: usize) -> (usize, usize) {
        let set = &self.deployments[d].sets[rs];
        debug_assert_eq!(
            (set.live, set.ready),
            self.counts_from_pods(d, rs),
            "the counts kept for ReplicaSet {rs} of Deployment {d}"
        );
        (set.live, set.ready)
    }

    fn counts_from_pods(&self, d: usize, rs: usize) -> (usize, usize) {
        let now = self.now;
        let live = self.live_of(d, rs);
        let ready = live.iter().filter(|&&p| self.pod_ready_at(p, now)).count();
        (live.len(), ready)
    }

    /// What pod `pod` adds to its ReplicaSets' counts now.
    fn tally_of(&self, pod: usize) -> Tally {
        let sim = &self.pods[pod];
        let live = !sim.done && sim.run.deleting.is_none();
        Tally {
            live,
            ready: live && self.pod_ready_since(pod).is_some(),
        }
    }

    /// Pod `pod` joins ReplicaSet `rs` of Deployment `d` with its tally.
    fn join(&mut self, d: usize, rs: usize, pod: usize) {
        self.pod_recount(pod);
        if self.pods[pod].sets.is_empty() {
            self.pods[pod].tally = self.tally_of(pod);
        }
        let tally = self.pods[pod].tally;
        self.pods[pod].sets.push((d, rs));
        let set = &mut self.deployments[d].sets[rs];
        set.pods.push(pod);
        set.live += usize::from(tally.live);
        set.ready += usize::from(tally.ready);
    }

    /// Pod `pod` may have become live or not, Ready or not (a container
    /// started, exited, changed readiness; the pod finished, is being
    /// deleted or is gone): its ReplicaSets' counts follow. Called right
    /// after each such change, before anything syncs.
    pub(super) fn pod_recount(&mut self, pod: usize) {
        if self.pods[pod].sets.is_empty() {
            return;
        }
        let new = self.tally_of(pod);
        let old = std::mem::replace(&mut self.pods[pod].tally, new);
        if old == new {
            return;
        }
        for i in 0..self.pods[pod].sets.len() {
            let (d, rs) = self.pods[pod].sets[i];
            let set = &mut self.deployments[d].sets[rs];
            set.live = set.live + usize::from(new.live) - usize::from(old.live);
            set.ready = set.ready + usize::from(new.ready) - usize::from(old.ready);
        }
    }

    fn total_size(&self, d: usize) -> usize {
        (0..self.deployments[d].run.replica_sets.len())
            .map(|rs| self.deployments[d].size(rs))
            .sum()
    }

    /// The pods of ReplicaSet `rs` of Deployment `d`, ever created.
    fn pods_of(&self, d: usize, rs: usize) -> impl Iterator<Item = usize> + '_ {
        self.deployments[d].sets[rs].pods.iter().copied()
    }

    /// The pods created so far whose owner is Deployment `name` and whose
    /// pod-template-hash is `hash`, in creation order.
    fn members_scan(&self, name: &str, hash: &str) -> Vec<usize> {
        (0..self.pods.len())
            .filter(|&p| is_member(&self.pods[p].run, name, hash))
            .collect()
    }

    /// Pod `pod` has just been created: it joins every ReplicaSet it
    /// belongs to (`members`).
    pub(super) fn deployment_pod_created(&mut self, pod: usize) {
        let run = &self.pods[pod].run;
        if run.template_hash.is_none() {
            return;
        }
        let mut joins = Vec::new();
        for (d, deployment) in self.deployments.iter().enumerate() {
            for (rs, set) in deployment.run.replica_sets.iter().enumerate() {
                if is_member(run, &deployment.workload.name, &set.hash) {
                    joins.push((d, rs));
                }
            }
        }
        for (d, rs) in joins {
            self.join(d, rs, pod);
        }
    }

    /// Its active pods: not being deleted, not finished.
    fn live_of(&self, d: usize, rs: usize) -> Vec<usize> {
        self.pods_of(d, rs)
            .filter(|&p| !self.pods[p].done && self.pods[p].run.deleting.is_none())
            .collect()
    }

    /// `status.availableReplicas` of ReplicaSet `rs` now.
    fn available_of(&self, d: usize, rs: usize) -> usize {
        let now = self.now;
        let min_ready = self.deployments[d].min_ready_ms();
        if min_ready == 0 {
            // Available is Ready (Ready since a time not after now).
            return self.counts(d, rs).1;
        }
        self.live_of(d, rs)
            .into_iter()
            .filter(|&p| {
                self.pod_ready_since(p)
                    .is_some_and(|since| since.saturating_add(min_ready) <= now)
            })
            .count()
    }

    fn pod_ready_at(&self, pod: usize, now: Millis) -> bool {
        self.pod_ready_since(pod).is_some_and(|since| since <= now)
    }

    /// Since when every app container has been Ready without a break.
    pub(super) fn pod_ready_since(&self, pod: usize) -> Option<Millis> {
        let sim = &self.pods[pod];
        let app = sim.spec.containers.len().min(sim.containers.len());
        sim.containers[..app]
            .iter()
            .try_fold(0, |since: Millis, c| {
                if !c.running {
                    return None;
                }
                match c.run.instances.last()?.ready.last()? {
                    (from, None) => Some(since.max(*from)),
                    _ => None,
                }
            })
            .filter(|_| app > 0)
    }

    /// The Run's record of every Deployment.
    pub(super) fn deployment_runs(&mut self) -> Vec<DeploymentRun> {
        std::mem::take(&mut self.deployments)
            .into_iter()
            .map(|d| d.run)
            .collect()
    }
}

/// A pod of ReplicaSet `hash` of Deployment `name`: its owner and its
/// pod-template-hash (what `DeploymentRun::pods_of` matches too).
fn is_member(run: &crate::sim::PodRun, name: &str, hash: &str) -> bool {
    run.owner.strip_prefix("Deployment/") == Some(name)
        && run.template_hash.as_deref() == Some(hash)
        && run.owned_at(Millis::MAX)
}

/// `NewRSNewReplicas` for RollingUpdate (`util/deployment_util.go`,
/// §6.2): up to `replicas + maxSurge` pods over all ReplicaSets' spec
/// counts, never past `replicas` in the new one.
/// The highest revision of a Deployment's ReplicaSets at `now`, plus one.
fn next_revision(run: &DeploymentRun, now: Millis) -> usize {
    run.replica_sets
        .iter()
        .map(|rs| rs.revision_at(now))
        .max()
        .unwrap_or(0)
        + 1
}

fn new_rs_replicas(replicas: usize, surge: usize, total: usize, new_size: usize) -> usize {
    let max_total = replicas + surge;
    if total >= max_total {
        return new_size;
    }
    new_size + (max_total - total).min(replicas.saturating_sub(new_size))
}

fn images_of(workload: &Workload) -> Vec<(String, String)> {
    workload
        .pod
        .containers
        .iter()
        .map(|c| {
            (
                c.name.clone(),
                c.image
                    .as_ref()
                    .map(|i| i.value.clone())
                    .unwrap_or_default(),
            )
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::new_rs_replicas;
    use crate::manifest::model::IntOrPercent;

    /// §6.1's worked numbers for 25 %: surge rounded up, unavailable down.
    #[test]
    fn quarter_percentages_round_as_resolve_fenceposts_does() {
        let quarter = IntOrPercent::Percent(25);
        let resolved = |replicas| {
            (
                quarter.scaled(replicas, true),
                quarter.scaled(replicas, false),
            )
        };
        assert_eq!(resolved(1), (1, 0));
        assert_eq!(resolved(2), (1, 0));
        assert_eq!(resolved(4), (1, 1));
        assert_eq!(resolved(10), (3, 2));
        assert_eq!(IntOrPercent::Int(0).scaled(4, true), 0);
    }

    /// §6.2: 4 replicas, surge 1: the new ReplicaSet starts at 1 (4 old +
    /// 1 = 5 = max); with one old scaled down, 2.
    #[test]
    fn new_replica_set_grows_within_max_surge() {
        assert_eq!(new_rs_replicas(4, 1, 4, 0), 1);
        assert_eq!(new_rs_replicas(4, 1, 5, 1), 1);
        assert_eq!(new_rs_replicas(4, 1, 4, 1), 2);
        assert_eq!(new_rs_replicas(4, 0, 4, 0), 0);
        assert_eq!(new_rs_replicas(4, 0, 3, 0), 1);
        assert_eq!(new_rs_replicas(2, 1, 2, 0), 1);
    }
}
