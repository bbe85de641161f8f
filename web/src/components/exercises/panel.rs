//! One exercise beside the editor: its story, the goals the simulator
//! checks on every (debounced) edit, hints one at a time, the explanation
//! once solved, and Start over / Load the solution.

use std::rc::Rc;

use podlab_core::exercise::{self, goals, Exercise, GoalResult};
use podlab_core::i18n::Lang;
use yew::prelude::*;

use crate::i18n;
use crate::i18n::TextHtml;

#[derive(Properties)]
pub struct ExercisePanelProps {
    pub exercise: Rc<Exercise>,
    /// `None` until the worker's first lint of the text (the "accepted"
    /// goal reads its diagnostics).
    pub results: Option<Rc<Vec<GoalResult>>>,
    /// The worker could not load: the goals cannot be checked.
    #[prop_or_default]
    pub unavailable: bool,
    pub lang: Lang,
    /// Replace the text (start over, load the solution).
    pub on_replace: Callback<String>,
}

impl PartialEq for ExercisePanelProps {
    fn eq(&self, other: &Self) -> bool {
        Rc::ptr_eq(&self.exercise, &other.exercise)
            && match (&self.results, &other.results) {
                (Some(this), Some(that)) => Rc::ptr_eq(this, that),
                (None, None) => true,
                _ => false,
            }
            && self.unavailable == other.unavailable
            && self.lang == other.lang
            && self.on_replace == other.on_replace
    }
}

#[component]
pub fn ExercisePanel(props: &ExercisePanelProps) -> Html {
    let lang = props.lang;
    let exercise = &props.exercise;
    let shown_hints = use_state(|| 0usize);
    let results: &[GoalResult] = props.results.as_deref().map_or(&[], Vec::as_slice);
    let solved = goals::solved(results);
    let goal_summary = match (&props.results, props.unavailable) {
        (Some(results), _) => goals::summary(results),
        (None, false) => i18n::checking(),
        (None, true) => i18n::lint_unavailable(),
    };
    let more_hint = {
        let shown_hints = shown_hints.clone();
        let total = exercise.hints.len();
        Callback::from(move |_: MouseEvent| shown_hints.set((*shown_hints + 1).min(total)))
    };
    let reset = {
        let on_replace = props.on_replace.clone();
        let exercise = exercise.clone();
        // Read on the click, not on every render of the panel.
        Callback::from(move |_: MouseEvent| {
            on_replace.emit(exercise::learner_text(&exercise.start))
        })
    };
    let solution = exercise.solution.is_some().then(|| {
        let on_replace = props.on_replace.clone();
        let exercise = exercise.clone();
        Callback::from(move |_: MouseEvent| {
            let solution = exercise.solution.as_deref().unwrap_or_default();
            on_replace.emit(exercise::learner_text(solution))
        })
    });
    // The explanation once solved, or when the learner asks for it.
    let answer_shown = use_state(|| false);
    let show_answer = {
        let answer_shown = answer_shown.clone();
        Callback::from(move |_: MouseEvent| answer_shown.set(true))
    };
    let interview_href = format!(
        "?exercise={}&mode=interview&lang={}",
        exercise.id,
        lang.code()
    );
    let index_href = format!("?exercises&lang={}", lang.code());
    html! {
        <section class={classes!("exercise", solved.then_some("solved"))} data-testid="exercise" aria-label={exercise.title.get(lang).to_owned()}>
            <nav class="exercise-nav">
                <a href={index_href}>{ i18n::back_to_index().html(lang) }</a>
                if exercise.interview.is_some() {
                    <a href={interview_href} data-testid="to-interview">{ i18n::interview_mode().html(lang) }</a>
                }
            </nav>
            <h2>{ exercise.title.html(lang) }</h2>
            <p>{ exercise.story.html(lang) }</p>
            <p><strong>{ format!("{}: ", i18n::goal().get(lang)) }</strong>{ exercise.goal.html(lang) }</p>
            <h3>{ i18n::goals().html(lang) }</h3>
            <ul class="goals" data-testid="goals">
                { for results.iter().enumerate().map(|(index, result)| html! {
                    <li class={if result.passed { "pass" } else { "fail" }} data-testid={format!("goal-{index}")} data-passed={result.passed.to_string()}>
                        <span class="goal-mark" aria-hidden="true">{ if result.passed { "✓" } else { "✗" } }</span>
                        <span class="goal-label">{ result.label.html(lang) }</span>
                        <span class="goal-why">{ result.why.html(lang) }</span>
                    </li>
                }) }
            </ul>
            <p class="goal-summary" role="status" aria-live="polite" data-testid="goal-summary">
                { goal_summary.html(lang) }
            </p>
            if solved {
                <div class="solved-banner" data-testid="solved">{ i18n::solved_banner().html(lang) }</div>
            }
            if solved || *answer_shown {
                <h3>{ i18n::explanation().html(lang) }</h3>
                <p data-testid="explanation">{ exercise.explanation.html(lang) }</p>
            }
            <ol class="hints">
                { for exercise.hints.iter().take(*shown_hints).enumerate().map(|(n, hint)| html! {
                    <li aria-label={i18n::hint_n(n + 1, exercise.hints.len()).get(lang).to_owned()}>{ hint.html(lang) }</li>
                }) }
            </ol>
            <div class="exercise-actions">
                if *shown_hints < exercise.hints.len() {
                    <button type="button" data-testid="hint" onclick={more_hint}>{ i18n::hint().html(lang) }</button>
                }
                if !solved && !*answer_shown {
                    <button type="button" data-testid="show-answer" onclick={show_answer}>{ i18n::show_answer().html(lang) }</button>
                }
                <button type="button" data-testid="reset" onclick={reset}>{ i18n::reset().html(lang) }</button>
                if let Some(onclick) = solution {
                    <button type="button" data-testid="solution" {onclick}>{ i18n::show_solution().html(lang) }</button>
                }
            </div>
        </section>
    }
}
