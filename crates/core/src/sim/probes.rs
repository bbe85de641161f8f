//! The probe workers (kubelet.md §1, §2): one ticker per probe on its
//! period grid, the call that blocks a worker for the answer's latency,
//! the count of consecutive results and what a result changes (Started,
//! Ready, a kill); the program model's answers and the kubelet's failure
//! texts. Part of the engine of `kubelet.rs`.

use super::*;

impl<'a> Sim<'a> {
    /// Started: readiness gets a manual trigger right away and its grid moves
    /// there (§1, PR #119089); without a readiness probe the container is
    /// Ready now (§5).
    pub(super) fn became_started(&mut self, pod: usize, c: usize, has_readiness: bool) {
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
        self.container_seen(pod, c);
        self.pod_recount(pod);
        self.init_started(pod, c);
        if !has_readiness {
            self.pod_ready_changed(pod);
        }
        let workers = self.pods[pod].containers[c].probes.clone();
        if let Some(w) = workers
            .into_iter()
            .find(|&w| self.workers[w].kind == ProbeKind::Readiness)
        {
            self.workers[w].next_tick = now;
            self.workers[w].manual = true;
            self.push(now, Ev::Tick(w));
        }
    }

    /// A worker's ticker fires (§1): the next tick is one period later; a
    /// worker still blocked in its call keeps the tick for when it returns.
    pub(super) fn tick(&mut self, w: usize) {
        let now = self.now;
        let probe = &self.workers[w];
        let period = probe.period;
        if now != probe.next_tick {
            return;
        }
        if probe.on_hold && probe.kind == ProbeKind::Startup && self.parks(w) {
            self.workers[w].parked = true;
            return;
        }
        self.push(now + period, Ev::Tick(w));
        let probe = &mut self.workers[w];
        probe.next_tick = now + period;
        if let Some((at, seq, queued)) = probe.counted {
            // Still in flight: its return comes after this tick in the
            // queue's order, so it takes the tick and is queued now, in
            // the place it would have had.
            if at > now || (at == now && seq > self.queue.popped()) {
                probe.pending = true;
                if !queued {
                    probe.counted = Some((at, seq, true));
                    if at <= self.until {
                        self.queue.push_reserved(at, seq, Ev::ProbeDone(w));
                    }
                }
                return;
            }
            probe.counted = None;
        }
        if probe.in_flight.is_some() {
            probe.pending = true;
            return;
        }
        self.do_probe(w);
    }

    /// Whether startup worker `w`, on hold, stops queueing its ticks. Held,
    /// it ticks every period for its container's life and each tick returns
    /// at once (`worker.go` `doProbe`: `onHold`, then Started); only a new
    /// instance (`create`) releases it, and its next tick must then come in
    /// the exact place the ticker's would have had among the occurrences of
    /// that millisecond, which a parked worker no longer knows. So it parks
    /// only when its container looks set to run for good (no exit of its
    /// own, listening, a liveness probe that can only succeed); if a new
    /// instance comes anyway (`Sim::diverged`), the run is simulated again
    /// without parking (`engine`), never a different run.
    fn parks(&self, w: usize) -> bool {
        let worker = &self.workers[w];
        let container = &self.pods[worker.pod].containers[worker.c];
        let program = &container.program;
        let listening = worker.seen.running
            && worker
                .seen
                .started
                .is_some_and(|started| self.now >= started + worker.startup);
        match self.park {
            Park::Never => return false,
            #[cfg(test)]
            Park::Always => return true,
            Park::Steady => {}
        }
        listening
            && program.exit.is_none()
            && program.run_for.is_none()
            && container.probes.clone().all(|l| {
                self.workers[l].kind != ProbeKind::Liveness
                    || matches!(self.answer(l, true).0, Outcome::Success)
            })
    }

    /// `doProbe` (§1): the checks on the status it reads now, then the call.
    /// The call blocks the worker for the answer's latency; its result (the
    /// `Unhealthy` event, the count, a kill, Started, Ready) comes when it
    /// returns (`prober.go` `probe` records the event after
    /// `runProbeWithRetries` returns; `worker.go` counts after it).
    fn do_probe(&mut self, w: usize) {
        let now = self.now;
        debug_assert_eq!(
            self.workers[w].seen,
            self.seen_of(self.workers[w].pod, self.workers[w].c),
            "what probe worker {w} sees of its container"
        );
        let probe = &mut self.workers[w];
        let Seen {
            running,
            started_ok,
            started_written,
            instances,
            started: started_at,
        } = probe.seen;
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
        let (outcome, latency) = self.probe(w);
        let instance = instances - 1;
        if latency == 0 {
            self.probe_returned(w, instance, outcome);
        } else if self.shortcuts
            && matches!(outcome, Outcome::Success)
            && kind != ProbeKind::Startup
            && self.workers[w].cached == Some(true)
        {
            // `probe_returned` of this success will only count it, whether
            // or not the instance still runs then: its cached result stays
            // success (only this worker's returns and a new instance change
            // it), and nothing reads the count before the return. So it is
            // counted now and the return is not queued (`tick` queues it
            // if a tick comes meanwhile).
            let seq = self.queue.reserve();
            let probe = &mut self.workers[w];
            probe.run = if probe.last == Some(true) {
                probe.run + 1
            } else {
                1
            };
            probe.last = Some(true);
            probe.counted = Some((now + latency, seq, false));
        } else {
            self.workers[w].in_flight = Some((instance, outcome));
            self.push(now + latency, Ev::ProbeDone(w));
        }
    }

