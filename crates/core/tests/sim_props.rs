//! Properties of any run (issue 3): restart counts never decrease, a
//! container is never Ready before its startupProbe has succeeded, and the
//! same input gives the same run.

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
    }
}
