//! Init containers as the API reports them: which init containers are done,
//! the pod's `Initialized` condition, and what they mean for the pod phase.
//! The kubelet's side (starting them in order, restarts, the pod failing
//! under `restartPolicy: Never`) is in `init_kubelet.rs`.
//!
//! Promise: pure functions of a finished [`PodRun`] and a time; the same
//! accessors (`ContainerRun::status_at`) the kubectl renderers use.
//!
//! Sources (kubernetes/kubernetes, v1.35):
//! - `pkg/kubelet/kubelet_pods.go` `getPhase`: a regular init container
//!   that has not finished (no status, running, or waiting without a
//!   terminated Last State) keeps the pod `Pending`; one that terminated
//!   non-zero (or waits with such a Last State) fails the pod when
//!   `restartPolicy` is `Never`; a restartable init container (sidecar)
//!   keeps it `Pending` until it has `Started` for the first time.
//! - `pkg/kubelet/status/generate.go` `GeneratePodInitializedCondition`:
//!   `Initialized` is True when every init container is done (a regular one
//!   terminated with exit code 0, a sidecar started) or any regular
//!   container has started; otherwise False, `ContainersNotInitialized`,
//!   `containers with incomplete status: [a b]`.

use super::{ContainerRun, ContainerState, PodRun};
use crate::manifest::duration::Millis;

/// What the init containers contribute to `getPhase`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum InitPhase {
    /// Nothing: no init containers, or all done.
    Done,
    /// A regular init container has not finished, or a sidecar has not
    /// started for the first time: the pod is `Pending`.
    Pending,
    /// A regular init container failed under `restartPolicy: Never`.
    Failed,
}

/// Whether the init container at `index` of `pod.spec.init_containers` is a
/// sidecar (`restartPolicy: Always` on the init container, KEP-753).
pub fn is_sidecar(pod: &PodRun, index: usize) -> bool {
    pod.spec
        .init_containers
        .get(index)
        .is_some_and(|spec| spec.restart_policy.as_deref() == Some("Always"))
}

/// Whether the init container has done its part at `at`
/// (`GeneratePodInitializedCondition`): a regular one has an instance that
/// exited 0; a sidecar's current instance runs and has `Started` (its
/// startupProbe passed, or there is none) — a sidecar in back-off is
/// incomplete again.
pub fn done_at(container: &ContainerRun, sidecar: bool, at: Millis) -> bool {
    if sidecar {
        return container
            .instances
            .iter()
            .rev()
            .find(|instance| instance.started <= at)
            .is_some_and(|instance| {
                instance.started_ok.is_some_and(|ok| ok <= at)
                    && instance.exit.as_ref().is_none_or(|exit| exit.at > at)
            });
    }
    container.instances.iter().any(|instance| {
        instance
            .exit
            .as_ref()
            .is_some_and(|exit| exit.at <= at && exit.code == 0)
    })
}

/// The init containers not done at `at`, by name (the `Initialized`
/// condition's `containers with incomplete status: [...]`).
pub fn incomplete_at(pod: &PodRun, at: Millis) -> Vec<&str> {
    pod.init_containers
        .iter()
        .enumerate()
        .filter(|(index, container)| !done_at(container, is_sidecar(pod, *index), at))
        .map(|(_, container)| container.name.as_str())
        .collect()
}

/// The `Initialized` condition at `at`: every init container done, or a
/// regular container has started (`GeneratePodInitializedCondition`).
pub fn initialized_at(pod: &PodRun, at: Millis) -> bool {
    incomplete_at(pod, at).is_empty()
        || pod
            .containers
            .iter()
            .any(|container| container.instances.iter().any(|i| i.started <= at))
}

/// When the pod became Initialized (the condition's lastTransitionTime),
/// if it is at `at`.
pub fn initialized_since(pod: &PodRun, at: Millis) -> Option<Millis> {
    if !initialized_at(pod, at) {
        return None;
    }
    let mut since = pod.created;
    for (index, container) in pod.init_containers.iter().enumerate() {
        let sidecar = is_sidecar(pod, index);
        let done = container
            .instances
            .iter()
            .filter_map(|instance| {
                if sidecar {
                    instance.started_ok
                } else {
                    instance
                        .exit
                        .as_ref()
                        .filter(|exit| exit.code == 0)
                        .map(|exit| exit.at)
                }
            })
            .find(|done| *done <= at);
        if let Some(done) = done {
            since = since.max(done);
        }
    }
    Some(since)
}

/// `getPhase`'s init-container part at `at`.
pub fn phase_of_init(pod: &PodRun, at: Millis) -> InitPhase {
    if pod.init_containers.is_empty() {
        return InitPhase::Done;
    }
    let initialized = initialized_at(pod, at);
    let statuses = pod.init_statuses_at(at);
    let mut pending = false;
    let mut failed = false;
    for (index, status) in statuses.iter().enumerate() {
        let sidecar = is_sidecar(pod, index);
        let last_failed = |state: &Option<ContainerState>| matches!(state, Some(ContainerState::Terminated { code, .. }) if *code != 0);
        match (&status.state, sidecar) {
            (ContainerState::Running { .. }, false) => pending = true,
            (ContainerState::Running { .. }, true) => {
                let started = pod
                    .init_containers
                    .get(index)
                    .and_then(|c| c.instances.iter().rev().find(|i| i.started <= at))
                    .is_some_and(|i| i.started_ok.is_some_and(|ok| ok <= at));
                pending |= !started && !initialized;
            }
            (ContainerState::Terminated { code, .. }, false) => failed |= *code != 0,
            (ContainerState::Terminated { .. }, true) => {}
            (ContainerState::Waiting { .. }, false) => {
                if status.last_state.is_some() {
                    failed |= last_failed(&status.last_state);
                } else {
                    pending = true;
                }
            }
            (ContainerState::Waiting { .. }, true) => {
                pending |= status.last_state.is_none() && !initialized;
            }
        }
    }
    if failed && pod.restart_policy == "Never" {
        InitPhase::Failed
    } else if pending {
        InitPhase::Pending
    } else {
        InitPhase::Done
    }
}

/// Sidecars running at `at`: `getPhase` counts them with the running
/// containers, so a pod whose app containers are done stays `Running`
/// until the kubelet has stopped its sidecars.
pub fn running_sidecars(pod: &PodRun, at: Millis) -> usize {
    pod.init_containers
        .iter()
        .enumerate()
        .filter(|(index, container)| {
            is_sidecar(pod, *index)
                && container
                    .instances
                    .iter()
                    .rev()
                    .find(|instance| instance.started <= at)
                    .is_some_and(|instance| instance.exit.as_ref().is_none_or(|exit| exit.at > at))
        })
        .count()
}
