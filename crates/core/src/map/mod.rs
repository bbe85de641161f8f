//! The outcome map (issue 32, docs/map.md): the outcome of a text over two
//! of its numbers, every cell a full simulation of the text with those two
//! values written into it.
//!
//! ```text
//! let x = map::Axis::parse("startup=0s..300s", &reading)?;
//! let y = map::Axis::parse("memory.peak=1Gi..16Gi", &reading)?;
//! let map = map::compute(&reading, &x, &y, (32, 24));
//! let svg = map::svg(&map, Lang::En);
//! ```
//!
//! A cell edits the parsed model (`Axis::set`), never the text, and is then
//! simulated (`sim::simulate_reading`) and classified ([`classify`]) by the
//! text's first pod at the end of the run, with `kubectl get pods`' STATUS
//! and RESTARTS (`explain::get_pods::row`). Its seed is the seed of the
//! text with the values written: the text's own for the Scenario's numbers,
//! which the seed leaves out (docs/simulator.md "Names and the seed"), so
//! all the cells share it; re-hashed from the edited canonical form for a
//! manifest field. The rules' lines (`lines.rs`) are computed by the rules'
//! own functions; `draw.rs` draws the map as text and as SVG; `write.rs`
//! writes a cell's value into the text (a click on it, the exactness test).

mod axis;
mod choices;
mod draw;
mod lines;
mod write;

pub use axis::{Axis, ProbeField, Target, Unit};
pub use choices::{around, choices, Choice, DEFAULT_AXES};
pub use draw::{grid, svg};
pub use lines::{RuleLine, Side};
pub use write::write;

use crate::i18n::Text;
use crate::manifest::duration::Millis;
use crate::manifest::read::Reading;
use crate::sim::{self, PodRun, Run};
use crate::text;

/// How a cell's run ends, by the text's first pod.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Outcome {
    /// Running and Ready (and, with traffic, its requests answered in time).
    Ready,
    /// Restarted by probe kills or by the program's own exits.
    CrashLoop,
    /// The last termination was OOMKilled (it wins over `CrashLoop`).
    OomKilled,
    /// Not scheduled (FailedScheduling), or no pod exists.
    Pending,
    /// The Job failed (`Failed` condition).
    JobFailed,
    /// The Job completed (or a bare pod Succeeded).
    JobComplete,
    /// Running, never restarted, not Ready.
    NotReady,
    /// Ready, but in the last minute requests failed or the P99 latency
    /// passed the Scenario's `traffic.target`.
    RequestsFailing,
    /// The image cannot be pulled.
    ImagePull,
    /// A Secret or ConfigMap it needs is missing (CreateContainerConfigError,
    /// or a volume that fails to mount).
    MissingConfig,
}

impl Outcome {
    pub const ALL: [Outcome; 10] = [
        Outcome::Ready,
        Outcome::CrashLoop,
        Outcome::OomKilled,
        Outcome::Pending,
        Outcome::JobFailed,
        Outcome::JobComplete,
        Outcome::NotReady,
        Outcome::RequestsFailing,
        Outcome::ImagePull,
        Outcome::MissingConfig,
    ];

