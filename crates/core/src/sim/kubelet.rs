//! The engine: the simulation's state (pods and their containers, probe
//! workers, nodes, controllers), the occurrences of the event queue, the
//! loop that dispatches them and the seeded generator. The kubelet's
//! behaviour is in `lifecycle.rs` (start, image pulls, kill, OOM, exit),
//! `probes.rs` (the probe workers) and `backoff.rs` (CrashLoopBackOff);
//! each cites `shared/reference/kubelet.md` (§n). The controllers and the
//! scheduling queue are in `controllers.rs`
//! (`shared/reference/scheduler-controllers.md`).

#[path = "act.rs"]
mod act;
#[path = "backoff.rs"]
mod backoff;
#[path = "controllers.rs"]
mod controllers;
#[path = "devices.rs"]
mod devices;
#[path = "init_kubelet.rs"]
mod init_kubelet;
#[path = "lifecycle.rs"]
mod lifecycle;
#[path = "metadata.rs"]
mod metadata;
pub(in crate::sim) use lifecycle::pre_stop_seconds;
#[path = "probes.rs"]
mod probes;
#[path = "rollout.rs"]
mod rollout;
#[path = "rollout_spec.rs"]
mod rollout_spec;
#[path = "scale.rs"]
mod scale;
#[path = "stop.rs"]
mod stop;
#[path = "templates.rs"]
mod templates;
#[path = "volumes.rs"]
mod volumes;

use super::queue::Queue;
use probes::{Failure, Outcome, Seen};
pub use rollout_spec::RolloutSpec;
use std::sync::Arc;

use super::cron::next_after;
use super::{ContainerRun, Event, Exit, Instance, Options, PodRun, Run};
use super::{JobCondition, JobRun, Refused};
use crate::manifest::cron::{parse as parse_schedule, Schedule};
use crate::manifest::duration::Millis;
use crate::manifest::duration::EPOCH_UNIX_SECONDS;
use crate::manifest::model::{
    Container, Handler, PodSpec, PortRef, Probe, ProbeKind, Workload, WorkloadKind,
};
use crate::manifest::read::Reading;
use crate::manifest::scenario::{Action, NodePool, Program, Scenario};
use crate::sched;

/// Timing Kubernetes leaves to chance, fixed (kubernetes-behavior.md,
/// decision 5; kubelet.md §11 uses the same values).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Timing {
    /// Pod creation → the kubelet's first sync, when the probe workers start (W).
    pub first_sync: Millis,
    /// First sync → the first container's `StartedAt` (sandbox, CNI, create).
    pub start_delay: Millis,
    /// A restart decided in a sync → the new container's `StartedAt` (r).
    pub restart_delay: Millis,
    /// A container exits by itself → the PLEG relist that syncs the pod.
    pub pleg: Millis,
    /// Longest wait between two syncs of a pod in back-off (v1.35 re-queues
    /// at the remaining back-off, at most the 1 m resync interval; §4),
    /// before the jitter (`requeue`).
    pub resync_cap: Millis,
}

/// The pod worker's re-queue delay for a wait `d`: `wait.Jitter(d, 0.5)` is
/// `d + rand·0.5·d`, a value in [d, 1.5·d); podlab takes its mean, 1.25·d,
/// for every draw, so a run stays a function of the text (decision 5,
/// docs/simulator.md; `pod_workers.go` `completeWork`,
/// `workerBackOffPeriodJitterFactor = 0.5`).
pub const fn requeue(d: Millis) -> Millis {
    d + d / 4
}

/// Pod binding → the kubelet's first sync (`Timing::first_sync`'s value).
pub const FIRST_SYNC: Millis = 500;

