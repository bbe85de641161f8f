//! Interview mode (issue 5 item 3, issue 17 item 4): first only the
//! symptom (`kubectl get pods`); the learner types kubectl's commands in
//! the terminal, each printing its simulated output; then they name the
//! root cause and see what their commands revealed scored against the
//! recommended order (describe → logs --previous → exec), their transcript
//! next to the recommended one, with a remark on each wasted command.

use std::rc::Rc;

use podlab_core::exercise::exec::ExecContext;
use podlab_core::exercise::interview::{
    focus_pod, interesting_node, investigated, score, symptom, Verdict,
};
use podlab_core::exercise::Exercise;
use podlab_core::i18n::Lang;
use podlab_core::kubectl::session::{remarks, steps, Entry};
use podlab_core::sim::{simulate, Options, Run};
use yew::prelude::*;

use crate::components::Terminal;
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

/// The lines typed so far: `Some` adds one, `None` starts again.
#[derive(Default, PartialEq)]
struct Transcript(Vec<Entry>);

impl Reducible for Transcript {
    type Action = Option<Entry>;

    fn reduce(self: Rc<Self>, action: Option<Entry>) -> Rc<Self> {
        match action {
            Some(entry) => {
                let mut entries = self.0.clone();
                entries.push(entry);
                Rc::new(Transcript(entries))
            }
            None => Rc::new(Transcript::default()),
        }
    }
}

