//! What kubectl would print at the cursor, terminal style: `describe pod`,
//! `logs` and `logs --previous` of the selected pod, by the core's
//! renderers, and the diagnosis card beside them (`get pods` sits under the
//! timeline, in the simulation's stage). One click switches the three
//! panes for the kubectl terminal (`super::Terminal`), where the learner
//! types the commands at the cursor, or for the outcome map
//! (`super::OutcomeMap`); the terminal and the map stay mounted, so the
//! history and the map survive the switch.

mod diagnosis_card;

pub use self::diagnosis_card::{CardFix, DiagnosisCard};

use std::cell::RefCell;
use std::rc::Rc;

use podlab_core::i18n::Lang;
use podlab_core::manifest::duration::Millis;
use podlab_core::sim::Run;
use wasm_bindgen::JsCast;
use web_sys::HtmlSelectElement;
use yew::prelude::*;

use super::{Editing, OutcomeMap, Terminal};
use crate::i18n::TextHtml;
use crate::{i18n, view_model};

#[derive(Properties)]
pub struct KubectlPanesProps {
    /// The text the run was simulated from (the terminal's `exec`).
    pub text: Rc<str>,
    pub run: Rc<Run>,
    pub cursor: Millis,
    /// An index into the run's pods.
    pub selected: usize,
    pub lang: Lang,
    pub on_select: Callback<usize>,
    /// In an exercise the diagnosis names the cause: folded until asked.
    #[prop_or_default]
    pub fold_diagnosis: bool,
    /// `&cmd=`: open the terminal and run this line.
    #[prop_or_default]
    pub command: Option<String>,
    /// The terminal's last kubectl line, for the share link.
    #[prop_or_default]
    pub command_out: Option<Rc<RefCell<Option<String>>>>,
    /// The diagnosis card's "Apply the fix" (none in an exercise).
    #[prop_or_default]
    pub fix: Option<CardFix>,
    /// The outcome map and the terminal may edit the text.
    #[prop_or_default]
    pub editing: Option<Editing>,
}

/// What the section shows under its head.
#[derive(Clone, Copy, PartialEq, Eq)]
enum View {
    Panes,
    Terminal,
    Map,
}

impl PartialEq for KubectlPanesProps {
    fn eq(&self, other: &Self) -> bool {
        Rc::ptr_eq(&self.run, &other.run)
            && Rc::ptr_eq(&self.text, &other.text)
            && self.command == other.command
            && self.cursor == other.cursor
            && self.selected == other.selected
            && self.lang == other.lang
            && self.on_select == other.on_select
            && self.fold_diagnosis == other.fold_diagnosis
            && self.fix == other.fix
            && self.editing == other.editing
    }
}

/// A terminal pane: the command lines as prompts, the output as it prints.
fn terminal(testid: &'static str, label: String, parts: Vec<(String, String)>) -> Html {
    html! {
        <pre class="terminal" data-testid={testid} tabindex="0" aria-label={label}>
            { for parts.into_iter().map(|(command, output)| html! {
                <>
                    <span class="prompt">{ command }{ "\n" }</span>
                    { output }
                </>
            }) }
        </pre>
    }
}

/// The panes' text for one run, pod and time.
#[derive(Clone)]
struct Printed {
    describe: Vec<(String, String)>,
    logs: Vec<(String, String)>,
    previous: Vec<(String, String)>,
    diagnosis: Option<podlab_core::explain::diagnosis::Diagnosis>,
}

/// Compares runs by address: a new text is a new `Rc`.
#[derive(PartialEq)]
struct SameRun(Rc<Run>);

