//! The diagnosis of the selected pod at the cursor (`explain::diagnosis`):
//! symptom, most likely root cause, the evidence lines, the next command
//! and the fix, in the page's language.

use std::rc::Rc;

use podlab_core::explain::diagnosis::Diagnosis;
use podlab_core::i18n::{Lang, Text};
use podlab_core::manifest::model::WorkloadKind;
use podlab_core::span::Span;
use yew::prelude::*;

use crate::i18n;
use crate::i18n::TextHtml;
use crate::state::{Applied, Lint};
use crate::view_model;

/// What the card needs to apply a fix where the diagnosis is (issue 30):
/// the worker's lint of the text (`None` until it is in, or while an edit
/// waits), the workloads' documents, the fix applied last, and the page's
/// actions. The fix's edits are the rule's, from the lint: the card never
/// runs a rule.
#[derive(Clone)]
pub struct CardFix {
    pub lint: Option<Rc<Lint>>,
    pub workloads: Rc<[(WorkloadKind, String, Span)]>,
    pub applied: Option<Rc<Applied>>,
    pub on_fix: Callback<usize>,
    pub on_undo: Callback<()>,
}

impl PartialEq for CardFix {
    fn eq(&self, other: &Self) -> bool {
        let same = |a: &Option<Rc<Lint>>, b: &Option<Rc<Lint>>| match (a, b) {
            (Some(a), Some(b)) => Rc::ptr_eq(a, b),
            (None, None) => true,
            _ => false,
        };
        same(&self.lint, &other.lint)
            && Rc::ptr_eq(&self.workloads, &other.workloads)
            && self.applied == other.applied
            && self.on_fix == other.on_fix
            && self.on_undo == other.on_undo
    }
}

#[derive(Properties, PartialEq)]
pub struct DiagnosisCardProps {
    /// `None`: the pod is healthy (or starting) at the cursor.
    pub diagnosis: Option<Diagnosis>,
    pub pod: AttrValue,
    pub lang: Lang,
    /// The index of the finding whose fix the card offers, and that fix's
    /// description (the button's tooltip).
    #[prop_or_default]
    pub offer: Option<(usize, Text)>,
    /// The fix's actions and the note of the one applied last; `None` where
    /// the card offers no fix (an exercise: finding it is the learner's
    /// work).
    #[prop_or_default]
    pub fix: Option<CardFix>,
}

/// What the card keeps of a fix applied from it: see `DiagnosisCard`.
#[derive(Default)]
struct Pinned {
    /// The focus goes to Undo at each render of the two frames.
    asked_here: bool,
    /// The card's height at the click, kept until the next edit.
    height: Option<i32>,
    /// The card's top on the screen at the click, held for two frames.
    top: Option<f64>,
}

/// "Applied: failureThreshold 30 → 45 · Undo", until the next edit.
fn applied_note(fix: Option<&CardFix>, lang: Lang, undo_ref: NodeRef) -> Html {
    let Some((applied, on_undo)) =
        fix.and_then(|fix| Some((fix.applied.as_ref()?, fix.on_undo.clone())))
    else {
        return Html::default();
    };
    let onclick = Callback::from(move |_: MouseEvent| on_undo.emit(()));
    html! {
        <p class="applied" data-testid="fix-applied" role="status">
            <span>{ i18n::applied().html(lang) }{ view_model::applied_note(&applied.changes, lang) }</span>
            { " · " }
            <button type="button" class="undo" data-testid="fix-undo" ref={undo_ref} {onclick}>{ i18n::undo().html(lang) }</button>
        </p>
    }
}

