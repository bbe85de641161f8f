//! Requests through a Service to the pods of a finished [`Run`]
//! (docs/traffic.md): the Scenario's `traffic` sends them, kube-proxy picks
//! a ready endpoint at random, each replica queues them and serves them in
//! batches on `concurrency` slots. Every request is simulated; the measures
//! (counts, failures by cause, exact latency percentiles) are computed from
//! them, never estimated.
//!
//! The Kubernetes side follows `shared/reference/traffic-autoscaling.md`:
//! - an endpoint is `ready` when its pod is Ready and not terminating, and
//!   every endpoint with `publishNotReadyAddresses` (§4.1, `podToEndpoint`);
//!   a container without a readinessProbe is Ready once it runs, loaded or
//!   not (§4.2);
//! - kube-proxy sees a change `propagation` later (default 1 s, its
//!   `--iptables-min-sync-period`, §4.3) and picks a ready endpoint at random
//!   for each new connection; with none ready it falls back to endpoints
//!   that are serving and terminating, and with none of those it rejects
//!   the connection (§4.3);
//! - a deleted pod's endpoint turns not-ready at once while the kubelet runs
//!   preStop and then sends SIGTERM (§5.1, §5.2): without a preStop sleep,
//!   requests routed before the change propagates meet a server that has
//!   stopped accepting.
//!
//! The serving side is podlab's own model (§7 for the queueing facts it must
//! reproduce): a program accepts connections once it has loaded (`startup`)
//! and until SIGTERM, drains what it holds until it exits, and loses what is
//! still in it when it exits or is killed.
//!
//! The traffic does not act back on the pods (no CPU, no probe slowed by
//! load): it is a pass over the run, so adding it changes no pod event.

use crate::manifest::duration::Millis;
use crate::manifest::model::Workload;
use crate::manifest::read::Reading;
use crate::manifest::scenario::{Arrivals, RateStep, Serve, Traffic};
use crate::manifest::service::Service;

use super::{PodRun, Run};

/// Why a request failed, as the client sees it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Failure {
    /// Routed to a pod whose server does not accept yet (still loading, or
    /// restarting): connection refused; behind an ingress, a 502.
    NotReady,
    /// Routed to a pod that is shutting down, or cut when it exited.
    Terminating,
    /// The replica's queue was full: 503.
    QueueFull,
    /// No answer within the client's timeout.
    Timeout,
    /// No endpoint at all: kube-proxy rejects the connection.
    NoEndpoints,
    /// The container died (OOMKilled, killed by its liveness probe) with
    /// the request in it: the connection is reset.
    Crashed,
}

impl Failure {
    pub const ALL: [Failure; 6] = [
        Failure::NotReady,
        Failure::Terminating,
        Failure::QueueFull,
        Failure::Timeout,
        Failure::NoEndpoints,
        Failure::Crashed,
    ];

    /// The key in `podlab simulate --format json`.
    pub fn key(self) -> &'static str {
        match self {
            Failure::NotReady => "notReady",
            Failure::Terminating => "terminating",
            Failure::QueueFull => "queueFull",
            Failure::Timeout => "timeout",
            Failure::NoEndpoints => "noEndpoints",
            Failure::Crashed => "crashed",
        }
    }

    fn index(self) -> usize {
        self as usize
    }
}

/// One second of the run: what arrived in it and what ended in it.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Window {
    pub arrived: u32,
    pub served: u32,
    /// Failures by [`Failure`] (indexed as `Failure::ALL`), counted in the
    /// window where the client learnt of them.
    pub failed: [u32; 6],
    /// Latencies (µs, arrival to answer) of the requests answered in this
    /// window, in the order they were answered.
    pub latencies: Vec<u32>,
    /// The most requests waiting in all queues at once.
    pub queue_max: u32,
}

/// Counts and latency percentiles over a span of windows.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Stats {
    pub arrived: u64,
    pub served: u64,
    pub failed: [u64; 6],
    /// Nearest-rank percentiles (the ⌈p·n⌉-th smallest latency) of the
    /// requests served, in µs; `None` when none was served.
    pub p50: Option<u64>,
    pub p95: Option<u64>,
    pub p99: Option<u64>,
    pub queue_max: u32,
}