    /// The JSON name (issue 32): `ready`, `crash-loop`, `oom-killed`, …
    pub fn name(self) -> &'static str {
        match self {
            Outcome::Ready => "ready",
            Outcome::CrashLoop => "crash-loop",
            Outcome::OomKilled => "oom-killed",
            Outcome::Pending => "pending",
            Outcome::JobFailed => "job-failed",
            Outcome::JobComplete => "job-complete",
            Outcome::NotReady => "not-ready",
            Outcome::RequestsFailing => "requests-failing",
            Outcome::ImagePull => "image-pull",
            Outcome::MissingConfig => "missing-config",
        }
    }

    /// The legend's words, kubectl's where kubectl has them.
    pub fn label(self) -> Text {
        match self {
            Outcome::Ready => text!("Running, Ready", "Running，Ready"),
            Outcome::CrashLoop => text!(
                "CrashLoopBackOff (probe kills or exits)",
                "CrashLoopBackOff（探針砍掉或程式自己結束）"
            ),
            Outcome::OomKilled => text!("OOMKilled", "OOMKilled"),
            Outcome::Pending => text!("Pending", "Pending"),
            Outcome::JobFailed => text!("Job Failed", "Job Failed"),
            Outcome::JobComplete => text!("Job Complete", "Job Complete"),
            Outcome::NotReady => text!("Running, not Ready", "Running，但沒有 Ready"),
            Outcome::RequestsFailing => text!(
                "Ready, requests failing or P99 over target",
                "Ready，但請求失敗或 P99 超過目標"
            ),
            Outcome::ImagePull => text!("ImagePullBackOff", "ImagePullBackOff"),
            Outcome::MissingConfig => text!(
                "CreateContainerConfigError / FailedMount",
                "CreateContainerConfigError / FailedMount"
            ),
        }
    }

    /// The character of the text grid.
    pub fn glyph(self) -> char {
        match self {
            Outcome::Ready => '.',
            Outcome::CrashLoop => 'C',
            Outcome::OomKilled => 'O',
            Outcome::Pending => 'P',
            Outcome::JobFailed => 'F',
            Outcome::JobComplete => 'J',
            Outcome::NotReady => 'n',
            Outcome::RequestsFailing => 'r',
            Outcome::ImagePull => 'I',
            Outcome::MissingConfig => 'M',
        }
    }

    /// The colour of the SVG and of the page's panel.
    pub fn colour(self) -> &'static str {
        match self {
            Outcome::Ready => "#4caf50",
            Outcome::CrashLoop => "#e53935",
            Outcome::OomKilled => "#8e24aa",
            Outcome::Pending => "#9e9e9e",
            Outcome::JobFailed => "#b71c1c",
            Outcome::JobComplete => "#1e88e5",
            Outcome::NotReady => "#fbc02d",
            Outcome::RequestsFailing => "#fb8c00",
            Outcome::ImagePull => "#6d4c41",
            Outcome::MissingConfig => "#00897b",
        }
    }
}

/// One cell: the outcome, and the first pod's STATUS and RESTARTS (the
/// count) as `kubectl get pods` prints them at the end of the run.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Cell {
    pub outcome: Outcome,
    pub status: String,
    pub restarts: usize,
}

/// The values of one axis.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AxisValues {
    pub axis: Axis,
    pub values: Vec<i128>,
}

/// A computed map.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Map {
    pub x: AxisValues,
    pub y: AxisValues,
    /// One row per value of `y`, one cell per value of `x`.
    pub cells: Vec<Vec<Cell>>,
    /// The text's own values (the learner's point), where it has one (a
    /// memory limit it does not write has none).
    pub point: (Option<i128>, Option<i128>),
    /// The lines the rules predict (PL201/PL202's kill band on a load-time
    /// axis, PL104's limit on a memory axis).
    pub lines: Vec<RuleLine>,
}

/// The map of `reading` over `x` × `y`, with `steps` = (columns, rows).
pub fn compute(reading: &Reading, x: &Axis, y: &Axis, steps: (usize, usize)) -> Map {
    let mut filling = Filling::new(reading, x, y, steps);
    while !filling.step(usize::MAX) {}
    filling.map
}

/// A map being filled cell by cell: first the coarse lattice (every other
/// row and column, a quarter of the cells), then the rest, each the
/// nearest to the learner's point first. The page's worker fills it a
/// slice at a time, so the whole map is seen coarse after a quarter of the
/// work (a cell not yet simulated is drawn in its lattice cell's colour,
/// faded) and refined after, a text whose cells are slow (traffic, an
/// HPA's replay) fills around its point, and a newer request can cut in
/// between two slices (docs/map.md "In the page"). [`compute`] fills one
/// at once. Each cell's result does not depend on the order (each sets
/// both axes' values).
pub struct Filling {
    map: Map,
    /// Which cells are simulated, as `map.cells`.
    filled: Vec<Vec<bool>>,
    /// The cells in the order they are filled: (row, column).
    order: Vec<(usize, usize)>,
    /// The lattice's cells, the first of `order`.
    lattice: usize,
    next: usize,
    work: Reading,
    seed: u64,
    manifest: bool,
}

