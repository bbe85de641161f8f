//! The HorizontalPodAutoscaler controller (`autoscaling/v2`) over the
//! simulation (docs/autoscaling.md; traffic-autoscaling.md §1, §2.1).
//!
//! The HPA is a controller over data: at each 15 s sync it reads the
//! metrics of the target's pods (`metrics.rs`: metrics-server's two-point
//! CPU window and memory, the traffic's per-pod request rate and queue as
//! prometheus-adapter serves them) and decides (`controller.rs`). Traffic
//! feeds the metrics and decisions feed the pods, so the loop is resolved by
//! **replay**: simulate; walk every HPA's syncs in time order; at the first
//! sync that writes a new scale, add that scale as an action (what
//! `kubectl scale` does through the ReplicaSet, `sim/scale.rs`: new pods get
//! the whole cold start) and simulate again. The core is deterministic and
//! a decision at `t` only changes what happens from `t` on, so the walk
//! finds the same decisions before `t` and moves on to the next one. Each
//! round adds one decision; after [`MAX_RESCALES`] the HPA stops acting and
//! the run says so (`AutoscalerRun::capped`).
//!
//! Timing (`horizontal.go` `enqueueHPA`, `processNextWorkItem`,
//! `NewDefaultHPARateLimiter`): an HPA applied with the manifests at 0 is
//! first reconciled one period later, at 15 s, then every 15 s; several
//! HPAs share that phase and run in document order.
//!
//! A KEDA ScaledObject is an HPA (`keda-hpa-<name>`) whose External metric
//! KEDA serves, plus KEDA's own loop (`keda.rs`), which moves the target
//! between 0 and 1 every `pollingInterval` (from 0); its decisions join the
//! replay the same way.
//!
//! Not modelled: Object and External metrics other than a ScaledObject's
//! (they fail as an API with no such metric would), StatefulSet targets,
//! the HPA's own scale-to-zero gate, several HPAs on one workload.

mod controller;
mod keda;
#[cfg(test)]
mod keda_tests;
pub mod metrics;
#[cfg(test)]
mod tests;

use std::sync::Arc;

use crate::manifest::duration::Millis;
use crate::manifest::model::WorkloadKind;
use crate::manifest::read::Reading;
use crate::manifest::scenario::{Act, Action, Scale};

use super::{Event, Run};
use controller::Controller;

/// `--horizontal-pod-autoscaler-sync-period`.
pub const SYNC_PERIOD: Millis = 15_000;
/// `--horizontal-pod-autoscaler-tolerance`.
pub const TOLERANCE: f64 = 0.1;
/// `--horizontal-pod-autoscaler-downscale-stabilization`.
pub const DOWNSCALE_STABILIZATION: Millis = 300_000;
/// `--horizontal-pod-autoscaler-cpu-initialization-period`.
pub const CPU_INITIALIZATION_PERIOD: Millis = 300_000;
/// `--horizontal-pod-autoscaler-initial-readiness-delay`.
pub const INITIAL_READINESS_DELAY: Millis = 30_000;
/// Decisions the replay applies at most (each costs one more simulation).
pub const MAX_RESCALES: usize = 64;

/// What one HPA did over the run.
#[derive(Clone, Debug, PartialEq)]
pub struct AutoscalerRun {
    pub name: String,
    /// `Deployment/model-api`.
    pub target: String,
    pub min_replicas: i32,
    pub max_replicas: i32,
    /// Every pass, in time order.
    pub syncs: Vec<Pass>,
    /// The HPA as stored (defaults applied): what kubectl shows of its
    /// spec (`explain::hpa`).
    pub spec: crate::manifest::hpa::Autoscaler,
    /// Set when the replay stopped applying decisions (after
    /// [`MAX_RESCALES`]): from this time the HPA's passes are not shown.
    pub capped: Option<Millis>,
}

