//! Sliders and pickers that edit the Scenario document inside the text
//! (`podlab_core::controls`): the text stays the single source of truth,
//! so a slider's value is always read back from it.

use podlab_core::controls::{Change, Preset, SharingChoice, Values};
use podlab_core::i18n::Lang;
use podlab_core::manifest::path::ProgramField;
use web_sys::{HtmlInputElement, HtmlSelectElement};
use yew::prelude::*;

use crate::i18n;
use crate::i18n::TextHtml;

const GIB: i128 = 1 << 30;

#[derive(Properties, PartialEq)]
pub struct ControlsProps {
    /// `None` when the text has no container to act on.
    pub values: Option<Values>,
    pub lang: Lang,
    pub on_change: Callback<Change>,
    /// Only these controls (`persist::CONTROL_IDS`, `?controls=`); `None`:
    /// all of them.
    #[prop_or_default]
    pub only: Option<Vec<&'static str>>,
    /// The numbers of the controls' container that the text does not
    /// state, with the value podlab used (`Run::assumed`).
    #[prop_or_default]
    pub assumed: Vec<(ProgramField, String)>,
}

/// The sharing choices the picker offers, with stable ids.
pub fn sharing_options() -> Vec<(&'static str, SharingChoice)> {
    let layout = |profiles: &[&str]| profiles.iter().map(|p| p.to_string()).collect();
    vec![
        ("none", SharingChoice::None),
        ("ts-2", SharingChoice::TimeSlicing(2)),
        ("ts-4", SharingChoice::TimeSlicing(4)),
        ("mps-2", SharingChoice::Mps(2)),
        ("mps-4", SharingChoice::Mps(4)),
        ("mig-7x1g", SharingChoice::Mig(layout(&["1g.10gb"; 7]))),
        (
            "mig-2x3g",
            SharingChoice::Mig(layout(&["3g.40gb", "3g.40gb"])),
        ),
        (
            "mig-mixed",
            SharingChoice::Mig(layout(&["1g.10gb", "2g.20gb", "3g.40gb"])),
        ),
    ]
}

fn sharing_label(id: &str, lang: Lang) -> String {
    let text = match id {
        "none" => i18n::sharing_none(),
        "ts-2" => i18n::sharing_time_slicing(2),
        "ts-4" => i18n::sharing_time_slicing(4),
        "mps-2" => i18n::sharing_mps(2),
        "mps-4" => i18n::sharing_mps(4),
        "mig-7x1g" => i18n::sharing_mig("7 × 1g.10gb"),
        "mig-2x3g" => i18n::sharing_mig("2 × 3g.40gb"),
        _ => i18n::sharing_mig("1g.10gb + 2g.20gb + 3g.40gb"),
    };
    text.get(lang).to_owned()
}

fn preset_label(preset: Preset, lang: Lang) -> String {
    i18n::preset(preset).get(lang).to_owned()
}

/// `9 GiB`, `7.5 GiB`.
pub fn gib(bytes: i128) -> String {
    let tenths = (bytes * 10 + GIB / 2) / GIB;
    if tenths % 10 == 0 {
        format!("{} GiB", tenths / 10)
    } else {
        format!("{}.{} GiB", tenths / 10, tenths % 10)
    }
}

