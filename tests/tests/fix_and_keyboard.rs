//! Issue 30 in the release build, in headless Chromium: the fix applied
//! where the diagnosis is (the page and an embed's diagnosis tab), what it
//! changed marked in the editor and undone in one click; the keyboard in
//! the editor and the terminal. Screenshots go to target/e2e/.

use podlab_e2e::page::{
    editor_value, open, replace_editor_text, text_of, top_of, try_text_of, wait_for_lint,
    PAGE_LOAD, RELINT,
};
use podlab_e2e::server::StaticServer;
use podlab_e2e::webdriver::{ChromeDriver, Session};
use podlab_e2e::{dist_dir, output_dir};
use serde_json::json;
use std::time::Duration;

const CRASH_LOOP: &str = include_str!("../../tests/golden/crash-loop-liveness-40s.yaml");

/// The card says the pod is fine, and `get pods` shows no restart.
fn wait_for_healthy(session: &Session) {
    session.wait_for("the pod healthy, no restarts", RELINT, |session| {
        let card = try_text_of(session, "[data-testid=diagnosis]")?;
        let pods = try_text_of(session, "[data-testid=pane-get]")?;
        let row = pods
            .lines()
            .find(|line| line.starts_with("model-api-"))?
            .split_whitespace()
            .map(str::to_owned)
            .collect::<Vec<_>>();
        (card.contains("Nothing wrong with") && row.get(3).map(String::as_str) == Some("0"))
            .then_some(())
    });
}

#[test]
fn the_fix_is_applied_from_the_diagnosis_shows_what_changed_and_undoes() {
    let server = StaticServer::start(dist_dir());
    let out = output_dir();
    let driver = ChromeDriver::start(&out);
    let session = driver.new_session(&out);
    session.set_window_size(1366, 768);
    open(&session, &server, "?lang=en");
    wait_for_lint(&session);
    replace_editor_text(&session, CRASH_LOOP);
    let apply = session.wait_for_element("[data-testid=diagnosis-apply]", RELINT);
    let title = session.property(&apply, "title");
    assert!(
        title
            .as_str()
            .is_some_and(|title| title.starts_with("Apply fix: ")),
        "{title}"
    );
    // Bring the button into view as a reader would, then apply from it.
    session.execute(
        "document.querySelector('[data-testid=diagnosis-apply]').scrollIntoView({block: 'center'});",
        json!([]),
    );
    let before_top = top_of(&session, "[data-testid=diagnosis]");
    session.click(&apply);
    wait_for_healthy(&session);
    let note = session.wait_for("the note of the fix", RELINT, |session| {
        try_text_of(session, "[data-testid=fix-applied]")
    });
    assert!(
        note.starts_with("Applied: +") && note.contains("startupProbe") && note.ends_with("Undo"),
        "{note}"
    );
    // The page did not jump: the card is where it was on the screen (the
    // legend above it shrank: the page scrolled by as much).
    // The note stands at the card's foot, where the pressed button was.
    assert!(podlab_e2e::page::intersects_view(
        &session,
        "[data-testid=fix-applied]"
    ));
    let after_top = top_of(&session, "[data-testid=diagnosis]");
    assert!(
        (after_top - before_top).abs() < 1.0,
        "{before_top} -> {after_top}"
    );
    // The focus moved from the pressed button (gone with the problem) to
    // Undo: in the frames that follow the note's render (the card moves it
    // at each render of its two pinned frames), so it is awaited.
    session.wait_for("the focus on Undo", Duration::from_secs(3), |session| {
        let focused = session.execute(
            "return document.activeElement && document.activeElement.dataset.testid;",
            json!([]),
        );
        (focused == json!("fix-undo")).then_some(())
    });
    // The lines the fix wrote are marked in the editor: the startupProbe's.
    let marked = session.execute(
        "return [...document.querySelectorAll('.gutter .ln.changed')].map(l => +l.dataset.line);",
        json!([]),
    );
    let fixed = editor_value(&session);
    let probe_line = fixed
        .lines()
        .position(|line| line.trim_start().starts_with("startupProbe:"))
        .expect("the fix adds a startupProbe")
        + 1;
    let marked: Vec<u64> = marked
        .as_array()
        .map(|lines| lines.iter().filter_map(serde_json::Value::as_u64).collect())
        .unwrap_or_default();
    assert!(
        marked.contains(&(probe_line as u64)),
        "{marked:?} vs line {probe_line}"
    );
    assert!(session.find("[data-testid=changed-lines]").is_some());
    session.screenshot(&out.join("fix-applied-1366.png"));

    // Undo: the learner's text, whole; the note and marks gone.
    let undo = session.find("[data-testid=fix-undo]").expect("Undo");
    session.click(&undo);
    session.wait_for_element("[data-testid=diagnosis-apply]", RELINT);
    assert_eq!(editor_value(&session), CRASH_LOOP);
    assert!(session.find("[data-testid=fix-applied]").is_none());
    assert!(session.find(".gutter .ln.changed").is_none());

    // The note lasts until the next edit, in the page's language.
    session.click(&session.find("[data-testid=lang]").expect("the toggle"));
    let apply = session.wait_for_element("[data-testid=diagnosis-apply]", RELINT);
    assert_eq!(session.text(&apply), "套用修正");
    session.click(&apply);
    let note = session.wait_for("the note in Chinese", RELINT, |session| {
        try_text_of(session, "[data-testid=fix-applied]")
    });
    assert!(
        note.starts_with("已套用：新增") && note.ends_with("復原"),
        "{note}"
    );
    let editor = session.find("[data-testid=editor]").expect("the editor");
    session.send_keys(&editor, "#");
    session.wait_for("the note to go with the edit", RELINT, |session| {
        session
            .find("[data-testid=fix-applied]")
            .is_none()
            .then_some(())
    });
}