#[component]
pub fn InterviewView(props: &InterviewProps) -> Html {
    let lang = props.lang;
    let exercise = props.exercise.clone();
    let run: Rc<Run> = {
        let exercise = exercise.clone();
        use_memo((), move |_| simulate(&exercise.start, &Options::default()))
    };
    let text: Rc<Rc<str>> = {
        let exercise = exercise.clone();
        use_memo((), move |_| Rc::<str>::from(exercise.start.as_str()))
    };
    let text: Rc<str> = (*text).clone();
    let entries = use_reducer(Transcript::default);
    // A new key mounts a fresh terminal (Try again).
    let attempt = use_state(|| 0_u32);
    let cause = use_state(|| None::<usize>);
    // "I'm ready to answer": the choices without a command first.
    let ready = use_state(|| false);
    let Some(interview) = exercise.interview.clone() else {
        return html! {};
    };
    let at = interview.at;
    let focus = focus_pod(&run, at).map(|pod| pod.name.clone());
    let on_entry = {
        // A reducer: answers that arrive before a render each add theirs.
        let entries = entries.dispatcher();
        Callback::from(move |entry: Entry| entries.dispatch(Some(entry)))
    };
    let lines = steps(&entries.0, focus.as_deref());
    // The choices wait for a line that showed something about the pod in
    // trouble, or for the learner to ask.
    let choices_open = investigated(&lines) || *ready || cause.is_some();
    let scored = cause.map(|chosen| score(&interview, &lines, Some(chosen)));
    let restart = {
        let entries = entries.dispatcher();
        let cause = cause.clone();
        let ready = ready.clone();
        let attempt = attempt.clone();
        Callback::from(move |_: MouseEvent| {
            entries.dispatch(None);
            cause.set(None);
            ready.set(false);
            attempt.set(attempt.wrapping_add(1));
        })
    };
    let ask = {
        let ready = ready.clone();
        Callback::from(move |_: MouseEvent| ready.set(true))
    };
    // The transcripts side by side once scored: each typed line with
    // podlab's remark, and the recommended lines for the same pod.
    let transcripts = scored.is_some().then(|| {
        let context = ExecContext::new(&exercise.start, &run);
        let pod = focus_pod(&run, at);
        let (name, container, node) = match pod {
            Some(pod) => (
                pod.name.clone(),
                pod.containers
                    .first()
                    .map(|c| c.name.clone())
                    .unwrap_or_default(),
                interesting_node(&context, pod, at),
            ),
            None => (
                String::new(),
                String::new(),
                podlab_core::exercise::interview::first_node(&context),
            ),
        };
        let recommended: Vec<String> = interview
            .recommended
            .iter()
            .map(|command| command.command_line(&name, &container, &node))
            .collect();
        // One remark per line, read in order: an action before any read of
        // the pod in trouble is a detour (issue 33 item 4).
        let typed: Vec<(String, Option<podlab_core::i18n::Text>)> = entries
            .0
            .iter()
            .zip(remarks(&run, &interview, &entries.0, focus.as_deref()))
            .map(|(entry, remark)| (format!("{}{}", entry.prompt, entry.line), remark))
            .collect();
        (typed, recommended)
    });
    let order: Vec<&str> = interview.recommended.iter().map(|c| c.id()).collect();
    let order = order.join(" → ");
    html! {
        <section class="interview" data-testid="interview">
            <nav class="exercise-nav">
                <a href={format!("?exercises&lang={}", lang.code())}>{ i18n::back_to_index().html(lang) }</a>
                <a href={format!("?exercise={}&lang={}", exercise.id, lang.code())}>{ i18n::practice().html(lang) }</a>
            </nav>
            <h2 data-testid="interview-title">{ format!("{} · {}", i18n::interview_mode().get(lang), interview.title.get(lang)) }</h2>
            <p data-testid="interview-story">{ interview.story.html(lang) }</p>
            <p class="muted">{ i18n::recommended_order().html(lang) }</p>
            <h3>{ i18n::interview_symptom().html(lang) }</h3>
            <pre class="terminal" data-testid="interview-symptom">{ format!("$ kubectl get pods\n{}", symptom(&run, at)) }</pre>
            <Terminal key={*attempt} text={text.clone()} run={run.clone()} {at} {lang} on_entry={on_entry} />
            if choices_open {
                <fieldset class="causes" data-testid="interview-causes" disabled={cause.is_some()}>
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
            } else {
                <p class="answer-gate">
                    { i18n::choices_after_a_command().html(lang) }
                    { " " }
                    <button type="button" data-testid="interview-ready" onclick={ask}>{ i18n::ready_to_answer().html(lang) }</button>
                </p>
            }
            if let Some(scored) = scored {
                <div class={classes!("score", match scored.verdict {
                    Verdict::Found => "right",
                    Verdict::Guessed => "guess",
                    Verdict::Wrong => "wrong",
                })} data-testid="interview-score" data-verdict={match scored.verdict {
                    Verdict::Found => "found",
                    Verdict::Guessed => "guessed",
                    Verdict::Wrong => "wrong",
                }} role="status">
                    <p><strong data-testid="score-verdict">{ scored.verdict.text().html(lang) }</strong></p>
                    <div class="score-numbers">
                        <dl>
                            <dt>{ i18n::score_cause().html(lang) }</dt>
                            <dd data-testid="score-cause">{ i18n::right_or_wrong(scored.cause_correct).html(lang) }</dd>
                            <dt>{ i18n::score_steps().html(lang) }</dt>
                            <dd data-testid="score-steps">{ i18n::steps_of(scored.followed, scored.recommended, &order).html(lang) }</dd>
                            <dt>{ i18n::score_detours().html(lang) }</dt>
                            <dd data-testid="score-detours">{ scored.detours }</dd>
                            <dt>{ i18n::score_typed().html(lang) }</dt>
                            <dd data-testid="score-typed">{ scored.typed }</dd>
                        </dl>
                        <p class="muted score-definition" data-testid="score-definition">{ i18n::score_definition().html(lang) }</p>
                    </div>
                    if let Some((typed, recommended)) = &transcripts {
                        <div class="transcripts" data-testid="interview-transcripts">
                            <div>
                                <h4>{ i18n::your_path().html(lang) }</h4>
                                <ol data-testid="interview-typed">
                                    { for typed.iter().map(|(line, remark)| html! {
                                        <li>
                                            <code>{ line.clone() }</code>
                                            if let Some(remark) = remark {
                                                <span class="remark">{ remark.html(lang) }</span>
                                            }
                                        </li>
                                    }) }
                                </ol>
                            </div>
                            <div>
                                <h4>{ i18n::recommended_path().html(lang) }</h4>
                                <ol>
                                    { for recommended.iter().map(|line| html! { <li><code>{ format!("$ {line}") }</code></li> }) }
                                </ol>
                            </div>
                        </div>
                    }
                    <p>{ exercise.explanation.html(lang) }</p>
                    <button type="button" data-testid="interview-restart" onclick={restart}>{ i18n::try_again().html(lang) }</button>
                </div>
            }
        </section>
    }
}
