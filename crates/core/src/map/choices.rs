//! The axes the page's map offers for a text, each with a range around the
//! text's own value (docs/map.md "In the page"): the sliders' numbers of
//! the first program, `spec.replicas` where the first workload has it, the
//! fields of the probes the first container has, and its memory limit.
//! `podlab map` takes any range; the page takes these.

use super::axis::{target_of, Axis, Unit};
use crate::i18n::Text;
use crate::manifest::model::WorkloadKind;
use crate::manifest::path::ProgramField;
use crate::manifest::read::Reading;
use crate::text;

/// One axis the page offers: its short name (what `Axis::parse` takes) and
/// the words of its menu entry.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Choice {
    pub name: String,
    pub label: Text,
}

/// The page's default axes (issue 32: load time × memory peak).
pub const DEFAULT_AXES: (&str, &str) = ("startup", "memory.peak");

const PROBES: [&str; 3] = ["startupProbe", "livenessProbe", "readinessProbe"];
const PROBE_FIELDS: [&str; 4] = [
    "initialDelaySeconds",
    "periodSeconds",
    "failureThreshold",
    "timeoutSeconds",
];

/// The axes the text can be mapped over, in the menu's order: those whose
/// name `Axis::parse` accepts for this text.
pub fn choices(reading: &Reading) -> Vec<Choice> {
    // The sliders' numbers, the peak before the steady state (the map's
    // default axes first).
    let mut out: Vec<Choice> = [
        ProgramField::Startup,
        ProgramField::MemoryPeak,
        ProgramField::MemorySteady,
        ProgramField::Workers,
        ProgramField::GpuMemory,
    ]
    .into_iter()
    .map(|field| choice(field.as_str(), field.label()))
    .collect();
    out.push(choice(
        "resources.limits.memory",
        text!("Memory limit", "記憶體 limit"),
    ));
    if reading.workloads.first().is_some_and(|workload| {
        matches!(
            workload.kind,
            WorkloadKind::Deployment | WorkloadKind::ReplicaSet | WorkloadKind::StatefulSet
        )
    }) {
        out.push(choice("replicas", text!("Replicas", "Replicas（副本數）")));
    }
    for probe in PROBES {
        for field in PROBE_FIELDS {
            let name = format!("{probe}.{field}");
            out.push(Choice {
                label: Text::new(&name, &name),
                name,
            });
        }
    }
    out.retain(|choice| around(&choice.name, reading).is_ok());
    out
}

fn choice(name: &str, label: Text) -> Choice {
    Choice {
        name: name.to_string(),
        label,
    }
}

/// The axis `name` over the page's range for this text: from the least
/// value (a twentieth of the top for memory) to twice the text's value,
/// at least a floor per unit (2 minutes, 2 GiB, 8, 30 s), rounded up to
/// a round number, so the text's point sits inside with room on both sides.
pub fn around(name: &str, reading: &Reading) -> Result<Axis, Text> {
    // The unit and the text's value.
    let (target, unit, full) = target_of(name, reading)?;
    let probe = Axis {
        name: full,
        target,
        unit,
        from: 0,
        to: 0,
    };
    let value = probe.value_in(reading).unwrap_or(0).max(0);
    let (floor, round, from) = match (probe.unit, name) {
        (Unit::Duration, _) => (120_000, 10_000, 0),
        (Unit::Bytes, _) => (2 << 30, 1 << 30, -1),
        (Unit::Count, "workers") => (4, 1, 1),
        (Unit::Count, "replicas") => (6, 1, 1),
        (Unit::Count, _) if name.ends_with("initialDelaySeconds") => (120, 10, 0),
        (Unit::Count, _) if name.ends_with("periodSeconds") => (30, 5, 1),
        (Unit::Count, _) => (10, 1, 1),
    };
    // A memory axis also spans the memory limit and the peak the limit must
    // hold, so the OOM edge is on the map.
    let reference = match probe.unit {
        Unit::Bytes => value.max(memory_limit(reading)).max(peak_total(reading)),
        _ => value,
    };
    let top = reference.saturating_mul(2).max(floor);
    let to = top.saturating_add(round - 1) / round * round;
    let from = if from < 0 {
        // A twentieth of the top, in whole MiB.
        (to / 20) >> 20 << 20
    } else {
        from
    };
    let spec = format!(
        "{name}={}..{}",
        probe.unit.format(from),
        probe.unit.format(to)
    );
    Axis::parse(&spec, reading)
}

fn memory_limit(reading: &Reading) -> i128 {
    let Ok((target, unit, name)) = target_of("resources.limits.memory", reading) else {
        return 0;
    };
    let axis = Axis {
        name,
        target,
        unit,
        from: 0,
        to: 0,
    };
    axis.value_in(reading).unwrap_or(0)
}

fn peak_total(reading: &Reading) -> i128 {
    let Some(container) = reading
        .workloads
        .first()
        .and_then(|workload| workload.pod.containers.first())
    else {
        return 0;
    };
    reading.scenario.program(container).peak_total()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::manifest::read::read;

    const ARTICLE: &str = include_str!("../../../../tests/golden/crash-loop-liveness-40s.yaml");

    #[test]
    fn the_article_offers_its_program_numbers_its_probe_and_replicas() {
        let reading = read(ARTICLE);
        let names: Vec<String> = choices(&reading).into_iter().map(|c| c.name).collect();
        for wanted in [
            "startup",
            "memory.peak",
            "workers",
            "resources.limits.memory",
            "livenessProbe.periodSeconds",
        ] {
            assert!(
                names.iter().any(|name| name == wanted),
                "{wanted} in {names:?}"
            );
        }
        // The article's container has no startupProbe: none of its fields.
        assert!(
            !names.iter().any(|name| name.starts_with("startupProbe")),
            "{names:?}"
        );
    }

    #[test]
    fn the_default_range_holds_the_texts_point_with_room_on_both_sides() {
        let reading = read(ARTICLE);
        let startup = around("startup", &reading).expect("startup");
        let point = startup.value_in(&reading).expect("a load time");
        assert_eq!((startup.from, startup.unit), (0, Unit::Duration));
        assert!(
            startup.to >= 2 * point && startup.to >= 120_000,
            "{startup:?}"
        );
        assert_eq!(startup.to % 10_000, 0);
        let peak = around("memory.peak", &reading).expect("memory.peak");
        let point = peak.value_in(&reading).expect("a peak");
        assert!(peak.from < point && point < peak.to, "{peak:?}");
        assert!(
            peak.to >= 2 * memory_limit(&reading),
            "the limit's edge is on the map: {peak:?}"
        );
        assert_eq!(peak.to % (1 << 30), 0);
        let period = around("livenessProbe.periodSeconds", &reading).expect("period");
        assert_eq!((period.from, period.to), (1, 30));
    }

    #[test]
    fn a_name_the_text_cannot_move_is_refused_with_the_maps_words() {
        let reading = read(ARTICLE);
        let error = around("startupProbe.periodSeconds", &reading).expect_err("no startupProbe");
        assert!(error.en.contains("no startupProbe"), "{}", error.en);
    }
}
