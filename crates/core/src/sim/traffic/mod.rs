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
use crate::manifest::scenario::{RateStep, Traffic};
use crate::manifest::service::Service;

pub use super::pod_ready_intervals;
use super::{PodRun, Run};

mod arrivals;
mod engine;

pub use arrivals::ln;
use engine::Engine;

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
    /// The interceptor held the request `conditionWait` and no endpoint
    /// became ready: 502 (traffic-autoscaling.md §3.3).
    InterceptorWait,
    /// The interceptor forwarded the request and the pod's response
    /// headers did not come within `responseHeader`: 502 (§3.3).
    ResponseHeader,
}

impl Failure {
    pub const ALL: [Failure; 8] = [
        Failure::NotReady,
        Failure::Terminating,
        Failure::QueueFull,
        Failure::Timeout,
        Failure::NoEndpoints,
        Failure::Crashed,
        Failure::InterceptorWait,
        Failure::ResponseHeader,
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
            Failure::InterceptorWait => "interceptorWait",
            Failure::ResponseHeader => "responseHeader",
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
    pub failed: [u32; 8],
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
    pub failed: [u64; 8],
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
    /// The P99 target (`traffic.target`).
    pub target: Millis,
    /// kube-proxy's delay after an endpoint change.
    pub propagation: Millis,
    /// The interceptor's `(conditionWait, responseHeader)`, ms, when the
    /// Scenario puts one in front of the Service.
    pub interceptor: Option<(Millis, Millis)>,
    /// Every served request: (pod, arrival, start of its batch, answer), in
    /// µs, in order of answer; kept only with [`TrafficOptions::trace`].
    pub trace: Vec<(usize, u64, u64, u64)>,
    /// What each pod of `pods` saw, per second (same order as `pods`): what
    /// its metrics (`sim/hpa/metrics.rs`) are computed from.
    pub per_pod: Vec<PodLoad>,
}

/// One pod's load, one entry per second from 0 (like `windows`).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct PodLoad {
    /// The container serving the requests (index into the pod's containers).
    pub container: usize,
    /// Requests its server took in (queued, or refused with a full queue):
    /// what its request counter counts.
    pub received: Vec<u32>,
    /// Requests whose batch finished on it in that second, answered in
    /// time or not: the work its CPU did.
    pub completed: Vec<u32>,
    /// Requests waiting in its queue at the start of the second (not those
    /// in service): a gauge as a scrape reads it.
    pub queued: Vec<u32>,
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
    Some(u64::from(select(values, rank - 1)))
}

/// The `k`-th smallest (0-based, `k < values.len()`) of `values`,
/// reordering them: quickselect with a three-way partition around the
/// middle element, so runs of equal latencies take one pass. Written out
/// for `u32` because `select_nth_unstable` brings std's whole selection
/// and sorting machinery into the web build (docs/size.md).
fn select(values: &mut [u32], mut k: usize) -> u32 {
    let mut part = values;
    loop {
        let pivot = part[part.len() / 2];
        // [0, less) < pivot, [less, i) == pivot, [greater, len) > pivot.
        let (mut less, mut i, mut greater) = (0, 0, part.len());
        while i < greater {
            if part[i] < pivot {
                part.swap(less, i);
                less += 1;
                i += 1;
            } else if part[i] > pivot {
                greater -= 1;
                part.swap(i, greater);
            } else {
                i += 1;
            }
        }
        if k < less {
            part = &mut part[..less];
        } else if k < greater {
            return pivot;
        } else {
            k -= greater;
            part = &mut part[greater..];
        }
    }
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
    let mut engine = Engine::new(run, traffic, service, targets, seed, options);
    engine.neighbours(run, &reading.scenario);
    Some(engine.run())
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
            .filter(|&p| !selected_spans(Some(service), &run.pods[p]).is_empty())
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

/// When `service` selects `pod` by its labels over time, as `[from, to)`
/// spans (a `label` action can take it out or back in,
/// `PodRun::labels_at`; the EndpointSlice controller follows the pod's
/// labels, `pkg/controller/endpointslice`); without a Service, always.
pub(super) fn selected_spans(service: Option<&Service>, pod: &PodRun) -> Vec<(Millis, Millis)> {
    let Some(service) = service else {
        return vec![(0, Millis::MAX)];
    };
    let times: Vec<Millis> = std::iter::once(0)
        .chain(pod.label_changes.iter().map(|(at, _)| *at))
        .collect();
    let mut spans: Vec<(Millis, Millis)> = Vec::new();
    for (index, &from) in times.iter().enumerate() {
        let to = times.get(index + 1).copied().unwrap_or(Millis::MAX);
        if !service.selects(&pod.labels_at(from)) {
            continue;
        }
        match spans.last_mut() {
            Some(last) if last.1 == from => last.1 = to,
            _ => spans.push((from, to)),
        }
    }
    spans
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

#[cfg(test)]
mod tests;
