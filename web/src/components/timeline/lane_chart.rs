//! One pod's lanes (one per container): marker rows, the state bar with a
//! label and a pattern on each segment (so no state is told by colour
//! alone), and the memory curve against the memory limit.
//!
//! Depends only on the timeline, the pod and the language: playing does not
//! re-render it.

use std::rc::Rc;

use podlab_core::explain::timeline::{ContainerLane, Timeline};
use podlab_core::i18n::Lang;
use podlab_core::manifest::duration::Millis;
use yew::prelude::*;

use crate::i18n;
use crate::view_model::{self, MEMORY_BOX};

/// The rows of one container's chart, in px from its top.
const MARKER_ROWS: [u32; 3] = [10, 22, 34];
const BAR_Y: u32 = 40;
const BAR_HEIGHT: u32 = 24;
/// The memory label's baseline, between the bar and the curve.
const MEMORY_LABEL_Y: u32 = 77;
const MEMORY_Y: u32 = 81;
const MEMORY_HEIGHT: u32 = 34;
pub(crate) const CHART_HEIGHT: u32 = MEMORY_Y + MEMORY_HEIGHT + 2;

#[derive(Properties)]
pub struct LaneChartProps {
    pub timeline: Rc<Timeline>,
    /// An index into `timeline.pods`.
    pub pod: usize,
    pub lang: Lang,
}

impl PartialEq for LaneChartProps {
    fn eq(&self, other: &Self) -> bool {
        Rc::ptr_eq(&self.timeline, &other.timeline)
            && self.pod == other.pod
            && self.lang == other.lang
    }
}

#[component]
pub fn LaneChart(props: &LaneChartProps) -> Html {
    let Some(pod) = props.timeline.pods.get(props.pod) else {
        return Html::default();
    };
    let end = props.timeline.end;
    let several = pod.containers.len() > 1;
    pod.containers
        .iter()
        .map(|lane| {
            html! {
                <div class="lane" key={lane.name.clone()}>
                    if several {
                        <span class="container-name">{ lane.name.clone() }</span>
                    }
                    { container_chart(lane, end, props.lang) }
                </div>
            }
        })
        .collect::<Html>()
}

fn container_chart(lane: &ContainerLane, end: Millis, lang: Lang) -> Html {
    let segments = lane.segments.iter().map(|segment| {
        let x = view_model::percent_attr(segment.from, end);
        let width = view_model::width_attr(segment.from, segment.to, end);
        let label = i18n::state(segment.state).get(lang).to_owned();
        let pattern = view_model::state_pattern(segment.state).map(|id| {
            html! { <rect width="100%" height="100%" fill={format!("url(#{id})")} class="pattern" /> }
        });
        html! {
            <svg
                key={segment.from.to_string()}
                x={x}
                y={BAR_Y.to_string()}
                width={width}
                height={BAR_HEIGHT.to_string()}
                class={view_model::state_class(segment.state)}
                data-state={segment.state.id()}
            >
                <title>{ view_model::segment_title(segment, lang) }</title>
                <rect width="100%" height="100%" class="fill" />
                { for pattern }
                <text x="4" y="16" class="segment-label">{ label }</text>
            </svg>
        }
    });
    let markers = lane.markers.iter().enumerate().map(|(index, marker)| {
        let (glyph, row, class) = view_model::marker_glyph(marker.kind);
        let y = MARKER_ROWS
            .get(row as usize)
            .copied()
            .unwrap_or(MARKER_ROWS[0]);
        html! {
            <text
                key={index}
                x={view_model::percent_attr(marker.at, end)}
                y={y.to_string()}
                text-anchor="middle"
                class={class}
            >
                <title>{ view_model::marker_title(marker, lang) }</title>
                { glyph }
            </text>
        }
    });
    let scale = view_model::memory_scale(lane);
    let polyline = view_model::memory_polyline(&lane.memory, end, scale);
    let limit = lane.memory_limit.map(|limit| {
        let y = view_model::memory_y(limit, scale);
        html! {
            <line x1="0" x2={MEMORY_BOX.0.to_string()} y1={y.clone()} y2={y} class="memory-limit" vector-effect="non-scaling-stroke" />
        }
    });
    let memory_label = format!(
        "{} · {}",
        i18n::memory().get(lang),
        view_model::memory_limit_label(lane, lang)
    );
    html! {
        <svg class="lane-chart" width="100%" height={CHART_HEIGHT.to_string()} role="img" aria-label={lane_summary(lane, lang)}>
            { for markers }
            { for segments }
            <svg
                x="0"
                y={MEMORY_Y.to_string()}
                width="100%"
                height={MEMORY_HEIGHT.to_string()}
                viewBox={format!("0 0 {} {}", MEMORY_BOX.0, MEMORY_BOX.1)}
                preserveAspectRatio="none"
                class="memory"
            >
                <rect width={MEMORY_BOX.0.to_string()} height={MEMORY_BOX.1.to_string()} class="memory-bg" />
                { for limit }
                <polyline points={polyline} class="memory-curve" vector-effect="non-scaling-stroke" />
            </svg>
            <text x="0" y={MEMORY_LABEL_Y.to_string()} class="memory-label">{ memory_label }</text>
        </svg>
    }
}

/// What a screen reader hears for a lane: its states in order.
fn lane_summary(lane: &ContainerLane, lang: Lang) -> String {
    let states: Vec<String> = lane
        .segments
        .iter()
        .map(|segment| view_model::segment_title(segment, lang))
        .collect();
    format!("{}: {}", lane.name, states.join(", "))
}
