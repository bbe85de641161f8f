//! The diagnosis of the selected pod at the cursor (`explain::diagnosis`):
//! symptom, most likely root cause, the evidence lines, the next command
//! and the fix, in the page's language.

use podlab_core::explain::diagnosis::Diagnosis;
use podlab_core::i18n::Lang;
use yew::prelude::*;

use crate::i18n;

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
    let heading = html! { <h4>{ i18n::diagnosis().get(lang).to_owned() }</h4> };
    let Some(diagnosis) = &props.diagnosis else {
        return html! {
            <aside class="diagnosis healthy" data-testid="diagnosis" aria-live="polite">
                { heading }
                <p>{ i18n::healthy(&props.pod).get(lang).to_owned() }</p>
            </aside>
        };
    };
    html! {
        <aside class="diagnosis" data-testid="diagnosis" aria-live="polite">
            { heading }
            <dl>
                <dt>{ i18n::symptom().get(lang).to_owned() }</dt>
                <dd data-testid="diagnosis-symptom">{ diagnosis.symptom.get(lang).to_owned() }</dd>
                <dt>{ i18n::root_cause().get(lang).to_owned() }</dt>
                <dd data-testid="diagnosis-cause">{ diagnosis.root_cause.get(lang).to_owned() }</dd>
                if !diagnosis.evidence.is_empty() {
                    <dt>{ i18n::evidence().get(lang).to_owned() }</dt>
                    <dd>
                        <ul class="evidence">
                            { for diagnosis.evidence.iter().map(|line| html! { <li><code>{ line.clone() }</code></li> }) }
                        </ul>
                    </dd>
                }
                <dt>{ i18n::next_command().get(lang).to_owned() }</dt>
                <dd>
                    <code class="next-command" data-testid="diagnosis-next">{ format!("$ {}", diagnosis.next_command) }</code>
                    <p class="why">{ diagnosis.why_that_command.get(lang).to_owned() }</p>
                </dd>
                <dt>{ i18n::fix().get(lang).to_owned() }</dt>
                <dd>{ diagnosis.fix.get(lang).to_owned() }</dd>
            </dl>
        </aside>
    }
}
