//! The kubectl terminal in headless Chromium (wasm-bindgen-test): typing,
//! Tab completion, history, Ctrl+L, and interview mode scored from typed
//! commands (issue 17 items 3, 4 and 7).
#![cfg(target_arch = "wasm32")]

use std::rc::Rc;
use std::time::Duration;

use podlab_core::i18n::Lang;
use podlab_web::library::Library;
use podlab_web::persist::Page;
use podlab_web::{App, AppProps};
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use wasm_bindgen_test::*;
use web_sys::{Element, Event, HtmlElement, HtmlInputElement, InputEvent, InputEventInit};

wasm_bindgen_test_configure!(run_in_browser);

#[wasm_bindgen]
extern "C" {
    #[wasm_bindgen(js_namespace = JSON, js_name = parse)]
    fn json(text: &str) -> JsValue;

    /// `KeyboardEvent` from a plain init object (no `KeyboardEventInit`
    /// feature in this crate's web-sys).
    #[wasm_bindgen(js_name = KeyboardEvent)]
    type KeyEvent;

    #[wasm_bindgen(constructor, js_class = "KeyboardEvent")]
    fn new(kind: &str, init: &JsValue) -> KeyEvent;
}

fn library() -> Option<Library> {
    Some(Library(Rc::new(
        podlab_core::exercise::library::all()
            .into_iter()
            .map(Rc::new)
            .collect(),
    )))
}

async fn interview(id: &str) -> Element {
    // Trunk builds no kubectl worker for these tests: the same engine runs
    // in-process.
    podlab_web::kubectl_worker::set_engine(podlab_web::kubectl_worker::in_process());
    let document = gloo::utils::document();
    let root = document.create_element("div").expect("create a div");
    gloo::utils::body()
        .append_child(&root)
        .expect("append the root");
    let props = AppProps {
        lang: Some(Lang::En),
        page: Some(Page::Exercise {
            id: id.into(),
            interview: true,
        }),
        library: library(),
        ..AppProps::default()
    };
    yew::Renderer::<App>::with_root_and_props(root.clone(), props).render();
    until("the terminal", || {
        find(&root, "[data-testid=terminal-input]").is_some()
    })
    .await;
    root
}

async fn until(what: &str, done: impl Fn() -> bool) {
    for _ in 0..500 {
        if done() {
            return;
        }
        yew::platform::time::sleep(Duration::from_millis(10)).await;
    }
    panic!("gave up waiting for {what}");
}

fn find(root: &Element, selector: &str) -> Option<Element> {
    root.query_selector(selector).ok().flatten()
}

fn text_of(root: &Element, selector: &str) -> String {
    find(root, selector)
        .and_then(|e| e.text_content())
        .unwrap_or_default()
}

fn input(root: &Element) -> HtmlInputElement {
    find(root, "[data-testid=terminal-input]")
        .expect("the terminal's input")
        .unchecked_into()
}

/// Types `text` as the whole line (one input event, as a paste).
async fn type_line(root: &Element, text: &str) {
    let field = input(root);
    field.set_value(text);
    let init = InputEventInit::new();
    init.set_bubbles(true);
    let event = InputEvent::new_with_event_init_dict("input", &init).expect("an input event");
    field.dispatch_event(&event).expect("dispatch input");
    yew::platform::time::sleep(Duration::from_millis(0)).await;
}

/// Presses `key` in the input (with Ctrl when asked); whether the page
/// took it (prevented the default).
async fn press(root: &Element, key: &str, ctrl: bool) -> bool {
    let init = json(&format!(
        r#"{{"key": "{key}", "ctrlKey": {ctrl}, "bubbles": true, "cancelable": true}}"#
    ));
    let event: Event = KeyEvent::new("keydown", &init).unchecked_into();
    input(root)
        .dispatch_event(&event)
        .expect("dispatch keydown");
    yew::platform::time::sleep(Duration::from_millis(0)).await;
    event.default_prevented()
}

async fn run_line(root: &Element, line: &str) {
    type_line(root, line).await;
    press(root, "Enter", false).await;
}

fn entries(root: &Element) -> u32 {
    root.query_selector_all("[data-testid^=terminal-entry-]")
        .map(|list| list.length())
        .unwrap_or(0)
}

