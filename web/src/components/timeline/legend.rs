//! The timeline's legend: the states and markers that occur in this run,
//! each with its colour, pattern or glyph and its name.

use std::rc::Rc;

use podlab_core::explain::timeline::{MarkerKind, State, Timeline};
use podlab_core::i18n::Lang;
use podlab_core::manifest::model::ProbeKind;
use yew::prelude::*;

use crate::i18n::TextHtml;
use crate::{i18n, view_model};

#[derive(Properties)]
pub struct LegendProps {
    pub timeline: Rc<Timeline>,
    pub lang: Lang,
}

impl PartialEq for LegendProps {
    fn eq(&self, other: &Self) -> bool {
        Rc::ptr_eq(&self.timeline, &other.timeline) && self.lang == other.lang
    }
}

#[component]
pub fn Legend(props: &LegendProps) -> Html {
    let lang = props.lang;
    let lanes = || {
        props
            .timeline
            .pods
            .iter()
            .flat_map(|pod| pod.containers.iter())
    };
    let states = State::ALL
        .iter()
        .filter(|state| {
            lanes().any(|lane| lane.segments.iter().any(|s| s.state == **state))
        })
        .map(|&state| {
            let pattern = view_model::state_pattern(state).map(|id| {
                html! { <rect width="100%" height="100%" fill={format!("url(#{id})")} class="pattern" /> }
            });
            html! {
                <li key={state.id()}>
                    <svg width="22" height="14" class={view_model::state_class(state)} aria-hidden="true">
                        <rect width="100%" height="100%" class="fill" />
                        { for pattern }
                    </svg>
                    { i18n::state(state).html(lang) }
                </li>
            }
        });
    let markers = [
        MarkerKind::ProbeFailure(ProbeKind::Liveness),
        MarkerKind::ProbeFailure(ProbeKind::Readiness),
        MarkerKind::ProbeFailure(ProbeKind::Startup),
        MarkerKind::Killing,
        MarkerKind::OOMKilled,
        MarkerKind::Restart(1),
    ]
    .into_iter()
    .filter(|kind| {
        lanes().any(|lane| {
            lane.markers.iter().any(|marker| match (marker.kind, kind) {
                (MarkerKind::Restart(_), MarkerKind::Restart(_)) => true,
                (found, wanted) => found == *wanted,
            })
        })
    })
    .map(|kind| {
        let (glyph, _, class) = view_model::marker_glyph(kind);
        let label = match kind {
            MarkerKind::Restart(_) => i18n::restart_marker(),
            other => i18n::marker(other),
        };
        html! {
            <li key={glyph}>
                <span class={classes!("glyph", class)} aria-hidden="true">{ glyph }</span>
                { label.html(lang) }
            </li>
        }
    });
    let has_limit = lanes().any(|lane| lane.memory_limit.is_some());
    html! {
        <details class="legend" open=true>
            <summary>{ i18n::legend().html(lang) }</summary>
            <ul class="legend-states">{ for states }</ul>
            <ul class="legend-markers">{ for markers }</ul>
            <p class="legend-memory">
                <span class="memory-swatch" aria-hidden="true"></span>{ i18n::memory().html(lang) }
                if has_limit {
                    <span class="limit-swatch" aria-hidden="true"></span>{ i18n::limit_line().html(lang) }
                }
            </p>
        </details>
    }
}
