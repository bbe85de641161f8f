//! Sliders and pickers that edit the Scenario document inside the text
//! (`podlab_core::controls`): the text stays the single source of truth,
//! so a slider's value is always read back from it.

use podlab_core::controls::{sharing_options, sliders, Change, Preset, Values};
use podlab_core::i18n::Lang;
use podlab_core::manifest::path::ProgramField;
use web_sys::{HtmlInputElement, HtmlSelectElement};
use yew::prelude::*;

use crate::i18n;
use crate::i18n::TextHtml;

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

/// A labelled range input; `value` and the label come from the text.
#[allow(clippy::too_many_arguments)]
fn slider_view(
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
        TargetKind::Utilization => slider_view(
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
        TargetKind::AverageValue => slider_view(
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
            { slider_view(
    lang,
                "slider-min-replicas",
                i18n::min_replicas().get(lang).to_owned(),
                hpa.min_replicas.to_string(),
                "1", "10", "1",
                hpa.min_replicas.to_string(),
                emit(|n| Change::MinReplicas(n.round() as i32)),
                None,
            ) }
            { slider_view(
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
            { slider_view(
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
            // The program's sliders: one description with the picture's
            // (`controls::sliders`), so they look and move the same before
            // the page's engine is in (web/src/stage.rs).
            { for sliders::program(values).into_iter().filter(|slider| shown(slider.control)).map(|slider| {
                let on_change = props.on_change.clone();
                let testid = slider.testid;
                slider_view(
                    lang,
                    testid,
                    slider.field.label().get(lang).to_owned(),
                    slider.shown,
                    slider.min,
                    slider.max,
                    slider.step,
                    slider.value,
                    Callback::from(move |number: f64| {
                        if let Some(change) = sliders::change(testid, number) {
                            on_change.emit(change);
                        }
                    }),
                    assumed_note(slider.field).as_deref(),
                )
            }) }
            if values.traffic.is_none() && shown("traffic") {
                <div class="control add-traffic">
                    <button type="button" data-testid="add-traffic" onclick={
                        let on_change = props.on_change.clone();
                        Callback::from(move |_: MouseEvent| on_change.emit(Change::AddTraffic))
                    }>{ i18n::add_traffic().html(lang) }</button>
                </div>
            }
            if let (Some(traffic), true) = (&values.traffic, shown("traffic")) {
                { slider_view(
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
                    { slider_view(
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
                { slider_view(
    lang,
                    "slider-concurrency",
                    i18n::concurrency().get(lang).to_owned(),
                    traffic.concurrency.to_string(),
                    "1", "16", "1",
                    traffic.concurrency.to_string(),
                    emit(|n| Change::Concurrency(n.round() as i64)),
                    None,
                ) }
                { slider_view(
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
                        <option value={preset.id()} selected={preset.id() == preset_id}>{ i18n::preset(*preset).get(lang).to_owned() }</option>
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
                        <option value={id} selected={id == sharing_id}>{ i18n::sharing(id).get(lang).to_owned() }</option>
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
    fn sharing_ids_are_unique() {
        let options = sharing_options();
        for (i, (id, _)) in options.iter().enumerate() {
            assert!(options[i + 1..].iter().all(|(other, _)| other != id));
        }
    }
}
