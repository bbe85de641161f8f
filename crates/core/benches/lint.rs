//! `cargo bench -p podlab-core --bench lint`: how fast `lint` is, with std only.
//!
//! (a) throughput over the corpus (`crates/core/tests/corpus/`, a copy of
//! `../shared/corpus`), best of several rounds after a warm-up; skipped with a message
//! when the corpus is missing. (b) one typical GPU model-serving Deployment
//! (`benches/deployment.yaml`), median and minimum over many runs.
//!
//! Without `--bench` (as `cargo test --benches` runs it) every input is
//! linted once, as a smoke test, and nothing is timed.

use std::hint::black_box;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use podlab_core::lint::lint;

const CORPUS_DIR: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/corpus");
const DEPLOYMENT: &str = include_str!("deployment.yaml");

const CORPUS_WARMUP_ROUNDS: usize = 3;
const CORPUS_ROUNDS: usize = 15;
const DEPLOYMENT_WARMUP: usize = 200;
const DEPLOYMENT_ITERATIONS: usize = 2000;

fn main() {
    let timed = std::env::args().any(|arg| arg == "--bench");
    let corpus = load_corpus();
    if !timed {
        for (_, text) in corpus.iter().flatten() {
            black_box(lint(black_box(text)));
        }
        black_box(lint(black_box(DEPLOYMENT)));
        println!("lint bench: test mode (no --bench), every input linted once");
        return;
    }
    match &corpus {
        Some(files) => bench_corpus(files),
        None => println!("corpus: skipped, no corpus at {CORPUS_DIR}"),
    }
    bench_deployment();
}

/// Every `.yaml`/`.yml` file of the corpus with its text, or `None` without a corpus.
fn load_corpus() -> Option<Vec<(PathBuf, String)>> {
    let dir = PathBuf::from(CORPUS_DIR);
    if !dir.is_dir() {
        return None;
    }
    let mut paths = Vec::new();
    collect_yaml(&dir, &mut paths);
    paths.sort();
    let files = paths
        .into_iter()
        .filter_map(|path| match std::fs::read_to_string(&path) {
            Ok(text) => Some((path, text)),
            Err(error) => {
                eprintln!("corpus: cannot read {}: {error}", path.display());
                None
            }
        })
        .collect();
    Some(files)
}

fn collect_yaml(dir: &Path, paths: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        eprintln!("corpus: cannot list {}", dir.display());
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() {
            collect_yaml(&path, paths);
        } else if matches!(
            path.extension().and_then(|ext| ext.to_str()),
            Some("yaml" | "yml")
        ) {
            paths.push(path);
        }
    }
}

fn bench_corpus(files: &[(PathBuf, String)]) {
    let bytes: usize = files.iter().map(|(_, text)| text.len()).sum();
    let lint_all = || {
        let mut diagnostics = 0;
        for (_, text) in files {
            diagnostics += black_box(lint(black_box(text))).diagnostics.len();
        }
        diagnostics
    };
    for _ in 0..CORPUS_WARMUP_ROUNDS {
        black_box(lint_all());
    }
    let mut best = Duration::MAX;
    for _ in 0..CORPUS_ROUNDS {
        let started = Instant::now();
        black_box(lint_all());
        best = best.min(started.elapsed());
    }
    let seconds = best.as_secs_f64().max(f64::MIN_POSITIVE);
    println!(
        "corpus: {} files, {bytes} bytes, best of {CORPUS_ROUNDS} rounds ({CORPUS_WARMUP_ROUNDS} warm-up): {:.2} ms per round",
        files.len(),
        seconds * 1e3
    );
    println!(
        "corpus: {:.2} MB/s, {:.0} files/s",
        bytes as f64 / 1e6 / seconds,
        files.len() as f64 / seconds
    );
}

fn bench_deployment() {
    for _ in 0..DEPLOYMENT_WARMUP {
        black_box(lint(black_box(DEPLOYMENT)));
    }
    let mut times: Vec<Duration> = (0..DEPLOYMENT_ITERATIONS)
        .map(|_| {
            let started = Instant::now();
            black_box(lint(black_box(DEPLOYMENT)));
            started.elapsed()
        })
        .collect();
    times.sort();
    let micros = |duration: Duration| duration.as_secs_f64() * 1e6;
    let median = micros(times[times.len() / 2]);
    let min = micros(times[0]);
    println!(
        "deployment: {} lines, {} bytes, {DEPLOYMENT_ITERATIONS} iterations ({DEPLOYMENT_WARMUP} warm-up): median {median:.1} µs, min {min:.1} µs",
        DEPLOYMENT.lines().count(),
        DEPLOYMENT.len()
    );
}
