//! One exercise beside the editor: its story, the goals the simulator
//! checks on every (debounced) edit, hints one at a time and counted, the
//! explanation once solved (or asked for: after every hint, or after a
//! confirmation), Start over, and Load the solution (the learner's text one
//! Undo away; solved with the solution, not solved), and the next exercise
//! once solved.

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
    /// Replace the text (start over).
    pub on_replace: Callback<String>,
    /// Put the solution in the editor, keeping the learner's text.
    pub on_solution: Callback<String>,
    /// Bring the learner's text back, while the solution is loaded.
    #[prop_or_default]
    pub on_undo_solution: Option<Callback<()>>,
    /// The text is the loaded solution: solved, it is solved with it.
    #[prop_or_default]
    pub with_solution: bool,
    /// The next exercise's id and title, linked once solved.
    #[prop_or_default]
    pub next: Option<(String, podlab_core::i18n::Text)>,
}

/// What the learner asked to see before the hints were all shown.
#[derive(Clone, Copy, PartialEq)]
enum Reveal {
    Answer,
    Solution,
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
            && self.on_solution == other.on_solution
            && self.on_undo_solution == other.on_undo_solution
            && self.with_solution == other.with_solution
            && self.next == other.next
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
    // The answer and the solution wait for every hint, or for a yes.
    let total = exercise.hints.len();
    let hints_left = total.saturating_sub(*shown_hints);
    let pending = use_state(|| None::<Reveal>);
    let answer_shown = use_state(|| false);
    let load_solution = {
        let on_solution = props.on_solution.clone();
        let exercise = exercise.clone();
        move || {
            if let Some(solution) = exercise.solution.as_deref() {
                on_solution.emit(exercise::learner_text(solution));
            }
        }
    };
    let reveal = |what: Reveal| {
        let pending = pending.clone();
        let answer_shown = answer_shown.clone();
        let load_solution = load_solution.clone();
        let ask = hints_left > 0 && !solved;
        Callback::from(move |_: MouseEvent| {
            if ask {
                pending.set(Some(what));
            } else {
                pending.set(None);
                match what {
                    Reveal::Answer => answer_shown.set(true),
                    Reveal::Solution => load_solution(),
                }
            }
        })
    };
    let show_answer = reveal(Reveal::Answer);
    let solution = exercise
        .solution
        .is_some()
        .then(|| reveal(Reveal::Solution));
    let confirm = {
        let pending = pending.clone();
        let answer_shown = answer_shown.clone();
        Callback::from(move |_: MouseEvent| {
            match *pending {
                Some(Reveal::Answer) => answer_shown.set(true),
                Some(Reveal::Solution) => load_solution(),
                None => {}
            }
            pending.set(None);
        })
    };
    let cancel = {
        let pending = pending.clone();
        Callback::from(move |_: MouseEvent| pending.set(None))
    };
    let undo = props
        .on_undo_solution
        .clone()
        .map(|undo| Callback::from(move |_: MouseEvent| undo.emit(())));
    let interview_href = format!(
        "?interview={}&lang={}",
        podlab_core::exercise::interview::interview_key(&exercise.id),
        lang.code()
    );
    let index_href = format!("?exercises&lang={}", lang.code());
    html! {
        <section class={classes!("exercise", solved.then_some("solved"))} data-testid="exercise" aria-label={exercise.title.get(lang).to_owned()}>
            <nav class="exercise-nav">
                <a href={index_href.clone()}>{ i18n::back_to_index().html(lang) }</a>
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
                <div class={classes!("solved-banner", props.with_solution.then_some("with-solution"))} data-testid="solved" data-with-solution={props.with_solution.to_string()}>
                    if props.with_solution {
                        { i18n::solved_with_solution_banner().html(lang) }
                    } else {
                        { i18n::solved_banner().html(lang) }
                    }
                </div>
                <p class="next-exercise">
                    if let Some((id, title)) = &props.next {
                        { i18n::next_exercise().html(lang) }{ " " }
                        <a data-testid="next-exercise" href={format!("?exercise={id}&lang={}", lang.code())}>{ title.html(lang) }</a>
                    } else {
                        <a data-testid="next-exercise" href={index_href}>{ i18n::back_to_index().html(lang) }</a>
                    }
                </p>
            }
            if let Some(onclick) = undo {
                <p class="solution-note" data-testid="solution-loaded">
                    { i18n::solution_loaded().html(lang) }{ " " }
                    <button type="button" data-testid="undo-solution" {onclick}>{ i18n::undo_solution().html(lang) }</button>
                </p>
            }
            <ol class="hints" data-testid="hints">
                { for exercise.hints.iter().take(*shown_hints).enumerate().map(|(n, hint)| html! {
                    <li data-testid={format!("hint-{}", n + 1)}>
                        <strong>{ format!("{}: ", i18n::hint_n(n + 1, total).get(lang)) }</strong>
                        { hint.html(lang) }
                    </li>
                }) }
            </ol>
            if solved || *answer_shown {
                <h3>{ i18n::explanation().html(lang) }</h3>
                <p data-testid="explanation">{ exercise.explanation.html(lang) }</p>
            }
            if let Some(what) = *pending {
                <div class="reveal-confirm" role="group" data-testid="reveal-confirm">
                    <p>{ match what {
                        Reveal::Answer => i18n::confirm_answer(hints_left, total),
                        Reveal::Solution => i18n::confirm_solution(hints_left, total),
                    }.html(lang) }</p>
                    <button type="button" data-testid="confirm-reveal" onclick={confirm}>{ match what {
                        Reveal::Answer => i18n::show_answer(),
                        Reveal::Solution => i18n::show_solution(),
                    }.html(lang) }</button>
                    <button type="button" data-testid="cancel-reveal" onclick={cancel}>{ i18n::keep_trying().html(lang) }</button>
                </div>
            }
            <div class="exercise-actions">
                if *shown_hints < total {
                    <button type="button" data-testid="hint" onclick={more_hint}>{ i18n::hint(*shown_hints + 1, total).html(lang) }</button>
                }
                <button type="button" data-testid="reset" onclick={reset}>{ i18n::reset().html(lang) }</button>
                if !solved && !*answer_shown {
                    <button type="button" class="reveal" data-testid="show-answer" onclick={show_answer}>{ i18n::show_answer().html(lang) }</button>
                }
                if let Some(onclick) = solution {
                    <button type="button" class="reveal" data-testid="solution" {onclick}>{ i18n::show_solution().html(lang) }</button>
                }
            </div>
        </section>
    }
}
