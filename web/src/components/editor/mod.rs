//! The YAML editor: a textarea with line numbers, syntax colours and the
//! lint's diagnostics (a marker in the gutter, a wavy line under the span).
//!
//! The textarea stays the real editor (typing, selection, undo, IME, screen
//! readers). Its own text is transparent; a `<pre>` under it draws the same
//! characters in colour with the same font, padding, line height and tab
//! size (style.css, "editor"). The overlay never adds or drops a character,
//! so the caret the browser draws sits on the coloured text. Scrolling moves
//! the overlay and the gutter by a transform, and only the lines near the
//! visible ones are drawn (`layout::window`): a 5 MB text costs one pass to
//! find its lines per edit, not a DOM node per line.
//!
//! The caret survives programmatic changes of the text (sliders, fixes): it
//! is remembered on every caret move and put back when the text changes
//! while the editor is not focused.

mod layout;
mod yaml_tokens;

use std::cell::RefCell;
use std::rc::Rc;

use podlab_core::i18n::Lang;
use wasm_bindgen::prelude::*;
use web_sys::{HtmlElement, HtmlTextAreaElement, InputEvent, InputEventInit};
use yew::prelude::*;

use self::layout::{DrawnLine, Lines, Mark};
use crate::i18n;
use crate::i18n::TextHtml;
use crate::state::Lint;
use crate::view_model::{severity_class, utf16_offset};

/// The CSS `--code-line` (style.css), until the page has been measured.
const DEFAULT_LINE_PX: f64 = 19.0;

#[derive(Properties)]
pub struct EditorProps {
    pub text: Rc<str>,
    pub label: AttrValue,
    pub on_input: Callback<Rc<str>>,
    /// The textarea, for selecting a diagnostic's span.
    pub node_ref: NodeRef,
    /// The worker's lint of exactly `text`, or `None` while an edit waits
    /// for the debounced lint or the worker's answer: marks are never drawn
    /// on a text they were not made for.
    #[prop_or_default]
    pub lint: Option<Rc<Lint>>,
    /// The language of the hint and of the markers' text.
    #[prop_or_default]
    pub lang: Lang,
    /// A part of the text the learner may not change (an exercise's
    /// program: `exercise::locked_span`); edits inside it are refused.
    #[prop_or_default]
    pub locked: Option<Locked>,
    /// The lines a fix applied last wrote (0-based, first and last),
    /// marked until the next edit (issue 30: the reader sees what changed).
    #[prop_or_default]
    pub changed: Option<Rc<Vec<(usize, usize)>>>,
}

/// A locked range of the text, in the textarea's UTF-16 offsets, and its
/// lines (1-based) for the hint.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Locked {
    pub start: u32,
    pub end: u32,
    pub first_line: usize,
    pub last_line: usize,
}

impl Locked {
    /// Whether an edit of `[start, end)` (UTF-16) would change the locked
    /// text: typing strictly inside it, or replacing anything of it. Typing
    /// at its very start or end changes the lines around it, not it.
    pub fn refuses(&self, start: u32, end: u32) -> bool {
        if start == end {
            start > self.start && start < self.end
        } else {
            start < self.end && end > self.start
        }
    }
}

impl PartialEq for EditorProps {
    fn eq(&self, other: &Self) -> bool {
        // The text can be large: compare by pointer, not by content.
        Rc::ptr_eq(&self.text, &other.text)
            && self.label == other.label
            && self.on_input == other.on_input
            && self.node_ref == other.node_ref
            && SameLint(self.lint.clone()) == SameLint(other.lint.clone())
            && self.lang == other.lang
            && self.locked == other.locked
            && self.changed == other.changed
    }
}

/// Which lines fit in the textarea: the first visible one (rounded down to
/// a chunk, so small scrolls change nothing) and how many fit.
#[derive(Clone, Copy, PartialEq, Eq)]
struct View {
    first: usize,
    rows: usize,
}

