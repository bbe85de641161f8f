//! The traffic band above the pods' lanes (issue 15): the rate sent
//! against the capacity of the Ready replicas kube-proxy routes to, the
//! P50 and P99 latencies on a log scale with the target line, and the
//! failed requests as marks coloured (and named in their titles) by cause.
//! Depends only on the run's chart and the language: playing does not
//! re-render it; the cursor line of the timeline crosses it.

use std::rc::Rc;

use podlab_core::explain::traffic::Chart;
use podlab_core::i18n::Lang;
use yew::prelude::*;

use crate::i18n;
use crate::i18n::TextHtml;
use crate::view_model::{self, SameRc, TRAFFIC_BOX};

#[derive(Properties)]
pub struct TrafficBandProps {
    pub chart: Rc<Chart>,
    pub lang: Lang,
    /// The chart is the previous run's, shown while the new one is
    /// computed (issue 28 item 4): dimmed, busy, without its data
    /// attributes (nothing may read it as the current run's).
    #[prop_or_default]
    pub updating: bool,
}

impl PartialEq for TrafficBandProps {
    fn eq(&self, other: &Self) -> bool {
        Rc::ptr_eq(&self.chart, &other.chart)
            && self.lang == other.lang
            && self.updating == other.updating
    }
}

#[component]
pub fn TrafficBand(props: &TrafficBandProps) -> Html {
    let lang = props.lang;
    let chart = &props.chart;
    // Once per chart: marking the band as updating (issue 28 item 4)
    // re-renders it with the same chart.
    let paths = use_memo(SameRc(chart.clone()), |chart| {
        view_model::traffic_paths(&chart.0)
    });
    let marks = paths.failures.iter().map(|(x, width, cause, count)| {
        html! {
            <rect x={x.clone()} y="46" width={width.clone()} height="6" class={classes!("fail", view_model::failure_class(*cause))}>
                <title>{ i18n::failed_requests(*count, *cause).html(lang) }</title>
            </rect>
        }
    });
    let line = |points: &String, class: &'static str| {
        html! { <polyline points={points.clone()} class={class} vector-effect="non-scaling-stroke" /> }
    };
    let over = (!props.updating).then_some(if chart.over_target() { "true" } else { "false" });
    html! {
        <div class={classes!("traffic", props.updating.then_some("updating"))} data-testid="traffic-band"
            data-over-target={over} aria-busy={props.updating.then_some("true")}>
            <svg
                class="traffic-chart"
                width="100%"
                height="64"
                viewBox={format!("0 0 {} {}", TRAFFIC_BOX.0, TRAFFIC_BOX.1)}
                preserveAspectRatio="none"
                role="img"
                aria-label={i18n::traffic_summary(chart).get(lang).to_owned()}
            >
                <rect width={TRAFFIC_BOX.0.to_string()} height="46" class="traffic-bg" />
                <rect y="52" width={TRAFFIC_BOX.0.to_string()} height="48" class="traffic-bg" />
                <polygon points={paths.rate.clone()} class="traffic-rate" />
                { line(&paths.capacity, "traffic-capacity") }
                <line x1="0" x2={TRAFFIC_BOX.0.to_string()} y1={paths.target_y.clone()} y2={paths.target_y.clone()} class="traffic-target" vector-effect="non-scaling-stroke" />
                { for paths.p50.iter().map(|points| line(points, "traffic-p50")) }
                { for paths.p99.iter().map(|points| line(points, "traffic-p99")) }
                { for marks }
            </svg>
            <p class="traffic-key" aria-hidden="true">
                <span class="key-rate">{ i18n::traffic_rate().html(lang) }</span>
                <span class="key-capacity">{ i18n::traffic_capacity().html(lang) }</span>
                <span class="key-p50">{ "P50" }</span>
                <span class="key-p99">{ "P99" }</span>
                <span class="key-target">{ i18n::traffic_target(chart.target).html(lang) }</span>
                <span class="key-fail">{ i18n::traffic_failed().html(lang) }</span>
            </p>
        </div>
    }
}
