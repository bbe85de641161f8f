//! The app in headless Chromium (wasm-bindgen-test): render into a div,
//! act on the DOM as a person would, wait, read the DOM.
//!
//! Run by `cargo xtask test` (`cargo test -p podlab-web --target
//! wasm32-unknown-unknown` with CHROMEDRIVER set); host builds skip this file.
#![cfg(target_arch = "wasm32")]

use std::time::Duration;

use podlab_core::i18n::Lang;
use podlab_web::app::LINT_DEBOUNCE_MS;
use podlab_web::{App, AppProps};
use wasm_bindgen::JsCast;
use wasm_bindgen_test::*;
use web_sys::{Element, HtmlElement, HtmlTextAreaElement, InputEvent, InputEventInit};

wasm_bindgen_test_configure!(run_in_browser);

/// Renders the app into a fresh div of the test page and returns the div.
async fn mount(props: AppProps) -> Element {
    let document = gloo::utils::document();
    let root = document.create_element("div").expect("create a div");
    gloo::utils::body()
        .append_child(&root)
        .expect("append the root");
    // The worker's engine in-process (Trunk builds no worker for the tests):
    // the terminal and the lint.
    podlab_web::kubectl_worker::set_engine(podlab_web::kubectl_worker::in_process());
    yew::Renderer::<App>::with_root_and_props(root.clone(), props).render();
    wait_ms(0).await;
    root
}

async fn wait_ms(ms: u32) {
    yew::platform::time::sleep(Duration::from_millis(ms.into())).await;
}

/// Waits until `done` holds, checking every 10 ms for up to 3 s: Yew renders
/// child components in later scheduler passes, which a loaded machine spreads
/// over several ticks.
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

fn has(root: &Element, selector: &str) -> bool {
    root.query_selector(selector).ok().flatten().is_some()
}

fn text_of(root: &Element, selector: &str) -> String {
    find(root, selector).text_content().unwrap_or_default()
}

/// Sets the editor's text and fires the `input` event a keystroke fires.
fn type_into_editor(root: &Element, text: &str) {
    let editor: HtmlTextAreaElement = find(root, "[data-testid=editor]").unchecked_into();
    editor.set_value(text);
    let init = InputEventInit::new();
    init.set_bubbles(true);
    let event = InputEvent::new_with_event_init_dict("input", &init).expect("an input event");
    editor.dispatch_event(&event).expect("dispatch input");
}

fn click(root: &Element, selector: &str) {
    let element: HtmlElement = find(root, selector).unchecked_into();
    element.click();
}

fn english() -> AppProps {
    AppProps {
        lang: Some(Lang::En),
        text: None,
        ..AppProps::default()
    }
}

#[wasm_bindgen_test]
async fn default_text_lints_without_errors() {
    let root = mount(english()).await;
    let editor: HtmlTextAreaElement = find(&root, "[data-testid=editor]").unchecked_into();
    assert!(editor.value().contains("kind: Deployment"));
    assert!(editor.value().contains("kind: Scenario"));
    until("the worker's findings", || {
        text_of(&root, "[data-testid=summary]").starts_with("0 error(s)")
    })
    .await;
    assert!(
        root.query_selector("[data-testid=diagnostics] [data-rule=PL001]")
            .unwrap()
            .is_none(),
        "{}",
        root.inner_html()
    );
}

#[wasm_bindgen_test]
async fn broken_yaml_shows_pl001_with_its_line_after_the_debounce() {
    let root = mount(english()).await;
    type_into_editor(&root, "a: [");
    // Before the debounce fires the old result stays, marked as pending.
    wait_ms(10).await;
    assert!(root.query_selector("[data-rule=PL001]").unwrap().is_none());
    wait_ms(LINT_DEBOUNCE_MS).await;
    until("PL001 after the debounce", || {
        root.query_selector("[data-testid=diagnostics] [data-rule=PL001]")
            .ok()
            .flatten()
            .is_some()
    })
    .await;
    let item = text_of(&root, "[data-testid=diagnostics] [data-rule=PL001]");
    assert!(item.contains("PL001"), "{item}");
    assert!(item.contains("error"), "{item}");
    assert!(item.contains("line 1"), "{item}");
    assert!(text_of(&root, "[data-testid=summary]").contains("1 error"));
}

