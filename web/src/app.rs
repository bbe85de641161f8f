//! The page: header with the language toggle, the editor, the diagnostics,
//! and below them the simulation of the text (timeline and kubectl panes).
//!
//! The simulation runs ~150 ms after the last keystroke (debounced), and
//! at once after a fix; then the page asks the kubectl worker to lint that
//! text (the rules live there, docs/size.md), and the diagnostics arrive a
//! moment after the timeline. The language only changes how results are
//! worded, never re-lints or re-simulates.

use std::rc::{Rc, Weak};

use podlab_core::i18n::Lang;
use yew::prelude::*;

use podlab_core::exercise::{self, Exercise, GoalResult};

use crate::components::{
    browser_lang, select_in_editor, set_document_language, CardFix, Controls, Diagnostics, Editing,
    Editor, ExerciseIndex, ExercisePanel, InterviewView, LangToggle, Locked, ShareBar, Simulation,
};
use crate::hooks::use_debounced_effect;
use crate::i18n::TextHtml;
use crate::library::{self, Library};
use crate::perf;
use crate::persist::{self, Notice, Page};
use crate::state::{Action, AppState, Diagnosed, Lint, Linted, DEFAULT_TEXT};
use crate::view_model::SameRc;
use crate::{i18n, view_model};

/// How long typing must pause before the text is linted and simulated.
pub const LINT_DEBOUNCE_MS: u32 = 150;

#[derive(Properties, PartialEq, Default)]
pub struct AppProps {
    /// The language to start in; `None` reads `?lang=` and the browser's.
    #[prop_or_default]
    pub lang: Option<Lang>,
    /// The text to start with; `None` is the reference Deployment + Scenario
    /// (or, with `persist`, the link's or the autosaved text).
    #[prop_or_default]
    pub text: Option<AttrValue>,
    /// Read the text from the URL fragment or localStorage and keep both
    /// up to date (the real page; tests mount without it).
    #[prop_or_default]
    pub persist: bool,
    /// The page to show; `None` reads the query string (`?exercises`,
    /// `?exercise=<id>[&mode=interview]`).
    #[prop_or_default]
    pub page: Option<Page>,
    /// The exercise library; `None` fetches it from `exercises/` when an
    /// exercise page needs it.
    #[prop_or_default]
    pub library: Option<Library>,
}

/// Compares an optional `Rc` by address.
struct SameOption<T>(Option<Rc<T>>);

impl<T> PartialEq for SameOption<T> {
    fn eq(&self, other: &Self) -> bool {
        match (&self.0, &other.0) {
            (Some(this), Some(that)) => Rc::ptr_eq(this, that),
            (None, None) => true,
            _ => false,
        }
    }
}

/// The page's callbacks that only dispatch (or select in the editor): made
/// once, so components that take them compare equal across renders.
#[derive(Clone)]
struct Callbacks {
    on_input: Callback<Rc<str>>,
    on_fix: Callback<usize>,
    on_undo_fix: Callback<()>,
    on_goto: Callback<view_model::Selection>,
    on_control: Callback<podlab_core::controls::Change>,
    on_lang: Callback<Lang>,
    /// A map cell's or a kubectl line's edits, applied as a fix's.
    on_edits: Callback<Vec<podlab_core::diagnostic::TextEdit>>,
}

impl Callbacks {
    fn new(dispatcher: UseReducerDispatcher<AppState>, editor_ref: NodeRef) -> Callbacks {
        Callbacks {
            on_input: dispatching(&dispatcher, Action::Edit),
            on_fix: dispatching(&dispatcher, Action::ApplyFix),
            on_undo_fix: dispatching(&dispatcher, |()| Action::UndoFix),
            on_goto: Callback::from(move |selection| select_in_editor(&editor_ref, selection)),
            on_control: dispatching(&dispatcher, Action::Control),
            on_lang: dispatching(&dispatcher, Action::SetLang),
            on_edits: dispatching(&dispatcher, Action::ApplyEdits),
        }
    }
}

/// A callback that dispatches the action `make` builds from its value.
fn dispatching<T: 'static>(
    dispatcher: &UseReducerDispatcher<AppState>,
    make: fn(T) -> Action,
) -> Callback<T> {
    let dispatcher = dispatcher.clone();
    Callback::from(move |value| dispatcher.dispatch(make(value)))
}

