//! "From my cluster" (`?cluster`, issue 31 item 4): the reader pastes what
//! kubectl printed about a failing pod on a real cluster and reads what
//! went wrong: the kind, the explanation, the pasted lines that show it
//! (marked in the paste, one click to each), the fix, what podlab assumed,
//! and where the paste says enough, the replay, one click from the
//! playground at the paste's age (docs/diagnose.md).
//!
//! The paste is read in the tools worker (`kubectl_worker::diagnose`,
//! `podlab_core::paste`), started when this page opens: the reader, the
//! judge, the replay's simulation and the answer's markup
//! (`pasted::markup`) are not in the page's download. The
//! paste stays in the tab's sessionStorage, so Back from the replay finds
//! it; it leaves the browser never.

use std::rc::Rc;

use podlab_core::i18n::Lang;
use podlab_core::picture::escape;
use wasm_bindgen::JsCast;
use yew::prelude::*;

use crate::components::{
    browser_lang, select_in_editor, set_document_language, Editor, LangToggle,
};
use crate::hooks::use_debounced_effect;
use crate::i18n::{self, TextHtml};
use crate::pasted::Pasted;
use crate::{kubectl_worker, persist, view_model};

/// How long typing must pause before the paste is read again.
pub const READ_DEBOUNCE_MS: u32 = 250;

#[derive(Properties, PartialEq, Default)]
pub struct FromClusterProps {
    /// The language to start in; `None` reads `?lang=` and the browser's.
    #[prop_or_default]
    pub lang: Option<Lang>,
    /// Keep the paste in sessionStorage (the real page; tests mount
    /// without it).
    #[prop_or_default]
    pub persist: bool,
}

/// What the answer's side shows.
#[derive(Clone, PartialEq)]
enum Shown {
    /// Nothing pasted.
    Waiting,
    /// Being read (the last answer stays under it).
    Reading(Option<Rc<Pasted>>),
    Answer(Rc<Pasted>),
    /// The worker could not load.
    Unavailable,
}

