//! The simulator: one event queue, an explicit clock, no wall clock.
//!
//! Pods from bare Pods, Deployments/ReplicaSets, StatefulSets (OrderedReady),
//! DaemonSets, Jobs and CronJobs, each created by its controller's rules
//! (`scheduler-controllers.md` §6-§9); the scheduler's first fit with taints,
//! node affinity and resources, and its queue (backoff, the 5 min flush, a
//! retry when a pod frees capacity); the kubelet's container lifecycle —
//! init containers in order and sidecars (`init.rs`, `init_kubelet.rs`),
//! start, the three probe workers on their period grid, liveness/startup
//! kills with the grace period and preStop, the program's own exits, OOM at
//! the loading peak, the crash-loop back-off exactly as `doBackOff` decides
//! it, pod deletion; image pulls and their back-off, missing Secrets and
//! ConfigMaps; GPU devices with their memory (whole cards, time-slicing
//! without isolation, MPS caps, MIG slices). What is modelled, and the
//! constants chosen where Kubernetes leaves timing to chance, are in
//! `docs/simulator.md`.
//!
//! A run is a pure function of (text, options): pod-name suffixes come from
//! a generator seeded by the objects the text holds (`Reading::seed`: their
//! canonical form, not the text's bytes; the Scenario left out), so native
//! and wasm give the same run, and a comment, a slider or an action
//! recorded at T renames nothing. A Deployment's `pod-template-hash` is a
//! function of its template alone (`manifest::canonical`).

mod cron;
pub mod hpa;
pub mod image;
pub mod init;
mod kubelet;
mod queue;
pub mod shm;
pub mod traffic;

pub use kubelet::{requeue, RolloutSpec, Timing};

use std::sync::Arc;

use crate::manifest::duration::Millis;
use crate::manifest::read::read;
use crate::manifest::scenario::{MapChanges, MetaTarget};

/// What to simulate.
#[derive(Clone, Debug, Default)]
pub struct Options {
    /// Simulated time; default: the Scenario's `duration` (15m).
    pub until: Option<Millis>,
}

/// Simulates a YAML text (manifests and at most one Scenario).
pub fn simulate(text: &str, options: &Options) -> Run {
    let reading = read(text);
    simulate_reading(&reading, reading.seed, options)
}

/// Simulates a text already read: the pods (`kubelet.rs`), then the
/// Scenario's traffic over them (`traffic.rs`); with HorizontalPodAutoscalers,
/// both again for each scale they decide (`hpa.rs`, the replay).
pub fn simulate_reading(
    reading: &crate::manifest::read::Reading,
    seed: u64,
    options: &Options,
) -> Run {
    let mut passes = Passes::default();
    loop {
        if let Some(run) = passes.step(reading, seed, options) {
            return run;
        }
    }
}

/// The pods alone: the page's first answer to a change (issue 28 item 4),
/// drawn before the heavier parts are computed. It is
/// [`simulate_reading`] without the request engine
/// (`traffic::simulate_traffic`) and without the HPAs' replay
/// (`hpa::Replay`): `traffic` is `None`, `autoscalers` is empty and no HPA
/// decision is applied. Traffic never changes a pod here (only an HPA's
/// decision does, through the replay), so the pods are the full run's up to
/// the first decision, and all of them when no HPA decides anything. When
/// [`has_heavy_part`] is false this is the full run; otherwise the caller
/// must still run [`Passes`] to the end (and say, meanwhile, that the
/// traffic and the replicas are not computed yet).
pub fn simulate_pods(
    reading: &crate::manifest::read::Reading,
    seed: u64,
    options: &Options,
) -> Run {
    kubelet::simulate_reading(reading, &[], seed, options)
}

/// Whether [`simulate_pods`] leaves something out: the Scenario sends
/// requests (the request engine) or a HorizontalPodAutoscaler scales a
/// workload (the replay).
pub fn has_heavy_part(reading: &crate::manifest::read::Reading) -> bool {
    reading.scenario.traffic.is_some() || !reading.autoscalers.is_empty()
}

/// The full run one pass at a time: each [`Passes::step`] simulates the pods
/// and the traffic once (one round of the HPAs' replay, `hpa::Replay`), and
/// returns the run once no HPA decides anything new. A caller that must
/// answer input between passes (the page) calls `step` in separate tasks;
/// [`simulate_reading`] is its loop.
#[derive(Clone, Debug, Default)]
pub struct Passes {
    replay: hpa::Replay,
}

