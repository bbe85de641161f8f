//! `cargo bench -p podlab-core --bench sim`: how fast the simulator is, with std only.
//!
//! (a) the article's single-pod crash loop (`tests/golden/crash-loop-liveness-40s.yaml`,
//! 15 simulated minutes), median and minimum over many runs after a warm-up.
//! (b) a cluster-sized run generated here: 1,000 pods on a 100-node pool for
//! 24 simulated hours — crash-looping pods (liveness without a startupProbe,
//! 40 s load), healthy pods (startupProbe, one GPU each, using every GPU) and
//! pods that stay Pending (GPU requests beyond capacity); best of a few
//! rounds, with the number of events (`run.events.len()`) per second.
//!
//! Without `--bench` (as `cargo test --benches` runs it) (a) runs once and
//! (b) is simulated for 10 minutes only, as a smoke test; nothing is timed.

use std::hint::black_box;
use std::time::{Duration, Instant};

use podlab_core::sim::{simulate, Options, Run};

const CRASH_LOOP: &str = include_str!("../../../tests/golden/crash-loop-liveness-40s.yaml");

const CRASH_LOOP_WARMUP: usize = 50;
const CRASH_LOOP_ITERATIONS: usize = 500;
const CLUSTER_ROUNDS: usize = 3;

const NODES: usize = 100;
const GPUS_PER_NODE: usize = 4;
const CRASHING: usize = 400;
const HEALTHY: usize = NODES * GPUS_PER_NODE;
const PENDING: usize = 200;

fn main() {
    let timed = std::env::args().any(|arg| arg == "--bench");
    let cluster = cluster_yaml();
    if !timed {
        black_box(simulate(black_box(CRASH_LOOP), &Options::default()));
        let run = simulate(
            &cluster,
            &Options {
                until: Some(10 * 60_000),
            },
        );
        assert_eq!(run.pods.len(), CRASHING + HEALTHY + PENDING);
        println!("sim bench: test mode (no --bench), each scenario simulated once");
        return;
    }
    bench_crash_loop();
    bench_cluster(&cluster);
}

/// 100 nodes × 4 GPUs; 400 crash-looping pods, 400 healthy GPU pods (every
/// GPU taken), 200 GPU pods that cannot be placed.
fn cluster_yaml() -> String {
    let deployment = |name: &str, replicas: usize, container: &str, extra: &str| {
        format!(
            "apiVersion: apps/v1
kind: Deployment
metadata: {{ name: {name} }}
spec:
  replicas: {replicas}
  selector: {{ matchLabels: {{ app: {name} }} }}
  template:
    metadata: {{ labels: {{ app: {name} }} }}
    spec:
      containers:
        - name: {container}
          image: registry.example.com/{name}:1.0.0
          ports: [{{ containerPort: 8000 }}]
{extra}---
"
        )
    };
    let mut text = String::new();
    text.push_str(&deployment(
        "crashy",
        CRASHING,
        "crash",
        "          resources:
            requests: { cpu: 10m, memory: 128Mi }
            limits: { memory: 1Gi }
          livenessProbe:
            httpGet: { path: /health, port: 8000 }
            initialDelaySeconds: 10
",
    ));
    let gpu_container = "          resources:
            requests: { cpu: 100m, memory: 1Gi }
            limits: { memory: 4Gi, nvidia.com/gpu: 1 }
          startupProbe:
            httpGet: { path: /health, port: 8000 }
            periodSeconds: 10
            failureThreshold: 30
          readinessProbe:
            httpGet: { path: /health, port: 8000 }
            periodSeconds: 5
          livenessProbe:
            httpGet: { path: /health, port: 8000 }
            periodSeconds: 20
";
    text.push_str(&deployment("serving", HEALTHY, "api", gpu_container));
    text.push_str(&deployment("overflow", PENDING, "api", gpu_container));
    text.push_str(&format!(
        "apiVersion: podlab.dev/v1alpha1
kind: Scenario
metadata: {{ name: cluster-day }}
spec:
  duration: 24h
  workload:
    - container: crash
      startup: 40s
      memory: {{ steady: 256Mi, peak: 512Mi }}
    - container: api
      startup: 40s
      memory: {{ steady: 1Gi, peak: 2Gi }}
  cluster:
    nodePools:
      - name: gpu
        count: {NODES}
        cpu: \"32\"
        memory: 256Gi
        gpu: {{ model: A100-80GB, count: {GPUS_PER_NODE} }}
"
    ));
    text
}

fn bench_crash_loop() {
    let options = Options::default();
    for _ in 0..CRASH_LOOP_WARMUP {
        black_box(simulate(black_box(CRASH_LOOP), &options));
    }
    let mut events = 0;
    let mut times: Vec<Duration> = (0..CRASH_LOOP_ITERATIONS)
        .map(|_| {
            let started = Instant::now();
            let run = black_box(simulate(black_box(CRASH_LOOP), &options));
            let elapsed = started.elapsed();
            events = run.events.len();
            elapsed
        })
        .collect();
    times.sort();
    let micros = |duration: Duration| duration.as_secs_f64() * 1e6;
    println!(
        "crash loop: 1 pod, 15m simulated, {events} events, {CRASH_LOOP_ITERATIONS} iterations ({CRASH_LOOP_WARMUP} warm-up): median {:.1} µs, min {:.1} µs",
        micros(times[times.len() / 2]),
        micros(times[0])
    );
}

fn bench_cluster(text: &str) {
    let options = Options::default();
    let mut best = Duration::MAX;
    let mut last: Option<Run> = None;
    for _ in 0..CLUSTER_ROUNDS {
        let started = Instant::now();
        let run = black_box(simulate(black_box(text), &options));
        best = best.min(started.elapsed());
        last = Some(run);
    }
    let Some(run) = last else {
        return;
    };
    let pending = run.pods.iter().filter(|pod| pod.node.is_none()).count();
    let restarts: usize = run
        .pods
        .iter()
        .flat_map(|pod| &pod.containers)
        .map(|container| container.instances.len().saturating_sub(1))
        .sum();
    let seconds = best.as_secs_f64().max(f64::MIN_POSITIVE);
    println!(
        "cluster: {} pods ({CRASHING} crash-looping, {HEALTHY} healthy, {PENDING} pending; {pending} unscheduled) on {NODES} nodes, 24h simulated, {} bytes of YAML",
        run.pods.len(),
        text.len()
    );
    println!(
        "cluster: {} events, {restarts} restarts, best of {CLUSTER_ROUNDS} rounds: {:.3} s wall, {:.0} events/s",
        run.events.len(),
        seconds,
        run.events.len() as f64 / seconds
    );
}
