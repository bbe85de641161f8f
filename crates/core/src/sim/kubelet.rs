//! The event loop, the scheduler's first fit and the kubelet's container
//! lifecycle. Every behaviour cites `shared/reference/kubelet.md` (§n).

use std::cmp::Reverse;
use std::collections::BinaryHeap;

use super::{ContainerRun, Event, Exit, Instance, Options, PodRun, Run};
use crate::lint::Reading;
use crate::manifest::duration::Millis;
use crate::manifest::model::{
    Container, Handler, PodSpec, PortRef, Probe, ProbeKind, WorkloadKind,
};
use crate::manifest::scenario::{NodePool, Program};
use crate::rules::pl502::{failed_scheduling_message, Rejection, UNTOLERATED_TAINT};
use crate::rules::pod_gpu_requests;

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
    /// at the remaining back-off, at most the 1 m resync interval; §4).
    pub resync_cap: Millis,
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
    /// A container exits: (pod, container, instance, code, reason, killed by the kubelet).
    Exit(usize, usize, usize, ExitKind),
    /// A sync of the pod for a container that has exited.
    Sync(usize, usize),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum ExitKind {
    /// The program's own exit (`exit`, `runFor`).
    Program { code: i64 },
    /// The kernel's OOM killer at the loading peak (§6).
    Oom,
    /// The kubelet stopped it after a probe failure: SIGTERM (143 or 0), or
    /// SIGKILL (137) when the grace period ran out.
    Killed { code: i64 },
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
}

struct ContainerSim<'a> {
    spec: &'a Container,
    program: Program,
    probes: Vec<ProbeSim<'a>>,
    running: bool,
    /// Started (the startup probe succeeded, or there is none).
    started_ok: bool,
    /// The back-off entry: (current back-off, lastUpdate).
    backoff: Option<(Millis, Millis)>,
    run: ContainerRun,
}

struct PodSim<'a> {
    spec: &'a PodSpec,
    containers: Vec<ContainerSim<'a>>,
    run: PodRun,
}

struct Sim<'a> {
    now: Millis,
    seq: u64,
    queue: BinaryHeap<Reverse<(Millis, u64, Ev)>>,
    pods: Vec<PodSim<'a>>,
    events: Vec<Event>,
    until: Millis,
    timing: Timing,
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

/// A node of a pool, with what is still free on it.
struct Node<'a> {
    name: String,
    pool: &'a NodePool,
    free_cpu_milli: i128,
    free_memory: i128,
    free_extended: Vec<(String, i64)>,
    pods: usize,
}

