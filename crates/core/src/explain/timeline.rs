//! The timeline of a simulated run: for every pod (in creation order) and
//! each of its containers, the stretches of time it spent in one state, the
//! instants worth a mark (probe failures, kills, restarts, OOM kills) and its
//! memory curve against its memory limit. The web page draws it; the CLI
//! could print it.
//!
//! Promise: everything is read from the finished [`Run`] through the same
//! accessors the kubectl renderers use (`PodRun::exists_at`,
//! `ContainerRun::status_at`, the bound time, the deletion times, the event
//! occurrences); nothing is simulated again. A lane's segments are
//! contiguous, never empty, and cover the pod's life within the run, from its
//! creation to its removal from the API (or the end of the run).
//!
//! How a state is chosen at a time T (the words are kubectl's):
//! - `Terminating` once the pod has a deletion timestamp (until it is gone);
//! - `Pending` while the pod is not bound to a node;
//! - `Init` while the pod's init containers run (its STATUS is `Init:N/M`
//!   or `Init:<reason>`): an app container, or an init container whose turn
//!   has not come, waits with reason `PodInitializing` and the pod is not
//!   `Initialized`; `PodInitializing` once the pod is Initialized and the
//!   container does not exist yet (kubectl's STATUS `PodInitializing`);
//! - `ContainerCreating` while bound and no instance of the container has
//!   started (the STATUS column's `ContainerCreating`), or the kubelet's
//!   own waiting reason when a start failed before the container existed
//!   (`ErrImagePull`, `ImagePullBackOff`, `ErrImageNeverPull`,
//!   `CreateContainerConfigError`);
//! - `Running` (not Ready) / `Ready` while an instance runs, by its Ready
//!   intervals;
//! - `CrashLoopBackOff` while the kubelet waits out a restart back-off;
//! - the exit reason (`Error`, `OOMKilled`, `Completed`) while the last
//!   instance has exited and nothing waits to restart it.

use std::collections::HashMap;

use crate::manifest::duration::Millis;
use crate::manifest::model::ProbeKind;
use crate::sim::{ContainerRun, ContainerState, Event, PodRun, Run};

/// What a container is doing during a segment.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum State {
    /// The pod is not bound to a node yet.
    Pending,
    /// Bound; no instance of the container has started yet.
    ContainerCreating,
    /// The pod's init containers are running (STATUS `Init:N/M`): this
    /// container waits for them.
    Init,
    /// Init containers done; this container waits with the kubelet's
    /// default reason `PodInitializing` until it is created.
    PodInitializing,
    /// An instance runs but is not Ready (loading, or readiness failing).
    RunningNotReady,
    Ready,
    /// The pod is being deleted.
    Terminating,
    /// The kubelet waits out a restart back-off.
    CrashLoopBackOff,
    /// The image pull failed.
    ErrImagePull,
    /// The kubelet waits out an image pull back-off.
    ImagePullBackOff,
    /// `imagePullPolicy: Never` and the image is not on the node.
    ErrImageNeverPull,
    /// A Secret or ConfigMap the container needs is missing.
    CreateContainerConfigError,
    /// The last instance exited with a non-zero code.
    Error,
    /// The last instance was killed by the kernel's OOM killer.
    OOMKilled,
    /// The last instance exited with 0.
    Completed,
    /// The last instance exited with another reason.
    Terminated,
}