/// A labelled range input; `value` and the label come from the text.
#[allow(clippy::too_many_arguments)]
fn slider(
    lang: Lang,
    testid: &'static str,
    label: String,
    shown: String,
    min: &'static str,
    max: &'static str,
    step: &'static str,
    value: String,
    on_value: Callback<f64>,
    assumed: Option<&str>,
) -> Html {
    let oninput = Callback::from(move |event: InputEvent| {
        let input: HtmlInputElement = event.target_unchecked_into();
        // The browser's number, not `str::parse` (its float parser is
        // 20 KB of the wasm).
        let number = input.value_as_number();
        if number.is_finite() {
            on_value.emit(number);
        }
    });
    let id = format!("control-{testid}");
    html! {
        <div class="control" data-assumed={assumed.is_some().then_some("true")}>
            <label for={id.clone()}>
                { label }
                // An assumed number: `≈` before it (the heading says what it
                // means), the whole note in its tooltip and for screen readers.
                <output for={id.clone()} class={classes!(assumed.is_some().then_some("assumed"))} title={assumed.map(str::to_owned)}>
                    if assumed.is_some() {
                        <span aria-hidden="true">{ "≈ " }</span>
                        <span class="visually-hidden" data-testid={format!("assumed-{testid}")}>{ i18n::assumed_word().get(lang).to_owned() }</span>
                    }
                    { shown.clone() }
                </output>
            </label>
            <input
                type="range"
                id={id}
                data-testid={testid}
                {min}
                {max}
                {step}
                {value}
                aria-valuetext={shown}
                {oninput}
            />
        </div>
    }
}

/// The first HorizontalPodAutoscaler's sliders (min, max, target), or a
/// button adding one when the Scenario sends traffic and none exists.
fn autoscaler_controls(values: &Values, lang: Lang, on_change: &Callback<Change>) -> Html {
    use podlab_core::controls::TargetKind;
    let emit = |make: fn(f64) -> Change| {
        let on_change = on_change.clone();
        Callback::from(move |value: f64| on_change.emit(make(value)))
    };
    let Some(hpa) = &values.autoscaler else {
        if values.traffic.is_none() {
            return Html::default();
        }
        let on_change = on_change.clone();
        return html! {
            <div class="control add-traffic">
                <button type="button" data-testid="add-autoscaler" onclick={
                    Callback::from(move |_: MouseEvent| on_change.emit(Change::AddAutoscaler))
                }>{ i18n::add_autoscaler().html(lang) }</button>
            </div>
        };
    };
    let target = hpa.target.map(|(kind, value)| match kind {
        TargetKind::Utilization => slider(
            lang,
            "slider-hpa-target",
            i18n::hpa_target().get(lang).to_owned(),
            format!("{value} %"),
            "5",
            "100",
            "5",
            value.to_string(),
            emit(|percent| Change::AutoscalerTarget(percent.round() as i64)),
            None,
        ),
        TargetKind::AverageValue => slider(
            lang,
            "slider-hpa-target",
            i18n::hpa_target().get(lang).to_owned(),
            (value / 1000).to_string(),
            "1",
            "100",
            "1",
            (value / 1000).to_string(),
            emit(|n| Change::AutoscalerTarget((n.max(1.0) as i64) * 1000)),
            None,
        ),
    });
    html! {
        <>
            { slider(
    lang,
                "slider-min-replicas",
                i18n::min_replicas().get(lang).to_owned(),
                hpa.min_replicas.to_string(),
                "1", "10", "1",
                hpa.min_replicas.to_string(),
                emit(|n| Change::MinReplicas(n.round() as i32)),
                None,
            ) }
            { slider(
    lang,
                "slider-max-replicas",
                i18n::max_replicas().get(lang).to_owned(),
                hpa.max_replicas.to_string(),
                "1", "10", "1",
                hpa.max_replicas.to_string(),
                emit(|n| Change::MaxReplicas(n.round() as i32)),
                None,
            ) }
            { for target }
            { slider(
    lang,
                "slider-scale-up",
                i18n::scale_up_pods().get(lang).to_owned(),
                hpa.scale_up_pods.map_or_else(
                    || i18n::scale_up_default().get(lang).to_owned(),
                    |n| n.to_string(),
                ),
                "1", "10", "1",
                hpa.scale_up_pods.unwrap_or(4).to_string(),
                emit(|n| Change::ScaleUpPods(n.round() as i32)),
                None,
            ) }
        </>
    }
}

