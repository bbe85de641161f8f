//! The editor in headless Chromium (wasm-bindgen-test): Tab and Shift-Tab,
//! the way out with Escape, the gutter's line numbers and diagnostic
//! markers, the coloured overlay (its text is the textarea's, character for
//! character), and scrolling a long text.
//!
//! Run by `cargo xtask test`; host builds skip this file.
#![cfg(target_arch = "wasm32")]

use std::time::Duration;

use podlab_core::i18n::Lang;
use podlab_web::app::LINT_DEBOUNCE_MS;
use podlab_web::{App, AppProps};
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use wasm_bindgen_test::*;
use web_sys::{Element, Event, HtmlTextAreaElement, InputEvent, InputEventInit};

wasm_bindgen_test_configure!(run_in_browser);

#[wasm_bindgen]
extern "C" {
    #[wasm_bindgen(js_namespace = JSON, js_name = parse)]
    fn json(text: &str) -> JsValue;

    /// `KeyboardEvent`, built from a plain init object (this crate's web-sys
    /// features do not include `KeyboardEventInit`).
    #[wasm_bindgen(js_name = KeyboardEvent)]
    type KeyEvent;

    #[wasm_bindgen(constructor, js_class = "KeyboardEvent")]
    fn new(kind: &str, init: &JsValue) -> KeyEvent;

    /// An element seen through `getBoundingClientRect` (no `DomRect` feature).
    type Boxed;

    #[wasm_bindgen(method, js_name = getBoundingClientRect)]
    fn rect(this: &Boxed) -> Rect;

    type Rect;

    #[wasm_bindgen(method, getter)]
    fn top(this: &Rect) -> f64;

    #[wasm_bindgen(method, getter)]
    fn height(this: &Rect) -> f64;
}

fn rect(element: &Element) -> Rect {
    element.unchecked_ref::<Boxed>().rect()
}

/// The page's stylesheet, which the layout depends on (line height, the
/// overlay's position); the test page has none of its own.
fn add_stylesheet() {
    let document = gloo::utils::document();
    if document.get_element_by_id("podlab-style").is_some() {
        return;
    }
    let style = document.create_element("style").expect("create a style");
    style.set_id("podlab-style");
    style.set_text_content(Some(include_str!("../style.css")));
    gloo::utils::head()
        .append_child(&style)
        .expect("append the style");
}

async fn mount(text: &str, lang: Lang) -> Element {
    add_stylesheet();
    let root = gloo::utils::document()
        .create_element("div")
        .expect("create a div");
    gloo::utils::body()
        .append_child(&root)
        .expect("append the root");
    // The worker's engine in-process (Trunk builds no worker for the tests):
    // the terminal and the lint.
    podlab_web::kubectl_worker::set_engine(podlab_web::kubectl_worker::in_process());
    yew::Renderer::<App>::with_root_and_props(
        root.clone(),
        AppProps {
            lang: Some(lang),
            text: Some(text.to_owned().into()),
            ..AppProps::default()
        },
    )
    .render();
    wait_ms(0).await;
    root
}

async fn wait_ms(ms: u32) {
    yew::platform::time::sleep(Duration::from_millis(ms.into())).await;
}

/// Waits until `done` holds, checking every 10 ms for up to 3 s.
async fn until(what: &str, done: impl Fn() -> bool) {
    for _ in 0..300 {
        if done() {
            return;
        }
        wait_ms(10).await;
    }
    panic!("gave up waiting for {what}");
}

fn find(root: &Element, selector: &str) -> Element {
    root.query_selector(selector)
        .expect("valid selector")
        .unwrap_or_else(|| panic!("nothing matches {selector}"))
}

fn exists(root: &Element, selector: &str) -> bool {
    root.query_selector(selector).ok().flatten().is_some()
}

fn all_text(root: &Element, selector: &str) -> Vec<String> {
    let list = root.query_selector_all(selector).expect("valid selector");
    (0..list.length())
        .filter_map(|index| list.item(index))
        .map(|node| node.text_content().unwrap_or_default())
        .collect()
}

