//! The Scenario panel as the live page's `Controls` draws it (web
//! `components/controls.rs`), for the playground's picture: the program
//! sliders from the same description (`controls::sliders`), which the first
//! screen's engine (`web/src/stage.rs`) answers before the page's engine is
//! in, and the pickers and the traffic button, drawn but `disabled` until
//! the live page replaces them (nothing answers them before).

use super::{escape, words};
use crate::controls::{sharing_options, sliders, Preset, Values};
use crate::i18n::Lang;
use crate::manifest::path::ProgramField;

/// The panel for `values`, with the sliders whose number the text does not
/// state marked as assumed (`sliders::assumed`).
pub fn panel(values: &Values, assumed: &[(ProgramField, String)], lang: Lang) -> String {
    let text = |words: crate::i18n::Text| words.get(lang).to_owned();
    let mut out = format!(
        "<section class=\"controls\" aria-label=\"{heading}\"><h2>{heading}<span class=\"muted\"> · {container}</span>",
        heading = text(words::controls_heading()),
        container = escape(&values.container),
    );
    if !assumed.is_empty() {
        out.push_str(&format!(
            "<span class=\"assumed-key\" data-testid=\"assumed-key\">{}</span>",
            text(words::assumed_key())
        ));
    }
    out.push_str("</h2>");
    for slider in sliders::program(values) {
        out.push_str(&slider_markup(&slider, assumed, lang));
    }
    if values.traffic.is_none() {
        out.push_str(&format!(
            "<div class=\"control add-traffic\"><button type=\"button\" data-testid=\"add-traffic\" disabled>{}</button></div>",
            text(words::add_traffic())
        ));
    }
    let preset = values.preset.map_or_else(
        || text(words::custom()),
        |preset: Preset| text(words::preset(preset)),
    );
    let sharing = sharing_options()
        .into_iter()
        .find(|(_, choice)| *choice == values.sharing)
        .map_or_else(|| text(words::custom()), |(id, _)| text(words::sharing(id)));
    for (id, label, chosen) in [
        ("preset", words::cluster(), preset),
        ("sharing", words::gpu_sharing(), sharing),
    ] {
        out.push_str(&format!(
            "<div class=\"control\"><label for=\"control-{id}\">{}</label><select id=\"control-{id}\" data-testid=\"{id}\" disabled><option selected>{}</option></select></div>",
            text(label),
            escape(&chosen)
        ));
    }
    out.push_str("</section>");
    out
}

/// One slider: its label with the value (`≈` before an assumed one, the
/// note in its tooltip), then the range input.
pub fn slider_markup(
    slider: &sliders::Slider,
    assumed: &[(ProgramField, String)],
    lang: Lang,
) -> String {
    let note = assumed
        .iter()
        .find(|(field, _)| *field == slider.field)
        .map(|(_, value)| words::assumed_value(value).get(lang).to_owned());
    let id = format!("control-{}", slider.testid);
    let (marked, class, title, mark) = match &note {
        Some(note) => (
            " data-assumed=\"true\"",
            " class=\"assumed\"",
            format!(" title=\"{}\"", escape(note)),
            format!(
                "<span aria-hidden=\"true\">≈ </span><span class=\"visually-hidden\" data-testid=\"assumed-{}\">{}</span>",
                slider.testid,
                words::assumed_word().get(lang)
            ),
        ),
        None => ("", "", String::new(), String::new()),
    };
    format!(
        "<div class=\"control\"{marked}><label for=\"{id}\">{label}<output for=\"{id}\"{class}{title}>{mark}{shown}</output></label><input type=\"range\" id=\"{id}\" data-testid=\"{testid}\" min=\"{min}\" max=\"{max}\" step=\"{step}\" value=\"{value}\" aria-valuetext=\"{shown}\"></div>",
        label = slider.field.label().get(lang),
        shown = slider.shown,
        testid = slider.testid,
        min = slider.min,
        max = slider.max,
        step = slider.step,
        value = slider.value,
    )
}
