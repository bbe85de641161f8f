//! The words of the playground page that `podlab_core::i18n::ui` does not
//! already have, in English and Traditional Chinese (Taiwan) side by side.
//!
//! Every string the page shows comes from here or from the core, so switching
//! the language only re-renders; nothing is linted again. The Chinese follows
//! `shared/GLOSSARY-zh-TW.md`.

use podlab_core::i18n::{Lang, Text};
use podlab_core::text;

pub use crate::i18n_controls::*;

pub fn title() -> Text {
    Text::new("podlab playground", "podlab 練習場")
}

pub fn tagline() -> Text {
    Text::new(
        "Lint Kubernetes ML workloads in your browser: nothing leaves this page.",
        "在瀏覽器裡檢查 Kubernetes ML 工作負載：內容不會離開這個頁面。",
    )
}

pub fn editor_label() -> Text {
    Text::new(
        "Manifests and Scenario (YAML)",
        "Manifest 與 Scenario（YAML）",
    )
}

pub fn diagnostics_heading() -> Text {
    Text::new("Diagnostics", "診斷")
}

/// Shown while an edit waits for the debounced lint.
pub fn checking() -> Text {
    Text::new("Checking…", "檢查中…")
}

/// The label of the per-diagnostic fix button.
pub fn fix_button() -> Text {
    Text::new("Fix", "修正")
}

/// The tooltip of the fix button: what the fix will do.
pub fn apply_fix(description: &Text) -> Text {
    let (en, zh) = (&description.en, &description.zh_tw);
    text!("Apply fix: {en}", "套用修正：{zh}")
}

/// The language toggle names the language it switches *to*, in that language,
/// so a reader who cannot read the current one still finds it.
pub fn switch_language(current: Lang) -> Text {
    match current {
        Lang::En => Text::new("中文", "中文"),
        Lang::ZhTw => Text::new("English", "English"),
    }
}

pub fn language() -> Text {
    Text::new("Language", "語言")
}

/// The page's message when the app itself panicked (a bug in podlab); shown
/// in both languages at once, since the chosen language may be lost with it.
pub fn crashed() -> Text {
    Text::new(
        "podlab stopped because of an internal error. Reload the page; if it happens again, please report it with the text you were editing.",
        "podlab 發生內部錯誤而停止。請重新整理頁面；若再次發生，請附上你正在編輯的內容回報問題。",
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn apply_fix_keeps_each_language_with_its_own_description() {
        let description = Text::new("add a startupProbe", "加上 startupProbe");
        let tooltip = apply_fix(&description);
        assert_eq!(tooltip.en, "Apply fix: add a startupProbe");
        assert_eq!(tooltip.zh_tw, "套用修正：加上 startupProbe");
    }

    #[test]
    fn every_page_word_exists_in_both_languages() {
        for text in [
            title(),
            tagline(),
            editor_label(),
            diagnostics_heading(),
            checking(),
            fix_button(),
            language(),
            crashed(),
            switch_language(Lang::En),
            switch_language(Lang::ZhTw),
        ] {
            assert!(!text.en.is_empty() && !text.zh_tw.is_empty(), "{text:?}");
        }
    }
}