impl Default for Timing {
    fn default() -> Timing {
        Timing {
            first_sync: FIRST_SYNC,
            start_delay: 1500,
            restart_delay: 300,
            pleg: 1000,
            resync_cap: 60_000,
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Ev {
    /// The kubelet's first sync of a pod: probe workers start, containers start.
    FirstSync(usize),
    /// A container starts (a new instance).
    Start(usize, usize),
    /// A probe worker's tick: (worker, `Sim::workers`).
    Tick(usize),
    /// A probe's call returns (HTTP answer, timeout, refused connection):
    /// (worker).
    ProbeDone(usize),
    /// A container exits: (pod, container, instance, code, reason, killed by the kubelet).
    Exit(usize, usize, usize, ExitKind),
    /// A sync of the pod for a container that has exited.
    Sync(usize, usize),
    /// A scheduling attempt: (pod, queue generation).
    Schedule(usize, u64),
    /// The Job controller's re-queued sync after the pod-failure back-off.
    JobSync(usize),
    /// `activeDeadlineSeconds` ran out.
    JobDeadline(usize),
    /// The CronJob controller's sync at a schedule time + 100 ms.
    CronSync(usize),
    /// An image pull finished: (pod, container, pull time, time including
    /// the wait in the node's serial pull queue).
    Pulled(usize, usize, Millis, Millis),
    /// An image pull failed (the registry has no such reference).
    PullFailed(usize, usize),
    /// The containers loading on a time-sliced GPU pass its memory:
    /// (node, physical GPU, check generation).
    GpuCheck(usize, usize, u64),
    /// The volume manager retries a volume that failed to mount: (pod,
    /// the durationBeforeRetry that has just passed; `volumes.rs`).
    MountRetry(usize, Millis),
    /// The Scenario's action (index): `kubectl scale`, `delete`, `cordon`,
    /// `uncordon`, `drain` (`act.rs`).
    Action(usize),
    /// The Scenario's rollout (index): a new template (`rollout.rs`).
    Rollout(usize),
    /// A sync of the Deployment controller for Deployment (index).
    DeploymentSync(usize),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum ExitKind {
    /// The program's own exit (`exit`, `runFor`).
    Program { code: i64 },
    /// The kernel's OOM killer at the loading peak (§6).
    Oom,
    /// The program's own CUDA out-of-memory error: device memory ran out
    /// (`devices.rs`); exit code 1.
    CudaOom,
    /// The workers filled /dev/shm at the end of the load (`shm.rs`): a
    /// bus error (exit 1) or, in a memory emptyDir, an OOM kill (137).
    Shm,
    /// The kubelet stopped it after a probe failure: SIGTERM (143 or 0), or
    /// SIGKILL (137) when the grace period ran out.
    Killed { code: i64 },
    /// Stopped because the pod was deleted (same codes as `Killed`).
    Deleted { code: i64 },
}

/// A probe worker, in `Sim::workers` (one flat list for the run, so a
/// tick reads one entry, not its pod, container and probe).
struct ProbeSim<'a> {
    probe: &'a Probe,
    /// Its pod and container, and its index among the container's probes.
    pod: usize,
    c: usize,
    p: usize,
    kind: ProbeKind,
    /// `periodSeconds` in milliseconds.
    period: Millis,
    /// The program's `startup`: its instances listen after it.
    startup: Millis,
    /// Its container's status as it reads it (`probes.rs` `Seen`).
    seen: Seen,
    /// Last result (`lastResult`) and how many times in a row (`resultRun`).
    last: Option<bool>,
    run: i64,
    /// The cached result the kubelet acts on.
    cached: Option<bool>,
    on_hold: bool,
    /// When the ticker fires next; a tick at any other time is from a grid
    /// that a manual trigger replaced, and is dropped.
    next_tick: Millis,
    /// The call in flight: `doProbe` blocks in it, so its result is known
    /// when it returns (`ProbeDone`): (instance probed, what it returns).
    in_flight: Option<(usize, Outcome)>,
    /// A tick (or manual trigger) that came while the call was in flight:
    /// Go's ticker channel holds one, and `run` takes it as soon as
    /// `doProbe` returns; more are dropped.
    pending: bool,
    /// The next tick is the readiness manual trigger sent by the sync that
    /// follows the startup result (it sees `Started` already written).
    manual: bool,
    /// A call in flight whose return can only count (a liveness or
    /// readiness success while the cached result is success already):
    /// counted when it began, and its return queued only if a tick comes
    /// while it is in flight (`probes.rs` `do_probe`): (returns at, the
    /// sequence number reserved for the return, queued).
    counted: Option<(Millis, u64, bool)>,
    /// The call's answer and latency while the program does not listen
    /// yet and once it does (`probes.rs` `probe`), worked out once: they
    /// depend on nothing else that changes.
    answers: [Option<(Outcome, Millis)>; 2],
    /// A startup worker on hold whose ticks are no longer queued
    /// (`probes.rs` `parks`).
    parked: bool,
}

struct ContainerSim<'a> {
    spec: &'a Container,
    program: Program,
    /// Its probe workers (`Sim::workers`): startup, liveness, readiness,
    /// those it has.
    probes: std::ops::Range<usize>,
    /// The field path of its events, written at its first event.
    field_path: Option<Arc<str>>,
    /// Its repeated event texts, each written once (`Sim::shared_text`).
    texts: Vec<(TextKey, Arc<str>)>,
    running: bool,
    /// Started (the startup probe succeeded, or there is none).
    started_ok: bool,
    /// When the startupProbe's success was written to the status manager:
    /// a worker that reads the status at that same instant still sees
    /// `Started=false` (§1 "Gating by Started").
    started_written: Option<Millis>,
    /// The back-off entry: (current back-off, lastUpdate).
    backoff: Option<(Millis, Millis)>,
    /// The image pull back-off entry (`<podUID>_<image>`): (back-off,
    /// lastUpdate), and the last pull error (kubelet.md §9).
    pull_backoff: Option<(Millis, Millis)>,
    pull_error: String,
    /// Indices into its node's `devices`, one per GPU unit it was given.
    devices: Vec<usize>,
    run: ContainerRun,
}

struct PodSim<'a> {
    /// `Pod/<name>`, the object of its events.
    object: Arc<str>,
    spec: &'a PodSpec,
    /// The app containers, then the init containers (`init_kubelet.rs`).
    containers: Vec<ContainerSim<'a>>,
    /// The next init container to start (`spec.init_containers.len()`: the
    /// app containers; more: they have been started).
    init_next: usize,
    /// The app containers are done for good and the kubelet is stopping
    /// the sidecars (`init_kubelet.rs` `stop_sidecars`).
    sidecars_stopping: bool,
    /// The node's devices the pod holds, once each (`devices.rs`
    /// `allocate_devices`: an init container's are reused by the next).
    allocated_devices: Vec<usize>,
    run: PodRun,
    /// Requests the scheduler counts: cpu (milli), memory, extended resources.
    /// cpu, memory and GPU resources NodeResourcesFit checks.
    request: sched::Request,
    /// The node whose resources the pod holds (bound and not yet finished).
    placed: Option<usize>,
    /// A DaemonSet pod's node (its `matchFields metadata.name` affinity).
    pin: Option<usize>,
    owner: Owner,
    queue: Queued,
    /// Succeeded, Failed or gone: it no longer holds resources and its
    /// controller has counted it.
    done: bool,
    /// The Deployments' ReplicaSets it belongs to, (Deployment,
    /// ReplicaSet), and what it adds to their counts (`rollout.rs`).
    sets: Vec<(usize, usize)>,
    tally: rollout::Tally,
    /// Deleted by a person (`act.rs`): a StatefulSet or DaemonSet makes
    /// its replacement once it is gone.
    replace_when_gone: bool,
}

/// The controller that created a pod.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Owner {
    None,
    Job(usize),
    /// (StatefulSet, ordinal).
    StatefulSet(usize, usize),
}