impl Stats {
    pub fn failed(&self, failure: Failure) -> u64 {
        self.failed[failure.index()]
    }

    pub fn failed_total(&self) -> u64 {
        self.failed.iter().sum()
    }
}

/// What the traffic did over a run.
#[derive(Clone, Debug, PartialEq)]
pub struct TrafficRun {
    /// The Service that received it, when the Scenario names one that the
    /// text holds.
    pub service: Option<String>,
    /// The pods it could reach (indices into `Run::pods`).
    pub pods: Vec<usize>,
    /// One window per second from 0.
    pub windows: Vec<Window>,
    /// The rate sent (requests/s × 1000) as steps: from each time on.
    pub rate: Vec<RateStep>,
    /// Requests/s × 1000 the endpoints kube-proxy routes to can serve at
    /// full batches, from each time on.
    pub capacity: Vec<(Millis, u64)>,
    /// The client's timeout.
    pub timeout: Millis,
    /// Every served request: (pod, arrival, start of its batch, answer), in
    /// µs, in order of answer; kept only with [`TrafficOptions::trace`].
    pub trace: Vec<(usize, u64, u64, u64)>,
}

impl TrafficRun {
    /// Counts and percentiles of the windows that end by `until` and start
    /// at or after `from` (ms).
    pub fn stats(&self, from: Millis, until: Millis) -> Stats {
        let first = (from / 1000) as usize;
        let last = (until.div_ceil(1000) as usize).min(self.windows.len());
        let mut stats = Stats::default();
        let mut latencies: Vec<u32> = Vec::new();
        for window in self.windows.get(first..last).unwrap_or(&[]) {
            stats.arrived += u64::from(window.arrived);
            stats.served += u64::from(window.served);
            for (total, count) in stats.failed.iter_mut().zip(window.failed) {
                *total += u64::from(count);
            }
            stats.queue_max = stats.queue_max.max(window.queue_max);
            latencies.extend_from_slice(&window.latencies);
        }
        stats.p50 = percentile(&mut latencies, 50);
        stats.p95 = percentile(&mut latencies, 95);
        stats.p99 = percentile(&mut latencies, 99);
        stats
    }

    /// The rate sent at `at`, requests/s × 1000.
    pub fn rate_at(&self, at: Millis) -> u64 {
        rate_at(&self.rate, at)
    }

    /// The capacity of the routed endpoints at `at`, requests/s × 1000.
    pub fn capacity_at(&self, at: Millis) -> u64 {
        self.capacity
            .iter()
            .take_while(|(from, _)| *from <= at)
            .last()
            .map_or(0, |(_, capacity)| *capacity)
    }
}

/// The nearest-rank percentile `p` of `values` (reordered), as µs.
pub fn percentile(values: &mut [u32], p: u64) -> Option<u64> {
    if values.is_empty() {
        return None;
    }
    let n = values.len() as u64;
    // ⌈p·n/100⌉-th smallest, 1-based.
    let rank = (p * n).div_ceil(100).clamp(1, n) as usize;
    let (_, value, _) = values.select_nth_unstable(rank - 1);
    Some(u64::from(*value))
}

/// Settings that are not the text's.
#[derive(Clone, Copy, Debug, Default)]
pub struct TrafficOptions {
    /// Keep every served request in [`TrafficRun::trace`] (tests).
    pub trace: bool,
}

/// Simulates the Scenario's traffic over `run`; `None` when the Scenario
/// sends none.
pub fn simulate_traffic(
    reading: &Reading,
    run: &Run,
    seed: u64,
    options: TrafficOptions,
) -> Option<TrafficRun> {
    let traffic = reading.scenario.traffic.as_ref()?;
    let service = traffic
        .service
        .as_ref()
        .and_then(|name| reading.services.iter().find(|s| s.name == name.value));
    let targets = targets(reading, run, traffic, service);
    Some(Engine::new(run, traffic, service, targets, seed, options).run())
}

