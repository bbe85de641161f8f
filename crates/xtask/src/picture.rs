//! `cargo xtask picture`: the playground's first screen for the default
//! text, drawn at build time into `web/picture/default.html` (both
//! languages; `web/facade-head.js` shows the reader's), which Trunk inlines
//! into the page's HTML (issue 28: a true timeline before the engine is
//! in). `cargo xtask test` fails while the committed file is not what the
//! current core draws, so it never shows a stale timeline.

use std::path::Path;

use anyhow::{bail, Context, Result};
use podlab_core::i18n::Lang;

/// Where the picture lives, from the workspace root.
pub const PATH: &str = "web/picture/default.html";
/// The default text the page opens with (`web/src/state.rs`).
const DEFAULT_TEXT: &str = include_str!("../../../web/src/default.yaml");

/// The file's content: one picture per language, each marked with it.
pub fn render() -> String {
    let mut out = String::from(
        "<!-- Made by `cargo xtask picture` from web/src/default.yaml: do not edit. -->\n",
    );
    for lang in [Lang::En, Lang::ZhTw] {
        out.push_str(&format!(
            "<div class=\"facade-default\" data-lang=\"{}\">{}</div>\n",
            lang.code(),
            podlab_core::picture::playground_page(DEFAULT_TEXT, lang)
        ));
    }
    out
}

/// Writes the file.
pub fn write(root: &Path) -> Result<()> {
    let path = root.join(PATH);
    std::fs::write(&path, render()).with_context(|| format!("writing {}", path.display()))?;
    println!("wrote {}", path.display());
    Ok(())
}

/// Fails when the committed file differs from what the core draws now.
pub fn check(root: &Path) -> Result<()> {
    let path = root.join(PATH);
    let committed =
        std::fs::read_to_string(&path).with_context(|| format!("reading {}", path.display()))?;
    if committed != render() {
        bail!(
            "{} is not the picture the current core draws of the default text: run `cargo xtask picture` and commit it",
            path.display()
        );
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_committed_picture_is_what_the_core_draws() {
        let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
        check(&root).expect("current picture");
    }

    #[test]
    fn it_shows_the_default_deployment_ready_in_both_languages() {
        let picture = render();
        assert_eq!(picture.matches("class=\"facade-default\"").count(), 2);
        assert!(picture.contains("data-testid=\"pod-status-0\">Running</span>"));
        assert!(picture.contains("播放") && picture.contains(">Play</button>"));
    }
}
