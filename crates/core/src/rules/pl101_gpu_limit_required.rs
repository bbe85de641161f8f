//! PL101 gpu-limit-required.
//!
//! Models the API server's validation of extended resources, found by
//! `manifest::api` (which the simulator's refusal reads too)
//! (`shared/reference/scheduler-controllers.md` §4; `gpu-sharing.md` §1):
//! `nvidia.com/gpu` and the other GPU resources are extended resources, which
//! `IsOvercommitAllowed` says may not be overcommitted. So in
//! `ValidateResourceRequirements` a request without a limit is
//! `field.Required(limPath, "Limit must be set for non overcommitable
//! resources")`, and a request different from its limit is
//! `field.Invalid(reqPath, quantity.String(), "must be equal to <name> limit
//! of <limit>")`. `SetDefaults_Pod` copies a limit into a missing request, never
//! the other way round, so a GPU written only in `requests` is rejected
//! (`kubernetes/kubernetes:pkg/apis/core/validation/validation.go`
//! `ValidateResourceRequirements`; `pkg/apis/core/helper/helpers.go`
//! `IsOvercommitAllowed`; `pkg/apis/core/v1/defaults.go` `SetDefaults_Pod`).
//!
//! Quantities are quoted as `Quantity.String()` prints them (canonical form:
//! `0.5` → `500m`, `1000` → `1k`; `k8s.io/apimachinery/pkg/api/resource`
//! `CanonicalizeBytes`), see [`api_quantity`].

use super::{edit, words, Context, Rule};
use super::{long, long_str};
use crate::diagnostic::{Diagnostic, Fix, Severity, TextEdit};
use crate::manifest::api::gpu_limit_errors;
use crate::manifest::model::{Amount, Container};
use crate::manifest::quantity::Quantity;
use crate::span::Span;
use crate::text;

// The API server's words live below the rules and the simulator, which
// refuses the same objects with them (`manifest::api`).
pub(super) use crate::manifest::api::{api_quantity, written};

pub static RULE: Rule = Rule {
    id: "PL101",
    name: "gpu-limit-required",
    severity: Severity::Error,
    scenario_aware: false,
    summary: words!(
        "a GPU written only in requests, or a GPU request different from its limit",
        "GPU 只寫在 requests，或 GPU 的 requests 與 limits 不相等"
    ),
    what: long!(
        "For each container and init container, every GPU extended resource (`nvidia.com/gpu`, `nvidia.com/gpu.shared`, `nvidia.com/mig-<profile>`, `amd.com/gpu`, `gpu.intel.com/...`) written in `resources.requests` must also be in `resources.limits`, with the same quantity. A GPU written only in `limits` is fine: the API server copies the limit into the request. The messages quote the API server (`Limit must be set for non overcommitable resources`, `must be equal to nvidia.com/gpu limit of 2`).",
        "對每個 container 與 init container，寫在 `resources.requests` 裡的 GPU 擴充資源（`nvidia.com/gpu`、`nvidia.com/gpu.shared`、`nvidia.com/mig-<profile>`、`amd.com/gpu`、`gpu.intel.com/...`）也必須出現在 `resources.limits`，而且數量相同。只寫在 `limits` 沒問題：API server 會把 limits 複製到 requests。訊息引用 API server 的原文（`Limit must be set for non overcommitable resources`、`must be equal to nvidia.com/gpu limit of 2`）。"
    ),
    why: long!(
        "Habit from CPU and memory says \"requests is what I need\", so GPUs often end up in `requests` only, or with `requests: 1` and `limits: 2`. But a GPU is an extended resource: whole devices, never overcommitted, so Kubernetes insists that the limit is written and equals the request. `kubectl apply` rejects the whole Deployment or Job: the new model version never rolls out, and in a CI pipeline the failure shows up only after the image was built and pushed.",
        "CPU 與記憶體的習慣是「requests 寫我需要多少」，所以 GPU 常常只寫在 `requests`，或寫成 `requests: 1`、`limits: 2`。但 GPU 是擴充資源（Extended Resource）：以整張卡為單位、不能超賣，Kubernetes 要求一定要寫 limits，而且要等於 requests。`kubectl apply` 會拒絕整個 Deployment 或 Job：新版模型根本不會上線，在 CI 裡還要等映像建好、推上去之後才發現。"
    ),
    failing: long_str!("apiVersion: apps/v1\nkind: Deployment\nmetadata: { name: llm-server }\nspec:\n  selector: { matchLabels: { app: llm-server } }\n  template:\n    metadata: { labels: { app: llm-server } }\n    spec:\n      containers:\n        - name: vllm\n          image: vllm/vllm-openai:v0.6.3\n          resources:\n            requests:\n              memory: 16Gi\n              nvidia.com/gpu: 1\n            limits:\n              memory: 32Gi\n"),
    fixed: long_str!("apiVersion: apps/v1\nkind: Deployment\nmetadata: { name: llm-server }\nspec:\n  selector: { matchLabels: { app: llm-server } }\n  template:\n    metadata: { labels: { app: llm-server } }\n    spec:\n      containers:\n        - name: vllm\n          image: vllm/vllm-openai:v0.6.3\n          resources:\n            requests:\n              memory: 16Gi\n              nvidia.com/gpu: 1\n            limits:\n              nvidia.com/gpu: 1\n              memory: 32Gi\n"),
    fix: long!(
        "Write the GPU count in `limits` (writing it only there is enough: the request is copied from it). If both are written, make them equal. Fixes can be applied directly: a request-only GPU is copied into `limits` (creating the block if needed), a different request is set to the limit.",
        "把 GPU 數量寫在 `limits`（只寫在 limits 就夠了，requests 會自動複製）。兩邊都寫的話，數量要相同。修正可以直接套用：只在 requests 的 GPU 會被複製到 `limits`（必要時建立 limits 區塊），不相等的 requests 會改成跟 limits 一樣。"
    ),
    check: Some(check),
};

