//! The Scenario's `label` and `annotate` actions: `kubectl label|annotate
//! pod|node|deployment NAME …` changes the object's `metadata` and what
//! reads it (docs/simulator.md "Actions"):
//!
//! - a pod's labels and annotations from that time (`PodRun::labels_at`,
//!   `annotations_at`). A pod of a ReplicaSet whose labels stop matching
//!   its selector is released: the ReplicaSet controller's
//!   `ClaimPods` (`pkg/controller/controller_ref_manager.go`,
//!   `PodControllerRefManager.ReleasePod`) removes its ownerReference, so
//!   the pod runs on as an orphan (`describe` loses `Controlled By`) and the
//!   ReplicaSet, one pod short, creates a replacement at once
//!   (`pkg/controller/replicaset/replica_set.go` `manageReplicas`). An
//!   orphan relabelled back into a Deployment's ReplicaSet's selector is
//!   adopted (`AdoptPod`) and the ReplicaSet, one over, deletes the pod
//!   `controller.ActivePodsWithRanks` ranks first (`getPodsToDelete`).
//!   Not modelled: adoption by a ReplicaSet written in the text, and the
//!   release of a StatefulSet's, DaemonSet's or Job's pod;
//! - a node's labels: the scheduler's NodeAffinity filter reads them at
//!   each cycle (`pkg/scheduler/framework/plugins/nodeaffinity`), and a
//!   node update moves the unschedulable pods it may help back to the
//!   active queue (`pkg/scheduler/eventhandlers.go` `updateNodeInCache`,
//!   the `NodeLabelChange` event; NodeAffinity's queueing hint
//!   `isSchedulableAfterNodeChange` keeps those the node still does not
//!   admit where they are), as an uncordon does;
//! - a Deployment's labels and annotations are its own `metadata`, not its
//!   template: no new ReplicaSet, no rollout (`pkg/controller/deployment`
//!   hashes `spec.template` only).

use super::*;
use crate::manifest::scenario::{MetaTarget, Metadata, NodeRef};
use crate::sim::{ActionProblem, MetadataChange};

impl<'a> Sim<'a> {
    /// `label` (`labels`) or `annotate` of the object `change` names, now.
    pub(super) fn metadata_action(&mut self, change: &Metadata, labels: bool) {
        let verb = if labels { "label" } else { "annotate" };
        let now = self.now;
        let found = match change.target {
            MetaTarget::Pod => {
                let Some(pod) = self.pod_named(&change.name) else {
                    let problem = ActionProblem::NoSuchPod(change.name.clone());
                    self.action_error(change.span, verb, problem);
                    return;
                };
                let run = &mut self.pods[pod].run;
                let list = if labels {
                    &mut run.label_changes
                } else {
                    &mut run.annotation_changes
                };
                list.push((now, change.changes.clone()));
                if labels {
                    self.claim(pod);
                }
                return;
            }
            MetaTarget::Node => {
                let named = NodeRef {
                    node: change.name.clone(),
                    span: change.span,
                };
                let Some(node) = self.named_node(&named, verb) else {
                    return;
                };
                if labels {
                    let sched = &mut self.nodes[node].sched;
                    sched.relabeled.extend(change.changes.iter().cloned());
                    self.nodes_changed += 1;
                    // NodeAffinity's queueing hint (`isSchedulableAfterNodeChange`):
                    // only the pods the node now admits are retried.
                    self.requeue_where(&|sim, pod| {
                        sim.nodes[node].sched.matches(sim.pods[pod].spec)
                    });
                }
                true
            }
            MetaTarget::Deployment => self.deployment_of(&change.name).is_some(),
        };
        if !found {
            let problem = ActionProblem::NoSuchDeployment(change.name.clone());
            self.action_error(change.span, verb, problem);
            return;
        }
        self.metadata.push(MetadataChange {
            at: now,
            target: change.target,
            name: change.name.clone(),
            labels,
            changes: change.changes.clone(),
        });
    }

    /// The ReplicaSet controller's `ClaimPods` after a relabel of pod
    /// `pod`: a pod it owns whose labels no longer match its selector is
    /// released; an orphan of a Deployment's ReplicaSet whose labels match
    /// again is adopted, and the ReplicaSet, one pod over, deletes the one
    /// `ActivePodsWithRanks` ranks first. A Deployment's ReplicaSet selects
    /// the template's labels and `pod-template-hash` (podlab takes the
    /// template's labels as the selector, `matchLabels`), a ReplicaSet of
    /// the text its template's.
    fn claim(&mut self, pod: usize) {
        let run = &self.pods[pod].run;
        if run.deleting.is_some() {
            return;
        }
        let labels = run.labels_at(self.now);
        let owner = run.owner.clone();
        let mut selector: Vec<(String, String)> = match self.workload_of(&owner) {
            Some(workload)
                if owner.starts_with("Deployment/") || owner.starts_with("ReplicaSet/") =>
            {
                workload.pod_labels.clone()
            }
            _ => return,
        };
        selector.extend(
            run.template_hash
                .clone()
                .map(|hash| ("pod-template-hash".to_string(), hash)),
        );
        let selected = selector.iter().all(|label| labels.contains(label));
        let deployment = owner.starts_with("Deployment/");
        match (run.owned_at(Millis::MAX), selected) {
            (true, false) => {
                self.pods[pod].run.released.push((self.now, None));
                if deployment {
                    self.replica_sets_release(pod);
                } else if !self.pods[pod].done {
                    self.replica_set_replacement(&owner);
                }
            }
            // Adoption by a written ReplicaSet is not modelled (nothing
            // keeps its count after a `scale`).
            (false, true) if deployment => {
                let now = self.now;
                if let Some(last) = self.pods[pod].run.released.last_mut() {
                    last.1 = Some(now);
                }
                self.deployment_pod_created(pod);
                self.replica_sets_resync(pod);
            }
            _ => {}
        }
    }
}
