//! `cargo bench -p podlab-core --bench change`: the core's share of one
//! slider change on the page, with std only.
//!
//! Issue 4 asks a slider change to redraw the reference Deployment (the
//! page's default text, `web/src/default.yaml`) in under 16 ms. The page
//! does, per change: `controls::apply` (the text), `controls::values` (the
//! sliders), then once the debounce fires `lint`, `simulate` and
//! `explain::timeline` (the lanes), and the kubectl panes and diagnosis at
//! the cursor (12 minutes here). This times exactly that sequence, median
//! and minimum over many changes after a warm-up; the browser's own share
//! (Yew's diff, layout, paint) is measured in the page by
//! `tests/tests/playground.rs` (`target/e2e/redraw.txt`).
//!
//! Without `--bench` (as `cargo test --benches` runs it) each step runs
//! once and is checked to do something; nothing is timed.

use std::hint::black_box;
use std::time::{Duration, Instant};

use podlab_core::controls::{self, Change};
use podlab_core::explain::{describe, diagnosis, get_pods, logs, timeline};
use podlab_core::lint::lint;
use podlab_core::sim::{simulate, simulate_pods, Options, Passes};

const REFERENCE: &str = include_str!("../../../web/src/default.yaml");

/// A CronJob every minute for a simulated day: 1,439 pods, one lane each.
const CRON_DAY: &str = r#"apiVersion: batch/v1
kind: CronJob
metadata: { name: batch }
spec:
  schedule: "* * * * *"
  jobTemplate:
    spec:
      template:
        spec:
          restartPolicy: Never
          containers:
            - name: main
              image: registry.example.com/report:1.0
              resources:
                limits: { memory: 4Gi }
---
apiVersion: podlab.dev/v1alpha1
kind: Scenario
metadata: { name: day }
spec:
  duration: 24h
  workload:
    - container: main
      startup: 30s
      runFor: 2m
"#;
const WARMUP: usize = 20;
const CHANGES: usize = 200;
const CURSOR_MS: u64 = 12 * 60 * 1000;

fn main() {
    let timed = std::env::args().any(|arg| arg == "--bench");
    if !timed {
        let work = change(REFERENCE, 30);
        assert!(work > 0, "the change produced nothing");
        assert!(change(CRON_DAY, 30) > 1_000, "a day of CronJob pods");
        println!("change bench: test mode (no --bench), one change run");
        return;
    }
    for index in 0..WARMUP {
        black_box(change(REFERENCE, 10 + index as u64));
    }
    bench_cron_day();
    bench_first_pass();
    let mut times: Vec<Duration> = (0..CHANGES)
        .map(|index| {
            // The load time a drag would pass through: 5 s to 600 s.
            let seconds = 5 + (index as u64 * 37) % 596;
            let started = Instant::now();
            black_box(change(black_box(REFERENCE), seconds));
            started.elapsed()
        })
        .collect();
    times.sort();
    let millis = |duration: Duration| duration.as_secs_f64() * 1e3;
    println!(
        "slider change, reference Deployment: apply + values + lint + simulate + timeline + panes at 12m, {CHANGES} changes ({WARMUP} warm-up): median {:.3} ms, min {:.3} ms, max {:.3} ms (budget for the whole redraw: 16 ms)",
        millis(times[times.len() / 2]),
        millis(times[0]),
        millis(times[times.len() - 1]),
    );
}

/// The same change on a day of CronJob runs: the core's part of the
/// page's worst common case (the page draws only the lanes in view).
fn bench_cron_day() {
    let rounds = 5;
    let mut times: Vec<Duration> = (0..rounds)
        .map(|index| {
            let started = Instant::now();
            black_box(change(black_box(CRON_DAY), 20 + index));
            started.elapsed()
        })
        .collect();
    times.sort();
    let pods = simulate(CRON_DAY, &Options::default()).pods.len();
    println!(
        "slider change, CronJob every minute for 24h ({pods} pods): median {:.1} ms, min {:.1} ms over {rounds} changes",
        times[rounds as usize / 2].as_secs_f64() * 1e3,
        times[0].as_secs_f64() * 1e3,
    );
}

/// Issue 28 item 4, with a Service, traffic and an HPA: the page's first
/// pass (`simulate_pods` and the lanes) against the full run, and each of
/// the full run's passes (`Passes::step`, what one task of the page holds).
fn bench_first_pass() {
    const HPA_STEP: &str = include_str!("../../../tests/golden/hpa-cpu-step.yaml");
    let rounds = 20;
    let (mut first, mut full, mut pass) = (Vec::new(), Vec::new(), Vec::new());
    let mut passes_per_run = 0;
    for index in 0..rounds {
        let Ok(text) = controls::apply(HPA_STEP, &Change::Startup((10 + index) * 1000)) else {
            panic!("hpa-cpu-step.yaml has a container to edit");
        };
        let reading = podlab_core::lint::read(&text);
        let started = Instant::now();
        let run = simulate_pods(&reading, reading.seed, &Options::default());
        black_box(timeline::timeline(&run));
        first.push(started.elapsed());
        let started = Instant::now();
        let mut passes = Passes::default();
        passes_per_run = 0;
        loop {
            let one = Instant::now();
            let done = passes.step(&reading, reading.seed, &Options::default());
            pass.push(one.elapsed());
            passes_per_run += 1;
            if let Some(run) = done {
                black_box(timeline::timeline(&run));
                break;
            }
        }
        full.push(started.elapsed());
    }
    let median = |times: &mut Vec<Duration>| {
        times.sort();
        times[times.len() / 2].as_secs_f64() * 1e3
    };
    println!(
        "slider change, hpa-cpu-step.yaml (Service, traffic, HPA): the first pass (pods + lanes) median {:.2} ms; the full run median {:.2} ms in {passes_per_run} passes, one pass median {:.2} ms, max {:.2} ms",
        median(&mut first),
        median(&mut full),
        median(&mut pass),
        pass.last().map_or(0.0, |time| time.as_secs_f64() * 1e3),
    );
}

/// One load-time change, through everything the page derives from it.
/// Returns the size of what was produced, so nothing is optimised away.
fn change(text: &str, startup_seconds: u64) -> usize {
    let Ok(text) = controls::apply(text, &Change::Startup(startup_seconds * 1000)) else {
        panic!("the reference Deployment has a container to edit");
    };
    let values = controls::values(&text);
    let report = lint(&text);
    let run = simulate(&text, &Options::default());
    let lanes = timeline::timeline(&run);
    let mut size = report.diagnostics.len() + lanes.pods.len() + usize::from(values.is_some());
    size += get_pods::render(&run, CURSOR_MS).len();
    if let Some(pod) = run.pods.first() {
        size += describe::describe_pod(&run, pod, CURSOR_MS).len();
        for container in &pod.containers {
            for previous in [false, true] {
                size += logs::logs(&run, pod, &container.name, CURSOR_MS, previous)
                    .map(|text| text.len())
                    .unwrap_or(1);
            }
        }
    }
    size + diagnosis::diagnose(&run, CURSOR_MS).len()
}
