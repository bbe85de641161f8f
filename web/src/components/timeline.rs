//! The timeline: one lane per pod (creation order) with the kubectl STATUS
//! at the cursor beside its name, a time axis, and the cursor line.
//!
//! The lanes themselves (`LaneChart`) depend only on the run and the
//! language, so playing re-renders the status texts and the cursor, not the
//! segments. Positions are percentages of the width, so the SVG never
//! scales its text and fits any width from 360 px up.

use std::rc::Rc;

use podlab_core::explain::timeline::{nice_ticks, Timeline as TimelineData};
use podlab_core::i18n::Lang;
use podlab_core::manifest::duration::Millis;
use yew::prelude::*;

use super::{LaneChart, Legend};
use crate::{i18n, view_model};

#[derive(Properties)]
pub struct TimelineProps {
    pub timeline: Rc<TimelineData>,
    pub cursor: Millis,
    /// The STATUS column per pod at the cursor (`view_model::pod_statuses`).
    pub statuses: Rc<Vec<String>>,
    pub selected: usize,
    pub lang: Lang,
    pub on_select: Callback<usize>,
}

impl PartialEq for TimelineProps {
    fn eq(&self, other: &Self) -> bool {
        Rc::ptr_eq(&self.timeline, &other.timeline)
            && self.cursor == other.cursor
            && self.statuses == other.statuses
            && self.selected == other.selected
            && self.lang == other.lang
            && self.on_select == other.on_select
    }
}

#[component]
pub fn Timeline(props: &TimelineProps) -> Html {
    let lang = props.lang;
    let timeline = &props.timeline;
    let end = timeline.end;
    let lanes = timeline.pods.iter().enumerate().map(|(index, pod)| {
        let selected = index == props.selected;
        let onclick = props.on_select.reform(move |_: MouseEvent| index);
        let status = props.statuses.get(index).cloned().unwrap_or_default();
        html! {
            <li
                key={pod.name.clone()}
                class={classes!("pod", selected.then_some("selected"))}
                {onclick}
            >
                <div class="pod-head">
                    <button
                        type="button"
                        class="pod-name"
                        aria-pressed={if selected { "true" } else { "false" }}
                        title={i18n::select_pod(&pod.name).get(lang).to_owned()}
                    >
                        { pod.name.clone() }
                    </button>
                    <span class="pod-status" data-testid={format!("pod-status-{index}")}>{ status }</span>
                </div>
                <LaneChart timeline={timeline.clone()} pod={index} {lang} />
            </li>
        }
    });
    let ticks = nice_ticks(end);
    let last = ticks.len().saturating_sub(1);
    let axis = ticks.iter().enumerate().map(|(index, tick)| {
        let x = view_model::percent_attr(tick.at, end);
        let anchor = if index == 0 {
            "start"
        } else if index == last && tick.at == end {
            "end"
        } else {
            "middle"
        };
        html! {
            <g key={tick.at.to_string()}>
                <line x1={x.clone()} x2={x.clone()} y1="0" y2="5" class="tick" />
                <text x={x} y="17" text-anchor={anchor} class="tick-label">{ tick.label.clone() }</text>
            </g>
        }
    });
    let cursor_left = view_model::percent_attr(props.cursor, end);

    html! {
        <div class="timeline" data-testid="timeline" role="group" aria-label={i18n::timeline_label().get(lang).to_owned()}>
            <svg class="pattern-defs" width="0" height="0" aria-hidden="true" focusable="false">
                <defs>
                    <pattern id="pl-stripes" width="8" height="8" patternUnits="userSpaceOnUse" patternTransform="rotate(45)">
                        <rect width="3" height="8" class="pattern-ink" />
                    </pattern>
                    <pattern id="pl-back-stripes" width="8" height="8" patternUnits="userSpaceOnUse" patternTransform="rotate(-45)">
                        <rect width="2" height="8" class="pattern-ink" />
                    </pattern>
                    <pattern id="pl-thin" width="10" height="10" patternUnits="userSpaceOnUse" patternTransform="rotate(45)">
                        <rect width="1" height="10" class="pattern-ink" />
                    </pattern>
                    <pattern id="pl-cross" width="8" height="8" patternUnits="userSpaceOnUse">
                        <path d="M0,0 L8,8 M8,0 L0,8" class="pattern-line" />
                    </pattern>
                    <pattern id="pl-dots" width="6" height="6" patternUnits="userSpaceOnUse">
                        <circle cx="3" cy="3" r="1.2" class="pattern-ink" />
                    </pattern>
                </defs>
            </svg>
            if timeline.pods.is_empty() {
                <p class="empty">{ i18n::no_pods().get(lang).to_owned() }</p>
            } else {
                <div class="lanes">
                    <ul class="pods">{ for lanes }</ul>
                    <svg class="axis" width="100%" height="20" aria-hidden="true">{ for axis }</svg>
                    <div class="cursor" style={format!("left: {cursor_left}")} aria-hidden="true"></div>
                </div>
                <Legend timeline={timeline.clone()} {lang} />
            }
        </div>
    }
}