fn editor(root: &Element) -> HtmlTextAreaElement {
    find(root, "[data-testid=editor]").unchecked_into()
}

fn overlay_text(root: &Element) -> String {
    find(root, "[data-testid=highlight]")
        .text_content()
        .unwrap_or_default()
}

fn type_into_editor(root: &Element, text: &str) {
    let editor = editor(root);
    editor.set_value(text);
    let init = InputEventInit::new();
    init.set_bubbles(true);
    let event = InputEvent::new_with_event_init_dict("input", &init).expect("an input event");
    editor.dispatch_event(&event).expect("dispatch input");
}

/// Presses `key` in the editor; true when the page handled it (the browser's
/// default, such as moving the focus on Tab, was prevented).
fn press(root: &Element, key: &str, shift: bool) -> bool {
    let init = json(&format!(
        r#"{{"key": "{key}", "shiftKey": {shift}, "bubbles": true, "cancelable": true}}"#
    ));
    let event: Event = KeyEvent::new("keydown", &init).unchecked_into();
    editor(root)
        .dispatch_event(&event)
        .expect("dispatch keydown");
    event.default_prevented()
}

fn select(root: &Element, start: u32, end: u32) {
    let editor = editor(root);
    editor.focus().expect("focus the editor");
    editor
        .set_selection_range(start, end)
        .expect("select in the editor");
}

fn selection(root: &Element) -> (u32, u32) {
    let editor = editor(root);
    (
        editor.selection_start().ok().flatten().unwrap_or(u32::MAX),
        editor.selection_end().ok().flatten().unwrap_or(u32::MAX),
    )
}

/// The learner clicks into the editor (a `click` on it, which comes after
/// the `focus`): from then on Tab indents (issue 30: right after the
/// editor is reached, Tab moves on).
fn work_in(root: &Element) {
    let init = web_sys::EventInit::new();
    init.set_bubbles(true);
    let event = Event::new_with_event_init_dict("click", &init).expect("a click");
    editor(root).dispatch_event(&event).expect("dispatch click");
}

#[wasm_bindgen_test]
async fn tab_right_after_reaching_the_editor_moves_on_and_changes_nothing() {
    let root = mount("a:\nb: 1\n", Lang::En).await;
    select(&root, 3, 3);
    assert!(
        !press(&root, "Tab", false),
        "the first Tab is the browser's"
    );
    assert_eq!(editor(&root).value(), "a:\nb: 1\n");
    // Typing (any key but Tab, Shift, Esc) means the learner is at work.
    press(&root, "ArrowRight", false);
    assert!(press(&root, "Tab", false), "now Tab indents");
}

#[wasm_bindgen_test]
async fn tab_indents_and_shift_tab_outdents_with_two_spaces() {
    let root = mount("a:\nb: 1\nc: 名稱\n", Lang::En).await;
    // A caret at the start of line 2: two spaces, the caret after them.
    select(&root, 3, 3);
    work_in(&root);
    assert!(press(&root, "Tab", false), "Tab must not leave the editor");
    until("the indented text", || {
        editor(&root).value() == "a:\n  b: 1\nc: 名稱\n"
    })
    .await;
    assert_eq!(selection(&root), (5, 5));

    // Lines 2 and 3 selected: both indented, the selection follows them.
    select(&root, 3, 15);
    assert!(press(&root, "Tab", false));
    until("both lines indented", || {
        editor(&root).value() == "a:\n    b: 1\n  c: 名稱\n"
    })
    .await;
    assert_eq!(selection(&root), (3, 19));

    // Shift-Tab takes two spaces off each selected line.
    assert!(press(&root, "Tab", true));
    until("both lines outdented", || {
        editor(&root).value() == "a:\n  b: 1\nc: 名稱\n"
    })
    .await;
    // The state follows the textarea (the text the lint will read).
    until("the overlay to follow", || {
        overlay_text(&root) == "a:\n  b: 1\nc: 名稱\n"
    })
    .await;

    // The way out for keyboard users: Escape, then Tab moves the focus on.
    let before = editor(&root).value();
    assert!(!press(&root, "Escape", false));
    assert!(
        !press(&root, "Tab", false),
        "Escape then Tab must let the focus move"
    );
    assert_eq!(editor(&root).value(), before);
    // And the next Tab indents again.
    select(&root, 0, 0);
    assert!(press(&root, "Tab", false));
    let hint = find(&root, "#editor-hint")
        .text_content()
        .unwrap_or_default();
    assert!(hint.contains("Esc"), "{hint}");
    assert_eq!(
        editor(&root).get_attribute("aria-describedby").as_deref(),
        Some("editor-hint")
    );
}

