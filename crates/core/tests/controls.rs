//! The playground's controls on real manifests (the shared corpus): every
//! change either writes a text that still parses and reads back with the new
//! value, or says why it cannot; it never panics.

use std::path::{Path, PathBuf};

use podlab_core::controls::{apply, values, Change, Preset, SharingChoice};
use podlab_core::lint::lint;

fn yaml_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() {
            yaml_files(&path, out);
        } else if path
            .extension()
            .is_some_and(|ext| ext == "yaml" || ext == "yml")
        {
            out.push(path);
        }
    }
}

#[test]
fn every_change_on_every_corpus_file_reads_back() {
    let mut files = Vec::new();
    yaml_files(
        &Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/corpus"),
        &mut files,
    );
    files.extend(
        std::fs::read_dir(Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/golden"))
            .expect("tests/golden")
            .flatten()
            .map(|entry| entry.path()),
    );
    assert!(
        files.len() > 20,
        "corpus and golden files found: {}",
        files.len()
    );
    let changes = [
        Change::Startup(95_000),
        Change::MemorySteady(7 << 30),
        Change::MemoryPeak(13 << 30),
        Change::Workers(3),
        Change::GpuMemory(21 << 30),
        Change::Preset(Preset::OneL4),
        Change::Sharing(SharingChoice::TimeSlicing(3)),
        Change::Concurrency(6),
        Change::ServiceLatency(120),
        Change::Rate(45_000),
        Change::Burst(150_000),
        Change::AddTraffic,
        Change::MinReplicas(2),
        Change::MaxReplicas(5),
        Change::AutoscalerTarget(40),
        Change::ScaleUpPods(2),
        Change::AddAutoscaler,
    ];
    let mut applied = 0;
    for file in &files {
        let text = std::fs::read_to_string(file).expect("readable");
        if values(&text).is_none() {
            continue;
        }
        for change in &changes {
            let Ok(edited) = apply(&text, change) else {
                continue;
            };
            applied += 1;
            let broken = lint(&edited)
                .diagnostics
                .into_iter()
                .filter(|d| d.rule == "PL001")
                .count();
            assert_eq!(broken, 0, "{} after {change:?}:\n{edited}", file.display());
            let after = values(&edited).expect("still has a container");
            let expected = match change {
                Change::Startup(ms) => after.startup == *ms,
                Change::MemorySteady(bytes) => after.memory_steady == *bytes,
                Change::MemoryPeak(bytes) => after.memory_peak == *bytes,
                Change::Workers(n) => after.workers == *n,
                Change::GpuMemory(bytes) => after.gpu_memory == *bytes,
                Change::Preset(preset) => after.preset == Some(*preset),
                Change::Sharing(choice) => after.sharing == *choice,
                Change::Concurrency(n) => {
                    after.traffic.as_ref().is_none_or(|t| t.concurrency == *n)
                }
                Change::ServiceLatency(ms) => {
                    after.traffic.as_ref().is_none_or(|t| t.latency == *ms)
                }
                Change::Rate(milli) => after.traffic.as_ref().is_some_and(|t| t.rate == *milli),
                Change::Burst(milli) => {
                    after.traffic.as_ref().and_then(|t| t.burst) == Some(*milli)
                }
                Change::AddTraffic => after.traffic.is_some(),
                Change::MinReplicas(n) => after
                    .autoscaler
                    .as_ref()
                    .is_some_and(|a| a.min_replicas == (*n).min(a.max_replicas)),
                Change::MaxReplicas(n) => after
                    .autoscaler
                    .as_ref()
                    .is_some_and(|a| a.max_replicas == (*n).max(a.min_replicas)),
                Change::AutoscalerTarget(value) => after
                    .autoscaler
                    .as_ref()
                    .and_then(|a| a.target)
                    .is_some_and(|(_, target)| target == *value),
                Change::ScaleUpPods(n) => after
                    .autoscaler
                    .as_ref()
                    .is_some_and(|a| a.scale_up_pods == Some(*n)),
                Change::AddAutoscaler => after.autoscaler.is_some(),
            };
            assert!(
                expected,
                "{} after {change:?}: {after:?}\n{edited}",
                file.display()
            );
        }
    }
    assert!(applied > 100, "only {applied} edits applied");
}
