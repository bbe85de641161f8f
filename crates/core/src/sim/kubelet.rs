//! The event loop, the scheduler's first fit and the kubelet's container
//! lifecycle. Every behaviour cites `shared/reference/kubelet.md` (§n); the
//! controllers and the scheduling queue are in `controllers.rs`
//! (`shared/reference/scheduler-controllers.md`).

#[path = "controllers.rs"]
mod controllers;
#[path = "devices.rs"]
mod devices;
#[path = "init_kubelet.rs"]
mod init_kubelet;
#[path = "volumes.rs"]
mod volumes;

use super::queue::Queue;
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
use crate::manifest::scenario::{NodePool, Program, Scenario};
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

impl Default for Timing {
    fn default() -> Timing {
        Timing {
            first_sync: 500,
            start_delay: 1500,
            restart_delay: 300,
            pleg: 1000,
            resync_cap: 60_000,
        }
    }
}

/// Crash-loop back-off: 10 s doubling to 300 s, reset when a container ran
/// more than 600 s (§4, `ReduceDefaultCrashLoopBackOffDecay` off).
const BACKOFF_INITIAL: Millis = 10_000;
const BACKOFF_MAX: Millis = 300_000;
const BACKOFF_RESET: Millis = 600_000;
/// Image pull back-off: 10 s doubling to 300 s, reset when the last
/// failure is older than 2 × 300 s (§9, `flowcontrol.NewBackOff`).
const PULL_BACKOFF_INITIAL: Millis = 10_000;
const PULL_BACKOFF_MAX: Millis = 300_000;
/// A pod whose sync failed (image, config) is re-synced after the pod
/// worker's `backOffPeriod`, 10 s, jittered (§4, `requeue`): 12.5 s.
const ERROR_RESYNC: Millis = requeue(10_000);
/// A pull of a reference the registry does not have fails this fast (the
/// resolve step answers 404; a choice, docs/simulator.md).
const PULL_FAILURE: Millis = 1_000;
/// `imagePullPolicy: Always` with the layers already on the node: the pull
/// only resolves the manifest (a choice, docs/simulator.md).
const CACHED_PULL: Millis = 500;
/// `minimumGracePeriodInSeconds` (§3).
const MINIMUM_GRACE_S: i64 = 2;

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Ev {
    /// The kubelet's first sync of a pod: probe workers start, containers start.
    FirstSync(usize),
    /// A container starts (a new instance).
    Start(usize, usize),
    /// A probe worker's tick: (pod, container, probe index).
    Tick(usize, usize, usize),
    /// A probe's call returns (HTTP answer, timeout, refused connection):
    /// (pod, container, probe index).
    ProbeDone(usize, usize, usize),
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

struct ProbeSim<'a> {
    probe: &'a Probe,
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
}