/// The pods the traffic can reach and the container serving it in each.
fn targets(
    reading: &Reading,
    run: &Run,
    traffic: &Traffic,
    service: Option<&Service>,
) -> Vec<(usize, usize)> {
    let pods: Vec<usize> = match (service, &traffic.service) {
        (Some(service), _) => (0..run.pods.len())
            .filter(|&p| service.selects(&run.pods[p].labels))
            .collect(),
        // A Service the text does not hold: nothing answers.
        (None, Some(_)) => Vec::new(),
        (None, None) => match first_serving(&reading.workloads) {
            Some(workload) => (0..run.pods.len())
                .filter(|&p| belongs_to(&run.pods[p], workload))
                .collect(),
            None => Vec::new(),
        },
    };
    pods.into_iter()
        .map(|p| (p, serving_container(&run.pods[p], service)))
        .collect()
}

/// The first workload that serves (not a Job or CronJob).
fn first_serving(workloads: &[Workload]) -> Option<&Workload> {
    use crate::manifest::model::WorkloadKind;
    workloads
        .iter()
        .find(|w| !matches!(w.kind, WorkloadKind::Job | WorkloadKind::CronJob))
}

/// A pod of `workload`: named after it and carrying its template's labels.
fn belongs_to(pod: &PodRun, workload: &Workload) -> bool {
    pod.name.starts_with(&workload.name)
        && workload
            .pod_labels
            .iter()
            .all(|label| pod.labels.contains(label))
}

/// The container the Service's first port targets (by number or name);
/// else the first (`Service::serving_container`, which lint reads too).
fn serving_container(pod: &PodRun, service: Option<&Service>) -> usize {
    service
        .map_or(0, |service| service.serving_container(&pod.spec))
        .min(pod.containers.len().saturating_sub(1))
}

/// The rate at `at` (requests/s × 1000): the step in force, or on a ramp
/// the straight line to the next step.
fn rate_at(steps: &[RateStep], at: Millis) -> u64 {
    let Some(i) = steps.iter().rposition(|step| step.at <= at) else {
        return 0;
    };
    let step = &steps[i];
    match steps.get(i + 1) {
        Some(next) if step.ramp && next.at > step.at => {
            let span = (next.at - step.at) as f64;
            let t = (at - step.at) as f64 / span;
            let rate = step.milli_rps as f64 + (next.milli_rps as f64 - step.milli_rps as f64) * t;
            rate.max(0.0) as u64
        }
        _ => step.milli_rps,
    }
}

// ---- the engine ---------------------------------------------------------------

