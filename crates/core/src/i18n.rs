//! The two languages podlab speaks, and text that exists in both.
//!
//! Every string a person reads is built as a [`Text`] holding English and
//! Traditional Chinese (Taiwan) side by side, so switching the language never
//! re-runs lint or simulation, and no message can exist in one language only.
//! The Chinese follows `shared/GLOSSARY-zh-TW.md`: Taiwan vocabulary,
//! Kubernetes names and field names in English, full-width punctuation.

use std::fmt;

/// A language of the interface.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Lang {
    #[default]
    En,
    ZhTw,
}

impl Lang {
    /// Parses `en`, `zh-TW` (also `zh_TW`, `zh-Hant`, `zh`), case-insensitively.
    pub fn parse(code: &str) -> Option<Lang> {
        let lower = code.trim().to_ascii_lowercase().replace('_', "-");
        if lower == "en" || lower.starts_with("en-") {
            Some(Lang::En)
        } else if lower == "zh" || lower.starts_with("zh-") {
            Some(Lang::ZhTw)
        } else {
            None
        }
    }

    /// The BCP 47 tag (`en`, `zh-TW`).
    pub fn code(self) -> &'static str {
        match self {
            Lang::En => "en",
            Lang::ZhTw => "zh-TW",
        }
    }
}

/// One piece of text in both languages.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Text {
    pub en: String,
    pub zh_tw: String,
}

impl Text {
    pub fn new(en: impl Into<String>, zh_tw: impl Into<String>) -> Text {
        Text {
            en: en.into(),
            zh_tw: zh_tw.into(),
        }
    }

    pub fn get(&self, lang: Lang) -> &str {
        match lang {
            Lang::En => &self.en,
            Lang::ZhTw => &self.zh_tw,
        }
    }

    pub fn is_empty(&self) -> bool {
        self.en.is_empty() && self.zh_tw.is_empty()
    }

    /// What `text!` calls: one out-of-line formatting routine for all of
    /// its ~350 call sites (`format!` inlines its fast path at each one,
    /// which cost the web build tens of KB).
    #[inline(never)]
    pub fn from_args(en: fmt::Arguments<'_>, zh_tw: fmt::Arguments<'_>) -> Text {
        Text {
            en: fmt::format(en),
            zh_tw: fmt::format(zh_tw),
        }
    }
}

impl fmt::Display for Text {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.en)
    }
}

/// Builds a [`Text`] from two format strings sharing the same arguments:
/// `text!("limit {x}", "上限 {x}")`.
#[macro_export]
macro_rules! text {
    ($en:literal, $zh:literal $(,)?) => {
        $crate::i18n::Text::from_args(format_args!($en), format_args!($zh))
    };
}

/// Words of the interface shared by the CLI and the web page.
pub mod ui {
    use super::Text;

    pub fn help() -> Text {
        Text::new("help", "建議")
    }

    pub fn fix() -> Text {
        Text::new("fix", "修正")
    }

    pub fn line_column(line: usize, column: usize) -> Text {
        text!(
            "line {line}, column {column}",
            "第 {line} 行，第 {column} 欄"
        )
    }

    pub fn summary(errors: usize, warnings: usize, infos: usize) -> Text {
        text!(
            "{errors} error(s), {warnings} warning(s), {infos} info",
            "{errors} 個錯誤，{warnings} 個警告，{infos} 則資訊"
        )
    }

    pub fn no_problems() -> Text {
        Text::new("No problems found.", "沒有發現問題。")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn language_codes_parse_loosely() {
        assert_eq!(Lang::parse("zh-TW"), Some(Lang::ZhTw));
        assert_eq!(Lang::parse("zh_tw"), Some(Lang::ZhTw));
        assert_eq!(Lang::parse("en-US"), Some(Lang::En));
        assert_eq!(Lang::parse("fr"), None);
    }
}
