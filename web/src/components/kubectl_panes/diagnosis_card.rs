//! The diagnosis of the selected pod at the cursor (`explain::diagnosis`):
//! symptom, most likely root cause, the evidence lines, the next command
//! and the fix, in the page's language.

use podlab_core::explain::diagnosis::Diagnosis;
use podlab_core::i18n::Lang;
use yew::prelude::*;

use crate::i18n;
use crate::i18n::TextHtml;

#[derive(Properties, PartialEq)]
pub struct DiagnosisCardProps {
    /// `None`: the pod is healthy (or starting) at the cursor.
    pub diagnosis: Option<Diagnosis>,
    pub pod: AttrValue,
    pub lang: Lang,
}

#[component]
pub fn DiagnosisCard(props: &DiagnosisCardProps) -> Html {
    let lang = props.lang;
    let heading = html! { <h4>{ i18n::diagnosis().html(lang) }</h4> };
    let Some(diagnosis) = &props.diagnosis else {
        return html! {
            <aside class="diagnosis healthy" data-testid="diagnosis" aria-live="polite">
                { heading }
                <p>{ i18n::healthy(&props.pod).html(lang) }</p>
            </aside>
        };
    };
    // An outcome that rests on a number podlab assumed says so (issue 29).
    let conditional = diagnosis.conditional();
    html! {
        <aside class={classes!("diagnosis", conditional.is_some().then_some("conditional"))} data-testid="diagnosis" aria-live="polite">
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
                <dd>{ diagnosis.fix.html(lang) }</dd>
            </dl>
        </aside>
    }
}
