//! The controllers (Job, CronJob, DaemonSet, StatefulSet OrderedReady), the
//! scheduler's queue and pod deletion, on the engine of `kubelet.rs`. Every
//! behaviour cites `shared/reference/scheduler-controllers.md` (§n).

use super::*;

/// Controllers and the scheduler queue (scheduler-controllers.md §3, §7-§9).
impl<'a> Sim<'a> {
    /// A controller event on `Kind/name`.
    pub(super) fn object_event(
        &mut self,
        object: impl Into<Arc<str>>,
        warning: bool,
        reason: &'static str,
        message: impl Into<Arc<str>>,
        source: &'static str,
    ) {
        self.events.push(Event {
            at: self.now,
            object: object.into(),
            field_path: None,
            warning,
            reason,
            message: message.into(),
            source,
        });
    }

    /// A pod object appears now; the scheduler tries it at once.
    pub(super) fn create_pod(
        &mut self,
        workload: &'a Workload,
        name: String,
        owner: Owner,
        template_hash: Option<String>,
        pin: Option<usize>,
    ) -> usize {
        let now = self.now;
        let scenario = self.scenario;
        let first_sync = self.timing.first_sync;
        let app = workload.pod.containers.len();
        let index = self.pods.len();
        let mut containers: Vec<ContainerSim<'a>> = workload
            .pod
            .containers
            .iter()
            .chain(&workload.pod.init_containers)
            .enumerate()
            .map(|(c, container)| (container, program_for(scenario, container, c >= app)))
            .map(|(container, program)| ContainerSim {
                spec: container,
                program: program.clone(),
                probes: 0..0,
                field_path: None,
                texts: Vec::new(),
                running: false,
                started_ok: false,
                started_written: None,
                backoff: None,
                pull_backoff: None,
                pull_error: String::new(),
                devices: Vec::new(),
                run: ContainerRun {
                    name: container.name.clone(),
                    instances: Vec::new(),
                    back_offs: Vec::new(),
                    waiting: Vec::new(),
                    program,
                    gpus: Vec::new(),
                    shm_charged: crate::sim::shm::charged(
                        crate::sim::shm::dev_shm(&workload.pod, container),
                        &scenario.program(container),
                    ),
                },
            })
            .collect();
        for (c, container) in containers.iter_mut().enumerate() {
            let spec = container.spec;
            let start = self.workers.len();
            for (p, probe) in [&spec.startup, &spec.liveness, &spec.readiness]
                .into_iter()
                .flatten()
                .enumerate()
            {
                self.workers.push(ProbeSim {
                    probe,
                    pod: index,
                    c,
                    p,
                    kind: probe.kind,
                    period: (probe.period_seconds.value.max(1) as Millis) * 1000,
                    startup: container.program.startup.value,
                    seen: Seen::default(),
                    last: None,
                    run: 0,
                    cached: None,
                    on_hold: false,
                    next_tick: now + first_sync,
                    in_flight: None,
                    pending: false,
                    manual: false,
                    counted: None,
                    answers: [None, None],
                    parked: false,
                });
            }
            container.probes = start..self.workers.len();
        }
        let owner_text = match owner {
            Owner::Job(job) => format!("Job/{}", self.jobs[job].run.name),
            _ => format!("{}/{}", workload.kind.as_str(), workload.name),
        };
        let mut labels = workload.pod_labels.clone();
        if let Owner::Job(job) = owner {
            // The Job's selector labels (API defaulting and the Job
            // controller, v1.27+), legacy and prefixed.
            let (name, uid) = (&self.jobs[job].run.name, &self.jobs[job].uid);
            for (key, value) in [
                ("batch.kubernetes.io/controller-uid", uid),
                ("batch.kubernetes.io/job-name", name),
                ("controller-uid", uid),
                ("job-name", name),
            ] {
                labels.retain(|(k, _)| k != key);
                labels.push((key.to_string(), value.clone()));
            }
        }
        let uid = self.rng.uid();
        self.pods.push(PodSim {
            object: format!("Pod/{name}").into(),
            spec: &workload.pod,
            containers,
            init_next: 0,
            sidecars_stopping: false,
            allocated_devices: Vec::new(),
            run: PodRun {
                name,
                owner: owner_text,
                uid,
                created: now,
                node: None,
                ip: String::new(),
                restart_policy: workload.pod.restart_policy.value.clone(),
                containers: Vec::new(),
                init_containers: Vec::new(),
                spec: workload.pod.clone(),
                labels,
                annotations: workload.pod_annotations.clone(),
                template_hash,
                sandbox: None,
                deleting: None,
                deleted: None,
                deletion_grace: None,
                label_changes: Vec::new(),
                annotation_changes: Vec::new(),
                released: Vec::new(),
            },
            request: sched::Request::of(workload),
            placed: None,
            pin,
            owner,
            queue: Queued::default(),
            done: false,
            sets: Vec::new(),
            tally: rollout::Tally::default(),
            replace_when_gone: false,
        });
        self.deployment_pod_created(index);
        self.push(now, Ev::Schedule(index, 0));
        index
    }

