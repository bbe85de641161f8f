//! Issue 31 item 4 in the release build, in headless Chromium: "From my
//! cluster" (`?cluster`). The playground links it; the example (the
//! article's crash loop as `kubectl describe pod` prints it at 12 minutes)
//! is answered `liveness-kills-slow-start` with its evidence lines marked in
//! the paste and one click from each; a real paste from a public thread is
//! answered with its thread's cause; the replay opens in the playground at
//! the paste's age, showing the pasted STATUS and RESTARTS; Back finds the
//! paste again; the page speaks zh-TW. Screenshots go to target/e2e/.

use podlab_e2e::page::{editor_value, text_of, try_text_of, PAGE_LOAD, RELINT};
use podlab_e2e::server::StaticServer;
use podlab_e2e::webdriver::{ChromeDriver, Session};
use podlab_e2e::{dist_dir, output_dir};
use serde_json::json;

/// A paste from kubernetes/kubernetes#80466 (the Secret is created after
/// the Job): kubectl ≤ 1.19's `kubelet, <node>` From column.
const MISSING_SECRET: &str =
    include_str!("../../crates/core/tests/fixtures/paste/kubernetes-80466.txt");

/// Waits until the answer names `kind`.
fn wait_for_kind(session: &Session, kind: &str) {
    session.wait_for(&format!("the answer {kind}"), PAGE_LOAD, |session| {
        (try_text_of(session, "[data-testid=paste-kind]")? == kind).then_some(())
    });
}

/// Sets the paste as a paste does (one input event with the whole text).
fn paste(session: &Session, text: &str) {
    session.execute(
        "const t = document.querySelector('[data-testid=editor]');\
         t.focus(); t.value = arguments[0];\
         t.dispatchEvent(new Event('input', { bubbles: true }));",
        json!([text]),
    );
}

#[test]
fn a_paste_from_a_cluster_is_diagnosed_marked_and_replayed() {
    let server = StaticServer::start(dist_dir());
    let out = output_dir();
    let driver = ChromeDriver::start(&out);
    let session = driver.new_session(&out);
    session.set_window_size(1366, 768);

    // The playground links it, in the reader's language.
    session.goto(&server.url("/?lang=en"));
    let link = session.wait_for_element("[data-testid=to-cluster]", PAGE_LOAD);
    assert_eq!(session.text(&link), "From my cluster");
    session.click(&link);
    session.wait_for_element("[data-testid=from-cluster]", PAGE_LOAD);
    assert!(
        text_of(&session, "[data-testid=paste-answer]").contains("appears here"),
        "nothing pasted, nothing answered"
    );

    // The example: the seed's crash loop at 12 minutes.
    let example = session
        .find("[data-testid=paste-example]")
        .expect("the example button");
    session.click(&example);
    wait_for_kind(&session, "liveness-kills-slow-start");
    let pasted = editor_value(&session);
    assert!(pasted.starts_with("$ kubectl describe pod model-api-"));
    let evidence = text_of(&session, "[data-testid=paste-evidence]");
    assert!(evidence.contains("Liveness probe failed"), "{evidence}");
    assert!(
        evidence.contains("Back-off restarting failed container"),
        "{evidence}"
    );
    assert!(text_of(&session, "[data-testid=paste-fix]").contains("startupProbe"));
    // Each evidence line is the paste's line of that number, and marked in
    // the paste's editor.
    let lines = session.execute(
        "return [...document.querySelectorAll('.evidence-line')].map(b => Number(b.dataset.line));",
        json!([]),
    );
    let lines: Vec<usize> = serde_json::from_value(lines).expect("line numbers");
    assert!(lines.len() >= 2, "{lines:?}");
    let marked = session.execute(
        "return [...document.querySelectorAll('[data-testid=changed-lines]')].map(b => b.dataset.lines);",
        json!([]),
    );
    for line in &lines {
        assert!(
            marked
                .as_array()
                .is_some_and(|all| all.contains(&json!(format!("{line}-{line}")))),
            "line {line} marked: {marked}"
        );
    }
    // A click on an evidence line selects it in the paste.
    let last = *lines.last().expect("a line");
    session.execute(
        "document.querySelector('.evidence-line[data-line=\"' + arguments[0] + '\"]').click();",
        json!([last]),
    );
    let selected = session.execute(
        "const t = document.querySelector('[data-testid=editor]');\
         return t.value.slice(t.selectionStart, t.selectionEnd);",
        json!([]),
    );
    assert_eq!(
        selected.as_str(),
        pasted.lines().nth(last - 1),
        "line {last} selected"
    );
    session.screenshot(&out.join("cluster-1366x768-en.png"));

    // The replay: the playground at the paste's age shows what was pasted.
    let replay = session
        .find("[data-testid=open-replay]")
        .expect("a replay link");
    assert!(session
        .text(&replay)
        .starts_with("Open the replay in the playground at 12m"));
    session.click(&replay);
    session.wait_for("the replay's get pods", PAGE_LOAD, |session| {
        let pods = try_text_of(session, "[data-testid=pane-get]")?;
        let row: Vec<String> = pods
            .lines()
            .find(|line| line.starts_with("model-api-"))?
            .split_whitespace()
            .map(str::to_owned)
            .collect();
        (row.get(1..4) == Some(&["0/1".into(), "CrashLoopBackOff".into(), "7".into()][..]))
            .then_some(())
    });

    // Back: the paste is still there, answered again.
    session.back();
    wait_for_kind(&session, "liveness-kills-slow-start");
    assert_eq!(editor_value(&session), pasted);

    // A real paste nobody here wrote gets its thread's cause.
    paste(&session, MISSING_SECRET);
    wait_for_kind(&session, "missing-config");
    assert!(text_of(&session, "[data-testid=paste-fix]").contains("kubectl create secret"));

    // In zh-TW.
    let toggle = session
        .find("[data-testid=lang]")
        .expect("the language button");
    session.click(&toggle);
    session.wait_for("the page in zh-TW", RELINT, |session| {
        text_of(session, "[data-testid=from-cluster] h2")
            .contains("從我的叢集")
            .then_some(())
    });
    assert!(text_of(&session, "[data-testid=paste-answer]").contains("診斷"));
    session.screenshot(&out.join("cluster-1366x768-zh-TW.png"));
    for (width, height) in [(390, 844), (700, 560)] {
        session.set_window_size(width, height);
        session.screenshot(&out.join(format!("cluster-{width}x{height}-zh-TW.png")));
    }
}