/// Simulates what a file's objects do on the Scenario's cluster.
pub fn simulate_reading(reading: &Reading, seed: u64, options: &Options) -> Run {
    let scenario = &reading.scenario;
    let until = options.until.unwrap_or(scenario.duration.value);
    let timing = Timing::default();
    let mut rng = Rng(seed ^ scenario.seed);
    let mut nodes: Vec<Node<'_>> = Vec::new();
    for pool in &scenario.node_pools {
        for i in 0..pool.count.clamp(0, 1000) {
            nodes.push(Node {
                name: format!("{}-{i}", pool.name),
                pool,
                free_cpu_milli: pool.cpu_milli,
                free_memory: pool.memory_bytes,
                free_extended: pool.extended_resources(),
                pods: 0,
            });
        }
    }
    let mut sim = Sim {
        now: 0,
        seq: 0,
        queue: BinaryHeap::new(),
        pods: Vec::new(),
        events: Vec::new(),
        until,
        timing,
    };
    for workload in &reading.workloads {
        let mut template_hash = None;
        let names: Vec<String> = match workload.kind {
            WorkloadKind::Pod => vec![workload.name.clone()],
            WorkloadKind::Deployment => {
                let hash = rng.template_hash();
                template_hash = Some(hash.clone());
                let count = workload
                    .replicas
                    .as_ref()
                    .map_or(1, |r| r.value)
                    .clamp(0, 1000);
                (0..count)
                    .map(|_| format!("{}-{hash}-{}", workload.name, rng.suffix(5)))
                    .collect()
            }
            WorkloadKind::ReplicaSet => {
                let count = workload
                    .replicas
                    .as_ref()
                    .map_or(1, |r| r.value)
                    .clamp(0, 1000);
                (0..count)
                    .map(|_| format!("{}-{}", workload.name, rng.suffix(5)))
                    .collect()
            }
            WorkloadKind::StatefulSet => {
                // All at once here; OrderedReady start comes with the controllers.
                let count = workload
                    .replicas
                    .as_ref()
                    .map_or(1, |r| r.value)
                    .clamp(0, 1000);
                (0..count)
                    .map(|i| format!("{}-{i}", workload.name))
                    .collect()
            }
            // Jobs, CronJobs and DaemonSets come with the controllers step.
            _ => continue,
        };
        let gpu = pod_gpu_requests(workload);
        let cpu: i128 = workload
            .pod
            .containers
            .iter()
            .filter_map(|c| c.resources.effective_request("cpu"))
            .map(|q| q.milli)
            .sum();
        let memory: i128 = workload
            .pod
            .containers
            .iter()
            .filter_map(|c| c.resources.effective_request("memory"))
            .map(|q| q.value())
            .sum();
        for name in names {
            let index = sim.pods.len();
            let object = format!("Pod/{name}");
            let node = schedule(&mut nodes, &workload.pod, cpu, memory, &gpu);
            let (node, ip) = match node {
                Ok(node_index) => {
                    let node = &mut nodes[node_index];
                    node.pods += 1;
                    let ip = format!("10.244.{node_index}.{}", 4 + node.pods);
                    sim.events.push(Event {
                        at: 0,
                        object: object.clone(),
                        field_path: None,
                        warning: false,
                        reason: "Scheduled",
                        message: format!("Successfully assigned default/{name} to {}", node.name),
                        source: "default-scheduler",
                    });
                    (Some((node.name.clone(), 0)), ip)
                }
                Err(message) => {
                    sim.events.push(Event {
                        at: 0,
                        object: object.clone(),
                        field_path: None,
                        warning: true,
                        reason: "FailedScheduling",
                        message,
                        source: "default-scheduler",
                    });
                    (None, String::new())
                }
            };
            let containers = workload
                .pod
                .containers
                .iter()
                .map(|container| ContainerSim {
                    spec: container,
                    program: scenario.program(container),
                    probes: [
                        &container.startup,
                        &container.liveness,
                        &container.readiness,
                    ]
                    .into_iter()
                    .flatten()
                    .map(|probe| ProbeSim {
                        probe,
                        last: None,
                        run: 0,
                        cached: None,
                        on_hold: false,
                        next_tick: timing.first_sync,
                    })
                    .collect(),
                    running: false,
                    started_ok: false,
                    backoff: None,
                    run: ContainerRun {
                        name: container.name.clone(),
                        instances: Vec::new(),
                        back_offs: Vec::new(),
                        program: scenario.program(container),
                    },
                })
                .collect();
            let bound = node.is_some();
            sim.pods.push(PodSim {
                spec: &workload.pod,
                containers,
                run: PodRun {
                    name,
                    owner: format!("{}/{}", workload.kind.as_str(), workload.name),
                    uid: rng.uid(),
                    created: 0,
                    node,
                    ip,
                    restart_policy: workload.pod.restart_policy.value.clone(),
                    containers: Vec::new(),
                    spec: workload.pod.clone(),
                    labels: workload.pod_labels.clone(),
                    template_hash: template_hash.clone(),
                },
            });
            if bound {
                sim.push(timing.first_sync, Ev::FirstSync(index));
            }
        }
    }
    while let Some(Reverse((at, _, ev))) = sim.queue.pop() {
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
                run.containers = pod.containers.into_iter().map(|c| c.run).collect();
                run
            })
            .collect(),
        events: sim.events,
    }
}

