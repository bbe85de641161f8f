//! The language switch: one button naming the other language.

use podlab_core::i18n::Lang;
use yew::prelude::*;

use crate::i18n;

#[derive(Properties, PartialEq)]
pub struct LangToggleProps {
    pub lang: Lang,
    pub on_change: Callback<Lang>,
}

#[component]
pub fn LangToggle(props: &LangToggleProps) -> Html {
    let next = match props.lang {
        Lang::En => Lang::ZhTw,
        Lang::ZhTw => Lang::En,
    };
    let onclick = props.on_change.reform(move |_: MouseEvent| next);
    html! {
        <button
            type="button"
            class="lang"
            data-testid="lang"
            lang={next.code()}
            title={i18n::language().get(props.lang).to_owned()}
            {onclick}
        >
            { i18n::switch_language(props.lang).get(props.lang).to_owned() }
        </button>
    }
}
