//! The exercise library: the files of the repository's `exercises/`
//! directory, embedded so the CLI and the wasm page need no file access.
//!
//! Each exercise is `exercises/<id>.yaml` (manifests + Scenario + Exercise)
//! and its reference solution `exercises/<id>.solution.yaml` (the fixed
//! manifests + Scenario). A test walks the whole library: every file reads
//! without diagnostics, every start fails a goal, every solution passes all.

use super::{read, Exercise};

macro_rules! entry {
    ($id:literal) => {
        (
            $id,
            include_str!(concat!("../../../../exercises/", $id, ".yaml")),
            include_str!(concat!("../../../../exercises/", $id, ".solution.yaml")),
        )
    };
}

/// `(id, starting file, solution)`, in the order the index lists them.
pub const FILES: &[(&str, &str, &str)] = &[
    entry!("liveness-crash-loop"),
    entry!("startup-budget-too-short"),
    entry!("readiness-missing"),
    entry!("probe-wrong-port"),
    entry!("oom-loading-peak"),
    entry!("oom-workers"),
    entry!("no-device-plugin"),
    entry!("one-gpu-two-replicas"),
    entry!("gpu-taint"),
    entry!("fractional-gpu"),
    entry!("timeslice-neighbour"),
    entry!("mig-on-t4"),
    entry!("job-backoff-limit"),
    entry!("cronjob-overlap"),
    entry!("silent-model-version"),
];

/// Every exercise of the library, in order. An exercise whose file does not
/// lower is left out (the library test proves none is).
pub fn all() -> Vec<Exercise> {
    FILES
        .iter()
        .filter_map(|(_, start, solution)| {
            let (exercise, _) = read(start);
            exercise.map(|mut exercise| {
                exercise.solution = Some((*solution).to_string());
                exercise
            })
        })
        .collect()
}

/// The exercise with this id.
pub fn find(id: &str) -> Option<Exercise> {
    let (_, start, solution) = FILES.iter().find(|(known, _, _)| *known == id)?;
    let (exercise, _) = read(start);
    exercise.map(|mut exercise| {
        exercise.solution = Some((*solution).to_string());
        exercise
    })
}