impl State {
    /// A stable identifier (CSS classes, tests).
    pub fn id(self) -> &'static str {
        match self {
            State::Pending => "Pending",
            State::ContainerCreating => "ContainerCreating",
            State::Init => "Init",
            State::PodInitializing => "PodInitializing",
            State::RunningNotReady => "RunningNotReady",
            State::Ready => "Ready",
            State::Terminating => "Terminating",
            State::CrashLoopBackOff => "CrashLoopBackOff",
            State::ErrImagePull => "ErrImagePull",
            State::ImagePullBackOff => "ImagePullBackOff",
            State::ErrImageNeverPull => "ErrImageNeverPull",
            State::CreateContainerConfigError => "CreateContainerConfigError",
            State::Error => "Error",
            State::OOMKilled => "OOMKilled",
            State::Completed => "Completed",
            State::Terminated => "Terminated",
        }
    }

    /// Every state, in the order a legend lists them.
    pub const ALL: [State; 16] = [
        State::Pending,
        State::Init,
        State::PodInitializing,
        State::ContainerCreating,
        State::ErrImagePull,
        State::ImagePullBackOff,
        State::ErrImageNeverPull,
        State::CreateContainerConfigError,
        State::RunningNotReady,
        State::Ready,
        State::CrashLoopBackOff,
        State::Error,
        State::OOMKilled,
        State::Completed,
        State::Terminated,
        State::Terminating,
    ];

    /// The state a `Waiting` container status shows, by its reason; a
    /// reason not listed here reads as `ContainerCreating`.
    fn from_waiting_reason(reason: &str) -> State {
        match reason {
            "CrashLoopBackOff" => State::CrashLoopBackOff,
            "ErrImagePull" => State::ErrImagePull,
            "ImagePullBackOff" => State::ImagePullBackOff,
            "ErrImageNeverPull" => State::ErrImageNeverPull,
            "CreateContainerConfigError" => State::CreateContainerConfigError,
            _ => State::ContainerCreating,
        }
    }

    /// The state a `Terminated` container status shows, by its reason
    /// (the kubelet copies the runtime's `Error`/`OOMKilled`/`Completed`).
    fn from_exit_reason(reason: &str) -> State {
        match reason {
            "Error" => State::Error,
            "OOMKilled" => State::OOMKilled,
            "Completed" => State::Completed,
            _ => State::Terminated,
        }
    }
}

/// `[from, to)` in one state.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Segment {
    pub from: Millis,
    pub to: Millis,
    pub state: State,
}

/// What happened at a marker's instant.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MarkerKind {
    /// An `Unhealthy` event: the probe named by its message's first word
    /// (`Liveness probe failed: ...`).
    ProbeFailure(ProbeKind),
    /// A `Killing` event (a probe's kill, or the pod's deletion).
    Killing,
    /// An instance started after the first: its restartCount.
    Restart(usize),
    /// An instance ended with `OOMKilled` (no event: the kernel did it).
    OOMKilled,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Marker {
    pub at: Millis,
    pub kind: MarkerKind,
    /// The event's message, or empty for markers without an event.
    pub message: String,
}

/// One container of a pod.
#[derive(Clone, Debug, PartialEq)]
pub struct ContainerLane {
    pub name: String,
    /// An init container's lane (listed before the app containers').
    pub init: bool,
    /// Contiguous, in time order, adjacent segments in different states.
    pub segments: Vec<Segment>,
    /// In time order (ties in the order the run recorded them).
    pub markers: Vec<Marker>,
    /// Host memory in bytes as a polyline (`ContainerRun::memory_points`).
    pub memory: Vec<(Millis, i128)>,
    /// The container's memory limit in bytes, when it has a valid one.
    pub memory_limit: Option<i128>,
    /// Each instance's exit: when, and its exit code (what `kubectl
    /// describe` prints under `Last State: Terminated`).
    pub exits: Vec<(Millis, i64)>,
}

impl ContainerLane {
    /// The exit code a segment in an exit state (`Error`, `OOMKilled`)
    /// shows: the last exit at or before `at`.
    pub fn exit_code_at(&self, at: Millis) -> Option<i64> {
        self.exits
            .iter()
            .rev()
            .find(|(exit, _)| *exit <= at)
            .map(|(_, code)| *code)
    }

    /// The state at `at`, if the lane covers it (the last segment's end is
    /// included, so the end of the run has a state).
    pub fn state_at(&self, at: Millis) -> Option<State> {
        let last = self.segments.last()?;
        if at == last.to {
            return Some(last.state);
        }
        self.segments
            .iter()
            .find(|segment| segment.from <= at && at < segment.to)
            .map(|segment| segment.state)
    }

