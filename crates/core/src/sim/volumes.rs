//! The kubelet's volume manager for the volumes podlab can make fail: a
//! Secret or ConfigMap volume whose object the Scenario lists under
//! `cluster.missing` (docs/simulator.md "Volumes").
//!
//! `syncPod` waits in `volumeManager.WaitForAttachAndMount` before the
//! sandbox, the image pull and the probe workers (`pkg/kubelet/kubelet.go`
//! `SyncPod`), so a pod whose volume cannot be set up keeps its first
//! status: Pending, containers waiting in `ContainerCreating`, no pod IP.
//! Meanwhile the volume manager's reconciler (every 100 ms,
//! `reconcilerLoopSleepPeriod`) retries `MountVolume.SetUp` under the
//! operation executor's exponential back-off, 500 ms doubling to 2 m 2 s
//! (`pkg/util/goroutinemap/exponentialbackoff`: `initialDurationBeforeRetry`,
//! `maxDurationBeforeRetry`; `SafeToRetry` refuses while `time.Since(lastErrorTime)
//! <= durationBeforeRetry`), and each failure is a Warning `FailedMount` on
//! the pod (`operation_generator.go` `GenerateMountVolumeFunc`:
//! `volumeToMount.GenerateError("MountVolume.SetUp failed", err)`, whose
//! simple form is `MountVolume.SetUp failed for volume "<name>" : <err>`).
//! The secret and configmap managers answer `secret "<name>" not found` /
//! `configmap "<name>" not found`, the texts `CreateContainerConfigError`
//! shows for an env reference.
//!
//! `WaitForAttachAndMount` gives up after `podAttachAndMountTimeout` =
//! 2 m 3 s with `unmounted volumes=[…], unattached volumes=[…], failed to
//! process volumes=[…]: context deadline exceeded`, but since v1.28 (#115644,
//! the context passed to it) `SyncPod` records the `Unable to attach or
//! mount volumes: …` event only when the error is not `wait.Interrupted`,
//! and a deadline is: a v1.35 kubelet writes no event for the timeout (the
//! `… timed out waiting for the condition` events of older clusters are
//! gone; kubernetes/kubernetes#127004 asks for them back, #127034 was closed
//! unmerged). The pod worker re-syncs and waits again; nothing a user sees
//! changes, so podlab does not model those waits.

use super::{Ev, Sim};
use crate::manifest::duration::Millis;
use crate::manifest::model::Volume;

/// `initialDurationBeforeRetry`.
const MOUNT_BACKOFF_INITIAL: Millis = 500;
/// `maxDurationBeforeRetry`: 2 m 2 s.
const MOUNT_BACKOFF_MAX: Millis = 122_000;
/// `reconcilerLoopSleepPeriod`: the reconciler looks again every 100 ms, so
/// a retry starts at the first tick *after* the back-off (`<=` refuses the
/// tick that lands on it).
const RECONCILER_PERIOD: Millis = 100;

/// The Secret or ConfigMap a volume needs, as the managers name it in
/// their NotFound error (`secret "x" not found`), when `missing` lists it
/// and the volume is not `optional`.
pub(super) fn mount_error(volume: &Volume, missing: &[String]) -> Option<String> {
    if volume.optional {
        return None;
    }
    let absent = |kind: &str, name: &str| missing.iter().any(|m| *m == format!("{kind}/{name}"));
    if let Some(name) = volume.secret_name.as_deref() {
        return absent("Secret", name).then(|| format!("secret \"{name}\" not found"));
    }
    if let Some(name) = volume.config_map_name.as_deref() {
        return absent("ConfigMap", name).then(|| format!("configmap \"{name}\" not found"));
    }
    None
}

/// The next durationBeforeRetry after a failure (`ExponentialBackoff.Update`).
pub(super) const fn next_backoff(previous: Millis) -> Millis {
    if previous == 0 {
        MOUNT_BACKOFF_INITIAL
    } else if previous * 2 > MOUNT_BACKOFF_MAX {
        MOUNT_BACKOFF_MAX
    } else {
        previous * 2
    }
}

impl Sim<'_> {
    /// The pod's volumes that cannot be set up, with their errors, in the
    /// order the pod lists them. Only volumes some container mounts count
    /// (the desired-state populator skips the rest, `processPodVolumes`).
    fn failing_volumes(&self, pod: usize) -> Vec<(String, String)> {
        let spec = self.pods[pod].spec;
        spec.volumes
            .iter()
            .filter(|volume| {
                spec.containers
                    .iter()
                    .chain(&spec.init_containers)
                    .any(|c| c.volume_mounts.iter().any(|m| m.name == volume.name))
            })
            .filter_map(|volume| {
                mount_error(volume, &self.scenario.missing)
                    .map(|error| (volume.name.clone(), error))
            })
            .collect()
    }

    /// At the pod's first sync: when a volume cannot be set up, the
    /// reconciler's first attempt fails now and the sync stops before
    /// anything is started. Returns whether it stopped.
    pub(super) fn volumes_block_start(&mut self, pod: usize) -> bool {
        if self.failing_volumes(pod).is_empty() {
            return false;
        }
        self.mount_attempt(pod, 0);
        true
    }

    /// One reconciler attempt: `FailedMount` for each volume that still
    /// cannot be set up, then the next attempt after the back-off.
    pub(super) fn mount_attempt(&mut self, pod: usize, previous_backoff: Millis) {
        if self.pods[pod].run.deleting.is_some() {
            return;
        }
        for (name, error) in self.failing_volumes(pod) {
            self.event(
                pod,
                None,
                true,
                "FailedMount",
                format!("MountVolume.SetUp failed for volume \"{name}\" : {error}"),
            );
        }
        let backoff = next_backoff(previous_backoff);
        let next = self.now + backoff + RECONCILER_PERIOD;
        self.push(next, Ev::MountRetry(pod, backoff));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn backoff_doubles_from_half_a_second_to_2m2s() {
        let mut backoff = 0;
        let mut seen = Vec::new();
        for _ in 0..10 {
            backoff = next_backoff(backoff);
            seen.push(backoff);
        }
        assert_eq!(
            seen,
            [500, 1000, 2000, 4000, 8000, 16_000, 32_000, 64_000, 122_000, 122_000]
        );
    }

    #[test]
    fn optional_and_present_objects_do_not_fail() {
        let volume = |secret: Option<&str>, config_map: Option<&str>, optional: bool| Volume {
            empty_dir_size_limit: None,
            name: "creds".into(),
            empty_dir_medium: None,
            secret_name: secret.map(str::to_string),
            config_map_name: config_map.map(str::to_string),
            optional,
            span: Default::default(),
        };
        let missing = vec!["Secret/hf-token".to_string(), "ConfigMap/cfg".to_string()];
        assert_eq!(
            mount_error(&volume(Some("hf-token"), None, false), &missing).as_deref(),
            Some("secret \"hf-token\" not found")
        );
        assert_eq!(
            mount_error(&volume(None, Some("cfg"), false), &missing).as_deref(),
            Some("configmap \"cfg\" not found")
        );
        assert_eq!(
            mount_error(&volume(Some("hf-token"), None, true), &missing),
            None
        );
        assert_eq!(
            mount_error(&volume(Some("other"), None, false), &missing),
            None
        );
    }
}