/// First fit over the nodes in pool order: taints (NoSchedule/NoExecute
/// must be tolerated), then cpu, memory and extended resources against what
/// is still free; the FailedScheduling message otherwise
/// (`scheduler-controllers.md` §1, built by `rules::pl502`).
fn schedule(
    nodes: &mut [Node<'_>],
    pod: &PodSpec,
    cpu: i128,
    memory: i128,
    extended: &[(String, i64)],
) -> Result<usize, String> {
    let mut rejections: Vec<Rejection> = Vec::new();
    let mut reject = |unresolvable: bool, reasons: Vec<String>| {
        let rejection = if unresolvable {
            Rejection::unresolvable(1, reasons)
        } else {
            Rejection::no_victims(1, reasons)
        };
        match rejections.iter_mut().find(|known| {
            known.reasons == rejection.reasons && known.preemption == rejection.preemption
        }) {
            Some(known) => known.nodes += 1,
            None => rejections.push(rejection),
        }
    };
    for (index, node) in nodes.iter_mut().enumerate() {
        let untolerated = node.pool.taints.iter().any(|taint| {
            matches!(taint.effect.as_str(), "NoSchedule" | "NoExecute")
                && !pod
                    .tolerations
                    .iter()
                    .any(|t| t.tolerates(&taint.key, &taint.value, &taint.effect))
        });
        if untolerated {
            reject(true, vec![UNTOLERATED_TAINT.to_string()]);
            continue;
        }
        let mut insufficient = Vec::new();
        // v1.34+: a request above the node's allocatable is unresolvable.
        let mut above_allocatable = true;
        if cpu > node.free_cpu_milli {
            insufficient.push("Insufficient cpu".to_string());
            above_allocatable &= cpu > node.pool.cpu_milli;
        }
        if memory > node.free_memory {
            insufficient.push("Insufficient memory".to_string());
            above_allocatable &= memory > node.pool.memory_bytes;
        }
        for (name, count) in extended {
            let free = node
                .free_extended
                .iter()
                .find(|(known, _)| known == name)
                .map_or(0, |(_, free)| *free);
            if *count > free {
                insufficient.push(format!("Insufficient {name}"));
                let allocatable = node
                    .pool
                    .extended_resources()
                    .iter()
                    .find(|(known, _)| known == name)
                    .map_or(0, |(_, n)| *n);
                above_allocatable &= *count > allocatable;
            }
        }
        if insufficient.is_empty() {
            node.free_cpu_milli -= cpu;
            node.free_memory -= memory;
            for (name, count) in extended {
                if let Some((_, free)) = node.free_extended.iter_mut().find(|(k, _)| k == name) {
                    *free -= count;
                }
            }
            return Ok(index);
        }
        reject(above_allocatable, insufficient);
    }
    Err(failed_scheduling_message(nodes.len(), &rejections))
}

/// Seconds a preStop hook takes: `sleep N` (exec) or the sleep action; 0 otherwise.
fn pre_stop_seconds(container: &Container) -> i64 {
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
            self.seq += 1;
            self.queue.push(Reverse((at, self.seq, ev)));
        }
    }

    fn event(
        &mut self,
        pod: usize,
        container: Option<usize>,
        warning: bool,
        reason: &'static str,
        message: String,
    ) {
        let pod_sim = &self.pods[pod];
        let field_path =
            container.map(|c| format!("spec.containers{{{}}}", pod_sim.containers[c].spec.name));
        self.events.push(Event {
            at: self.now,
            object: format!("Pod/{}", pod_sim.run.name),
            field_path,
            warning,
            reason,
            message,
            source: "kubelet",
        });
    }

    fn handle(&mut self, ev: Ev) {
        match ev {
            Ev::FirstSync(pod) => {
                // §1: one worker per probe, started at the first sync; its
                // ticker grid is W + k·period and survives restarts.
                let now = self.now;
                for c in 0..self.pods[pod].containers.len() {
                    for p in 0..self.pods[pod].containers[c].probes.len() {
                        self.pods[pod].containers[c].probes[p].next_tick = now;
                        self.push(now, Ev::Tick(pod, c, p));
                    }
                    self.push(now + self.timing.start_delay, Ev::Start(pod, c));
                }
            }
            Ev::Start(pod, c) => self.start(pod, c),
            Ev::Tick(pod, c, p) => self.tick(pod, c, p),
            Ev::Exit(pod, c, instance, kind) => self.exit(pod, c, instance, kind),
            Ev::Sync(pod, c) => self.sync_exited(pod, c),
        }
    }

    /// A new container instance: events, probe results re-initialised, the
    /// program's own exits scheduled (§1 "Across container restarts", §7).
    fn start(&mut self, pod: usize, c: usize) {
        let now = self.now;
        let container = &mut self.pods[pod].containers[c];
        let image = container
            .spec
            .image
            .as_ref()
            .map(|i| i.value.clone())
            .unwrap_or_default();
        container.running = true;
        let has_startup = container.spec.startup.is_some();
        container.started_ok = !has_startup;
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
        self.event(
            pod,
            Some(c),
            false,
            "Pulled",
            format!(
            "Container image \"{image}\" already present on machine and can be accessed by the pod"
        ),
        );
        self.event(pod, Some(c), false, "Created", "Container created".into());
        self.event(pod, Some(c), false, "Started", "Container started".into());
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
        if !has_startup {
            self.became_started(pod, c, has_readiness);
        }
    }

    /// Started: readiness gets a manual trigger right away and its grid moves
    /// there (§1, PR #119089); without a readiness probe the container is
    /// Ready now (§5).
    fn became_started(&mut self, pod: usize, c: usize, has_readiness: bool) {
        let now = self.now;
        let container = &mut self.pods[pod].containers[c];
        container.started_ok = true;
        if let Some(instance) = container.run.instances.last_mut() {
            instance.started_ok = Some(now);
            if !has_readiness {
                instance.ready.push((now, None));
            }
        }
        if let Some(p) = container
            .probes
            .iter()
            .position(|probe| probe.probe.kind == ProbeKind::Readiness)
        {
            container.probes[p].next_tick = now;
            self.push(now, Ev::Tick(pod, c, p));
        }
    }

    fn tick(&mut self, pod: usize, c: usize, p: usize) {
        let now = self.now;
        let container = &self.pods[pod].containers[c];
        let probe = &container.probes[p];
        let period = (probe.probe.period_seconds.value.max(1) as Millis) * 1000;
        if now != probe.next_tick {
            return;
        }
        self.pods[pod].containers[c].probes[p].next_tick = now + period;
        self.push(now + period, Ev::Tick(pod, c, p));
        let container = &self.pods[pod].containers[c];
        let probe = &container.probes[p];
        let kind = probe.probe.kind;
        let Some(instance) = container.run.instances.last() else {
            return;
        };
        if !container.running || probe.on_hold {
            return;
        }
        // Gating by Started (§1).
        match kind {
            ProbeKind::Startup if container.started_ok => return,
            ProbeKind::Liveness | ProbeKind::Readiness if !container.started_ok => return,
            _ => {}
        }
        // initialDelaySeconds against whole seconds since StartedAt (§1).
        let elapsed_s = ((now - instance.started) / 1000) as i64;
        if elapsed_s < probe.probe.initial_delay_seconds.value {
            return;
        }
        let outcome = self.probe(pod, c, p);
        let title = kind.title();
        let success = match outcome {
            Outcome::Success => true,
            Outcome::Failure(output) => {
                self.event(
                    pod,
                    Some(c),
                    true,
                    "Unhealthy",
                    format!("{title} probe failed: {output}"),
                );
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
        if probe.run < threshold || probe.cached == Some(success) {
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
            }
            (ProbeKind::Startup, true) => {
                // v1.32+: the startup worker goes on hold after either threshold.
                probe.on_hold = true;
                probe.run = 0;
                let has_readiness = container.spec.readiness.is_some();
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
    /// decision 6) with the kubelet's texts (§2).
    fn probe(&self, pod: usize, c: usize, p: usize) -> Outcome {
        let pod_sim = &self.pods[pod];
        let container = &pod_sim.containers[c];
        let probe = container.probes[p].probe;
        let program = &container.program;
        let ip = &pod_sim.run.ip;
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
        match &probe.handler {
            Handler::HttpGet {
                path, port, scheme, ..
            } => {
                let port = match resolve(port) {
                    Ok(port) => port,
                    Err(error) => return Outcome::Error(error),
                };
                let url = format!("{}://{ip}:{port}{path}", scheme.to_ascii_lowercase());
                if !listening || port != program.listen_port.value {
                    return Outcome::Failure(format!(
                        "Get \"{url}\": dial tcp {ip}:{port}: connect: connection refused"
                    ));
                }
                if program.health_latency.value >= timeout_ms {
                    return Outcome::Failure(format!(
                        "Get \"{url}\": context deadline exceeded (Client.Timeout exceeded while awaiting headers)"
                    ));
                }
                if *path != program.health_path.value {
                    return Outcome::Failure("HTTP probe failed with statuscode: 404".into());
                }
                Outcome::Success
            }
            Handler::TcpSocket { port, .. } => {
                let port = match resolve(port) {
                    Ok(port) => port,
                    Err(error) => return Outcome::Error(error),
                };
                if listening && port == program.listen_port.value {
                    Outcome::Success
                } else {
                    Outcome::Failure(format!("dial tcp {ip}:{port}: connect: connection refused"))
                }
            }
            Handler::Grpc { port, .. } => {
                let port = port.unwrap_or(0);
                if listening && port == program.listen_port.value {
                    Outcome::Success
                } else {
                    // UNCONFIRMED wording for a refused gRPC connection (§2 table).
                    Outcome::Failure(format!(
                        "timeout: failed to connect service \"{ip}:{port}\" within {}s: context deadline exceeded",
                        timeout_ms / 1000
                    ))
                }
            }
            // An exec check succeeds once the program has loaded.
            Handler::Exec { .. } => {
                if listening {
                    Outcome::Success
                } else {
                    Outcome::Failure(String::new())
                }
            }
            Handler::Sleep { .. } | Handler::Missing => Outcome::Success,
        }
    }

    /// A liveness or startup kill (§3): `Killing` event, preStop, SIGTERM,
    /// SIGKILL when the grace period runs out.
    fn kill(&mut self, pod: usize, c: usize, kind: ProbeKind) {
        let now = self.now;
        let pod_sim = &self.pods[pod];
        let container = &pod_sim.containers[c];
        let name = container.spec.name.clone();
        let probe_grace = match kind {
            ProbeKind::Liveness => container.spec.liveness.as_ref(),
            _ => container.spec.startup.as_ref(),
        }
        .and_then(|probe| probe.termination_grace_period_seconds.as_ref())
        .map(|grace| grace.value);
        let mut grace = probe_grace
            .unwrap_or(pod_sim.spec.termination_grace_period_seconds.value)
            .max(0);
        let pre_stop = if grace > 0 {
            pre_stop_seconds(container.spec).min(grace)
        } else {
            0
        };
        grace = (grace - pre_stop).max(MINIMUM_GRACE_S);
        let sigterm = now + (pre_stop as Millis) * 1000;
        let instance = container.run.instances.len() - 1;
        let serving = container
            .run
            .instances
            .last()
            .is_some_and(|i| sigterm >= i.started + container.program.startup.value);
        let shutdown = container.program.shutdown.value;
        let (at, code) = if shutdown <= (grace as Millis) * 1000 {
            (sigterm + shutdown, if serving { 0 } else { 143 })
        } else {
            (sigterm + (grace as Millis) * 1000, 137)
        };
        let probe_name = match kind {
            ProbeKind::Liveness => "liveness",
            _ => "startup",
        };
        let will = if self.pods[pod].run.restart_policy == "Never" {
            ""
        } else {
            ", will be restarted"
        };
        self.event(
            pod,
            Some(c),
            false,
            "Killing",
            format!("Container {name} failed {probe_name} probe{will}"),
        );
        self.push(at, Ev::Exit(pod, c, instance, ExitKind::Killed { code }));
    }

    fn exit(&mut self, pod: usize, c: usize, instance: usize, kind: ExitKind) {
        let now = self.now;
        let container = &mut self.pods[pod].containers[c];
        if container.run.instances.len() != instance + 1 || !container.running {
            return; // an exit of an instance that already ended
        }
        container.running = false;
        let (code, reason) = match kind {
            ExitKind::Program { code } | ExitKind::Killed { code } => {
                (code, if code == 0 { "Completed" } else { "Error" })
            }
            ExitKind::Oom => (137, "OOMKilled"),
        };
        if let Some(last) = container.run.instances.last_mut() {
            last.exit = Some(Exit {
                at: now,
                code,
                reason,
            });
            if let Some(open) = last.ready.last_mut().filter(|r| r.1.is_none()) {
                open.1 = Some(now);
            }
        }
        match kind {
            // The kill and the restart happen in one SyncPod that uses the
            // status from before the kill: doBackOff looks at the previous
            // instance (§3, §4 "Liveness or startup kills").
            ExitKind::Killed { .. } if self.pods[pod].run.restart_policy != "Never" => {
                let container = &self.pods[pod].containers[c];
                let previous = instance
                    .checked_sub(1)
                    .and_then(|i| container.run.instances[i].exit.as_ref())
                    .map(|exit| exit.at);
                self.decide_restart(pod, c, previous);
            }
            ExitKind::Killed { .. } => {}
            _ => self.push(now + self.timing.pleg, Ev::Sync(pod, c)),
        }
    }

    /// A sync after a container exited by itself, or while it waits in back-off.
    fn sync_exited(&mut self, pod: usize, c: usize) {
        let container = &self.pods[pod].containers[c];
        if container.running {
            return;
        }
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
        }
    }

    /// `doBackOff` (§4): no exited instance → start; in back-off since that
    /// instance finished → wait (BackOff event, CrashLoopBackOff); otherwise
    /// `Next` and start in this sync.
    fn decide_restart(&mut self, pod: usize, c: usize, examined: Option<Millis>) {
        let now = self.now;
        let pod_name = self.pods[pod].run.name.clone();
        let uid = self.pods[pod].run.uid.clone();
        let container = &mut self.pods[pod].containers[c];
        let name = container.spec.name.clone();
        if let Some(finished) = examined {
            let expired =
                |last_update: Millis| finished.saturating_sub(last_update) > BACKOFF_RESET;
            if let Some((backoff, last_update)) = container.backoff {
                if !expired(last_update) && now.saturating_sub(finished) < backoff {
                    let message = format!(
                        "back-off {} restarting failed container={name} pod={pod_name}_default({uid})",
                        go_duration(backoff)
                    );
                    container.run.back_offs.push((now, message));
                    // The newest exited instance decides from now on; v1.35
                    // re-queues at the remaining back-off, capped at 1 m.
                    let newest = container
                        .run
                        .instances
                        .last()
                        .and_then(|i| i.exit.as_ref())
                        .map_or(finished, |exit| exit.at);
                    let remaining = (newest + backoff).saturating_sub(now);
                    let next = if examined == Some(newest) {
                        now + remaining.clamp(1, self.timing.resync_cap)
                    } else {
                        // After a kill: the PLEG's ContainerDied sync comes first.
                        now + self.timing.pleg
                    };
                    self.event(pod, Some(c), true, "BackOff", format!(
                        "Back-off restarting failed container {name} in pod {pod_name}_default({uid})"
                    ));
                    self.push(next, Ev::Sync(pod, c));
                    return;
                }
            }
            // Next(id, FinishedAt): a fresh 10 s entry, or double it.
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
    Failure(String),
    /// A Go error: not counted (§2).
    Error(String),
}