/// `span` without the whitespace at its ends (the reader's span of a quoted
/// scalar in a flow mapping can include the blank after the closing quote).
pub(super) fn trimmed(text: &str, span: Span) -> Span {
    let Some(written) = text.get(span.start..span.end) else {
        return span;
    };
    let start = span.start + (written.len() - written.trim_start().len());
    let end = span.end - (written.len() - written.trim_end().len());
    Span::new(start, end.max(start))
}

/// A quantity as a YAML value for a fix: a plain integer when whole.
pub(super) fn yaml_quantity(quantity: Quantity, written: &str) -> String {
    if quantity.is_integer() {
        quantity.value().to_string()
    } else {
        edit::yaml_scalar(&api_quantity(quantity, written))
    }
}

/// Whether the text of `span` is an empty flow mapping `{}`.
pub(super) fn is_empty_flow_map(text: &str, span: Span) -> bool {
    let Some(inner) = text
        .get(span.start..span.end)
        .map(str::trim)
        .and_then(|written| written.strip_prefix('{'))
        .and_then(|rest| rest.strip_suffix('}'))
    else {
        return false;
    };
    inner.trim().is_empty()
}

/// Whether the value at `span` can take a new mapping entry: a mapping (block
/// or flow), not a sequence or a scalar.
fn looks_like_a_mapping(text: &str, span: Span) -> bool {
    let written = text.get(span.start..span.end).unwrap_or_default().trim();
    if written.starts_with('{') {
        return true;
    }
    let first_line = written.lines().next().unwrap_or_default().trim_end();
    !written.starts_with(['-', '[', '"', '\'', '|', '>'])
        && (first_line.contains(": ") || first_line.ends_with(':'))
}

/// An edit adding an entry to the mapping written at `map`: `lines` in block
/// style, `flow` (one line, `key: value`) in a flow mapping; an empty `{}`
/// becomes `{ flow }`.
pub(super) fn add_to_map(text: &str, map: Span, lines: &[String], flow: &str) -> Option<TextEdit> {
    if is_empty_flow_map(text, map) {
        return Some(edit::replace(trimmed(text, map), format!("{{ {flow} }}")));
    }
    if !looks_like_a_mapping(text, map) {
        return None;
    }
    let at = edit::first_key(text, map)?;
    insert_at(text, at, lines, flow)
}