    /// The call returns; a tick that came meanwhile runs the next probe now.
    pub(super) fn probe_done(&mut self, w: usize) {
        if let Some((_, _, true)) = self.workers[w].counted {
            // Counted when it began; queued for the tick that waits.
            self.workers[w].counted = None;
            if std::mem::take(&mut self.workers[w].pending) {
                self.do_probe(w);
            }
            return;
        }
        let Some((instance, outcome)) = self.workers[w].in_flight.take() else {
            return;
        };
        self.probe_returned(w, instance, outcome);
        if std::mem::take(&mut self.workers[w].pending) {
            self.do_probe(w);
        }
    }

    /// What the worker does with a returned result (§1 "Counting", §2).
    fn probe_returned(&mut self, w: usize, instance: usize, outcome: Outcome) {
        let now = self.now;
        let ProbeSim {
            pod, c, p, kind, ..
        } = self.workers[w];
        let title = kind.title();
        let success = match outcome {
            Outcome::Success => true,
            Outcome::Failure(failure) => {
                let message = self.shared_text(pod, c, TextKey::Unhealthy(p, failure), |sim| {
                    format!("{title} probe failed: {}", sim.failure_output(w, failure))
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
        // The probed instance may have ended while the call was in flight:
        // the result is set for its container ID and changes nothing the
        // kubelet acts on for a new one.
        debug_assert_eq!(self.workers[w].seen, self.seen_of(pod, c));
        let container = &mut self.pods[pod].containers[c];
        let probe = &mut self.workers[w];
        let current = probe.seen.running && probe.seen.instances == instance + 1;
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
                self.pod_recount(pod);
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
                self.container_seen(pod, c);
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
    fn probe(&mut self, w: usize) -> (Outcome, Millis) {
        let worker = &self.workers[w];
        let listening = worker
            .seen
            .started
            .is_some_and(|started| self.now >= started + worker.startup);
        if let Some(answer) = &worker.answers[usize::from(listening)] {
            return answer.clone();
        }
        let answer = self.answer(w, listening);
        self.workers[w].answers[usize::from(listening)] = Some(answer.clone());
        answer
    }

    /// `probe`'s answer, worked out: whether the program listens, the
    /// probe's port and path, the program's port, path and latency.
    fn answer(&self, w: usize, listening: bool) -> (Outcome, Millis) {
        let worker = &self.workers[w];
        let container = &self.pods[worker.pod].containers[worker.c];
        let probe = worker.probe;
        let program = &container.program;
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
    fn failure_output(&self, w: usize, failure: Failure) -> String {
        let pod_sim = &self.pods[self.workers[w].pod];
        let probe = self.workers[w].probe;
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
}

/// What a probe worker reads of its container's status on each call,
/// kept in each worker (`ProbeSim::seen`) so a call reads no container:
/// written by `Sim::container_seen` wherever one of these changes (a new
/// instance, its exit, Started and its write), checked against the
/// container in debug builds.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(super) struct Seen {
    running: bool,
    started_ok: bool,
    started_written: Option<Millis>,
    /// How many instances it has had, and the newest one's start.
    instances: usize,
    started: Option<Millis>,
}

impl<'a> Sim<'a> {
    /// What container `c` of `pod` shows its probe workers now.
    pub(super) fn seen_of(&self, pod: usize, c: usize) -> Seen {
        let container = &self.pods[pod].containers[c];
        Seen {
            running: container.running,
            started_ok: container.started_ok,
            started_written: container.started_written,
            instances: container.run.instances.len(),
            started: container.run.instances.last().map(|i| i.started),
        }
    }

    /// Container `c` of `pod` changed what its workers see: they see it.
    pub(super) fn container_seen(&mut self, pod: usize, c: usize) {
        let seen = self.seen_of(pod, c);
        for w in self.pods[pod].containers[c].probes.clone() {
            self.workers[w].seen = seen;
        }
    }
}

#[derive(Clone)]
pub(super) enum Outcome {
    Success,
    /// What failed; its text (`Sim::failure_output`) is written once per
    /// container and shared by every `Unhealthy` event that repeats it.
    Failure(Failure),
    /// A Go error: not counted (§2).
    Error(String),
}

/// A probe's failure, with the port it called (`Sim::probe`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Failure {
    HttpRefused(i64),
    HttpTimeout(i64),
    HttpStatus404,
    TcpRefused(i64),
    GrpcTimeout,
    GrpcRefused(i64),
    Exec,
}
