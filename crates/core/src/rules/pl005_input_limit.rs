//! PL005 input-limit: reported by the YAML reader (`manifest::yaml::Limits`).

use super::{long, long_str};
use super::{words, Rule};
use crate::diagnostic::Severity;

pub static RULE: Rule = Rule {
    id: "PL005",
    name: "input-limit",
    severity: Severity::Error,
    scenario_aware: false,
    summary: words!(
        "the input is too large, too deep, or expands too many aliases",
        "輸入太大、巢狀太深，或別名展開太多"
    ),
    what: long!(
        "podlab reads at most 4 MiB of text, 128 levels of nesting, 500,000 nodes and 10,000 nodes produced by alias expansion. Past a limit it stops reading that document and says which limit was reached, so a \"billion laughs\" alias bomb or a huge paste never hangs the page.",
        "podlab 最多讀取 4 MiB 文字、128 層巢狀、500,000 個節點，以及別名展開產生的 10,000 個節點。超過限制時會停止讀取該文件並說明是哪個限制，因此「billion laughs」別名炸彈或超大貼上都不會讓頁面卡住。"
    ),
    why: long!(
        "The playground runs in the learner's browser tab; a pathological input must end with a clear message, not a frozen tab. Real manifests are far below these limits.",
        "playground 在學習者的瀏覽器分頁中執行；病態的輸入必須以清楚的訊息結束，而不是讓分頁當掉。真實的 manifest 遠低於這些限制。"
    ),
    failing: long_str!("a: &a [x, x, x, x, x, x, x, x, x, x]\nb: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a, *a]\nc: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b, *b]\nd: &d [*c, *c, *c, *c, *c, *c, *c, *c, *c, *c]\ne: [*d, *d, *d, *d, *d, *d, *d, *d, *d, *d]\n"),
    fixed: long_str!("a: &a [x, x, x, x, x, x, x, x, x, x]\nb: [*a, *a]\n"),
    fix: long!(
        "Split the input into smaller files, or remove the alias chain.",
        "把輸入拆成較小的檔案，或移除層層相疊的別名。"
    ),
    check: None,
};