/// An edit inserting a mapping entry before the key at `at`: `lines` in block
/// style, else `flow` as a one-line flow entry.
pub(super) fn insert_at(text: &str, at: usize, lines: &[String], flow: &str) -> Option<TextEdit> {
    edit::insert_entry(text, at, lines)
        .or_else(|| edit::insert_entry(text, at, &[flow.to_string()]))
}

fn check(context: &Context<'_>, out: &mut Vec<Diagnostic>) {
    let text = context.text;
    for error in gpu_limit_errors(context.workloads) {
        let (request, requested) = (error.request, error.requested);
        let name = &request.name;
        let kind = error.workload.kind.as_str();
        let object = &error.workload.name;
        let message = error.message(text);
        match error.limit {
            None => {
                let mut diagnostic = RULE
                    .diagnostic(trimmed(text, request.value_span), message)
                    .with_help(text!(
                        "a GPU is an extended resource: write it in `limits` (the request is copied from the limit); `kubectl apply` answers `The {kind} \"{object}\" is invalid: ...` and creates nothing",
                        "GPU 是擴充資源（Extended Resource）：請寫在 `limits`（requests 會從 limits 複製過來）；`kubectl apply` 會回 `The {kind} \"{object}\" is invalid: ...`，什麼都不會建立"
                    ));
                if let Some(fix) = copy_to_limits(text, error.container, request, requested) {
                    diagnostic = diagnostic.with_fix(fix);
                }
                out.push(diagnostic);
            }
            Some((limit, limited)) => {
                let limit_text = written(text, limit.value_span);
                let limit_shown = api_quantity(limited, limit_text);
                let value = yaml_quantity(limited, limit_text);
                out.push(
                    RULE.diagnostic(trimmed(text, request.value_span), message)
                        .with_help(text!(
                            "GPUs cannot be overcommitted, so their request must equal their limit; simplest is to write the GPU only in `limits`. `kubectl apply` answers `The {kind} \"{object}\" is invalid: ...`",
                            "GPU 不能超賣，所以 requests 必須等於 limits；最簡單的寫法是只在 `limits` 寫 GPU。`kubectl apply` 會回 `The {kind} \"{object}\" is invalid: ...`"
                        ))
                        .with_fix(Fix {
                            description: text!(
                                "set the {name} request to the limit, {limit_shown}",
                                "把 {name} 的 requests 改成跟 limits 一樣：{limit_shown}"
                            ),
                            edits: vec![edit::replace(trimmed(text, request.value_span), value)],
                        }),
                );
            }
        }
    }
}

/// Copies a request-only GPU into `limits`, creating `limits:` when absent.
fn copy_to_limits(
    text: &str,
    container: &Container,
    request: &Amount,
    requested: Quantity,
) -> Option<Fix> {
    let resources = &container.resources;
    let name = &request.name;
    let value = yaml_quantity(requested, written(text, request.value_span));
    let entry = format!("{name}: {value}");
    let edit = match (resources.limits_key, resources.limits_span) {
        (Some(_), Some(limits)) => add_to_map(text, limits, std::slice::from_ref(&entry), &entry)?,
        (None, _) => {
            let map = resources.span?;
            add_to_map(
                text,
                map,
                &["limits:".to_string(), format!("  {entry}")],
                &format!("limits: {{ {entry} }}"),
            )?
        }
        _ => return None,
    };
    let shown = api_quantity(requested, written(text, request.value_span));
    Some(Fix {
        description: text!(
            "add `{name}: {shown}` to limits",
            "在 limits 加上 `{name}: {shown}`"
        ),
        edits: vec![edit],
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::manifest::quantity::parse;

    fn shown(written: &str) -> String {
        api_quantity(parse(written).unwrap(), written)
    }

    #[test]
    fn quantities_are_quoted_in_canonical_form() {
        assert_eq!(shown("0.5"), "500m");
        assert_eq!(shown("500m"), "500m");
        assert_eq!(shown("1"), "1");
        assert_eq!(shown("2"), "2");
        assert_eq!(shown("1.5"), "1500m");
        assert_eq!(shown("1000"), "1k");
        assert_eq!(shown("1500"), "1500");
        assert_eq!(shown("0"), "0");
        assert_eq!(shown("1Ki"), "1Ki");
        assert_eq!(shown("0.5Ki"), "512");
        assert_eq!(shown("-1"), "-1");
    }
}
