//! Interview mode (issue 5, item 3): first only the symptom (`kubectl get
//! pods`); each command the learner picks reveals its simulated output; then
//! they name the root cause and see their path scored against the
//! recommended order (describe → logs --previous → exec).

use std::rc::Rc;

use podlab_core::exercise::exec::ExecContext;
use podlab_core::exercise::interview::{focus_pod, run_command, score, symptom};
use podlab_core::exercise::{Command, Exercise};
use podlab_core::i18n::Lang;
use podlab_core::sim::{simulate, Options, Run};
use yew::prelude::*;

use crate::i18n;
use crate::i18n::TextHtml;

#[derive(Properties)]
pub struct InterviewProps {
    pub exercise: Rc<Exercise>,
    pub lang: Lang,
}

impl PartialEq for InterviewProps {
    fn eq(&self, other: &Self) -> bool {
        Rc::ptr_eq(&self.exercise, &other.exercise) && self.lang == other.lang
    }
}

/// One revealed command: what was typed and what it printed.
#[derive(Clone, PartialEq)]
struct Step {
    command: Command,
    line: String,
    output: String,
}

#[component]
pub fn InterviewView(props: &InterviewProps) -> Html {
    let lang = props.lang;
    let exercise = props.exercise.clone();
    let run: Rc<Run> = {
        let exercise = exercise.clone();
        use_memo((), move |_| simulate(&exercise.start, &Options::default()))
    };
    let steps = use_state(Vec::<Step>::new);
    let cause = use_state(|| None::<usize>);
    let Some(interview) = exercise.interview.clone() else {
        return html! {};
    };
    let at = interview.at;
    let has_pod = focus_pod(&run, at).is_some();
    let on_command = |command: Command| {
        let steps = steps.clone();
        let run = run.clone();
        let exercise = exercise.clone();
        Callback::from(move |_: MouseEvent| {
            let context = ExecContext::new(&exercise.start, &run);
            let (line, output) = run_command(&context, focus_pod(&run, at), command, at);
            let mut next = (*steps).clone();
            next.push(Step {
                command,
                line,
                output,
            });
            steps.set(next);
        })
    };
    let path: Vec<Command> = steps.iter().map(|step| step.command).collect();
    let scored = cause.map(|chosen| score(&interview, &path, Some(chosen)));
    let restart = {
        let steps = steps.clone();
        let cause = cause.clone();
        Callback::from(move |_: MouseEvent| {
            steps.set(Vec::new());
            cause.set(None);
        })
    };
    html! {
        <section class="interview" data-testid="interview">
            <nav class="exercise-nav">
                <a href={format!("?exercises&lang={}", lang.code())}>{ i18n::back_to_index().html(lang) }</a>
                <a href={format!("?exercise={}&lang={}", exercise.id, lang.code())}>{ i18n::practice().html(lang) }</a>
            </nav>
            <h2>{ format!("{} · {}", i18n::interview_mode().get(lang), exercise.title.get(lang)) }</h2>
            <p>{ exercise.story.html(lang) }</p>
            <p class="muted">{ i18n::recommended_order().html(lang) }</p>
            <h3>{ i18n::interview_symptom().html(lang) }</h3>
            <pre class="terminal" data-testid="interview-symptom">{ format!("$ kubectl get pods\n{}", symptom(&run, at)) }</pre>
            { for steps.iter().enumerate().map(|(index, step)| html! {
                <pre class="terminal" data-testid={format!("interview-output-{index}")}>{ format!("$ {}\n{}", step.line, step.output) }</pre>
            }) }
            if cause.is_none() {
                <div class="commands" role="group" aria-label={i18n::interview_run().get(lang).to_owned()}>
                    // Without a pod (the API server refused the object),
                    // only the commands that need none.
                    { for interview.commands.iter().filter(|command| has_pod || !command.needs_pod()).map(|command| html! {
                        <button type="button" data-testid={format!("interview-cmd-{}", command.id())}
                            onclick={on_command(*command)}>
                            { command.id() }
                        </button>
                    }) }
                </div>
            }
            <fieldset class="causes" disabled={cause.is_some()}>
                <legend>{ i18n::root_cause_question().html(lang) }</legend>
                { for interview.causes.iter().enumerate().map(|(index, option)| {
                    let setter = cause.clone();
                    let chosen = *cause == Some(index);
                    html! {
                        <label class={classes!(chosen.then_some("chosen"), (cause.is_some() && option.correct).then_some("correct"))}>
                            <input type="radio" name="cause" data-testid={format!("cause-{index}")}
                                checked={chosen}
                                onchange={Callback::from(move |_: Event| setter.set(Some(index)))} />
                            { option.text.html(lang) }
                            if cause.is_some() {
                                <span class="cause-why">{ option.why.html(lang) }</span>
                            }
                        </label>
                    }
                }) }
            </fieldset>
            if let Some(scored) = scored {
                <div class={classes!("score", scored.cause_correct.then_some("right"))} data-testid="interview-score" role="status">
                    <p><strong>{ scored.summary.html(lang) }</strong></p>
                    <p>{ format!("{}: {}", i18n::your_path().get(lang), path.iter().map(|c| c.id()).collect::<Vec<_>>().join(" → ")) }</p>
                    <p>{ exercise.explanation.html(lang) }</p>
                    <button type="button" data-testid="interview-restart" onclick={restart}>{ i18n::try_again().html(lang) }</button>
                </div>
            }
        </section>
    }
}