/// The article's commands typed with Tab completion in the crash-loop
/// interview: describe (prefix, completed), logs (in the back-off it reads
/// the previous instance), logs `--previous`, then the right cause: full
/// marks.
#[wasm_bindgen_test]
async fn typed_commands_with_tab_score_the_interview() {
    let root = interview("liveness-crash-loop").await;
    assert!(text_of(&root, "[data-testid=interview-symptom]").contains("CrashLoopBackOff"));
    let exercise = podlab_core::exercise::library::find("liveness-crash-loop").expect("exercise");
    let run = podlab_core::sim::simulate(&exercise.start, &Default::default());
    let at = exercise.interview.as_ref().expect("interview").at;
    let pod = podlab_core::exercise::interview::focus_pod(&run, at)
        .expect("a pod")
        .name
        .clone();
    let first = &pod[..1];

    type_line(&root, &format!("kubectl describe pod {first}")).await;
    // The completion bar offers the pod while typing.
    assert!(text_of(&root, "[data-testid=terminal-completions]").contains(&pod));
    assert!(press(&root, "Tab", false).await, "Tab is the terminal's");
    until("the completed name", || {
        input(&root).value() == format!("kubectl describe pod {pod} ")
    })
    .await;
    press(&root, "Enter", false).await;
    until("describe's output", || {
        text_of(&root, "[data-testid=terminal-entry-0]").contains("Liveness probe failed")
    })
    .await;
    assert_eq!(input(&root).value(), "");

    type_line(&root, &format!("kubectl logs {first}")).await;
    press(&root, "Tab", false).await;
    until("the completed pod", || {
        input(&root).value() == format!("kubectl logs {pod} ")
    })
    .await;
    press(&root, "Enter", false).await;
    run_line(&root, &format!("kubectl logs {pod} --previous")).await;
    until("two logs", || entries(&root) == 3).await;

    // History: ↑ recalls the last line, ↑ again the one before, ↓ back.
    press(&root, "ArrowUp", false).await;
    assert_eq!(
        input(&root).value(),
        format!("kubectl logs {pod} --previous")
    );
    press(&root, "ArrowUp", false).await;
    assert_eq!(input(&root).value(), format!("kubectl logs {pod} "));
    press(&root, "ArrowDown", false).await;
    assert_eq!(
        input(&root).value(),
        format!("kubectl logs {pod} --previous")
    );
    type_line(&root, "").await;

    let correct = exercise
        .interview
        .as_ref()
        .and_then(|i| i.causes.iter().position(|c| c.correct))
        .expect("a correct cause");
    find(&root, &format!("[data-testid=cause-{correct}]"))
        .expect("the cause")
        .unchecked_into::<HtmlElement>()
        .click();
    until("the score", || {
        find(&root, "[data-testid=interview-score]").is_some()
    })
    .await;
    let score = text_of(&root, "[data-testid=interview-score]");
    assert!(score.contains("Right root cause, found"), "{score}");
    assert!(score.contains("2 of 2"), "{score}");
    assert_eq!(
        text_of(&root, "[data-testid=score-typed]"),
        "3",
        "three lines typed"
    );
    let typed = text_of(&root, "[data-testid=interview-typed]");
    assert!(!typed.contains("add `--previous`"), "{typed}");
    assert!(
        typed.contains(&format!("$ kubectl describe pod {pod}")),
        "{typed}"
    );
    let transcripts = text_of(&root, "[data-testid=interview-transcripts]");
    assert!(
        transcripts.contains(&format!("$ kubectl logs {pod} -c")),
        "{transcripts}"
    );

    // Ctrl+L clears the screen (the transcript is kept for the score).
    assert!(press(&root, "l", true).await);
    until("a clear screen", || entries(&root) == 0).await;
    assert!(text_of(&root, "[data-testid=interview-typed]").contains("describe"));
}

/// An object the API server refused has no pod: `kubectl apply -f .`
/// shows the refusal, and a misspelt flag gets kubectl's own error.
#[wasm_bindgen_test]
async fn an_interview_without_a_pod_shows_the_refusal_on_apply() {
    let root = interview("fractional-gpu").await;
    assert!(text_of(&root, "[data-testid=interview-symptom]").contains("No resources found"));
    run_line(&root, "kubectl apply -f .").await;
    until("apply's answer", || {
        let output = text_of(&root, "[data-testid=terminal-entry-0]");
        output.starts_with("$ kubectl apply -f .") && output.contains("must be an integer")
    })
    .await;
    run_line(&root, "kubectl get pods --wide").await;
    until("kubectl's flag error", || {
        text_of(&root, "[data-testid=terminal-entry-1]").contains("error: unknown flag: --wide")
    })
    .await;
}

/// A container running again after its restarts (the worker-OOM interview
/// at 5:00): `logs` without `--previous` shows the new instance and the
/// transcript says so once scored.
#[wasm_bindgen_test]
async fn logs_without_previous_gets_the_remark() {
    let root = interview("oom-workers").await;
    let exercise = podlab_core::exercise::library::find("oom-workers").expect("exercise");
    let run = podlab_core::sim::simulate(&exercise.start, &Default::default());
    let at = exercise.interview.as_ref().expect("interview").at;
    let pod = podlab_core::exercise::interview::focus_pod(&run, at)
        .expect("a pod")
        .name
        .clone();
    run_line(&root, &format!("kubectl logs {pod}")).await;
    until("the logs", || entries(&root) == 1).await;
    find(&root, "[data-testid=cause-0]")
        .expect("a cause")
        .unchecked_into::<HtmlElement>()
        .click();
    until("the score", || {
        find(&root, "[data-testid=interview-typed]").is_some()
    })
    .await;
    let typed = text_of(&root, "[data-testid=interview-typed]");
    assert!(typed.contains("add `--previous`"), "{typed}");
}
