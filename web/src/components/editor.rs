//! The YAML editor: a plain monospace textarea, controlled by the app state.

use std::rc::Rc;

use web_sys::HtmlTextAreaElement;
use yew::prelude::*;

#[derive(Properties)]
pub struct EditorProps {
    pub text: Rc<str>,
    pub label: AttrValue,
    pub on_input: Callback<Rc<str>>,
    /// The textarea, for selecting a diagnostic's span.
    pub node_ref: NodeRef,
}

impl PartialEq for EditorProps {
    fn eq(&self, other: &Self) -> bool {
        // The text can be large: compare by pointer, not by content.
        Rc::ptr_eq(&self.text, &other.text)
            && self.label == other.label
            && self.on_input == other.on_input
            && self.node_ref == other.node_ref
    }
}

#[component]
pub fn Editor(props: &EditorProps) -> Html {
    let oninput = {
        let on_input = props.on_input.clone();
        Callback::from(move |event: InputEvent| {
            let textarea: HtmlTextAreaElement = event.target_unchecked_into();
            on_input.emit(textarea.value().into());
        })
    };
    html! {
        <section class="editor">
            <label for="editor">{ props.label.clone() }</label>
            <textarea
                id="editor"
                ref={props.node_ref.clone()}
                data-testid="editor"
                spellcheck="false"
                autocomplete="off"
                autocapitalize="off"
                rows="24"
                value={AttrValue::from(props.text.clone())}
                {oninput}
            />
        </section>
    }
}
