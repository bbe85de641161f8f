//! Helpers on the playground page shared by the end-to-end test files.

use std::time::Duration;

use serde_json::{json, Value};

use crate::server::StaticServer;
use crate::webdriver::Session;

/// Loading wasm in a cold headless browser on a busy 2-core machine.
pub const PAGE_LOAD: Duration = Duration::from_secs(30);
/// The lint debounce is 150 ms; leave room for a slow machine.
pub const RELINT: Duration = Duration::from_secs(5);

/// Types `text` into the editor in place of what it held, as a person
/// would (WebDriver's clear, then the keys), and checks it arrived.
pub fn replace_editor_text(session: &Session, text: &str) {
    let editor = session
        .find("[data-testid=editor]")
        .expect("the page has an editor");
    session.clear(&editor);
    session.send_keys(&editor, text);
    assert_eq!(session.property(&editor, "value"), json!(text));
}

/// What the editor holds now.
pub fn editor_value(session: &Session) -> String {
    session
        .execute(
            "return document.querySelector('[data-testid=editor]').value;",
            json!([]),
        )
        .as_str()
        .unwrap_or_default()
        .to_owned()
}

/// The iframe code's `src` for `text` at `at`, as `podlab share --embed`
/// writes it for a page served at `base` (with its picture: `#v2.`).
pub fn embed_src(base: &str, text: &str, at: u64, lang: podlab_core::i18n::Lang) -> String {
    let options = podlab_core::share::embed::PageOptions {
        at: Some(at),
        lang: Some(lang),
        ..Default::default()
    };
    let (code, pictured) =
        podlab_core::picture::embed_code(base, text, &options).expect("fits in a link");
    assert!(pictured, "the picture fits in the link");
    code.split('"').nth(1).expect("src").to_string()
}

/// Opens `/<query>` and waits for the lint summary (the app is up).
pub fn open(session: &Session, server: &StaticServer, query: &str) {
    session.goto(&server.url(&format!("/{query}")));
    session.wait_for_element("[data-testid=summary]", PAGE_LOAD);
}

/// Waits for the diagnostics of the text on the page: the rules run in the
/// kubectl worker, which the page starts when it loads, so the list says
/// "Checking…" (`.pending`) until the worker's answer. The first answer
/// waits for the worker's download: `PAGE_LOAD`.
pub fn wait_for_lint(session: &Session) {
    session.wait_for("the worker's diagnostics", PAGE_LOAD, |session| {
        let done = session.execute(
            "const s = document.querySelector('[data-testid=summary]');\
             return !!s && !s.querySelector('.pending') && s.innerText.trim() !== '';",
            json!([]),
        );
        (done == json!(true)).then_some(())
    });
}

/// The rendered text (`innerText`) of the first element `selector`
/// matches, read in one script call: finding an element and then asking
/// for its text is two calls, and Yew may replace the element in between
/// (a new run has new pod names, so new keyed lanes): a stale element.
pub fn try_text_of(session: &Session, selector: &str) -> Option<String> {
    session
        .execute(
            "const e = document.querySelector(arguments[0]); return e ? e.innerText : null;",
            json!([selector]),
        )
        .as_str()
        // As WebDriver's element text, without surrounding white space.
        .map(|text| text.trim().to_owned())
}

pub fn text_of(session: &Session, selector: &str) -> String {
    try_text_of(session, selector).unwrap_or_else(|| panic!("nothing matches {selector}"))
}

/// Moves a range input as a drag would: sets its value and fires `input`.
pub fn slide(session: &Session, testid: &str, value: u64) {
    session.execute(
        "const s = document.querySelector('[data-testid=' + arguments[0] + ']');\
         s.value = String(arguments[1]);\
         s.dispatchEvent(new Event('input', { bubbles: true }));",
        json!([testid, value]),
    );
}

/// The element's box against the viewport: `[top, bottom, left, right,
/// innerHeight, innerWidth]`, or null when nothing matches.
pub fn rect(session: &Session, selector: &str) -> Value {
    session.execute(
        "const e = document.querySelector(arguments[0]); if (!e) return null;\
         const r = e.getBoundingClientRect();\
         return [r.top, r.bottom, r.left, r.right, innerHeight, innerWidth];",
        json!([selector]),
    )
}

/// Wholly inside the viewport, with no scrolling.
pub fn fully_in_view(session: &Session, selector: &str) -> bool {
    let r = rect(session, selector);
    let n = |i: usize| r.get(i).and_then(Value::as_f64).unwrap_or(f64::NAN);
    n(0) >= 0.0 && n(1) <= n(4) + 0.5 && n(2) >= 0.0 && n(3) <= n(5) + 0.5 && n(1) > n(0)
}

/// At least partly inside the viewport.
pub fn intersects_view(session: &Session, selector: &str) -> bool {
    let r = rect(session, selector);
    let n = |i: usize| r.get(i).and_then(Value::as_f64).unwrap_or(f64::NAN);
    n(1) > 0.0 && n(0) < n(4) && n(3) > 0.0 && n(2) < n(5)
}

pub fn top_of(session: &Session, selector: &str) -> f64 {
    rect(session, selector)
        .get(0)
        .and_then(Value::as_f64)
        .unwrap_or_else(|| panic!("nothing matches {selector}"))
}

/// Sizes the window so the page's viewport (`innerWidth` x `innerHeight`)
/// is `width` x `height`: headless Chromium's window includes room for
/// its own chrome.
pub fn set_viewport(session: &Session, width: u32, height: u32) {
    session.set_window_size(width, height);
    let inner = session.execute("return [innerWidth, innerHeight];", json!([]));
    let measured = |index: usize, wanted: u32| {
        inner[index]
            .as_u64()
            .and_then(|value| u32::try_from(value).ok())
            .unwrap_or(wanted)
    };
    session.set_window_size(
        width + width.saturating_sub(measured(0, width)),
        height + height.saturating_sub(measured(1, height)),
    );
}

/// Types `keys` in the kubectl terminal (`\n` or `keys::ENTER` runs the
/// line) and waits for its entry number `entry` to hold `expect`.
pub fn terminal_line(session: &Session, keys: &str, entry: usize, expect: &str) {
    let input = session.wait_for_element("[data-testid=terminal-input]", RELINT);
    session.send_keys(&input, keys);
    session.wait_for(expect, RELINT, |session| {
        let text = try_text_of(session, &format!("[data-testid=terminal-entry-{entry}]"))?;
        text.contains(expect).then_some(())
    });
}

/// Forgets the site's autosave (CDP, whatever page is open), so the next
/// visit of the playground shows the default text's picture.
pub fn clear_autosave(session: &Session, server: &StaticServer) {
    session.cdp(
        "Storage.clearDataForOrigin",
        json!({ "origin": server.url("/").trim_end_matches('/'), "storageTypes": "local_storage" }),
    );
}
