//! The list of diagnostics under the editor, with a one-line summary.

mod diagnostic_item;

pub use self::diagnostic_item::DiagnosticItem;

use std::rc::Rc;

use yew::prelude::*;

use crate::view_model::{DiagnosticRow, Selection};

#[derive(Properties, PartialEq)]
pub struct DiagnosticsProps {
    pub heading: AttrValue,
    pub summary: AttrValue,
    /// Shown beside the summary while an edit waits to be linted.
    pub pending: Option<AttrValue>,
    pub rows: Rc<Vec<DiagnosticRow>>,
    /// Sends the index of the diagnostic whose fix was clicked.
    pub on_fix: Callback<usize>,
    /// Selects a diagnostic's span in the editor.
    pub on_goto: Callback<Selection>,
}

#[component]
pub fn Diagnostics(props: &DiagnosticsProps) -> Html {
    html! {
        <section class="diagnostics" aria-live="polite">
            <h2>{ props.heading.clone() }</h2>
            <p class="summary" data-testid="summary">
                { props.summary.clone() }
                if let Some(pending) = props.pending.clone() {
                    <span class="pending">{ pending }</span>
                }
            </p>
            <ul data-testid="diagnostics">
                { for props.rows.iter().map(|row| html! {
                    <DiagnosticItem key={row.key.clone()} row={row.clone()} on_fix={props.on_fix.clone()} on_goto={props.on_goto.clone()} />
                }) }
            </ul>
        </section>
    }
}
