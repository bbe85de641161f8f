//! PL006 unused-suppression: reported by `suppress.rs` for a suppression
//! that silences nothing, names no rule, or gives no reason.

use super::{long, long_str};
use super::{words, Rule};
use crate::diagnostic::Severity;

pub static RULE: Rule = Rule {
    id: "PL006",
    name: "unused-suppression",
    severity: Severity::Info,
    scenario_aware: false,
    summary: words!(
        "a suppression that silences nothing (stale, unknown rule, or no reason)",
        "沒有作用的抑制（已過時、規則不存在或沒寫理由）"
    ),
    what: long!(
        "An annotation `ignore-check.podlab.dev/<rule>: \"<reason>\"` on an object silences that rule on the object's document; a comment `# podlab:ignore <rule>[,<rule>] <reason>` silences it on its own line and, alone on its line, on the line below. One that matches no finding is reported as information; one that names no rule or gives no reason is a warning and silences nothing.",
        "物件上的 annotation `ignore-check.podlab.dev/<rule>: \"<reason>\"` 會在該物件的文件中抑制這條規則；註解 `# podlab:ignore <rule>[,<rule>] <reason>` 會抑制同一行，若註解單獨佔一行，則抑制下一行。沒有對應任何發現的抑制以資訊層級提示；規則不存在或沒寫理由的抑制是警告，而且不會抑制任何東西。"
    ),
    why: long!(
        "A suppression outlives the finding it was written for: the image gets pinned, the probe gets fixed, and the stale line would silently hide the next real problem of that rule. Reporting it keeps every suppression justified, as ruff's unused-noqa does.",
        "抑制往往比它針對的發現活得更久：映像檔釘選了、probe 修好了，過時的那一行卻會默默藏住這條規則下一次真正的問題。把它提示出來，每個抑制才都有正當理由，就像 ruff 的 unused-noqa。"
    ),
    failing: long_str!("apiVersion: v1\nkind: Pod\nmetadata: { name: model }\nspec:\n  containers:\n    - name: api\n      image: registry.example.com/model-api:0.3.1 # podlab:ignore PL301 pinned by digest in CD\n"),
    fixed: long_str!("apiVersion: v1\nkind: Pod\nmetadata: { name: model }\nspec:\n  containers:\n    - name: api\n      image: registry.example.com/model-api:0.3.1\n"),
    fix: long!(
        "Remove the suppression, or move it to where the finding is reported; give every suppression a reason.",
        "刪除這個抑制，或把它移到發現所在的位置；每個抑制都要寫明理由。"
    ),
    check: None,
};