impl Filling {
    /// An empty map: no cell simulated yet (each holds a placeholder until
    /// [`Filling::step`] reaches it).
    pub fn new(reading: &Reading, x: &Axis, y: &Axis, steps: (usize, usize)) -> Filling {
        let xs = x.values(steps.0);
        let ys = y.values(steps.1);
        let mut work = reading.clone();
        work.diagnostics = Vec::new();
        let placeholder = Cell {
            outcome: Outcome::Pending,
            status: String::new(),
            restarts: 0,
        };
        let point = (x.value_in(reading), y.value_in(reading));
        // Nearest to the point first (its nearest cell; the middle when the
        // text has no value there), then by row and column.
        let centre = |values: &[i128], value: Option<i128>| -> i128 {
            let index = value.and_then(|value| {
                values
                    .iter()
                    .enumerate()
                    .min_by_key(|(_, v)| (*v - value).abs())
                    .map(|(index, _)| index)
            });
            i128::try_from(index.unwrap_or(values.len() / 2)).unwrap_or(0)
        };
        let (cx, cy) = (centre(&xs, point.0), centre(&ys, point.1));
        let mut order: Vec<(usize, usize)> = (0..ys.len())
            .flat_map(|row| (0..xs.len()).map(move |column| (row, column)))
            .collect();
        crate::sort::sort_by_key(&mut order, |&(row, column)| {
            let dy = i128::try_from(row).unwrap_or(0) - cy;
            let dx = i128::try_from(column).unwrap_or(0) - cx;
            (!is_lattice(row, column), dx * dx + dy * dy, row, column)
        });
        let lattice = order
            .iter()
            .filter(|&&(row, column)| is_lattice(row, column))
            .count();
        let lines = lines::lines(reading, x, y, &xs, &ys);
        Filling {
            filled: vec![vec![false; xs.len()]; ys.len()],
            map: Map {
                point,
                cells: vec![vec![placeholder; xs.len()]; ys.len()],
                x: AxisValues {
                    axis: x.clone(),
                    values: xs,
                },
                y: AxisValues {
                    axis: y.clone(),
                    values: ys,
                },
                lines,
            },
            order,
            lattice,
            next: 0,
            manifest: x.edits_manifest() || y.edits_manifest(),
            seed: reading.seed,
            work,
        }
    }

    /// Simulates up to `cells` more cells; true once every cell is done.
    pub fn step(&mut self, cells: usize) -> bool {
        for _ in 0..cells {
            let Some(&(row, column)) = self.order.get(self.next) else {
                break;
            };
            self.next += 1;
            let (Some(&yv), Some(&xv)) =
                (self.map.y.values.get(row), self.map.x.values.get(column))
            else {
                continue;
            };
            // Each `set` overwrites what the previous cell wrote.
            self.map.y.axis.set(&mut self.work, yv);
            self.map.x.axis.set(&mut self.work, xv);
            let seed = if self.manifest {
                Axis::seed_of(&self.work)
            } else {
                self.seed
            };
            let cell = classify(&sim::simulate_reading(
                &self.work,
                seed,
                &sim::Options::default(),
            ));
            if let (Some(slot), Some(done)) = (
                self.map.cells.get_mut(row).and_then(|r| r.get_mut(column)),
                self.filled.get_mut(row).and_then(|r| r.get_mut(column)),
            ) {
                *slot = cell;
                *done = true;
            }
        }
        self.is_done()
    }

    pub fn is_done(&self) -> bool {
        self.next >= self.order.len()
    }

    /// Whether the coarse lattice is simulated (the whole map can be drawn
    /// coarse).
    pub fn is_coarse(&self) -> bool {
        self.next >= self.lattice
    }

    /// The cells simulated so far, and all of them.
    pub fn progress(&self) -> (usize, usize) {
        (self.next.min(self.order.len()), self.order.len())
    }

    /// The map as filled so far (a cell not yet simulated holds a
    /// placeholder: draw it with [`Filling::svg`]).
    pub fn map(&self) -> &Map {
        &self.map
    }

    /// The map drawn as filled so far: a cell not yet simulated is grey,
    /// without `data-outcome` (`draw::svg`'s other marks as for a whole map).
    pub fn svg(&self, lang: crate::i18n::Lang) -> String {
        draw::svg_filled(&self.map, Some(&self.filled), lang)
    }
}

/// A cell of the coarse lattice: even row, even column.
fn is_lattice(row: usize, column: usize) -> bool {
    row.is_multiple_of(2) && column.is_multiple_of(2)
}

