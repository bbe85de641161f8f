//! Issue 33 items 1-2 in the release build, in headless Chromium: the
//! terminal acts on the page. On the article's crash loop at 12 minutes,
//! `kubectl delete pod` prints kubectl's line, the action is recorded in
//! the text's Scenario (the editor shows it, the share link would carry
//! it), the timeline shows the ReplicaSet's new pod starting the same loop
//! from RESTARTS 0, and Undo takes the action out again; `kubectl patch`
//! adding a startupProbe at 12 minutes is recorded and the timeline
//! recovers from then on.

use podlab_e2e::page::{
    editor_value, open, slide, terminal_line, text_of, try_text_of, PAGE_LOAD, RELINT,
};
use podlab_e2e::server::StaticServer;
use podlab_e2e::webdriver::keys::ENTER;
use podlab_e2e::webdriver::ChromeDriver;
use podlab_e2e::{dist_dir, output_dir};

const CRASH_LOOP: &str = include_str!("../golden/crash-loop-liveness-40s.yaml");

#[test]
fn deleting_the_crash_looping_pod_is_recorded_and_the_new_pod_loops_again() {
    let server = StaticServer::start(dist_dir());
    let out = output_dir();
    let driver = ChromeDriver::start(&out);
    let session = driver.new_session(&out);
    session.set_window_size(1366, 768);
    let fragment = podlab_core::share::encode(CRASH_LOOP).expect("fits a link");
    open(&session, &server, &format!("?at=12m&lang=en#{fragment}"));
    let pods = text_of(&session, "[data-testid=pane-get]");
    assert!(pods.contains("CrashLoopBackOff"), "{pods}");
    let pod = pods
        .split_whitespace()
        .find(|word| word.starts_with("model-api-"))
        .expect("the pod")
        .to_owned();

    let switch = session.wait_for_element("[data-testid=show-terminal]", PAGE_LOAD);
    session.click(&switch);
    terminal_line(
        &session,
        &format!("kubectl delete pod {pod}{ENTER}"),
        0,
        &format!("pod \"{pod}\" deleted from default namespace"),
    );
    // Recorded in the text at the cursor's time.
    session.wait_for("the action in the text", RELINT, |session| {
        let text = editor_value(session);
        (text.contains("delete:") && text.contains(&format!("pod: {pod}"))).then_some(())
    });
    let note = text_of(&session, "[data-testid=panel-applied]");
    assert!(
        note.contains("actions") || note.contains("delete"),
        "{note}"
    );
    // The timeline's run has the ReplicaSet's replacement, looping again:
    // at the end it has restarted, fewer times than the deleted pod had.
    session.wait_for("the replacement in get pods", PAGE_LOAD, |session| {
        let pods = try_text_of(session, "[data-testid=pane-get]")?;
        pods.lines()
            .any(|line| line.starts_with("model-api-") && !line.starts_with(&pod))
            .then_some(())
    });
    session.screenshot(&out.join("acting-delete-1366x768-en.png"));

    // Undo takes the action out.
    let undo = session.find("[data-testid=panel-undo]").expect("Undo");
    session.click(&undo);
    session.wait_for("the text as it was", RELINT, |session| {
        (editor_value(session) == CRASH_LOOP).then_some(())
    });
}

/// The issue's Done-when in the page: a startupProbe patched in at 12 m
/// (`kubectl patch`, recorded as the Scenario's `patch`) leaves the loop
/// before 12 m as it was; at 14 m `get pods` shows the new ReplicaSet's
/// pod Running, Ready, RESTARTS 0, and the looping one gone.
#[test]
fn a_patched_startup_probe_at_12m_recovers_the_timeline_from_then_on() {
    let server = StaticServer::start(dist_dir());
    let out = output_dir();
    let driver = ChromeDriver::start(&out);
    let session = driver.new_session(&out);
    session.set_window_size(1366, 768);
    let fragment = podlab_core::share::encode(CRASH_LOOP).expect("fits a link");
    open(&session, &server, &format!("?at=12m&lang=en#{fragment}"));
    let pods = text_of(&session, "[data-testid=pane-get]");
    let pod = pods
        .split_whitespace()
        .find(|word| word.starts_with("model-api-"))
        .expect("the pod")
        .to_owned();
    let switch = session.wait_for_element("[data-testid=show-terminal]", PAGE_LOAD);
    session.click(&switch);
    let patch = r#"kubectl patch deployment model-api -p '{"spec":{"template":{"spec":{"containers":[{"name":"api","startupProbe":{"httpGet":{"path":"/health","port":8000},"failureThreshold":30}}]}}}}'"#;
    terminal_line(
        &session,
        &format!("{patch}{ENTER}"),
        0,
        "deployment.apps/model-api patched",
    );
    session.wait_for("the patch in the text", RELINT, |session| {
        let text = editor_value(session);
        (text.contains("patch: { deployment: model-api") && text.contains("startupProbe"))
            .then_some(())
    });
    // At 14 m the new pod is Ready with no restart; the old one is gone.
    slide(&session, "scrubber", 840);
    let rows = session.wait_for("the new pod Ready", PAGE_LOAD, |session| {
        let pods = try_text_of(session, "[data-testid=pane-get]")?;
        let rows: Vec<String> = pods
            .lines()
            .filter(|line| line.starts_with("model-api-"))
            .map(str::to_owned)
            .collect();
        (rows.len() == 1 && !rows[0].starts_with(&pod)).then_some(rows)
    });
    let cells: Vec<&str> = rows[0].split_whitespace().collect();
    assert_eq!(
        cells.get(1..4),
        Some(&["1/1", "Running", "0"][..]),
        "{rows:?}"
    );
    session.screenshot(&out.join("acting-patch-1366x768-en.png"));
}

