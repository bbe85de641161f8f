//! `cargo bench -p podlab-core --bench traffic`: the traffic engine alone
//! (issue 15: 100 requests/s for 15 minutes, 90,000 requests, in under
//! 20 ms natively). The run of the pods is simulated once; what is timed is
//! `sim::traffic::simulate_traffic` over it: Poisson arrivals, random
//! routing over two replicas of a vLLM Deployment, exponential
//! service, every request simulated. Median and minimum over many rounds.
//!
//! Without `--bench` (as `cargo test --benches` runs it) it runs once and
//! checks the count; nothing is timed.

use std::hint::black_box;
use std::time::{Duration, Instant};

use podlab_core::manifest::read::read;
use podlab_core::sim::traffic::{simulate_traffic, TrafficOptions};
use podlab_core::sim::{simulate_reading, Options};

const WARMUP: usize = 5;
const ROUNDS: usize = 50;

const TEXT: &str = "apiVersion: v1
kind: Service
metadata: { name: llm-server }
spec:
  selector: { app: llm-server }
  ports: [{ port: 80, targetPort: 8000 }]
---
apiVersion: apps/v1
kind: Deployment
metadata: { name: llm-server }
spec:
  replicas: 2
  selector: { matchLabels: { app: llm-server } }
  template:
    metadata: { labels: { app: llm-server } }
    spec:
      containers:
        - name: vllm
          image: vllm/vllm-openai:v0.6.3
          ports: [{ containerPort: 8000 }]
          resources: { limits: { memory: 8Gi, nvidia.com/gpu: 1 } }
          startupProbe: { httpGet: { path: /health, port: 8000 }, periodSeconds: 10, failureThreshold: 30 }
          readinessProbe: { httpGet: { path: /health, port: 8000 }, periodSeconds: 5 }
---
apiVersion: podlab.dev/v1alpha1
kind: Scenario
metadata: { name: traffic-bench }
spec:
  duration: 15m
  workload:
    - container: vllm
      startup: 40s
      serve: { concurrency: 4, latency: 40ms, distribution: exponential }
  cluster:
    nodePools: [{ name: gpu, count: 2, cpu: 8, memory: 32Gi, gpu: { model: A100-80GB, count: 1 } }]
  traffic:
    service: llm-server
    rate: [{ at: 0s, rps: 100 }]
    arrivals: poisson
";

fn main() {
    let timed = std::env::args().any(|arg| arg == "--bench");
    let text = TEXT;
    let reading = read(text);
    let seed = reading.seed;
    let run = simulate_reading(&reading, seed, &Options::default());
    let once = || simulate_traffic(&reading, &run, seed, TrafficOptions::default());
    let traffic = once().expect("the Scenario sends traffic");
    let total = traffic.stats(0, run.end);
    assert!(total.arrived > 85_000, "{} requests", total.arrived);
    assert!(total.served > 80_000, "{} served", total.served);
    if !timed {
        println!(
            "traffic bench: test mode (no --bench), {} requests",
            total.arrived
        );
        return;
    }
    for _ in 0..WARMUP {
        black_box(once());
    }
    let mut times: Vec<Duration> = (0..ROUNDS)
        .map(|_| {
            let start = Instant::now();
            black_box(once());
            start.elapsed()
        })
        .collect();
    times.sort();
    let median = times[ROUNDS / 2];
    println!(
        "traffic: {} requests over 15 simulated minutes ({} served): median {:.2} ms, min {:.2} ms, {:.1} M requests/s",
        total.arrived,
        total.served,
        median.as_secs_f64() * 1e3,
        times[0].as_secs_f64() * 1e3,
        total.arrived as f64 / median.as_secs_f64() / 1e6,
    );
}