/// The full simulation of a first pass (`Linted::step`), one pass per task
/// (issue 28 item 4): the first once the lanes are painted
/// (`persist::after_frame`), each next one in a task of its own, so the
/// browser handles input between two passes and the slider's next value is
/// never held up by more than one pass. A newer change replaces the first
/// pass in the state, which then drops its last reference: the weak one
/// here fails and the work stops (and `Action::Completed` is ignored for a
/// first pass no longer shown).
fn complete_later(first: Weak<Linted>, dispatcher: UseReducerDispatcher<AppState>) {
    persist::after_frame(move || next_pass(first, dispatcher));
}

fn next_pass(first: Weak<Linted>, dispatcher: UseReducerDispatcher<AppState>) {
    let Some(linted) = first.upgrade() else {
        return;
    };
    match linted.step() {
        Some(full) => dispatcher.dispatch(Action::Completed(linted, Rc::new(full))),
        None => {
            let first = Rc::downgrade(&linted);
            gloo::timers::callback::Timeout::new(0, move || next_pass(first, dispatcher)).forget();
        }
    }
}

#[component]
pub fn App(props: &AppProps) -> Html {
    // The page, decided once.
    let page: Rc<Page> = {
        let page = props.page.clone();
        use_memo((), move |_| {
            page.unwrap_or_else(|| persist::page(&persist::query()))
        })
    };
    let exercise_page_id: Option<String> = match &*page {
        Page::Exercise { id, .. } => Some(id.clone()),
        _ => None,
    };
    // The live page is drawn: the picture shown until now goes
    // (`web/facade.js`, issue 28), in the same task, so no frame shows
    // both; the reader's scroll position stays where it was.
    use_effect_with((), |_| persist::remove_facade());
    let library = use_state(|| props.library.clone());
    let library_error = use_state(|| None::<String>);
    {
        let library = library.clone();
        let library_error = library_error.clone();
        let needed = matches!(*page, Page::Exercises | Page::Exercise { .. });
        use_effect_with((), move |_| {
            if needed && library.is_none() {
                wasm_bindgen_futures::spawn_local(async move {
                    match library::fetch().await {
                        Ok(loaded) => library.set(Some(Library(loaded))),
                        Err(error) => library_error.set(Some(error)),
                    }
                });
            }
        });
    }
    let exercise: Option<Rc<Exercise>> = exercise_page_id
        .as_deref()
        .and_then(|id| library.as_ref().and_then(|library| library.find(id)));
    let exercise_id: Option<String> = exercise.as_ref().map(|e| e.id.clone());
    // Where the first text comes from, decided once: the text given, a
    // link, the autosave (of this exercise), the exercise's start (once
    // fetched: `awaiting_start`), the default.
    let opening = {
        let text = props.text.clone();
        let persist = props.persist;
        let id = exercise_page_id.clone();
        let exercise = exercise.clone();
        use_memo((), move |_| {
            let fallback = match (&id, &exercise) {
                (_, Some(exercise)) => Some(exercise::learner_text(&exercise.start)),
                (Some(_), None) => None,
                (None, _) => Some(DEFAULT_TEXT.to_string()),
            };
            match text {
                Some(text) => (text.to_string(), None, false),
                None if persist => {
                    let (text, source, notice) = persist::initial_text(
                        &persist::fragment(),
                        // A slider moved on the picture (issue 28):
                        // the live page opens on the text it shows.
                        id.is_none()
                            .then(|| persist::picture_text(DEFAULT_TEXT))
                            .flatten()
                            .or_else(|| persist::load_autosave(id.as_deref())),
                        fallback.as_deref().unwrap_or(""),
                    );
                    let awaiting = fallback.is_none() && source == persist::Source::Default;
                    (text, notice, awaiting)
                }
                None => (
                    fallback.clone().unwrap_or_default(),
                    None,
                    fallback.is_none(),
                ),
            }
        })
    };
    let state = {
        let lang = props.lang;
        let text: Rc<str> = opening.0.as_str().into();
        use_reducer(move || AppState::new(text, lang.unwrap_or_else(browser_lang)))
    };
    let lang = state.lang;
    let notice = use_state(|| opening.1.clone());
    // The exercise's start, once the library has arrived.
    {
        let dispatcher = state.dispatcher();
        // The learner's text is made once, when the library arrives, not on
        // every render.
        let arrived = exercise.clone();
        let awaiting = opening.2;
        use_effect_with(arrived.is_some(), move |_| {
            if let (true, Some(exercise)) = (awaiting, arrived) {
                let start = exercise::learner_text(&exercise.start);
                dispatcher.dispatch(Action::Replace(start.into()));
            }
        });
    }
    let unknown_exercise = match (&exercise_page_id, library.as_ref()) {
        (Some(id), Some(_)) if exercise.is_none() => Some(id.clone()),
        _ => None,
    };
    let embed = use_memo((), |_| persist::is_embed(&persist::query()));
    // After each lint (so not per keystroke): the link and the autosave.
    {
        let persist = props.persist;
        let id = exercise_id.clone();
        // Keyed on the text: the full run of a first pass (issue 28 item 4)
        // is the same text.
        use_effect_with(SameRc(state.linted.text.clone()), move |text| {
            // Not the empty text shown while an exercise is being fetched.
            if persist && !text.0.is_empty() {
                let text = text.0.clone();
                persist::after_frame(move || {
                    persist::autosave(id.as_deref(), &text);
                    persist::write_fragment(&text);
                });
            }
        });
    }
    // The worker's lint of the simulated text, once it has answered.
    let found: Option<Rc<Lint>> = match &state.diagnosed {
        Diagnosed::Found(lint) => Some(lint.clone()),
        _ => None,
    };
    // Ask the worker to lint each simulated text (the first ask, on the
    // first render, starts the worker). A late answer for an older text is
    // dropped by the reducer.
    {
        let dispatcher = state.dispatcher();
        use_effect_with(SameRc(state.linted.text.clone()), move |text| {
            let text = text.0.clone();
            crate::kubectl_worker::lint(text.clone(), move |findings| {
                dispatcher.dispatch(Action::Diagnosed(text, findings));
            });
        });
    }
    // The exercise's goals, checked by the simulator on each linted text,
    // with the worker's diagnostics (the implicit "accepted" goal).
    let results: Option<Rc<Vec<GoalResult>>> = {
        let exercise = exercise.clone();
        // Keyed on the exercise too: a shared link's text is linted before
        // the library arrives, and its goals must be checked once it has.
        let key = (
            SameRc(state.linted.clone()),
            SameOption(found.clone()),
            exercise_id.clone(),
        );
        let results = use_memo(key, move |(linted, found, _)| {
            // The page's own run when it reaches as far as the goals need
            // (no second simulation per edit), once complete: a first pass
            // has no requests and no HPA decisions to check.
            let lint = found.0.as_ref()?;
            if linted.0.pending().is_some() {
                return None;
            }
            exercise.map(|exercise| {
                Rc::new(exercise::check_linted(
                    &exercise,
                    &linted.0.text,
                    Some(&linted.0.run),
                    &lint.findings.diagnostics,
                ))
            })
        });
        (*results).clone()
    };
    // While the worker checks a new text, the panel keeps the last results
    // of this exercise (as the timeline keeps the last run).
    let shown_results: Option<Rc<Vec<GoalResult>>> = {
        let last = use_mut_ref(|| None::<(String, Rc<Vec<GoalResult>>)>);
        let mut last = last.borrow_mut();
        match (&results, &exercise_id) {
            (Some(results), Some(id)) => {
                *last = Some((id.clone(), results.clone()));
                Some(results.clone())
            }
            (None, Some(id)) => last
                .as_ref()
                .filter(|(of, _)| of == id)
                .map(|(_, results)| results.clone()),
            _ => None,
        }
    };
    // The learner's text while the editor holds the loaded solution: one
    // click of the panel's Undo away (setting the textarea from code loses
    // the browser's own undo).
    let before_solution = use_state(|| None::<Rc<str>>);
    // Solved with the solution: loaded by the button (or its text, as the
    // autosave keeps it after a reload), not the learner's own text.
    let solution_text: Rc<Option<String>> = {
        let exercise = exercise.clone();
        use_memo(exercise_id.clone(), move |_| {
            exercise
                .as_ref()
                .and_then(|exercise| exercise.solution.as_deref())
                .map(exercise::learner_text)
        })
    };
    let with_solution = before_solution.is_some()
        || solution_text
            .as_deref()
            .is_some_and(|solution| *state.text == *solution);
    let progress = use_state(persist::load_progress);
    {
        let persist = props.persist;
        let id = exercise_id.clone();
        let solved = results.as_ref().is_some_and(|r| exercise::goals::solved(r));
        let how = if with_solution {
            persist::Solved::WithSolution
        } else {
            persist::Solved::ByLearner
        };
        let progress = progress.clone();
        use_effect_with((solved, how), move |(solved, how)| {
            if let (true, Some(id)) = (*solved, id) {
                if persist {
                    persist::mark_solved(&id, *how);
                }
                let mut known = (*progress).clone();
                known.record(&id, *how);
                progress.set(known);
            }
        });
    }

    {
        let dispatcher = state.dispatcher();
        // Only a text the lint has not seen is a change to time (not the
        // first mount's text).
        let stale = state.is_stale();
        use_debounced_effect(state.text.clone(), LINT_DEBOUNCE_MS, move || {
            if stale {
                perf::change();
            }
            dispatcher.dispatch(Action::Lint);
            if stale {
                perf::core_done();
            }
        });
    }
    // The new lint and run are in the DOM: time the change (see `perf`),
    // and if this is a first pass (issue 28 item 4), run the rest of the
    // simulation after it, one pass per task.
    {
        let dispatcher = state.dispatcher();
        use_effect_with(SameRc(state.linted.clone()), move |linted| {
            let pending = linted.0.pending().is_some();
            perf::redrawn(pending);
            if pending {
                complete_later(Rc::downgrade(&linted.0), dispatcher);
            }
        });
    }
    use_effect_with(lang, |lang| set_document_language(*lang));

    // The list shows the last answer, under "Checking…" while it is for
    // the text before (`Diagnosed::Waiting`).
    // After them, the run's actions that did nothing (a recorded action
    // naming what is not there at its time), for the same text.
    let rows = use_memo(
        (
            SameOption(state.diagnosed.last().cloned()),
            SameRc(state.linted.clone()),
            lang,
        ),
        |(found, linted, lang): &(SameOption<Lint>, SameRc<Linted>, Lang)| match &found.0 {
            Some(lint) => {
                let mut rows = view_model::diagnostic_rows(&lint.text, &lint.findings, *lang);
                if *lint.text == *linted.0.text {
                    let first = rows.len();
                    rows.extend(view_model::action_error_rows(
                        &lint.text,
                        &linted.0.run,
                        *lang,
                        first,
                    ));
                }
                rows
            }
            None => Vec::new(),
        },
    );
    // Never a blank or a false "No problems found" before the worker's
    // answer: "Checking…" until it comes, a note if it cannot.
    let actions = rows.len().saturating_sub(
        state
            .diagnosed
            .last()
            .map_or(0, |lint| lint.findings.diagnostics.len()),
    );
    let (summary, checking) = match &state.diagnosed {
        Diagnosed::Found(lint) => (
            view_model::summary_with(&lint.findings.diagnostics, actions, lang),
            state.is_stale(),
        ),
        Diagnosed::Waiting(Some(lint)) => (
            view_model::summary_with(&lint.findings.diagnostics, actions, lang),
            true,
        ),
        Diagnosed::Waiting(None) => (String::new(), true),
        Diagnosed::Unavailable => (
            i18n::lint_unavailable().get(lang).to_owned(),
            state.is_stale(),
        ),
    };

    let editor_ref = use_node_ref();
    // Made once: a callback made anew on each render would make the
    // editor, the sliders and the list render again after every change
    // (issue 28 item 4: they were most of a slider change's redraw).
    let callbacks = {
        let dispatcher = state.dispatcher();
        let editor_ref = editor_ref.clone();
        use_memo((), move |_| Callbacks::new(dispatcher, editor_ref))
    };
    let Callbacks {
        on_input,
        on_fix,
        on_undo_fix,
        on_goto,
        on_control,
        on_lang,
        on_edits,
    } = (*callbacks).clone();
    let on_dismiss = {
        let notice = notice.clone();
        Callback::from(move |_: MouseEvent| notice.set(None))
    };
    let notice_text = notice.as_ref().map(|notice| match notice {
        Notice::CorruptLink => i18n::notice_corrupt_link(),
        Notice::LinkTooLarge => i18n::notice_link_too_large(),
        Notice::UnknownExercise(id) => i18n::unknown_exercise(id),
    });
    let notice_text = notice_text
        .or_else(|| unknown_exercise.as_deref().map(i18n::unknown_exercise))
        .or_else(|| library_error.as_deref().map(i18n::library_failed));
    let on_replace = {
        let dispatcher = state.dispatcher();
        let before_solution = before_solution.clone();
        Callback::from(move |text: String| {
            before_solution.set(None);
            dispatcher.dispatch(Action::Replace(text.into()))
        })
    };
    let on_solution = {
        let dispatcher = state.dispatcher();
        let before_solution = before_solution.clone();
        let text = state.text.clone();
        Callback::from(move |solution: String| {
            if before_solution.is_none() {
                before_solution.set(Some(text.clone()));
            }
            dispatcher.dispatch(Action::Replace(solution.into()))
        })
    };
    let on_undo_solution = {
        let dispatcher = state.dispatcher();
        let before_solution = before_solution.clone();
        Callback::from(move |_: ()| {
            if let Some(text) = (*before_solution).clone() {
                before_solution.set(None);
                dispatcher.dispatch(Action::Replace(text));
            }
        })
    };
    // The exercise after this one in the library's order (the index's).
    let next_exercise: Option<(String, podlab_core::i18n::Text)> =
        exercise_id.as_deref().and_then(|id| {
            let library = library.as_ref()?;
            let all = &library.0;
            let at = all.iter().position(|exercise| exercise.id == id)?;
            all.get(at + 1)
                .map(|next| (next.id.clone(), next.title.clone()))
        });
    let interview = matches!(
        *page,
        Page::Exercise {
            interview: true,
            ..
        }
    );

    // The author's parameters (`?view=`, `?at=`, `?controls=`, `?autoplay=`).
    let options = use_memo((), |_| persist::page_options(&persist::query()));
    let view = use_state(|| options.view);
    let editor_open = use_state(|| true);
    let toggle_editor = {
        let editor_open = editor_open.clone();
        Callback::from(move |_: MouseEvent| editor_open.set(!*editor_open))
    };
    let allowed = exercise
        .as_ref()
        .and_then(|exercise| view_model::exercise_controls(&exercise.goals));
    let controls_shown = match (&options.controls, *embed) {
        (Some(named), _) => Some(named.clone()),
        (None, true) => Some(persist::EMBED_CONTROLS.to_vec()),
        (None, false) => None,
    };
    // An exercise never offers a control its goals forbid.
    let controls_shown = match (controls_shown, allowed) {
        (Some(shown), Some(allowed)) => Some(
            shown
                .into_iter()
                .filter(|id| allowed.contains(id))
                .collect(),
        ),
        (None, allowed) => allowed,
        (shown, None) => shown,
    };
    // The cursor, for Copy embed code's `at=` (written by the simulation).
    let cursor_out = use_memo((), |_| Rc::new(std::cell::Cell::new(0)));
    let cursor_out: Rc<std::cell::Cell<u64>> = (*cursor_out).clone();
    // The terminal's last kubectl line, for the share link's `cmd=`.
    let command_out = use_memo((), |_| Rc::new(std::cell::RefCell::new(None::<String>)));
    let command_out: Rc<std::cell::RefCell<Option<String>>> = (*command_out).clone();
    let share_options = {
        let options = (*options).clone();
        let view = *view;
        let controls = controls_shown.clone();
        let cursor = cursor_out.clone();
        let command = command_out.clone();
        Callback::from(move |_: ()| persist::PageOptions {
            view,
            at: Some(cursor.get()),
            controls: controls.clone(),
            cmd: command.borrow().clone().or_else(|| options.cmd.clone()),
            // The embed speaks the language the author wrote it in.
            lang: Some(lang),
            ..options.clone()
        })
    };
    let open_full = Callback::from(|event: MouseEvent| {
        let href = persist::full_page_href(&persist::page_base(), &persist::fragment());
        // Yew delegates events: the link is the target's closest `<a>`.
        if let Some(anchor) = event
            .target()
            .and_then(|target| wasm_bindgen::JsCast::dyn_into::<web_sys::Element>(target).ok())
            .and_then(|target| target.closest("a").ok().flatten())
        {
            let _ = anchor.set_attribute("href", &href);
        }
    });
    // An exercise that forbids changing the program locks the Scenario's
    // workload in the editor (computed on the text being typed).
    let locked = {
        let exercise = exercise.clone();
        // Keyed on the exercise too (a linked text comes before the library).
        let key = (SameRc(state.text.clone()), exercise_id.clone());
        *use_memo(key, move |(text, _)| {
            let exercise = exercise?;
            let text = &text.0;
            let span = exercise::locked_span(&exercise, text)?;
            let utf16 = |byte: usize| -> u32 {
                let units = text
                    .get(..byte)
                    .map_or(0, |before| before.encode_utf16().count());
                u32::try_from(units).unwrap_or(u32::MAX)
            };
            let line = |byte: usize| {
                text.get(..byte)
                    .map_or(1, |before| before.matches('\n').count() + 1)
            };
            Some(Locked {
                start: utf16(span.start),
                end: utf16(span.end),
                first_line: line(span.start),
                last_line: line(span.end.saturating_sub(1).max(span.start)),
            })
        })
    };
    // In an exercise podlab's findings (the list and the editor's marks)
    // wait until the learner asks: finding the cause is their work.
    let findings_shown = use_state(|| false);
    let findings_hidden = exercise.is_some() && !*findings_shown;
    let show_findings = {
        let findings_shown = findings_shown.clone();
        Callback::from(move |_: MouseEvent| findings_shown.set(true))
    };
    let diagnostics = html! {
        <Diagnostics
            heading={AttrValue::from(i18n::diagnostics_heading().get(lang).to_owned())}
            summary={AttrValue::from(summary)}
            pending={checking.then(|| AttrValue::from(i18n::checking().get(lang).to_owned()))}
            rows={rows.clone()}
            on_fix={on_fix.clone()}
            {on_goto}
        />
    };

    html! {
        <div class={classes!("app", embed.then_some("embed"))} lang={lang.code()}>
            <header>
                <div class="titles">
                    <h1 data-testid="title">{ i18n::title().html(lang) }</h1>
                    <p class="tagline">{ i18n::tagline().html(lang) }</p>
                </div>
                <div class="header-tools">
                    if *embed {
                        // A reader of the article opens the full page with
                        // the same text (the fragment is kept current after
                        // each lint), without `embed=1`.
                        <a class="open-full" data-testid="open-full" target="_blank" rel="noopener" href="./" onclick={open_full}>
                            { i18n::open_in_podlab().html(lang) }
                        </a>
                    } else {
                        <ShareBar text={state.text.clone()} {lang} options={Some(share_options)} />
                    }
                    if *page == Page::Playground {
                        <a class="to-exercises" data-testid="to-exercises" href={format!("?exercises&lang={}", lang.code())}>{ i18n::exercises().html(lang) }</a>
                        <a class="to-exercises" data-testid="to-cluster" href={format!("?cluster&lang={}", lang.code())}>{ i18n::from_cluster().html(lang) }</a>
                    }
                    // An embed whose author chose its language needs no button.
                    if !(*embed && options.lang.is_some()) {
                        <LangToggle {lang} on_change={on_lang} />
                    }
                </div>
            </header>
            if let Some(text) = notice_text {
                <div class="notice" role="alert" data-testid="notice">
                    <span>{ text.html(lang) }</span>
                    <button type="button" onclick={on_dismiss}>{ i18n::dismiss().html(lang) }</button>
                </div>
            }
            // Each page's content is its `main` landmark (axe: landmark-one-main, region).
            if *page == Page::Exercises {
                <main class="page-main">
                    <ExerciseIndex {lang} progress={(*progress).clone()} exercises={(*library).clone()} />
                </main>
            } else if let (true, Some(exercise)) = (interview, exercise.clone()) {
                <main class="page-main">
                    <InterviewView {exercise} {lang} />
                </main>
            } else {
            <main class={classes!(
                "workbench",
                embed.then_some("tabbed"),
                format!("view-{}", view.id()),
                (!*editor_open).then_some("editor-closed"),
                exercise.is_some().then_some("with-exercise"),
            )}>
                if *embed {
                    <nav class="tabs" role="tablist" aria-label={i18n::views_label().get(lang).to_owned()}>
                        { for persist::View::ALL.into_iter().map(|tab| {
                            let selected = tab == *view;
                            let onclick = {
                                let view = view.clone();
                                Callback::from(move |_: MouseEvent| view.set(tab))
                            };
                            html! {
                                <button type="button" role="tab" class="tab" aria-selected={selected.to_string()} data-testid={format!("tab-{}", tab.id())} {onclick}>
                                    { i18n::view_tab(tab).html(lang) }
                                </button>
                            }
                        }) }
                    </nav>
                }
                <div class="side">
                    <Controls values={(*state.values).clone()} {lang} on_change={on_control} only={controls_shown.clone()}
                        assumed={state.values.as_ref().as_ref().map(|values| view_model::controls_assumed(&state.linted.run, &values.container)).unwrap_or_default()} />
                    <div class="source">
                        if !*embed {
                            <button type="button" class="editor-toggle" data-testid="editor-toggle" aria-expanded={editor_open.to_string()} onclick={toggle_editor}>
                                { if *editor_open { i18n::hide_editor() } else { i18n::show_editor() }.get(lang).to_owned() }
                            </button>
                        }
                        if *editor_open || *embed {
                            <Editor
                                locked={locked}
                                text={state.text.clone()}
                                label={AttrValue::from(i18n::editor_label().get(lang).to_owned())}
                                lint={state.lint().filter(|_| !findings_hidden).cloned()}
                                {lang}
                                {on_input}
                                node_ref={editor_ref.clone()}
                                changed={state.applied.as_ref().map(|applied| Rc::new(applied.lines.clone()))}
                            />
                        }
                        if findings_hidden {
                            <button type="button" class="findings" data-testid="findings" onclick={show_findings}>
                                { match &state.diagnosed {
                                    Diagnosed::Found(lint) => i18n::show_findings(lint.findings.diagnostics.len()),
                                    Diagnosed::Waiting(_) => i18n::show_findings_checking(),
                                    Diagnosed::Unavailable => i18n::show_findings_uncounted(),
                                }.html(lang) }
                            </button>
                        } else {
                            { diagnostics }
                        }
                    </div>
                </div>
                <Simulation
                    linted={state.linted.clone()}
                    {lang}
                    pending={state.is_stale()}
                    start_at={options.at}
                    autoplay={options.autoplay}
                    cursor_out={cursor_out.clone()}
                    fold_diagnosis={exercise.is_some()}
                    command={options.cmd.clone()}
                    command_out={command_out.clone()}
                    fold_legend={*embed}
                    fix={exercise.is_none().then(|| CardFix {
                        lint: state.lint().cloned(),
                        workloads: state.linted.workloads.clone(),
                        applied: state.applied.clone(),
                        on_fix: on_fix.clone(),
                        on_undo: on_undo_fix.clone(),
                    })}
                    editing={Some(Editing {
                        on_edits,
                        applied: state.applied.clone(),
                        on_undo: on_undo_fix.clone(),
                    })}
                >
                    if let Some(exercise) = exercise.clone() {
                        <ExercisePanel {exercise} results={shown_results.clone()} {lang} {on_replace}
                            {on_solution} on_undo_solution={before_solution.is_some().then_some(on_undo_solution)}
                            {with_solution} next={next_exercise}
                            unavailable={matches!(state.diagnosed, Diagnosed::Unavailable)} />
                    }
                </Simulation>
            </main>
            }
        </div>
    }
}