#[component]
pub fn Controls(props: &ControlsProps) -> Html {
    let lang = props.lang;
    let Some(values) = &props.values else {
        return html! {
            <section class="controls" aria-label={i18n::controls_heading().get(lang).to_owned()}>
                <p class="muted">{ i18n::controls_need_container().html(lang) }</p>
            </section>
        };
    };
    let emit = |make: fn(f64) -> Change| {
        let on_change = props.on_change.clone();
        Callback::from(move |value: f64| on_change.emit(make(value)))
    };
    // The input's value in GiB, written with integers (no float formatting
    // in the wasm): `7.5`.
    let gib_value = |bytes: i128| {
        let tenths = (bytes * 10 + GIB / 2) / GIB;
        if tenths % 10 == 0 {
            (tenths / 10).to_string()
        } else {
            format!("{}.{}", tenths / 10, tenths % 10)
        }
    };
    let on_preset = {
        let on_change = props.on_change.clone();
        Callback::from(move |event: Event| {
            let select: HtmlSelectElement = event.target_unchecked_into();
            if let Some(preset) = Preset::from_id(&select.value()) {
                on_change.emit(Change::Preset(preset));
            }
        })
    };
    let on_sharing = {
        let on_change = props.on_change.clone();
        Callback::from(move |event: Event| {
            let select: HtmlSelectElement = event.target_unchecked_into();
            if let Some((_, choice)) = sharing_options()
                .into_iter()
                .find(|(id, _)| *id == select.value())
            {
                on_change.emit(Change::Sharing(choice));
            }
        })
    };
    let sharing_id = sharing_options()
        .into_iter()
        .find(|(_, choice)| *choice == values.sharing)
        .map_or("custom", |(id, _)| id);
    let preset_id = values.preset.map_or("custom", Preset::id);
    let container = values.container.clone();
    let shown = |id: &str| props.only.as_ref().is_none_or(|only| only.contains(&id));
    // A number the text does not state: the slider says it is podlab's
    // assumption (issue 29), with the value used in its tooltip.
    let assumed_note = |field: ProgramField| {
        props
            .assumed
            .iter()
            .find(|(assumed, _)| *assumed == field)
            .map(|(_, value)| i18n::assumed_value(value).get(lang).to_owned())
    };
    html! {
        <section class="controls" aria-label={i18n::controls_heading().get(lang).to_owned()}>
            <h2>
                { i18n::controls_heading().html(lang) }<span class="muted">{ format!(" · {container}") }</span>
                if !props.assumed.is_empty() {
                    <span class="assumed-key" data-testid="assumed-key">{ i18n::assumed_key().html(lang) }</span>
                }
            </h2>
            if shown("startup") {
                { slider(
    lang,
                    "slider-startup",
                    i18n::load_time().get(lang).to_owned(),
                    format!("{} s", values.startup / 1000),
                    "0", "600", "5",
                    (values.startup / 1000).to_string(),
                    emit(|seconds| Change::Startup((seconds.max(0.0) as u64) * 1000)),
                    assumed_note(ProgramField::Startup).as_deref(),
                ) }
            }
            if shown("memory") {
                { slider(
    lang,
                    "slider-memory-steady",
                    i18n::memory_steady().get(lang).to_owned(),
                    gib(values.memory_steady),
                    "0.5", "64", "0.5",
                    gib_value(values.memory_steady),
                    emit(|gib| Change::MemorySteady((gib * GIB as f64).round() as i128)),
                    assumed_note(ProgramField::MemorySteady).as_deref(),
                ) }
            }
            if shown("memory") {
                { slider(
    lang,
                    "slider-memory-peak",
                    i18n::memory_peak().get(lang).to_owned(),
                    gib(values.memory_peak),
                    "0.5", "128", "0.5",
                    gib_value(values.memory_peak),
                    emit(|gib| Change::MemoryPeak((gib * GIB as f64).round() as i128)),
                    assumed_note(ProgramField::MemoryPeak).as_deref(),
                ) }
            }
            if shown("workers") {
                { slider(
    lang,
                    "slider-workers",
                    i18n::workers().get(lang).to_owned(),
                    values.workers.to_string(),
                    "1", "8", "1",
                    values.workers.to_string(),
                    emit(|n| Change::Workers(n.round() as i64)),
                    assumed_note(ProgramField::Workers).as_deref(),
                ) }
            }
            if shown("gpu-memory") {
                { slider(
    lang,
                    "slider-gpu-memory",
                    i18n::gpu_memory().get(lang).to_owned(),
                    gib(values.gpu_memory),
                    "0", "80", "1",
                    gib_value(values.gpu_memory),
                    emit(|gib| Change::GpuMemory((gib * GIB as f64).round() as i128)),
                    assumed_note(ProgramField::GpuMemory).as_deref(),
                ) }
            }
            if values.traffic.is_none() && shown("traffic") {
                <div class="control add-traffic">
                    <button type="button" data-testid="add-traffic" onclick={
                        let on_change = props.on_change.clone();
                        Callback::from(move |_: MouseEvent| on_change.emit(Change::AddTraffic))
                    }>{ i18n::add_traffic().html(lang) }</button>
                </div>
            }
            if let (Some(traffic), true) = (&values.traffic, shown("traffic")) {
                { slider(
    lang,
                    "slider-rate",
                    i18n::rate().get(lang).to_owned(),
                    format!("{}/s", traffic.rate / 1000),
                    "0", "300", "1",
                    (traffic.rate / 1000).to_string(),
                    emit(|rps| Change::Rate((rps.max(0.0) as u64) * 1000)),
                    None,
                ) }
                if let Some(burst) = traffic.burst {
                    { slider(
    lang,
                        "slider-burst",
                        i18n::burst().get(lang).to_owned(),
                        format!("{}/s", burst / 1000),
                        "0", "400", "1",
                        (burst / 1000).to_string(),
                        emit(|rps| Change::Burst((rps.max(0.0) as u64) * 1000)),
                        None,
                    ) }
                }
                { slider(
    lang,
                    "slider-concurrency",
                    i18n::concurrency().get(lang).to_owned(),
                    traffic.concurrency.to_string(),
                    "1", "16", "1",
                    traffic.concurrency.to_string(),
                    emit(|n| Change::Concurrency(n.round() as i64)),
                    None,
                ) }
                { slider(
    lang,
                    "slider-latency",
                    i18n::service_latency().get(lang).to_owned(),
                    format!("{} ms", traffic.latency),
                    "10", "1000", "10",
                    traffic.latency.to_string(),
                    emit(|ms| Change::ServiceLatency(ms.max(1.0) as u64)),
                    None,
                ) }
            }
            if shown("autoscaler") {
                { autoscaler_controls(values, lang, &props.on_change) }
            }
            if shown("cluster") {
            <div class="control">
                <label for="control-preset">{ i18n::cluster().html(lang) }</label>
                <select id="control-preset" data-testid="preset" onchange={on_preset}>
                    if preset_id == "custom" {
                        <option value="custom" selected=true>{ i18n::custom().html(lang) }</option>
                    }
                    { for Preset::ALL.iter().map(|preset| html! {
                        <option value={preset.id()} selected={preset.id() == preset_id}>{ preset_label(*preset, lang) }</option>
                    }) }
                </select>
            </div>
            }
            if shown("sharing") {
            <div class="control">
                <label for="control-sharing">{ i18n::gpu_sharing().html(lang) }</label>
                <select id="control-sharing" data-testid="sharing" onchange={on_sharing}>
                    if sharing_id == "custom" {
                        <option value="custom" selected=true>{ i18n::custom().html(lang) }</option>
                    }
                    { for sharing_options().into_iter().map(|(id, _)| html! {
                        <option value={id} selected={id == sharing_id}>{ sharing_label(id, lang) }</option>
                    }) }
                </select>
            </div>
            }
        </section>
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn gib_labels() {
        assert_eq!(gib(9 * GIB), "9 GiB");
        assert_eq!(gib(15 * GIB / 2), "7.5 GiB");
        assert_eq!(gib(0), "0 GiB");
    }

    #[test]
    fn sharing_ids_are_unique() {
        let options = sharing_options();
        for (i, (id, _)) in options.iter().enumerate() {
            assert!(options[i + 1..].iter().all(|(other, _)| other != id));
        }
    }
}
