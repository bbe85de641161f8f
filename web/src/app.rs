//! The page: header with the language toggle, the editor, the diagnostics,
//! and below them the simulation of the text (timeline and kubectl panes).
//!
//! Lint and simulation run ~150 ms after the last keystroke (debounced), and
//! at once after a fix; the language only changes how results are worded,
//! never re-lints or re-simulates.

use std::rc::Rc;

use podlab_core::i18n::Lang;
use yew::prelude::*;

use crate::components::{Controls, Diagnostics, Editor, LangToggle, ShareBar, Simulation};
use crate::hooks::use_debounced_effect;
use crate::persist::{self, Notice};
use crate::state::{Action, AppState, Linted};
use crate::{i18n, view_model, DEFAULT_TEXT};

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
}

/// Compares an `Rc` by address: a new lint is a new `Rc`.
struct SameRc<T>(Rc<T>);

impl<T> PartialEq for SameRc<T> {
    fn eq(&self, other: &Self) -> bool {
        Rc::ptr_eq(&self.0, &other.0)
    }
}

#[component]
pub fn App(props: &AppProps) -> Html {
    // Where the first text comes from, decided once.
    let opening = {
        let text = props.text.clone();
        let persist = props.persist;
        use_memo((), move |_| match text {
            Some(text) => (text.to_string(), None),
            None if persist => {
                let (text, _, notice) = persist::initial_text(
                    &persist::fragment(),
                    persist::load_autosave(),
                    DEFAULT_TEXT,
                );
                (text, notice)
            }
            None => (DEFAULT_TEXT.to_string(), None),
        })
    };
    let state = {
        let lang = props.lang;
        let text: Rc<str> = opening.0.as_str().into();
        use_reducer(move || AppState::new(text, lang.unwrap_or_else(browser_lang)))
    };
    let lang = state.lang;
    let notice = use_state(|| opening.1.clone());
    let embed = use_memo((), |_| persist::is_embed(&persist::query()));
    // After each lint (so not per keystroke): the link and the autosave.
    {
        let persist = props.persist;
        use_effect_with(SameRc(state.linted.clone()), move |linted| {
            if persist {
                persist::autosave(&linted.0.text);
                persist::write_fragment(&linted.0.text);
            }
        });
    }

    {
        let dispatcher = state.dispatcher();
        use_debounced_effect(state.text.clone(), LINT_DEBOUNCE_MS, move || {
            dispatcher.dispatch(Action::Lint)
        });
    }
    use_effect_with(lang, |lang| set_document_language(*lang));

    let rows = use_memo(
        (SameRc(state.linted.clone()), lang),
        |(linted, lang): &(SameRc<Linted>, Lang)| {
            view_model::diagnostic_rows(&linted.0.text, &linted.0.report, *lang)
        },
    );
    let summary = view_model::summary(&state.linted.report, lang);

    let on_input = {
        let dispatcher = state.dispatcher();
        Callback::from(move |text: Rc<str>| dispatcher.dispatch(Action::Edit(text)))
    };
    let on_fix = {
        let dispatcher = state.dispatcher();
        Callback::from(move |index: usize| dispatcher.dispatch(Action::ApplyFix(index)))
    };
    let editor_ref = use_node_ref();
    let on_goto = {
        let editor_ref = editor_ref.clone();
        Callback::from(move |selection: view_model::Selection| {
            select_in_editor(&editor_ref, selection)
        })
    };
    let on_control = {
        let dispatcher = state.dispatcher();
        Callback::from(move |change| dispatcher.dispatch(Action::Control(change)))
    };
    let on_dismiss = {
        let notice = notice.clone();
        Callback::from(move |_: MouseEvent| notice.set(None))
    };
    let notice_text = notice.as_ref().map(|notice| match notice {
        Notice::CorruptLink => i18n::notice_corrupt_link(),
        Notice::LinkTooLarge => i18n::notice_link_too_large(),
    });
    let on_lang = {
        let dispatcher = state.dispatcher();
        Callback::from(move |lang: Lang| dispatcher.dispatch(Action::SetLang(lang)))
    };

    html! {
        <div class={classes!("app", embed.then_some("embed"))} lang={lang.code()}>
            <header>
                <div class="titles">
                    <h1 data-testid="title">{ i18n::title().get(lang).to_owned() }</h1>
                    <p class="tagline">{ i18n::tagline().get(lang).to_owned() }</p>
                </div>
                <div class="header-tools">
                    <ShareBar text={state.text.clone()} {lang} />
                    <LangToggle {lang} on_change={on_lang} />
                </div>
            </header>
            if let Some(text) = notice_text {
                <div class="notice" role="alert" data-testid="notice">
                    <span>{ text.get(lang).to_owned() }</span>
                    <button type="button" onclick={on_dismiss}>{ i18n::dismiss().get(lang).to_owned() }</button>
                </div>
            }
            <main>
                <Editor
                    text={state.text.clone()}
                    label={AttrValue::from(i18n::editor_label().get(lang).to_owned())}
                    {on_input}
                    node_ref={editor_ref.clone()}
                />
                <div class="side">
                <Controls values={(*state.values).clone()} {lang} on_change={on_control} />
                <Diagnostics
                    heading={AttrValue::from(i18n::diagnostics_heading().get(lang).to_owned())}
                    summary={AttrValue::from(summary)}
                    pending={state.is_stale().then(|| AttrValue::from(i18n::checking().get(lang).to_owned()))}
                    rows={rows.clone()}
                    {on_fix}
                    {on_goto}
                />
                </div>
                <Simulation linted={state.linted.clone()} {lang} pending={state.is_stale()} />
            </main>
        </div>
    }
}

/// Selects a span in the editor and scrolls its line into view, about a
/// third of the way down.
fn select_in_editor(editor: &NodeRef, selection: view_model::Selection) {
    let Some(textarea) = editor.cast::<web_sys::HtmlTextAreaElement>() else {
        return;
    };
    let _ = textarea.focus();
    let _ = textarea.set_selection_range(selection.start, selection.end);
    let lines = textarea.value().lines().count().max(1) as i32;
    let line_height = textarea.scroll_height() / lines;
    let top = (selection.line as i32 - 1) * line_height - textarea.client_height() / 3;
    textarea.set_scroll_top(top.max(0));
}

/// The language from `?lang=`, else the browser's, else English.
fn browser_lang() -> Lang {
    let Some(window) = web_sys::window() else {
        return Lang::default();
    };
    let query = window.location().search().unwrap_or_default();
    let navigator_language = window.navigator().language();
    view_model::initial_lang(&query, navigator_language.as_deref())
}

/// Keeps `<html lang>` and the window title in the chosen language, so
/// screen readers and fonts pick the right script.
fn set_document_language(lang: Lang) {
    let Some(document) = web_sys::window().and_then(|window| window.document()) else {
        return;
    };
    if let Some(root) = document.document_element() {
        let _ = root.set_attribute("lang", lang.code());
    }
    document.set_title(i18n::title().get(lang));
}
