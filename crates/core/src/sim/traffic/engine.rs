//! The engine: one pass over time with the run's changes (endpoints seen
//! by kube-proxy, servers that start and stop accepting, exits), batch ends
//! and batching timers in a heap, and arrivals from the clock.

use super::arrivals::{ArrivalClock, Rng};
use super::{Failure, PodLoad, TrafficOptions, TrafficRun, Window};
use crate::manifest::duration::Millis;
use crate::manifest::scenario::{Serve, Traffic};
use crate::manifest::service::Service;
use crate::sim::{pod_ready_intervals, PodRun, Run};

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
    container: usize,
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
    /// Other servers on the same time-sliced GPU.
    sliced_with: Vec<u32>,
    /// When other containers on the same time-sliced GPU run (µs): a
    /// training job or a model nobody sends requests to computes all along.
    sliced_busy: Vec<(u64, u64)>,
}

struct Batch {
    server: u32,
    start: u64,
    /// Its requests: `members[first..first + len]`.
    first: u32,
    len: u32,
    cancelled: bool,
}

pub(super) struct Engine<'a> {
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
    /// Per server, what its pod saw each second.
    load: Vec<PodLoad>,
    /// The next second whose queue gauge is still to be read.
    next_sample: usize,
    /// The HTTP add-on's interceptor: `(conditionWait, responseHeader)` in µs.
    interceptor: Option<(u64, u64)>,
    /// Arrival times (µs) of the requests the interceptor holds while no
    /// endpoint is ready, oldest first.
    held: std::collections::VecDeque<u64>,
    /// With an interceptor: when it forwarded each request (µs), by id.
    forwarded: Vec<u64>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Timer {
    Done(u32),
    Wait(u32),
    /// The interceptor's oldest held request may have waited too long.
    Held,
}

const MICROS: u64 = 1000;