impl View {
    fn of(textarea: &HtmlTextAreaElement, line_px: f64) -> View {
        let line_px = line_px.max(1.0);
        let first = (f64::from(textarea.scroll_top().max(0)) / line_px) as usize;
        View {
            first: first / layout::CHUNK_LINES * layout::CHUNK_LINES,
            rows: (f64::from(textarea.client_height().max(0)) / line_px).ceil() as usize + 1,
        }
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

    let gutter_ref = use_node_ref();
    let overlay_ref = use_node_ref();
    let line_px = use_mut_ref(|| DEFAULT_LINE_PX);
    let view = use_state_eq(|| View { first: 0, rows: 60 });
    // After every render: measure a line, move the gutter and the overlay to
    // the textarea's scroll position, and draw other lines if it needs them.
    {
        let (node_ref, gutter_ref, overlay_ref) = (
            props.node_ref.clone(),
            gutter_ref.clone(),
            overlay_ref.clone(),
        );
        let (line_px, view) = (line_px.clone(), view.clone());
        use_effect(move || {
            if let Some(textarea) = node_ref.cast::<HtmlTextAreaElement>() {
                measure_line(&gutter_ref, &line_px);
                follow_scroll(&textarea, &gutter_ref, &overlay_ref);
                view.set(View::of(&textarea, *line_px.borrow()));
            }
        });
    }

    let lines = use_memo(EditorText(props.text.clone()), |text| Lines::new(&text.0));
    let marks = use_memo(
        (SameLint(props.lint.clone()), EditorText(props.text.clone())),
        |(lint, text)| marks_of(lint.0.as_deref(), &text.0),
    );
    let window = layout::window(lines.count(), view.first, view.rows);
    let plain = layout::needs_plain(&lines, &window);
    let drawn = layout::draw(&props.text, &lines, window.clone(), &marks);

    let onscroll = {
        let (gutter_ref, overlay_ref) = (gutter_ref.clone(), overlay_ref.clone());
        let (line_px, view) = (line_px.clone(), view.clone());
        Callback::from(move |event: Event| {
            let textarea: HtmlTextAreaElement = event.target_unchecked_into();
            follow_scroll(&textarea, &gutter_ref, &overlay_ref);
            view.set(View::of(&textarea, *line_px.borrow()));
        })
    };
    // Whether the learner has worked in the editor since it got the focus
    // (typed, clicked): until then Tab passes through, so tabbing across
    // the page never indents (and changes) the text by accident (issue 30).
    let meant = use_mut_ref(|| false);
    let onkeydown = {
        // Escape, then Tab, leaves the editor (the hint says so): Tab alone
        // indents, which would otherwise trap keyboard users inside.
        let escaped = use_mut_ref(|| false);
        let meant = meant.clone();
        Callback::from(move |event: KeyboardEvent| on_key_down(&event, &escaped, &meant))
    };
    let onfocus = {
        let meant = meant.clone();
        Callback::from(move |_: FocusEvent| *meant.borrow_mut() = false)
    };
    let on_caret = {
        let remember = remember.clone();
        Callback::from(move |event: Event| {
            let textarea: HtmlTextAreaElement = event.target_unchecked_into();
            // A `select` event while the editor is not focused comes from a
            // script (a new value puts the caret at the end), not from the
            // person: remembering it would lose their caret.
            if is_focused(&textarea) {
                remember(&textarea);
            }
        })
    };
    let on_key = {
        let remember = remember.clone();
        Callback::from(move |event: KeyboardEvent| {
            let textarea: HtmlTextAreaElement = event.target_unchecked_into();
            remember(&textarea);
        })
    };
    // A click (or a tap) in the editor means the learner is at work in it:
    // `click` comes after the `focus` that resets `meant` (a `mousedown`
    // would come before it).
    let on_click = {
        let remember = remember.clone();
        Callback::from(move |event: MouseEvent| {
            *meant.borrow_mut() = true;
            let textarea: HtmlTextAreaElement = event.target_unchecked_into();
            remember(&textarea);
        })
    };
    // A script may set the value without an `input` event (WebDriver's
    // clear fires only `change`): take the new value as an edit too, or the
    // next render (a scroll draws new lines) would put the old text back.
    let onchange = {
        let on_input = props.on_input.clone();
        let typed = typed.clone();
        Callback::from(move |event: Event| {
            let textarea: HtmlTextAreaElement = event.target_unchecked_into();
            let value = textarea.value();
            typed.borrow_mut().clone_from(&value);
            on_input.emit(value.into());
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

    // An exercise's locked part: the browser asks before every edit
    // (typing, deleting, pasting, the Tab key's insertText), and an edit
    // that would touch it is refused. (Yew has no `onbeforeinput`: a
    // listener on the textarea itself, able to prevent the default.)
    {
        let node_ref = props.node_ref.clone();
        use_effect_with(props.locked, move |locked| {
            let listener = match (*locked, node_ref.cast::<HtmlTextAreaElement>()) {
                (Some(locked), Some(textarea)) => {
                    Some(gloo::events::EventListener::new_with_options(
                        &textarea,
                        "beforeinput",
                        gloo::events::EventListenerOptions::enable_prevent_default(),
                        move |event| refuse_locked_edit(event, locked),
                    ))
                }
                _ => None,
            };
            move || drop(listener)
        });
    }
    let lang = props.lang;
    let skip = (window.start > 0).then(|| {
        html! { <span class="skip" style={format!("height: calc(var(--code-line) * {})", window.start)}></span> }
    });
    let last_line = lines.count().saturating_sub(1);
    let changed = |line: usize| {
        props.changed.as_ref().is_some_and(|ranges| {
            ranges
                .iter()
                .any(|&(first, last)| (first..=last).contains(&line))
        })
    };
    let gutter_lines = drawn.iter().map(|line| {
        let marker = gutter_marker(line, &marks, props, lang);
        html! {
            <div class={classes!("ln", props.locked.is_some_and(|l| (l.first_line..=l.last_line).contains(&(line.line + 1))).then_some("locked"), changed(line.line).then_some("changed"))} key={line.line} data-line={(line.line + 1).to_string()}>
                { marker }
                <span class="num" aria-hidden="true">{ line.line + 1 }</span>
            </div>
        }
    });
    let overlay_lines = drawn
        .iter()
        .map(|line| overlay_line(&props.text, line, line.line < last_line));
    let hint_id = "editor-hint";
    html! {
        <section class="editor">
            <label for="editor">{ props.label.clone() }</label>
            <p id={hint_id} class="editor-hint">{ i18n::editor_hint().html(lang) }</p>
            if let Some(locked) = props.locked {
                <p class="editor-hint editor-locked" data-testid="editor-locked">{ i18n::locked_lines(locked.first_line, locked.last_line).html(lang) }</p>
            }
            <div class={classes!("code", plain.then_some("plain"))}>
                <div
                    class="gutter"
                    data-testid="gutter"
                    style={format!("--digits: {}", lines.count().to_string().len().max(2))}
                >
                    <div class="gutter-lines" ref={gutter_ref}>
                        { for skip.clone() }
                        { for gutter_lines }
                    </div>
                </div>
                <div class="code-area">
                    if !plain {
                        <pre class="highlight" aria-hidden="true">
                            <code ref={overlay_ref} data-testid="highlight">
                                { for props.changed.iter().flat_map(|ranges| ranges.iter()).map(|&(first, last)| html! {
                                    <span class="changed-band" data-testid="changed-lines" data-lines={format!("{}-{}", first + 1, last + 1)}
                                        style={format!("top: calc(var(--code-line) * {first}); height: calc(var(--code-line) * {})", last - first + 1)}></span>
                                }) }
                                { for skip }
                                { for overlay_lines }
                            </code>
                        </pre>
                    }
                    <textarea
                        id="editor"
                        ref={props.node_ref.clone()}
                        data-testid="editor"
                        aria-describedby={hint_id}
                        spellcheck="false"
                        autocomplete="off"
                        autocapitalize="off"
                        wrap="off"
                        rows="24"
                        value={AttrValue::from(props.text.clone())}
                        {oninput}
                        {onchange}
                        {onkeydown}
                        {onfocus}
                        {onscroll}
                        onselect={on_caret}
                        onkeyup={on_key}
                        onclick={on_click}
                    />
                </div>
            </div>
        </section>
    }
}

/// One line of the overlay: a span per token (so a token's text stays in
/// one element), wavy-underlined pieces inside it, and the line break.
fn overlay_line(text: &str, line: &DrawnLine, line_break: bool) -> Html {
    let mut tokens: Vec<(Option<yaml_tokens::Kind>, Vec<&layout::Piece>)> = Vec::new();
    for piece in &line.pieces {
        match tokens.last_mut() {
            Some((kind, pieces)) if *kind == piece.kind => pieces.push(piece),
            _ => tokens.push((piece.kind, vec![piece])),
        }
    }
    let tokens = tokens.into_iter().map(|(kind, pieces)| {
        let pieces = pieces.into_iter().map(|piece| {
            let piece_text = text.get(piece.range.clone()).unwrap_or_default().to_owned();
            match piece.severity {
                Some(severity) => html! {
                    <span class={classes!("sq", severity_class(severity))}>{ piece_text }</span>
                },
                None => html! { { piece_text } },
            }
        });
        match kind {
            Some(kind) => html! { <span class={kind.class()}>{ for pieces }</span> },
            None => html! { <>{ for pieces }</> },
        }
    });
    let end_mark = line.end_mark.map(|severity| {
        html! { <span class={classes!("sq-end", severity_class(severity))}></span> }
    });
    html! {
        <span key={line.line}>{ for tokens }{ for end_mark }{ for line_break.then_some("\n") }</span>
    }
}

/// The marks of the lint's diagnostics, in the report's order (so a mark's
/// index is its diagnostic's); none when the lint is not of this text.
fn marks_of(lint: Option<&Lint>, text: &Rc<str>) -> Vec<Mark> {
    let Some(lint) = lint.filter(|lint| Rc::ptr_eq(&lint.text, text) || lint.text == *text) else {
        return Vec::new();
    };
    lint.findings
        .diagnostics
        .iter()
        .map(|diagnostic| {
            Mark::new(
                text,
                diagnostic.span.start,
                diagnostic.span.end,
                diagnostic.severity,
            )
        })
        .collect()
}

/// The gutter's marker for the diagnostics that start on `line`: the worst
/// severity's glyph (so colour is not the only cue), the messages as its
/// tooltip and accessible name; a click selects the first one's span.
fn gutter_marker(line: &DrawnLine, marks: &[Mark], props: &EditorProps, lang: Lang) -> Html {
    let (Some(lint), Some(&first)) = (props.lint.as_ref(), line.starting.first()) else {
        return html! { <span class="mark-space"></span> };
    };
    let diagnostics: Vec<_> = line
        .starting
        .iter()
        .filter_map(|&index| lint.findings.diagnostics.get(index))
        .collect();
    let Some(worst) = diagnostics.first() else {
        return html! { <span class="mark-space"></span> };
    };
    let problems: Vec<_> = diagnostics
        .iter()
        .map(|diagnostic| i18n::problem(diagnostic.severity, diagnostic.rule, &diagnostic.message))
        .collect();
    let label = i18n::line_problems(line.line + 1, &problems);
    let title: Vec<&str> = problems.iter().map(|problem| problem.get(lang)).collect();
    let rules: Vec<&str> = diagnostics
        .iter()
        .map(|diagnostic| diagnostic.rule)
        .collect();
    let glyph = match worst.severity {
        podlab_core::diagnostic::Severity::Error => "×",
        podlab_core::diagnostic::Severity::Warning => "!",
        podlab_core::diagnostic::Severity::Info => "i",
    };
    let onclick = {
        let node_ref = props.node_ref.clone();
        let text = props.text.clone();
        let mark = marks.get(first).copied();
        Callback::from(move |_: MouseEvent| {
            let (Some(textarea), Some(mark)) = (node_ref.cast::<HtmlTextAreaElement>(), mark)
            else {
                return;
            };
            let _ = textarea.focus();
            let _ = textarea.set_selection_range(
                utf16_offset(&text, mark.start),
                utf16_offset(&text, mark.end),
            );
        })
    };
    html! {
        <span
            class={classes!("mark", severity_class(worst.severity))}
            role="img"
            aria-label={label.get(lang).to_owned()}
            title={title.join("\n")}
            data-rules={rules.join(" ")}
            {onclick}
        >{ glyph }</span>
    }
}

/// Tab and Shift-Tab indent and outdent; Escape then Tab lets Tab move the
/// focus on as usual.
fn on_key_down(event: &KeyboardEvent, escaped: &RefCell<bool>, meant: &RefCell<bool>) {
    let key = event.key();
    if key == "Escape" {
        *escaped.borrow_mut() = true;
        return;
    }
    if key != "Tab" || event.ctrl_key() || event.alt_key() || event.meta_key() {
        if key != "Shift" {
            *escaped.borrow_mut() = false;
            *meant.borrow_mut() = true;
        }
        return;
    }
    if escaped.replace(false) || !*meant.borrow() {
        return;
    }
    event.prevent_default();
    let textarea: HtmlTextAreaElement = event.target_unchecked_into();
    indent(&textarea, event.shift_key());
}

#[wasm_bindgen]
extern "C" {
    /// The page's document, for the one method of it this crate's web-sys
    /// features leave out.
    #[wasm_bindgen(js_name = Document)]
    type EditingDocument;

    /// `document.execCommand`: the one way to change a textarea's text that
    /// keeps the browser's undo history (Ctrl+Z undoes an indent) and fires
    /// `input` as typing does. Deprecated, yet in every browser.
    #[wasm_bindgen(method, catch, js_name = execCommand)]
    fn exec_command(
        this: &EditingDocument,
        command: &str,
        show_ui: bool,
        value: &str,
    ) -> Result<bool, JsValue>;
}

/// Applies Tab (or Shift-Tab, `outdent`) to the textarea's selection.
fn indent(textarea: &HtmlTextAreaElement, outdent: bool) {
    let (Ok(Some(start)), Ok(Some(end))) = (textarea.selection_start(), textarea.selection_end())
    else {
        return;
    };
    let before = textarea.value();
    let Some(edit) = layout::tab(&before, (start, end), outdent) else {
        return;
    };
    let _ = textarea.set_selection_range(edit.from, edit.to);
    let inserted = web_sys::window()
        .and_then(|window| window.document())
        .and_then(|document| {
            document
                .unchecked_ref::<EditingDocument>()
                .exec_command("insertText", false, &edit.insert)
                .ok()
        })
        .unwrap_or(false);
    if !inserted || textarea.value() == before {
        // Without execCommand: no undo step, but the same text and event.
        let _ = textarea.set_range_text_with_start_and_end(&edit.insert, edit.from, edit.to);
        let init = InputEventInit::new();
        init.set_bubbles(true);
        if let Ok(event) = InputEvent::new_with_event_init_dict("input", &init) {
            let _ = textarea.dispatch_event(&event);
        }
    }
    let _ = textarea.set_selection_range(edit.selection.0, edit.selection.1);
}

fn is_focused(textarea: &HtmlTextAreaElement) -> bool {
    web_sys::window()
        .and_then(|window| window.document())
        .and_then(|document| document.active_element())
        .is_some_and(|active| active == ***textarea)
}

/// Reads the height of a drawn line (CSS `--code-line`) from the gutter.
fn measure_line(gutter: &NodeRef, line_px: &RefCell<f64>) {
    let height = gutter
        .cast::<HtmlElement>()
        .and_then(|gutter| gutter.query_selector(".ln").ok().flatten())
        .and_then(|line| line.dyn_into::<HtmlElement>().ok())
        .map(|line| line.offset_height())
        .unwrap_or(0);
    if height > 0 {
        *line_px.borrow_mut() = f64::from(height);
    }
}

/// Moves the gutter and the overlay to the textarea's scroll position.
fn follow_scroll(textarea: &HtmlTextAreaElement, gutter: &NodeRef, overlay: &NodeRef) {
    let (top, left) = (textarea.scroll_top(), textarea.scroll_left());
    if let Some(gutter) = gutter.cast::<HtmlElement>() {
        let _ = gutter.set_attribute("style", &format!("transform: translateY({}px)", -top));
    }
    if let Some(overlay) = overlay.cast::<HtmlElement>() {
        let _ = overlay.set_attribute(
            "style",
            &format!("transform: translate({}px, {}px)", -left, -top),
        );
    }
}

/// Compares the text by pointer (a new text is a new `Rc`).
struct EditorText(Rc<str>);

impl PartialEq for EditorText {
    fn eq(&self, other: &Self) -> bool {
        Rc::ptr_eq(&self.0, &other.0)
    }
}

/// Compares a lint by pointer (a new lint is a new `Rc`).
struct SameLint(Option<Rc<Lint>>);

impl PartialEq for SameLint {
    fn eq(&self, other: &Self) -> bool {
        match (&self.0, &other.0) {
            (Some(this), Some(that)) => Rc::ptr_eq(this, that),
            (None, None) => true,
            _ => false,
        }
    }
}

/// Refuses an edit (`beforeinput`) that would change the locked text.
fn refuse_locked_edit(event: &web_sys::Event, locked: Locked) {
    let Some(textarea) = event
        .target()
        .and_then(|target| wasm_bindgen::JsCast::dyn_into::<HtmlTextAreaElement>(target).ok())
    else {
        return;
    };
    let start = textarea.selection_start().ok().flatten().unwrap_or(0);
    let end = textarea.selection_end().ok().flatten().unwrap_or(start);
    let kind = wasm_bindgen::JsCast::dyn_ref::<web_sys::InputEvent>(event)
        .map(web_sys::InputEvent::input_type)
        .unwrap_or_default();
    // A deletion at the caret takes the character beside it.
    let (start, end) = match (start == end, kind.as_str()) {
        (true, "deleteContentBackward" | "deleteWordBackward" | "deleteSoftLineBackward") => {
            (start.saturating_sub(1), end)
        }
        (true, "deleteContentForward" | "deleteWordForward" | "deleteSoftLineForward") => {
            (start, end + 1)
        }
        _ => (start, end),
    };
    if locked.refuses(start, end) {
        event.prevent_default();
    }
}

/// Selects a span in the editor and scrolls its line into view, about a
/// third of the way down.
pub fn select_in_editor(editor: &NodeRef, selection: crate::view_model::Selection) {
    let Some(textarea) = editor.cast::<web_sys::HtmlTextAreaElement>() else {
        return;
    };
    let _ = textarea.focus();
    let _ = textarea.set_selection_range(selection.start, selection.end);
    let lines = textarea.value().lines().count().max(1) as i32;
    let line_height = textarea.scroll_height() / lines;
    let top = (selection.line as i32 - 1) * line_height - textarea.client_height() / 3;
    textarea.set_scroll_top(top.max(0));
}

#[cfg(test)]
mod locked_tests {
    use super::Locked;

    #[test]
    fn a_locked_range_refuses_edits_inside_it_and_allows_its_edges() {
        let locked = Locked {
            start: 10,
            end: 20,
            first_line: 3,
            last_line: 5,
        };
        // Typing strictly inside, replacing any of it: refused.
        assert!(locked.refuses(15, 15));
        assert!(locked.refuses(5, 11));
        assert!(locked.refuses(19, 25));
        assert!(locked.refuses(0, 30));
        // Typing at its edges, editing around it: allowed.
        assert!(!locked.refuses(10, 10));
        assert!(!locked.refuses(20, 20));
        assert!(!locked.refuses(0, 10));
        assert!(!locked.refuses(20, 24));
    }
}