/// The pod's place in the scheduling queue (scheduler-controllers.md §3.2).
#[derive(Clone, Copy, Debug, Default)]
struct Queued {
    attempts: u32,
    last_attempt: Millis,
    /// Bumped whenever the pod is re-queued: an attempt event of an older
    /// generation is stale.
    generation: u64,
    /// Some node rejected it for resources only (NodeResourcesFit): a pod
    /// that stops holding resources re-queues it.
    waits_for_capacity: bool,
}

/// A failed scheduling cycle: the nodes as they were (`Sim::nodes_changed`),
/// the pod's spec, pin and request, and what it found.
struct SchedMemo<'a> {
    nodes_changed: u64,
    spec: &'a PodSpec,
    pin: Option<usize>,
    request: sched::Request,
    waits_for_capacity: bool,
    message: Arc<str>,
}

/// The scheduler's backoff: 1 s doubling to 10 s per attempt (§3.2).
const POD_INITIAL_BACKOFF: Millis = 1_000;
const POD_MAX_BACKOFF: Millis = 10_000;
/// `flushUnschedulablePodsLeftover` every 30 s moves pods unschedulable for
/// more than 5 min (§3.2).
const FLUSH_PERIOD: Millis = 30_000;
const MAX_IN_UNSCHEDULABLE: Millis = 300_000;
/// Job pod-failure back-off: 10 s doubling to 10 min (§8.2).
const JOB_BACKOFF_INITIAL: Millis = 10_000;
const JOB_BACKOFF_MAX: Millis = 600_000;
/// The CronJob controller re-queues at the next schedule time + 100 ms (§9).
const CRON_REQUEUE: Millis = 100;
/// How many distinct FailedScheduling texts a run keeps to share.
const FAILED_SCHEDULING_TEXTS: usize = 64;

struct JobSim<'a> {
    uid: String,
    workload: &'a Workload,
    completions: i64,
    parallelism: i64,
    backoff_limit: i64,
    /// The CronJob that created it.
    cron: Option<usize>,
    pods: Vec<usize>,
    /// Failed pods since the last success, and the newest failure's
    /// finish time in whole seconds (`backoff_utils.go`).
    failures_since_success: u32,
    last_failure: Millis,
    /// A terminal condition is pending or set: no more pods are created.
    finishing: Option<Terminal>,
    /// When a `JobSync` for the back-off is queued.
    sync_queued: Option<Millis>,
    run: JobRun,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Terminal {
    Complete,
    Failed(&'static str, &'static str),
}

struct CronSim<'a> {
    workload: &'a Workload,
    schedule: Schedule,
    /// `status.lastScheduleTime`.
    last_schedule: Option<Millis>,
    active: Vec<usize>,
    queued: Option<Millis>,
}

struct StatefulSetSim<'a> {
    workload: &'a Workload,
    replicas: usize,
    created: usize,
}