/// The status one pass wrote.
#[derive(Clone, Debug, PartialEq)]
pub struct Pass {
    pub at: Millis,
    /// `status.currentReplicas`: the target's `spec.replicas` it read.
    pub current_replicas: i32,
    pub desired_replicas: i32,
    /// It wrote a new scale (`SuccessfulRescale`).
    pub rescaled: bool,
    /// `New size: N; reason: <this>`.
    pub reason: Option<String>,
    /// `status.currentMetrics`, one per `spec.metrics` entry (`None`: the
    /// metric failed).
    pub metrics: Vec<Option<MetricValue>>,
    /// In the order first set.
    pub conditions: Vec<Condition>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MetricValue {
    /// Resource Utilization: the utilization (%) and the average (milli).
    Utilization { percent: i32, average_milli: i64 },
    /// AverageValue targets: the average, milli-units.
    AverageValue { milli: i64 },
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Condition {
    /// `AbleToScale`, `ScalingActive`, `ScalingLimited`.
    pub kind: &'static str,
    pub status: bool,
    pub reason: &'static str,
    pub message: String,
    pub last_transition: Millis,
}

/// A decision applied to the simulation.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Rescale {
    at: Millis,
    hpa: usize,
    replicas: i32,
    /// KEDA's loop decided it (0 ↔ 1), not the HPA.
    keda: bool,
}

/// Simulates `reading` with its HPAs, one round at a time: each
/// [`Replay::step`] runs `simulate` (the pods and the traffic for the
/// reading with the decisions found so far, as `kubectl scale` actions
/// after the Scenario's own; the reading itself is never copied) and walks
/// the syncs over it. There is one round per applied decision, plus one;
/// `sim::Passes` steps it, `sim::simulate_reading` to the end, the page in
/// separate tasks (issue 28 item 4: each round is one simulation of the
/// pods and the traffic, so the page answers input between them).
#[derive(Clone, Debug, Default)]
pub struct Replay {
    /// The decisions found so far, as actions.
    applied: Vec<Action>,
    known: Vec<Rescale>,
}

impl Replay {
    /// One round: simulate with the decisions found so far and walk the
    /// HPAs' syncs over it. `Some(run)` once no new decision comes (the
    /// run is final); `None` when one did (it is kept for the next round).
    pub fn step(&mut self, reading: &Reading, simulate: &dyn Fn(&[Action]) -> Run) -> Option<Run> {
        let mut run = simulate(&self.applied);
        let walk = walk(reading, &run, &self.known, self.known.len() >= MAX_RESCALES);
        match walk.new_rescale {
            Some(rescale) if self.known.len() < MAX_RESCALES => {
                let hpa = &reading.autoscalers[rescale.hpa];
                self.applied.push(Action {
                    at: rescale.at,
                    span: hpa.span,
                    act: Act::Scale(Scale {
                        name: hpa.target_name.clone(),
                        replicas: i64::from(rescale.replicas),
                    }),
                });
                self.known.push(rescale);
                None
            }
            _ => {
                merge_events(&mut run, walk.events);
                run.autoscalers = walk.records;
                Some(run)
            }
        }
    }

