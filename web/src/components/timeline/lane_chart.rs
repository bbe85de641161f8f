//! One pod's lanes (one per container): marker rows, the state bar with a
//! label and a pattern on each segment (so no state is told by colour
//! alone), and the memory curve against the memory limit.
//!
//! Each container's chart is the markup `podlab_core::picture::draw`
//! writes, set as it is (one string instead of a virtual node per segment
//! and marker: quicker to redraw after a slider, and the same markup the
//! picture of an embed shows before the engine loads).
//!
//! Depends only on the timeline, the pod and the language: playing does not
//! re-render it.

use std::rc::Rc;

use podlab_core::explain::timeline::Timeline;
use podlab_core::i18n::Lang;
use podlab_core::picture::draw;
use yew::prelude::*;

pub(crate) const CHART_HEIGHT: u32 = draw::CHART_HEIGHT;

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
            let chart = draw::lane_chart(lane, end, props.lang, true);
            html! {
                <div class="lane" key={lane.name.clone()}>
                    if several {
                        <span class="container-name">{ lane.name.clone() }</span>
                    }
                    { Html::from_html_unchecked(AttrValue::from(chart)) }
                </div>
            }
        })
        .collect::<Html>()
}
