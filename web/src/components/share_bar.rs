//! Copy-link and Copy-embed-code: the link carries the whole text in its
//! fragment (`crate::persist`), so it works from the static site, offline.
//! The link is also shown in a read-only field, selected, for browsers
//! that refuse the clipboard.

use podlab_core::i18n::Lang;
use podlab_core::share::{ShareError, MAX_FRAGMENT_BYTES};
use web_sys::HtmlInputElement;
use yew::prelude::*;

use crate::i18n;
use crate::i18n::TextHtml;
use crate::persist;

#[derive(Properties, PartialEq)]
pub struct ShareBarProps {
    pub text: std::rc::Rc<str>,
    pub lang: Lang,
    /// The embed's parameters at the moment of the click (tab, cursor,
    /// controls).
    #[prop_or_default]
    pub options: Option<Callback<(), persist::PageOptions>>,
}

#[derive(Clone, PartialEq)]
enum Status {
    Idle,
    Copied,
    ByHand,
    TooLong(usize),
}

#[component]
pub fn ShareBar(props: &ShareBarProps) -> Html {
    let lang = props.lang;
    let shown = use_state(String::new);
    let status = use_state(|| Status::Idle);
    let field = use_node_ref();
    let copy = |embed: bool| {
        let text = props.text.clone();
        let shown = shown.clone();
        let status = status.clone();
        let field = field.clone();
        let options = props.options.clone();
        Callback::from(move |_: MouseEvent| {
            let base = persist::page_base();
            let made = if embed {
                let options = options
                    .as_ref()
                    .map(|options| options.emit(()))
                    .unwrap_or_default();
                persist::embed_code(&base, &text, &options)
            } else {
                // With a line the terminal ran: the link opens on its output.
                match options.as_ref().map(|options| options.emit(())) {
                    Some(persist::PageOptions {
                        at: Some(at),
                        cmd: Some(cmd),
                        ..
                    }) => persist::command_link(&base, &text, at, &cmd),
                    _ => persist::link(&base, &text),
                }
            };
            let value = match made {
                Ok(value) => value,
                Err(ShareError::TooLong { fragment_bytes }) => {
                    status.set(Status::TooLong(fragment_bytes));
                    shown.set(String::new());
                    return;
                }
                Err(_) => return,
            };
            shown.set(value.clone());
            if let Some(input) = field.cast::<HtmlInputElement>() {
                input.set_value(&value);
                input.select();
            }
            let status = status.clone();
            status.set(Status::ByHand);
            let Some(window) = web_sys::window() else {
                return;
            };
            let promise = window.navigator().clipboard().write_text(&value);
            wasm_bindgen_futures::spawn_local(async move {
                match wasm_bindgen_futures::JsFuture::from(promise).await {
                    Ok(_) => status.set(Status::Copied),
                    Err(_) => status.set(Status::ByHand),
                }
            });
        })
    };
    let message = match &*status {
        Status::Idle => String::new(),
        Status::Copied => i18n::copied().get(lang).to_owned(),
        Status::ByHand => i18n::copy_by_hand().get(lang).to_owned(),
        Status::TooLong(bytes) => i18n::too_long_to_share(*bytes, MAX_FRAGMENT_BYTES)
            .get(lang)
            .to_owned(),
    };
    html! {
        <section class="share" aria-label={i18n::share_heading().get(lang).to_owned()}>
            <button type="button" data-testid="share" onclick={copy(false)}>
                { i18n::copy_link().html(lang) }
            </button>
            <button type="button" data-testid="share-embed" onclick={copy(true)}>
                { i18n::copy_embed().html(lang) }
            </button>
            <input
                ref={field}
                data-testid="share-link"
                class="share-link"
                readonly=true
                aria-label={i18n::share_heading().get(lang).to_owned()}
                value={(*shown).clone()}
                hidden={shown.is_empty()}
            />
            <span class="share-status" role="status" aria-live="polite">{ message }</span>
        </section>
    }
}