    /// The decisions applied so far (one per round that found one).
    pub fn decisions(&self) -> usize {
        self.known.len()
    }
}

struct Walk {
    records: Vec<AutoscalerRun>,
    events: Vec<Event>,
    new_rescale: Option<Rescale>,
}

/// Every HPA's passes over `run`, until the first decision not in `known`
/// (or, when `capped`, until it and no further).
fn walk(reading: &Reading, run: &Run, known: &[Rescale], capped: bool) -> Walk {
    let end = run.end;
    let source = metrics::Source::new(run);
    let mut controllers: Vec<Controller> =
        reading.autoscalers.iter().map(Controller::new).collect();
    let mut records: Vec<AutoscalerRun> = reading
        .autoscalers
        .iter()
        .map(|hpa| AutoscalerRun {
            name: hpa.name.clone(),
            target: format!("{}/{}", hpa.target_kind, hpa.target_name),
            min_replicas: hpa.min_replicas,
            max_replicas: hpa.max_replicas,
            spec: hpa.clone(),
            syncs: Vec::new(),
            capped: None,
        })
        .collect();
    let mut new_rescale = None;
    let mut loops: Vec<keda::Loop> = reading
        .autoscalers
        .iter()
        .map(|_| keda::Loop::default())
        .collect();
    // KEDA checks at 0 and every `pollingInterval`; the HPA passes from
    // 15 s on every 15 s. At one instant KEDA's check comes first.
    let mut at: Millis = 0;
    'time: while at <= end {
        for (index, controller) in controllers.iter_mut().enumerate() {
            let hpa = controller.hpa;
            let keda_due = hpa
                .keda
                .as_ref()
                .filter(|keda| at.is_multiple_of(keda.polling_ms));
            let hpa_due = at >= SYNC_PERIOD && at.is_multiple_of(SYNC_PERIOD);
            if keda_due.is_none() && !hpa_due {
                continue;
            }
            let target = reading
                .workloads
                .iter()
                .find(|w| w.name == hpa.target_name && w.kind.as_str() == hpa.target_kind);
            let workload = target
                .filter(|w| matches!(w.kind, WorkloadKind::Deployment | WorkloadKind::ReplicaSet));
            let Some(workload) = workload else {
                // A target the text has but podlab does not scale (a
                // StatefulSet): no pass is simulated, and the reading says
                // so (PL004, `manifest::read`), rather than a `not found`
                // a cluster would never print.
                let stateful = target.is_some_and(|w| w.kind == WorkloadKind::StatefulSet);
                if !hpa_due || stateful {
                    continue;
                }
                // `scaleForResourceMappings` finds nothing to scale.
                let resource = resource_of(&hpa.target_kind);
                let message = format!("{resource} \"{}\" not found", hpa.target_name);
                let pass = controller.failed_get_scale(message, at);
                records[index].syncs.push(pass);
                continue;
            };
            let owner = format!("{}/{}", workload.kind.as_str(), workload.name);
            let view = at.saturating_sub(1);
            let pods: Vec<usize> = (0..run.pods.len())
                .filter(|&p| {
                    let pod = &run.pods[p];
                    // A pod released by a relabel no longer matches the
                    // target's selector (`sim/metadata.rs`).
                    pod.owner == owner && pod.exists_at(view) && pod.owned_at(view)
                })
                .collect();
            let mut decisions: Vec<Rescale> = Vec::new();
            if let Some(keda) = keda_due {
                let replicas = spec_replicas(reading, workload, known, at);
                let value = keda
                    .trigger
                    .as_ref()
                    .and_then(|trigger| source.prometheus(trigger.series, &pods, at));
                // `GVKString` and the namespace: `apps/v1.Deployment default/NAME`.
                let target = format!(
                    "apps/v1.{} default/{}",
                    workload.kind.as_str(),
                    workload.name
                );
                if let Some(to) = loops[index].check(keda, value, replicas, &target, at) {
                    decisions.push(Rescale {
                        at,
                        hpa: index,
                        replicas: to,
                        keda: true,
                    });
                }
            }
            if hpa_due {
                let replicas = spec_replicas(reading, workload, known, at);
                let sync = controller.reconcile(&source, &pods, replicas, at);
                let rescaled = sync.rescaled.then_some(sync.desired_replicas);
                records[index].syncs.push(sync);
                if let Some(replicas) = rescaled {
                    decisions.push(Rescale {
                        at,
                        hpa: index,
                        replicas,
                        keda: false,
                    });
                }
            }
            for rescale in decisions {
                if !known.contains(&rescale) {
                    if capped {
                        records[index].capped = Some(at);
                    }
                    new_rescale = Some(rescale);
                    break 'time;
                }
            }
        }
        let mut next = (at / SYNC_PERIOD + 1) * SYNC_PERIOD;
        for hpa in &reading.autoscalers {
            if let Some(keda) = &hpa.keda {
                next = next.min((at / keda.polling_ms + 1) * keda.polling_ms);
            }
        }
        at = next;
    }
    let mut events: Vec<Event> = Vec::new();
    for (controller, record) in controllers.iter().zip(&records) {
        let object: Arc<str> = format!("HorizontalPodAutoscaler/{}", record.name).into();
        for event in &controller.events {
            events.push(Event {
                at: event.at,
                object: object.clone(),
                field_path: None,
                warning: event.warning,
                reason: event.reason,
                message: event.message.as_str().into(),
                source: "horizontal-pod-autoscaler",
            });
        }
    }
    for (hpa, keda_loop) in reading.autoscalers.iter().zip(&loops) {
        let Some(keda) = &hpa.keda else { continue };
        let object: Arc<str> = format!("ScaledObject/{}", keda.name).into();
        for event in &keda_loop.events {
            events.push(Event {
                at: event.at,
                object: object.clone(),
                field_path: None,
                warning: event.warning,
                reason: event.reason,
                message: event.message.as_str().into(),
                source: "keda-operator",
            });
        }
    }
    crate::sort::sort_by_key(&mut events, |event| event.at);
    Walk {
        records,
        events,
        new_rescale,
    }
}

