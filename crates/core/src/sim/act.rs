//! The Scenario's `actions`: what a person does with kubectl at a time,
//! performed by the same controllers as everything else (docs/simulator.md
//! "Actions"; the kubectl side is `kubectl/act.rs`).
//!
//! - `scale` is `scale.rs`; `label` and `annotate` are `metadata.rs`.
//! - `delete: {pod}`: the API server sets `deletionTimestamp` and
//!   `deletionGracePeriodSeconds` (the pod's own grace unless the delete
//!   gave one); the kubelet stops the containers as for any deletion
//!   (`stop.rs`: `Killing`, preStop, SIGTERM, SIGKILL after the grace) and
//!   the object is gone once they have stopped. A grace of 0 (`--force`)
//!   removes the object at once (`registry/core/pod/strategy.go`
//!   `CheckGracefulDelete`: 0 is an immediate delete); the kubelet still
//!   stops the containers. The owner replaces the pod: a ReplicaSet (of a
//!   Deployment or not) at once with a new `rand.String(5)` suffix
//!   (`FilterActivePods` leaves terminating pods out of `manageReplicas`;
//!   `SuccessfulCreate`), a Job at once as well, counting the deleted pod
//!   as failed (`pkg/controller/job/job_controller.go` `isPodFailed`: a
//!   pod with a `deletionTimestamp` that has not Succeeded) so its
//!   pod-failure back-off applies, a StatefulSet under the same name once
//!   the old one is gone (`pkg/controller/statefulset/stateful_set_control.go`
//!   waits for a terminating pod), a DaemonSet once it is gone
//!   (`pkg/controller/daemon/daemon_controller.go` `podsShouldBeOnNode`:
//!   a terminating pod still `exists` on its node); a bare Pod is gone.
//! - `cordon`/`uncordon: {node}`: `spec.unschedulable`; the scheduler's
//!   NodeUnschedulable filter (`sched`) rejects the node with
//!   `node(s) were unschedulable`; an uncordon moves the pods it rejected
//!   back to the queue (their back-off still applies).
//! - `drain: {node}`: `kubectl drain --ignore-daemonsets`
//!   (`staging/src/k8s.io/kubectl/pkg/drain/`): cordon, then the eviction
//!   API for every pod on the node except DaemonSet pods; an eviction
//!   deletes the pod with its own grace period
//!   (`pkg/registry/core/pod/storage/eviction.go`). PodDisruptionBudgets
//!   are not modelled (no budget refuses an eviction).

use super::*;
use crate::manifest::scenario::{Act, Delete, NodeRef};
use crate::sim::{ActionError, ActionProblem};
use crate::span::Span;

impl<'a> Sim<'a> {
    /// The Scenario's action `index` (the autoscalers' decisions follow the
    /// written ones, `Sim::applied`) happens now.
    pub(super) fn action(&mut self, index: usize) {
        let Some(action) = self.scenario.actions.iter().chain(self.applied).nth(index) else {
            return;
        };
        match &action.act {
            Act::Scale(scale) => self.scale_action(scale),
            Act::Delete(delete) => self.delete_action(delete),
            Act::Cordon(node) => {
                if let Some(index) = self.named_node(node, "cordon") {
                    self.cordon(index);
                }
            }
            Act::Uncordon(node) => {
                if let Some(index) = self.named_node(node, "uncordon") {
                    self.uncordon(index);
                }
            }
            Act::Drain(node) => {
                if let Some(index) = self.named_node(node, "drain") {
                    self.drain(index);
                }
            }
            Act::Restart(target) => {
                if self.deployment_of(&target.deployment).is_some() {
                    self.template_action(index);
                } else {
                    let problem = ActionProblem::NoSuchDeployment(target.deployment.clone());
                    self.action_error(target.span, "restart", problem);
                }
            }
            Act::Undo(undo) => {
                if self.deployment_of(&undo.deployment).is_none() {
                    let problem = ActionProblem::NoSuchDeployment(undo.deployment.clone());
                    self.action_error(undo.span, "undo", problem);
                } else if self
                    .action_templates
                    .get(index)
                    .is_some_and(Option::is_some)
                {
                    self.template_action(index);
                } else {
                    let problem = ActionProblem::NothingToUndo(undo.deployment.clone());
                    self.action_error(undo.span, "undo", problem);
                }
            }
            Act::Patch(patch) => match self.deployment_of(&patch.deployment) {
                Some(d) => {
                    self.template_action(index);
                    if let Some(replicas) = patch.replicas() {
                        self.deployment_scale(
                            d,
                            usize::try_from(replicas.clamp(0, 1000)).unwrap_or(0),
                        );
                    }
                }
                None => {
                    let problem = ActionProblem::NoSuchDeployment(patch.deployment.clone());
                    self.action_error(patch.span, "patch", problem);
                }
            },
            Act::Label(change) => self.metadata_action(change, true),
            Act::Annotate(change) => self.metadata_action(change, false),
            Act::Nothing => {}
        }
    }