#[wasm_bindgen_test]
async fn broken_yaml_puts_a_pl001_marker_on_its_line_and_a_wave_under_it() {
    let root = mount("a: 1\nb: 2\n", Lang::En).await;
    assert_eq!(
        all_text(&root, "[data-testid=gutter] .num"),
        ["1", "2", "3"]
    );
    assert!(!exists(&root, "[data-testid=gutter] .mark"));

    type_into_editor(&root, "# 中文註解\na: 1\nb: [");
    wait_ms(LINT_DEBOUNCE_MS).await;
    let marker = "[data-testid=gutter] [data-line=\"3\"] .mark";
    until("the PL001 marker", || exists(&root, marker)).await;
    let mark = find(&root, marker);
    assert_eq!(mark.get_attribute("data-rules").as_deref(), Some("PL001"));
    assert!(mark
        .class_name()
        .split(" ")
        .any(|class| class == "sev-error"));
    let label = mark.get_attribute("aria-label").unwrap_or_default();
    assert!(
        label.starts_with("Line 3: error PL001: YAML syntax error"),
        "{label}"
    );
    assert!(mark
        .get_attribute("title")
        .unwrap_or_default()
        .contains("PL001"));
    assert_eq!(mark.get_attribute("role").as_deref(), Some("img"));
    assert_eq!(all_text(&root, "[data-testid=gutter] .mark").len(), 1);
    let row = find(&root, "[data-testid=diagnostics] [data-rule=PL001]")
        .text_content()
        .unwrap_or_default();
    assert!(row.contains("line 3"), "{row}");
    // The error is at the end of the text: a wave after the last character.
    assert!(exists(&root, "[data-testid=highlight] .sq-end.sev-error"));
    // The wave adds no character.
    assert_eq!(overlay_text(&root), editor(&root).value());

    // While an edit waits for the lint, the old marks are not drawn on the
    // new text; the new lint brings its own.
    type_into_editor(&root, "# 中文註解\na: 1\nb: [\n");
    until("the marks to go while the lint is stale", || {
        !exists(&root, "[data-testid=gutter] .mark")
    })
    .await;
    assert!(exists(&root, "[data-testid=summary] .pending"));
    wait_ms(LINT_DEBOUNCE_MS).await;
    until("PL001 at the new end of the text", || {
        exists(&root, "[data-testid=gutter] [data-line=\"4\"] .mark")
    })
    .await;
    type_into_editor(&root, "a: 1\nb: []\n");
    wait_ms(LINT_DEBOUNCE_MS).await;
    until("the summary of the fixed text", || {
        find(&root, "[data-testid=summary]")
            .text_content()
            .unwrap_or_default()
            .contains("No problems")
    })
    .await;
    assert!(!exists(&root, "[data-testid=gutter] .mark"));

    // In Chinese, the marker's text is Chinese.
    let root = mount("a: [", Lang::ZhTw).await;
    let marker = "[data-testid=gutter] [data-line=\"1\"] .mark";
    until("the worker's findings", || exists(&root, marker)).await;
    let label = find(&root, marker)
        .get_attribute("aria-label")
        .unwrap_or_default();
    assert!(label.starts_with("第 1 行：錯誤 PL001："), "{label}");
}