impl Passes {
    /// One pass; `Some(run)` when it was the last.
    pub fn step(
        &mut self,
        reading: &crate::manifest::read::Reading,
        seed: u64,
        options: &Options,
    ) -> Option<Run> {
        if reading.autoscalers.is_empty() {
            return Some(simulate_once(reading, &[], seed, options));
        }
        self.replay.step(reading, &|applied| {
            simulate_once(reading, applied, seed, options)
        })
    }

    /// The passes run so far that found an HPA decision.
    pub fn decisions(&self) -> usize {
        self.replay.decisions()
    }
}

/// One pass: the pods, then the traffic over them. Out of line, and handed
/// to the replay as `&dyn Fn`, so the web build holds one copy of the whole
/// engine rather than one per caller (inlined twice it cost 21 KB gzip).
/// `applied`: the HPAs' decisions, as actions after the Scenario's.
#[inline(never)]
fn simulate_once(
    reading: &crate::manifest::read::Reading,
    applied: &[crate::manifest::scenario::Action],
    seed: u64,
    options: &Options,
) -> Run {
    let mut run = kubelet::simulate_reading(reading, applied, seed, options);
    run.traffic =
        traffic::simulate_traffic(reading, &run, seed, traffic::TrafficOptions::default());
    run
}

/// The note on the cluster podlab assumed for `text` — `Some` when no
/// Scenario writes `cluster.nodePools` and a pod names a managed cloud's GPU
/// node (`manifest::infer`), in both languages: which pools were assumed,
/// from which hints, and how to change them. `None` for a written cluster
/// and for the default pool. The page shows it beside the timeline;
/// `podlab simulate` prints it.
pub fn cluster_note(text: &str) -> Option<crate::i18n::Text> {
    read(text).scenario.inferred_note
}

/// The seed of everything random in a run of `text`: `Reading::seed`, a
/// hash of the canonical form of its workloads (not of its bytes). A
/// caller that has read the text already takes `reading.seed` instead.
pub fn seed_of(text: &str) -> u64 {
    read(text).seed
}

/// A finished run: every pod with every container instance, and every event.
#[derive(Clone, Debug, PartialEq)]
pub struct Run {
    /// Simulated time covered, from 0.
    pub end: Millis,
    /// In creation order.
    pub pods: Vec<PodRun>,
    /// Every occurrence, in time order (ties: in the order they happened).
    pub events: Vec<Event>,
    /// Jobs (from Job objects and CronJobs), in creation order, as they
    /// stand at `end`.
    pub jobs: Vec<JobRun>,
    /// Objects the API server refused at `kubectl apply`: nothing of them
    /// runs (kubernetes-behavior.md: PL101/PL102 model that validation).
    pub refused: Vec<Refused>,
    /// The Scenario's requests over the run (`traffic.rs`), when it sends any.
    pub traffic: Option<traffic::TrafficRun>,
    /// The Services of the text, as read, in the order written: created at
    /// 0 with everything else (`explain::service` shows their endpoints).
    pub services: Vec<crate::manifest::service::Service>,
    /// The seed the run was drawn from (`Reading::seed`, mixed with the
    /// Scenario's `seed`): renderers derive what the API server would
    /// invent (a Service's ClusterIP, EndpointSlice names) from it and a
    /// name, never from the simulator's generator, so showing a Service
    /// takes nothing from the draws the pods' names and timings use.
    pub seed: u64,
    /// What each HorizontalPodAutoscaler did (`hpa/`), in document order.
    pub autoscalers: Vec<hpa::AutoscalerRun>,
    /// Each Deployment as its controller kept it (`rollout.rs`): its
    /// ReplicaSets and their sizes, its conditions, in document order.
    pub deployments: Vec<DeploymentRun>,
    /// The numbers the run used that nothing in the text states
    /// (`Reading::assumed`, `manifest::assumed`): the diagnosis says when
    /// an outcome follows from one of them.
    pub assumed: Vec<crate::manifest::assumed::Assumption>,
    /// The Scenario's actions that named what did not exist at their time
    /// (`sim/act.rs`): they did nothing. Reported by the run, not by the
    /// reading: which pods exist at a time is known only once simulated.
    pub action_errors: Vec<ActionError>,
    /// Each node cordoned by an action: (node, from, until uncordoned).
    pub cordons: Vec<Cordon>,
    /// The `label`/`annotate` actions on nodes and Deployments that happened,
    /// in time order (a pod keeps its own, `PodRun::label_changes`).
    pub metadata: Vec<MetadataChange>,
}

/// A node's or Deployment's labels (or annotations) changed at a time.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MetadataChange {
    pub at: Millis,
    pub target: MetaTarget,
    pub name: String,
    /// `metadata.labels`; else `metadata.annotations`.
    pub labels: bool,
    pub changes: MapChanges,
}

