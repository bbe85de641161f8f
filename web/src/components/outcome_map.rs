//! The outcome map's panel (issue 32, docs/map.md "In the page"): the
//! outcome of the text over two of its numbers, every cell a full
//! simulation. The tools worker fills the map and draws the whole panel
//! (`crate::mapped`: the axes' menus, the status, the SVG); this component
//! only asks, shows the markup and listens. Its engine loads when the panel
//! first opens (the kubectl section's "Outcome map" switch), not with the
//! page.
//!
//! A new text or new axes ask for a 32 × 24 map; the worker answers first
//! as soon as the coarse lattice (every other row and column) is in, then
//! with what it filled in each slice (nearest the text's point first), and
//! the panel asks again until the map is whole. Only the newest request waits while one is computed
//! (an older one is dropped), so a drag never queues maps. While the map
//! shown belongs to an older text or other axes, `data-state="updating"`.
//! Hovering a cell shows its tip; clicking it applies the edits that write
//! its two values, as a fix is applied (its note and Undo above the map,
//! `KubectlPanes`).

use std::cell::RefCell;
use std::rc::Rc;

use podlab_core::diagnostic::TextEdit;
use podlab_core::i18n::Lang;
use podlab_core::map::DEFAULT_AXES;
use wasm_bindgen::JsCast;
use web_sys::{Element, HtmlSelectElement};
use yew::prelude::*;

use crate::i18n::TextHtml;
use crate::mapped::{pick_line, MapAsk, Mapped};
use crate::state::Applied;
use crate::{i18n, kubectl_worker, perf};

/// The map's grid (columns, rows).
const STEPS: (usize, usize) = (32, 24);

/// What the map and the terminal may do to the page's text: apply edits
/// as a fix's (a map cell's values, a kubectl line's recorded action), the
/// last of which shows with its Undo above them (`KubectlPanes`).
#[derive(Clone, PartialEq)]
pub struct Editing {
    pub on_edits: Callback<Vec<TextEdit>>,
    /// The text's last applied edits (a fix, a click, a line), to undo.
    pub applied: Option<Rc<Applied>>,
    pub on_undo: Callback<()>,
}

#[derive(Properties, Clone)]
pub struct OutcomeMapProps {
    /// The text the timeline shows.
    pub text: Rc<str>,
    pub lang: Lang,
    /// Shown: a hidden panel computes nothing.
    pub open: bool,
    /// `None`: a click only shows the cell.
    #[prop_or_default]
    pub edit: Option<Editing>,
}

impl PartialEq for OutcomeMapProps {
    fn eq(&self, other: &Self) -> bool {
        Rc::ptr_eq(&self.text, &other.text)
            && self.lang == other.lang
            && self.open == other.open
            && self.edit == other.edit
    }
}

/// One map asked of the worker.
#[derive(Clone, PartialEq)]
struct Job {
    text: Rc<str>,
    ask: MapAsk,
}

/// The panel's state, one cell (docs/size.md: each hook is a copy).
struct Panel {
    /// The axes chosen (short names).
    axes: (String, String),
    busy: bool,
    /// The newest job asked while one was computed.
    waiting: Option<Job>,
    /// The last answer and its job; `None` in it: the worker did not load.
    shown: Option<(Job, Option<Mapped>)>,
    refresh: Callback<()>,
}

type Shared = Rc<RefCell<Panel>>;

/// Asks the worker for `job`; then, unless a newer job waits, for the rest
/// of the same map.
fn run(panel: Shared, job: Job) {
    panel.borrow_mut().busy = true;
    let text = job.text.clone();
    let ask = job.ask.clone();
    kubectl_worker::map(text, &ask, move |mapped| {
        let next = {
            let mut state = panel.borrow_mut();
            let next = match (&mapped, state.waiting.take()) {
                (_, Some(newer)) => Some(newer),
                (None, None) => None,
                (Some(mapped), None) if !mapped.is_done() => Some(job.clone()),
                _ => None,
            };
            state.shown = Some((job, mapped));
            state.busy = next.is_some();
            next
        };
        let refresh = panel.borrow().refresh.clone();
        refresh.emit(());
        if let Some(next) = next {
            run(panel, next);
        }
    });
}

fn submit(panel: &Shared, job: Job) {
    let busy = panel.borrow().busy;
    if busy {
        panel.borrow_mut().waiting = Some(job);
    } else {
        run(panel.clone(), job);
    }
}

fn job(text: &Rc<str>, axes: &(String, String), lang: Lang) -> Job {
    Job {
        text: text.clone(),
        ask: MapAsk {
            x: axes.0.clone(),
            y: axes.1.clone(),
            steps: STEPS,
            lang,
        },
    }
}

/// The element under an event that matches `selector`.
fn target(event: &Event, selector: &str) -> Option<Element> {
    event
        .target()?
        .dyn_into::<Element>()
        .ok()?
        .closest(selector)
        .ok()
        .flatten()
}

/// Writes the line under the map (the worker's `.map-info`, which Yew does
/// not own: a hover writes it without a render).
fn inform(event: &Event, words: &str) {
    let info = target(event, "section.outcome-map")
        .and_then(|panel| panel.query_selector(".map-info").ok().flatten());
    if let Some(info) = info {
        info.set_text_content(Some(words));
    }
}

/// A cell's tip (its `<title>`).
fn tip(cell: &Element) -> String {
    cell.query_selector("title")
        .ok()
        .flatten()
        .and_then(|title| title.text_content())
        .unwrap_or_default()
}