impl<'a> Engine<'a> {
    pub(super) fn new(
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
                container,
                serve: serving.program.serve.clone(),
                deleting: pod_run.deleting.map(|d| d.saturating_mul(MICROS)),
                ready: false,
                serving_terminating: false,
                accepting: false,
                queue: std::collections::VecDeque::new(),
                busy: 0,
                in_flight: Vec::new(),
                timer: None,
                sliced_with: Vec::new(),
                sliced_busy: Vec::new(),
            });
            let spans = super::selected_spans(service, pod_run);
            let timing = (publish, traffic.propagation);
            endpoint_changes(pod_run, index, timing, &spans, &mut changes);
            server_changes(pod_run, container, index, &mut changes);
        }
        crate::sort::sort_by_key(&mut changes, |(at, change)| (*at, change.order()));
        let windows = vec![Window::default(); run.end.div_ceil(1000) as usize];
        let seconds = windows.len();
        let load = servers
            .iter()
            .map(|server| PodLoad {
                container: server.container,
                received: vec![0; seconds],
                completed: vec![0; seconds],
                queued: vec![0; seconds],
            })
            .collect();
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
            load,
            next_sample: 0,
            interceptor: traffic.interceptor.as_ref().map(|i| {
                (
                    i.condition_wait.saturating_mul(MICROS),
                    i.response_header.saturating_mul(MICROS),
                )
            }),
            held: std::collections::VecDeque::new(),
            forwarded: Vec::new(),
        }
    }

    /// Reads every server's queue length at each whole second up to `now`
    /// (µs): the gauge a scrape at that second would see.
    fn sample_queues(&mut self, now: u64) {
        while self.next_sample < self.windows.len()
            && (self.next_sample as u64).saturating_mul(1_000_000) <= now
        {
            for (server, load) in self.servers.iter().zip(self.load.iter_mut()) {
                load.queued[self.next_sample] = server.queue.len() as u32;
            }
            self.next_sample += 1;
        }
    }

    /// Time-slicing neighbours (gpu-sharing.md §3): containers whose devices
    /// are on the same physical GPU of a node whose pool time-slices it.
    pub(super) fn neighbours(&mut self, run: &Run, scenario: &crate::manifest::scenario::Scenario) {
        use crate::manifest::scenario::Sharing;
        let sliced = |node: &str| {
            scenario.node_pools.iter().any(|pool| {
                matches!(pool.sharing, Sharing::TimeSlicing { .. })
                    && node
                        .strip_prefix(pool.name.as_str())
                        .and_then(|rest| rest.strip_prefix('-'))
                        .is_some_and(|index| index.bytes().all(|b| b.is_ascii_digit()))
            })
        };
        let placed = |pod: usize, container: usize| -> Option<(&str, &[usize])> {
            let pod = &run.pods[pod];
            let (node, _) = pod.node.as_ref()?;
            let gpus = &pod.containers.get(container)?.gpus;
            (!gpus.is_empty() && sliced(node)).then_some((node.as_str(), gpus.as_slice()))
        };
        let serving: Vec<(usize, usize)> =
            self.servers.iter().map(|s| (s.pod, s.container)).collect();
        for (index, &(pod, container)) in serving.iter().enumerate() {
            let Some((node, gpus)) = placed(pod, container) else {
                continue;
            };
            let shares = |other: (&str, &[usize])| {
                other.0 == node && other.1.iter().any(|g| gpus.contains(g))
            };
            for (other, &(p, c)) in serving.iter().enumerate() {
                if other != index && placed(p, c).is_some_and(shares) {
                    self.servers[index].sliced_with.push(other as u32);
                }
            }
            for (p, pod_run) in run.pods.iter().enumerate() {
                for (c, container_run) in pod_run.containers.iter().enumerate() {
                    if serving.contains(&(p, c)) || !placed(p, c).is_some_and(shares) {
                        continue;
                    }
                    for instance in &container_run.instances {
                        let end = instance
                            .exit
                            .as_ref()
                            .map_or(u64::MAX, |e| e.at.saturating_mul(MICROS));
                        self.servers[index]
                            .sliced_busy
                            .push((instance.started.saturating_mul(MICROS), end));
                    }
                }
            }
        }
    }

    /// How many tenants compute on the server's GPU at `now`, itself
    /// included: its service time is multiplied by that (podlab's
    /// approximation of the time-slice scheduler, docs/traffic.md).
    fn tenants(&self, server: u32, now: u64) -> u64 {
        let s = &self.servers[server as usize];
        let serving = s
            .sliced_with
            .iter()
            .filter(|&&other| self.servers[other as usize].busy > 0)
            .count();
        let others = s
            .sliced_busy
            .iter()
            .filter(|&&(from, to)| from <= now && now < to)
            .count();
        1 + (serving + others) as u64
    }

    pub(super) fn run(mut self) -> TrafficRun {
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
            self.sample_queues(now);
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
                        Timer::Held => self.expire_held(now),
                    }
                }
            } else {
                self.arrive(now);
                next_arrival = arrivals.next(&mut self.rng);
            }
        }
        self.sample_queues(self.end);
        self.finish();
        let capacity = self.capacity();
        TrafficRun {
            service: self.service.map(|s| s.name.clone()),
            pods: self.servers.iter().map(|s| s.pod).collect(),
            windows: self.windows,
            rate: self.traffic.rate.clone(),
            capacity,
            timeout: self.traffic.timeout,
            target: self.traffic.target,
            propagation: self.traffic.propagation,
            interceptor: self
                .traffic
                .interceptor
                .as_ref()
                .map(|i| (i.condition_wait, i.response_header)),
            trace: self.trace,
            per_pod: self.load,
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
                if ready {
                    // The interceptor forwards what it held.
                    while let Some(arrival) = self.held.pop_front() {
                        self.queued -= 1;
                        self.route(now, arrival);
                    }
                }
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
    /// client (or the interceptor) gave up before.
    fn lose(&mut self, now: u64, request: u32, cause: Failure) {
        let (deadline, given_up) = self.give_up(request);
        if deadline <= now {
            self.fail(deadline, given_up);
        } else {
            self.fail(now, cause);
        }
    }

    /// When the request fails if it has no answer by then, and how: the
    /// client's timeout, or the interceptor's `responseHeader` counted
    /// from when it forwarded the request, whichever comes first.
    fn give_up(&self, request: u32) -> (u64, Failure) {
        let client = self.client_deadline(self.arrivals[request as usize]);
        match (self.interceptor, self.forwarded.get(request as usize)) {
            (Some((_, header)), Some(&forwarded)) if forwarded.saturating_add(header) < client => {
                (forwarded.saturating_add(header), Failure::ResponseHeader)
            }
            _ => (client, Failure::Timeout),
        }
    }

    /// When the client of a request that arrived at `arrival` gives up.
    fn client_deadline(&self, arrival: u64) -> u64 {
        arrival.saturating_add(self.traffic.timeout.saturating_mul(MICROS))
    }

    fn arrive(&mut self, now: u64) {
        if let Some(window) = self.window(now) {
            window.arrived += 1;
        }
        // The interceptor holds a request while no endpoint is ready
        // (`workloadActiveEndpoints`: ready true or nil; terminating ones
        // are not ready), for `conditionWait` at most.
        if let (Some((wait, _)), true) = (self.interceptor, self.ready.is_empty()) {
            if self.held.is_empty() {
                self.schedule_held(now, wait);
            }
            self.held.push_back(now);
            self.queued += 1;
            let queued = self.queued;
            if let Some(window) = self.window(now) {
                window.queue_max = window.queue_max.max(queued);
            }
            return;
        }
        self.route(now, now);
    }

    /// The oldest held request's end (`arrival`: its arrival): the
    /// interceptor's 502 or the client's timeout, whichever comes first.
    fn held_until(&self, arrival: u64, wait: u64) -> (u64, Failure) {
        let client = self.client_deadline(arrival);
        let interceptor = arrival.saturating_add(wait);
        if interceptor < client {
            (interceptor, Failure::InterceptorWait)
        } else {
            (client, Failure::Timeout)
        }
    }

    fn schedule_held(&mut self, arrival: u64, wait: u64) {
        let (at, _) = self.held_until(arrival, wait);
        self.sequence += 1;
        self.heap
            .push(std::cmp::Reverse((at, self.sequence, Timer::Held)));
    }

    /// Fails the held requests whose wait is over (they are held in
    /// arrival order and all wait as long, so they end in that order).
    fn expire_held(&mut self, now: u64) {
        let Some((wait, _)) = self.interceptor else {
            return;
        };
        while let Some(&arrival) = self.held.front() {
            let (at, failure) = self.held_until(arrival, wait);
            if at > now {
                self.schedule_held(arrival, wait);
                return;
            }
            self.held.pop_front();
            self.queued -= 1;
            self.fail(at, failure);
        }
    }

    /// Sends a request that arrived at `arrival` through the Service at
    /// `now` (later than its arrival when the interceptor held it).
    fn route(&mut self, now: u64, arrival: u64) {
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
        let second = (now / 1_000_000) as usize;
        if let Some(received) = self.load[server as usize].received.get_mut(second) {
            *received += 1;
        }
        if s.queue.len() as i64 >= s.serve.queue_limit.value {
            self.fail(now, Failure::QueueFull);
            return;
        }
        let request = self.arrivals.len() as u32;
        self.arrivals.push(arrival);
        if self.interceptor.is_some() {
            self.forwarded.push(now);
        }
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
            let s = &self.servers[server as usize];
            if s.busy as i64 >= s.serve.concurrency.value || s.queue.is_empty() {
                return;
            }
            // A client that gave up is found when its request is picked.
            let expired = s.queue.front().copied().and_then(|head| {
                let (deadline, failure) = self.give_up(head);
                (deadline <= now).then_some((deadline, failure))
            });
            if let Some((deadline, failure)) = expired {
                self.servers[server as usize].queue.pop_front();
                self.queued -= 1;
                self.fail(deadline, failure);
                continue;
            }
            let s = &mut self.servers[server as usize];
            let Some(&head) = s.queue.front() else {
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
                return;
            }
            let size = s.queue.len().min(max_batch);
            let sliced = !s.sliced_with.is_empty() || !s.sliced_busy.is_empty();
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
            if sliced {
                service = service.saturating_mul(self.tenants(server, now));
            }
            let s = &mut self.servers[server as usize];
            let batch = self.batches.len() as u32;
            s.in_flight.push(batch);
            self.batches.push(Batch {
                server,
                start: now,
                first,
                len: size as u32,
                cancelled: false,
            });
            self.queued -= size as u32;
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
        let pod = self.servers[server as usize].pod;
        if let Some(completed) = self.load[server as usize]
            .completed
            .get_mut((now / 1_000_000) as usize)
        {
            *completed += len as u32;
        }
        for i in first..first + len {
            let request = self.members[i];
            let arrival = self.arrivals[request as usize];
            let latency = now - arrival;
            let (deadline, failure) = self.give_up(request);
            if now > deadline {
                self.fail(deadline, failure);
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
            let (deadline, failure) = self.give_up(request);
            if deadline < end {
                self.fail(deadline, failure);
            }
        }
        while let (Some(&arrival), Some((wait, _))) = (self.held.front(), self.interceptor) {
            self.held.pop_front();
            let (at, failure) = self.held_until(arrival, wait);
            if at < end {
                self.fail(at, failure);
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
/// terminating, or, with `publishNotReadyAddresses`, always while it has
/// an IP and is in the slice, terminating included
/// (`staging/src/k8s.io/endpointslice/utils.go` `podToEndpoint`: `ready :=
/// service.Spec.PublishNotReadyAddresses || (serving && !terminating)`),
/// so kube-proxy keeps routing to it as to any ready endpoint
/// (`pkg/proxy/topology.go` `CategorizeEndpoints` takes ready endpoints
/// first); `serving && terminating` = Ready while being deleted, the
/// fallback kube-proxy uses only when no endpoint is ready.
fn endpoint_changes(
    pod: &PodRun,
    server: usize,
    (publish, propagation): (bool, Millis),
    selected: &[(Millis, Millis)],
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
    // Only while the Service selects the pod (`selected_spans`).
    let ready = ready.iter().flat_map(|&(from, to)| {
        selected
            .iter()
            .map(move |&(a, b)| (from.max(a), to.min(b)))
            .filter(|(from, to)| from < to)
    });
    for (from, to) in ready {
        // Ready and not terminating (with `publishNotReadyAddresses`,
        // terminating too: it stays ready until it leaves the slice).
        let until = if publish { to } else { to.min(deleting) };
        if from < until {
            out.push((later(from), Change::Ready(server, true)));
            if until < Millis::MAX {
                out.push((later(until), Change::Ready(server, false)));
            }
        }
        // Serving while terminating.
        let from_t = from.max(deleting);
        let until_t = to.min(gone);
        if !publish && deleting < Millis::MAX && from_t < until_t {
            out.push((later(from_t), Change::ServingTerminating(server, true)));
            if until_t < Millis::MAX {
                out.push((later(until_t), Change::ServingTerminating(server, false)));
            }
        }
    }
}

/// The serving container's server: it accepts from the end of loading
/// (`startup`) until SIGTERM (after preStop, for a deleted pod) or its
/// exit, and loses what it holds when it exits.
fn server_changes(pod: &PodRun, container: usize, server: usize, out: &mut Vec<(u64, Change)>) {
    let run = &pod.containers[container];
    let sigterm = pod.deleting.map(|deleting| {
        let spec = &pod.spec.containers[container.min(pod.spec.containers.len().saturating_sub(1))];
        let grace = pod.grace_seconds().max(0);
        let pre_stop = if grace > 0 {
            crate::sim::kubelet::pre_stop_seconds(spec).min(grace)
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