struct Sim<'a> {
    now: Millis,
    queue: Queue<Ev>,
    pods: Vec<PodSim<'a>>,
    /// Every container's probe workers (`ContainerSim::probes`).
    workers: Vec<ProbeSim<'a>>,
    events: Vec<Event>,
    until: Millis,
    timing: Timing,
    rng: Rng,
    scenario: &'a Scenario,
    nodes: Vec<Node<'a>>,
    jobs: Vec<JobSim<'a>>,
    crons: Vec<CronSim<'a>>,
    statefulsets: Vec<StatefulSetSim<'a>>,
    /// Pods that failed a scheduling attempt and are not bound yet, in
    /// creation order (what `release` re-queues; its cost is this list).
    unschedulable: Vec<usize>,
    /// The FailedScheduling texts written so far, by outcome (at most
    /// `FAILED_SCHEDULING_TEXTS`; `controllers.rs`).
    failed_scheduling: Vec<(sched::Unschedulable, Arc<str>)>,
    /// What `Run::action_errors` and `Run::cordons` say (`act.rs`).
    action_errors: Vec<super::ActionError>,
    cordons: Vec<super::Cordon>,
    /// What `Run::metadata` says (`metadata.rs`).
    pub(super) metadata: Vec<super::MetadataChange>,
    /// Bumped whenever a node's free resources change (`take`, `give_back`).
    nodes_changed: u64,
    /// The last failed scheduling cycle (`controllers.rs` `attempt_schedule`).
    last_failure: Option<SchedMemo<'a>>,
    /// The file's workloads (`scale.rs` finds the one an action names).
    workloads: &'a [crate::manifest::model::Workload],
    /// The HPAs' decisions (`hpa/`), as actions after the Scenario's: the
    /// action `scenario.actions.len() + i` is `applied[i]`.
    applied: &'a [Action],
    /// The Deployments, in document order (`rollout.rs`).
    deployments: Vec<rollout::DeploymentSim<'a>>,
    /// Per Scenario rollout, the Deployment with its new template.
    rollout_templates: &'a [Option<Workload>],
    /// Per Scenario action, a `restart`'s or `patch`'s Deployment with the
    /// template it leaves (`manifest::patch::templates`).
    action_templates: &'a [Option<Workload>],
    /// Take the shortcuts that change how the engine gets to a run, never
    /// the run (`probes.rs` `counted`); off only in the tests that check so.
    shortcuts: bool,
    /// Park startup workers on hold (`probes.rs` `parks`); a parked worker
    /// that would probe again sets `diverged` and the run is simulated
    /// again without parking.
    park: Park,
    diverged: bool,
}

/// Which startup workers on hold park (`probes.rs` `parks`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Park {
    Never,
    /// Those whose container looks set to run for good.
    Steady,
    /// Every one (tests: a new instance after it must be caught).
    #[cfg(test)]
    Always,
}

/// splitmix64: the run's only source of randomness, seeded by the input.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// `rand.String(n)` of `k8s.io/apimachinery/pkg/util/rand`: the safe
    /// alphabet without vowels and confusable characters.
    fn suffix(&mut self, n: usize) -> String {
        const ALPHABET: &[u8] = b"bcdfghjklmnpqrstvwxz2456789";
        (0..n)
            .map(|_| char::from(ALPHABET[(self.next() % ALPHABET.len() as u64) as usize]))
            .collect()
    }

    fn uid(&mut self) -> String {
        let a = self.next();
        let b = self.next();
        format!(
            "{:08x}-{:04x}-4{:03x}-{:04x}-{:012x}",
            a >> 32,
            (a >> 16) & 0xffff,
            a & 0xfff,
            (b >> 48) & 0x3fff | 0x8000,
            b & 0xffff_ffff_ffff
        )
    }
}

/// A node of a pool: what the scheduler sees (`sched::Node`: pool, name,
/// what is still free) and what the kubelet keeps.
struct Node<'a> {
    sched: sched::Node<'a>,
    pods: usize,
    /// Images in the node's store: (reference as written, available from).
    images: Vec<(String, Millis)>,
    /// The serial image puller (`serializeImagePulls: true`) is busy until.
    pull_busy_until: Millis,
    /// GPUs, time-slicing/MPS replica sets or MIG devices (`devices.rs`).
    devices: Vec<devices::Device>,
    /// Per physical GPU: the generation of its latest memory check.
    gpu_checks: Vec<u64>,
}

fn count(replicas: &Option<crate::manifest::model::Setting<i64>>) -> usize {
    replicas.as_ref().map_or(1, |r| r.value).clamp(0, 1000) as usize
}

/// Simulates what a file's objects do on the Scenario's cluster.
pub fn simulate_reading(
    reading: &Reading,
    applied: &[Action],
    seed: u64,
    options: &Options,
) -> Run {
    engine(reading, applied, seed, options, true)
}

/// `simulate_reading`, with or without the engine's shortcuts (`Sim::shortcuts`).
fn engine(
    reading: &Reading,
    applied: &[Action],
    seed: u64,
    options: &Options,
    shortcuts: bool,
) -> Run {
    let park = if shortcuts { Park::Steady } else { Park::Never };
    engine_once(reading, applied, seed, options, shortcuts, park)
        .or_else(|| engine_once(reading, applied, seed, options, shortcuts, Park::Never))
        .expect("a run without parking does not diverge")
        .0
}

