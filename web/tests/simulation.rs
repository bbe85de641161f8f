//! The simulation section in headless Chromium (wasm-bindgen-test): the
//! timeline, the scrubber and play controls, and the kubectl panes at the
//! cursor, driven through the DOM as a person would.
//!
//! Run by `cargo xtask test`; host builds skip this file.
#![cfg(target_arch = "wasm32")]

use std::time::Duration;

use podlab_core::i18n::Lang;
use podlab_web::app::LINT_DEBOUNCE_MS;
use podlab_web::{App, AppProps};
use wasm_bindgen::JsCast;
use wasm_bindgen_test::*;
use web_sys::{
    Element, HtmlElement, HtmlInputElement, HtmlTextAreaElement, InputEvent, InputEventInit,
};

wasm_bindgen_test_configure!(run_in_browser);

/// The article's crash loop: 40 s load, liveness after 10 s, no startupProbe.
const CRASH_LOOP: &str = include_str!("../../tests/golden/crash-loop-liveness-40s.yaml");

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

/// Waits until `done` holds, checking every 10 ms for up to 10 s (Yew renders
/// child components in later scheduler passes).
async fn until(what: &str, done: impl Fn() -> bool) {
    for _ in 0..1000 {
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

/// The markers the glyphs matching `selector` stand for: 1 each, or the
/// count after `×` of a merged one (its text without its title).
fn markers_drawn(root: &Element, selector: &str) -> usize {
    let glyphs = root.query_selector_all(selector).expect("valid selector");
    (0..glyphs.length())
        .filter_map(|i| glyphs.item(i))
        .map(|glyph| {
            let all = glyph.text_content().unwrap_or_default();
            let title = glyph
                .first_child()
                .filter(|child| child.node_name().eq_ignore_ascii_case("title"))
                .and_then(|child| child.text_content())
                .unwrap_or_default();
            let text = all.strip_prefix(title.as_str()).unwrap_or(&all);
            text.rsplit_once('×')
                .and_then(|(_, count)| count.parse().ok())
                .unwrap_or(1)
        })
        .sum()
}

fn text_of(root: &Element, selector: &str) -> String {
    root.query_selector(selector)
        .ok()
        .flatten()
        .and_then(|element| element.text_content())
        .unwrap_or_default()
}

fn input_event() -> InputEvent {
    let init = InputEventInit::new();
    init.set_bubbles(true);
    InputEvent::new_with_event_init_dict("input", &init).expect("an input event")
}

/// Drags the scrubber to `seconds`: sets its value and fires `input`.
fn scrub_to(root: &Element, seconds: u64) {
    let scrubber: HtmlInputElement = find(root, "[data-testid=scrubber]").unchecked_into();
    scrubber.set_value(&seconds.to_string());
    scrubber
        .dispatch_event(&input_event())
        .expect("dispatch input");
}

fn type_into_editor(root: &Element, text: &str) {
    let editor: HtmlTextAreaElement = find(root, "[data-testid=editor]").unchecked_into();
    editor.set_value(text);
    editor
        .dispatch_event(&input_event())
        .expect("dispatch input");
}

fn click(root: &Element, selector: &str) {
    let element: HtmlElement = find(root, selector).unchecked_into();
    element.click();
}

fn crash_loop(lang: Lang) -> AppProps {
    AppProps {
        lang: Some(lang),
        text: Some(CRASH_LOOP.into()),
        ..AppProps::default()
    }
}

#[wasm_bindgen_test]
async fn the_crash_loop_at_12_minutes_shows_in_the_timeline_and_every_pane() {
    let root = mount(crash_loop(Lang::En)).await;
    until("the timeline", || {
        root.query_selector("[data-testid=timeline] [data-state]")
            .ok()
            .flatten()
            .is_some()
    })
    .await;
    // The lane over the run's 15 minutes: back-off segments with their label, kills and restarts.
    let timeline = find(&root, "[data-testid=timeline]");
    let back_offs = timeline
        .query_selector_all("[data-state=CrashLoopBackOff]")
        .expect("valid selector");
    assert_eq!(back_offs.length(), 3, "{}", timeline.inner_html());
    assert!(text_of(&root, "[data-state=CrashLoopBackOff]").contains("CrashLoopBackOff"));
    // Markers too close to draw apart are one glyph with a count (`✕×2`,
    // issue 30 item 6): every kill and restart is in one of them.
    assert_eq!(markers_drawn(&timeline, ".lane-chart .marker-kill"), 8);
    // Over the default 15 minutes: C8 starts at 862.8 s (its kill would
    // come after the end).
    assert_eq!(markers_drawn(&timeline, ".lane-chart .marker-restart"), 8);
    assert!(timeline.query_selector(".memory-curve").unwrap().is_some());

    scrub_to(&root, 12 * 60);
    until("the clock at 12:00", || {
        text_of(&root, "[data-testid=clock]") == "12:00 / 15:00"
    })
    .await;
    assert_eq!(
        text_of(&root, "[data-testid=pod-status-0]"),
        "CrashLoopBackOff"
    );
    let get = text_of(&root, "[data-testid=pane-get]");
    assert!(get.contains("$ kubectl get pods"), "{get}");
    assert!(get.contains("CrashLoopBackOff   7 (2m39s ago)"), "{get}");
    let describe = text_of(&root, "[data-testid=pane-describe]");
    assert!(describe.contains("Liveness probe failed"), "{describe}");
    let logs = text_of(&root, "[data-testid=pane-logs]");
    assert!(logs.contains("$ kubectl logs model-api-"), "{logs}");
    let previous = text_of(&root, "[data-testid=pane-logs-previous]");
    assert!(previous.contains("--previous"), "{previous}");
    assert!(previous.contains("Loading model weights"), "{previous}");
    let diagnosis = text_of(&root, "[data-testid=diagnosis]");
    assert!(diagnosis.contains("Most likely root cause"), "{diagnosis}");

    // Early on, the pod is still being created and has no previous logs.
    scrub_to(&root, 1);
    until("ContainerCreating at 0:01", || {
        text_of(&root, "[data-testid=pod-status-0]") == "ContainerCreating"
    })
    .await;
    let previous = text_of(&root, "[data-testid=pane-logs-previous]");
    assert!(
        previous.contains("Error from server (BadRequest)"),
        "{previous}"
    );
}

#[wasm_bindgen_test]
async fn play_moves_the_cursor_and_pause_stops_it() {
    let root = mount(crash_loop(Lang::En)).await;
    scrub_to(&root, 0);
    until("the cursor at 0:00", || {
        text_of(&root, "[data-testid=clock]") == "0:00 / 15:00"
    })
    .await;
    click(&root, "[data-testid=speed-600]");
    until("600× pressed", || {
        find(&root, "[data-testid=speed-600]")
            .get_attribute("aria-pressed")
            .as_deref()
            == Some("true")
    })
    .await;
    click(&root, "[data-testid=play]");
    until("the play button to say Pause", || {
        text_of(&root, "[data-testid=play]").contains("Pause")
    })
    .await;
    // 600×: a simulated minute per 100 ms of real time.
    until("the cursor past 2:00", || {
        let clock = text_of(&root, "[data-testid=clock]");
        clock
            .split(':')
            .next()
            .and_then(|m| m.parse::<u32>().ok())
            .is_some_and(|m| m >= 2)
    })
    .await;
    click(&root, "[data-testid=play]");
    until("the play button to say Play", || {
        text_of(&root, "[data-testid=play]").contains("Play")
    })
    .await;
    let stopped = text_of(&root, "[data-testid=clock]");
    wait_ms(300).await;
    assert_eq!(text_of(&root, "[data-testid=clock]"), stopped, "paused");
    let scrubber: HtmlInputElement = find(&root, "[data-testid=scrubber]").unchecked_into();
    let seconds: u64 = scrubber.value().parse().expect("a number");
    assert!(seconds >= 120, "{seconds}");
}

#[wasm_bindgen_test]
async fn clicking_a_lane_selects_its_pod_for_describe_and_logs() {
    // The reference Deployment: two replicas.
    let root = mount(AppProps {
        lang: Some(Lang::En),
        text: None,
        ..AppProps::default()
    })
    .await;
    until("two lanes", || {
        root.query_selector("[data-testid=pod-status-1]")
            .ok()
            .flatten()
            .is_some()
    })
    .await;
    let names: Vec<String> = (0..2)
        .map(|index| {
            let lanes = root
                .query_selector_all(".pod .pod-name")
                .expect("valid selector");
            lanes
                .item(index)
                .and_then(|node| node.text_content())
                .unwrap_or_default()
        })
        .collect();
    assert_ne!(names[0], names[1]);
    assert_eq!(text_of(&root, "[data-testid=pod-status-0]"), "Running");
    assert!(text_of(&root, "[data-testid=pane-describe]").contains(&names[0]));
    let second: HtmlElement = root
        .query_selector_all(".pod .pod-name")
        .expect("valid selector")
        .item(1)
        .expect("a second lane")
        .unchecked_into();
    second.click();
    until("the second pod in describe", || {
        text_of(&root, "[data-testid=pane-describe]")
            .contains(&format!("Name:             {}", names[1]))
    })
    .await;
    assert!(text_of(&root, "[data-testid=pane-logs]").contains(&names[1]));
    // The card is a child component: Yew may render it a pass later.
    until("the healthy card naming the second pod", || {
        text_of(&root, "[data-testid=diagnosis]").contains(&names[1])
    })
    .await;
    let select: web_sys::HtmlSelectElement =
        find(&root, "[data-testid=pod-select]").unchecked_into();
    assert_eq!(select.selected_index(), 1);
    // And back with the selector, as a keyboard user would.
    select.set_selected_index(0);
    select
        .dispatch_event(&web_sys::Event::new("change").expect("a change event"))
        .expect("dispatch change");
    until("the first pod in describe again", || {
        text_of(&root, "[data-testid=pane-describe]")
            .contains(&format!("Name:             {}", names[0]))
    })
    .await;
    until("the first lane selected", || {
        text_of(&root, ".pod.selected .pod-name") == names[0]
    })
    .await;
}

#[wasm_bindgen_test]
async fn the_diagnosis_follows_the_page_language_without_resimulating() {
    let root = mount(crash_loop(Lang::En)).await;
    until("the diagnosis in English", || {
        text_of(&root, "[data-testid=diagnosis]").contains("Symptom")
    })
    .await;
    let describe = text_of(&root, "[data-testid=pane-describe]");
    click(&root, "[data-testid=lang]");
    until("the diagnosis in Chinese", || {
        text_of(&root, "[data-testid=diagnosis]").contains("症狀")
    })
    .await;
    assert!(text_of(&root, "[data-testid=diagnosis]").contains("最可能的根因"));
    assert!(text_of(&root, "[data-testid=play]").contains("播放"));
    // kubectl's own output stays as kubectl prints it.
    assert_eq!(text_of(&root, "[data-testid=pane-describe]"), describe);
}

#[wasm_bindgen_test]
async fn an_edit_is_simulated_after_the_debounce() {
    let root = mount(crash_loop(Lang::En)).await;
    until("one lane", || {
        root.query_selector("[data-testid=pod-status-0]")
            .ok()
            .flatten()
            .is_some()
    })
    .await;
    type_into_editor(&root, "a: [");
    wait_ms(LINT_DEBOUNCE_MS).await;
    until("no pods", || {
        root.query_selector("[data-testid=pod-status-0]")
            .ok()
            .flatten()
            .is_none()
    })
    .await;
    assert!(text_of(&root, "[data-testid=timeline]").contains("No pods"));
}

/// Issue 4: a slider writes the Scenario inside the text (the single source
/// of truth), keeps the caret where the person left it, and the simulation
/// follows: a 5 s load ends before liveness starts counting. (This caret
/// check failed once on a loaded machine before `Editor` ignored `select`
/// events while it is not focused — script selections, not the person's;
/// it passed 4 runs of 4 with two CPU hogs running since.)
#[wasm_bindgen_test]
async fn the_load_time_slider_edits_the_text_and_ends_the_crash_loop() {
    let root = mount(AppProps {
        lang: Some(Lang::En),
        text: Some(CRASH_LOOP.into()),
        ..AppProps::default()
    })
    .await;
    until("the timeline", || {
        root.query_selector("[data-testid=scrubber]")
            .ok()
            .flatten()
            .is_some()
    })
    .await;
    scrub_to(&root, 720);
    until("the crash loop", || {
        text_of(&root, "[data-testid=pod-status-0]") == "CrashLoopBackOff"
    })
    .await;
    let editor: HtmlTextAreaElement = find(&root, "[data-testid=editor]").unchecked_into();
    editor.set_selection_range(3, 7).expect("select");
    // As after a keystroke that moved the selection (keyup bubbles).
    let init = web_sys::EventInit::new();
    init.set_bubbles(true);
    editor
        .dispatch_event(
            &web_sys::Event::new_with_event_init_dict("keyup", &init).expect("an event"),
        )
        .expect("dispatch keyup");
    let slider: HtmlInputElement = find(&root, "[data-testid=slider-startup]").unchecked_into();
    assert_eq!(slider.value(), "40");
    slider.set_value("5");
    slider
        .dispatch_event(&input_event())
        .expect("dispatch input");
    until("the text to say 5s", || {
        editor.value().contains("startup: 5s")
    })
    .await;
    assert!(!editor.value().contains("startup: 40s"));
    until("the selection to be put back", || {
        editor.selection_start().ok().flatten() == Some(3)
            && editor.selection_end().ok().flatten() == Some(7)
    })
    .await;
    wait_ms(LINT_DEBOUNCE_MS + 50).await;
    until("the pod to run", || {
        text_of(&root, "[data-testid=pod-status-0]") == "Running"
    })
    .await;
    let slider: HtmlInputElement = find(&root, "[data-testid=slider-startup]").unchecked_into();
    assert_eq!(slider.value(), "5");
}

/// A CronJob every minute for two hours: 119 pods, more than the timeline
/// draws at once. The list scrolls in its own box and holds only the lanes
/// in view; scrolled to the end, it draws the last pod's lane.
#[wasm_bindgen_test]
async fn many_pods_are_drawn_only_where_the_list_is_scrolled() {
    const CRON: &str = r#"apiVersion: batch/v1
kind: CronJob
metadata: { name: batch }
spec:
  schedule: "* * * * *"
  jobTemplate:
    spec:
      template:
        spec:
          restartPolicy: Never
          containers:
            - name: main
              image: registry.example.com/report:1.0
              resources:
                limits: { memory: 4Gi }
---
apiVersion: podlab.dev/v1alpha1
kind: Scenario
metadata: { name: two-hours }
spec:
  duration: 2h
  workload:
    - container: main
      startup: 10s
      runFor: 2m
"#;
    let root = mount(AppProps {
        lang: Some(Lang::En),
        text: Some(CRON.into()),
        ..AppProps::default()
    })
    .await;
    until("the timeline", || {
        root.query_selector("[data-testid=pod-status-0]")
            .ok()
            .flatten()
            .is_some()
    })
    .await;
    let list = find(&root, ".pods.windowed");
    let drawn = || {
        root.query_selector_all("li.pod")
            .map(|l| l.length())
            .unwrap_or(0)
    };
    assert!(drawn() > 0 && drawn() < 15, "{} lanes drawn", drawn());
    assert!(root
        .query_selector("[data-testid=pod-status-118]")
        .ok()
        .flatten()
        .is_none());
    // Every lane keeps its place: the list is as tall as all of them.
    assert!(list.scroll_height() > 119 * 140, "{}", list.scroll_height());

    // Scrolled to the bottom (again, on the list as it is now: under load a
    // later render may have reset it), the last lane is drawn.
    until("the last lane", || {
        let list = find(&root, ".pods.windowed");
        list.set_scroll_top(list.scroll_height());
        list.dispatch_event(&web_sys::Event::new("scroll").expect("an event"))
            .expect("dispatch scroll");
        root.query_selector("[data-testid=pod-status-118]")
            .ok()
            .flatten()
            .is_some()
    })
    .await;
    assert!(drawn() < 15, "{} lanes drawn", drawn());
    assert!(root
        .query_selector("[data-testid=pod-status-0]")
        .ok()
        .flatten()
        .is_none());
}

/// The burst that cold starts eat: the HPA scales out at 5:30, its new pods
/// are Ready 2 min 40 s later (exercises/hpa-burst-cold-start.yaml).
const BURST: &str = include_str!("../../exercises/hpa-burst-cold-start.yaml");

#[wasm_bindgen_test]
async fn an_overload_of_an_autoscaled_workload_shows_its_chain_and_fixes() {
    let root = mount(AppProps {
        lang: Some(Lang::En),
        text: Some(BURST.into()),
        ..AppProps::default()
    })
    .await;
    until("the timeline", || {
        root.query_selector("[data-testid=timeline] [data-state]")
            .ok()
            .flatten()
            .is_some()
    })
    .await;
    scrub_to(&root, 7 * 60);
    until("the chain at 7:00", || {
        root.query_selector("[data-testid=traffic-chain]")
            .ok()
            .flatten()
            .is_some()
    })
    .await;
    let steps = find(&root, "[data-testid=traffic-chain] ol")
        .query_selector_all("li")
        .expect("valid selector");
    assert_eq!(steps.length(), 6);
    let first = steps
        .item(0)
        .and_then(|step| step.text_content())
        .unwrap_or_default();
    assert_eq!(
        first,
        "5:00 the rate rose from 20 to 90 requests/s; 1 ready replica served at most 50"
    );
    let fixes = text_of(&root, "[data-testid=traffic-fixes]");
    assert!(fixes.contains("`minReplicas: 3`"), "{fixes}");
    // Before the burst, nothing to tell.
    scrub_to(&root, 4 * 60);
    until("no chain at 4:00", || {
        root.query_selector("[data-testid=traffic-chain]")
            .ok()
            .flatten()
            .is_none()
    })
    .await;
}
