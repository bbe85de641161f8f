//! One diagnostic: severity, rule ID, message, position, help and a fix button.

use yew::prelude::*;

use crate::view_model::{code_spans, severity_class, DiagnosticRow, Selection};

/// Text with its backticked pieces as `<code>`.
fn rich(text: &str) -> Html {
    code_spans(text)
        .into_iter()
        .map(|(code, piece)| {
            if code {
                html! { <code>{ piece }</code> }
            } else {
                html! { { piece } }
            }
        })
        .collect::<Html>()
}

#[derive(Properties, PartialEq)]
pub struct DiagnosticItemProps {
    pub row: DiagnosticRow,
    pub on_fix: Callback<usize>,
    /// Selects the diagnostic's span in the editor.
    pub on_goto: Callback<Selection>,
}

#[component]
pub fn DiagnosticItem(props: &DiagnosticItemProps) -> Html {
    let row = &props.row;
    let fix = row.fix.as_ref().map(|fix| {
        let index = row.index;
        let onclick = props.on_fix.reform(move |_: MouseEvent| index);
        html! {
            <button
                type="button"
                class="fix"
                data-testid={format!("fix-{}", row.rule)}
                title={fix.title.clone()}
                {onclick}
            >
                { fix.label.clone() }
            </button>
        }
    });
    let goto = {
        let selection = row.selection;
        props.on_goto.reform(move |_: MouseEvent| selection)
    };
    html! {
        <li class={classes!("diagnostic", severity_class(row.severity))} data-rule={row.rule}>
            <div class="headline">
                <span class="severity">{ row.severity_word.clone() }</span>
                <code class="rule" title={row.rule_title.clone()}>{ row.rule }</code>
                <button type="button" class="position" data-testid="goto" onclick={goto}>
                    { row.position.clone() }
                </button>
                { for fix }
            </div>
            <p class="message">{ rich(&row.message) }</p>
            if let Some((label, help)) = row.help.clone() {
                <p class="help"><span class="help-label">{ label }</span>{ rich(&help) }</p>
            }
        </li>
    }
}