#[wasm_bindgen_test]
async fn the_overlay_colours_keys_strings_numbers_and_comments() {
    let sample = "# 模型載入要 40 秒\n---\nmetadata:\n  name: \"model-api\" # 名稱\n  labels: { app: api }\nspec:\n  replicas: 2\n  paused: false\n  template: &t\n    image: nginx:1.25\n";
    let root = mount(sample, Lang::En).await;
    let of = |class: &str| all_text(&root, &format!("[data-testid=highlight] .{class}"));
    assert_eq!(
        of("tk-key"),
        ["metadata", "name", "labels", "app", "spec", "replicas", "paused", "template", "image"]
    );
    assert_eq!(of("tk-comment"), ["# 模型載入要 40 秒", "# 名稱"]);
    assert_eq!(of("tk-str"), ["\"model-api\"", "api", "nginx:1.25"]);
    assert_eq!(of("tk-num"), ["2"]);
    assert_eq!(of("tk-lit"), ["false"]);
    assert_eq!(of("tk-doc"), ["---"]);
    assert_eq!(of("tk-anchor"), ["&t"]);
    assert_eq!(overlay_text(&root), sample);
}

#[wasm_bindgen_test]
async fn the_overlay_text_equals_the_textarea_text_as_it_changes() {
    let root = mount(podlab_web::DEFAULT_TEXT, Lang::En).await;
    assert_eq!(overlay_text(&root), editor(&root).value());
    for text in [
        "",
        "\n",
        "a",
        "名稱: 模型 # 中文\r\n  - 🚀\t x\n\n",
        "a: \"unterminated\n  b: |\n",
    ] {
        type_into_editor(&root, text);
        until("the overlay to follow", || {
            overlay_text(&root) == editor(&root).value()
        })
        .await;
        let lines = editor(&root).value().split('\n').count();
        assert_eq!(all_text(&root, "[data-testid=gutter] .num").len(), lines);
    }
}

#[wasm_bindgen_test]
async fn a_long_text_draws_only_the_lines_near_the_view_and_follows_the_scroll() {
    let mut text = String::new();
    for index in 1..=10_000 {
        text.push_str(&format!("key{index}: value {index} # 第 {index} 行\n"));
    }
    let root = mount(&text, Lang::En).await;
    let numbers = all_text(&root, "[data-testid=gutter] .num");
    assert!(numbers.len() < 400, "{} gutter lines drawn", numbers.len());
    assert_eq!(numbers.first().map(String::as_str), Some("1"));

    let editor = editor(&root);
    let line_px = rect(&find(&root, "[data-testid=gutter] .ln")).height();
    assert!((line_px - 19.0).abs() < 0.5, "a line is {line_px}px high");
    editor.set_scroll_top(5_000 * 19);
    let line = "[data-testid=gutter] [data-line=\"5001\"]";
    until("line 5001 in the gutter", || exists(&root, line)).await;
    let drawn = all_text(&root, "[data-testid=gutter] .num");
    assert!(drawn.len() < 400, "{} gutter lines drawn", drawn.len());
    // The gutter and the overlay moved with the textarea.
    let gutter_top = rect(&find(&root, line)).top();
    let area_top = rect(&editor).top();
    assert!(
        (gutter_top - (area_top + 10.0)).abs() < 1.5,
        "line 5001 at {gutter_top}, the textarea's first line at {}",
        area_top + 10.0
    );
    let overlay = find(&root, "[data-testid=highlight]")
        .text_content()
        .unwrap_or_default();
    assert!(
        overlay.contains("key5001: value 5001 # 第 5001 行\n"),
        "{}",
        overlay.chars().take(200).collect::<String>()
    );
    assert!(!overlay.contains("key1: value 1 #"));
}
