//! Helpers on the playground page shared by the end-to-end test files.

use std::time::Duration;

use serde_json::json;

use crate::server::StaticServer;
use crate::webdriver::Session;

/// Loading wasm in a cold headless browser on a busy 2-core machine.
pub const PAGE_LOAD: Duration = Duration::from_secs(30);
/// The lint debounce is 150 ms; leave room for a slow machine.
pub const RELINT: Duration = Duration::from_secs(5);

/// Opens `/<query>` and waits for the lint summary (the app is up).
pub fn open(session: &Session, server: &StaticServer, query: &str) {
    session.goto(&server.url(&format!("/{query}")));
    session.wait_for_element("[data-testid=summary]", PAGE_LOAD);
}

pub fn text_of(session: &Session, selector: &str) -> String {
    let element = session
        .find(selector)
        .unwrap_or_else(|| panic!("nothing matches {selector}"));
    session.text(&element)
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