/// One simulation: `None` if a parked worker would have probed again
/// (`Sim::diverged`), else the run and how many workers it parked.
fn engine_once(
    reading: &Reading,
    applied: &[Action],
    seed: u64,
    options: &Options,
    shortcuts: bool,
    park: Park,
) -> Option<(Run, usize)> {
    // Admission (ExtendedResourceToleration) changes the pods the API
    // server stores, so the scheduler and `describe` see its tolerations.
    let admit = |workload: &Workload| {
        let mut copy = workload.clone();
        copy.pod.tolerations = reading.scenario.tolerations(&workload.pod).into_owned();
        copy
    };
    // The templates the Scenario's `patch`, `restart` and `undo` leave
    // (`manifest::patch`): none without such an action.
    let mut chained = if reading.deployments.is_empty() {
        crate::manifest::patch::Templates::default()
    } else {
        crate::manifest::patch::templates(&reading.scenario, &reading.deployments)
    };
    let admitted: Vec<Workload>;
    let workloads: &[Workload] = if reading.scenario.extended_resource_toleration {
        admitted = reading.workloads.iter().map(admit).collect();
        let templates = chained.actions.iter_mut().chain(&mut chained.rollouts);
        for template in templates.flatten() {
            *template = admit(template);
        }
        &admitted
    } else {
        &reading.workloads
    };
    let scenario = &reading.scenario;
    let until = options.until.unwrap_or(scenario.duration.value);
    let timing = Timing::default();
    let mut nodes: Vec<Node<'_>> = Vec::new();
    for pool in &scenario.node_pools {
        for i in 0..sched::nodes(pool) {
            nodes.push(Node {
                sched: sched::Node::empty(pool, i),
                pods: 0,
                images: Vec::new(),
                pull_busy_until: 0,
                devices: devices::devices_of(pool),
                gpu_checks: vec![
                    0;
                    usize::try_from(
                        pool.gpu.as_ref().map_or(0, |g| g.count.clamp(0, 64))
                    )
                    .unwrap_or(0)
                ],
            });
        }
    }
    // A rollout's template: from the chain when the Scenario also patches,
    // restarts or undoes (so each keeps what the others changed).
    let rollout_templates: Vec<Option<Workload>> = scenario
        .rollouts
        .iter()
        .enumerate()
        .map(
            |(j, rollout)| match chained.rollouts.get_mut(j).and_then(Option::take) {
                Some(template) => Some(template),
                None => workloads
                    .iter()
                    .find(|w| w.kind == WorkloadKind::Deployment && w.name == rollout.workload)
                    .map(|w| templates::rollout_template(w, &rollout.image)),
            },
        )
        .collect();
    let action_templates = chained.actions;
    let mut sim = Sim {
        now: 0,
        queue: Queue::new(),
        pods: Vec::new(),
        workers: Vec::new(),
        events: Vec::new(),
        until,
        timing,
        rng: Rng(seed ^ scenario.seed),
        scenario,
        nodes,
        jobs: Vec::new(),
        crons: Vec::new(),
        statefulsets: Vec::new(),
        unschedulable: Vec::new(),
        failed_scheduling: Vec::new(),
        action_errors: Vec::new(),
        cordons: Vec::new(),
        metadata: Vec::new(),
        nodes_changed: 0,
        last_failure: None,
        workloads,
        applied,
        deployments: Vec::new(),
        rollout_templates: &rollout_templates,
        action_templates: &action_templates,
        shortcuts,
        park,
        diverged: false,
    };
    let mut refused = Vec::new();
    // A node cordoned, drained or labelled at 0 s is so as the cluster
    // starts: its action is queued ahead of the workloads' first pods (a
    // node under maintenance; `paste`'s replays of `node(s) were
    // unschedulable` and of a nodeSelector no node matches). Every other
    // action at 0 s follows them, so it can name a pod they create.
    let at_start: Vec<(usize, u64)> = scenario
        .actions
        .iter()
        .enumerate()
        .filter(|(_, action)| {
            use crate::manifest::scenario::{Act, MetaTarget};
            action.at == 0
                && match &action.act {
                    Act::Cordon(_) | Act::Uncordon(_) | Act::Drain(_) => true,
                    Act::Label(change) => change.target == MetaTarget::Node,
                    _ => false,
                }
        })
        .map(|(index, _)| (index, sim.queue.reserve()))
        .collect();
    for workload in workloads {
        if let Some(message) = crate::manifest::api::refusal(workload) {
            refused.push(Refused {
                object: format!("{}/{}", workload.kind.as_str(), workload.name),
                message,
            });
            continue;
        }
        match workload.kind {
            WorkloadKind::Pod => {
                sim.create_pod(workload, workload.name.clone(), Owner::None, None, None);
            }
            WorkloadKind::Deployment => {
                let hash = templates::template_hash(workload, None);
                let names: Vec<String> = (0..count(&workload.replicas))
                    .map(|_| format!("{}-{hash}-{}", workload.name, sim.rng.suffix(5)))
                    .collect();
                for name in names {
                    sim.create_pod(workload, name, Owner::None, Some(hash.clone()), None);
                }
                sim.deployment_created(workload, hash);
            }
            WorkloadKind::ReplicaSet => {
                let names: Vec<String> = (0..count(&workload.replicas))
                    .map(|_| format!("{}-{}", workload.name, sim.rng.suffix(5)))
                    .collect();
                for name in names {
                    sim.create_pod(workload, name, Owner::None, None, None);
                }
            }
            WorkloadKind::StatefulSet => {
                // OrderedReady (§7): ordinal 0 now, the next one when the
                // previous is Running and Ready.
                let replicas = count(&workload.replicas);
                sim.statefulsets.push(StatefulSetSim {
                    workload,
                    replicas,
                    created: 0,
                });
                if replicas > 0 {
                    sim.statefulset_create(sim.statefulsets.len() - 1);
                }
            }
            WorkloadKind::DaemonSet => sim.daemonset_create(workload),
            WorkloadKind::Job => {
                sim.job_create(workload, workload.name.clone(), None);
            }
            WorkloadKind::CronJob => sim.cron_create(workload),
        }
    }
    for (index, action) in scenario.actions.iter().chain(applied).enumerate() {
        match at_start.iter().find(|(early, _)| *early == index) {
            Some(&(_, seq)) => sim.queue.push_reserved(0, seq, Ev::Action(index)),
            None => sim.push(action.at, Ev::Action(index)),
        }
    }
    for (index, rollout) in scenario.rollouts.iter().enumerate() {
        sim.push(rollout.at, Ev::Rollout(index));
    }
    while let Some((at, ev)) = sim.queue.pop() {
        if at > until {
            break;
        }
        sim.now = at;
        sim.handle(ev);
        if sim.diverged {
            return None;
        }
    }
    let deployments = sim.deployment_runs();
    let parked = sim.workers.iter().filter(|worker| worker.parked).count();
    let run = Run {
        end: until,
        pods: sim
            .pods
            .into_iter()
            .map(|pod| {
                let mut run = pod.run;
                let mut containers: Vec<ContainerRun> =
                    pod.containers.into_iter().map(|c| c.run).collect();
                let app = pod.spec.containers.len().min(containers.len());
                run.init_containers = containers.split_off(app);
                run.containers = containers;
                run
            })
            .collect(),
        events: sim.events,
        jobs: sim.jobs.into_iter().map(|job| job.run).collect(),
        refused,
        traffic: None,
        services: reading.services.clone(),
        seed: seed ^ scenario.seed,
        autoscalers: Vec::new(),
        deployments,
        assumed: reading.assumed.clone(),
        action_errors: sim.action_errors,
        cordons: sim.cordons,
        metadata: sim.metadata,
    };
    Some((run, parked))
}

