//! PL002 unknown-field: reported by the structural check (`manifest::validate`).

use super::{long, long_str};
use super::{words, Rule};
use crate::diagnostic::Severity;

pub static RULE: Rule = Rule {
    id: "PL002",
    name: "unknown-field",
    severity: Severity::Error,
    scenario_aware: false,
    summary: words!(
        "a field the Kubernetes API does not know, with the field meant",
        "Kubernetes API 不認得的欄位，並指出你想寫的欄位"
    ),
    what: long!(
        "Every key of the pod template, the workload spec and the Scenario is checked against the v1.35 API field tables. An unknown key is reported with the closest known field (`livenesProbe` → `livenessProbe`, `initialDelaySecond` → `initialDelaySeconds`, `limit` → `limits`), or with where it belongs when it is valid one level up or down (`terminationGracePeriodSeconds` inside a container belongs to the pod spec). An annotation key under `podlab.dev/` close to one podlab reads (`podlab.dev/startpu` → `podlab.dev/startup`) is reported the same way, as a warning: Kubernetes takes any annotation, so the number it states would be silently ignored; keys further off are left to other tools.",
        "pod template、workload spec 與 Scenario 的每個 key 都會對照 v1.35 API 的欄位表檢查。不認得的 key 會附上最接近的正確欄位（`livenesProbe` → `livenessProbe`、`initialDelaySecond` → `initialDelaySeconds`、`limit` → `limits`）；若它在上一層或下一層才合法（寫在 container 裡的 `terminationGracePeriodSeconds` 屬於 pod spec），會告訴你該放哪裡。`podlab.dev/` 底下的 annotation key 若和 podlab 認得的 key 很接近（`podlab.dev/startpu` → `podlab.dev/startup`），也會同樣回報，但只是警告：Kubernetes 接受任何 annotation，拼錯的 key 寫的數字會被默默忽略；差很多的 key 留給其他工具。"
    ),
    why: long!(
        "With client-side apply an unknown field may be dropped with only a warning: a misspelt `livenesProbe` means the pod runs with no liveness probe at all, and a misplaced `startupProbe` means the slow model load is not protected. The manifest looks right and the behaviour is not.",
        "在 client-side apply 下，不認得的欄位可能只換來一行警告就被丟掉：拼錯的 `livenesProbe` 代表 Pod 根本沒有 liveness 探針，放錯位置的 `startupProbe` 代表緩慢的模型載入沒有受到保護。manifest 看起來沒問題，行為卻不是你想的那樣。"
    ),
    failing: long_str!("apiVersion: v1\nkind: Pod\nmetadata: { name: model }\nspec:\n  containers:\n    - name: api\n      image: registry.example.com/model-api:0.3.1\n      readinesProbe:\n        tcpSocket: { port: 8000 }\n"),
    fixed: long_str!("apiVersion: v1\nkind: Pod\nmetadata: { name: model }\nspec:\n  containers:\n    - name: api\n      image: registry.example.com/model-api:0.3.1\n      readinessProbe:\n        tcpSocket: { port: 8000 }\n"),
    fix: long!(
        "Rename the field to the one suggested, or move it to the level named in the help.",
        "把欄位改成建議的名稱，或移到提示指出的層級。"
    ),
    check: None,
};
