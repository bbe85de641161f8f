//! PL001 yaml-syntax: reported by the YAML reader (`manifest::yaml`) and the
//! flattened-indentation hint in `lint.rs`.

use super::{long, long_str};
use super::{words, Rule};
use crate::diagnostic::Severity;

pub static RULE: Rule = Rule {
    id: "PL001",
    name: "yaml-syntax",
    severity: Severity::Error,
    scenario_aware: false,
    summary: words!(
        "the YAML does not parse (with a hint when the indentation was lost in copying)",
        "YAML 無法解析（縮排在複製時遺失時會特別提示）"
    ),
    what: long!(
        "The text must be valid YAML. Each document (separated by `---`) is read on its own, so one broken document does not hide the others. Duplicate keys are errors, as in the API server's strict reader. When every line of a document starts at column 1, the indentation was almost certainly lost when the manifest was copied from a web page, and podlab says that instead of a parser message.",
        "文字必須是合法的 YAML。每份文件（以 `---` 分隔）分開讀取，一份壞掉不會遮住其他文件。重複的 key 是錯誤，和 API server 的嚴格讀取一致。若一份文件的每一行都從第 1 欄開始，幾乎可以確定是從網頁複製時縮排遺失了，podlab 會直接這樣告訴你，而不是丟出解析器訊息。"
    ),
    why: long!(
        "ML manifests are long and often pasted from blog posts and model cards; a lost indent or a tab turns the whole Deployment into something `kubectl apply` rejects, or worse, into a different structure.",
        "ML 的 manifest 很長，又常從部落格或 model card 複製貼上；少一格縮排或混進 tab，整個 Deployment 就會被 `kubectl apply` 拒絕，甚至變成完全不同的結構。"
    ),
    failing: long_str!("apiVersion: v1\nkind: Pod\nmetadata:\nname: model\nspec:\ncontainers:\n- name: api\nimage: registry.example.com/model-api:0.3.1\n"),
    fixed: long_str!("apiVersion: v1\nkind: Pod\nmetadata:\n  name: model\nspec:\n  containers:\n    - name: api\n      image: registry.example.com/model-api:0.3.1\n"),
    fix: long!(
        "Fix the YAML at the line and column given; when the indentation was lost, copy the manifest again from a code block, keeping the leading spaces. For a document whose lines all start at column 1, the machine fix (also `podlab fmt --reindent`) rebuilds the indentation from the Kubernetes API's field tables: each key goes into the innermost open object that has such a field. It cannot know the original where a key fits more than one object (a probe's or the pod's `terminationGracePeriodSeconds`), nor the inner indentation of a block scalar (`|`); the fix names the lines it guessed, and the result should be checked.",
        "依提示的行與欄修正 YAML；若是縮排遺失，請從程式碼區塊重新複製，保留行首空白。若一份文件的每一行都從第 1 欄開始，自動修正（也就是 `podlab fmt --reindent`）會依 Kubernetes API 的欄位表重建縮排：每個 key 放進最內層、有這個欄位的物件。它無法得知原文的地方有兩種：一個 key 可屬於不只一個物件（探針的或 Pod 的 `terminationGracePeriodSeconds`），以及區塊字串（`|`）內部的縮排；修正會列出它猜測的行，結果請再檢查。"
    ),
    check: None,
};