/// SplitMix64, seeded from the run's seed: the traffic's own stream, so
/// sending traffic changes nothing else of the run.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// Uniform in (0, 1].
    fn unit(&mut self) -> f64 {
        ((self.next() >> 11) + 1) as f64 * (1.0 / (1u64 << 53) as f64)
    }

    /// An exponential draw of mean 1.
    fn exponential(&mut self) -> f64 {
        -ln(self.unit())
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

/// The natural logarithm from `+ − × ÷` only, so native and wasm agree to
/// the bit (libm's `ln` differs between platforms in the last place):
/// x = m·2ᵉ with m in [√½, √2), ln m = 2·atanh((m−1)/(m+1)) by its series.
pub fn ln(x: f64) -> f64 {
    if x <= 0.0 || x.is_nan() {
        return f64::NEG_INFINITY;
    }
    if x.is_infinite() {
        return x;
    }
    let mut bits = x.to_bits();
    let mut exponent = ((bits >> 52) & 0x7ff) as i64;
    if exponent == 0 {
        // Subnormal: scale up by 2⁵⁴ first.
        bits = (x * (1u64 << 54) as f64).to_bits();
        exponent = ((bits >> 52) & 0x7ff) as i64 - 54;
    }
    let mut e = exponent - 1023;
    let mut m = f64::from_bits((bits & 0x000f_ffff_ffff_ffff) | 0x3ff0_0000_0000_0000);
    if m > std::f64::consts::SQRT_2 {
        m /= 2.0;
        e += 1;
    }
    let s = (m - 1.0) / (m + 1.0);
    let s2 = s * s;
    let mut term = s;
    let mut sum = 0.0;
    let mut k = 1.0;
    // |s| ≤ 0.172: 14 terms reach 1e-17.
    for _ in 0..14 {
        sum += term / k;
        term *= s2;
        k += 2.0;
    }
    2.0 * sum + e as f64 * std::f64::consts::LN_2
}

/// A change the engine applies at its time (ms precision, from the run).
#[derive(Clone, Copy, Debug)]
enum Change {
    /// kube-proxy now routes to the endpoint as ready (or not).
    Ready(usize, bool),
    /// kube-proxy now sees the endpoint as serving and terminating (or not).
    ServingTerminating(usize, bool),
    /// The server accepts connections.
    Listen(usize),
    /// SIGTERM: the server stops accepting and drains.
    StopAccepting(usize),
    /// The container exited: whatever it holds fails.
    Exit(usize),
}

impl Change {
    /// At one instant: exits first, then what opens.
    fn order(&self) -> u8 {
        match self {
            Change::Exit(_) => 0,
            Change::StopAccepting(_) => 1,
            Change::Ready(_, false) | Change::ServingTerminating(_, false) => 2,
            Change::Listen(_) => 3,
            Change::Ready(_, true) | Change::ServingTerminating(_, true) => 4,
        }
    }
}

struct Server {
    pod: usize,
    serve: Serve,
    /// The pod was being deleted from this time.
    deleting: Option<u64>,
    ready: bool,
    serving_terminating: bool,
    accepting: bool,
    /// Requests waiting, by id.
    queue: std::collections::VecDeque<u32>,
    busy: u32,
    /// Batches in service (ids).
    in_flight: Vec<u32>,
    /// A maxWait timer is pending at this time.
    timer: Option<u64>,
}

struct Batch {
    server: u32,
    start: u64,
    /// Its requests: `members[first..first + len]`.
    first: u32,
    len: u32,
    cancelled: bool,
}

struct Engine<'a> {
    traffic: &'a Traffic,
    service: Option<&'a Service>,
    rng: Rng,
    servers: Vec<Server>,
    changes: Vec<(u64, Change)>,
    /// Arrival time (µs) of each request, by id.
    arrivals: Vec<u64>,
    batches: Vec<Batch>,
    members: Vec<u32>,
    /// (time µs, sequence, what): batch ends and batching timers.
    heap: std::collections::BinaryHeap<std::cmp::Reverse<(u64, u64, Timer)>>,
    sequence: u64,
    windows: Vec<Window>,
    queued: u32,
    ready: Vec<u32>,
    serving_terminating: Vec<u32>,
    end: u64,
    options: TrafficOptions,
    trace: Vec<(usize, u64, u64, u64)>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Timer {
    Done(u32),
    Wait(u32),
}

const MICROS: u64 = 1000;

impl<'a> Engine<'a> {
    fn new(
        run: &'a Run,
        traffic: &'a Traffic,
        service: Option<&'a Service>,
        targets: Vec<(usize, usize)>,
        seed: u64,
        options: TrafficOptions,
    ) -> Engine<'a> {
        let end = run.end.saturating_mul(MICROS);
        let publish = service.is_some_and(|s| s.publish_not_ready_addresses);
        let mut servers = Vec::new();
        let mut changes = Vec::new();
        for (s, &(pod, container)) in targets.iter().enumerate() {
            let pod_run = &run.pods[pod];
            let Some(serving) = pod_run.containers.get(container) else {
                continue;
            };
            let index = servers.len();
            debug_assert_eq!(index, s.min(index));
            servers.push(Server {
                pod,
                serve: serving.program.serve.clone(),
                deleting: pod_run.deleting.map(|d| d.saturating_mul(MICROS)),
                ready: false,
                serving_terminating: false,
                accepting: false,
                queue: std::collections::VecDeque::new(),
                busy: 0,
                in_flight: Vec::new(),
                timer: None,
            });
            endpoint_changes(pod_run, index, publish, traffic.propagation, &mut changes);
            server_changes(pod_run, container, index, &mut changes);
        }
        crate::sort::sort_by_key(&mut changes, |(at, change)| (*at, change.order()));
        let windows = vec![Window::default(); run.end.div_ceil(1000) as usize];
        Engine {
            traffic,
            service,
            rng: Rng(seed ^ 0x7472_6166_6669_6321),
            servers,
            changes,
            arrivals: Vec::new(),
            batches: Vec::new(),
            members: Vec::new(),
            heap: std::collections::BinaryHeap::new(),
            sequence: 0,
            windows,
            queued: 0,
            ready: Vec::new(),
            serving_terminating: Vec::new(),
            end,
            options,
            trace: Vec::new(),
        }
    }

    fn run(mut self) -> TrafficRun {
        let mut arrivals = ArrivalClock::new(&self.traffic.rate, self.traffic.arrivals, self.end);
        let mut next_arrival = arrivals.next(&mut self.rng);
        let mut change = 0;
        loop {
            let change_at = self.changes.get(change).map(|(at, _)| *at);
            let timer_at = self.heap.peek().map(|std::cmp::Reverse((at, _, _))| *at);
            // Changes first, then timers, then arrivals at one instant.
            let next = [change_at, timer_at, next_arrival]
                .into_iter()
                .flatten()
                .min();
            let Some(now) = next.filter(|&now| now < self.end) else {
                break;
            };
            if change_at == Some(now) {
                let (_, what) = self.changes[change];
                change += 1;
                self.apply(now, what);
            } else if timer_at == Some(now) {
                if let Some(std::cmp::Reverse((_, _, timer))) = self.heap.pop() {
                    match timer {
                        Timer::Done(batch) => self.done(now, batch),
                        Timer::Wait(server) => {
                            self.servers[server as usize].timer = None;
                            self.dispatch(now, server);
                        }
                    }
                }
            } else {
                self.arrive(now);
                next_arrival = arrivals.next(&mut self.rng);
            }
        }
        self.finish();
        let capacity = self.capacity();
        TrafficRun {
            service: self.service.map(|s| s.name.clone()),
            pods: self.servers.iter().map(|s| s.pod).collect(),
            windows: self.windows,
            rate: self.traffic.rate.clone(),
            capacity,
            timeout: self.traffic.timeout,
            trace: self.trace,
        }
    }

    /// The capacity of the endpoints kube-proxy routes to, as steps.
    fn capacity(&self) -> Vec<(Millis, u64)> {
        let mut steps: Vec<(Millis, u64)> = vec![(0, 0)];
        let mut ready = vec![false; self.servers.len()];
        for &(at, change) in &self.changes {
            if let Change::Ready(server, is) = change {
                ready[server] = is;
                let total = ready
                    .iter()
                    .zip(&self.servers)
                    .filter(|(r, _)| **r)
                    .map(|(_, s)| s.serve.capacity_milli_rps())
                    .sum();
                let at = at / MICROS;
                match steps.last_mut() {
                    Some(last) if last.0 == at => last.1 = total,
                    _ => steps.push((at, total)),
                }
            }
        }
        steps
    }

    fn window(&mut self, at: u64) -> Option<&mut Window> {
        self.windows.get_mut((at / 1_000_000) as usize)
    }

    fn fail(&mut self, at: u64, failure: Failure) {
        if let Some(window) = self.window(at) {
            window.failed[failure.index()] += 1;
        }
    }

    fn apply(&mut self, now: u64, change: Change) {
        match change {
            Change::Ready(server, ready) => {
                self.servers[server].ready = ready;
                set_member(&mut self.ready, server as u32, ready);
            }
            Change::ServingTerminating(server, is) => {
                self.servers[server].serving_terminating = is;
                set_member(&mut self.serving_terminating, server as u32, is);
            }
            Change::Listen(server) => self.servers[server].accepting = true,
            Change::StopAccepting(server) => self.servers[server].accepting = false,
            Change::Exit(server) => {
                let s = &mut self.servers[server];
                s.accepting = false;
                let cause = if s.deleting.is_some_and(|d| d <= now) {
                    Failure::Terminating
                } else {
                    Failure::Crashed
                };
                let queued: Vec<u32> = s.queue.drain(..).collect();
                let in_flight = std::mem::take(&mut s.in_flight);
                s.busy = 0;
                self.queued -= queued.len() as u32;
                for request in queued {
                    self.lose(now, request, cause);
                }
                for batch in in_flight {
                    self.batches[batch as usize].cancelled = true;
                    let (first, len) = {
                        let b = &self.batches[batch as usize];
                        (b.first as usize, b.len as usize)
                    };
                    for i in first..first + len {
                        let request = self.members[i];
                        self.lose(now, request, cause);
                    }
                }
            }
        }
    }

    /// A request ends without an answer at `now`: timed out already if the
    /// client gave up before.
    fn lose(&mut self, now: u64, request: u32, cause: Failure) {
        let deadline = self.deadline(request);
        if deadline <= now {
            self.fail(deadline, Failure::Timeout);
        } else {
            self.fail(now, cause);
        }
    }

    fn deadline(&self, request: u32) -> u64 {
        self.arrivals[request as usize].saturating_add(self.traffic.timeout.saturating_mul(MICROS))
    }

    fn arrive(&mut self, now: u64) {
        if let Some(window) = self.window(now) {
            window.arrived += 1;
        }
        // kube-proxy: a random ready endpoint, else a serving-terminating one.
        let pool = if !self.ready.is_empty() {
            &self.ready
        } else {
            &self.serving_terminating
        };
        if pool.is_empty() {
            self.fail(now, Failure::NoEndpoints);
            return;
        }
        let server = pool[self.rng.below(pool.len())];
        let s = &self.servers[server as usize];
        if !s.accepting {
            let failure = if s.deleting.is_some_and(|d| d <= now) {
                Failure::Terminating
            } else {
                Failure::NotReady
            };
            self.fail(now, failure);
            return;
        }
        if s.queue.len() as i64 >= s.serve.queue_limit.value {
            self.fail(now, Failure::QueueFull);
            return;
        }
        let request = self.arrivals.len() as u32;
        self.arrivals.push(now);
        self.servers[server as usize].queue.push_back(request);
        self.queued += 1;
        let queued = self.queued;
        if let Some(window) = self.window(now) {
            window.queue_max = window.queue_max.max(queued);
        }
        self.dispatch(now, server);
    }

    /// Starts batches on free slots of `server`.
    fn dispatch(&mut self, now: u64, server: u32) {
        loop {
            let timeout = self.traffic.timeout.saturating_mul(MICROS);
            let s = &mut self.servers[server as usize];
            if s.busy as i64 >= s.serve.concurrency.value || s.queue.is_empty() {
                return;
            }
            // A client that gave up is found when its request is picked.
            let mut dropped = Vec::new();
            while let Some(&head) = s.queue.front() {
                if self.arrivals[head as usize].saturating_add(timeout) <= now {
                    s.queue.pop_front();
                    dropped.push(head);
                } else {
                    break;
                }
            }
            let Some(&head) = s.queue.front() else {
                self.queued -= dropped.len() as u32;
                for request in dropped {
                    let deadline = self.deadline(request);
                    self.fail(deadline, Failure::Timeout);
                }
                return;
            };
            let max_batch = s.serve.max_batch.value.max(1) as usize;
            let wait_until = self.arrivals[head as usize]
                .saturating_add(s.serve.max_wait.value.saturating_mul(MICROS));
            if s.queue.len() < max_batch && now < wait_until {
                // Dynamic batching: wait for more, at most `maxWait`.
                if s.timer.is_none() {
                    s.timer = Some(wait_until);
                    self.sequence += 1;
                    self.heap.push(std::cmp::Reverse((
                        wait_until,
                        self.sequence,
                        Timer::Wait(server),
                    )));
                }
                self.queued -= dropped.len() as u32;
                for request in dropped {
                    let deadline = self.deadline(request);
                    self.fail(deadline, Failure::Timeout);
                }
                return;
            }
            let size = s.queue.len().min(max_batch);
            let first = self.members.len() as u32;
            for _ in 0..size {
                if let Some(request) = s.queue.pop_front() {
                    self.members.push(request);
                }
            }
            s.busy += 1;
            let mut service = s.serve.batch_micros(size as u64);
            if s.serve.exponential {
                service = (service as f64 * self.rng.exponential()) as u64;
            }
            let batch = self.batches.len() as u32;
            s.in_flight.push(batch);
            self.batches.push(Batch {
                server,
                start: now,
                first,
                len: size as u32,
                cancelled: false,
            });
            self.queued -= (size + dropped.len()) as u32;
            for request in dropped {
                let deadline = self.deadline(request);
                self.fail(deadline, Failure::Timeout);
            }
            self.sequence += 1;
            self.heap.push(std::cmp::Reverse((
                now.saturating_add(service),
                self.sequence,
                Timer::Done(batch),
            )));
        }
    }

    fn done(&mut self, now: u64, batch: u32) {
        let (server, first, len, cancelled, start) = {
            let b = &self.batches[batch as usize];
            (
                b.server,
                b.first as usize,
                b.len as usize,
                b.cancelled,
                b.start,
            )
        };
        if cancelled {
            return;
        }
        {
            let s = &mut self.servers[server as usize];
            s.busy -= 1;
            if let Some(i) = s.in_flight.iter().position(|&b| b == batch) {
                s.in_flight.swap_remove(i);
            }
        }
        let timeout = self.traffic.timeout.saturating_mul(MICROS);
        let pod = self.servers[server as usize].pod;
        for i in first..first + len {
            let request = self.members[i];
            let arrival = self.arrivals[request as usize];
            let latency = now - arrival;
            if latency > timeout {
                self.fail(arrival + timeout, Failure::Timeout);
                continue;
            }
            if let Some(window) = self.window(now) {
                window.served += 1;
                window
                    .latencies
                    .push(latency.min(u64::from(u32::MAX)) as u32);
            }
            if self.options.trace {
                self.trace.push((pod, arrival, start, now));
            }
        }
        self.dispatch(now, server);
    }

    /// The run ends: a request still waiting whose client's timeout has
    /// passed by then failed; the others are still in flight.
    fn finish(&mut self) {
        let end = self.end;
        let mut late = Vec::new();
        for s in &self.servers {
            late.extend(s.queue.iter().copied());
            for &batch in &s.in_flight {
                let b = &self.batches[batch as usize];
                late.extend(&self.members[b.first as usize..(b.first + b.len) as usize]);
            }
        }
        for request in late {
            let deadline = self.deadline(request);
            if deadline < end {
                self.fail(deadline, Failure::Timeout);
            }
        }
    }
}

