//! The replicas band of the page's timeline (issue 16 item 5): for the
//! workload a HorizontalPodAutoscaler scales, its desired count (the
//! target's `spec.replicas`, which each `SuccessfulRescale` writes), its
//! current count (the ReplicaSets' active pods: created, no
//! `deletionTimestamp`, as `FilterActivePods` counts them) and its Ready
//! count over time, with the HPA's decisions as marks. Drawn above the
//! traffic band, so a burst, the decision at the next 15 s sync, each new
//! pod's cold start and the P99 peak line up in time.

use crate::manifest::duration::Millis;
use crate::sim::{hpa::AutoscalerRun, Run};

/// The band's data.
#[derive(Clone, Debug, PartialEq)]
pub struct ReplicasChart {
    /// The HPA's name and its target (`Deployment/model-api`).
    pub autoscaler: String,
    pub target: String,
    pub min_replicas: i32,
    pub max_replicas: i32,
    pub end: Millis,
    /// The counts from each time on, a new entry only when one changes.
    pub steps: Vec<Step>,
    /// Each pass that wrote a new scale, in time order.
    pub decisions: Vec<Decision>,
    /// The band's top: the largest count drawn or `maxReplicas`.
    pub top: usize,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Step {
    pub from: Millis,
    /// `spec.replicas` of the target.
    pub desired: usize,
    /// Pods created and not being deleted.
    pub current: usize,
    /// Pods Ready (every app container Ready).
    pub ready: usize,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Decision {
    pub at: Millis,
    pub from: i32,
    pub to: i32,
    /// The controller's reason, as `SuccessfulRescale` writes it
    /// (`cpu resource utilization (percentage of request) above target`).
    pub reason: String,
}

/// The band for the run's first HorizontalPodAutoscaler whose target is a
/// Deployment of the text; `None` without one.
pub fn chart(run: &Run) -> Option<ReplicasChart> {
    let (hpa, deployment) = run.autoscalers.iter().find_map(|hpa| {
        let name = hpa.target.strip_prefix("Deployment/")?;
        let deployment = run.deployments.iter().find(|d| d.name == name)?;
        Some((hpa, deployment))
    })?;
    let pods: Vec<_> = run
        .pods
        .iter()
        .filter(|pod| pod.owner == hpa.target)
        .map(|pod| (pod, crate::sim::pod_ready_intervals(pod)))
        .collect();
    let mut times: Vec<Millis> = vec![0];
    times.extend(deployment.replicas.iter().map(|(at, _)| *at));
    for (pod, ready) in &pods {
        times.push(pod.created);
        times.extend(pod.deleting);
        // A relabel's release and adoption (`sim/metadata.rs`).
        for (from, to) in &pod.released {
            times.push(*from);
            times.extend(*to);
        }
        for (from, to) in ready {
            times.push(*from);
            times.push(*to);
        }
    }
    times.retain(|at| *at < run.end);
    crate::sort::sort(&mut times);
    times.dedup();
    let mut steps: Vec<Step> = Vec::new();
    for at in times {
        let step = Step {
            from: at,
            desired: deployment.replicas_at(at),
            current: pods
                .iter()
                .filter(|(pod, _)| pod.active_at(at) && pod.owned_at(at))
                .count(),
            ready: pods
                .iter()
                .filter(|(pod, ready)| {
                    pod.owned_at(at) && ready.iter().any(|(from, to)| *from <= at && at < *to)
                })
                .count(),
        };
        let same = steps.last().is_some_and(|last| {
            (last.desired, last.current, last.ready) == (step.desired, step.current, step.ready)
        });
        if !same {
            steps.push(step);
        }
    }
    let decisions = decisions(hpa);
    let top = steps
        .iter()
        .map(|s| s.desired.max(s.current).max(s.ready))
        .chain([usize::try_from(hpa.max_replicas).unwrap_or(0), 1])
        .max()
        .unwrap_or(1);
    Some(ReplicasChart {
        autoscaler: hpa.name.clone(),
        target: hpa.target.clone(),
        min_replicas: hpa.min_replicas,
        max_replicas: hpa.max_replicas,
        end: run.end,
        steps,
        decisions,
        top,
    })
}

/// The passes that wrote a new scale (until the replay's cap).
fn decisions(hpa: &AutoscalerRun) -> Vec<Decision> {
    hpa.syncs
        .iter()
        .filter(|pass| pass.rescaled && hpa.capped.is_none_or(|capped| pass.at < capped))
        .map(|pass| Decision {
            at: pass.at,
            from: pass.current_replicas,
            to: pass.desired_replicas,
            reason: pass.reason.clone().unwrap_or_default(),
        })
        .collect()
}

impl ReplicasChart {
    /// The counts at `at`.
    pub fn at(&self, at: Millis) -> Option<Step> {
        self.steps.iter().rev().find(|s| s.from <= at).copied()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn exercise_run() -> Run {
        let text = include_str!("../../../../exercises/hpa-burst-cold-start.yaml");
        crate::sim::simulate(text, &crate::sim::Options::default())
    }

    /// hpa-burst-cold-start: one replica serves 50 requests/s (concurrency
    /// 4, 80 ms), the HPA targets 30 requests/s per pod, 20 → 90 at 5:00.
    /// metrics-server/Prometheus scrape at 0:07 + 15 s k, `rate()` over the
    /// last minute (docs/autoscaling.md): the pass at 5:15 sees the window
    /// 4:07-5:07 with 7 s of the burst, (53 × 20 + 7 × 90) / 60 ≈ 28
    /// requests/s: ratio 0.94, within the 0.1 tolerance, no scale; the pass
    /// at 5:30 sees 4:22-5:22, (38 × 20 + 22 × 90) / 60 ≈ 46 per pod
    /// (Poisson arrivals: about), ratio ≈ 1.5 → ceil(1.5 × 1) = 2. So the
    /// band's desired count leaves 1 at 5:30, and the Ready count follows
    /// only after the new pod's 150 s load.
    #[test]
    fn the_band_follows_the_decisions_then_the_cold_start() {
        let run = exercise_run();
        let chart = chart(&run).expect("the exercise has an HPA on a Deployment");
        assert_eq!(chart.target, "Deployment/chat-api");
        assert_eq!((chart.min_replicas, chart.max_replicas), (1, 4));
        assert_eq!(chart.top, 4);
        let first = chart.steps.first().copied().expect("a step at 0");
        assert_eq!((first.from, first.desired), (0, 1));
        let decision = chart.decisions.first().expect("the HPA scales out");
        assert_eq!((decision.at, decision.from, decision.to), (330_000, 1, 2));
        assert!(
            decision.reason.contains("above target"),
            "{}",
            decision.reason
        );
        // The desired count changes at the decision, the current count with
        // it (the ReplicaSet creates the pods at once), the Ready count only
        // after the 150 s load: none before decision + 150 s.
        let at = chart.at(decision.at).expect("a step");
        assert_eq!(at.desired, decision.to as usize);
        assert_eq!(at.current, decision.to as usize);
        assert_eq!(at.ready, 1);
        assert_eq!(chart.at(decision.at + 149_000).map(|s| s.ready), Some(1));
        let more_ready = chart
            .steps
            .iter()
            .find(|s| s.ready > 1)
            .expect("the new pods become Ready");
        assert!(more_ready.from >= decision.at + 150_000, "{more_ready:?}");
        // Steps are in time order and each differs from the one before.
        for pair in chart.steps.windows(2) {
            assert!(pair[0].from < pair[1].from);
            assert_ne!(
                (pair[0].desired, pair[0].current, pair[0].ready),
                (pair[1].desired, pair[1].current, pair[1].ready)
            );
        }
    }

    /// A pod relabelled out of the Deployment's selector at 4 m is
    /// released (`sim/metadata.rs`): the band no longer counts it, only its
    /// replacement, which is not Ready yet (150 s load).
    #[test]
    fn a_released_pod_leaves_the_band() {
        use crate::manifest::scenario::{Act, Action, MetaTarget, Metadata};
        let text = include_str!("../../../../exercises/hpa-burst-cold-start.yaml");
        let plain = exercise_run();
        let label = Act::Label(Metadata {
            target: MetaTarget::Pod,
            name: plain.pods[0].name.clone(),
            span: crate::span::Span::empty(0),
            changes: vec![("app".into(), Some("debug".into()))],
        });
        let action = Action {
            at: 240_000,
            span: crate::span::Span::empty(0),
            act: label,
        };
        let relabelled = crate::controls::record(text, &action).expect("recorded");
        let run = crate::sim::simulate(&relabelled, &crate::sim::Options::default());
        assert_eq!(run.pods[0].released, vec![(240_000, None)]);
        let counts = |run: &Run, at| {
            let step = chart(run).and_then(|chart| chart.at(at)).expect("a step");
            (step.current, step.ready)
        };
        assert_eq!(counts(&plain, 241_000), (1, 1));
        assert_eq!(counts(&run, 241_000), (1, 0));
    }

    #[test]
    fn no_band_without_an_autoscaler() {
        let text = include_str!("../../../../exercises/liveness-crash-loop.yaml");
        let run = crate::sim::simulate(text, &crate::sim::Options::default());
        assert!(chart(&run).is_none());
    }
}