/// `map` with the changes made up to `at` applied in order.
fn changed_at(
    mut map: Vec<(String, String)>,
    changes: &[(Millis, MapChanges)],
    at: Millis,
) -> Vec<(String, String)> {
    for (_, change) in changes.iter().take_while(|(when, _)| *when <= at) {
        crate::manifest::scenario::apply_changes(&mut map, change);
    }
    map
}

/// An action that could not happen, with the place of the name it gives
/// (data: `explain::actions::message` words it).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ActionError {
    pub span: crate::span::Span,
    /// The action's time.
    pub at: Millis,
    /// The action's key (`delete`, `drain`).
    pub verb: &'static str,
    pub problem: ActionProblem,
}

/// What an action named that was not there.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ActionProblem {
    /// No pod of that name exists at the action's time.
    NoSuchPod(String),
    /// The cluster has no node of that name; its nodes.
    NoSuchNode { node: String, nodes: Vec<String> },
    /// The text has no Deployment of that name.
    NoSuchDeployment(String),
    /// A `rollout undo` of a Deployment with no revision to go back to
    /// (or its template is already that revision's).
    NothingToUndo(String),
}

/// A node's `spec.unschedulable: true` over a time (`kubectl cordon`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Cordon {
    pub node: String,
    pub from: Millis,
    pub until: Option<Millis>,
}

impl Run {
    /// The labels (`labels`; else the annotations) of node or Deployment
    /// `name` at `at`: `base` with the `label`/`annotate` actions up to `at`.
    pub fn metadata_at(
        &self,
        target: MetaTarget,
        name: &str,
        labels: bool,
        base: Vec<(String, String)>,
        at: Millis,
    ) -> Vec<(String, String)> {
        let changes: Vec<(Millis, MapChanges)> = self
            .metadata
            .iter()
            .filter(|c| c.target == target && c.name == name && c.labels == labels)
            .map(|c| (c.at, c.changes.clone()))
            .collect();
        changed_at(base, &changes, at)
    }

    /// Whether `node` is cordoned at `at` (`kubectl get nodes` shows
    /// `SchedulingDisabled`).
    pub fn cordoned_at(&self, node: &str, at: Millis) -> bool {
        self.cordons
            .iter()
            .any(|c| c.node == node && c.from <= at && c.until.is_none_or(|until| until > at))
    }
}

/// A Deployment over the run (`sim/rollout.rs`, docs/rollouts.md).
#[derive(Clone, Debug, PartialEq)]
pub struct DeploymentRun {
    pub name: String,
    /// `spec.replicas` from each time on.
    pub replicas: Vec<(Millis, usize)>,
    /// The strategy and timings from each time on: as written, then as a
    /// `patch` left them (`rollout_at`, `sim/rollout.rs`).
    pub rollout: Vec<(Millis, RolloutSpec)>,
    /// The template's labels (the selector podlab assumes).
    pub labels: Vec<(String, String)>,
    /// The template's pod spec as written (its first ReplicaSet's); each
    /// ReplicaSet's own images are its `ReplicaSetRun::images`.
    pub pod: crate::manifest::model::PodSpec,
    /// In creation order.
    pub replica_sets: Vec<ReplicaSetRun>,
    /// Which ReplicaSet has the current template from each time on.
    pub new_replica_set: Vec<(Millis, Option<usize>)>,
    /// `status.conditions` after each change, in the API's order.
    pub conditions: Vec<(Millis, Vec<DeploymentCondition>)>,
}

/// A ReplicaSet of a Deployment.
#[derive(Clone, Debug, PartialEq)]
pub struct ReplicaSetRun {
    /// `<deployment>-<pod-template-hash>`.
    pub name: String,
    pub hash: String,
    pub created: Millis,
    /// `deployment.kubernetes.io/revision` at its creation.
    pub revision: usize,
    /// The revisions it took later: a rollback (or any template equal to
    /// its own) made it the new ReplicaSet again at that time, with the
    /// highest revision plus one (`SetNewReplicaSetAnnotations`).
    pub revised: Vec<(Millis, usize)>,
    /// `spec.replicas` from each time on (the first entry at creation).
    pub sizes: Vec<(Millis, usize)>,
    /// (container, image) of its template.
    pub images: Vec<(String, String)>,
}

/// A `DeploymentCondition` (`Progressing`, `Available`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DeploymentCondition {
    pub kind: &'static str,
    /// `True`, `False`.
    pub status: &'static str,
    pub reason: &'static str,
    pub message: String,
    pub last_update: Millis,
    pub last_transition: Millis,
}

/// The value of a step function `(from, value)` at `at`.
fn step_at<T: Clone>(steps: &[(Millis, T)], at: Millis) -> Option<T> {
    steps
        .iter()
        .rev()
        .find(|(from, _)| *from <= at)
        .map(|(_, value)| value.clone())
}