    /// The pod an action names as it exists now: the newest of that name
    /// (a StatefulSet's replacement has the old one's) not yet gone.
    pub(super) fn pod_named(&self, name: &str) -> Option<usize> {
        (0..self.pods.len())
            .rev()
            .find(|&p| self.pods[p].run.name == name && self.pods[p].run.deleted.is_none())
    }

    pub(super) fn action_error(&mut self, span: Span, verb: &'static str, problem: ActionProblem) {
        let at = self.now;
        self.action_errors.push(ActionError {
            span,
            at,
            verb,
            problem,
        });
    }

    /// `kubectl delete pod NAME`: the deletion, then the owner's replacement.
    fn delete_action(&mut self, delete: &Delete) {
        let Some(pod) = self.pod_named(&delete.pod) else {
            self.action_error(
                delete.span,
                "delete",
                ActionProblem::NoSuchPod(delete.pod.clone()),
            );
            return;
        };
        self.delete_by_person(pod, delete.grace());
    }

    /// A person's delete (or an eviction) of `pod` with `grace` seconds
    /// (`None`: the pod's own), and the owner's replacement.
    pub(super) fn delete_by_person(&mut self, pod: usize, grace: Option<i64>) {
        if self.pods[pod].run.deleting.is_some() {
            // Already terminating: only a force delete changes anything.
            if grace == Some(0) {
                self.pod_gone(pod);
            }
            return;
        }
        // A finished pod, or one a relabel released (no owner any more),
        // is not replaced.
        let finished = self.pods[pod].done || !self.pods[pod].run.owned_at(Millis::MAX);
        self.pods[pod].run.deletion_grace = grace;
        self.pods[pod].replace_when_gone = !finished;
        self.delete_pod(pod);
        if grace == Some(0) {
            // Removed from the API now; the kubelet still stops what runs.
            self.pod_gone(pod);
        }
        if finished {
            return;
        }
        let owner = self.pods[pod].run.owner.clone();
        match self.pods[pod].owner {
            Owner::Job(job) => {
                let now = self.now;
                self.job_pod_finished(job, false, now);
            }
            Owner::StatefulSet(..) => {}
            Owner::None => {
                if owner.starts_with("Deployment/") {
                    // `delete_pod` took it out of the live count; its
                    // ReplicaSet creates the replacement (`rollout.rs`).
                    self.replica_sets_resync(pod);
                } else if owner.starts_with("ReplicaSet/") {
                    self.replica_set_replacement(&owner);
                }
            }
        }
    }

    /// A ReplicaSet the text holds (not a Deployment's) lost a pod: it
    /// creates one at once with a new `rand.String(5)` suffix.
    pub(super) fn replica_set_replacement(&mut self, owner: &str) {
        let Some(rs) = owner.strip_prefix("ReplicaSet/") else {
            return;
        };
        let name = format!("{rs}-{}", self.rng.suffix(5));
        self.object_event(
            owner.to_string(),
            false,
            "SuccessfulCreate",
            format!("Created pod: {name}"),
            "replicaset-controller",
        );
        if let Some(workload) = self.workload_of(owner) {
            self.create_pod(workload, name, Owner::None, None, None);
        }
    }

