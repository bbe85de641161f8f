//! The program's sliders (load time, memory steady and peak, workers, GPU
//! memory per worker): which number each moves, its range and step, and
//! how its value is shown. One description, drawn by the live page's
//! `Controls` (web), by the picture's panel (`picture::controls`) and
//! answered by the first screen's engine (`web/src/stage.rs`), so a slider
//! looks and moves the same before and after the page's engine is in
//! (issue 28, docs/size.md "The slider's path").

use super::{Change, Values};
use crate::manifest::path::{Path, ProgramField};
use crate::sim::Run;

const GIB: i128 = 1 << 30;

/// One slider as the page draws it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Slider {
    /// `data-testid`, also the `id` suffix (`control-slider-startup`).
    pub testid: &'static str,
    /// The page option that shows it (`?controls=`, `share::embed::CONTROL_IDS`).
    pub control: &'static str,
    pub field: ProgramField,
    pub min: &'static str,
    pub max: &'static str,
    pub step: &'static str,
    /// The value as the label shows it: `40 s`, `7.5 GiB`, `2`.
    pub shown: String,
    /// The input's `value`: `40`, `7.5`, `2`.
    pub value: String,
}

/// The five program sliders for `values`, in the page's order.
pub fn program(values: &Values) -> [Slider; 5] {
    let slider = |testid, control, field, (min, max, step), shown, value| Slider {
        testid,
        control,
        field,
        min,
        max,
        step,
        shown,
        value,
    };
    let seconds = values.startup / 1000;
    [
        slider(
            "slider-startup",
            "startup",
            ProgramField::Startup,
            ("0", "600", "5"),
            format!("{seconds} s"),
            seconds.to_string(),
        ),
        slider(
            "slider-memory-steady",
            "memory",
            ProgramField::MemorySteady,
            ("0.5", "64", "0.5"),
            gib(values.memory_steady),
            gib_value(values.memory_steady),
        ),
        slider(
            "slider-memory-peak",
            "memory",
            ProgramField::MemoryPeak,
            ("0.5", "128", "0.5"),
            gib(values.memory_peak),
            gib_value(values.memory_peak),
        ),
        slider(
            "slider-workers",
            "workers",
            ProgramField::Workers,
            ("1", "8", "1"),
            values.workers.to_string(),
            values.workers.to_string(),
        ),
        slider(
            "slider-gpu-memory",
            "gpu-memory",
            ProgramField::GpuMemory,
            ("0", "80", "1"),
            gib(values.gpu_memory),
            gib_value(values.gpu_memory),
        ),
    ]
}

/// The change a program slider at `number` (the input's `valueAsNumber`)
/// writes; `None` for another `testid`.
pub fn change(testid: &str, number: f64) -> Option<Change> {
    let bytes = |gib: f64| (gib * GIB as f64).round() as i128;
    Some(match testid {
        "slider-startup" => Change::Startup((number.max(0.0) as u64) * 1000),
        "slider-memory-steady" => Change::MemorySteady(bytes(number)),
        "slider-memory-peak" => Change::MemoryPeak(bytes(number)),
        "slider-workers" => Change::Workers(number.round() as i64),
        "slider-gpu-memory" => Change::GpuMemory(bytes(number)),
        _ => return None,
    })
}

/// `9 GiB`, `7.5 GiB`.
pub fn gib(bytes: i128) -> String {
    format!("{} GiB", gib_value(bytes))
}

/// The input's value in GiB, written with integers (no float formatting
/// in the wasm): `7.5`.
pub fn gib_value(bytes: i128) -> String {
    let tenths = (bytes * 10 + GIB / 2) / GIB;
    if tenths % 10 == 0 {
        (tenths / 10).to_string()
    } else {
        format!("{}.{}", tenths / 10, tenths % 10)
    }
}

/// The numbers of `container`'s program that the text does not state,
/// with the value podlab used (`Run::assumed`, issue 29): the sliders
/// mark them.
pub fn assumed(run: &Run, container: &str) -> Vec<(ProgramField, String)> {
    run.assumed
        .iter()
        .filter_map(|assumption| match &assumption.path {
            Path::Program {
                container: named,
                field,
            } if named.as_deref().is_none_or(|named| named == container) => {
                Some((*field, assumption.value.clone()))
            }
            _ => None,
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn gib_labels() {
        assert_eq!(gib(9 * GIB), "9 GiB");
        assert_eq!(gib(15 * GIB / 2), "7.5 GiB");
        assert_eq!(gib(0), "0 GiB");
        assert_eq!(gib_value(15 * GIB / 2), "7.5");
    }

    /// Each slider's change writes the number its input shows back: the
    /// value read from the edited text is the one the slider was moved to.
    #[test]
    fn a_change_reads_back_as_the_sliders_value() {
        let text = "apiVersion: apps/v1\nkind: Deployment\nmetadata: { name: m }\nspec:\n  selector: { matchLabels: { app: m } }\n  template:\n    metadata: { labels: { app: m } }\n    spec:\n      containers:\n        - name: api\n          image: vllm/vllm-openai:v0.6.0\n";
        for (testid, number, shown) in [
            ("slider-startup", 95.0, "95 s"),
            ("slider-memory-steady", 6.5, "6.5 GiB"),
            ("slider-memory-peak", 12.0, "12 GiB"),
            ("slider-workers", 3.0, "3"),
            ("slider-gpu-memory", 20.0, "20 GiB"),
        ] {
            let change = change(testid, number).expect("a program slider");
            let edited = crate::controls::apply(text, &change).expect("written");
            let values = crate::controls::values(&edited).expect("a container");
            let slider = program(&values)
                .into_iter()
                .find(|slider| slider.testid == testid)
                .expect("drawn");
            assert_eq!(slider.shown, shown, "{testid}");
        }
        assert_eq!(change("slider-rate", 3.0), None);
    }
}
