//! The kubelet's init-container actions on the engine of `kubelet.rs`:
//! init containers live after the app containers in `PodSim::containers`
//! (index `spec.containers.len() + i` is init container `i`).
//!
//! What is modelled (kubernetes/kubernetes v1.35,
//! `pkg/kubelet/kuberuntime/kuberuntime_container.go`
//! `computeInitContainerActions`, `kuberuntime_manager.go` `SyncPod`):
//! - the first sync starts init container 0 instead of the app containers;
//! - a regular init container that exited 0 lets the sync the PLEG triggers
//!   (1 s later) start the next one; after the last, the app containers;
//! - one that exited non-zero is restarted through the same `doBackOff`
//!   as an app container (`SyncPod`'s `start("init container", …)`), so the
//!   restarts come at 0, 10, 20, 40 … s and it shows
//!   `Init:CrashLoopBackOff`; under `restartPolicy: Never` the pod is killed
//!   and fails instead (`changes.KillPod`, `getPhase` → `Failed`);
//! - a restartable init container (`restartPolicy: Always`, a sidecar,
//!   KEP-753) is started and not awaited: once it is running and, with a
//!   startupProbe, its startup result is Success, the same sync starts the
//!   next one (without a startupProbe that sync is the PLEG's, 1 s after it
//!   started); it is restarted whenever it exits, whatever the pod's policy.
//!
//! Events name the container as `spec.initContainers{name}`
//! (`pkg/kubelet/container/ref.go` `fieldPath`).

use super::*;

impl<'a> Sim<'a> {
    /// `Some((i, sidecar))` when container `c` of `pod` is init container `i`.
    pub(super) fn init_index(&self, pod: usize, c: usize) -> Option<(usize, bool)> {
        let spec = self.pods[pod].spec;
        let index = c.checked_sub(spec.containers.len())?;
        let init = spec.init_containers.get(index)?;
        Some((index, init.restart_policy.as_deref() == Some("Always")))
    }

    /// The event's `involvedObject.fieldPath` for container `c`.
    pub(super) fn field_path(&self, pod: usize, c: usize) -> String {
        let name = &self.pods[pod].containers[c].spec.name;
        if self.init_index(pod, c).is_some() {
            format!("spec.initContainers{{{name}}}")
        } else {
            format!("spec.containers{{{name}}}")
        }
    }

    /// The first sync: init container 0, or every app container when the
    /// pod has none, starts at `at`.
    pub(super) fn start_first(&mut self, pod: usize, at: Millis) {
        self.pods[pod].init_next = 0;
        self.start_next(pod, at);
    }

    /// Starts the next init container in spec order at `at`, or all the app
    /// containers once every init container has been started.
    fn start_next(&mut self, pod: usize, at: Millis) {
        let app = self.pods[pod].spec.containers.len();
        let inits = self.pods[pod].spec.init_containers.len();
        let next = self.pods[pod].init_next;
        if next > inits {
            return;
        }
        self.pods[pod].init_next = next + 1;
        if next < inits {
            self.push(at, Ev::Start(pod, app + next));
        } else {
            for c in 0..app {
                self.push(at, Ev::Start(pod, c));
            }
        }
    }

    /// A sync after init container `c` exited (PLEG `ContainerDied`).
    pub(super) fn init_exited(&mut self, pod: usize, c: usize) {
        let now = self.now;
        let Some((index, sidecar)) = self.init_index(pod, c) else {
            return;
        };
        let Some(exit) = self.pods[pod].containers[c]
            .run
            .instances
            .last()
            .and_then(|instance| instance.exit.as_ref())
        else {
            return;
        };
        let (finished, code) = (exit.at, exit.code);
        if self.pods[pod].sidecars_stopping {
            // Stopped with the pod: the pod is done once the last one is.
            let running = (0..self.pods[pod].containers.len()).any(|other| {
                self.is_sidecar(pod, other) && self.pods[pod].containers[other].running
            });
            if !running {
                self.pod_finished(pod);
            }
        } else if sidecar {
            // A restartable init container is always restarted.
            self.decide_restart(pod, c, Some(finished));
        } else if code == 0 {
            if self.pods[pod].init_next == index + 1 {
                self.start_next(pod, now + self.timing.restart_delay);
            }
        } else if self.pods[pod].run.restart_policy == "Never" {
            self.pod_finished(pod);
        } else {
            self.decide_restart(pod, c, Some(finished));
        }
    }

    /// Container `c` has `Started`: a sidecar lets the next init container
    /// start, in the sync that sees it (the startup probe's result, or the
    /// PLEG's relist when it has no startupProbe).
    pub(super) fn init_started(&mut self, pod: usize, c: usize) {
        let Some((index, true)) = self.init_index(pod, c) else {
            return;
        };
        if self.pods[pod].init_next != index + 1 {
            return;
        }
        let has_startup = self.pods[pod].containers[c].spec.startup.is_some();
        let sync = if has_startup { 0 } else { self.timing.pleg };
        let at = self.now + sync + self.timing.restart_delay;
        self.start_next(pod, at);
    }

    /// Whether container `c` counts for the pod's readiness: an app
    /// container or a sidecar (`ContainersReady` covers restartable init
    /// containers), not a regular init container.
    pub(super) fn counts_for_ready(&self, pod: usize, c: usize) -> bool {
        self.init_index(pod, c).is_none_or(|(_, sidecar)| sidecar)
    }

    /// Whether container `c` is a sidecar.
    pub(super) fn is_sidecar(&self, pod: usize, c: usize) -> bool {
        self.init_index(pod, c).is_some_and(|(_, sidecar)| sidecar)
    }

    /// The `Killing` message of a probe kill: a sidecar's comes from
    /// `computeInitContainerActions` (`Init container %s failed liveness
    /// probe`, no `, will be restarted`), an app container's from
    /// `computePodActions`.
    pub(super) fn kill_message(
        &self,
        pod: usize,
        c: usize,
        name: &str,
        probe: &str,
        will: &str,
    ) -> String {
        if self.is_sidecar(pod, c) {
            format!("Init container {name} failed {probe} probe")
        } else {
            format!("Container {name} failed {probe} probe{will}")
        }
    }

    /// The app containers of a `Never`/`OnFailure` pod are done for good:
    /// `computePodActions` finds nothing to keep or start and kills the pod
    /// (`changes.KillPod`, without restarting the restartable init
    /// containers), so the running sidecars get `Killing` `Stopping
    /// container <name>`, preStop, SIGTERM and the pod's grace period; the
    /// pod is Succeeded or Failed once they have stopped. Returns whether
    /// any sidecar is still running (then `init_exited` finishes the pod).
    /// `Killing` for all at once, then their stops in reverse order
    /// (`stop_containers`: the kubelet's termination ordering).
    pub(super) fn stop_sidecars(&mut self, pod: usize) -> bool {
        let sidecars: Vec<usize> = (0..self.pods[pod].containers.len())
            .filter(|&c| self.is_sidecar(pod, c) && self.pods[pod].containers[c].running)
            .collect();
        if sidecars.is_empty() || self.pods[pod].sidecars_stopping {
            return !sidecars.is_empty();
        }
        self.pods[pod].sidecars_stopping = true;
        self.stop_containers(pod, &sidecars, |code| ExitKind::Program { code });
        true
    }
}