    /// One scheduling cycle for a pod (§3.1): bind and `Scheduled`, or
    /// `FailedScheduling` and back to the unschedulable pods, from where the
    /// 30 s flush takes it after 5 min unless capacity frees up first.
    pub(super) fn attempt_schedule(&mut self, pod: usize, generation: u64) {
        let now = self.now;
        let sim = &self.pods[pod];
        if sim.queue.generation != generation
            || sim.run.node.is_some()
            || sim.run.deleting.is_some()
        {
            return;
        }
        // A cycle is a function of the nodes, the spec, pin and request: a
        // pod like the last one that failed, against the same nodes, fails
        // the same way (the pods that wait retry again and again).
        let memo = self.last_failure.as_ref().filter(|memo| {
            self.shortcuts
                && memo.nodes_changed == self.nodes_changed
                && std::ptr::eq(memo.spec, sim.spec)
                && memo.pin == sim.pin
                && memo.request == sim.request
        });
        let result = match memo {
            Some(memo) => {
                debug_assert!(sched::schedule(
                    self.nodes.iter().map(|node| &node.sched),
                    sim.spec,
                    sim.pin,
                    &sim.request,
                )
                .is_err_and(|failure| failure.waits_for_capacity
                    == memo.waits_for_capacity
                    && failure.message() == *memo.message));
                Err((memo.waits_for_capacity, memo.message.clone()))
            }
            None => sched::schedule(
                self.nodes.iter().map(|node| &node.sched),
                sim.spec,
                sim.pin,
                &sim.request,
            )
            .map_err(|failure| {
                let waits_for_capacity = failure.waits_for_capacity;
                let message = self.failed_scheduling_message(failure);
                let sim = &self.pods[pod];
                self.last_failure = Some(SchedMemo {
                    nodes_changed: self.nodes_changed,
                    spec: sim.spec,
                    pin: sim.pin,
                    request: sim.request.clone(),
                    waits_for_capacity,
                    message: message.clone(),
                });
                (waits_for_capacity, message)
            }),
        };
        let object = self.pods[pod].object.clone();
        match result {
            Ok(node_index) => {
                let request = self.pods[pod].request.clone();
                let node = &mut self.nodes[node_index];
                node.sched.take(&request);
                self.nodes_changed += 1;
                node.pods += 1;
                let ip = format!("10.244.{node_index}.{}", 4 + node.pods);
                let node_name = node.sched.name.clone();
                let name = &self.pods[pod].run.name;
                self.object_event(
                    object,
                    false,
                    "Scheduled",
                    format!("Successfully assigned default/{name} to {node_name}"),
                    "default-scheduler",
                );
                let sim = &mut self.pods[pod];
                sim.run.node = Some((node_name, now));
                sim.run.ip = ip;
                sim.placed = Some(node_index);
                self.allocate_devices(pod, node_index);
                self.unschedulable.retain(|&other| other != pod);
                self.push(now + self.timing.first_sync, Ev::FirstSync(pod));
            }
            Err((waits_for_capacity, message)) => {
                self.object_event(
                    object,
                    true,
                    "FailedScheduling",
                    message,
                    "default-scheduler",
                );
                let queue = &mut self.pods[pod].queue;
                queue.attempts = queue.attempts.saturating_add(1);
                queue.last_attempt = now;
                queue.waits_for_capacity = waits_for_capacity;
                queue.generation += 1;
                let generation = queue.generation;
                if let Err(at) = self.unschedulable.binary_search(&pod) {
                    self.unschedulable.insert(at, pod);
                }
                // The first flush tick (every 30 s from t = 0) at which the
                // pod has been unschedulable for more than 5 min.
                let flush = (now.saturating_add(MAX_IN_UNSCHEDULABLE) / FLUSH_PERIOD)
                    .saturating_add(1)
                    .saturating_mul(FLUSH_PERIOD);
                self.push(flush, Ev::Schedule(pod, generation));
            }
        }
    }

