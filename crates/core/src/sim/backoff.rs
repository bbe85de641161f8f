//! The crash-loop back-off (kubelet.md §4): the sync after a container
//! exited, and `doBackOff`'s choice between waiting (the `BackOff` event,
//! CrashLoopBackOff) and a restart in this sync. Part of the engine of
//! `kubelet.rs`.

use super::*;

/// Crash-loop back-off: 10 s doubling to 300 s, reset when a container ran
/// more than 600 s (§4, `ReduceDefaultCrashLoopBackOffDecay` off).
const BACKOFF_INITIAL: Millis = 10_000;
const BACKOFF_MAX: Millis = 300_000;
const BACKOFF_RESET: Millis = 600_000;

impl<'a> Sim<'a> {
    /// A sync after a container exited by itself, or while it waits in back-off.
    pub(super) fn sync_exited(&mut self, pod: usize, c: usize) {
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
    pub(super) fn decide_restart(&mut self, pod: usize, c: usize, examined: Option<Millis>) {
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
