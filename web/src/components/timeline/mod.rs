//! The timeline: one lane per pod (creation order) with the kubectl STATUS
//! at the cursor beside its name, a time axis, and the cursor line.
//!
//! The lanes themselves (`LaneChart`) depend only on the run and the
//! language, so playing re-renders the status texts and the cursor, not the
//! segments. Positions are percentages of the width, so the SVG never
//! scales its text and fits any width from 360 px up.
//!
//! Past `WINDOWED_FROM` pods (a CronJob over a day makes one per run) the
//! list scrolls inside its own box and only the lanes in view (plus a few)
//! are drawn, each at a height fixed by its number of containers, so the
//! page stays quick with thousands of pods.

mod lane_chart;
mod legend;
mod replicas_band;
mod traffic_band;

pub use self::lane_chart::LaneChart;
pub use self::legend::Legend;
pub use self::replicas_band::ReplicasBand;
pub use self::traffic_band::TrafficBand;

use std::rc::Rc;

use web_sys::Element;

use podlab_core::explain::timeline::Timeline as TimelineData;
use podlab_core::i18n::Lang;
use podlab_core::manifest::duration::Millis;
use yew::prelude::*;

use self::lane_chart::CHART_HEIGHT;
use crate::i18n::TextHtml;
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
    /// The Scenario's traffic, drawn above the lanes (`TrafficBand`).
    #[prop_or_default]
    pub traffic: Option<Rc<podlab_core::explain::traffic::Chart>>,
    /// An autoscaled workload's replicas, drawn above the traffic
    /// (`ReplicasBand`).
    #[prop_or_default]
    pub replicas: Option<Rc<podlab_core::explain::replicas::ReplicasChart>>,
    /// The legend starts folded (an embed).
    #[prop_or_default]
    pub fold_legend: bool,
    /// The requests and the HPA's replay are still being computed
    /// (`Linted::pending`: requests, an HPA): the bands are the previous
    /// run's, and a note says so.
    #[prop_or_default]
    pub updating: Option<(bool, bool)>,
}

impl PartialEq for TimelineProps {
    fn eq(&self, other: &Self) -> bool {
        Rc::ptr_eq(&self.timeline, &other.timeline)
            && self.cursor == other.cursor
            && self.statuses == other.statuses
            && self.selected == other.selected
            && self.lang == other.lang
            && self.on_select == other.on_select
            && self.fold_legend == other.fold_legend
            && self.updating == other.updating
            && match (&self.traffic, &other.traffic) {
                (Some(a), Some(b)) => Rc::ptr_eq(a, b),
                (a, b) => a.is_none() && b.is_none(),
            }
            && match (&self.replicas, &other.replicas) {
                (Some(a), Some(b)) => Rc::ptr_eq(a, b),
                (a, b) => a.is_none() && b.is_none(),
            }
    }
}

/// From this many pods on, only the lanes in view are drawn.
pub const WINDOWED_FROM: usize = 40;
/// Heights in px of a windowed lane (the CSS of `.pods.windowed` fixes the
/// head to one line): the head, a container's name line (several
/// containers only), the padding.
const HEAD_PX: u32 = 28;
const NAME_PX: u32 = 18;
const PAD_PX: u32 = 8;
/// The scrolling box's `max-height` (or 75% of the viewport, if less),
/// assumed until a scroll event measures it.
const VIEW_PX: u32 = 600;
/// Lanes drawn beyond each edge of the view.
const OVERSCAN: usize = 3;

/// Each windowed lane's top, and the total height last.
fn lane_offsets(timeline: &TimelineData) -> Vec<u32> {
    let mut offsets = Vec::with_capacity(timeline.pods.len() + 1);
    let mut top = 0u32;
    for pod in &timeline.pods {
        offsets.push(top);
        let containers = pod.containers.len().max(1) as u32;
        let name = if containers > 1 { NAME_PX } else { 0 };
        top = top.saturating_add(HEAD_PX + PAD_PX + containers * (CHART_HEIGHT + name));
    }
    offsets.push(top);
    offsets
}

/// The lanes overlapping `[scroll, scroll + view)`, with `OVERSCAN` more
/// on each side; `offsets` as `lane_offsets` gives them.
pub fn visible_lanes(offsets: &[u32], scroll: u32, view: u32) -> std::ops::Range<usize> {
    let lanes = offsets.len().saturating_sub(1);
    let first = offsets[..lanes]
        .partition_point(|top| *top <= scroll)
        .saturating_sub(1);
    let last = offsets[..lanes].partition_point(|top| *top < scroll.saturating_add(view));
    first.saturating_sub(OVERSCAN)..(last + OVERSCAN).min(lanes)
}

/// Compares the timeline by address: a new run is a new `Rc`.
struct SameTimeline(Rc<TimelineData>);

impl PartialEq for SameTimeline {
    fn eq(&self, other: &Self) -> bool {
        Rc::ptr_eq(&self.0, &other.0)
    }
}