    /// The FailedScheduling text of an outcome, written once per distinct
    /// outcome and shared: the pods that wait retry against the same nodes
    /// again and again (a day of 200 pending pods is 50,000 attempts).
    fn failed_scheduling_message(&mut self, outcome: sched::Unschedulable) -> Arc<str> {
        if let Some((_, message)) = self.failed_scheduling.iter().find(|(known, _)| {
            known.nodes == outcome.nodes && known.rejections == outcome.rejections
        }) {
            return message.clone();
        }
        let message: Arc<str> = outcome.message().into();
        // A bound on what is kept; a text not kept is written again.
        if self.failed_scheduling.len() < FAILED_SCHEDULING_TEXTS {
            self.failed_scheduling.push((outcome, message.clone()));
        }
        message
    }

    /// A pod stopped holding its node's resources (it Succeeded, Failed or
    /// is gone): the scheduler sees a Pod delete (§3.2: its informer skips
    /// finished pods) and moves the pods waiting for capacity to the active
    /// queue, or to the backoff queue until their backoff is over.
    pub(super) fn release(&mut self, pod: usize) {
        let Some(node_index) = self.pods[pod].placed else {
            return;
        };
        self.free_devices(pod, node_index);
        self.pods[pod].placed = None;
        let sim = &self.pods[pod];
        let request = sim.request.clone();
        self.nodes[node_index].sched.give_back(&request);
        self.nodes_changed += 1;
        self.requeue_unschedulable(true);
    }

    /// The unschedulable pods go back to the active queue, or to the
    /// backoff queue until their backoff is over: those waiting for
    /// capacity when a pod freed some, all of them when a node changed
    /// (an uncordon, `act.rs`).
    pub(super) fn requeue_unschedulable(&mut self, capacity_only: bool) {
        self.requeue_where(&|sim, pod| !capacity_only || sim.pods[pod].queue.waits_for_capacity);
    }