#[component]
pub fn KubectlPanes(props: &KubectlPanesProps) -> Html {
    let lang = props.lang;
    // A new run reaches the panes one frame after the timeline (issue 28:
    // the slider and the lanes answer within a frame, `describe` and the
    // logs, the heavier text, follow): until then they show the run before.
    let shown = use_state(|| props.run.clone());
    {
        let shown = shown.clone();
        use_effect_with(SameRun(props.run.clone()), move |run| {
            if !Rc::ptr_eq(&run.0, &shown) {
                let run = run.0.clone();
                crate::persist::after_frame(move || shown.set(run));
            }
        });
    }
    let run = &*shown;
    let at = props.cursor;
    let select_ref = use_node_ref();
    let view = {
        let terminal = props.command.is_some();
        use_state(move || {
            if terminal {
                View::Terminal
            } else {
                View::Panes
            }
        })
    };
    // The terminal's engine starts when the terminal is first opened (the
    // reader asked for it), not with the page; the map's when the map opens.
    use_effect_with(*view, |view| {
        if *view == View::Terminal {
            crate::kubectl_worker::warm_terminal();
        }
    });
    {
        // `<option selected>` is only the initial choice: once the reader
        // has used the list, a lane click must set the selection itself.
        let select_ref = select_ref.clone();
        use_effect_with(props.selected, move |&selected| {
            if let (Some(select), Ok(index)) = (
                select_ref.cast::<HtmlSelectElement>(),
                i32::try_from(selected),
            ) {
                select.set_selected_index(index);
            }
        });
    }
    let selected = props.selected.min(run.pods.len().saturating_sub(1));
    // What the panes print depends only on the run shown, the pod and the
    // time: kept when the panes render for anything else (a new run's
    // first frame renders them with the run before, issue 28 item 4).
    let printed = use_memo(
        (SameRun(run.clone()), selected, at),
        |(run, selected, at)| Printed {
            describe: vec![(
                view_model::describe_command(&run.0, *selected),
                view_model::describe_pane(&run.0, *selected, *at),
            )],
            logs: view_model::logs_pane(&run.0, *selected, *at, false),
            previous: view_model::logs_pane(&run.0, *selected, *at, true),
            diagnosis: view_model::pod_diagnosis(&run.0, *selected, *at),
        },
    );
    if run.pods.is_empty() {
        return Html::default();
    }
    let on_change = {
        let on_select = props.on_select.clone();
        Callback::from(move |event: Event| {
            let select: HtmlSelectElement = event.target_unchecked_into();
            if let Ok(index) = usize::try_from(select.selected_index()) {
                on_select.emit(index);
            }
        })
    };
    let options = run.pods.iter().enumerate().map(|(index, pod)| {
        html! {
            <option key={pod.name.clone()} value={index.to_string()} selected={index == selected}>
                { pod.name.clone() }
            </option>
        }
    });
    let Printed {
        describe,
        logs,
        previous,
        diagnosis,
    } = (*printed).clone();
    let pod_name = run
        .pods
        .get(selected)
        .map(|pod| pod.name.clone())
        .unwrap_or_default();
    // The fix is offered for the run of the text the lint was made of:
    // while the panes still show the run before (one frame), none.
    let offer = props
        .fix
        .as_ref()
        .zip(diagnosis.as_ref())
        .and_then(|(fix, diagnosis)| {
            let lint = fix.lint.as_ref().filter(|_| Rc::ptr_eq(run, &props.run))?;
            let index = view_model::card_fix(diagnosis, run, &fix.workloads, &lint.findings)?;
            let description = lint
                .findings
                .diagnostics
                .get(index)?
                .fix
                .as_ref()?
                .description
                .clone();
            Some((index, description))
        });
    let fix = props.fix.clone();
    let clock = view_model::clock(at);
    let switch = |open: View| {
        let view = view.clone();
        Callback::from(move |_: MouseEvent| {
            view.set(open);
            // "Terminal" puts the caret on its line, once it is shown
            // (issue 30): the next key the reader presses is a command.
            if open == View::Terminal {
                crate::persist::after_frame(|| {
                    if let Some(input) = web_sys::window()
                        .and_then(|window| window.document())
                        .and_then(|document| document.get_element_by_id("term-input"))
                        .and_then(|input| input.dyn_into::<web_sys::HtmlElement>().ok())
                    {
                        let _ = input.focus();
                    }
                });
            }
        })
    };
    let on_entry = props.command_out.clone().map(|out| {
        Callback::from(move |entry: podlab_core::kubectl::session::Entry| {
            if entry.prompt == "$ " && !entry.line.trim().is_empty() {
                *out.borrow_mut() = Some(entry.line);
            }
        })
    });
    let pressed = |on: bool| if on { "true" } else { "false" };
    let on_edits = props
        .editing
        .as_ref()
        .map(|editing| editing.on_edits.clone());
    let undo = props
        .editing
        .as_ref()
        .and_then(|editing| Some((editing.applied.clone()?, editing.on_undo.clone())));

    html! {
        <section class="kubectl" aria-labelledby="kubectl-heading">
            <div class="kubectl-head">
                <h3 id="kubectl-heading">{ i18n::kubectl_at(&clock).html(lang) }</h3>
                <label for="pod-select">{ i18n::pod().html(lang) }</label>
                <select id="pod-select" data-testid="pod-select" ref={select_ref} onchange={on_change}>
                    { for options }
                </select>
                <div class="kubectl-switch" role="group">
                    <button type="button" data-testid="show-panes" aria-pressed={pressed(*view == View::Panes)} onclick={switch(View::Panes)}>
                        { i18n::show_panes().html(lang) }
                    </button>
                    <button type="button" data-testid="show-terminal" aria-pressed={pressed(*view == View::Terminal)} onclick={switch(View::Terminal)}>
                        { i18n::show_terminal().html(lang) }
                    </button>
                    <button type="button" data-testid="show-map" aria-pressed={pressed(*view == View::Map)} onclick={switch(View::Map)}>
                        { i18n::show_map().html(lang) }
                    </button>
                </div>
            </div>
            // The last applied edits (a map cell's, a kubectl line's
            // recorded action, a fix) with their Undo, above the terminal
            // and the map (the diagnosis card shows them among the panes).
            if let (false, Some((applied, on_undo))) = (*view == View::Panes, undo) {
                <p class="applied" data-testid="panel-applied" role="status">
                    <span>{ i18n::applied().html(lang) }{ view_model::applied_note(&applied.changes, lang) }</span>
                    { " " }
                    <button type="button" class="undo" data-testid="panel-undo"
                        onclick={on_undo.reform(|_: MouseEvent| ())}>{ i18n::undo().html(lang) }</button>
                </p>
            }
            <div hidden={*view != View::Terminal}>
                <Terminal text={props.text.clone()} run={props.run.clone()} {at} {lang}
                    initial={props.command.clone()} {on_entry} {on_edits} />
            </div>
            <div hidden={*view != View::Map}>
                <OutcomeMap text={props.text.clone()} {lang} open={*view == View::Map} edit={props.editing.clone()} />
            </div>
            <div class="panes" hidden={*view != View::Panes}>
                if props.fold_diagnosis {
                    <details class="diagnosis-fold" data-testid="diagnosis-fold">
                        <summary>{ i18n::show_diagnosis().html(lang) }</summary>
                        <DiagnosisCard {diagnosis} pod={pod_name} {lang} {offer} {fix} />
                    </details>
                } else {
                    <DiagnosisCard {diagnosis} pod={pod_name} {lang} {offer} {fix} />
                }
                <div class="pane-describe">
                    { terminal("pane-describe", "kubectl describe pod".into(), describe) }
                </div>
                { terminal("pane-logs", "kubectl logs".into(), logs) }
                { terminal("pane-logs-previous", "kubectl logs --previous".into(), previous) }
            </div>
        </section>
    }
}
