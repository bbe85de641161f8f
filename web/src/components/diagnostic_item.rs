//! One diagnostic: severity, rule ID, message, position, help and a fix button.

use yew::prelude::*;

use crate::view_model::{severity_class, DiagnosticRow};

#[derive(Properties, PartialEq)]
pub struct DiagnosticItemProps {
    pub row: DiagnosticRow,
    pub on_fix: Callback<usize>,
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
    html! {
        <li class={classes!("diagnostic", severity_class(row.severity))} data-rule={row.rule}>
            <div class="headline">
                <span class="severity">{ row.severity_word.clone() }</span>
                <code class="rule">{ row.rule }</code>
                <span class="position">{ row.position.clone() }</span>
                { for fix }
            </div>
            <p class="message">{ row.message.clone() }</p>
            if let Some((label, help)) = row.help.clone() {
                <p class="help"><span class="help-label">{ label }</span>{ help }</p>
            }
        </li>
    }
}
