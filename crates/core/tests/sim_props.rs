//! Properties of any run (issue 3): restart counts never decrease, a
//! container is never Ready before its startupProbe has succeeded, the same
//! input gives the same run, memory never passes the limit (the OOM kill
//! comes first) and the timeline's polyline agrees with it, and pods on a
//! time-sliced GPU never hold more device memory than the card has nor more
//! replicas than it advertises.

use podlab_core::sim::{simulate, Options};
use proptest::prelude::*;

fn manifest(
    startup_s: u64,
    delay: u64,
    period: u64,
    threshold: u64,
    with_startup: bool,
    limit_gi: u64,
) -> String {
    let startup_probe = if with_startup {
        format!(
            "          startupProbe:\n            httpGet: {{ path: /health, port: 8000 }}\n            periodSeconds: {period}\n            failureThreshold: {threshold}\n"
        )
    } else {
        String::new()
    };
    format!(
        "apiVersion: apps/v1\nkind: Deployment\nmetadata: {{ name: m }}\nspec:\n  replicas: 2\n  selector: {{ matchLabels: {{ app: m }} }}\n  template:\n    metadata: {{ labels: {{ app: m }} }}\n    spec:\n      containers:\n        - name: api\n          image: m:1\n          ports: [{{ containerPort: 8000 }}]\n          resources: {{ limits: {{ memory: {limit_gi}Gi }} }}\n{startup_probe}          readinessProbe:\n            httpGet: {{ path: /health, port: 8000 }}\n          livenessProbe:\n            httpGet: {{ path: /health, port: 8000 }}\n            initialDelaySeconds: {delay}\n            periodSeconds: {period}\n            failureThreshold: {threshold}\n---\napiVersion: podlab.dev/v1alpha1\nkind: Scenario\nmetadata: {{ name: p }}\nspec:\n  workload:\n    - container: api\n      startup: {startup_s}s\n      memory: {{ steady: 4Gi, peak: 7Gi }}\n  cluster:\n    nodePools:\n      - {{ name: gpu, count: 2 }}\n"
    )
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]

    #[test]
    fn runs_are_consistent(
        startup_s in 1u64..200,
        delay in 0u64..60,
        period in 1u64..30,
        threshold in 1u64..8,
        with_startup in any::<bool>(),
        limit_gi in 4u64..12,
    ) {
        let text = manifest(startup_s, delay, period, threshold, with_startup, limit_gi);
        let options = Options { until: Some(30 * 60 * 1000) };
        let run = simulate(&text, &options);
        prop_assert_eq!(&run, &simulate(&text, &options));
        for pod in &run.pods {
            let mut previous = 0;
            for t in (0..=run.end).step_by(5_000) {
                for status in pod.statuses_at(t) {
                    prop_assert!(status.restart_count >= previous || pod.containers.len() > 1);
                    previous = status.restart_count;
                }
            }
            for container in &pod.containers {
                for instance in &container.instances {
                    for (ready_from, _) in &instance.ready {
                        let started_ok = instance.started_ok;
                        prop_assert!(started_ok.is_some_and(|ok| ok <= *ready_from),
                            "Ready at {} before Started ({:?})", ready_from, started_ok);
                    }
                }
            }
        }
        // Event times never go backwards.
        prop_assert!(run.events.windows(2).all(|pair| pair[0].at <= pair[1].at));
        // Memory stays within the limit; the polyline gives the same curve.
        let limit = i128::from(limit_gi) << 30;
        for pod in &run.pods {
            let container = &pod.containers[0];
            let points = container.memory_points();
            prop_assert!(points.windows(2).all(|w| w[0].0 <= w[1].0));
            for t in (0..=run.end).step_by(700) {
                let memory = container.memory_at(t);
                prop_assert!(memory <= limit, "{} > limit at {}", memory, t);
                if let Some(drawn) = polyline_at(&points, t) {
                    let tolerance = (memory.abs() / 1_000_000).max(1 << 20);
                    prop_assert!((drawn - memory).abs() <= tolerance,
                        "polyline {} vs memory_at {} at {}", drawn, memory, t);
                }
            }
        }
    }

    #[test]
    fn time_sliced_gpus_never_hold_more_than_the_card(
        replicas in 1u64..9,
        slices in 1u64..5,
        nodes in 1u64..3,
        gpu_gi in 1u64..12,
        startup_s in 1u64..120,
    ) {
        let text = format!(
            "apiVersion: apps/v1\nkind: Deployment\nmetadata: {{ name: g }}\nspec:\n  replicas: {replicas}\n  selector: {{ matchLabels: {{ app: g }} }}\n  template:\n    metadata: {{ labels: {{ app: g }} }}\n    spec:\n      containers:\n        - name: api\n          image: g:1\n          resources: {{ limits: {{ nvidia.com/gpu: 1, memory: 30Gi }} }}\n---\napiVersion: podlab.dev/v1alpha1\nkind: Scenario\nmetadata: {{ name: p }}\nspec:\n  workload:\n    - container: api\n      startup: {startup_s}s\n      memory: {{ steady: 2Gi, peak: 3Gi }}\n      gpuMemory: {gpu_gi}Gi\n  cluster:\n    nodePools:\n      - name: t4\n        count: {nodes}\n        gpu: {{ model: T4, count: 1 }}\n        sharing: {{ mode: timeSlicing, replicas: {slices} }}\n"
        );
        let run = simulate(&text, &Options { until: Some(20 * 60 * 1000) });
        for t in (0..=run.end).step_by(900) {
            for node in 0..nodes {
                let name = format!("t4-{node}");
                let here: Vec<_> = run
                    .pods
                    .iter()
                    .filter(|p| p.node.as_ref().is_some_and(|(n, at)| *n == name && *at <= t))
                    .collect();
                prop_assert!(here.len() as u64 <= slices, "{} pods on {} with {} slices", here.len(), name, slices);
                let used: i128 = here.iter().map(|p| p.containers[0].gpu_memory_at(t)).sum();
                prop_assert!(used <= 16 << 30, "{} bytes on {} at {}", used, name, t);
            }
        }
    }
}

/// The polyline's value at `t` (the later point of a vertical step wins,
/// as `memory_at` takes the state from `t` on); None before its first point.
fn polyline_at(points: &[(u64, i128)], t: u64) -> Option<i128> {
    let mut value = None;
    for pair in points.windows(2) {
        let ((t0, v0), (t1, v1)) = (pair[0], pair[1]);
        if t0 <= t && t <= t1 {
            value = Some(if t1 == t0 {
                v1
            } else {
                v0 + (v1 - v0) * i128::from(t - t0) / i128::from(t1 - t0)
            });
        }
    }
    value.or_else(|| {
        points
            .last()
            .filter(|(last, _)| *last <= t)
            .map(|(_, v)| *v)
    })
}