    /// The same for the pods `wanted` says the change may help (a plugin's
    /// queueing hint: a node label, `metadata.rs`).
    pub(super) fn requeue_where(&mut self, wanted: &dyn Fn(&Sim<'a>, usize) -> bool) {
        let now = self.now;
        self.unschedulable
            .retain(|&other| self.pods[other].run.deleting.is_none());
        for index in 0..self.unschedulable.len() {
            let other = self.unschedulable[index];
            if !wanted(self, other) {
                continue;
            }
            let waiting = &mut self.pods[other];
            if waiting.run.node.is_some()
                || waiting.run.deleting.is_some()
                || waiting.queue.attempts == 0
            {
                continue;
            }
            let shift = waiting.queue.attempts.saturating_sub(1).min(16);
            let backoff = POD_INITIAL_BACKOFF
                .saturating_mul(1 << shift)
                .min(POD_MAX_BACKOFF);
            let at = now.max(waiting.queue.last_attempt.saturating_add(backoff));
            waiting.queue.generation += 1;
            let generation = waiting.queue.generation;
            self.push(at, Ev::Schedule(other, generation));
        }
    }

    /// The pod reached Succeeded or Failed (seen at a kubelet sync).
    pub(super) fn pod_finished(&mut self, pod: usize) {
        if self.pods[pod].done {
            return;
        }
        self.pods[pod].done = true;
        self.pod_recount(pod);
        self.release(pod);
        if let Owner::Job(job) = self.pods[pod].owner {
            let succeeded = self.pods[pod].containers.iter().all(|c| {
                c.run
                    .instances
                    .last()
                    .and_then(|i| i.exit.as_ref())
                    .is_some_and(|e| e.code == 0)
            });
            let finished = self.pods[pod]
                .containers
                .iter()
                .filter_map(|c| c.run.instances.last().and_then(|i| i.exit.as_ref()))
                .map(|e| e.at)
                .max()
                .unwrap_or(self.now);
            self.job_pod_finished(job, succeeded, finished);
        }
    }

    /// A controller deletes a pod: `Killing` (`Stopping container <name>`)
    /// for every running container, preStop, SIGTERM, SIGKILL after the
    /// pod's grace period; gone when all have stopped.
    pub(super) fn delete_pod(&mut self, pod: usize) {
        let now = self.now;
        if self.pods[pod].run.deleting.is_some() || self.pods[pod].run.deleted.is_some() {
            return;
        }
        self.pods[pod].run.deleting = Some(now);
        self.pod_recount(pod);
        let running: Vec<usize> = (0..self.pods[pod].containers.len())
            .filter(|&c| self.pods[pod].containers[c].running)
            .collect();
        if running.is_empty() {
            self.pod_gone(pod);
        } else {
            self.stop_containers(pod, &running, |code| ExitKind::Deleted { code });
        }
    }

    /// The deleted pod's containers have all stopped: the object is gone.
    pub(super) fn pod_gone(&mut self, pod: usize) {
        if self.pods[pod].run.deleted.is_some() {
            return;
        }
        self.pods[pod].run.deleted = Some(self.now);
        self.pods[pod].done = true;
        self.pod_recount(pod);
        self.release(pod);
        self.deployment_pod_changed(pod);
        if let Owner::Job(job) = self.pods[pod].owner {
            self.job_check_terminal(job);
        }
        if self.pods[pod].replace_when_gone {
            self.replace_gone(pod);
        }
    }

    /// Every container has exited and none will be restarted: the pod's
    /// phase is Succeeded or Failed (kubelet.md §5).
    pub(super) fn pod_is_finished(&self, pod: usize) -> bool {
        let sim = &self.pods[pod];
        let policy = sim.run.restart_policy.as_str();
        // The app containers decide; sidecars are stopped afterwards
        // (`init_kubelet.rs` `stop_sidecars`).
        let app = sim.spec.containers.len().min(sim.containers.len());
        sim.containers[..app].iter().all(|c| {
            !c.running
                && c.run
                    .instances
                    .last()
                    .and_then(|i| i.exit.as_ref())
                    .is_some_and(|exit| match policy {
                        "Never" => true,
                        "OnFailure" => exit.code == 0,
                        _ => false,
                    })
        })
    }

    // ---- Job controller (§8) ----------------------------------------------

    pub(super) fn job_create(
        &mut self,
        workload: &'a Workload,
        name: String,
        cron: Option<usize>,
    ) -> usize {
        let now = self.now;
        let (completions, parallelism, backoff_limit, deadline) = match &workload.job {
            Some(spec) => (
                spec.completions.value.clamp(0, 1000),
                spec.parallelism.value.clamp(0, 1000),
                spec.backoff_limit.value.max(0),
                spec.active_deadline_seconds.as_ref().map(|d| d.value),
            ),
            None => (1, 1, 6, None),
        };
        let job = self.jobs.len();
        let uid = self.rng.uid();
        self.jobs.push(JobSim {
            uid,
            workload,
            completions,
            parallelism,
            backoff_limit,
            cron,
            pods: Vec::new(),
            failures_since_success: 0,
            last_failure: 0,
            finishing: None,
            sync_queued: None,
            run: JobRun {
                name,
                owner: cron.map(|c| format!("CronJob/{}", self.crons[c].workload.name)),
                created: now,
                succeeded: 0,
                failed: 0,
                conditions: Vec::new(),
                deleted: None,
            },
        });
        if let Some(seconds) = deadline {
            // Measured from status.startTime (= creation here).
            let at = now.saturating_add((seconds.max(0) as Millis).saturating_mul(1000));
            self.push(at, Ev::JobDeadline(job));
        }
        self.job_manage(job);
        job
    }

    pub(super) fn job_active(&self, job: usize) -> Vec<usize> {
        self.jobs[job]
            .pods
            .iter()
            .copied()
            .filter(|&pod| !self.pods[pod].done && self.pods[pod].run.deleting.is_none())
            .collect()
    }

    /// `manageJob`: create pods up to min(parallelism, completions −
    /// succeeded), after the pod-failure back-off when pods failed since
    /// the last success (§8.2).
    pub(super) fn job_manage(&mut self, job: usize) {
        let now = self.now;
        let sim = &self.jobs[job];
        if sim.finishing.is_some() || sim.run.deleted.is_some() {
            return;
        }
        let remaining = sim
            .completions
            .saturating_sub(sim.run.succeeded as i64)
            .max(0);
        let wanted = sim.parallelism.min(remaining).max(0) as usize;
        let active = self.job_active(job).len();
        if active >= wanted {
            return;
        }
        if sim.failures_since_success > 0 {
            let shift = (sim.failures_since_success - 1).min(16);
            let backoff = JOB_BACKOFF_INITIAL
                .saturating_mul(1 << shift)
                .min(JOB_BACKOFF_MAX);
            let ready_at = sim.last_failure.saturating_add(backoff);
            if ready_at > now {
                if sim.sync_queued != Some(ready_at) {
                    self.jobs[job].sync_queued = Some(ready_at);
                    self.push(ready_at, Ev::JobSync(job));
                }
                return;
            }
        }
        let workload = sim.workload;
        let job_name = sim.run.name.clone();
        for _ in active..wanted {
            let name = format!("{job_name}-{}", self.rng.suffix(5));
            self.object_event(
                format!("Job/{job_name}"),
                false,
                "SuccessfulCreate",
                format!("Created pod: {name}"),
                "job-controller",
            );
            let pod = self.create_pod(workload, name, Owner::Job(job), None, None);
            self.jobs[job].pods.push(pod);
        }
    }

    pub(super) fn job_pod_finished(&mut self, job: usize, succeeded: bool, finished: Millis) {
        let sim = &mut self.jobs[job];
        if sim.run.deleted.is_some() {
            return;
        }
        if succeeded {
            sim.run.succeeded += 1;
            sim.failures_since_success = 0;
        } else {
            sim.run.failed += 1;
            sim.failures_since_success = sim.failures_since_success.saturating_add(1);
            // finishedAt is stored in whole seconds.
            sim.last_failure = finished - finished % 1000;
        }
        if sim.finishing.is_some() {
            self.job_check_terminal(job);
            return;
        }
        let sim = &self.jobs[job];
        if sim.run.succeeded as i64 >= sim.completions {
            self.job_finish(job, Terminal::Complete);
        } else if sim.run.failed as i64 > sim.backoff_limit {
            self.job_finish(
                job,
                Terminal::Failed(
                    "BackoffLimitExceeded",
                    "Job has reached the specified backoff limit",
                ),
            );
        } else {
            self.job_manage(job);
        }
    }

    /// `pastBackoffLimitOnFailure`: with OnFailure the restart counts of the
    /// Running/Pending pods add up to backoffLimit (§8.1).
    pub(super) fn job_check_restarts(&mut self, job: usize) {
        let sim = &self.jobs[job];
        if sim.finishing.is_some() || sim.workload.pod.restart_policy.value != "OnFailure" {
            return;
        }
        let restarts: usize = self
            .job_active(job)
            .iter()
            .flat_map(|&pod| self.pods[pod].containers.iter())
            .map(|c| c.run.instances.len().saturating_sub(1))
            .sum();
        let limit = sim.backoff_limit as usize;
        if (limit == 0 && restarts > 0) || (limit > 0 && restarts >= limit) {
            self.job_finish(
                job,
                Terminal::Failed(
                    "BackoffLimitExceeded",
                    "Job has reached the specified backoff limit",
                ),
            );
        }
    }

    /// The interim condition (`SuccessCriteriaMet` / `FailureTarget`) now,
    /// the active pods deleted; the terminal one once none is terminating
    /// (`delayTerminalCondition`, §8.3).
    pub(super) fn job_finish(&mut self, job: usize, terminal: Terminal) {
        let now = self.now;
        if self.jobs[job].finishing.is_some() || self.jobs[job].run.deleted.is_some() {
            return;
        }
        self.jobs[job].finishing = Some(terminal);
        let condition = match terminal {
            Terminal::Complete => JobCondition {
                kind: "SuccessCriteriaMet",
                reason: "CompletionsReached",
                message: "Reached expected number of succeeded pods",
                at: now,
            },
            Terminal::Failed(reason, message) => JobCondition {
                kind: "FailureTarget",
                reason,
                message,
                at: now,
            },
        };
        self.jobs[job].run.conditions.push(condition);
        for pod in self.job_active(job) {
            if matches!(terminal, Terminal::Failed(..)) {
                // A deleted pod that has not succeeded counts as failed.
                self.jobs[job].run.failed += 1;
            }
            self.delete_pod(pod);
        }
        self.job_check_terminal(job);
    }

    pub(super) fn job_check_terminal(&mut self, job: usize) {
        let now = self.now;
        let sim = &self.jobs[job];
        let Some(terminal) = sim.finishing else {
            return;
        };
        if sim.run.deleted.is_some()
            || sim
                .run
                .conditions
                .iter()
                .any(|c| matches!(c.kind, "Complete" | "Failed"))
        {
            return;
        }
        let terminating = sim.pods.iter().any(|&pod| {
            self.pods[pod].run.deleting.is_some() && self.pods[pod].run.deleted.is_none()
        });
        if terminating {
            return;
        }
        let object = format!("Job/{}", sim.run.name);
        let (condition, status) = match terminal {
            Terminal::Complete => {
                self.object_event(
                    object,
                    false,
                    "Completed",
                    "Job completed",
                    "job-controller",
                );
                (
                    JobCondition {
                        kind: "Complete",
                        reason: "CompletionsReached",
                        message: "Reached expected number of succeeded pods",
                        at: now,
                    },
                    "Complete",
                )
            }
            Terminal::Failed(reason, message) => {
                self.object_event(object, true, reason, message, "job-controller");
                (
                    JobCondition {
                        kind: "Failed",
                        reason,
                        message,
                        at: now,
                    },
                    "Failed",
                )
            }
        };
        self.jobs[job].run.conditions.push(condition);
        if let Some(cron) = self.jobs[job].cron {
            let name = self.jobs[job].run.name.clone();
            self.crons[cron].active.retain(|&j| j != job);
            let cron_name = self.crons[cron].workload.name.clone();
            self.object_event(
                format!("CronJob/{cron_name}"),
                false,
                "SawCompletedJob",
                format!("Saw completed job: {name}, status: {status}"),
                "cronjob-controller",
            );
            self.cron_cleanup(cron);
            // The Job's update re-syncs the CronJob (a Forbid-skipped time
            // may run now).
            self.cron_sync(cron);
        }
    }

    /// `cleanupFinishedJobs` (§9): finished Jobs beyond the history limits
    /// (defaults: 3 successful, 1 failed) are deleted, oldest start first,
    /// with `SuccessfulDelete`; the garbage collector removes their pods.
    pub(super) fn cron_cleanup(&mut self, cron: usize) {
        for (failed, limit) in [(false, 3usize), (true, 1usize)] {
            let finished: Vec<usize> = (0..self.jobs.len())
                .filter(|&job| {
                    let sim = &self.jobs[job];
                    sim.cron == Some(cron)
                        && sim.run.deleted.is_none()
                        && sim
                            .run
                            .conditions
                            .iter()
                            .any(|c| c.kind == if failed { "Failed" } else { "Complete" })
                })
                .collect();
            // Jobs are created in start order.
            let excess = finished.len().saturating_sub(limit);
            for &job in &finished[..excess] {
                self.cron_delete_job(cron, job);
            }
        }
    }

    /// Deletes a CronJob's Job (background propagation: its pods go too).
    pub(super) fn cron_delete_job(&mut self, cron: usize, job: usize) {
        let name = self.jobs[job].run.name.clone();
        self.jobs[job].run.deleted = Some(self.now);
        self.crons[cron].active.retain(|&j| j != job);
        let object = format!("CronJob/{}", self.crons[cron].workload.name);
        self.object_event(
            object,
            false,
            "SuccessfulDelete",
            format!("Deleted job {name}"),
            "cronjob-controller",
        );
        for pod in self.jobs[job].pods.clone() {
            self.delete_pod(pod);
        }
    }

    pub(super) fn job_deadline(&mut self, job: usize) {
        self.job_finish(
            job,
            Terminal::Failed(
                "DeadlineExceeded",
                "Job was active longer than specified deadline",
            ),
        );
    }

    // ---- CronJob controller (§9) --------------------------------------------

    pub(super) fn cron_create(&mut self, workload: &'a Workload) {
        let Some(spec) = &workload.cron else {
            return;
        };
        let Ok(schedule) = parse_schedule(&spec.schedule.value) else {
            // UnparseableSchedule: no Jobs (the rule PL602 says why).
            return;
        };
        let cron = self.crons.len();
        self.crons.push(CronSim {
            workload,
            schedule,
            last_schedule: None,
            active: Vec::new(),
            queued: None,
        });
        if !spec.suspend {
            self.cron_requeue(cron);
        }
    }

    pub(super) fn cron_requeue(&mut self, cron: usize) {
        let now = self.now;
        let sim = &self.crons[cron];
        if let Some(next) = next_after(&sim.schedule, now, self.until) {
            let at = next.saturating_add(CRON_REQUEUE);
            if sim.queued != Some(at) {
                self.crons[cron].queued = Some(at);
                self.push(at, Ev::CronSync(cron));
            }
        }
    }

    /// `syncCronJob`: the most recent unmet schedule time since
    /// lastScheduleTime (or creation) is run, subject to concurrencyPolicy.
    pub(super) fn cron_sync(&mut self, cron: usize) {
        let now = self.now;
        if self.crons[cron].queued == Some(now) {
            self.crons[cron].queued = None;
        }
        let sim = &self.crons[cron];
        let sim_suspended = sim.workload.cron.as_ref().is_none_or(|c| c.suspend);
        if sim_suspended {
            return;
        }
        let mut scheduled = None;
        let mut cursor = sim.last_schedule.unwrap_or(0);
        while let Some(next) = next_after(&sim.schedule, cursor, now) {
            scheduled = Some(next);
            cursor = next;
        }
        let Some(scheduled) = scheduled else {
            self.cron_requeue(cron);
            return;
        };
        let workload = sim.workload;
        let object = format!("CronJob/{}", workload.name);
        let policy = workload
            .cron
            .as_ref()
            .map_or("Allow", |c| c.concurrency_policy.value.as_str());
        if !sim.active.is_empty() {
            match policy {
                "Forbid" => {
                    self.object_event(
                        object,
                        false,
                        "JobAlreadyActive",
                        "Not starting job because prior execution is running and concurrency policy is Forbid",
                        "cronjob-controller",
                    );
                    self.cron_requeue(cron);
                    return;
                }
                "Replace" => {
                    for job in self.crons[cron].active.clone() {
                        self.cron_delete_job(cron, job);
                    }
                }
                _ => {}
            }
        }
        let minutes = (EPOCH_UNIX_SECONDS + scheduled / 1000) / 60;
        let name = format!("{}-{minutes}", workload.name);
        self.crons[cron].last_schedule = Some(scheduled);
        self.object_event(
            object,
            false,
            "SuccessfulCreate",
            format!("Created job {name}"),
            "cronjob-controller",
        );
        let job = self.job_create(workload, name, Some(cron));
        self.crons[cron].active.push(job);
        self.cron_requeue(cron);
    }

    // ---- DaemonSet and StatefulSet ------------------------------------------

    /// One pod per node whose taints the pod tolerates and whose labels
    /// match its nodeSelector/affinity (`NodeShouldRunDaemonPod`).
    pub(super) fn daemonset_create(&mut self, workload: &'a Workload) {
        for node in 0..self.nodes.len() {
            let eligible = self.nodes[node].sched.tolerated(&workload.pod, true)
                && self.nodes[node].sched.matches(&workload.pod);
            if !eligible {
                continue;
            }
            let name = format!("{}-{}", workload.name, self.rng.suffix(5));
            self.object_event(
                format!("DaemonSet/{}", workload.name),
                false,
                "SuccessfulCreate",
                format!("Created pod: {name}"),
                "daemonset-controller",
            );
            self.create_pod(workload, name, Owner::None, None, Some(node));
        }
    }

    pub(super) fn statefulset_create(&mut self, set: usize) {
        let ordinal = self.statefulsets[set].created;
        self.statefulsets[set].created += 1;
        self.statefulset_create_ordinal(set, ordinal);
    }

    /// The StatefulSet's pod `ordinal` (again, once a deleted one is gone).
    pub(super) fn statefulset_create_ordinal(&mut self, set: usize, ordinal: usize) {
        let workload = self.statefulsets[set].workload;
        let name = format!("{}-{ordinal}", workload.name);
        self.object_event(
            format!("StatefulSet/{}", workload.name),
            false,
            "SuccessfulCreate",
            format!(
                "create Pod {name} in StatefulSet {} successful",
                workload.name
            ),
            "statefulset-controller",
        );
        self.create_pod(workload, name, Owner::StatefulSet(set, ordinal), None, None);
    }

    /// A container went Ready: an OrderedReady StatefulSet creates the next
    /// ordinal once this one is Running and Ready (§7).
    pub(super) fn pod_ready_changed(&mut self, pod: usize) {
        self.deployment_pod_changed(pod);
        let Owner::StatefulSet(set, ordinal) = self.pods[pod].owner else {
            return;
        };
        let ready = self.pods[pod]
            .containers
            .iter()
            .enumerate()
            .all(|(index, c)| {
                !self.counts_for_ready(pod, index)
                    || c.running
                        && c.run
                            .instances
                            .last()
                            .is_some_and(|i| i.ready.last().is_some_and(|r| r.1.is_none()))
            });
        let sim = &self.statefulsets[set];
        if ready && ordinal + 1 == sim.created && sim.created < sim.replicas {
            self.statefulset_create(set);
        }
    }
}

/// The program model of a container: an app container's, or an init
/// container's (`Scenario::init_program`: its own entry only).
fn program_for(scenario: &Scenario, container: &Container, init: bool) -> Program {
    if init {
        let sidecar = container.restart_policy.as_deref() == Some("Always");
        scenario.init_program(container, sidecar)
    } else {
        scenario.program(container)
    }
}