    /// The highest point of the memory curve, in bytes.
    pub fn memory_peak(&self) -> i128 {
        self.memory
            .iter()
            .map(|(_, bytes)| *bytes)
            .max()
            .unwrap_or(0)
    }
}

/// One pod, in the run's creation order.
#[derive(Clone, Debug, PartialEq)]
pub struct PodLane {
    pub name: String,
    /// `Deployment/model-api`.
    pub owner: String,
    pub created: Millis,
    /// When the pod was gone from the API, if within the run.
    pub gone: Option<Millis>,
    pub containers: Vec<ContainerLane>,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Timeline {
    /// The run's end: the time axis spans `[0, end]`.
    pub end: Millis,
    pub pods: Vec<PodLane>,
}

/// The timeline of a run.
pub fn timeline(run: &Run) -> Timeline {
    // Each pod's events, gathered in one pass (a CronJob's day has
    // thousands of pods: scanning every event per pod was quadratic).
    let mut by_object: HashMap<&str, Vec<&Event>> = HashMap::new();
    for event in &run.events {
        by_object.entry(&event.object).or_default().push(event);
    }
    Timeline {
        end: run.end,
        pods: run
            .pods
            .iter()
            .map(|pod| {
                let events = by_object
                    .get(format!("Pod/{}", pod.name).as_str())
                    .map_or(&[][..], Vec::as_slice);
                (pod, events)
            })
            .map(|(pod, events)| PodLane {
                name: pod.name.clone(),
                owner: pod.owner.clone(),
                created: pod.created,
                gone: pod.deleted.filter(|gone| *gone <= run.end),
                containers: pod
                    .init_containers
                    .iter()
                    .map(|container| container_lane(run, pod, events, container, true))
                    .chain(
                        pod.containers
                            .iter()
                            .map(|container| container_lane(run, pod, events, container, false)),
                    )
                    .collect(),
            })
            .collect(),
    }
}

fn container_lane(
    run: &Run,
    pod: &PodRun,
    events: &[&Event],
    container: &ContainerRun,
    init: bool,
) -> ContainerLane {
    let specs = if init {
        &pod.spec.init_containers
    } else {
        &pod.spec.containers
    };
    let memory_limit = specs
        .iter()
        .find(|spec| spec.name == container.name)
        .and_then(|spec| spec.resources.limit("memory"))
        .and_then(|amount| amount.quantity)
        .map(|quantity| quantity.value());
    ContainerLane {
        name: container.name.clone(),
        init,
        segments: segments(run, pod, events, container),
        markers: markers(run, events, container),
        memory: memory_curve(container, pod.deleted.unwrap_or(run.end).min(run.end)),
        memory_limit,
        exits: container
            .instances
            .iter()
            .filter_map(|instance| instance.exit.as_ref())
            .map(|exit| (exit.at, exit.code))
            .collect(),
    }
}

/// `memory_points` cut at `end`: an instance still loading or running at
/// the end has its last stretch drawn up to `end` at `memory_at(end)`
/// (the points themselves stop at the loaded instant, or lie past the end).
fn memory_curve(container: &ContainerRun, end: Millis) -> Vec<(Millis, i128)> {
    let mut points: Vec<(Millis, i128)> = container
        .memory_points()
        .into_iter()
        .filter(|(at, _)| *at <= end)
        .collect();
    if let Some(&(last, _)) = points.last() {
        if last < end {
            points.push((end, container.memory_at(end)));
        }
    }
    points
}

/// The segments: the state is evaluated at every instant where the run
/// records a change (creation, binding, each start, startup success, Ready
/// edges, exits, back-offs, deletion, and every event of the pod, which the
/// kubelet records with each failed start) and holds until the next one.
fn segments(run: &Run, pod: &PodRun, events: &[&Event], container: &ContainerRun) -> Vec<Segment> {
    let end = pod.deleted.unwrap_or(run.end).min(run.end);
    let mut changes = vec![pod.created];
    changes.extend(events.iter().map(|event| event.at));
    changes.extend(pod.node.as_ref().map(|(_, bound)| *bound));
    for instance in &container.instances {
        changes.push(instance.started);
        changes.extend(instance.started_ok);
        for (from, to) in &instance.ready {
            changes.push(*from);
            changes.extend(*to);
        }
        changes.extend(instance.exit.as_ref().map(|exit| exit.at));
    }
    changes.extend(container.back_offs.iter().map(|(from, _)| *from));
    // The init containers' starts and exits move every lane of the pod
    // (Init → PodInitializing has no event of its own).
    for instance in pod.init_containers.iter().flat_map(|c| &c.instances) {
        changes.push(instance.started);
        changes.extend(instance.started_ok);
        changes.extend(instance.exit.as_ref().map(|exit| exit.at));
    }
    changes.extend(pod.deleting);
    changes.retain(|at| *at >= pod.created && *at < end);
    crate::sort::sort(&mut changes);
    changes.dedup();

    let mut segments: Vec<Segment> = Vec::new();
    for (index, from) in changes.iter().enumerate() {
        let to = changes.get(index + 1).copied().unwrap_or(end);
        let state = state_at(pod, container, *from);
        match segments.last_mut() {
            Some(last) if last.state == state => last.to = to,
            _ => segments.push(Segment {
                from: *from,
                to,
                state,
            }),
        }
    }
    segments
}

fn state_at(pod: &PodRun, container: &ContainerRun, at: Millis) -> State {
    if pod.deleting.is_some_and(|deleting| deleting <= at) {
        return State::Terminating;
    }
    if pod.node.as_ref().is_none_or(|(_, bound)| *bound > at) {
        return State::Pending;
    }
    let Some(status) = container.status_at(at) else {
        return if pod.init_containers.is_empty() {
            State::ContainerCreating
        } else if crate::sim::init::initialized_at(pod, at) {
            State::PodInitializing
        } else {
            State::Init
        };
    };
    match &status.state {
        ContainerState::Waiting { reason, .. } if reason == "PodInitializing" => {
            if crate::sim::init::initialized_at(pod, at) {
                State::PodInitializing
            } else {
                State::Init
            }
        }
        ContainerState::Running { .. } if status.ready => State::Ready,
        ContainerState::Running { .. } => State::RunningNotReady,
        ContainerState::Waiting { reason, .. } => State::from_waiting_reason(reason),
        ContainerState::Terminated { reason, .. } => State::from_exit_reason(reason),
    }
}

/// `events` are the pod's own.
fn markers(run: &Run, events: &[&Event], container: &ContainerRun) -> Vec<Marker> {
    let field_path = format!("spec.containers{{{}}}", container.name);
    let mut markers: Vec<Marker> = events
        .iter()
        .filter(|event| event.field_path.as_deref() == Some(field_path.as_str()))
        .filter_map(|event| {
            let kind = match event.reason {
                "Unhealthy" => MarkerKind::ProbeFailure(probe_kind(&event.message)?),
                "Killing" => MarkerKind::Killing,
                _ => return None,
            };
            Some(Marker {
                at: event.at,
                kind,
                message: event.message.to_string(),
            })
        })
        .collect();
    for (restart_count, instance) in container.instances.iter().enumerate().skip(1) {
        markers.push(Marker {
            at: instance.started,
            kind: MarkerKind::Restart(restart_count),
            message: String::new(),
        });
    }
    for exit in container.instances.iter().filter_map(|i| i.exit.as_ref()) {
        if exit.reason == "OOMKilled" {
            markers.push(Marker {
                at: exit.at,
                kind: MarkerKind::OOMKilled,
                message: String::new(),
            });
        }
    }
    markers.retain(|marker| marker.at <= run.end);
    // Stable: equal times keep events first, in the run's order.
    crate::sort::sort_by_key(&mut markers, |marker| marker.at);
    markers
}

/// The probe an `Unhealthy` message is about, from its first word.
fn probe_kind(message: &str) -> Option<ProbeKind> {
    [
        ProbeKind::Liveness,
        ProbeKind::Readiness,
        ProbeKind::Startup,
    ]
    .into_iter()
    .find(|kind| message.starts_with(kind.title()))
}

/// One labelled tick of a time axis.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Tick {
    pub at: Millis,
    /// `30s`, `4m`, `2h`: every label of an axis in the same unit.
    pub label: String,
}