impl DeploymentRun {
    /// `spec.replicas` at `at`.
    pub fn replicas_at(&self, at: Millis) -> usize {
        step_at(&self.replicas, at).unwrap_or(0)
    }

    /// The ReplicaSet with the current template at `at`.
    pub fn new_replica_set_at(&self, at: Millis) -> Option<&ReplicaSetRun> {
        step_at(&self.new_replica_set, at)
            .flatten()
            .and_then(|index| self.replica_sets.get(index))
    }

    /// `status.conditions` at `at`.
    pub fn conditions_at(&self, at: Millis) -> Vec<DeploymentCondition> {
        step_at(&self.conditions, at).unwrap_or_default()
    }

    /// The ReplicaSets that exist at `at`.
    pub fn replica_sets_at(&self, at: Millis) -> impl Iterator<Item = &ReplicaSetRun> {
        self.replica_sets.iter().filter(move |rs| rs.created <= at)
    }

    /// The pods of ReplicaSet `rs` in `pods` (its pod-template-hash).
    pub fn pods_of<'r>(
        &self,
        rs: &'r ReplicaSetRun,
        pods: &'r [PodRun],
        at: Millis,
    ) -> impl Iterator<Item = &'r PodRun> + 'r {
        let owner = format!("Deployment/{}", self.name);
        pods.iter().filter(move |pod| {
            pod.owner == owner
                && pod.template_hash.as_deref() == Some(rs.hash.as_str())
                && pod.owned_at(at)
        })
    }
}

impl ReplicaSetRun {
    /// `deployment.kubernetes.io/revision` at `at`.
    pub fn revision_at(&self, at: Millis) -> usize {
        step_at(&self.revised, at).unwrap_or(self.revision)
    }

    /// `spec.replicas` at `at`.
    pub fn size_at(&self, at: Millis) -> usize {
        step_at(&self.sizes, at).unwrap_or(0)
    }
}

impl PodRun {
    /// Counted by its ReplicaSet at `at`: created, not deleted
    /// (`FilterActivePods`: no deletionTimestamp).
    pub fn active_at(&self, at: Millis) -> bool {
        self.created <= at && self.deleting.is_none_or(|deleting| deleting > at)
    }

    /// Ready at `at` (every app container Ready).
    pub fn ready_at(&self, at: Millis) -> bool {
        pod_ready_intervals(self)
            .iter()
            .any(|(from, to)| *from <= at && at < *to)
    }

    /// Available at `at`: active and Ready for at least `min_ready_seconds`
    /// (`podutil.IsPodAvailable`).
    pub fn available_at(&self, at: Millis, min_ready_seconds: i64) -> bool {
        let min_ready = Millis::try_from(min_ready_seconds.max(0))
            .unwrap_or(0)
            .saturating_mul(1000);
        self.active_at(at)
            && pod_ready_intervals(self)
                .iter()
                .any(|(from, to)| *from <= at && at < *to && from.saturating_add(min_ready) <= at)
    }
}

impl JobRun {
    /// Whether the Job object exists at `at` (created, not yet deleted).
    pub fn exists_at(&self, at: Millis) -> bool {
        self.created <= at && self.deleted.is_none_or(|gone| gone > at)
    }

    /// The conditions set at or before `at`, in the order they were added.
    pub fn conditions_at(&self, at: Millis) -> impl Iterator<Item = &JobCondition> {
        self.conditions.iter().filter(move |c| c.at <= at)
    }
}

/// An object `kubectl apply` could not create, with the API server's error.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Refused {
    /// `Deployment/model-api`.
    pub object: String,
    /// What `kubectl apply` prints: `The Deployment "model-api" is invalid: …`.
    pub message: String,
}

/// A Job's status at the end of the run (scheduler-controllers.md §8).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct JobRun {
    pub name: String,
    /// `CronJob/<name>` for a CronJob's Jobs.
    pub owner: Option<String>,
    pub created: Millis,
    /// `status.succeeded` / `status.failed`: pods counted so far.
    pub succeeded: usize,
    pub failed: usize,
    /// In the order they were added.
    pub conditions: Vec<JobCondition>,
    /// When the Job object was deleted (CronJob `Replace`).
    pub deleted: Option<Millis>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct JobCondition {
    /// `SuccessCriteriaMet`, `Complete`, `FailureTarget`, `Failed`.
    pub kind: &'static str,
    pub reason: &'static str,
    pub message: &'static str,
    pub at: Millis,
}