/// Go's `time.Duration.String()` of a duration truncated to milliseconds:
/// `500ms`, `1.5s`, `2m0s`, `1m30.25s`, `1h0m0s`.
pub fn go_duration_ms(ms: Millis) -> String {
    if ms < 1000 {
        return format!("{ms}ms");
    }
    let seconds = ms / 1000;
    let fraction = ms % 1000;
    let mut secs = format!("{}", seconds % 60);
    if fraction > 0 {
        let digits = format!("{fraction:03}");
        secs = format!("{secs}.{}", digits.trim_end_matches('0'));
    }
    if seconds < 60 {
        format!("{secs}s")
    } else if seconds < 3600 {
        format!("{}m{secs}s", seconds / 60)
    } else {
        format!("{}h{}m{secs}s", seconds / 3600, seconds / 60 % 60)
    }
}

/// Go's `time.Duration.String()` for whole seconds: `10s`, `1m20s`, `5m0s`.
pub fn go_duration(ms: Millis) -> String {
    let seconds = ms / 1000;
    if seconds < 60 {
        format!("{seconds}s")
    } else if seconds < 3600 {
        format!("{}m{}s", seconds / 60, seconds % 60)
    } else {
        format!("{}h{}m{}s", seconds / 3600, seconds / 60 % 60, seconds % 60)
    }
}

impl<'a> Sim<'a> {
    fn push(&mut self, at: Millis, ev: Ev) {
        if at <= self.until {
            self.queue.push(at, ev);
        }
    }

    fn event(
        &mut self,
        pod: usize,
        container: Option<usize>,
        warning: bool,
        reason: &'static str,
        message: impl Into<Arc<str>>,
    ) {
        let field_path = container.map(|c| self.shared_field_path(pod, c));
        self.events.push(Event {
            at: self.now,
            object: self.pods[pod].object.clone(),
            field_path,
            warning,
            reason,
            message: message.into(),
            source: "kubelet",
        });
    }

    /// `field_path`, written once per container.
    fn shared_field_path(&mut self, pod: usize, c: usize) -> Arc<str> {
        if let Some(path) = &self.pods[pod].containers[c].field_path {
            return path.clone();
        }
        let path: Arc<str> = self.field_path(pod, c).into();
        self.pods[pod].containers[c].field_path = Some(path.clone());
        path
    }