fn set_member(set: &mut Vec<u32>, server: u32, member: bool) {
    let at = set.iter().position(|&s| s == server);
    match (at, member) {
        (None, true) => set.push(server),
        (Some(i), false) => {
            set.remove(i);
        }
        _ => {}
    }
}

/// The endpoint's conditions over the run, as kube-proxy sees them
/// `propagation` later (§4.1, §4.3): `ready` = the pod is Ready and not
/// terminating (or `publishNotReadyAddresses` while it has an IP),
/// `serving && terminating` = Ready while being deleted.
fn endpoint_changes(
    pod: &PodRun,
    server: usize,
    publish: bool,
    propagation: Millis,
    out: &mut Vec<(u64, Change)>,
) {
    let later = |at: Millis| at.saturating_add(propagation).saturating_mul(MICROS);
    let deleting = pod.deleting.unwrap_or(Millis::MAX);
    let gone = pod.deleted.unwrap_or(Millis::MAX);
    let ready = if publish {
        match pod.sandbox {
            Some(from) if from < gone => vec![(from, gone)],
            _ => Vec::new(),
        }
    } else {
        pod_ready_intervals(pod)
    };
    for &(from, to) in &ready {
        // Ready and not terminating.
        let until = to.min(deleting);
        if from < until {
            out.push((later(from), Change::Ready(server, true)));
            if until < Millis::MAX {
                out.push((later(until), Change::Ready(server, false)));
            }
        }
        // Serving while terminating.
        let from_t = from.max(deleting);
        let until_t = to.min(gone);
        if deleting < Millis::MAX && from_t < until_t {
            out.push((later(from_t), Change::ServingTerminating(server, true)));
            if until_t < Millis::MAX {
                out.push((later(until_t), Change::ServingTerminating(server, false)));
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

/// The serving container's server: it accepts from the end of loading
/// (`startup`) until SIGTERM (after preStop, for a deleted pod) or its
/// exit, and loses what it holds when it exits.
fn server_changes(pod: &PodRun, container: usize, server: usize, out: &mut Vec<(u64, Change)>) {
    let run = &pod.containers[container];
    let sigterm = pod.deleting.map(|deleting| {
        let spec = &pod.spec.containers[container.min(pod.spec.containers.len().saturating_sub(1))];
        let grace = pod.spec.termination_grace_period_seconds.value.max(0);
        let pre_stop = if grace > 0 {
            super::kubelet::pre_stop_seconds(spec).min(grace)
        } else {
            0
        };
        deleting.saturating_add((pre_stop as Millis).saturating_mul(1000))
    });
    for instance in &run.instances {
        let loaded = instance.started.saturating_add(run.program.startup.value);
        let exit = instance.exit.as_ref().map_or(Millis::MAX, |exit| exit.at);
        let stop = sigterm
            .filter(|&at| at >= instance.started)
            .unwrap_or(Millis::MAX)
            .min(exit);
        if loaded < stop {
            out.push((loaded * MICROS, Change::Listen(server)));
            if stop < exit {
                out.push((stop * MICROS, Change::StopAccepting(server)));
            }
        }
        if exit < Millis::MAX {
            out.push((exit * MICROS, Change::Exit(server)));
        }
    }
}

/// Arrival times: Λ(t), the requests expected by t, is inverted at
/// successive targets — exponential gaps of mean 1 (Poisson) or gaps of 1
/// (uniform).
struct ArrivalClock<'a> {
    steps: &'a [RateStep],
    arrivals: Arrivals,
    end: u64,
    /// The segment the last arrival fell in, and Λ at its start.
    segment: usize,
    base: f64,
    target: f64,
}

impl<'a> ArrivalClock<'a> {
    fn new(steps: &'a [RateStep], arrivals: Arrivals, end: u64) -> ArrivalClock<'a> {
        ArrivalClock {
            steps,
            arrivals,
            end,
            segment: 0,
            base: 0.0,
            target: 0.0,
        }
    }

    /// Segment i: from `steps[i].at` to the next step (or the end), in s,
    /// with its rates at both ends (per s).
    fn segment(&self, i: usize) -> (f64, f64, f64, f64) {
        let step = &self.steps[i];
        let start = step.at as f64 / 1000.0;
        let end = self
            .steps
            .get(i + 1)
            .map_or(self.end as f64 / 1_000_000.0, |next| {
                next.at as f64 / 1000.0
            });
        let r0 = step.milli_rps as f64 / 1000.0;
        let r1 = match self.steps.get(i + 1) {
            Some(next) if step.ramp => next.milli_rps as f64 / 1000.0,
            _ => r0,
        };
        (start, end.max(start), r0, r1)
    }

    /// The next arrival in µs, or `None` past the end.
    fn next(&mut self, rng: &mut Rng) -> Option<u64> {
        self.target += match self.arrivals {
            Arrivals::Poisson => rng.exponential(),
            Arrivals::Uniform => 1.0,
        };
        while self.segment < self.steps.len() {
            let (start, end, r0, r1) = self.segment(self.segment);
            let length = end - start;
            let total = (r0 + r1) / 2.0 * length;
            let wanted = self.target - self.base;
            if wanted <= total && total > 0.0 {
                // Solve r0·τ + (r1 − r0)·τ²/(2·length) = wanted for τ.
                let tau = if (r1 - r0).abs() < 1e-12 || length <= 0.0 {
                    wanted / r0
                } else {
                    let a = (r1 - r0) / (2.0 * length);
                    // τ = (−r0 + √(r0² + 4a·wanted)) / 2a, written to avoid
                    // cancellation: 2·wanted / (r0 + √(r0² + 4a·wanted)).
                    let root = (r0 * r0 + 4.0 * a * wanted).max(0.0).sqrt();
                    2.0 * wanted / (r0 + root)
                };
                let at = ((start + tau) * 1_000_000.0) as u64;
                return (at < self.end).then_some(at);
            }
            self.base += total;
            self.segment += 1;
        }
        None
    }
}

#[cfg(test)]
mod tests;