    /// The workload a pod's `Kind/name` owner text names.
    pub(super) fn workload_of(&self, owner: &str) -> Option<&'a Workload> {
        let workloads: &'a [Workload] = self.workloads;
        workloads
            .iter()
            .find(|w| format!("{}/{}", w.kind.as_str(), w.name) == owner)
    }

    /// A pod a person deleted is gone: a StatefulSet makes it again under
    /// the same name, a DaemonSet a new one on the same node.
    pub(super) fn replace_gone(&mut self, pod: usize) {
        self.pods[pod].replace_when_gone = false;
        match self.pods[pod].owner {
            Owner::StatefulSet(set, ordinal) => self.statefulset_create_ordinal(set, ordinal),
            Owner::Job(_) => {}
            Owner::None => {
                let owner = self.pods[pod].run.owner.clone();
                let Some(name) = owner.strip_prefix("DaemonSet/") else {
                    return;
                };
                let Some(workload) = self.workload_of(&owner) else {
                    return;
                };
                let name = format!("{name}-{}", self.rng.suffix(5));
                self.object_event(
                    owner.clone(),
                    false,
                    "SuccessfulCreate",
                    format!("Created pod: {name}"),
                    "daemonset-controller",
                );
                let pin = self.pods[pod].pin;
                self.create_pod(workload, name, Owner::None, None, pin);
            }
        }
    }

    /// The node an action names, or an action error on its name.
    pub(super) fn named_node(&mut self, node: &NodeRef, verb: &'static str) -> Option<usize> {
        let found = self.nodes.iter().position(|n| n.sched.name == node.node);
        if found.is_none() {
            let nodes = self.nodes.iter().map(|n| n.sched.name.clone()).collect();
            let problem = ActionProblem::NoSuchNode {
                node: node.node.clone(),
                nodes,
            };
            self.action_error(node.span, verb, problem);
        }
        found
    }

    /// `spec.unschedulable: true`.
    fn cordon(&mut self, node: usize) {
        if self.nodes[node].sched.unschedulable {
            return;
        }
        self.nodes[node].sched.unschedulable = true;
        self.nodes_changed += 1;
        self.cordons.push(crate::sim::Cordon {
            node: self.nodes[node].sched.name.clone(),
            from: self.now,
            until: None,
        });
    }

    /// `spec.unschedulable: false`: the pods the scheduler set aside go
    /// back to the queue, after what is left of their back-off.
    fn uncordon(&mut self, node: usize) {
        if !self.nodes[node].sched.unschedulable {
            return;
        }
        self.nodes[node].sched.unschedulable = false;
        self.nodes_changed += 1;
        let (name, now) = (self.nodes[node].sched.name.clone(), self.now);
        if let Some(cordon) = self
            .cordons
            .iter_mut()
            .rev()
            .find(|c| c.node == name && c.until.is_none())
        {
            cordon.until = Some(now);
        }
        self.requeue_unschedulable(false);
    }

    /// `kubectl drain --ignore-daemonsets`: cordon, then evict every pod
    /// bound to the node that is not a DaemonSet's and not yet terminating
    /// (a finished one is removed: no owner replaces it).
    fn drain(&mut self, node: usize) {
        self.cordon(node);
        let name = self.nodes[node].sched.name.clone();
        let evicted: Vec<usize> = (0..self.pods.len())
            .filter(|&p| {
                let pod = &self.pods[p];
                pod.run.node.as_ref().is_some_and(|(n, _)| *n == name)
                    && pod.run.deleted.is_none()
                    && pod.run.deleting.is_none()
                    && !pod.run.owner.starts_with("DaemonSet/")
            })
            .collect();
        for pod in evicted {
            self.delete_by_person(pod, None);
        }
    }
}
