//! The lines the rules predict on a map, computed by the rules' own
//! functions on the model edited as the cells edit it, never by a copy of
//! their formulas:
//!
//! - PL201 (a livenessProbe without a startupProbe) and PL202 (a
//!   startupProbe) on a load-time axis: the probe's kill window
//!   `rules::kill_window`, `initialDelaySeconds + (failureThreshold − 1) ×
//!   periodSeconds` to `initialDelaySeconds + failureThreshold ×
//!   periodSeconds`; where in it the kill falls depends on the probe's
//!   phase against the container's start (`shared/reference/kubelet.md` §1).
//! - PL104 on a memory axis (`memory.peak`, `memory.steady`, `workers`, the
//!   memory limit): where the rule's test `pl104::exceeds` (the loading
//!   peak × workers against the limit) turns, found by bisection over the
//!   axis' whole numbers.

use super::axis::{Axis, Target};
use crate::manifest::model::{Container, Probe};
use crate::manifest::path::ProgramField;
use crate::manifest::read::Reading;
use crate::rules::pl104_memory_limit_below_peak::{applies, exceeds};

/// Which axis a line's values lie on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Side {
    X,
    Y,
}

/// A rule's line or band on a map.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RuleLine {
    /// `PL201`, `PL202`, `PL104`.
    pub rule: &'static str,
    /// The axis the line's values are on.
    pub side: Side,
    /// One entry per value of the other axis, in its order: the band
    /// `from..=to` on `side`'s axis in its unit (`from == to`: a line);
    /// `None` where the rule has nothing to say (no probe, no limit, or —
    /// PL104 — no turn within the axis' range).
    pub bands: Vec<Option<(i128, i128)>>,
}

pub(super) fn lines(
    reading: &Reading,
    x: &Axis,
    y: &Axis,
    xs: &[i128],
    ys: &[i128],
) -> Vec<RuleLine> {
    let mut out: Vec<RuleLine> = Vec::new();
    for (side, axis, other, others) in [(Side::X, x, y, ys), (Side::Y, y, x, xs)] {
        // A rule draws on one axis: on `x` when both could carry it (the
        // same edge, seen from the other side).
        for line in [
            kill_band(reading, side, axis, other, others),
            memory_line(reading, side, axis, other, others),
        ]
        .into_iter()
        .flatten()
        {
            if !out.iter().any(|drawn| drawn.rule == line.rule) {
                out.push(line);
            }
        }
    }
    out
}

fn container<'a>(reading: &'a Reading, name: &str) -> Option<&'a Container> {
    reading
        .workloads
        .iter()
        .flat_map(|workload| &workload.pod.containers)
        .find(|container| container.name == name)
}

/// The probe that decides whether a slow load is killed: the startupProbe
/// (PL202), else the livenessProbe (PL201).
fn deciding_probe(container: &Container) -> Option<(&'static str, &Probe)> {
    match (&container.startup, &container.liveness) {
        (Some(startup), _) => Some(("PL202", startup)),
        (None, Some(liveness)) => Some(("PL201", liveness)),
        (None, None) => None,
    }
}

fn kill_band(
    reading: &Reading,
    side: Side,
    axis: &Axis,
    other: &Axis,
    others: &[i128],
) -> Option<RuleLine> {
    let Target::Program {
        container: name,
        field: ProgramField::Startup,
    } = &axis.target
    else {
        return None;
    };
    let (rule, _) = deciding_probe(container(reading, name)?)?;
    let mut scratch = reading.clone();
    let bands = others
        .iter()
        .map(|&value| {
            other.set(&mut scratch, value);
            let (_, probe) = deciding_probe(container(&scratch, name)?)?;
            let (earliest, latest) = crate::rules::kill_window(probe);
            Some((i128::from(earliest), i128::from(latest)))
        })
        .collect();
    Some(RuleLine { rule, side, bands })
}

fn memory_line(
    reading: &Reading,
    side: Side,
    axis: &Axis,
    other: &Axis,
    others: &[i128],
) -> Option<RuleLine> {
    let name = match &axis.target {
        Target::Program {
            container,
            field: ProgramField::MemoryPeak | ProgramField::MemorySteady | ProgramField::Workers,
        }
        | Target::MemoryLimit { container } => container,
        _ => return None,
    };
    let mut scratch = reading.clone();
    // Whether the limit holds the peak with the axis at `value`; `None`
    // where PL104 does not look (no limit, not a model server).
    let holds = |scratch: &mut Reading, value: i128| -> Option<bool> {
        axis.set(scratch, value);
        let container = container(scratch, name)?;
        if !applies(container, &scratch.scenario) {
            return None;
        }
        let limit = container
            .resources
            .limit("memory")?
            .quantity
            .filter(|quantity| !quantity.is_negative())?
            .value();
        Some(!exceeds(&scratch.scenario.program(container), limit))
    };
    let bands: Vec<Option<(i128, i128)>> = others
        .iter()
        .map(|&value| {
            other.set(&mut scratch, value);
            let (mut low, mut high) = (axis.from, axis.to);
            let at_low = holds(&mut scratch, low)?;
            if holds(&mut scratch, high)? == at_low {
                return None;
            }
            while high - low > 1 {
                let middle = low + (high - low) / 2;
                if holds(&mut scratch, middle)? == at_low {
                    low = middle;
                } else {
                    high = middle;
                }
            }
            // The value on the side where the limit holds.
            let edge = if at_low { low } else { high };
            Some((edge, edge))
        })
        .collect();
    bands.iter().any(Option::is_some).then_some(RuleLine {
        rule: "PL104",
        side,
        bands,
    })
}