/// Ticks for an axis from 0 to `end_ms`: the smallest round step that
/// gives at most 8 intervals, labelled in the unit of that step (seconds
/// below a minute, minutes below an hour, else hours).
pub fn nice_ticks(end_ms: Millis) -> Vec<Tick> {
    const SECOND: Millis = 1000;
    const MINUTE: Millis = 60 * SECOND;
    const HOUR: Millis = 60 * MINUTE;
    const STEPS: [Millis; 19] = [
        SECOND,
        2 * SECOND,
        5 * SECOND,
        10 * SECOND,
        15 * SECOND,
        30 * SECOND,
        MINUTE,
        2 * MINUTE,
        5 * MINUTE,
        10 * MINUTE,
        15 * MINUTE,
        30 * MINUTE,
        HOUR,
        2 * HOUR,
        3 * HOUR,
        6 * HOUR,
        12 * HOUR,
        24 * HOUR,
        7 * 24 * HOUR,
    ];
    let step = STEPS
        .into_iter()
        .find(|step| end_ms / step <= 8)
        .unwrap_or(7 * 24 * HOUR);
    let (unit, suffix) = if step < MINUTE {
        (SECOND, "s")
    } else if step < HOUR {
        (MINUTE, "m")
    } else {
        (HOUR, "h")
    };
    (0..=end_ms / step)
        .map(|index| {
            let at = index * step;
            Tick {
                at,
                label: format!("{}{suffix}", at / unit),
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::{simulate, Options};

    const CRASH_LOOP: &str = include_str!("../../../../tests/golden/crash-loop-liveness-40s.yaml");
    const OOM: &str = include_str!("../../../../tests/golden/oom-at-loading-peak.yaml");
    const REFERENCE: &str = include_str!("../../../../tests/golden/reference-two-gpus.yaml");

    fn timeline_of(text: &str, until_s: u64) -> Timeline {
        timeline(&simulate(
            text,
            &Options {
                until: Some(until_s * 1000),
            },
        ))
    }

    fn times(lane: &ContainerLane, wanted: impl Fn(&MarkerKind) -> bool) -> Vec<Millis> {
        lane.markers
            .iter()
            .filter(|marker| wanted(&marker.kind))
            .map(|marker| marker.at)
            .collect()
    }

    /// Contiguous, non-empty, merged, from creation to the lane's end.
    fn assert_well_formed(pod: &PodLane, end: Millis) {
        for lane in &pod.containers {
            let segments = &lane.segments;
            assert_eq!(segments.first().map(|s| s.from), Some(pod.created));
            assert_eq!(segments.last().map(|s| s.to), Some(pod.gone.unwrap_or(end)));
            for segment in segments {
                assert!(segment.from < segment.to, "{segment:?}");
            }
            for pair in segments.windows(2) {
                assert_eq!(pair[0].to, pair[1].from, "{pair:?}");
                assert_ne!(pair[0].state, pair[1].state, "{pair:?}");
            }
        }
    }

    /// The golden crash loop (crates/core/tests/golden.rs): kills at
    /// 40.5 s + 40 s × k, then the back-off; the lane shows the same.
    #[test]
    fn crash_loop_lane_has_kills_restarts_and_back_offs_where_the_golden_test_says() {
        let timeline = timeline_of(CRASH_LOOP, 720);
        assert_eq!(timeline.end, 720_000);
        assert_eq!(timeline.pods.len(), 1);
        let pod = &timeline.pods[0];
        assert_well_formed(pod, 720_000);
        let lane = &pod.containers[0];
        assert_eq!(lane.name, "api");

        assert_eq!(
            times(lane, |kind| *kind == MarkerKind::Killing),
            vec![40_500, 80_500, 120_500, 160_500, 200_500, 240_500, 360_500, 560_500]
        );
        assert_eq!(
            times(lane, |kind| matches!(kind, MarkerKind::Restart(_))),
            vec![41_800, 81_800, 121_800, 161_800, 201_800, 322_800, 524_050]
        );
        let liveness = times(lane, |kind| {
            *kind == MarkerKind::ProbeFailure(ProbeKind::Liveness)
        });
        assert_eq!(liveness.len(), 24);
        assert_eq!(&liveness[..3], &[20_500, 30_500, 40_500]);
        assert!(times(lane, |kind| *kind == MarkerKind::OOMKilled).is_empty());
        assert!(lane
            .markers
            .iter()
            .any(|m| m.message.starts_with("Liveness probe failed: Get")));

        // Loading until the first kill's exit (41.5 s), Error until the
        // restart 0.3 s later, never Ready.
        // Without a readinessProbe the container counts as Ready while it
        // runs (even while loading); each kill's exit shows Error until the
        // restart 0.3 s later, then the back-offs of C5, C6 and C7.
        assert_eq!(
            &lane.segments[..4],
            &[
                Segment {
                    from: 0,
                    to: 2_000,
                    state: State::ContainerCreating
                },
                Segment {
                    from: 2_000,
                    to: 41_500,
                    state: State::Ready
                },
                Segment {
                    from: 41_500,
                    to: 41_800,
                    state: State::Error
                },
                Segment {
                    from: 41_800,
                    to: 81_500,
                    state: State::Ready
                },
            ]
        );
        let back_offs: Vec<(Millis, Millis)> = lane
            .segments
            .iter()
            .filter(|s| s.state == State::CrashLoopBackOff)
            .map(|s| (s.from, s.to))
            .collect();
        assert_eq!(
            back_offs,
            vec![(241_500, 322_800), (361_500, 524_050), (561_500, 720_000)]
        );
        // C7 exited at 561.5 s: the curve drops to 0 and stays there.
        assert_eq!(
            &lane.memory[lane.memory.len() - 2..],
            &[(561_500, 0), (720_000, 0)]
        );
        assert_eq!(lane.state_at(720_000), Some(State::CrashLoopBackOff));
        // The kubectl STATUS column agrees at every segment's start.
        let run = simulate(
            CRASH_LOOP,
            &Options {
                until: Some(720_000),
            },
        );
        // The lane draws the half second before the kubelet's first
        // status (STATUS `Pending`) as part of ContainerCreating.
        let synced = run.pods[0].synced_at().unwrap_or(0);
        for segment in &lane.segments {
            let status = crate::explain::get_pods::status(&run.pods[0], segment.from.max(synced));
            let expected = match segment.state {
                State::RunningNotReady | State::Ready => "Running",
                other => other.id(),
            };
            assert_eq!(status, expected, "{segment:?}");
        }
    }

    #[test]
    fn oom_kills_are_marked_at_each_exit_and_show_as_oomkilled_segments() {
        let timeline = timeline_of(OOM, 720);
        let pod = &timeline.pods[0];
        assert_well_formed(pod, 720_000);
        let lane = &pod.containers[0];
        let oom = times(lane, |kind| *kind == MarkerKind::OOMKilled);
        assert_eq!(oom.first(), Some(&34_000));
        assert_eq!(oom.len(), 7, "{oom:?}");
        assert!(times(lane, |kind| *kind == MarkerKind::Killing).is_empty());
        assert!(lane.segments.iter().any(|s| s.state == State::OOMKilled));
        assert!(lane
            .segments
            .iter()
            .any(|s| s.state == State::CrashLoopBackOff));
        // The curve climbs above the limit it is killed at.
        let limit = lane.memory_limit.expect("a memory limit");
        assert_eq!(limit, 8 << 30);
        assert!(lane.memory_peak() >= limit * 8 / 10, "{:?}", lane.memory);
    }

    #[test]
    fn the_reference_deployment_is_ready_from_50_54_s_with_startup_failures_only() {
        let timeline = timeline_of(REFERENCE, 900);
        assert_eq!(timeline.pods.len(), 2);
        for pod in &timeline.pods {
            assert_well_formed(pod, 900_000);
            let lane = &pod.containers[0];
            let ready = lane
                .segments
                .iter()
                .find(|s| s.state == State::Ready)
                .expect("Ready");
            // The startup probe at 50.5 returns at 50.52 (healthLatency
            // 20 ms); readiness, triggered then, answers at 50.54.
            assert_eq!((ready.from, ready.to), (50_540, 900_000));
            // Bound at once (two nodes, one GPU each); the first start at 2 s.
            assert_eq!(
                lane.segments.first(),
                Some(&Segment {
                    from: 0,
                    to: 2_000,
                    state: State::ContainerCreating
                })
            );
            assert_eq!(
                lane.segments.get(1).map(|s| s.state),
                Some(State::RunningNotReady)
            );
            assert!(lane
                .markers
                .iter()
                .all(|m| m.kind == MarkerKind::ProbeFailure(ProbeKind::Startup)));
            assert_eq!(lane.markers.len(), 4);
            assert_eq!(lane.memory_limit, Some(8 << 30));
            // Loaded at 42 s and serving to the end at its steady 4Gi.
            assert_eq!(lane.memory.first(), Some(&(2_000, 0)));
            assert_eq!(lane.memory.last(), Some(&(900_000, 4 << 30)));
        }
    }

    /// One GPU for two replicas: the second pod is never bound.
    #[test]
    fn an_unschedulable_pod_is_pending_for_the_whole_run() {
        let text = include_str!("../../../../tests/golden/reference-one-gpu.yaml");
        let timeline = timeline_of(text, 900);
        let pending = &timeline.pods[1];
        assert_well_formed(pending, 900_000);
        assert_eq!(
            pending.containers[0].segments,
            vec![Segment {
                from: pending.created,
                to: 900_000,
                state: State::Pending
            }]
        );
        assert!(pending.containers[0].markers.is_empty());
    }

    /// A Job with restartPolicy OnFailure and backoffLimit 2
    /// (crates/core/tests/controllers.rs): the third start at 25.85 s meets
    /// the limit, the pod is deleted at once and gone at 26.85 s.
    #[test]
    fn a_deleted_pod_ends_terminating_when_it_is_gone() {
        let text = include_str!("../../../../tests/golden/job-onfailure-restarts.yaml");
        let timeline = timeline_of(text, 300);
        let pod = &timeline.pods[0];
        assert_eq!(pod.gone, Some(26_850));
        assert_well_formed(pod, 300_000);
        let lane = &pod.containers[0];
        assert_eq!(
            lane.segments.last(),
            Some(&Segment {
                from: 25_850,
                to: 26_850,
                state: State::Terminating
            })
        );
        // The restart and the deletion's kill share the instant 25.85 s.
        assert_eq!(
            times(lane, |kind| *kind == MarkerKind::Killing),
            vec![25_850]
        );
        assert_eq!(
            times(lane, |kind| matches!(kind, MarkerKind::Restart(_))),
            vec![8_300, 25_850]
        );
        assert!(lane.segments.iter().any(|s| s.state == State::Error));
    }

    /// Every golden scenario: lanes are well formed, and for single-container
    /// pods each segment's state is what `kubectl get pods` prints in STATUS
    /// at its start.
    #[test]
    fn every_golden_run_agrees_with_the_status_column() {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/golden");
        let mut files: Vec<_> = std::fs::read_dir(&dir)
            .expect("tests/golden")
            .flatten()
            .map(|entry| entry.path())
            .collect();
        crate::sort::sort(&mut files);
        assert!(files.len() >= 5, "{files:?}");
        for file in files {
            let text = std::fs::read_to_string(&file).expect("a golden file");
            let run = simulate(&text, &Options::default());
            let timeline = timeline(&run);
            assert_eq!(timeline.pods.len(), run.pods.len());
            for (pod, lane) in run.pods.iter().zip(&timeline.pods) {
                assert_well_formed(lane, run.end);
                if pod.containers.len() != 1 {
                    continue;
                }
                // The app container's lane (after any init containers').
                let app_lane = lane.containers.iter().find(|c| !c.init).expect("a lane");
                for segment in &app_lane.segments {
                    let expected = match segment.state {
                        State::RunningNotReady | State::Ready => "Running",
                        other => other.id(),
                    };
                    // The half second before the kubelet's first status
                    // (STATUS `Pending`) is drawn as the lane's first
                    // state (ContainerCreating, Init).
                    let at = if segment.state != State::Pending {
                        segment.from.max(pod.synced_at().unwrap_or(0))
                    } else {
                        segment.from
                    };
                    let status = crate::explain::get_pods::status(pod, at);
                    // `Init` stands for every `Init:…` STATUS: `Init:0/1`,
                    // `Init:CrashLoopBackOff`, `Init:Error`.
                    if segment.state == State::Init {
                        assert!(status.starts_with("Init:"), "{} {status}", pod.name);
                        continue;
                    }
                    assert_eq!(
                        status,
                        expected,
                        "{} {} {segment:?}",
                        file.display(),
                        pod.name
                    );
                }
            }
        }
    }

    /// `init-containers.yaml`'s `llm-server`: the download runs 2.0–362.0
    /// (a Completed init lane), the server's lane is `Init` until then,
    /// `PodInitializing` until the PLEG's sync starts it at 363.3, then
    /// Running (not Ready) until its startup probe passes at 410.52.
    #[test]
    fn the_init_phase_has_its_own_state_in_every_lane() {
        let text = include_str!("../../../../tests/golden/init-containers.yaml");
        let timeline = timeline_of(text, 600);
        let pod = timeline
            .pods
            .iter()
            .find(|pod| pod.name == "llm-server")
            .expect("llm-server");
        assert_well_formed(pod, 600_000);
        let names: Vec<(&str, bool)> = pod
            .containers
            .iter()
            .map(|lane| (lane.name.as_str(), lane.init))
            .collect();
        assert_eq!(
            names,
            vec![("storage-initializer", true), ("server", false)]
        );
        let spans = |lane: &ContainerLane| -> Vec<(Millis, Millis, State)> {
            lane.segments
                .iter()
                .map(|s| (s.from, s.to, s.state))
                .collect()
        };
        assert_eq!(
            spans(&pod.containers[0]),
            vec![
                (0, 2_000, State::Init),
                (2_000, 362_000, State::RunningNotReady),
                (362_000, 600_000, State::Completed),
            ]
        );
        assert_eq!(
            spans(&pod.containers[1]),
            vec![
                (0, 362_000, State::Init),
                (362_000, 363_300, State::PodInitializing),
                (363_300, 410_520, State::RunningNotReady),
                (410_520, 600_000, State::Ready),
            ]
        );
    }

    #[test]
    fn an_unreadable_text_gives_an_empty_timeline() {
        let timeline = timeline(&simulate("a: [", &Options::default()));
        assert!(timeline.pods.is_empty());
    }

    #[test]
    fn ticks_use_the_unit_of_their_step() {
        let labels = |end: Millis| -> Vec<String> {
            nice_ticks(end).into_iter().map(|tick| tick.label).collect()
        };
        assert_eq!(
            labels(15 * 60_000),
            ["0m", "2m", "4m", "6m", "8m", "10m", "12m", "14m"]
        );
        assert_eq!(
            labels(60_000),
            ["0s", "10s", "20s", "30s", "40s", "50s", "60s"]
        );
        assert_eq!(
            labels(3 * 3_600_000),
            ["0m", "30m", "60m", "90m", "120m", "150m", "180m"]
        );
        assert_eq!(
            labels(24 * 3_600_000),
            ["0h", "3h", "6h", "9h", "12h", "15h", "18h", "21h", "24h"]
        );
        assert_eq!(labels(0), ["0s"]);
        assert_eq!(labels(5_500), ["0s", "1s", "2s", "3s", "4s", "5s"]);
        let ticks = nice_ticks(720_000);
        assert_eq!(
            ticks.get(6),
            Some(&Tick {
                at: 720_000,
                label: "12m".into()
            })
        );
        // The longest simulation (7 days) still gets a handful of ticks.
        assert!(nice_ticks(crate::manifest::duration::MAX_MS).len() <= 9);
    }
}