#[derive(Clone, Debug, PartialEq)]
pub struct PodRun {
    pub name: String,
    /// `Deployment/model-api`, `Pod/model`.
    pub owner: String,
    pub uid: String,
    pub created: Millis,
    /// The node and when the pod was bound to it.
    pub node: Option<(String, Millis)>,
    pub ip: String,
    pub restart_policy: String,
    pub containers: Vec<ContainerRun>,
    /// The init containers, in spec order (`sim/init.rs`): each runs to
    /// completion before the next starts; a sidecar (`restartPolicy:
    /// Always`) is started and not awaited.
    pub init_containers: Vec<ContainerRun>,
    /// The pod's spec and labels as written (defaults applied), for
    /// `describe` and the API objects.
    pub spec: crate::manifest::model::PodSpec,
    pub labels: Vec<(String, String)>,
    /// `metadata.annotations`: the template's (`describe`'s `Annotations:`,
    /// `get -o yaml`).
    pub annotations: Vec<(String, String)>,
    /// `pod-template-hash` of a Deployment's pods.
    pub template_hash: Option<String>,
    /// When the pod sandbox was ready (pod IP, `PodReadyToStartContainers`):
    /// the kubelet's first attempt to start a container, before any image
    /// pull or config error (kubelet.md §8).
    pub sandbox: Option<Millis>,
    /// When the pod was deleted (`deletionTimestamp`) and when it was gone
    /// from the API (its containers stopped); a controller's deletion.
    pub deleting: Option<Millis>,
    pub deleted: Option<Millis>,
    /// `metadata.deletionGracePeriodSeconds` when a person's delete gave
    /// its own (`delete: {gracePeriodSeconds}`, `sim/act.rs`); `None`: the
    /// pod's `terminationGracePeriodSeconds`.
    pub deletion_grace: Option<i64>,
    /// The Scenario's `label` and `annotate` actions on this pod: from
    /// each time on, the keys set or removed (`sim/metadata.rs`).
    pub label_changes: Vec<(Millis, MapChanges)>,
    pub annotation_changes: Vec<(Millis, MapChanges)>,
    /// When its ReplicaSet released it and adopted it again (`None`: an
    /// orphan to the end): a relabel, `sim/metadata.rs`.
    pub released: Vec<(Millis, Option<Millis>)>,
}

impl PodRun {
    /// `metadata.labels` at `at`: the template's, what the controllers add,
    /// then the `label` actions up to `at` (what selectors match).
    pub fn labels_at(&self, at: Millis) -> Vec<(String, String)> {
        let mut labels: Vec<(String, String)> = self.labels.clone();
        // The controller's value wins over one written in the template.
        let mut set = |key: &str, value: String| match labels.iter_mut().find(|(k, _)| k == key) {
            Some(label) => label.1 = value,
            None => labels.push((key.to_string(), value)),
        };
        if let Some(hash) = &self.template_hash {
            set("pod-template-hash", hash.clone());
        }
        if let Some(owner) = self.owner.strip_prefix("StatefulSet/") {
            let ordinal = self
                .name
                .strip_prefix(owner)
                .and_then(|rest| rest.strip_prefix('-'))
                .unwrap_or_default();
            set("apps.kubernetes.io/pod-index", ordinal.to_string());
            set("statefulset.kubernetes.io/pod-name", self.name.clone());
        }
        changed_at(labels, &self.label_changes, at)
    }

    /// `metadata.annotations` at `at`: the template's, then the `annotate`s.
    pub fn annotations_at(&self, at: Millis) -> Vec<(String, String)> {
        changed_at(self.annotations.clone(), &self.annotation_changes, at)
    }

    /// Whether its controller owns it at `at` (`Millis::MAX`: at the end).
    pub fn owned_at(&self, at: Millis) -> bool {
        let orphan =
            |&(from, to): &(Millis, Option<Millis>)| from <= at && to.is_none_or(|to| to > at);
        !self.released.iter().any(orphan)
    }

    /// The grace period its deletion runs with (kubelet.md §3).
    pub fn grace_seconds(&self) -> i64 {
        self.deletion_grace
            .unwrap_or(self.spec.termination_grace_period_seconds.value)
    }
}