#[component]
pub fn DiagnosisCard(props: &DiagnosisCardProps) -> Html {
    let lang = props.lang;
    let heading = html! { <h4>{ i18n::diagnosis().html(lang) }</h4> };
    // A fix applied from this card (issue 30): the focus moves to its Undo
    // (the button pressed is gone with the problem), without scrolling;
    // the page does not jump: the card keeps its height until the next
    // edit, with the note at its foot where the pressed button was, and
    // stays where it was on the screen while the new run comes in (the
    // legend above it may shrink or grow) by scrolling the difference, for
    // two frames (the panes follow the timeline one frame later; iOS
    // Safari has no scroll anchoring, and the anchor Chromium picks is
    // replaced). One cell and one effect: each hook costs page bytes.
    let undo_ref = use_node_ref();
    let card_ref = use_node_ref();
    let pinned = use_mut_ref(Pinned::default);
    let applied = props.fix.as_ref().is_some_and(|fix| fix.applied.is_some());
    if !applied {
        pinned.borrow_mut().height = None;
    }
    {
        let (undo_ref, card_ref, pinned) = (undo_ref.clone(), card_ref.clone(), pinned.clone());
        use_effect(move || {
            let pinned = pinned.borrow();
            // Again at each render of the two frames: the healthy card that
            // follows one frame later draws a new Undo button.
            if applied && pinned.asked_here {
                if let Some(undo) = undo_ref.cast::<web_sys::HtmlElement>() {
                    let options = web_sys::FocusOptions::new();
                    options.set_prevent_scroll(true);
                    let _ = undo.focus_with_options(&options);
                }
            }
            if let (Some(top), Some(card), Some(window)) = (
                pinned.top,
                card_ref.cast::<web_sys::Element>(),
                web_sys::window(),
            ) {
                let moved = card.get_bounding_client_rect().top() - top;
                if moved.abs() >= 1.0 {
                    window.scroll_by_with_x_and_y(0.0, moved);
                }
            }
        });
    }
    let style = pinned
        .borrow()
        .height
        .map(|height| format!("min-height: {height}px"));
    let kept_class = style.is_some().then_some("kept");
    let note = applied_note(props.fix.as_ref(), lang, undo_ref);
    let Some(diagnosis) = &props.diagnosis else {
        return html! {
            <aside class={classes!("diagnosis", "healthy", kept_class)} data-testid="diagnosis" aria-live="polite" ref={card_ref} {style}>
                { heading }
                <div class="card-foot">
                    <p>{ i18n::healthy(&props.pod).html(lang) }</p>
                    { note }
                </div>
            </aside>
        };
    };
    let apply = props
        .fix
        .as_ref()
        .zip(props.offer.as_ref())
        .map(|(fix, (index, description))| {
            let (on_fix, index) = (fix.on_fix.clone(), *index);
            let (card_ref, pinned) = (card_ref.clone(), pinned.clone());
            let onclick = Callback::from(move |_: MouseEvent| {
                if let Some(card) = card_ref.cast::<web_sys::HtmlElement>() {
                    *pinned.borrow_mut() = Pinned {
                        asked_here: true,
                        height: Some(card.offset_height()),
                        top: Some(card.get_bounding_client_rect().top()),
                    };
                    let pinned = pinned.clone();
                    crate::persist::after_frame(move || {
                        crate::persist::after_frame(move || {
                            let mut pinned = pinned.borrow_mut();
                            pinned.top = None;
                            pinned.asked_here = false;
                        })
                    });
                }
                on_fix.emit(index);
            });
            html! {
                <button type="button" class="apply-fix" data-testid="diagnosis-apply"
                    title={i18n::apply_fix(description).get(lang).to_owned()} {onclick}>
                    { i18n::apply_the_fix().html(lang) }
                </button>
            }
        });
    // An outcome that rests on a number podlab assumed says so (issue 29).
    let conditional = diagnosis.conditional();
    html! {
        <aside class={classes!("diagnosis", conditional.is_some().then_some("conditional"), kept_class)} data-testid="diagnosis" aria-live="polite" ref={card_ref} {style}>
            { heading }
            <dl>
                <dt>{ i18n::symptom().html(lang) }</dt>
                <dd data-testid="diagnosis-symptom">
                    { diagnosis.symptom.html(lang) }
                    if conditional.is_some() {
                        { i18n::if_assumption_holds().html(lang) }
                    }
                </dd>
                <dt>{ i18n::root_cause().html(lang) }</dt>
                <dd data-testid="diagnosis-cause">{ diagnosis.root_cause.html(lang) }</dd>
                if let Some(note) = &conditional {
                    <dt>{ i18n::assumption().html(lang) }</dt>
                    <dd class="assumed" data-testid="diagnosis-assumed">{ note.html(lang) }</dd>
                }
                if !diagnosis.evidence.is_empty() {
                    <dt>{ i18n::evidence().html(lang) }</dt>
                    <dd>
                        <ul class="evidence">
                            { for diagnosis.evidence.iter().map(|line| html! { <li><code>{ line.clone() }</code></li> }) }
                        </ul>
                    </dd>
                }
                <dt>{ i18n::next_command().html(lang) }</dt>
                <dd>
                    <code class="next-command" data-testid="diagnosis-next">{ format!("$ {}", diagnosis.next_command) }</code>
                    <p class="why">{ diagnosis.why_that_command.html(lang) }</p>
                </dd>
                <dt>{ i18n::fix().html(lang) }</dt>
                <dd data-testid="diagnosis-fix">
                    { diagnosis.fix.html(lang) }
                    { for apply }
                </dd>
            </dl>
            { note }
        </aside>
    }
}