/// A kind's group resource as the API names it (`deployments.apps`,
/// `services`). The resource is the kind lowercased, in ASCII: every kind
/// an API server can serve is ASCII (a CRD's kind must lowercase to a
/// DNS-1035 label), and `str::to_lowercase` would bring Unicode's case
/// tables into the web build (9 KB gzip).
pub(super) fn resource_of(kind: &str) -> String {
    match kind {
        "Deployment" => "deployments.apps".to_string(),
        "ReplicaSet" => "replicasets.apps".to_string(),
        "StatefulSet" => "statefulsets.apps".to_string(),
        "Ingress" => "ingresses.networking.k8s.io".to_string(),
        other => format!("{}s", other.to_ascii_lowercase()),
    }
}

/// The target's `spec.replicas` just before `at`: its manifest's count,
/// then each `kubectl scale` of the Scenario and each applied decision.
fn spec_replicas(
    reading: &Reading,
    workload: &crate::manifest::model::Workload,
    known: &[Rescale],
    at: Millis,
) -> i32 {
    let mut changes: Vec<(Millis, i64)> = reading
        .scenario
        .actions
        .iter()
        .filter(|action| action.at < at)
        .filter_map(|action| {
            let Act::Scale(scale) = &action.act else {
                return None;
            };
            (scale.name == workload.name).then_some((action.at, scale.replicas))
        })
        .collect();
    changes.extend(
        known
            .iter()
            .filter(|rescale| {
                rescale.at < at && reading.autoscalers[rescale.hpa].target_name == workload.name
            })
            .map(|rescale| (rescale.at, i64::from(rescale.replicas))),
    );
    crate::sort::sort_by_key(&mut changes, |(when, _)| *when);
    let replicas = changes
        .last()
        .map(|(_, replicas)| *replicas)
        .or(workload.replicas.as_ref().map(|r| r.value))
        .unwrap_or(1);
    i32::try_from(replicas.max(0)).unwrap_or(i32::MAX)
}

/// The HPA's events join the run's: at one instant, before what its scale
/// causes (the deployment-controller's `ScalingReplicaSet`).
fn merge_events(run: &mut Run, hpa_events: Vec<Event>) {
    if hpa_events.is_empty() {
        return;
    }
    let mut merged = Vec::with_capacity(run.events.len() + hpa_events.len());
    let mut others = std::mem::take(&mut run.events).into_iter().peekable();
    for event in hpa_events {
        while others.peek().is_some_and(|other| other.at < event.at) {
            merged.extend(others.next());
        }
        merged.push(event);
    }
    merged.extend(others);
    run.events = merged;
}