    fn handle(&mut self, ev: Ev) {
        match ev {
            Ev::FirstSync(pod) => {
                // §1: one worker per probe, started at the first sync; its
                // ticker grid is W + k·period and survives restarts.
                let now = self.now;
                if self.pods[pod].run.deleting.is_some() {
                    return;
                }
                // SyncPod waits for the volumes before probes and containers.
                if self.volumes_block_start(pod) {
                    return;
                }
                for c in 0..self.pods[pod].containers.len() {
                    for w in self.pods[pod].containers[c].probes.clone() {
                        self.diverged |= self.workers[w].parked;
                        self.workers[w].next_tick = now;
                        self.push(now, Ev::Tick(w));
                    }
                }
                // Init containers first, one by one (`init_kubelet.rs`).
                self.start_first(pod, now + self.timing.start_delay);
            }
            Ev::Start(pod, c) => self.start(pod, c),
            Ev::Tick(w) => self.tick(w),
            Ev::ProbeDone(w) => self.probe_done(w),
            Ev::Exit(pod, c, instance, kind) => self.exit(pod, c, instance, kind),
            Ev::Sync(pod, c) => self.sync_exited(pod, c),
            Ev::Schedule(pod, generation) => self.attempt_schedule(pod, generation),
            Ev::JobSync(job) => {
                self.jobs[job].sync_queued = None;
                self.job_manage(job);
            }
            Ev::JobDeadline(job) => self.job_deadline(job),
            Ev::CronSync(cron) => self.cron_sync(cron),
            Ev::Pulled(pod, c, pull, total) => self.pulled(pod, c, pull, total),
            Ev::PullFailed(pod, c) => self.pull_failed(pod, c),
            Ev::GpuCheck(node, gpu, generation) => self.gpu_crossing(node, gpu, generation),
            Ev::MountRetry(pod, backoff) => self.mount_attempt(pod, backoff),
            Ev::Action(index) => self.action(index),
            Ev::Rollout(index) => self.rollout(index),
            Ev::DeploymentSync(d) => self.deployment_sync(d),
        }
    }

    /// A text of container `c` that repeats (`TextKey`), written the first
    /// time and shared after.
    fn shared_text(
        &mut self,
        pod: usize,
        c: usize,
        key: TextKey,
        render: impl FnOnce(&Self) -> String,
    ) -> Arc<str> {
        if let Some((_, text)) = self.pods[pod].containers[c]
            .texts
            .iter()
            .find(|(known, _)| *known == key)
        {
            return text.clone();
        }
        let text: Arc<str> = render(self).into();
        self.pods[pod].containers[c].texts.push((key, text.clone()));
        text
    }
}

/// A repeated event text of one container, written once (`Sim::shared_text`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum TextKey {
    /// `Unhealthy`: (probe index, its failure).
    Unhealthy(usize, Failure),
    Killing(ProbeKind),
    BackOff,
    /// The CrashLoopBackOff waiting message, for a back-off of this length.
    BackOffWaiting(Millis),
    ImagePresent,
}

#[cfg(test)]
mod shortcut_tests {
    use super::{engine, engine_once, Park};
    use crate::manifest::read::read;
    use crate::sim::{seed_of, Options, Run};

    /// The run of `text` without the engine's shortcuts and with them.
    fn both(text: &str) -> (Run, Run) {
        let reading = read(text);
        let seed = seed_of(text);
        let options = Options::default();
        (
            engine(&reading, &[], seed, &options, false),
            engine(&reading, &[], seed, &options, true),
        )
    }

    /// Parking startup workers (`Park`): the run of `text` with the
    /// shortcuts and parking `park`, if no parked worker had to probe
    /// again, and how many it parked; checked against the run without.
    fn run_parked(text: &str, park: Park, plain: &Run) -> Option<usize> {
        let reading = read(text);
        let (run, parked) = engine_once(
            &reading,
            &[],
            seed_of(text),
            &Options::default(),
            true,
            park,
        )?;
        assert!(run == *plain, "{park:?} differs");
        Some(parked)
    }

    /// Every golden scenario runs the same with the shortcuts as without,
    /// and with every startup worker on hold parked (unless one is
    /// released: then the engine runs again without parking).
    #[test]
    fn goldens_are_the_same_without_shortcuts() {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/golden");
        let mut files: Vec<_> = std::fs::read_dir(&dir)
            .unwrap()
            .map(|entry| entry.unwrap().path())
            .filter(|path| path.extension().is_some_and(|e| e == "yaml"))
            .collect();
        files.sort();
        assert!(files.len() > 10);
        let mut parked = 0;
        for path in files {
            let text = std::fs::read_to_string(&path).unwrap();
            let (plain, fast) = both(&text);
            assert!(plain == fast, "{} differs", path.display());
            parked += parked_either_way(&text, &plain);
        }
        assert!(parked > 0);
    }

    /// `run_parked` with `Steady` and `Always`: workers parked by `Steady`.
    fn parked_either_way(text: &str, plain: &Run) -> usize {
        run_parked(text, Park::Always, plain);
        run_parked(text, Park::Steady, plain).unwrap_or(0)
    }

