//! `?exercises`: every exercise of the library, filterable by tag, with the
//! learner's progress (localStorage: solved, or solved with the solution)
//! and a link to fix it; then the interview cases, each under its own
//! title (what a colleague reports), never beside the exercise's, which
//! names the cause.

use podlab_core::exercise::{Exercise, Tag};
use podlab_core::i18n::Lang;
use yew::prelude::*;

use crate::i18n;
use crate::i18n::TextHtml;
use crate::persist::Solved;

#[derive(Properties, PartialEq)]
pub struct ExerciseIndexProps {
    pub lang: Lang,
    /// The exercises already solved, and how.
    pub progress: crate::persist::Progress,
    /// `None` while the library is being fetched.
    pub exercises: Option<crate::library::Library>,
}

#[component]
pub fn ExerciseIndex(props: &ExerciseIndexProps) -> Html {
    let lang = props.lang;
    let filter = use_state(|| None::<Tag>);
    let Some(exercises) = &props.exercises else {
        return html! {
            <section class="exercise-index" data-testid="exercise-index-loading">
                <p role="status">{ i18n::loading_exercises().html(lang) }</p>
            </section>
        };
    };
    let shown: Vec<&Exercise> = exercises
        .0
        .iter()
        .map(|exercise| exercise.as_ref())
        .filter(|exercise| filter.is_none_or(|tag| exercise.tags.contains(&tag)))
        .collect();
    let button = |tag: Option<Tag>| {
        let filter_state = filter.clone();
        let pressed = *filter == tag;
        let label = tag.map_or_else(i18n::all_tags, Tag::label);
        let testid = format!("filter-{}", tag.map_or("all", Tag::as_str));
        html! {
            <button type="button" data-testid={testid} aria-pressed={pressed.to_string()}
                onclick={Callback::from(move |_: MouseEvent| filter_state.set(tag))}>
                { label.html(lang) }
            </button>
        }
    };
    html! {
        <section class="exercise-index" data-testid="exercise-index">
            <nav class="exercise-nav"><a href={format!("?lang={}", lang.code())}>{ i18n::playground().html(lang) }</a></nav>
            <h2>{ i18n::exercises().html(lang) }</h2>
            <p>{ i18n::exercises_intro().html(lang) }{ " " }<a href="#interviews">{ format!("{} ↓", i18n::interview_mode().get(lang)) }</a></p>
            <div class="filters" role="group">
                { button(None) }
                { for Tag::ALL.iter().map(|tag| button(Some(*tag))) }
            </div>
            <ul class="exercise-list">
                { for shown.iter().map(|exercise| {
                    let how = props.progress.get(&exercise.id);
                    let solved = how.is_some();
                    let tags: Vec<String> = exercise.tags.iter().map(|t| t.label().get(lang).to_owned()).collect();
                    html! {
                        <li data-testid={format!("exercise-{}", exercise.id)} class={classes!(solved.then_some("solved"))}>
                            <a class="exercise-title" href={format!("?exercise={}&lang={}", exercise.id, lang.code())}>{ exercise.title.html(lang) }</a>
                            if let Some(how) = how {
                                <span class={classes!("badge", "solved-badge", (how == Solved::WithSolution).then_some("with-solution"))}
                                    data-testid={format!("progress-{}", exercise.id)} data-solved={match how {
                                        Solved::ByLearner => "solved",
                                        Solved::WithSolution => "solution",
                                    }}>
                                    { match how {
                                        Solved::ByLearner => format!("✓ {}", i18n::solved_mark().get(lang)),
                                        Solved::WithSolution => format!("◐ {}", i18n::solved_mark_with_solution().get(lang)),
                                    } }
                                </span>
                            }
                            <span class="tags">{ tags.join(" · ") }</span>
                            <p>{ exercise.story.html(lang) }</p>
                            <a href={format!("?exercise={}&lang={}", exercise.id, lang.code())}>{ i18n::practice().html(lang) }</a>
                        </li>
                    }
                }) }
            </ul>
            <h3 id="interviews">{ i18n::interview_mode().html(lang) }</h3>
            <p>{ i18n::interview_cases_intro().html(lang) }</p>
            <ul class="interview-list" data-testid="interview-list">
                { for exercises.0.iter().filter_map(|exercise| Some((exercise.id.as_str(), exercise.interview.as_ref()?))).map(|(id, interview)| html! {
                    <li>
                        <a data-testid={format!("interview-{id}")} href={format!("?interview={}&lang={}", podlab_core::exercise::interview::interview_key(id), lang.code())}>{ interview.title.html(lang) }</a>
                    </li>
                }) }
            </ul>
        </section>
    }
}
