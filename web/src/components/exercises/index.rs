//! `?exercises`: every exercise of the library, filterable by tag, with the
//! learner's progress (localStorage) and links to fix it or interview it.

use podlab_core::exercise::{Exercise, Tag};
use podlab_core::i18n::Lang;
use yew::prelude::*;

use crate::i18n;
use crate::i18n::TextHtml;

#[derive(Properties, PartialEq)]
pub struct ExerciseIndexProps {
    pub lang: Lang,
    /// Ids of the exercises already solved.
    pub solved: Vec<String>,
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
            <p>{ i18n::exercises_intro().html(lang) }</p>
            <div class="filters" role="group">
                { button(None) }
                { for Tag::ALL.iter().map(|tag| button(Some(*tag))) }
            </div>
            <ul class="exercise-list">
                { for shown.iter().map(|exercise| {
                    let solved = props.solved.contains(&exercise.id);
                    let tags: Vec<String> = exercise.tags.iter().map(|t| t.label().get(lang).to_owned()).collect();
                    html! {
                        <li data-testid={format!("exercise-{}", exercise.id)} class={classes!(solved.then_some("solved"))}>
                            <a class="exercise-title" href={format!("?exercise={}&lang={}", exercise.id, lang.code())}>{ exercise.title.html(lang) }</a>
                            if solved {
                                <span class="badge solved-badge">{ format!("✓ {}", i18n::solved_mark().get(lang)) }</span>
                            }
                            <span class="tags">{ tags.join(" · ") }</span>
                            <p>{ exercise.story.html(lang) }</p>
                            <a href={format!("?exercise={}&lang={}", exercise.id, lang.code())}>{ i18n::practice().html(lang) }</a>
                            if exercise.interview.is_some() {
                                { " · " }
                                <a href={format!("?exercise={}&mode=interview&lang={}", exercise.id, lang.code())}>{ i18n::interview_mode().html(lang) }</a>
                            }
                        </li>
                    }
                }) }
            </ul>
        </section>
    }
}
