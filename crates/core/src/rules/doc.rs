//! A rule's documentation as plain text (`podlab rules PL201`), in either
//! language, with the four headings every rule has.

use super::{Rule, Words, RULES};
use crate::i18n::Lang;

pub const WHAT: Words = Words {
    en: "What it checks",
    zh_tw: "檢查什麼",
};
pub const WHY: Words = Words {
    en: "Why it bites ML workloads",
    zh_tw: "為什麼 ML 工作負載特別容易踩到",
};
pub const EXAMPLE: Words = Words {
    en: "Example (reported)",
    zh_tw: "範例（會被回報）",
};
pub const FIXED: Words = Words {
    en: "Example (fixed)",
    zh_tw: "範例（修正後）",
};
pub const FIX: Words = Words {
    en: "Fix",
    zh_tw: "修正方式",
};
pub const SCENARIO_AWARE: Words = Words {
    en: "Reads the Scenario (or its defaults).",
    zh_tw: "會讀取 Scenario（沒有時使用預設值）。",
};

fn indented(text: &str) -> String {
    text.lines()
        .map(|line| {
            if line.is_empty() {
                String::new()
            } else {
                format!("    {line}")
            }
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// The full documentation of one rule.
pub fn render(rule: &Rule, lang: Lang) -> String {
    let mut out = format!(
        "{} {} ({})\n{}\n",
        rule.id,
        rule.name,
        rule.severity.word().get(lang),
        rule.summary.get(lang)
    );
    if rule.scenario_aware {
        out.push_str(SCENARIO_AWARE.get(lang));
        out.push('\n');
    }
    for (heading, body) in [(WHAT, rule.what), (WHY, rule.why)] {
        out.push_str(&format!("\n## {}\n{}\n", heading.get(lang), body.get(lang)));
    }
    out.push_str(&format!(
        "\n## {}\n{}\n",
        EXAMPLE.get(lang),
        indented(rule.failing)
    ));
    out.push_str(&format!(
        "\n## {}\n{}\n",
        FIXED.get(lang),
        indented(rule.fixed)
    ));
    out.push_str(&format!("\n## {}\n{}\n", FIX.get(lang), rule.fix.get(lang)));
    out
}

/// One line per rule: ID, severity, name, summary.
pub fn render_list(lang: Lang) -> String {
    let width = RULES.iter().map(|rule| rule.name.len()).max().unwrap_or(0);
    let severity_width = RULES
        .iter()
        .map(|rule| rule.severity.word().get(lang).chars().count())
        .max()
        .unwrap_or(0);
    let mut out = String::new();
    for rule in RULES {
        let severity = rule.severity.word();
        let severity = severity.get(lang);
        let pad = severity_width - severity.chars().count();
        out.push_str(&format!(
            "{}  {severity}{}  {:width$}  {}\n",
            rule.id,
            " ".repeat(pad),
            rule.name,
            rule.summary.get(lang)
        ));
    }
    out
}

/// Every rule as Markdown, for `docs/rules.md` (kept in sync by a test).
pub fn render_markdown(lang: Lang) -> String {
    let title = match lang {
        Lang::En => "# podlab lint rules\n\nGenerated from `crates/core/src/rules/` (`PODLAB_UPDATE_DOCS=1 cargo test -p podlab-core --test docs` rewrites it). `podlab rules ID` prints the same text.\n",
        Lang::ZhTw => "# podlab 檢查規則\n\n由 `crates/core/src/rules/` 產生（`PODLAB_UPDATE_DOCS=1 cargo test -p podlab-core --test docs` 會重新產生）。`podlab rules ID --lang zh-TW` 會印出相同內容。\n",
    };
    let mut out = String::from(title);
    out.push_str("\n| ID | | |\n| --- | --- | --- |\n");
    for rule in RULES {
        out.push_str(&format!(
            "| [{}](#{}) | `{}` | {} |\n",
            rule.id,
            rule.id.to_ascii_lowercase(),
            rule.name,
            rule.summary.get(lang).replace('|', "\\|")
        ));
    }
    for rule in RULES {
        out.push_str(&format!(
            "\n## {}\n\n`{}` · {}",
            rule.id,
            rule.name,
            rule.severity.word().get(lang)
        ));
        if rule.scenario_aware {
            out.push_str(&format!(" · {}", SCENARIO_AWARE.get(lang)));
        }
        out.push_str(&format!("\n\n{}\n", rule.summary.get(lang)));
        out.push_str(&format!(
            "\n### {}\n\n{}\n",
            WHAT.get(lang),
            rule.what.get(lang)
        ));
        out.push_str(&format!(
            "\n### {}\n\n{}\n",
            WHY.get(lang),
            rule.why.get(lang)
        ));
        out.push_str(&format!(
            "\n### {}\n\n```yaml\n{}```\n",
            EXAMPLE.get(lang),
            rule.failing
        ));
        out.push_str(&format!(
            "\n### {}\n\n```yaml\n{}```\n",
            FIXED.get(lang),
            rule.fixed
        ));
        out.push_str(&format!(
            "\n### {}\n\n{}\n",
            FIX.get(lang),
            rule.fix.get(lang)
        ));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_rule_doc_has_its_four_parts_in_each_language() {
        let rule = super::super::find("PL201").expect("PL201 is registered");
        let en = render(rule, Lang::En);
        for heading in [WHAT, WHY, EXAMPLE, FIXED, FIX] {
            assert!(en.contains(&format!("## {}", heading.en)), "{en}");
        }
        assert!(en.starts_with("PL201 liveness-kills-slow-start (error)"));
        let zh = render(rule, Lang::ZhTw);
        assert!(zh.contains("## 為什麼 ML 工作負載特別容易踩到"));
        assert!(zh.contains("    livenessProbe:"));
    }

    #[test]
    fn the_list_has_one_line_per_rule() {
        let list = render_list(Lang::En);
        assert_eq!(list.lines().count(), RULES.len());
        assert!(list
            .lines()
            .any(|line| line.starts_with("PL201") && line.contains("liveness-kills-slow-start")));
    }
}