/// A recorded action that does nothing at its time (here an undo with no
/// earlier revision) is listed under the editor with the lint's
/// diagnostics, at its line and column, and counted in the summary.
#[test]
fn an_action_that_did_nothing_is_listed_with_its_line() {
    let server = StaticServer::start(dist_dir());
    let out = output_dir();
    let driver = ChromeDriver::start(&out);
    let session = driver.new_session(&out);
    session.set_window_size(1366, 768);
    let text = format!(
        "{}  actions:\n    - {{ at: 5m, undo: {{ deployment: model-api }} }}\n",
        CRASH_LOOP
    );
    let fragment = podlab_core::share::encode(&text).expect("fits a link");
    open(&session, &server, &format!("?lang=en#{fragment}"));
    let line = text.lines().count();
    let row = session.wait_for("the action's row", RELINT, |session| {
        try_text_of(session, "[data-testid=diagnostics] [data-rule=actions]")
    });
    assert!(row.contains("no other revision"), "{row}");
    assert!(row.contains(&format!("line {line}, column 37")), "{row}");
    // The lint's warnings and this one.
    let warnings = podlab_core::lint::lint(&text)
        .diagnostics
        .iter()
        .filter(|d| d.severity == podlab_core::diagnostic::Severity::Warning)
        .count();
    let summary = text_of(&session, "[data-testid=summary]");
    assert!(
        summary.contains(&format!(" {} warning", warnings + 1)),
        "{summary}"
    );
    session.screenshot(&out.join("action-error-1366x768-en.png"));
    // In Chinese on a phone: the same row, in the page's language.
    session.set_window_size(390, 844);
    open(&session, &server, &format!("?lang=zh-TW#{fragment}"));
    let row = session.wait_for("the action's row in zh-TW", RELINT, |session| {
        try_text_of(session, "[data-testid=diagnostics] [data-rule=actions]")
    });
    assert!(row.contains("沒有其他可以回復的 revision"), "{row}");
    session.execute(
        "document.querySelector('[data-testid=diagnostics] [data-rule=actions]').scrollIntoView();",
        serde_json::json!([]),
    );
    session.screenshot(&out.join("action-error-390-zh-TW.png"));
}

/// `kubectl label node` in the page's terminal (issue 33's last part): a
/// pod Pending on its nodeSelector schedules from the label's time. At
/// 2 m the node gets the label; the action lands in the text and at 5 m
/// `get pods` shows the pod Running (it was Pending at 2 m).
#[test]
fn labelling_the_node_in_the_terminal_schedules_the_pending_pod() {
    const PENDING: &str = "apiVersion: apps/v1\nkind: Deployment\nmetadata: { name: trainer }\nspec:\n  replicas: 1\n  selector: { matchLabels: { app: trainer } }\n  template:\n    metadata:\n      labels: { app: trainer }\n    spec:\n      nodeSelector: { accelerator: nvidia-a100 }\n      containers:\n        - name: train\n          image: registry.example.com/trainer:1.0\n---\napiVersion: podlab.dev/v1alpha1\nkind: Scenario\nmetadata: { name: labels }\nspec:\n  workload:\n    - container: train\n      startup: 10s\n  cluster:\n    nodePools:\n      - name: gpu\n        count: 1\n        cpu: \"8\"\n        memory: 32Gi\n";
    let server = StaticServer::start(dist_dir());
    let out = output_dir();
    let driver = ChromeDriver::start(&out);
    let session = driver.new_session(&out);
    session.set_window_size(1366, 768);
    let fragment = podlab_core::share::encode(PENDING).expect("fits a link");
    open(&session, &server, &format!("?at=2m&lang=en#{fragment}"));
    let pods = text_of(&session, "[data-testid=pane-get]");
    assert!(pods.contains("Pending"), "{pods}");
    let switch = session.wait_for_element("[data-testid=show-terminal]", PAGE_LOAD);
    session.click(&switch);
    terminal_line(
        &session,
        &format!("kubectl label node gpu-0 accelerator=nvidia-a100{ENTER}"),
        0,
        "node/gpu-0 labeled",
    );
    session.wait_for("the label in the text", RELINT, |session| {
        let text = editor_value(session);
        (text.contains("label:") && text.contains("node: gpu-0") && text.contains("nvidia-a100"))
            .then_some(())
    });
    slide(&session, "scrubber", 300);
    session.wait_for("the pod Running", PAGE_LOAD, |session| {
        let pods = try_text_of(session, "[data-testid=pane-get]")?;
        pods.lines()
            .any(|line| line.starts_with("trainer-") && line.contains("Running"))
            .then_some(())
    });
    session.screenshot(&out.join("acting-label-node-1366x768-en.png"));
}
