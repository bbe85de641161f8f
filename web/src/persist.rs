//! Where the page's text comes from and where it goes: the URL fragment
//! (share links, `podlab_core::share`), the browser's localStorage
//! (autosave), and the query string (`?embed=1`, `?lang=`).
//!
//! The decisions are pure functions (tested natively); the thin browser
//! calls around them ignore failures (a private window without storage, a
//! history API that refuses) because the page must keep working without them.

use podlab_core::share::{self, ShareError};

/// The localStorage key of the autosaved text.
pub const AUTOSAVE_KEY: &str = "podlab.text.v1";

/// Why the page did not open the text a link carried.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Notice {
    /// The fragment was not a podlab link or was damaged.
    CorruptLink,
    /// The link's text inflates past the limit.
    LinkTooLarge,
}

/// Where the first text came from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Source {
    Link,
    Autosave,
    Default,
}

/// The text to open: a link's fragment wins, then the autosave, then the
/// default; a bad fragment opens the default with a notice (never a blank
/// page).
pub fn initial_text(
    fragment: &str,
    saved: Option<String>,
    default: &str,
) -> (String, Source, Option<Notice>) {
    let fragment = fragment.strip_prefix('#').unwrap_or(fragment);
    if !fragment.is_empty() {
        match share::decode(fragment) {
            Ok(text) => return (text, Source::Link, None),
            Err(ShareError::TooLarge) => {
                return (
                    default.to_string(),
                    Source::Default,
                    Some(Notice::LinkTooLarge),
                )
            }
            Err(_) => {
                return (
                    default.to_string(),
                    Source::Default,
                    Some(Notice::CorruptLink),
                )
            }
        }
    }
    match saved {
        Some(text) if !text.trim().is_empty() => (text, Source::Autosave, None),
        _ => (default.to_string(), Source::Default, None),
    }
}

/// Whether the query string asks for the compact embedded layout.
pub fn is_embed(query: &str) -> bool {
    query
        .trim_start_matches('?')
        .split('&')
        .any(|pair| matches!(pair, "embed=1" | "embed=true" | "embed"))
}

/// The share link for a text on the page at `base` (the page's address
/// without its fragment), or why there is none.
pub fn link(base: &str, text: &str) -> Result<String, ShareError> {
    let base = base.split('#').next().unwrap_or(base);
    share::encode(text).map(|fragment| format!("{base}#{fragment}"))
}

/// The iframe code that embeds the text: the same link with `embed=1`.
pub fn embed_code(base: &str, text: &str) -> Result<String, ShareError> {
    let base = base.split('#').next().unwrap_or(base);
    let separator = if base.contains('?') { '&' } else { '?' };
    let fragment = share::encode(text)?;
    Ok(format!(
        "<iframe src=\"{base}{separator}embed=1#{fragment}\" width=\"100%\" height=\"720\" style=\"border:0\" loading=\"lazy\" title=\"podlab\"></iframe>"
    ))
}

/// The page's address without the fragment.
pub fn page_base() -> String {
    web_sys::window()
        .and_then(|window| window.location().href().ok())
        .map(|href| href.split('#').next().unwrap_or_default().to_string())
        .unwrap_or_default()
}

/// The current fragment (with `#`), or empty.
pub fn fragment() -> String {
    web_sys::window()
        .and_then(|window| window.location().hash().ok())
        .unwrap_or_default()
}

/// The current query string (with `?`), or empty.
pub fn query() -> String {
    web_sys::window()
        .and_then(|window| window.location().search().ok())
        .unwrap_or_default()
}

/// The autosaved text, if storage works and holds one.
pub fn load_autosave() -> Option<String> {
    let storage = web_sys::window()?.local_storage().ok()??;
    storage.get_item(AUTOSAVE_KEY).ok()?
}

/// Saves the text; silently does nothing where storage is unavailable.
pub fn autosave(text: &str) {
    if let Some(storage) =
        web_sys::window().and_then(|window| window.local_storage().ok().flatten())
    {
        let _ = storage.set_item(AUTOSAVE_KEY, text);
    }
}

/// Replaces the fragment without a new history entry (so Back leaves the
/// page instead of walking through every keystroke); an empty fragment
/// when the text is too long for a link.
pub fn write_fragment(text: &str) {
    let Some(window) = web_sys::window() else {
        return;
    };
    let fragment = share::encode(text)
        .map(|f| format!("#{f}"))
        .unwrap_or_default();
    let url = format!("{}{fragment}", page_base());
    if let Ok(history) = window.history() {
        let _ = history.replace_state_with_url(&wasm_bindgen::JsValue::NULL, "", Some(&url));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_link_wins_over_the_autosave() {
        let fragment = format!("#{}", share::encode("kind: Pod\n").expect("short"));
        let (text, source, notice) = initial_text(&fragment, Some("saved".into()), "default");
        assert_eq!(
            (text.as_str(), source, notice),
            ("kind: Pod\n", Source::Link, None)
        );
    }

    #[test]
    fn a_corrupt_link_opens_the_default_with_a_notice() {
        let (text, source, notice) = initial_text("#v1.!!!", Some("saved".into()), "default");
        assert_eq!(text, "default");
        assert_eq!(source, Source::Default);
        assert_eq!(notice, Some(Notice::CorruptLink));
        let (_, _, notice) = initial_text("#something-else", None, "default");
        assert_eq!(notice, Some(Notice::CorruptLink));
    }

    #[test]
    fn the_autosave_then_the_default() {
        assert_eq!(
            initial_text("", Some("saved".into()), "default"),
            ("saved".to_string(), Source::Autosave, None)
        );
        assert_eq!(
            initial_text("#", Some("  \n".into()), "default"),
            ("default".to_string(), Source::Default, None)
        );
    }

    #[test]
    fn embed_mode_and_links() {
        assert!(is_embed("?embed=1"));
        assert!(is_embed("?lang=zh-TW&embed=1"));
        assert!(!is_embed("?lang=en"));
        assert!(!is_embed("?embedded=1"));
        let link = link("http://127.0.0.1:8080/?lang=en#old", "kind: Pod\n").expect("short");
        assert!(
            link.starts_with("http://127.0.0.1:8080/?lang=en#v1."),
            "{link}"
        );
        let code = embed_code("http://127.0.0.1:8080/?lang=en", "kind: Pod\n").expect("short");
        assert!(
            code.contains("src=\"http://127.0.0.1:8080/?lang=en&embed=1#v1."),
            "{code}"
        );
        assert!(code.starts_with("<iframe ") && code.ends_with("</iframe>"));
    }
}