/// The outcome of a run at its end, by its first pod (in creation order,
/// among those that exist at the end): see docs/map.md for the order of
/// the checks. A pod Ready at the end is `Ready` unless it is looping: it
/// has restarted and a container is still loading after its last start,
/// or its program exits by itself (`exit`, `runFor`).
pub fn classify(run: &Run) -> Cell {
    let at = run.end;
    let Some(pod) = run.pods.iter().find(|pod| pod.exists_at(at)) else {
        // No pod: a Job that ended and was cleaned up, or nothing created.
        let job = run.jobs.first().and_then(|job| job_outcome(run, &job.name));
        return Cell {
            outcome: job.unwrap_or(Outcome::Pending),
            status: String::new(),
            restarts: 0,
        };
    };
    let row = crate::explain::get_pods::row(pod, at);
    let outcome = pod_outcome(run, pod, &row.status, row.restart_count);
    Cell {
        outcome,
        status: row.status,
        restarts: row.restart_count,
    }
}

fn job_outcome(run: &Run, name: &str) -> Option<Outcome> {
    let job = run.jobs.iter().find(|job| job.name == name)?;
    let mut outcome = None;
    for condition in job.conditions_at(run.end) {
        match condition.kind {
            "Failed" => outcome = Some(Outcome::JobFailed),
            "Complete" => outcome = Some(Outcome::JobComplete),
            _ => {}
        }
    }
    outcome
}

fn pod_outcome(run: &Run, pod: &PodRun, status: &str, restarts: usize) -> Outcome {
    let at = run.end;
    if let Some(job) = pod.owner.strip_prefix("Job/") {
        if let Some(outcome) = job_outcome(run, job) {
            return outcome;
        }
    }
    if pod.node.as_ref().is_none_or(|(_, bound)| *bound > at) {
        return Outcome::Pending;
    }
    match status {
        "ErrImagePull" | "ImagePullBackOff" | "ErrImageNeverPull" | "InvalidImageName" => {
            return Outcome::ImagePull
        }
        "CreateContainerConfigError" => return Outcome::MissingConfig,
        "ContainerCreating" if failed_mount(run, pod) => return Outcome::MissingConfig,
        _ => {}
    }
    let statuses = pod.statuses_at(at);
    let ready = !statuses.is_empty() && statuses.iter().all(|s| s.ready);
    // A container without a readinessProbe is Ready while it runs, so a
    // crash loop can end the run Ready between two kills: restarted and
    // still loading, or a program that exits by itself and has restarted,
    // is looping.
    let looping = restarts > 0
        && (!ready
            || pod.containers.iter().any(|container| {
                let loading = container.instances.last().is_some_and(|newest| {
                    newest
                        .started
                        .saturating_add(container.program.startup.value)
                        > at
                });
                let exits = container.program.exit.is_some() || container.program.run_for.is_some();
                container.instances.len() > 1 && (loading || exits)
            }));
    if ready && !looping {
        return match &run.traffic {
            Some(traffic) if requests_failing(traffic, at) => Outcome::RequestsFailing,
            _ => Outcome::Ready,
        };
    }
    if last_termination_oom(pod, at) {
        return Outcome::OomKilled;
    }
    match pod.phase_at(at) {
        _ if looping => Outcome::CrashLoop,
        "Succeeded" => Outcome::JobComplete,
        "Failed" => Outcome::CrashLoop,
        _ => Outcome::NotReady,
    }
}

/// Whether the newest termination among the pod's containers (init
/// containers too) was the kernel's OOM kill.
fn last_termination_oom(pod: &PodRun, at: Millis) -> bool {
    pod.containers
        .iter()
        .chain(&pod.init_containers)
        .flat_map(|container| &container.instances)
        .filter_map(|instance| instance.exit.as_ref())
        .filter(|exit| exit.at <= at)
        .max_by_key(|exit| exit.at)
        .is_some_and(|exit| exit.reason == "OOMKilled")
}

/// A `FailedMount` event for the pod: a Secret or ConfigMap volume that does
/// not exist (`sim/volumes.rs`).
fn failed_mount(run: &Run, pod: &PodRun) -> bool {
    run.events.iter().any(|event| {
        event.reason == "FailedMount" && event.object.strip_prefix("Pod/") == Some(&pod.name)
    })
}

/// In the last minute of the run, a request failed or the P99 latency
/// passed the target (docs/traffic.md).
fn requests_failing(traffic: &sim::traffic::TrafficRun, end: Millis) -> bool {
    let stats = traffic.stats(end.saturating_sub(60_000), end);
    stats.failed_total() > 0
        || stats
            .p99
            .is_some_and(|p99| p99 > traffic.target.saturating_mul(1000))
}