struct ContainerSim<'a> {
    spec: &'a Container,
    program: Program,
    probes: Vec<ProbeSim<'a>>,
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

    /// A pod-template-hash: `rand.SafeEncodeString` of a 32-bit hash printed
    /// in decimal (`controller.ComputeHash`); the hash itself is seeded, not
    /// the FNV of the template's Go representation.
    fn template_hash(&mut self) -> String {
        const ALPHABET: &[u8] = b"bcdfghjklmnpqrstvwxz2456789";
        let decimal = (self.next() as u32).to_string();
        decimal
            .bytes()
            .map(|b| char::from(ALPHABET[usize::from(b) % ALPHABET.len()]))
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
pub fn simulate_reading(reading: &Reading, seed: u64, options: &Options) -> Run {
    // Admission (ExtendedResourceToleration) changes the pods the API
    // server stores, so the scheduler and `describe` see its tolerations.
    let admitted;
    let reading = if reading.scenario.extended_resource_toleration {
        let mut copy = reading.clone();
        for workload in &mut copy.workloads {
            let tolerations = reading.scenario.tolerations(&workload.pod).into_owned();
            workload.pod.tolerations = tolerations;
        }
        admitted = copy;
        &admitted
    } else {
        reading
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
    let mut sim = Sim {
        now: 0,
        queue: Queue::new(),
        pods: Vec::new(),
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
    };
    let mut refused = Vec::new();
    for workload in &reading.workloads {
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
                let hash = sim.rng.template_hash();
                let names: Vec<String> = (0..count(&workload.replicas))
                    .map(|_| format!("{}-{hash}-{}", workload.name, sim.rng.suffix(5)))
                    .collect();
                for name in names {
                    sim.create_pod(workload, name, Owner::None, Some(hash.clone()), None);
                }
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
    while let Some((at, ev)) = sim.queue.pop() {
        if at > until {
            break;
        }
        sim.now = at;
        sim.handle(ev);
    }
    Run {
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
    }
}

/// Seconds a preStop hook takes: `sleep N` (exec) or the sleep action; 0 otherwise.
pub(super) fn pre_stop_seconds(container: &Container) -> i64 {
    match &container.pre_stop {
        Some(Handler::Sleep { seconds }) => (*seconds).max(0),
        Some(Handler::Exec { command }) => {
            let words: Vec<&str> = command.iter().flat_map(|w| w.split_whitespace()).collect();
            words
                .windows(2)
                .find(|pair| pair[0].ends_with("sleep"))
                .and_then(|pair| pair[1].trim_end_matches(['s', ';']).parse::<i64>().ok())
                .unwrap_or(0)
                .max(0)
        }
        _ => 0,
    }
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
                    for p in 0..self.pods[pod].containers[c].probes.len() {
                        self.pods[pod].containers[c].probes[p].next_tick = now;
                        self.push(now, Ev::Tick(pod, c, p));
                    }
                }
                // Init containers first, one by one (`init_kubelet.rs`).
                self.start_first(pod, now + self.timing.start_delay);
            }
            Ev::Start(pod, c) => self.start(pod, c),
            Ev::Tick(pod, c, p) => self.tick(pod, c, p),
            Ev::ProbeDone(pod, c, p) => self.probe_done(pod, c, p),
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
        }
    }

    fn image(&self, pod: usize, c: usize) -> String {
        self.pods[pod].containers[c]
            .spec
            .image
            .as_ref()
            .map(|i| i.value.clone())
            .unwrap_or_default()
    }

    /// A sync that failed before the container was created: the waiting
    /// reason and message, and the next sync after the pod worker's back-off.
    fn start_failed(&mut self, pod: usize, c: usize, reason: &'static str, message: String) {
        let now = self.now;
        self.pods[pod].containers[c]
            .run
            .waiting
            .push((now, reason, message));
        self.push(now + ERROR_RESYNC, Ev::Start(pod, c));
    }

    /// The sync that starts a container (`startContainer`): the image first
    /// (`EnsureImageExists`, §9), then the container's config, then create
    /// and start. A pull takes time, so the rest follows in `pulled`.
    fn start(&mut self, pod: usize, c: usize) {
        let now = self.now;
        if self.pods[pod].run.deleting.is_some() {
            return;
        }
        self.pods[pod].run.sandbox.get_or_insert(now);
        let image = self.image(pod, c);
        let missing = super::image::is_missing(&self.scenario.missing, &image);
        let container = &self.pods[pod].containers[c];
        let pull_time = container.program.image_pull.value;
        let node = self.pods[pod].placed;
        // Preloaded (`imagePull: 0s`, as after `kind load docker-image`) or
        // pulled to this node before; an image the registry lacks is nowhere.
        let present = !missing
            && (pull_time == 0
                || node.is_some_and(|n| {
                    self.nodes[n]
                        .images
                        .iter()
                        .any(|(known, at)| *known == image && *at <= now)
                }));
        let should_pull = match container.spec.image_pull_policy.value.as_str() {
            "Never" => false,
            "Always" => true,
            _ => !present,
        };
        if !should_pull {
            if present {
                let message = self.shared_text(pod, c, TextKey::ImagePresent, |_| {
                    format!("Container image \"{image}\" already present on machine and can be accessed by the pod")
                });
                self.event(pod, Some(c), false, "Pulled", message);
                self.create(pod, c);
            } else {
                let message =
                    format!("Container image \"{image}\" is not present with pull policy of Never");
                self.event(pod, Some(c), true, "ErrImageNeverPull", message.clone());
                self.event(pod, Some(c), true, "Failed", "Error: ErrImageNeverPull");
                self.start_failed(pod, c, "ErrImageNeverPull", message);
            }
            return;
        }
        let container = &self.pods[pod].containers[c];
        if let Some((backoff, last_update)) = container.pull_backoff {
            // `IsInBackOffSinceUpdate(key, now)`: strict, from the last failure.
            if now - last_update < backoff {
                let message = format!(
                    "Back-off pulling image \"{image}\": {}",
                    container.pull_error
                );
                self.event(
                    pod,
                    Some(c),
                    false,
                    "BackOff",
                    format!("Back-off pulling image \"{image}\""),
                );
                self.event(pod, Some(c), true, "Failed", "Error: ImagePullBackOff");
                self.start_failed(pod, c, "ImagePullBackOff", message);
                return;
            }
        }
        self.event(
            pod,
            Some(c),
            false,
            "Pulling",
            format!("Pulling image \"{image}\""),
        );
        if missing {
            self.push(now + PULL_FAILURE, Ev::PullFailed(pod, c));
            return;
        }
        // The serial puller: a pull waits for the one before it on the node.
        let (begin, duration) = match node {
            Some(n) => {
                let begin = self.nodes[n].pull_busy_until.max(now);
                let cached = self.nodes[n]
                    .images
                    .iter()
                    .any(|(known, at)| *known == image && *at <= begin);
                let duration = if cached || pull_time == 0 {
                    CACHED_PULL
                } else {
                    pull_time
                };
                self.nodes[n].pull_busy_until = begin + duration;
                self.nodes[n].images.push((image, begin + duration));
                (begin, duration)
            }
            None => (now, pull_time.max(CACHED_PULL)),
        };
        let done = begin + duration;
        self.push(done, Ev::Pulled(pod, c, duration, done - now));
    }

    fn pulled(&mut self, pod: usize, c: usize, pull: Millis, total: Millis) {
        if self.pods[pod].run.deleting.is_some() {
            return;
        }
        let image = self.image(pod, c);
        let size = super::image::size_bytes(&image);
        self.event(
            pod,
            Some(c),
            false,
            "Pulled",
            format!(
                "Successfully pulled image \"{image}\" in {} ({} including waiting). Image size: {size} bytes.",
                go_duration_ms(pull),
                go_duration_ms(total)
            ),
        );
        self.create(pod, c);
    }

    /// A failed pull (§9): `Failed` with the runtime's error, the back-off
    /// entry moved on (`Next`), `Error: ErrImagePull`, waiting ErrImagePull.
    fn pull_failed(&mut self, pod: usize, c: usize) {
        let now = self.now;
        if self.pods[pod].run.deleting.is_some() {
            return;
        }
        let image = self.image(pod, c);
        let error = super::image::not_found_error(&image);
        self.event(
            pod,
            Some(c),
            true,
            "Failed",
            format!("Failed to pull image \"{image}\": {error}"),
        );
        let container = &mut self.pods[pod].containers[c];
        container.pull_backoff = Some(match container.pull_backoff {
            Some((backoff, last_update)) if now - last_update <= 2 * PULL_BACKOFF_MAX => {
                ((backoff * 2).min(PULL_BACKOFF_MAX), now)
            }
            _ => (PULL_BACKOFF_INITIAL, now),
        });
        container.pull_error = error.clone();
        self.event(pod, Some(c), true, "Failed", "Error: ErrImagePull");
        self.start_failed(pod, c, "ErrImagePull", error);
    }

    /// The first Secret or ConfigMap the container's environment needs that
    /// the Scenario lists under `cluster.missing`, as `generateContainerConfig`
    /// reports it (`makeEnvironmentVariables`: `envFrom` first, then `env`;
    /// an `optional` reference is skipped).
    fn missing_config(&self, pod: usize, c: usize) -> Option<String> {
        let spec = self.pods[pod].containers[c].spec;
        let missing = &self.scenario.missing;
        let absent =
            |kind: &str, name: &str| missing.iter().any(|m| *m == format!("{kind}/{name}"));
        for from in &spec.env_from {
            if from.optional {
                continue;
            }
            if let Some(name) = from.secret.as_deref().filter(|n| absent("Secret", n)) {
                return Some(format!("secret \"{name}\" not found"));
            }
            if let Some(name) = from
                .config_map
                .as_deref()
                .filter(|n| absent("ConfigMap", n))
            {
                return Some(format!("configmap \"{name}\" not found"));
            }
        }
        for var in &spec.env {
            if let Some((name, _, false)) = &var.secret_ref {
                if absent("Secret", name) {
                    return Some(format!("secret \"{name}\" not found"));
                }
            }
            if let Some((name, _, false)) = &var.config_map_ref {
                if absent("ConfigMap", name) {
                    return Some(format!("configmap \"{name}\" not found"));
                }
            }
        }
        None
    }

    /// A new container instance once the image is there: the config (a
    /// missing Secret or ConfigMap stops it: CreateContainerConfigError),
    /// events, probe results re-initialised, the program's own exits
    /// scheduled (§1 "Across container restarts", §7).
    fn create(&mut self, pod: usize, c: usize) {
        let now = self.now;
        if let Some(error) = self.missing_config(pod, c) {
            self.event(pod, Some(c), true, "Failed", format!("Error: {error}"));
            self.start_failed(pod, c, "CreateContainerConfigError", error);
            return;
        }
        let container = &mut self.pods[pod].containers[c];
        container.running = true;
        let has_startup = container.spec.startup.is_some();
        container.started_ok = !has_startup;
        container.started_written = None;
        container.run.instances.push(Instance {
            started: now,
            started_ok: (!has_startup).then_some(now),
            ready: Vec::new(),
            exit: None,
        });
        let instance = container.run.instances.len() - 1;
        for probe in &mut container.probes {
            probe.on_hold = false;
            probe.cached = match probe.probe.kind {
                ProbeKind::Readiness => Some(false),
                ProbeKind::Liveness => Some(true),
                ProbeKind::Startup => None,
            };
        }
        let program = container.program.clone();
        let limit = container
            .spec
            .resources
            .limit("memory")
            .and_then(|amount| amount.quantity)
            .map(|q| q.value());
        let has_readiness = container.spec.readiness.is_some();
        self.event(pod, Some(c), false, "Created", "Container created");
        self.event(pod, Some(c), false, "Started", "Container started");
        // Exits of the program itself; the earliest wins (stale ones are ignored).
        if let Some(exit) = &program.exit {
            self.push(
                now + exit.after,
                Ev::Exit(pod, c, instance, ExitKind::Program { code: exit.code }),
            );
        }
        if let Some(run_for) = &program.run_for {
            let done = now + program.startup.value + run_for.value;
            self.push(
                done,
                Ev::Exit(pod, c, instance, ExitKind::Program { code: 0 }),
            );
        }
        // OOM: memory climbs linearly to the peak over the load; the kernel
        // kills the container when it crosses the limit (§6).
        if let Some(limit) = limit {
            let peak = program.peak_total();
            if peak > limit && limit >= 0 {
                let fraction = (limit as f64 / peak as f64).clamp(0.0, 1.0);
                let at = now + (program.startup.value as f64 * fraction) as Millis;
                self.push(at, Ev::Exit(pod, c, instance, ExitKind::Oom));
            }
        }
        // /dev/shm fills when the workers start, at the end of the load.
        if self.shm_failure(pod, c).is_some() {
            let at = now + program.startup.value;
            self.push(at, Ev::Exit(pod, c, instance, ExitKind::Shm));
        }
        self.device_memory_started(pod, c);
        if !has_startup {
            self.became_started(pod, c, has_readiness);
        }
        if let Owner::Job(job) = self.pods[pod].owner {
            self.job_check_restarts(job);
        }
    }

    /// Started: readiness gets a manual trigger right away and its grid moves
    /// there (§1, PR #119089); without a readiness probe the container is
    /// Ready now (§5).
    fn became_started(&mut self, pod: usize, c: usize, has_readiness: bool) {
        let now = self.now;
        // A regular init container is never Ready while it runs.
        let has_readiness = has_readiness || !self.counts_for_ready(pod, c);
        let container = &mut self.pods[pod].containers[c];
        container.started_ok = true;
        if let Some(instance) = container.run.instances.last_mut() {
            instance.started_ok = Some(now);
            if !has_readiness {
                instance.ready.push((now, None));
            }
        }
        self.init_started(pod, c);
        if !has_readiness {
            self.pod_ready_changed(pod);
        }
        let container = &mut self.pods[pod].containers[c];
        if let Some(p) = container
            .probes
            .iter()
            .position(|probe| probe.probe.kind == ProbeKind::Readiness)
        {
            container.probes[p].next_tick = now;
            container.probes[p].manual = true;
            self.push(now, Ev::Tick(pod, c, p));
        }
    }

    /// A worker's ticker fires (§1): the next tick is one period later; a
    /// worker still blocked in its call keeps the tick for when it returns.
    fn tick(&mut self, pod: usize, c: usize, p: usize) {
        let now = self.now;
        let probe = &self.pods[pod].containers[c].probes[p];
        let period = (probe.probe.period_seconds.value.max(1) as Millis) * 1000;
        if now != probe.next_tick {
            return;
        }
        self.push(now + period, Ev::Tick(pod, c, p));
        let probe = &mut self.pods[pod].containers[c].probes[p];
        probe.next_tick = now + period;
        if probe.in_flight.is_some() {
            probe.pending = true;
            return;
        }
        self.do_probe(pod, c, p);
    }

    /// `doProbe` (§1): the checks on the status it reads now, then the call.
    /// The call blocks the worker for the answer's latency; its result (the
    /// `Unhealthy` event, the count, a kill, Started, Ready) comes when it
    /// returns (`prober.go` `probe` records the event after
    /// `runProbeWithRetries` returns; `worker.go` counts after it).
    fn do_probe(&mut self, pod: usize, c: usize, p: usize) {
        let now = self.now;
        let container = &mut self.pods[pod].containers[c];
        let started_written = container.started_written;
        let started_ok = container.started_ok;
        let running = container.running;
        let instances = container.run.instances.len();
        let started_at = container.run.instances.last().map(|i| i.started);
        let probe = &mut container.probes[p];
        let manual = std::mem::take(&mut probe.manual);
        let kind = probe.probe.kind;
        let Some(started_at) = started_at else {
            return;
        };
        if !running || probe.on_hold {
            return;
        }
        // Gating by Started (§1). The startup result reaches the status
        // manager through the kubelet's sync loop (`SetContainerStartup`):
        // a worker reading the status at that instant still sees false; the
        // readiness manual trigger comes from the sync after the write.
        let started = started_ok && (started_written != Some(now) || manual);
        match kind {
            ProbeKind::Startup if started_ok => return,
            ProbeKind::Liveness | ProbeKind::Readiness if !started => return,
            _ => {}
        }
        // initialDelaySeconds against whole seconds since StartedAt (§1).
        let elapsed_s = ((now - started_at) / 1000) as i64;
        if elapsed_s < probe.probe.initial_delay_seconds.value {
            return;
        }
        let (outcome, latency) = self.probe(pod, c, p);
        let instance = instances - 1;
        if latency == 0 {
            self.probe_returned(pod, c, p, instance, outcome);
        } else {
            self.pods[pod].containers[c].probes[p].in_flight = Some((instance, outcome));
            self.push(now + latency, Ev::ProbeDone(pod, c, p));
        }
    }

    /// The call returns; a tick that came meanwhile runs the next probe now.
    fn probe_done(&mut self, pod: usize, c: usize, p: usize) {
        let Some((instance, outcome)) = self.pods[pod].containers[c].probes[p].in_flight.take()
        else {
            return;
        };
        self.probe_returned(pod, c, p, instance, outcome);
        let probe = &mut self.pods[pod].containers[c].probes[p];
        if std::mem::take(&mut probe.pending) {
            self.do_probe(pod, c, p);
        }
    }

    /// What the worker does with a returned result (§1 "Counting", §2).
    fn probe_returned(
        &mut self,
        pod: usize,
        c: usize,
        p: usize,
        instance: usize,
        outcome: Outcome,
    ) {
        let now = self.now;
        let kind = self.pods[pod].containers[c].probes[p].probe.kind;
        let title = kind.title();
        let success = match outcome {
            Outcome::Success => true,
            Outcome::Failure(failure) => {
                let message = self.shared_text(pod, c, TextKey::Unhealthy(p, failure), |sim| {
                    format!(
                        "{title} probe failed: {}",
                        sim.failure_output(pod, c, p, failure)
                    )
                });
                self.event(pod, Some(c), true, "Unhealthy", message);
                false
            }
            Outcome::Error(output) => {
                // §2: a Go error is thrown away: it does not count.
                self.event(
                    pod,
                    Some(c),
                    true,
                    "Unhealthy",
                    format!("{title} probe errored and resulted in unknown state: {output}"),
                );
                return;
            }
        };
        let container = &mut self.pods[pod].containers[c];
        // The probed instance may have ended while the call was in flight:
        // the result is set for its container ID and changes nothing the
        // kubelet acts on for a new one.
        let current = container.running && container.run.instances.len() == instance + 1;
        let probe = &mut container.probes[p];
        // §1 Counting: consecutive identical results.
        if probe.last == Some(success) {
            probe.run += 1;
        } else {
            probe.run = 1;
        }
        probe.last = Some(success);
        let threshold = if success {
            probe.probe.success_threshold.value.max(1)
        } else {
            probe.probe.failure_threshold.value.max(1)
        };
        if probe.run < threshold || (current && probe.cached == Some(success)) {
            return;
        }
        if !current {
            if kind == ProbeKind::Startup || (kind == ProbeKind::Liveness && !success) {
                probe.run = 0;
            }
            return;
        }
        probe.cached = Some(success);
        match (kind, success) {
            (ProbeKind::Readiness, ready) => {
                if let Some(instance) = container.run.instances.last_mut() {
                    if ready {
                        instance.ready.push((now, None));
                    } else if let Some(open) = instance.ready.last_mut().filter(|r| r.1.is_none()) {
                        open.1 = Some(now);
                    }
                }
                if ready {
                    self.pod_ready_changed(pod);
                }
            }
            (ProbeKind::Startup, true) => {
                // v1.32+: the startup worker goes on hold after either threshold.
                probe.on_hold = true;
                probe.run = 0;
                let has_readiness = container.spec.readiness.is_some();
                container.started_written = Some(now);
                self.became_started(pod, c, has_readiness);
            }
            (ProbeKind::Startup | ProbeKind::Liveness, false) => {
                probe.on_hold = true;
                probe.run = 0;
                self.kill(pod, c, kind);
            }
            (ProbeKind::Liveness, true) => {}
        }
    }

    /// The program model answering a probe (DESIGN.md, kubernetes-behavior.md
    /// decision 6) with the kubelet's texts (§2), and how long the call
    /// takes: a refused connection returns at once; a listening program
    /// answers HTTP and gRPC health checks after `healthLatency`, and a
    /// call still waiting at `timeoutSeconds` fails then (the HTTP client's
    /// `Timeout`, the gRPC dial and RPC deadlines). A TCP connect and an
    /// exec check take no modelled time.
    fn probe(&self, pod: usize, c: usize, p: usize) -> (Outcome, Millis) {
        let pod_sim = &self.pods[pod];
        let container = &pod_sim.containers[c];
        let probe = container.probes[p].probe;
        let program = &container.program;
        let listening = container
            .run
            .instances
            .last()
            .is_some_and(|i| self.now >= i.started + program.startup.value);
        let resolve = |port: &Option<PortRef>| -> Result<i64, String> {
            match port {
                Some(PortRef::Number(n)) => Ok(*n),
                Some(PortRef::Name(name)) => container
                    .spec
                    .ports
                    .iter()
                    .find(|p| p.name.as_deref() == Some(name.as_str()))
                    .map(|p| p.number)
                    .ok_or_else(|| format!("strconv.Atoi: parsing {name:?}: invalid syntax")),
                None => Ok(0),
            }
        };
        let timeout_ms = (probe.timeout_seconds.value.max(1) as Millis) * 1000;
        let latency = program.health_latency.value;
        match &probe.handler {
            Handler::HttpGet { path, port, .. } => {
                let port = match resolve(port) {
                    Ok(port) => port,
                    Err(error) => return (Outcome::Error(error), 0),
                };
                if !listening || port != program.listen_port.value {
                    return (Outcome::Failure(Failure::HttpRefused(port)), 0);
                }
                if latency >= timeout_ms {
                    return (Outcome::Failure(Failure::HttpTimeout(port)), timeout_ms);
                }
                if *path != program.health_path.value {
                    return (Outcome::Failure(Failure::HttpStatus404), latency);
                }
                (Outcome::Success, latency)
            }
            Handler::TcpSocket { port, .. } => {
                let port = match resolve(port) {
                    Ok(port) => port,
                    Err(error) => return (Outcome::Error(error), 0),
                };
                if listening && port == program.listen_port.value {
                    (Outcome::Success, 0)
                } else {
                    (Outcome::Failure(Failure::TcpRefused(port)), 0)
                }
            }
            Handler::Grpc { port, .. } => {
                let port = port.unwrap_or(0);
                if listening && port == program.listen_port.value {
                    if latency >= timeout_ms {
                        (Outcome::Failure(Failure::GrpcTimeout), timeout_ms)
                    } else {
                        (Outcome::Success, latency)
                    }
                } else {
                    // UNCONFIRMED wording for a refused gRPC connection (§2
                    // table); the blocking dial gives up at the timeout.
                    (Outcome::Failure(Failure::GrpcRefused(port)), timeout_ms)
                }
            }
            // An exec check succeeds once the program has loaded.
            Handler::Exec { .. } => {
                if listening {
                    (Outcome::Success, 0)
                } else {
                    (Outcome::Failure(Failure::Exec), 0)
                }
            }
            Handler::Sleep { .. } | Handler::Missing => (Outcome::Success, 0),
        }
    }

    /// The kubelet's text of a probe failure (§2), for `Unhealthy`.
    fn failure_output(&self, pod: usize, c: usize, p: usize, failure: Failure) -> String {
        let pod_sim = &self.pods[pod];
        let probe = pod_sim.containers[c].probes[p].probe;
        let ip = &pod_sim.run.ip;
        let timeout_s = probe.timeout_seconds.value.max(1);
        let url = |port: i64| match &probe.handler {
            Handler::HttpGet { path, scheme, .. } => {
                format!("{}://{ip}:{port}{path}", scheme.to_ascii_lowercase())
            }
            _ => String::new(),
        };
        match failure {
            Failure::HttpRefused(port) => format!(
                "Get \"{}\": dial tcp {ip}:{port}: connect: connection refused",
                url(port)
            ),
            Failure::HttpTimeout(port) => format!(
                "Get \"{}\": context deadline exceeded (Client.Timeout exceeded while awaiting headers)",
                url(port)
            ),
            Failure::HttpStatus404 => "HTTP probe failed with statuscode: 404".into(),
            Failure::TcpRefused(port) => {
                format!("dial tcp {ip}:{port}: connect: connection refused")
            }
            Failure::GrpcTimeout => {
                format!("timeout: health rpc did not complete within {timeout_s}s")
            }
            Failure::GrpcRefused(port) => format!(
                "timeout: failed to connect service \"{ip}:{port}\" within {timeout_s}s: context deadline exceeded"
            ),
            Failure::Exec => String::new(),
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

    /// A liveness or startup kill (§3): `Killing` event, preStop, SIGTERM,
    /// SIGKILL when the grace period runs out.
    fn kill(&mut self, pod: usize, c: usize, kind: ProbeKind) {
        let pod_sim = &self.pods[pod];
        let container = &pod_sim.containers[c];
        let name = container.spec.name.clone();
        let probe_grace = match kind {
            ProbeKind::Liveness => container.spec.liveness.as_ref(),
            _ => container.spec.startup.as_ref(),
        }
        .and_then(|probe| probe.termination_grace_period_seconds.as_ref())
        .map(|grace| grace.value);
        let grace = probe_grace.unwrap_or(pod_sim.spec.termination_grace_period_seconds.value);
        let instance = container.run.instances.len().saturating_sub(1);
        let (at, code) = self.stop_time(pod, c, grace);
        let probe_name = match kind {
            ProbeKind::Liveness => "liveness",
            _ => "startup",
        };
        let will = if self.pods[pod].run.restart_policy == "Never" {
            ""
        } else {
            ", will be restarted"
        };
        // The same inputs each time: the text is written once per kind.
        let message = self.shared_text(pod, c, TextKey::Killing(kind), |sim| {
            sim.kill_message(pod, c, &name, probe_name, will)
        });
        self.event(pod, Some(c), false, "Killing", message);
        self.push(at, Ev::Exit(pod, c, instance, ExitKind::Killed { code }));
    }

    fn exit(&mut self, pod: usize, c: usize, instance: usize, kind: ExitKind) {
        let now = self.now;
        let container = &mut self.pods[pod].containers[c];
        if container.run.instances.len() != instance + 1 || !container.running {
            return; // an exit of an instance that already ended
        }
        let gpu_oom = if kind == ExitKind::CudaOom {
            self.gpu_oom(pod, c)
        } else {
            None
        };
        let shm = if kind == ExitKind::Shm {
            self.shm_failure(pod, c)
        } else {
            None
        };
        let container = &mut self.pods[pod].containers[c];
        container.running = false;
        let (code, reason) = match kind {
            ExitKind::Program { code } | ExitKind::Killed { code } | ExitKind::Deleted { code } => {
                (code, if code == 0 { "Completed" } else { "Error" })
            }
            ExitKind::Oom => (137, "OOMKilled"),
            // An uncaught Python exception: exit code 1.
            ExitKind::CudaOom => (1, "Error"),
            // PyTorch's uncaught RuntimeError (exit 1), or the kernel.
            ExitKind::Shm => match &shm {
                Some(failure) if !failure.is_bus_error() => (137, "OOMKilled"),
                _ => (1, "Error"),
            },
        };
        if let Some(last) = container.run.instances.last_mut() {
            last.exit = Some(Exit {
                at: now,
                code,
                reason,
                gpu_oom,
                shm,
            });
            if let Some(open) = last.ready.last_mut().filter(|r| r.1.is_none()) {
                open.1 = Some(now);
            }
        }
        // Its device memory is free: neighbours on a time-sliced GPU may fit.
        self.device_memory_stopped(pod, c);
        match kind {
            // The kill and the restart happen in one SyncPod that uses the
            // status from before the kill: doBackOff looks at the previous
            // instance (§3, §4 "Liveness or startup kills").
            ExitKind::Killed { .. }
                if self.pods[pod].run.restart_policy != "Never" || self.is_sidecar(pod, c) =>
            {
                let container = &self.pods[pod].containers[c];
                let previous = instance
                    .checked_sub(1)
                    .and_then(|i| container.run.instances[i].exit.as_ref())
                    .map(|exit| exit.at);
                self.decide_restart(pod, c, previous);
            }
            ExitKind::Deleted { .. } => {
                if self.pods[pod].containers.iter().all(|c| !c.running) {
                    self.pod_gone(pod);
                }
            }
            _ => self.push(now + self.timing.pleg, Ev::Sync(pod, c)),
        }
    }

    /// What the workers' shared memory does to this container when its
    /// load ends (`shm::failure`), given its /dev/shm and memory limit.
    fn shm_failure(&self, pod: usize, c: usize) -> Option<super::shm::ShmFailure> {
        let container = &self.pods[pod].containers[c];
        let limit = container
            .spec
            .resources
            .limit("memory")
            .and_then(|amount| amount.quantity)
            .map(|q| q.value());
        let dev_shm = super::shm::dev_shm(self.pods[pod].spec, container.spec);
        super::shm::failure(dev_shm, &container.program, limit)
    }

    /// A sync after a container exited by itself, or while it waits in back-off.
    fn sync_exited(&mut self, pod: usize, c: usize) {
        let container = &self.pods[pod].containers[c];
        if container.running || self.pods[pod].run.deleting.is_some() {
            return;
        }
        if self.init_index(pod, c).is_some() {
            self.init_exited(pod, c);
            return;
        }
        let container = &self.pods[pod].containers[c];
        let Some(exit) = container.run.instances.last().and_then(|i| i.exit.as_ref()) else {
            return;
        };
        let restart = match self.pods[pod].run.restart_policy.as_str() {
            "Never" => false,
            "OnFailure" => exit.code != 0,
            _ => true,
        };
        if restart {
            let finished = exit.at;
            self.decide_restart(pod, c, Some(finished));
        } else if self.pod_is_finished(pod) && !self.stop_sidecars(pod) {
            self.pod_finished(pod);
        }
    }

    /// `doBackOff` (§4): no exited instance → start; in back-off since that
    /// instance finished → wait (BackOff event, CrashLoopBackOff); otherwise
    /// `Next` and start in this sync.
    fn decide_restart(&mut self, pod: usize, c: usize, examined: Option<Millis>) {
        let now = self.now;
        if let Some(finished) = examined {
            let expired =
                |last_update: Millis| finished.saturating_sub(last_update) > BACKOFF_RESET;
            if let Some((backoff, last_update)) = self.pods[pod].containers[c].backoff {
                if !expired(last_update) && now.saturating_sub(finished) < backoff {
                    // One text per back-off length (10 s doubling to 5 m).
                    let message =
                        self.shared_text(pod, c, TextKey::BackOffWaiting(backoff), |sim| {
                            let pod_sim = &sim.pods[pod];
                            format!(
                                "back-off {} restarting failed container={} pod={}_default({})",
                                go_duration(backoff),
                                pod_sim.containers[c].spec.name,
                                pod_sim.run.name,
                                pod_sim.run.uid
                            )
                        });
                    let container = &mut self.pods[pod].containers[c];
                    container.run.back_offs.push((now, message));
                    // The newest exited instance decides from now on; v1.35
                    // re-queues at the remaining back-off, capped at 1 m,
                    // jittered (`requeue`: 1.25 ×; §4, PR #133066).
                    let newest = container
                        .run
                        .instances
                        .last()
                        .and_then(|i| i.exit.as_ref())
                        .map_or(finished, |exit| exit.at);
                    let remaining = (newest + backoff).saturating_sub(now);
                    let next = if examined == Some(newest) {
                        now + requeue(remaining.clamp(1, self.timing.resync_cap))
                    } else {
                        // After a kill: the PLEG's ContainerDied sync comes first.
                        now + self.timing.pleg
                    };
                    let message = self.shared_text(pod, c, TextKey::BackOff, |sim| {
                        let pod_sim = &sim.pods[pod];
                        format!(
                            "Back-off restarting failed container {} in pod {}_default({})",
                            pod_sim.containers[c].spec.name, pod_sim.run.name, pod_sim.run.uid
                        )
                    });
                    self.event(pod, Some(c), true, "BackOff", message);
                    self.push(next, Ev::Sync(pod, c));
                    return;
                }
            }
            // Next(id, FinishedAt): a fresh 10 s entry, or double it.
            let container = &mut self.pods[pod].containers[c];
            let backoff = match container.backoff {
                Some((backoff, last_update)) if !expired(last_update) => {
                    (backoff * 2).min(BACKOFF_MAX)
                }
                _ => BACKOFF_INITIAL,
            };
            container.backoff = Some((backoff, now));
        }
        self.push(now + self.timing.restart_delay, Ev::Start(pod, c));
    }
}

enum Outcome {
    Success,
    /// What failed; its text (`Sim::failure_output`) is written once per
    /// container and shared by every `Unhealthy` event that repeats it.
    Failure(Failure),
    /// A Go error: not counted (§2).
    Error(String),
}

/// A probe's failure, with the port it called (`Sim::probe`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Failure {
    HttpRefused(i64),
    HttpTimeout(i64),
    HttpStatus404,
    TcpRefused(i64),
    GrpcTimeout,
    GrpcRefused(i64),
    Exec,
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