#[derive(Clone, Debug, PartialEq)]
pub struct ContainerRun {
    pub name: String,
    /// Every instance, oldest first; instance `i` has restartCount `i`.
    pub instances: Vec<Instance>,
    /// Times the container sat in CrashLoopBackOff: (from, back-off message).
    /// The message is shared by the back-offs of one length.
    pub back_offs: Vec<(Millis, Arc<str>)>,
    /// Other waiting reasons the kubelet set when a start failed before the
    /// container was created (kubelet.md §9, kubernetes-behavior.md "A
    /// missing Secret"): (from, reason, message), e.g. `ErrImagePull`,
    /// `ImagePullBackOff`, `ErrImageNeverPull`, `CreateContainerConfigError`.
    pub waiting: Vec<(Millis, &'static str, String)>,
    /// The Scenario's program model for this container (what it logs,
    /// `explain::logs`).
    pub program: crate::manifest::scenario::Program,
    /// The node's physical GPUs (indices) its devices are on, as allocated
    /// at binding (a time-slicing or MPS replica, a MIG device, a whole
    /// GPU): `nvidia-smi` on a shared card counts only its neighbours on
    /// these.
    pub gpus: Vec<usize>,
    /// Bytes its shared memory holds in the container's memory once loaded
    /// (`shm::charged`; `memory_at` adds them).
    pub shm_charged: i128,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Instance {
    pub started: Millis,
    /// When the startup probe succeeded (or `started` without one).
    pub started_ok: Option<Millis>,
    /// Intervals during which the container was Ready.
    pub ready: Vec<(Millis, Option<Millis>)>,
    pub exit: Option<Exit>,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Exit {
    pub at: Millis,
    pub code: i64,
    /// `Error`, `Completed` or `OOMKilled`.
    pub reason: &'static str,
    /// Set when the program died of CUDA out of memory (its last log line).
    pub gpu_oom: Option<GpuOom>,
    /// Set when /dev/shm ended it: a bus error (exit 1) or the OOM kill of
    /// a memory emptyDir over the limit (`shm.rs`).
    pub shm: Option<shm::ShmFailure>,
}

/// Device memory when a container's CUDA allocation failed
/// (gpu-sharing.md §3-§5; `sim/devices.rs`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GpuOom {
    /// Bytes the process could allocate: the card, the MIG device, or the
    /// MPS per-client cap.
    pub capacity: i128,
    /// Bytes it held when the allocation failed, and all it needed
    /// (`gpuMemory` × workers).
    pub own: i128,
    pub need: i128,
    /// Bytes other containers on the same time-sliced GPU held.
    pub others: i128,
    /// `exclusive`, `time-slicing`, `MPS` or `MIG <profile>`.
    pub mode: String,
    /// The Scenario's GPU model (`T4`).
    pub gpu_model: String,
    /// Pods sharing the GPU (time-slicing).
    pub neighbours: Vec<String>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Event {
    pub at: Millis,
    /// `Pod/model-api-7d4b8c9f5-x2p8q`. Shared: written once per pod, not
    /// per occurrence (a day of a crash loop is millions of events).
    pub object: Arc<str>,
    /// `spec.containers{api}` for container events; written once per
    /// container.
    pub field_path: Option<Arc<str>>,
    pub warning: bool,
    pub reason: &'static str,
    /// The text as the API server stores it; a repeated text (a probe's
    /// failure, a back-off) is one shared string.
    pub message: Arc<str>,
    /// `kubelet`, `default-scheduler`.
    pub source: &'static str,
}

/// The state of one container at a time, as the API would report it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ContainerState {
    Waiting {
        reason: String,
        message: String,
    },
    Running {
        started: Millis,
    },
    Terminated {
        reason: String,
        code: i64,
        started: Millis,
        finished: Millis,
    },
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ContainerStatus {
    pub name: String,
    pub state: ContainerState,
    pub last_state: Option<ContainerState>,
    pub ready: bool,
    pub restart_count: usize,
}

impl ContainerRun {
    /// The container's host memory in bytes at `at`, as the simulator's OOM
    /// check sees it (kubelet.md §6; DESIGN.md Scenario `memory`): 0 while
    /// no instance runs; from a start, a linear climb to the loading peak ×
    /// workers over `startup`, then the steady memory × workers; 0 again
    /// from the instance's exit. Once loaded, the workers' shared memory
    /// counts too (`shm_charged`: tmpfs pages are charged to the cgroup).
    pub fn memory_at(&self, at: Millis) -> i128 {
        self.level_at(at, self.program.peak_total(), self.steady_with_shm())
    }

    fn steady_with_shm(&self) -> i128 {
        self.program
            .steady_total()
            .saturating_add(self.shm_charged.max(0))
    }

    /// Device (GPU) memory in bytes at `at`: a linear climb to `gpuMemory`
    /// × workers over `startup`, then flat; 0 while no instance runs.
    pub fn gpu_memory_at(&self, at: Millis) -> i128 {
        let total = self.program.gpu_memory_total();
        self.level_at(at, total, total)
    }

    /// The host memory curve as the points of a polyline, in time order:
    /// straight lines between consecutive points give `memory_at` exactly
    /// (a vertical step is two points at the same time).
    pub fn memory_points(&self) -> Vec<(Millis, i128)> {
        let peak = self.program.peak_total();
        let steady = self.steady_with_shm();
        let startup = self.program.startup.value;
        let mut points = Vec::new();
        for instance in &self.instances {
            let loaded = instance.started.saturating_add(startup);
            let end = instance.exit.as_ref().map(|exit| exit.at);
            points.push((instance.started, 0));
            match end {
                Some(end) if end <= loaded => {
                    // The height the climb reached when the instance ended.
                    let elapsed = end - instance.started;
                    let reached =
                        peak.saturating_mul(i128::from(elapsed)) / i128::from(startup.max(1));
                    points.push((end, reached));
                    points.push((end, 0));
                }
                _ => {
                    points.push((loaded, peak));
                    points.push((loaded, steady));
                    if let Some(end) = end {
                        points.push((end, steady));
                        points.push((end, 0));
                    }
                }
            }
        }
        points
    }

    fn level_at(&self, at: Millis, peak: i128, steady: i128) -> i128 {
        let Some(instance) = self
            .instances
            .iter()
            .rev()
            .find(|instance| instance.started <= at)
        else {
            return 0;
        };
        if instance.exit.as_ref().is_some_and(|exit| exit.at <= at) {
            return 0;
        }
        let startup = self.program.startup.value;
        let elapsed = at - instance.started;
        if elapsed >= startup {
            steady
        } else {
            // Integer arithmetic keeps native and wasm identical.
            peak.saturating_mul(i128::from(elapsed)) / i128::from(startup.max(1))
        }
    }

    /// The container's status at `at` (kubelet.md §5: the newest record gives
    /// State, the one before it Last State; a back-off shows as Waiting
    /// CrashLoopBackOff with the terminated instance in Last State).
    pub fn status_at(&self, at: Millis) -> Option<ContainerStatus> {
        let live: Vec<&Instance> = self.instances.iter().filter(|i| i.started <= at).collect();
        // The newest waiting reason set at or after `floor` (the reason
        // cache keeps the last failed start's reason until a start succeeds).
        let waiting_since = |floor: Millis| {
            let back_off = self
                .back_offs
                .iter()
                .rev()
                .find(|(from, _)| *from >= floor && *from <= at)
                .map(|(from, message)| (*from, "CrashLoopBackOff", &**message));
            let other = self
                .waiting
                .iter()
                .rev()
                .find(|(from, _, _)| *from >= floor && *from <= at)
                .map(|(from, reason, message)| (*from, *reason, message.as_str()));
            match (back_off, other) {
                (Some(a), Some(b)) => Some(if b.0 >= a.0 { b } else { a }),
                (a, b) => a.or(b),
            }
            .map(|(_, reason, message)| ContainerState::Waiting {
                reason: reason.to_string(),
                message: message.to_string(),
            })
        };
        let Some(newest) = live.last() else {
            return waiting_since(0).map(|state| ContainerStatus {
                name: self.name.clone(),
                state,
                last_state: None,
                ready: false,
                restart_count: 0,
            });
        };
        let terminated = |instance: &Instance| {
            instance
                .exit
                .as_ref()
                .map(|exit| ContainerState::Terminated {
                    reason: exit.reason.to_string(),
                    code: exit.code,
                    started: instance.started,
                    finished: exit.at,
                })
        };
        let exited = newest.exit.as_ref().filter(|exit| exit.at <= at);
        let (state, last_state, ready) = match exited {
            None => {
                let ready = newest
                    .ready
                    .iter()
                    .any(|(from, to)| *from <= at && to.is_none_or(|to| at < to));
                let previous = live.len().checked_sub(2).and_then(|i| terminated(live[i]));
                (
                    ContainerState::Running {
                        started: newest.started,
                    },
                    previous,
                    ready,
                )
            }
            Some(exit) => match waiting_since(exit.at) {
                Some(waiting) => (waiting, terminated(newest), false),
                // The kubelet keeps the instance before in lastState
                // (`convertToAPIContainerStatuses`: the second newest
                // container's state).
                None => (
                    terminated(newest)?,
                    live.len().checked_sub(2).and_then(|i| terminated(live[i])),
                    false,
                ),
            },
        };
        Some(ContainerStatus {
            name: self.name.clone(),
            state,
            last_state,
            ready,
            restart_count: live.len() - 1,
        })
    }
}

impl PodRun {
    /// Whether the pod object exists at `at` (created, not yet gone).
    pub fn exists_at(&self, at: Millis) -> bool {
        self.created <= at && self.deleted.is_none_or(|gone| gone > at)
    }

    /// When the kubelet first synced the pod and wrote its status
    /// (`status.startTime`, the container statuses): `Timing::first_sync`
    /// after the scheduler bound it (`Ev::FirstSync`, pushed at the
    /// binding); `None` while it is not bound. Before it, the API object
    /// has only the scheduler's condition and `kubectl get pods` prints
    /// `Pending`.
    pub fn synced_at(&self) -> Option<Millis> {
        self.node
            .as_ref()
            .map(|(_, bound)| bound + kubelet::FIRST_SYNC)
    }

    /// Container statuses at `at`; a container that has not started yet
    /// waits with the kubelet's default reason: `ContainerCreating`, or
    /// `PodInitializing` when the pod has init containers
    /// (`convertToAPIContainerStatuses`, kubelet.md §5) — also after the
    /// init containers are done, until the container exists.
    pub fn statuses_at(&self, at: Millis) -> Vec<ContainerStatus> {
        self.statuses_of(&self.containers, at)
    }

    /// The init container statuses at `at` (`status.initContainerStatuses`);
    /// one not started yet waits with reason `PodInitializing`.
    /// A regular init container is Ready once it has exited 0
    /// (`prober_manager.go` `UpdatePodStatus`); a sidecar as an app container.
    pub fn init_statuses_at(&self, at: Millis) -> Vec<ContainerStatus> {
        let mut statuses = self.statuses_of(&self.init_containers, at);
        for (index, status) in statuses.iter_mut().enumerate() {
            if !init::is_sidecar(self, index) {
                status.ready = matches!(status.state, ContainerState::Terminated { code: 0, .. });
            }
        }
        statuses
    }

    fn statuses_of(&self, containers: &[ContainerRun], at: Millis) -> Vec<ContainerStatus> {
        let default_reason = if self.spec.init_containers.is_empty() {
            "ContainerCreating"
        } else {
            "PodInitializing"
        };
        containers
            .iter()
            .map(|container| {
                container.status_at(at).unwrap_or(ContainerStatus {
                    name: container.name.clone(),
                    state: ContainerState::Waiting {
                        reason: default_reason.into(),
                        message: String::new(),
                    },
                    last_state: None,
                    ready: false,
                    restart_count: 0,
                })
            })
            .collect()
    }

    /// `getPhase` (kubelet.md §5) for regular containers.
    pub fn phase_at(&self, at: Millis) -> &'static str {
        if self.node.as_ref().is_none_or(|(_, bound)| *bound > at) {
            return "Pending";
        }
        let init = init::phase_of_init(self, at);
        if init == init::InitPhase::Failed {
            return "Failed";
        }
        let statuses = self.statuses_at(at);
        let mut running = 0;
        let mut waiting = 0;
        let mut stopped = 0;
        let mut succeeded = 0;
        for status in &statuses {
            match &status.state {
                ContainerState::Running { .. } => running += 1,
                ContainerState::Terminated { code, .. } => {
                    stopped += 1;
                    if *code == 0 {
                        succeeded += 1;
                    }
                }
                ContainerState::Waiting { .. } if status.last_state.is_some() => stopped += 1,
                ContainerState::Waiting { .. } => waiting += 1,
            }
        }
        running += init::running_sidecars(self, at);
        if waiting > 0 || init == init::InitPhase::Pending {
            "Pending"
        } else if running > 0 {
            "Running"
        } else {
            match self.restart_policy.as_str() {
                "Never" if succeeded == stopped => "Succeeded",
                "Never" => "Failed",
                "OnFailure" if succeeded == stopped => "Succeeded",
                _ => "Running",
            }
        }
    }
}

/// When the pod was Ready: every app container Ready at once.
pub fn pod_ready_intervals(pod: &PodRun) -> Vec<(Millis, Millis)> {
    let mut result: Option<Vec<(Millis, Millis)>> = None;
    for container in &pod.containers {
        let mine: Vec<(Millis, Millis)> = container
            .instances
            .iter()
            .flat_map(|instance| instance.ready.iter())
            .map(|&(from, to)| (from, to.unwrap_or(Millis::MAX)))
            .filter(|(from, to)| from < to)
            .collect();
        result = Some(match result {
            None => mine,
            Some(before) => intersect(&before, &mine),
        });
    }
    result.unwrap_or_default()
}

fn intersect(a: &[(Millis, Millis)], b: &[(Millis, Millis)]) -> Vec<(Millis, Millis)> {
    let mut out = Vec::new();
    let (mut i, mut j) = (0, 0);
    while i < a.len() && j < b.len() {
        let from = a[i].0.max(b[j].0);
        let to = a[i].1.min(b[j].1);
        if from < to {
            out.push((from, to));
        }
        if a[i].1 < b[j].1 {
            i += 1;
        } else {
            j += 1;
        }
    }
    out
}