    /// Containers with a startup probe that restart after Started (their
    /// own exit, a liveness probe that fails once loaded) or run for good,
    /// liveness on the startup probe's grid, slow health endpoints: parked
    /// or not, the same run; a parked worker whose container starts again
    /// is caught (`Always`), and one whose container runs for good parks
    /// (`Steady`).
    #[test]
    fn startup_timelines_are_the_same_when_parked() {
        let (mut parked, mut caught) = (0, 0);
        for latency in ["0s", "1s", "3s"] {
            for period in [1, 3, 10] {
                for liveness_path in ["/health", "/missing"] {
                    let text = format!(
                        "apiVersion: apps/v1
kind: Deployment
metadata: {{ name: steady }}
spec:
  replicas: 2
  selector: {{ matchLabels: {{ app: steady }} }}
  template:
    metadata: {{ labels: {{ app: steady }} }}
    spec:
      containers:
        - name: a
          image: registry.example.com/a:1
          ports: [{{ containerPort: 8000 }}]
          startupProbe:
            httpGet: {{ path: /health, port: 8000 }}
            periodSeconds: {period}
            timeoutSeconds: 2
            failureThreshold: 30
          livenessProbe:
            httpGet: {{ path: {liveness_path}, port: 8000 }}
            periodSeconds: {period}
            timeoutSeconds: 2
          readinessProbe:
            httpGet: {{ path: /health, port: 8000 }}
            periodSeconds: {period}
---
apiVersion: v1
kind: Pod
metadata: {{ name: exits }}
spec:
  containers:
    - name: b
      image: registry.example.com/b:1
      ports: [{{ containerPort: 8000 }}]
      startupProbe:
        httpGet: {{ path: /health, port: 8000 }}
        periodSeconds: {period}
        failureThreshold: 30
      livenessProbe:
        tcpSocket: {{ port: 8000 }}
        periodSeconds: {period}
---
apiVersion: podlab.dev/v1alpha1
kind: Scenario
metadata: {{ name: parking }}
spec:
  duration: 20m
  workload:
    - container: a
      startup: 7s
      healthLatency: {latency}
    - container: b
      startup: 5s
      healthLatency: {latency}
      exit: {{ after: 47s, code: 1 }}
"
                    );
                    let (plain, fast) = both(&text);
                    assert!(plain.events.len() > 20);
                    assert!(
                        plain == fast,
                        "{latency}, {period}, {liveness_path} differs"
                    );
                    parked += run_parked(&text, Park::Steady, &plain).unwrap_or(0);
                    caught += usize::from(run_parked(&text, Park::Always, &plain).is_none());
                }
            }
        }
        assert!(parked > 0 && caught > 0, "parked {parked}, caught {caught}");
    }

    /// Health endpoints slower than the period (ticks wait for the
    /// return), short periods, timeouts, startup gating, Ready with a
    /// successThreshold of 2 and crashes while calls are in flight: the
    /// same run either way.
    #[test]
    fn probe_timelines_are_the_same_without_shortcuts() {
        let mut compared = 0;
        for latency in ["0s", "20ms", "1s", "1500ms", "2500ms", "3s", "6s"] {
            for period in [1, 3, 10] {
                for timeout in [1, 3, 8] {
                    let text = format!(
                        "apiVersion: apps/v1
kind: Deployment
metadata: {{ name: ready }}
spec:
  replicas: 2
  selector: {{ matchLabels: {{ app: ready }} }}
  template:
    metadata: {{ labels: {{ app: ready }} }}
    spec:
      containers:
        - name: a
          image: registry.example.com/a:1
          ports: [{{ containerPort: 8000 }}]
          readinessProbe:
            httpGet: {{ path: /health, port: 8000 }}
            periodSeconds: {period}
            timeoutSeconds: {timeout}
          livenessProbe:
            httpGet: {{ path: /health, port: 8000 }}
            periodSeconds: {period}
            timeoutSeconds: {timeout}
---
apiVersion: v1
kind: Pod
metadata: {{ name: gated }}
spec:
  containers:
    - name: b
      image: registry.example.com/b:1
      ports: [{{ containerPort: 8000 }}]
      startupProbe:
        httpGet: {{ path: /health, port: 8000 }}
        periodSeconds: {period}
        timeoutSeconds: {timeout}
        failureThreshold: 30
      readinessProbe:
        httpGet: {{ path: /health, port: 8000 }}
        periodSeconds: {period}
        timeoutSeconds: {timeout}
      livenessProbe:
        grpc: {{ port: 8000 }}
        periodSeconds: {period}
        timeoutSeconds: {timeout}
---
apiVersion: v1
kind: Pod
metadata: {{ name: crashing }}
spec:
  containers:
    - name: c
      image: registry.example.com/c:1
      ports: [{{ containerPort: 8000 }}]
      readinessProbe:
        httpGet: {{ path: /health, port: 8000 }}
        periodSeconds: {period}
        timeoutSeconds: {timeout}
        successThreshold: 2
      livenessProbe:
        httpGet: {{ path: /health, port: 8000 }}
        periodSeconds: {period}
        timeoutSeconds: {timeout}
---
apiVersion: podlab.dev/v1alpha1
kind: Scenario
metadata: {{ name: shortcuts }}
spec:
  duration: 20m
  workload:
    - container: a
      startup: 7s
      healthLatency: {latency}
    - container: b
      startup: 12s
      healthLatency: {latency}
    - container: c
      startup: 4s
      healthLatency: {latency}
      exit: {{ after: 61s, code: 1 }}
"
                    );
                    let (plain, fast) = both(&text);
                    assert!(plain.events.len() > 20);
                    assert!(
                        plain == fast,
                        "healthLatency {latency}, period {period}, timeout {timeout} differs"
                    );
                    compared += 1;
                }
            }
        }
        assert_eq!(compared, 63);
    }
}