#[component]
pub fn Timeline(props: &TimelineProps) -> Html {
    let lang = props.lang;
    let timeline = &props.timeline;
    let end = timeline.end;
    let windowed = timeline.pods.len() >= WINDOWED_FROM;
    let offsets = use_memo(SameTimeline(timeline.clone()), |t| lane_offsets(&t.0));
    // The list's scroll position and height, read on scroll.
    let view = use_state_eq(|| (0u32, VIEW_PX));
    let list_ref = use_node_ref();
    let onscroll = {
        let view = view.clone();
        Callback::from(move |event: Event| {
            let list: Element = event.target_unchecked_into();
            let height = u32::try_from(list.client_height()).unwrap_or(VIEW_PX);
            view.set((u32::try_from(list.scroll_top()).unwrap_or(0), height.max(1)));
        })
    };
    // A pod chosen elsewhere (the panes' list) is scrolled into view.
    {
        let list_ref = list_ref.clone();
        let offsets = offsets.clone();
        let view = view.clone();
        use_effect_with((props.selected, windowed), move |&(selected, windowed)| {
            let (Some(list), true) = (list_ref.cast::<Element>(), windowed) else {
                return;
            };
            let (Some(&top), Some(&bottom)) = (offsets.get(selected), offsets.get(selected + 1))
            else {
                return;
            };
            let (scroll, height) = *view;
            if top < scroll || bottom > scroll + height {
                list.set_scroll_top(i32::try_from(top).unwrap_or(i32::MAX));
            }
        });
    }
    let range = if windowed {
        visible_lanes(&offsets, view.0, view.1)
    } else {
        0..timeline.pods.len()
    };
    let lane_style = |index: usize| {
        windowed.then(|| {
            let height = offsets[index + 1] - offsets[index];
            format!("height: {height}px")
        })
    };
    let spacer = |height: u32| {
        (windowed && height > 0).then(|| {
            html! { <li class="spacer" aria-hidden="true" style={format!("height: {height}px")}></li> }
        })
    };
    let above = spacer(offsets[range.start]);
    let below = spacer(offsets[timeline.pods.len()] - offsets[range.end]);
    let lanes = timeline.pods[range.clone()].iter().zip(range).map(|(pod, index)| {
        let selected = index == props.selected;
        let onclick = props.on_select.reform(move |_: MouseEvent| index);
        let status = props.statuses.get(index).cloned().unwrap_or_default();
        html! {
            <li
                key={pod.name.clone()}
                class={classes!("pod", selected.then_some("selected"))}
                style={lane_style(index)}
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
    let cursor_left = view_model::percent_attr(props.cursor, end);

    html! {
        <div class="timeline" data-testid="timeline" role="group" aria-label={i18n::timeline_label().get(lang).to_owned()}>
            { Html::from_html_unchecked(AttrValue::from(podlab_core::picture::draw::PATTERN_DEFS)) }
            if timeline.pods.is_empty() {
                <p class="empty">{ i18n::no_pods().html(lang) }</p>
            } else {
                <div class="lanes">
                    if let Some((traffic, autoscaled)) = props.updating {
                        <p class="bands-updating" data-testid="bands-updating" role="status">
                            { i18n::bands_updating(traffic, autoscaled).html(lang) }
                        </p>
                    }
                    if let Some(chart) = &props.replicas {
                        <ReplicasBand chart={chart.clone()} {lang} updating={props.updating.is_some()} />
                    }
                    if let Some(chart) = &props.traffic {
                        <TrafficBand chart={chart.clone()} {lang} updating={props.updating.is_some()} />
                    }
                    // The box's height is part of the windowing, so it is
                    // set here, not left to the style sheet.
                    <ul class={classes!("pods", windowed.then_some("windowed"))} ref={list_ref} {onscroll}
                        tabindex={windowed.then_some("0")}
                        style={windowed.then(|| format!("max-height: min({VIEW_PX}px, 75vh); overflow-y: auto"))}
                        aria-label={windowed.then(|| i18n::pod_count(timeline.pods.len()).get(lang).to_owned())}>
                        { for above }{ for lanes }{ for below }
                    </ul>
                    { Html::from_html_unchecked(AttrValue::from(podlab_core::picture::axis(end))) }
                    <div class="cursor" style={format!("left: {cursor_left}")} aria-hidden="true"></div>
                </div>
                <Legend timeline={timeline.clone()} {lang} folded={props.fold_legend} />
            }
        </div>
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_the_lanes_in_view_and_a_few_more_are_drawn() {
        // 100 lanes of 100 px.
        let offsets: Vec<u32> = (0..=100).map(|lane| lane * 100).collect();
        assert_eq!(visible_lanes(&offsets, 0, 600), 0..9);
        assert_eq!(visible_lanes(&offsets, 1_050, 600), 7..20);
        assert_eq!(visible_lanes(&offsets, 9_400, 600), 91..100);
        assert_eq!(visible_lanes(&offsets, 20_000, 600), 96..100);
        assert_eq!(visible_lanes(&[0], 0, 600), 0..0);
    }
}