#[component]
pub fn OutcomeMap(props: &OutcomeMapProps) -> Html {
    let lang = props.lang;
    let refresh = use_force_update();
    let panel: Shared = {
        let refresh = refresh.clone();
        use_mut_ref(move || Panel {
            axes: (DEFAULT_AXES.0.to_owned(), DEFAULT_AXES.1.to_owned()),
            busy: false,
            waiting: None,
            shown: None,
            refresh: Callback::from(move |()| refresh.force_update()),
        })
    };
    {
        let panel = panel.clone();
        let asked = (props.text.clone(), props.open, lang);
        use_effect_with(asked, move |(text, open, lang)| {
            let axes = panel.borrow().axes.clone();
            let wanted = job(text, &axes, *lang);
            // Reopened on the map it shows: nothing to compute.
            let shown = panel.borrow().shown.as_ref().is_some_and(|(job, mapped)| {
                *job == wanted && mapped.as_ref().is_some_and(Mapped::is_done)
            });
            if *open && !shown {
                kubectl_worker::warm_tools();
                submit(&panel, wanted);
            }
        });
    }

    let state = panel.borrow();
    let (shown_job, mapped) = match &state.shown {
        Some((job, mapped)) => (Some(job), mapped.as_ref()),
        None => (None, None),
    };
    let current = shown_job.is_some_and(|job| {
        Rc::ptr_eq(&job.text, &props.text)
            && job.ask.lang == lang
            && (job.ask.x.as_str(), job.ask.y.as_str())
                == (state.axes.0.as_str(), state.axes.1.as_str())
    });
    let phase = match mapped {
        None if shown_job.is_some() => "unavailable",
        Some(mapped) if current && mapped.is_done() => "full",
        Some(mapped) if current && mapped.coarse => "coarse",
        Some(_) if current => "filling",
        _ => "updating",
    };
    // The map of the newest text is on the screen, coarse or whole: time
    // it (`perf`).
    let timed = matches!(phase, "full" | "coarse")
        && shown_job.is_some_and(|job| Rc::ptr_eq(&job.text, &props.text));
    use_effect_with((timed, phase), |(timed, phase)| {
        if *timed {
            perf::map_drawn(*phase == "full");
        }
    });
    let markup = match mapped {
        Some(mapped) => mapped.markup.clone(),
        None => String::new(),
    };
    // Opened, with a map: the map's bottom is brought on the screen (the
    // least scroll, so the timeline above stays as much as it can).
    use_effect_with((props.open, markup.is_empty()), |&(open, empty)| {
        if open && !empty {
            crate::persist::after_frame(|| {
                let window = web_sys::window();
                let height = window
                    .as_ref()
                    .and_then(|window| window.inner_height().ok())
                    .and_then(|height| height.as_f64())
                    .unwrap_or(0.0);
                let drawing = window
                    .and_then(|window| window.document())
                    .and_then(|document| document.query_selector(".map-drawing").ok().flatten());
                if let Some(drawing) = drawing {
                    if drawing.get_bounding_client_rect().bottom() > height {
                        drawing.scroll_into_view_with_bool(false);
                    }
                }
            });
        }
    });
    let axes_drawn = mapped.map(|mapped| (mapped.x.clone(), mapped.y.clone()));
    drop(state);

    let on_change = {
        let (panel, text) = (panel.clone(), props.text.clone());
        Callback::from(move |event: Event| {
            let Some(select) = target(&event, "select[data-axis]")
                .and_then(|select| select.dyn_into::<HtmlSelectElement>().ok())
            else {
                return;
            };
            let value = select.value();
            let wanted = {
                let mut state = panel.borrow_mut();
                if select.get_attribute("data-axis").as_deref() == Some("x") {
                    state.axes.0 = value;
                } else {
                    state.axes.1 = value;
                }
                job(&text, &state.axes, lang)
            };
            submit(&panel, wanted);
            let refresh = panel.borrow().refresh.clone();
            refresh.emit(());
        })
    };
    let on_over = Callback::from(|event: MouseEvent| {
        if let Some(cell) = target(&event, ".cell") {
            inform(&event, &tip(&cell));
        }
    });
    let on_click = {
        let text = props.text.clone();
        let on_edits = props.edit.as_ref().map(|edit| edit.on_edits.clone());
        Callback::from(move |event: MouseEvent| {
            let Some(cell) = target(&event, ".cell") else {
                return;
            };
            inform(&event, &tip(&cell));
            let (Some((x, y)), Some(xv), Some(yv), Some(on_edits)) = (
                axes_drawn.clone(),
                cell.get_attribute("data-x"),
                cell.get_attribute("data-y"),
                on_edits.clone(),
            ) else {
                return;
            };
            // The line under the map is found again when the answer comes.
            let event: Event = event.into();
            kubectl_worker::write_map(text.clone(), pick_line(&x, &xv, &y, &yv), move |written| {
                match written {
                    Some(Ok(edits)) => on_edits.emit(edits),
                    Some(Err(why)) => inform(&event, why.get(lang)),
                    None => inform(&event, i18n::map_unavailable().get(lang)),
                }
            });
        })
    };
    html! {
        <section class="outcome-map" data-testid="outcome-map" data-state={phase}
            aria-busy={(phase == "updating").to_string()}>
            if phase == "unavailable" {
                <p class="map-error" role="alert">{ i18n::map_unavailable().html(lang) }</p>
            } else if markup.is_empty() {
                <p class="map-status" role="status">{ i18n::map_updating().html(lang) }</p>
            }
            <div class="map-body" onchange={on_change} onmouseover={on_over} onclick={on_click}>
                { Html::from_html_unchecked(AttrValue::from(markup)) }
            </div>
        </section>
    }
}
