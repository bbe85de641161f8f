//! The replicas band above the traffic band (issue 16 item 5): for the
//! workload a HorizontalPodAutoscaler scales, `spec.replicas` (what each
//! decision writes), the Pods counted and the Ready ones over time, and the
//! HPA's decisions as marks whose titles give their time and reason. Drawn
//! on the traffic band's time axis, so a burst, the decision at the next
//! sync, each new pod's cold start and the P99 peak line up under the
//! cursor. Depends only on the run's chart and the language.

use std::rc::Rc;

use podlab_core::explain::replicas::ReplicasChart;
use podlab_core::i18n::Lang;
use yew::prelude::*;

use crate::i18n;
use crate::i18n::TextHtml;
use crate::view_model::{self, SameRc, REPLICAS_BOX};

#[derive(Properties)]
pub struct ReplicasBandProps {
    pub chart: Rc<ReplicasChart>,
    pub lang: Lang,
    /// The previous run's chart, shown while the new one is computed (as
    /// `TrafficBandProps::updating`).
    #[prop_or_default]
    pub updating: bool,
}

impl PartialEq for ReplicasBandProps {
    fn eq(&self, other: &Self) -> bool {
        Rc::ptr_eq(&self.chart, &other.chart)
            && self.lang == other.lang
            && self.updating == other.updating
    }
}

#[component]
pub fn ReplicasBand(props: &ReplicasBandProps) -> Html {
    let lang = props.lang;
    let chart = &props.chart;
    // Once per chart: marking the band as updating (issue 28 item 4)
    // re-renders it with the same chart.
    let paths = use_memo(SameRc(chart.clone()), |chart| {
        view_model::replicas_paths(&chart.0)
    });
    let marks = chart.decisions.iter().zip(&paths.decisions).map(|(decision, (x, at))| {
        html! {
            <rect x={x.clone()} y="0" width="5" height={REPLICAS_BOX.1.to_string()} class="replicas-decision">
                <title>{ i18n::replicas_decision_title(at, decision).html(lang) }</title>
            </rect>
        }
    });
    let list: Vec<String> = chart
        .decisions
        .iter()
        .zip(&paths.decisions)
        .map(|(d, (_, at))| format!("{at} {}→{}", d.from, d.to))
        .collect();
    // For tests and for readers of the DOM: each decision as `seconds:from:to`.
    let data: Vec<String> = chart
        .decisions
        .iter()
        .map(|d| format!("{}:{}:{}", d.at / 1000, d.from, d.to))
        .collect();
    html! {
        <div class={classes!("replicas", props.updating.then_some("updating"))} data-testid="replicas-band"
            data-decisions={(!props.updating).then(|| data.join(","))} aria-busy={props.updating.then_some("true")}>
            <p class="replicas-heading">{ i18n::replicas_heading(chart).html(lang) }</p>
            <svg
                class="replicas-chart"
                width="100%"
                height="40"
                viewBox={format!("0 0 {} {}", REPLICAS_BOX.0, REPLICAS_BOX.1)}
                preserveAspectRatio="none"
                role="img"
                aria-label={i18n::replicas_summary(chart.decisions.len(), &list.join(", ")).get(lang).to_owned()}
            >
                <rect width={REPLICAS_BOX.0.to_string()} height={REPLICAS_BOX.1.to_string()} class="traffic-bg" />
                <polygon points={paths.ready.clone()} class="replicas-ready" />
                <polyline points={paths.current.clone()} class="replicas-current" vector-effect="non-scaling-stroke" />
                <polyline points={paths.desired.clone()} class="replicas-desired" vector-effect="non-scaling-stroke" />
                { for marks }
            </svg>
            <p class="traffic-key" aria-hidden="true">
                <span class="key-desired">{ i18n::replicas_desired().html(lang) }</span>
                <span class="key-current">{ i18n::replicas_current().html(lang) }</span>
                <span class="key-ready">{ i18n::replicas_ready().html(lang) }</span>
                <span class="key-decision">{ i18n::replicas_decision().html(lang) }</span>
            </p>
        </div>
    }
}