#[component]
pub fn FromCluster(props: &FromClusterProps) -> Html {
    let lang = {
        let lang = props.lang;
        use_state(move || lang.unwrap_or_else(browser_lang))
    };
    use_effect_with((), |_| {
        persist::remove_facade();
        // The reader opened this page: the worker that reads pastes starts.
        kubectl_worker::warm_tools();
    });
    use_effect_with(*lang, |lang| set_document_language(*lang));
    let text = {
        let persist = props.persist;
        use_state(move || -> Rc<str> {
            let saved = persist.then(persist::load_paste).flatten();
            Rc::from(saved.unwrap_or_default())
        })
    };
    let shown = use_state(|| Shown::Waiting);
    // The latest paste sent: an answer to an older one is dropped.
    let sent = use_mut_ref(|| 0u32);
    {
        let shown = shown.clone();
        let sent = sent.clone();
        let persist = props.persist;
        let paste = (*text).clone();
        use_debounced_effect((*text).clone(), READ_DEBOUNCE_MS, move || {
            if persist {
                persist::save_paste(&paste);
            }
            if paste.trim().is_empty() {
                shown.set(Shown::Waiting);
                return;
            }
            let last = match &*shown {
                Shown::Answer(answer) | Shown::Reading(Some(answer)) => Some(answer.clone()),
                _ => None,
            };
            shown.set(Shown::Reading(last));
            let this = sent.borrow().wrapping_add(1);
            *sent.borrow_mut() = this;
            let shown = shown.clone();
            kubectl_worker::diagnose(paste, move |answer| {
                if *sent.borrow() == this {
                    shown.set(match answer {
                        Some(answer) => Shown::Answer(Rc::new(answer)),
                        None => Shown::Unavailable,
                    });
                }
            });
        });
    }
    let on_input = {
        let text = text.clone();
        Callback::from(move |typed: Rc<str>| text.set(typed))
    };
    let on_example = {
        let text = text.clone();
        Callback::from(move |_: MouseEvent| {
            let text = text.clone();
            kubectl_worker::fetch_example(move |example| {
                if let Some(example) = example {
                    text.set(Rc::from(example));
                }
            });
        })
    };
    let on_lang = {
        let lang = lang.clone();
        Callback::from(move |next: Lang| lang.set(next))
    };
    let editor_ref = use_node_ref();
    let lang = *lang;
    let answer: Option<Rc<Pasted>> = match &*shown {
        Shown::Answer(answer) | Shown::Reading(Some(answer)) => Some(answer.clone()),
        _ => None,
    };
    // The evidence lines, marked in the paste (0-based, as the editor's
    // marks count).
    let marked = answer.as_ref().map(|answer| {
        Rc::new(
            answer
                .evidence
                .iter()
                .map(|line| (line.saturating_sub(1), line.saturating_sub(1)))
                .collect::<Vec<_>>(),
        )
    });
    // One listener for the evidence's buttons (the answer is markup): the
    // line a button carries, selected in the paste.
    let on_answer_click = {
        let text = text.clone();
        let editor_ref = editor_ref.clone();
        Callback::from(move |event: MouseEvent| {
            let line = event
                .target()
                .and_then(|target| target.dyn_into::<web_sys::Element>().ok())
                .and_then(|target| target.closest(".evidence-line").ok().flatten())
                .and_then(|button| button.get_attribute("data-line"))
                .and_then(|line| line.parse().ok());
            if let Some(selection) = line.and_then(|line| view_model::line_selection(&text, line)) {
                select_in_editor(&editor_ref, selection);
            }
        })
    };
    let reading = matches!(&*shown, Shown::Reading(_));

    // What has no listener is one string of markup (docs/size.md: every
    // `html!` node is code in the page's download).
    let titles = format!(
        "<div class=\"titles\"><h1 data-testid=\"title\">{}</h1><p class=\"tagline\">{}</p></div>",
        escape(i18n::title().get(lang)),
        escape(i18n::tagline().get(lang)),
    );
    let intro = format!(
        "<div><h2>{}</h2><p class=\"cluster-intro\">{}</p></div>",
        escape(i18n::cluster_heading().get(lang)),
        escape(i18n::cluster_intro().get(lang)),
    );
    let note = match (&*shown, &answer) {
        (Shown::Unavailable, _) => Some(i18n::paste_unavailable()),
        (_, Some(_)) => None,
        (Shown::Reading(None), None) => Some(i18n::paste_reading()),
        _ => Some(i18n::paste_waiting()),
    };
    let unavailable = matches!(&*shown, Shown::Unavailable);

    html! {
        <div class="app cluster-page" lang={lang.code()}>
            <header>
                { Html::from_html_unchecked(AttrValue::from(titles)) }
                <div class="header-tools">
                    <a class="to-exercises" data-testid="to-playground" href={format!("./?lang={}", lang.code())}>{ i18n::playground().html(lang) }</a>
                    <LangToggle {lang} on_change={on_lang} />
                </div>
            </header>
            <main class="page-main cluster" data-testid="from-cluster">
                { Html::from_html_unchecked(AttrValue::from(intro)) }
                <div class="cluster-grid">
                    <div class="cluster-paste">
                        <button type="button" class="example" data-testid="paste-example" onclick={on_example}>
                            { i18n::try_example().html(lang) }
                        </button>
                        <Editor
                            text={(*text).clone()}
                            label={AttrValue::from(i18n::paste_label().get(lang).to_owned())}
                            lint={None}
                            {lang}
                            {on_input}
                            node_ref={editor_ref.clone()}
                            changed={marked}
                        />
                    </div>
                    <section class={classes!("paste-answer", reading.then_some("reading"), answer.is_some().then_some("answered"))} data-testid="paste-answer"
                        data-kind={answer.as_ref().map(|a| a.kind.clone())} aria-live="polite" aria-busy={reading.to_string()}
                        onclick={on_answer_click}>
                        if let Some(note) = note {
                            <p class="note" role={unavailable.then_some("alert")}>{ note.html(lang) }</p>
                        } else if let Some(answer) = &answer {
                            { Html::from_html_unchecked(AttrValue::from(answer.markup.get(lang).to_owned())) }
                        }
                    </section>
                </div>
            </main>
        </div>
    }
}
