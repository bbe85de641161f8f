//! `cargo bench -p podlab-core --bench map`: how fast the outcome map is,
//! with std only (issue 32).
//!
//! A 32 × 24 map of the reference Deployment (`deployment.yaml` here, the
//! page's default text before its Scenario) over the default axes, load
//! time 0s..5m × memory peak 1Gi..16Gi: 768 full simulations of 15
//! simulated minutes. The page's target is one map within 250 ms of the
//! end of a drag. Reported: the median and minimum time of one map over a
//! few rounds after a warm-up, maps per second, and simulations per
//! second; then the same for a map over a manifest field (the livenessProbe's
//! `periodSeconds`), whose cells re-hash the seed. First a baseline: the
//! text as written simulated 768 times, so the map's own cost (the edits,
//! the seeds, the classification) shows as the difference.
//!
//! Without `--bench` (as `cargo test --benches` runs it) one small map is
//! computed and checked to hold cells; nothing is timed.

use std::hint::black_box;
use std::time::{Duration, Instant};

use podlab_core::lint::read;
use podlab_core::map::{self, Axis};

const REFERENCE: &str = include_str!("deployment.yaml");
const WARMUP: usize = 2;
const ROUNDS: usize = 10;

fn main() {
    let timed = std::env::args().any(|arg| arg == "--bench");
    let reading = read(REFERENCE);
    let axis = |spec: &str| match Axis::parse(spec, &reading) {
        Ok(axis) => axis,
        Err(message) => panic!("{spec}: {}", message.en),
    };
    let x = axis("startup=0s..300s");
    let y = axis("memory.peak=1Gi..16Gi");
    let probe = axis("livenessProbe.periodSeconds=1..60");
    if !timed {
        let map = map::compute(&reading, &x, &y, (4, 3));
        assert_eq!(map.cells.len(), 3);
        assert!(map.cells.iter().all(|row| row.len() == 4));
        println!("map bench: test mode (no --bench), one 4 × 3 map");
        return;
    }
    baseline(&reading);
    bench(
        "reference Deployment, startup × memory.peak",
        &reading,
        &x,
        &y,
    );
    bench(
        "reference Deployment, startup × livenessProbe.periodSeconds",
        &reading,
        &x,
        &probe,
    );
}

/// One simulation of the text as read, 768 times: what a map would cost
/// if a cell cost nothing beyond its simulation (the edits, the seed, the
/// classification are the difference).
fn baseline(reading: &podlab_core::lint::Reading) {
    let options = podlab_core::sim::Options::default();
    let cells = 32 * 24;
    for _ in 0..WARMUP {
        for _ in 0..cells {
            black_box(podlab_core::sim::simulate_reading(
                reading,
                reading.seed,
                &options,
            ));
        }
    }
    let mut times: Vec<Duration> = (0..ROUNDS)
        .map(|_| {
            let started = Instant::now();
            for _ in 0..cells {
                black_box(podlab_core::sim::simulate_reading(
                    black_box(reading),
                    reading.seed,
                    &options,
                ));
            }
            started.elapsed()
        })
        .collect();
    times.sort();
    let ms = |duration: Duration| duration.as_secs_f64() * 1e3;
    println!(
        "baseline: the reference Deployment as written, {cells} simulations, {ROUNDS} rounds: median {:.1} ms, min {:.1} ms",
        ms(times[times.len() / 2]),
        ms(times[0])
    );
}

fn bench(name: &str, reading: &podlab_core::lint::Reading, x: &Axis, y: &Axis) {
    let steps = (32, 24);
    for _ in 0..WARMUP {
        black_box(map::compute(reading, x, y, steps));
    }
    let mut times: Vec<Duration> = (0..ROUNDS)
        .map(|_| {
            let started = Instant::now();
            black_box(map::compute(black_box(reading), x, y, steps));
            started.elapsed()
        })
        .collect();
    times.sort();
    let median = times[times.len() / 2];
    let cells = steps.0 * steps.1;
    let ms = |duration: Duration| duration.as_secs_f64() * 1e3;
    println!(
        "map: {name}, {}x{} = {cells} simulations, {ROUNDS} rounds ({WARMUP} warm-up): median {:.1} ms, min {:.1} ms; {:.2} maps/s, {:.0} simulations/s (median)",
        steps.0,
        steps.1,
        ms(median),
        ms(times[0]),
        1.0 / median.as_secs_f64(),
        cells as f64 / median.as_secs_f64()
    );
}
