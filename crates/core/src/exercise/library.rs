//! The exercise library: the files of the repository's `exercises/`
//! directory. With the `library` feature (the CLI, the tests) they are
//! embedded; the web build leaves them out of the wasm (its size budget)
//! and fetches `exercises/<id>.yaml` from the static site instead, reading
//! each with [`from_files`].
//!
//! Each exercise is `exercises/<id>.yaml` (manifests + Scenario + Exercise)
//! and its reference solution `exercises/<id>.solution.yaml` (the fixed
//! manifests + Scenario). A test walks the whole library: every file reads
//! without diagnostics, every start fails a goal, every solution passes all.

use super::{read, Exercise};

#[cfg(feature = "library")]
macro_rules! entry {
    ($id:literal) => {
        (
            $id,
            include_str!(concat!("../../../../exercises/", $id, ".yaml")),
            include_str!(concat!("../../../../exercises/", $id, ".solution.yaml")),
        )
    };
}

/// The ids, in the order the index lists them.
pub const IDS: &[&str] = &[
    "liveness-crash-loop",
    "startup-budget-too-short",
    "readiness-missing",
    "prestop-scale-down",
    "burst-one-replica",
    "probe-wrong-port",
    "oom-loading-peak",
    "oom-workers",
    "no-device-plugin",
    "one-gpu-two-replicas",
    "gpu-taint",
    "fractional-gpu",
    "timeslice-neighbour",
    "timeslice-latency",
    "mig-on-t4",
    "job-backoff-limit",
    "cronjob-overlap",
    "silent-model-version",
    "hpa-burst-cold-start",
    "hpa-cpu-gpu-never-scales",
    "rollout-stuck-on-gpus",
    "gpu-node-maintenance",
    "scale-to-zero-timeout",
    "load-time-edge",
    "memory-peak-edge",
];

/// An exercise from its two files (as fetched by the page).
pub fn from_files(start: &str, solution: Option<&str>) -> Option<Exercise> {
    let (exercise, _) = read(start);
    exercise.map(|mut exercise| {
        exercise.solution = solution.map(str::to_string);
        exercise
    })
}

/// `(id, starting file, solution)`, in the order of [`IDS`].
#[cfg(feature = "library")]
pub const FILES: &[(&str, &str, &str)] = &[
    entry!("liveness-crash-loop"),
    entry!("startup-budget-too-short"),
    entry!("readiness-missing"),
    entry!("prestop-scale-down"),
    entry!("burst-one-replica"),
    entry!("probe-wrong-port"),
    entry!("oom-loading-peak"),
    entry!("oom-workers"),
    entry!("no-device-plugin"),
    entry!("one-gpu-two-replicas"),
    entry!("gpu-taint"),
    entry!("fractional-gpu"),
    entry!("timeslice-neighbour"),
    entry!("timeslice-latency"),
    entry!("mig-on-t4"),
    entry!("job-backoff-limit"),
    entry!("cronjob-overlap"),
    entry!("silent-model-version"),
    entry!("hpa-burst-cold-start"),
    entry!("hpa-cpu-gpu-never-scales"),
    entry!("rollout-stuck-on-gpus"),
    entry!("gpu-node-maintenance"),
    entry!("scale-to-zero-timeout"),
    entry!("load-time-edge"),
    entry!("memory-peak-edge"),
];

/// Every exercise of the library, in order. An exercise whose file does not
/// lower is left out (the library test proves none is).
#[cfg(feature = "library")]
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
#[cfg(feature = "library")]
pub fn find(id: &str) -> Option<Exercise> {
    let (_, start, solution) = FILES.iter().find(|(known, _, _)| *known == id)?;
    let (exercise, _) = read(start);
    exercise.map(|mut exercise| {
        exercise.solution = Some((*solution).to_string());
        exercise
    })
}
