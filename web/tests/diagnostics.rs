//! The diagnostics come from the kubectl worker, a moment after the
//! timeline: "Checking…" until its answer (never a blank or a false "No
//! problems found"), the answer for the current text only, and a note when
//! the worker cannot load. The worker is played here by a runner that
//! holds its answers until the test lets them go.
//!
//! One test in its own binary: the runner is the page's global
//! (`set_engine`), and the tests of one file run interleaved.
#![cfg(target_arch = "wasm32")]

use std::cell::RefCell;
use std::rc::Rc;
use std::time::Duration;

use podlab_core::i18n::Lang;
use podlab_web::findings::Findings;
use podlab_web::kubectl_worker::{set_engine, Ask, Reply, Request, Runner};
use podlab_web::{App, AppProps};
use wasm_bindgen::JsCast;
use wasm_bindgen_test::*;
use web_sys::{Element, HtmlTextAreaElement, InputEvent, InputEventInit};

wasm_bindgen_test_configure!(run_in_browser);

type Held = Rc<RefCell<Vec<(Request, Box<dyn FnOnce(Reply)>)>>>;

/// A runner that keeps every lint request until `answer` or `fail`.
fn holding() -> (Runner, Held) {
    let held: Held = Rc::default();
    let keep = held.clone();
    let runner: Runner = Rc::new(move |request: Request, reply: Box<dyn FnOnce(Reply)>| {
        assert_eq!(request.kind, Ask::Lint, "only lints on this page");
        keep.borrow_mut().push((request, reply));
    });
    (runner, held)
}

/// Answers the held requests as the worker would, oldest first.
fn answer(held: &Held) {
    let requests = std::mem::take(&mut *held.borrow_mut());
    for (request, reply) in requests {
        reply(Reply::Lint(Some(Findings::of(&request.text))));
    }
}

async fn wait_ms(ms: u32) {
    yew::platform::time::sleep(Duration::from_millis(ms.into())).await;
}

async fn until(what: &str, done: impl Fn() -> bool) {
    for _ in 0..300 {
        if done() {
            return;
        }
        wait_ms(10).await;
    }
    panic!("gave up waiting for {what}");
}

fn text_of(root: &Element, selector: &str) -> String {
    root.query_selector(selector)
        .ok()
        .flatten()
        .and_then(|element| element.text_content())
        .unwrap_or_default()
}

fn has(root: &Element, selector: &str) -> bool {
    root.query_selector(selector).ok().flatten().is_some()
}

fn type_into_editor(root: &Element, text: &str) {
    let editor: HtmlTextAreaElement = root
        .query_selector("[data-testid=editor]")
        .ok()
        .flatten()
        .expect("an editor")
        .unchecked_into();
    editor.set_value(text);
    let init = InputEventInit::new();
    init.set_bubbles(true);
    let event = InputEvent::new_with_event_init_dict("input", &init).expect("an input event");
    editor.dispatch_event(&event).expect("dispatch input");
}

async fn mount(text: &str, lang: Lang) -> Element {
    let root = gloo::utils::document()
        .create_element("div")
        .expect("create a div");
    gloo::utils::body()
        .append_child(&root)
        .expect("append the root");
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

#[wasm_bindgen_test]
async fn the_diagnostics_say_checking_until_the_worker_answers_the_current_text() {
    let (runner, held) = holding();
    set_engine(runner);
    let root = mount("a: [", Lang::En).await;
    until("the first lint request", || !held.borrow().is_empty()).await;
    // The timeline is up; the diagnostics are being checked.
    until("the timeline", || has(&root, "[data-testid=timeline]")).await;
    assert_eq!(text_of(&root, "[data-testid=summary]"), "Checking…");
    assert!(!has(&root, "[data-rule=PL001]"));
    assert!(!has(&root, "[data-testid=gutter] .mark"));

    // An edit before the answer: the answer for the first text, arriving
    // late, is dropped; the list keeps saying it is checking.
    type_into_editor(&root, "a: []\n");
    until("the lint of the edit", || held.borrow().len() == 2).await;
    let (first, reply) = held.borrow_mut().remove(0);
    assert_eq!(&*first.text, "a: [");
    reply(Reply::Lint(Some(Findings::of(&first.text))));
    wait_ms(20).await;
    assert_eq!(text_of(&root, "[data-testid=summary]"), "Checking…");
    assert!(!has(&root, "[data-rule=PL001]"));
    answer(&held);
    until("no problems", || {
        text_of(&root, "[data-testid=summary]") == "No problems found."
    })
    .await;

    // The worker's findings fill the list and the gutter.
    type_into_editor(&root, "a: [\n");
    until("the next lint", || !held.borrow().is_empty()).await;
    answer(&held);
    until("PL001 from the worker", || has(&root, "[data-rule=PL001]")).await;
    assert!(text_of(&root, "[data-testid=summary]").starts_with("1 error"));
    until("its gutter mark", || {
        has(&root, "[data-testid=gutter] .mark")
    })
    .await;

    // A worker that cannot load: a note in the page's language, no list.
    type_into_editor(&root, "b: [\n");
    until("the lint of the broken text", || !held.borrow().is_empty()).await;
    let requests = std::mem::take(&mut *held.borrow_mut());
    for (_, reply) in requests {
        reply(Reply::Lint(None));
    }
    until("the note", || {
        text_of(&root, "[data-testid=summary]").contains("could not be computed")
    })
    .await;
    assert!(!has(&root, "[data-rule=PL001]"));
    assert!(!has(&root, "[data-testid=summary] .pending"));

    let root = mount("a: [", Lang::ZhTw).await;
    until("the Chinese lint request", || !held.borrow().is_empty()).await;
    assert_eq!(text_of(&root, "[data-testid=summary]"), "檢查中…");
    let requests = std::mem::take(&mut *held.borrow_mut());
    for (_, reply) in requests {
        reply(Reply::Lint(None));
    }
    until("the Chinese note", || {
        text_of(&root, "[data-testid=summary]").contains("無法產生診斷")
    })
    .await;
}