/// Issue 4: YAML pasted from a web page that lost its indentation gets the
/// core's one-sentence hint, not a cascade of syntax errors.
#[wasm_bindgen_test]
async fn flattened_yaml_from_a_web_page_gets_the_one_sentence_hint() {
    let root = mount(english()).await;
    type_into_editor(
        &root,
        "apiVersion: apps/v1\nkind: Deployment\nmetadata:\nname: model-api\nspec:\nreplicas: 1\ntemplate:\nspec:\ncontainers:\n- name: api\nimage: x:1\n",
    );
    until("the hint", || {
        root.query_selector("[data-testid=diagnostics]")
            .ok()
            .flatten()
            .is_some_and(|list| {
                list.text_content()
                    .unwrap_or_default()
                    .contains("the indentation was probably lost when copying from a web page")
            })
    })
    .await;
    let items = root
        .query_selector_all("[data-testid=diagnostics] [data-rule=PL001]")
        .map(|list| list.length())
        .unwrap_or(0);
    assert_eq!(items, 1, "one hint, not a cascade");
}

#[wasm_bindgen_test]
async fn language_toggle_switches_the_page_to_chinese_and_back() {
    let root = mount(AppProps {
        lang: Some(Lang::En),
        text: Some("a: [".into()),
        ..AppProps::default()
    })
    .await;
    assert_eq!(text_of(&root, "[data-testid=title]"), "podlab playground");
    until("the worker's findings", || has(&root, "[data-rule=PL001]")).await;
    assert!(text_of(&root, "[data-rule=PL001]").contains("line 1"));

    click(&root, "[data-testid=lang]");
    until("the diagnostic in Chinese", || {
        text_of(&root, "[data-rule=PL001]").contains("第 1 行")
    })
    .await;
    assert_eq!(text_of(&root, "[data-testid=title]"), "podlab 練習場");
    let item = text_of(&root, "[data-rule=PL001]");
    assert!(item.contains("錯誤"), "{item}");
    assert!(item.contains("第 1 行"), "{item}");
    assert!(!item.contains("line 1"), "{item}");
    assert_eq!(text_of(&root, "[data-testid=lang]"), "English");
    // The app's own root, not <html lang>: the tests of this file share one
    // page and run interleaved (the end-to-end test checks <html lang>).
    assert_eq!(
        find(&root, ".app").get_attribute("lang").as_deref(),
        Some("zh-TW")
    );

    click(&root, "[data-testid=lang]");
    until("the diagnostic in English", || {
        text_of(&root, "[data-rule=PL001]").contains("line 1")
    })
    .await;
    assert_eq!(text_of(&root, "[data-testid=title]"), "podlab playground");
    assert!(text_of(&root, "[data-rule=PL001]").contains("line 1"));
}

#[wasm_bindgen_test]
async fn fixing_the_text_by_hand_clears_the_diagnostic() {
    let root = mount(AppProps {
        lang: Some(Lang::ZhTw),
        text: Some("a: [".into()),
        ..AppProps::default()
    })
    .await;
    until("the worker's findings", || has(&root, "[data-rule=PL001]")).await;
    assert!(text_of(&root, "[data-rule=PL001]").contains("第 1 行"));
    type_into_editor(&root, "a: []\n");
    wait_ms(LINT_DEBOUNCE_MS).await;
    until("PL001 to disappear", || {
        root.query_selector("[data-rule=PL001]")
            .ok()
            .flatten()
            .is_none()
    })
    .await;
    assert_eq!(text_of(&root, "[data-testid=summary]"), "沒有發現問題。");
}
