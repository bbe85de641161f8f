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
    // The caret and selection the person last left in the editor. When a
    // slider rewrites the text, the browser moves the caret to the end of
    // the new value; it is put back here (clamped), so returning to the
    // editor continues where they were.
    let selection = use_mut_ref(|| None::<(u32, u32)>);
    let remember = {
        let selection = selection.clone();
        move |textarea: &HtmlTextAreaElement| {
            if let (Ok(Some(start)), Ok(Some(end))) =
                (textarea.selection_start(), textarea.selection_end())
            {
                *selection.borrow_mut() = Some((start, end));
            }
        }
    };
    // The last text typed here: a new text equal to it came from typing
    // (the caret is already right); any other came from elsewhere.
    let typed = use_mut_ref(String::new);
    {
        let selection = selection.clone();
        let node_ref = props.node_ref.clone();
        let typed = typed.clone();
        use_effect_with(EditorText(props.text.clone()), move |text| {
            let Some(textarea) = node_ref.cast::<HtmlTextAreaElement>() else {
                return;
            };
            if *typed.borrow() == *text.0 {
                return;
            }
            if let Some((start, end)) = *selection.borrow() {
                let length = textarea.value().encode_utf16().count() as u32;
                let _ = textarea.set_selection_range(start.min(length), end.min(length));
            }
        });
    }
    let on_caret = {
        let remember = remember.clone();
        Callback::from(move |event: Event| {
            let textarea: HtmlTextAreaElement = event.target_unchecked_into();
            remember(&textarea);
        })
    };
    let on_key = {
        let remember = remember.clone();
        Callback::from(move |event: KeyboardEvent| {
            let textarea: HtmlTextAreaElement = event.target_unchecked_into();
            remember(&textarea);
        })
    };
    let on_click = {
        let remember = remember.clone();
        Callback::from(move |event: MouseEvent| {
            let textarea: HtmlTextAreaElement = event.target_unchecked_into();
            remember(&textarea);
        })
    };
    let oninput = {
        let on_input = props.on_input.clone();
        Callback::from(move |event: InputEvent| {
            let textarea: HtmlTextAreaElement = event.target_unchecked_into();
            remember(&textarea);
            let value = textarea.value();
            typed.borrow_mut().clone_from(&value);
            on_input.emit(value.into());
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
                onselect={on_caret}
                onkeyup={on_key}
                onclick={on_click}
            />
        </section>
    }
}

/// Compares the text by pointer (a new text is a new `Rc`).
struct EditorText(Rc<str>);

impl PartialEq for EditorText {
    fn eq(&self, other: &Self) -> bool {
        Rc::ptr_eq(&self.0, &other.0)
    }
}
