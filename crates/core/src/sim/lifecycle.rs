//! A container's lifecycle in the kubelet (kubelet.md §3, §6, §7, §9): the
//! sync that starts it (the image, its pull and pull back-off, the config),
//! a new instance and its scheduled exits (the program's own, OOM at the
//! loading peak, /dev/shm), the kill after a probe failure with its grace
//! period, and the exit. Part of the engine of `kubelet.rs`.

use super::*;

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
pub(super) const MINIMUM_GRACE_S: i64 = 2;

/// Seconds a preStop hook takes: `sleep N` (exec) or the sleep action; 0 otherwise.
pub(in crate::sim) fn pre_stop_seconds(container: &Container) -> i64 {
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

impl<'a> Sim<'a> {
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
    pub(super) fn start(&mut self, pod: usize, c: usize) {
        let now = self.now;
        if self.pods[pod].run.deleting.is_some() {
            return;
        }
        self.pods[pod].run.sandbox.get_or_insert(now);
        let image = self.image(pod, c);
        let missing = crate::sim::image::is_missing(&self.scenario.missing, &image);
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

    pub(super) fn pulled(&mut self, pod: usize, c: usize, pull: Millis, total: Millis) {
        if self.pods[pod].run.deleting.is_some() {
            return;
        }
        let image = self.image(pod, c);
        let size = crate::sim::image::size_bytes(&image);
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
    pub(super) fn pull_failed(&mut self, pod: usize, c: usize) {
        let now = self.now;
        if self.pods[pod].run.deleting.is_some() {
            return;
        }
        let image = self.image(pod, c);
        let error = crate::sim::image::not_found_error(&image);
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
        self.container_seen(pod, c);
        let container = &mut self.pods[pod].containers[c];
        for w in container.probes.clone() {
            let probe = &mut self.workers[w];
            // A parked worker would probe this instance (`probes.rs` `parks`).
            self.diverged |= probe.parked;
            probe.on_hold = false;
            probe.cached = match probe.probe.kind {
                ProbeKind::Readiness => Some(false),
                ProbeKind::Liveness => Some(true),
                ProbeKind::Startup => None,
            };
        }
        let program = &container.program;
        let exit = program.exit.as_ref().map(|exit| (exit.after, exit.code));
        let run_for = program.run_for.as_ref().map(|run_for| run_for.value);
        let startup = program.startup.value;
        let peak = program.peak_total();
        let limit = container
            .spec
            .resources
            .limit("memory")
            .and_then(|amount| amount.quantity)
            .map(|q| q.value());
        let has_readiness = container.spec.readiness.is_some();
        self.pod_recount(pod);
        self.event(pod, Some(c), false, "Created", "Container created");
        self.event(pod, Some(c), false, "Started", "Container started");
        // Exits of the program itself; the earliest wins (stale ones are ignored).
        if let Some((after, code)) = exit {
            self.push(
                now + after,
                Ev::Exit(pod, c, instance, ExitKind::Program { code }),
            );
        }
        if let Some(run_for) = run_for {
            let done = now + startup + run_for;
            self.push(
                done,
                Ev::Exit(pod, c, instance, ExitKind::Program { code: 0 }),
            );
        }
        // OOM: memory climbs linearly to the peak over the load; the kernel
        // kills the container when it crosses the limit (§6).
        if let Some(limit) = limit {
            if peak > limit && limit >= 0 {
                let fraction = (limit as f64 / peak as f64).clamp(0.0, 1.0);
                let at = now + (startup as f64 * fraction) as Millis;
                self.push(at, Ev::Exit(pod, c, instance, ExitKind::Oom));
            }
        }
        // /dev/shm fills when the workers start, at the end of the load.
        if self.shm_failure(pod, c).is_some() {
            let at = now + startup;
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

    /// A liveness or startup kill (§3): `Killing` event, preStop, SIGTERM,
    /// SIGKILL when the grace period runs out.
    pub(super) fn kill(&mut self, pod: usize, c: usize, kind: ProbeKind) {
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

    pub(super) fn exit(&mut self, pod: usize, c: usize, instance: usize, kind: ExitKind) {
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
        self.container_seen(pod, c);
        let container = &mut self.pods[pod].containers[c];
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
        self.pod_recount(pod);
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
    fn shm_failure(&self, pod: usize, c: usize) -> Option<crate::sim::shm::ShmFailure> {
        let container = &self.pods[pod].containers[c];
        let limit = container
            .spec
            .resources
            .limit("memory")
            .and_then(|amount| amount.quantity)
            .map(|q| q.value());
        let dev_shm = crate::sim::shm::dev_shm(self.pods[pod].spec, container.spec);
        crate::sim::shm::failure(dev_shm, &container.program, limit)
    }
}
