//! The kubelet stopping containers it was not asked to restart (a deleted
//! pod, a Job's sidecars once its work is done): `Killing`, preStop, the
//! stop signal and the grace period (`shared/reference/kubelet.md` §3), and
//! the termination ordering of a pod with sidecars.

use super::*;

impl<'a> Sim<'a> {
    /// The kubelet stops the running containers `stopped` of `pod` together
    /// (a deleted pod, a Job's sidecars once its work is done), as
    /// `killContainersWithSyncResult` does: every `Killing` `Stopping
    /// container <name>` now and every preStop at once; then, in a pod with
    /// sidecars, the termination ordering
    /// (`pkg/kubelet/kuberuntime/kuberuntime_termination_order.go`,
    /// `newTerminationOrdering`): a sidecar is sent its stop only once every
    /// app container and every later sidecar has exited, so the sidecars
    /// stop in reverse order after the app containers, and the time a
    /// sidecar waited, in whole seconds, comes off its grace period
    /// (`killContainer`: `gracePeriod -= int64(ordering.waitForTurn(...))`,
    /// only while some grace is left after its preStop).
    pub(super) fn stop_containers(
        &mut self,
        pod: usize,
        stopped: &[usize],
        kind: fn(i64) -> ExitKind,
    ) {
        let grace = self.pods[pod].run.grace_seconds();
        let app = self.pods[pod].spec.containers.len();
        let mut times: Vec<(usize, (Millis, i64))> = stopped
            .iter()
            .filter(|&&c| !self.is_sidecar(pod, c))
            .map(|&c| (c, self.stop_time_after(pod, c, grace, None)))
            .collect();
        // The app containers' channels close when they exit; the sidecars
        // wait for them and for each later sidecar, last one first.
        let mut turn: Option<Millis> = times
            .iter()
            .filter(|(c, _)| *c < app)
            .map(|(_, (at, _))| *at)
            .max();
        let mut sidecars: Vec<usize> = stopped
            .iter()
            .copied()
            .filter(|&c| self.is_sidecar(pod, c))
            .collect();
        // The project's one sort (`crate::sort`): std's sorts cost the web
        // build ~4 KB (docs/size.md); container indices are unique.
        crate::sort::sort_by(&mut sidecars, |a, b| b.cmp(a));
        for c in sidecars {
            let (at, code) = self.stop_time_after(pod, c, grace, turn);
            turn = Some(turn.map_or(at, |turn| turn.max(at)));
            times.push((c, (at, code)));
        }
        // Events in the containers' order, as before the ordering.
        crate::sort::sort_by_key(&mut times, |(c, _)| *c);
        for (c, (at, code)) in times {
            self.stop_container_at(pod, c, kind, at, code);
        }
    }

    /// `Killing` `Stopping container <name>` for container `c` now, its
    /// exit (`kind` of the code) at `at`.
    fn stop_container_at(
        &mut self,
        pod: usize,
        c: usize,
        kind: fn(i64) -> ExitKind,
        at: Millis,
        code: i64,
    ) {
        let name = self.pods[pod].containers[c].spec.name.clone();
        let instance = self.pods[pod].containers[c]
            .run
            .instances
            .len()
            .saturating_sub(1);
        self.event(
            pod,
            Some(c),
            false,
            "Killing",
            format!("Stopping container {name}"),
        );
        self.push(at, Ev::Exit(pod, c, instance, kind(code)));
    }

    /// When a container stopped by the kubelet exits, and with which code:
    /// preStop (`sleep`), SIGTERM, the program's shutdown, or SIGKILL (137)
    /// when the grace (at least 2 s after preStop) runs out (kubelet.md §3).
    pub(super) fn stop_time(&self, pod: usize, c: usize, grace: i64) -> (Millis, i64) {
        self.stop_time_after(pod, c, grace, None)
    }

    /// [`Sim::stop_time`] for a container whose stop waits, after its
    /// preStop, until `turn` (a sidecar's turn in the termination ordering,
    /// [`Sim::stop_containers`]): at most the grace left, whose whole
    /// seconds waited are taken off it.
    pub(super) fn stop_time_after(
        &self,
        pod: usize,
        c: usize,
        grace: i64,
        turn: Option<Millis>,
    ) -> (Millis, i64) {
        let now = self.now;
        let container = &self.pods[pod].containers[c];
        let mut grace = grace.max(0);
        let pre_stop = if grace > 0 {
            lifecycle::pre_stop_seconds(container.spec).min(grace)
        } else {
            0
        };
        grace -= pre_stop;
        let mut sigterm = now.saturating_add((pre_stop as Millis).saturating_mul(1000));
        if let Some(turn) = turn.filter(|_| grace > 0) {
            let waited = turn
                .saturating_sub(sigterm)
                .min((grace as Millis).saturating_mul(1000));
            sigterm = sigterm.saturating_add(waited);
            grace -= i64::try_from(waited / 1000).unwrap_or(i64::MAX);
        }
        let grace = grace.max(lifecycle::MINIMUM_GRACE_S);
        let serving =
            container.run.instances.last().is_some_and(|i| {
                sigterm >= i.started.saturating_add(container.program.startup.value)
            });
        let shutdown = container.program.shutdown.value;
        let grace_ms = (grace as Millis).saturating_mul(1000);
        if shutdown <= grace_ms {
            (
                sigterm.saturating_add(shutdown),
                if serving { 0 } else { 143 },
            )
        } else {
            (sigterm.saturating_add(grace_ms), 137)
        }
    }
}
