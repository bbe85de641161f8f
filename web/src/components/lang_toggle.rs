//! The language switch: one button naming the other language; and the
//! page's language at start (`browser_lang`) and on `<html lang>` and the
//! window title (`set_document_language`), shared by the playground and
//! "From my cluster".

use podlab_core::i18n::Lang;
use yew::prelude::*;

use crate::{i18n, view_model};

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

/// The language from `?lang=`, else the browser's, else English.
pub fn browser_lang() -> Lang {
    let Some(window) = web_sys::window() else {
        return Lang::default();
    };
    let query = window.location().search().unwrap_or_default();
    let navigator_language = window.navigator().language();
    view_model::initial_lang(&query, navigator_language.as_deref())
}

/// Keeps `<html lang>` and the window title in the chosen language, so
/// screen readers and fonts pick the right script.
pub fn set_document_language(lang: Lang) {
    let Some(document) = web_sys::window().and_then(|window| window.document()) else {
        return;
    };
    if let Some(root) = document.document_element() {
        let _ = root.set_attribute("lang", lang.code());
    }
    document.set_title(i18n::title().get(lang));
}
