//! The timeline's legend: the states and markers that occur in this run,
//! each with its colour, pattern or glyph and its name
//! (`podlab_core::picture::legend`, the markup the picture shows too).

use std::rc::Rc;

use podlab_core::explain::timeline::Timeline;
use podlab_core::i18n::Lang;
use yew::prelude::*;

#[derive(Properties)]
pub struct LegendProps {
    pub timeline: Rc<Timeline>,
    pub lang: Lang,
    /// Folded (an embed: one tap away) rather than open.
    #[prop_or_default]
    pub folded: bool,
}

impl PartialEq for LegendProps {
    fn eq(&self, other: &Self) -> bool {
        Rc::ptr_eq(&self.timeline, &other.timeline)
            && self.lang == other.lang
            && self.folded == other.folded
    }
}

#[component]
pub fn Legend(props: &LegendProps) -> Html {
    let markup = podlab_core::picture::legend(&props.timeline, props.lang, !props.folded);
    Html::from_html_unchecked(AttrValue::from(markup))
}