#[test]
fn an_embeds_diagnosis_tab_applies_the_fix() {
    let server = StaticServer::start(dist_dir());
    let out = output_dir();
    let driver = ChromeDriver::start(&out);
    let session = driver.new_session(&out);
    session.set_window_size(700, 560);
    let fragment = podlab_core::share::encode(CRASH_LOOP).expect("the crash loop fits a link");
    open(
        &session,
        &server,
        &format!("?embed=1&view=diagnosis&at=12m&lang=en#{fragment}"),
    );
    let apply = session.wait_for_element("[data-testid=diagnosis-apply]", PAGE_LOAD);
    assert!(text_of(&session, "[data-testid=diagnosis]").contains("liveness"));
    session.click(&apply);
    let note = session.wait_for("the note of the fix", RELINT, |session| {
        try_text_of(session, "[data-testid=fix-applied]")
    });
    assert!(note.contains("startupProbe"), "{note}");
    session.wait_for("the embed's pod healthy at 12:00", RELINT, |session| {
        try_text_of(session, "[data-testid=diagnosis]")
            .filter(|card| card.contains("Nothing wrong"))
    });
    session.screenshot(&out.join("fix-embed-700.png"));
}

fn active_testid(session: &Session) -> serde_json::Value {
    session.execute(
        "return document.activeElement && document.activeElement.dataset.testid || null;",
        json!([]),
    )
}

/// Issue 30 item 5: "Terminal" puts the caret on its line; Tab completes,
/// Esc then Tab leaves (the hint under the line says so), Tab on an empty
/// line moves on; `kubeclt` gets what bash prints and a "did you mean";
/// the editor's first Tab after reaching it moves on, changing nothing.
#[test]
fn the_keyboard_leaves_the_terminal_and_the_editor_as_the_hints_say() {
    use podlab_e2e::webdriver::keys::{ENTER, ESCAPE, TAB};
    let server = StaticServer::start(dist_dir());
    let out = output_dir();
    let driver = ChromeDriver::start(&out);
    let session = driver.new_session(&out);
    session.set_window_size(1366, 768);
    open(&session, &server, "?lang=en");
    wait_for_lint(&session);

    // The editor, reached with the keyboard: its first Tab moves on.
    let before = editor_value(&session);
    let editor = session.find("[data-testid=editor]").expect("the editor");
    session.execute(
        "document.querySelector('[data-testid=editor]').focus();",
        json!([]),
    );
    session.send_keys(&editor, TAB);
    assert_ne!(active_testid(&session), json!("editor"));
    assert_eq!(editor_value(&session), before, "the text is unchanged");
    assert!(text_of(&session, "#editor-hint").contains("press Esc, then Tab"));
    // Clicked into (a real mousedown, focus, click), the editor's Tab indents.
    session.click(&editor);
    session.send_keys(&editor, TAB);
    assert_eq!(active_testid(&session), json!("editor"));
    assert_ne!(editor_value(&session), before, "the click's Tab indents");

    let show = session
        .find("[data-testid=show-terminal]")
        .expect("the switch");
    session.click(&show);
    session.wait_for("the caret on the terminal's line", RELINT, |session| {
        (active_testid(session) == json!("terminal-input")).then_some(())
    });
    let keys = text_of(&session, "[data-testid=terminal-keys]");
    assert!(keys.contains("press Esc, then Tab"), "{keys}");
    let input = session
        .find("[data-testid=terminal-input]")
        .expect("the line");
    session.send_keys(&input, &format!("kubeclt get pods{ENTER}"));
    let entry = session.wait_for("the shell's answer", PAGE_LOAD, |session| {
        try_text_of(session, "[data-testid=terminal-entry-0]")
    });
    assert!(
        entry.contains("bash: kubeclt: command not found"),
        "{entry}"
    );
    assert!(entry.contains("did you mean `kubectl`?"), "{entry}");

    // Tab completes a pod's name and keeps the focus.
    session.send_keys(&input, &format!("kubectl describe pod m{TAB}"));
    let line = session.property(&input, "value");
    assert!(
        line.as_str()
            .is_some_and(|line| line.starts_with("kubectl describe pod model-api-")),
        "{line}"
    );
    assert_eq!(active_testid(&session), json!("terminal-input"));
    // Esc, then Tab: the focus goes on, to the completions after the line
    // or past them.
    session.send_keys(&input, &format!("{ESCAPE}{TAB}"));
    assert_ne!(active_testid(&session), json!("terminal-input"));
    // An empty line lets Tab through at once.
    session.execute(
        "document.querySelector('[data-testid=terminal-input]').focus();",
        json!([]),
    );
    session.execute(
        "const i = document.querySelector('[data-testid=terminal-input]'); i.value = ''; i.dispatchEvent(new InputEvent('input', {bubbles: true}));",
        json!([]),
    );
    session.send_keys(&input, TAB);
    assert_ne!(active_testid(&session), json!("terminal-input"));
    session.screenshot(&out.join("terminal-keys-1366.png"));
}
