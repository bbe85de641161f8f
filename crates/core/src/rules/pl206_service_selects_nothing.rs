//! PL206 service-selects-nothing.
//!
//! A Service sends its connections to the pods its `selector` matches: every
//! key with the same value (`labels.SelectorFromSet`), and the EndpointSlice
//! controller lists one endpoint per such pod
//! (`shared/reference/traffic-autoscaling.md` §4.1;
//! `kubernetes/kubernetes:staging/src/k8s.io/endpointslice/reconciler.go`).
//! A selector that no pod carries leaves the Service without endpoints, and
//! kube-proxy rejects every connection to it (§4.3, the `REJECT` rule "has no
//! endpoints"). Nothing fails at `kubectl apply`: the Service and the
//! Deployment are both valid, and the mistake shows only as refused
//! connections.
//!
//! A file does not always hold every pod its Services select, so the rule
//! judges a Service only when its file can be taken as the whole story:
//! - the file has at least one workload (a Service alone in a file, as Helm
//!   charts and kustomize bases split them, is not judged);
//! - every other document is of a kind that makes no pods
//!   (`service::makes_no_pods`): a custom resource such as a RayCluster or a
//!   LeaderWorkerSet has an operator make pods podlab does not see, with
//!   labels of its own, so a file holding one is not judged;
//! - the Service has a non-empty selector (without one it is meant for
//!   Endpoints written by hand) and is not `type: ExternalName`.
//!
//! The labels a workload's controller adds to its pods count as carried
//! (`service::controller_label`: `pod-template-hash`,
//! `statefulset.kubernetes.io/pod-name`, `batch.kubernetes.io/job-name`, …),
//! so a per-pod Service of a StatefulSet is not reported.

use super::{edit, words, Context, Rule};
use super::{long, long_str};
use crate::diagnostic::{Diagnostic, Fix, Severity};
use crate::manifest::model::Workload;
use crate::manifest::schema::closest;
use crate::manifest::service::{makes_no_pods, may_carry, Service};
use crate::span::Span;
use crate::text;

pub static RULE: Rule = Rule {
    id: "PL206",
    name: "service-selects-nothing",
    severity: Severity::Warning,
    scenario_aware: false,
    summary: words!(
        "a Service's selector matches no pod template of the file, so it has no endpoints",
        "Service 的 selector 對不上檔案裡任何 Pod template，所以沒有任何 endpoint"
    ),
    what: long!(
        "For each Service with a selector, in a file that also holds workloads (Pod, Deployment, ReplicaSet, StatefulSet, DaemonSet, Job, CronJob), reports a selector that no pod template carries: every key of the selector must be a label of the pods with the same value, or a label their controller adds (`pod-template-hash`, `statefulset.kubernetes.io/pod-name`, `batch.kubernetes.io/job-name`). When one workload's pods differ from the selector by a single label — another value for the same key, or a misspelt key with the same value — it says which and offers the fix. A Service alone in its file, a Service without a selector (for Endpoints written by hand), an `ExternalName` Service, and a file holding a custom resource (a RayCluster, LeaderWorkerSet or InferenceService whose operator makes the pods) are not judged.",
        "對每個有 selector 的 Service，只要同一個檔案裡也有 workload（Pod、Deployment、ReplicaSet、StatefulSet、DaemonSet、Job、CronJob），就回報沒有任何 Pod template 符合的 selector：selector 的每個 key 都必須是 Pod 的 label 而且值相同，或是 controller 自動加上的 label（`pod-template-hash`、`statefulset.kubernetes.io/pod-name`、`batch.kubernetes.io/job-name`）。如果某個 workload 的 Pod 只差一個 label——同一個 key 的值不同，或 key 拼錯但值相同——會指出是哪一個並提供修正。單獨放在一個檔案裡的 Service、沒有 selector 的 Service（給手寫 Endpoints 用）、`ExternalName` Service，以及含有 custom resource（由 operator 建立 Pod 的 RayCluster、LeaderWorkerSet、InferenceService）的檔案都不檢查。"
    ),
    why: long!(
        "Model servers are renamed often — `vllm` becomes `vllm-llama3`, `gemma-server` becomes `gemma-2b-server` — and the Service copied from the previous model keeps the old label. Both objects are valid, `kubectl apply` succeeds, and the Deployment's pods load their weights and turn Ready; only the Service has no endpoints, so every client gets connection refused (a 502 or 503 from the ingress) while the expensive GPU pods sit idle. It looks like a network problem, and the usual suspects (readiness, the image, the GPU) are all fine.",
        "模型伺服器常常改名——`vllm` 變成 `vllm-llama3`、`gemma-server` 變成 `gemma-2b-server`——從上一個模型抄來的 Service 卻還留著舊的 label。兩個物件都合法，`kubectl apply` 成功，Deployment 的 Pod 載入權重後也變成 Ready；只有 Service 沒有任何 endpoint，所有客戶端都收到 connection refused（經過 ingress 則是 502 或 503），昂貴的 GPU Pod 卻閒在那裡。看起來像網路問題，而平常會先懷疑的 readiness、映像、GPU 全都沒問題。"
    ),
    failing: long_str!("apiVersion: apps/v1\nkind: Deployment\nmetadata: { name: llm-api }\nspec:\n  selector: { matchLabels: { app: gemma-server } }\n  template:\n    metadata: { labels: { app: gemma-server } }\n    spec:\n      containers:\n        - name: vllm\n          image: vllm/vllm-openai:v0.6.3\n          ports: [{ containerPort: 8000 }]\n---\napiVersion: v1\nkind: Service\nmetadata: { name: llm-service }\nspec:\n  selector: { app: gemma-serve }\n  ports: [{ port: 8000, targetPort: 8000 }]\n"),
    fixed: long_str!("apiVersion: apps/v1\nkind: Deployment\nmetadata: { name: llm-api }\nspec:\n  selector: { matchLabels: { app: gemma-server } }\n  template:\n    metadata: { labels: { app: gemma-server } }\n    spec:\n      containers:\n        - name: vllm\n          image: vllm/vllm-openai:v0.6.3\n          ports: [{ containerPort: 8000 }]\n---\napiVersion: v1\nkind: Service\nmetadata: { name: llm-service }\nspec:\n  selector: { app: gemma-server }\n  ports: [{ port: 8000, targetPort: 8000 }]\n"),
    fix: long!(
        "Make the Service's selector a subset of the pod template's labels (`spec.template.metadata.labels`, not the Deployment's own `metadata.labels`). The automatic fix, offered when exactly one label separates the selector from one workload's pods, rewrites that label in the Service: the template's labels are the ones the workload's own selector already agrees with. If the pods really come from another file or an operator, silence the rule on the Service with `# podlab:ignore PL206 <reason>`.",
        "讓 Service 的 selector 成為 Pod template labels（`spec.template.metadata.labels`，不是 Deployment 自己的 `metadata.labels`）的子集。只有在 selector 和某個 workload 的 Pod 只差一個 label 時才提供自動修正，它會改寫 Service 裡的那個 label：template 的 labels 是 workload 自己的 selector 已經對上的那一組。如果 Pod 真的來自別的檔案或 operator，請在 Service 上用 `# podlab:ignore PL206 <理由>` 關掉這條規則。"
    ),
    check: Some(check),
};

/// One label that separates a selector from a workload's pods.
struct NearMiss<'a> {
    workload: &'a Workload,
    /// The selector entry that no pod carries (its index in the selector).
    entry: usize,
    /// What the pods carry instead.
    key: &'a str,
    value: &'a str,
    /// The pods have the key with another value (else: a misspelt key with
    /// the same value).
    same_key: bool,
}

fn check(context: &Context<'_>, out: &mut Vec<Diagnostic>) {
    let whole_story = !context.workloads.is_empty()
        && context.unread_kinds.iter().all(|kind| makes_no_pods(kind));
    if !whole_story {
        return;
    }
    for service in context.services {
        if service.type_ == "ExternalName" {
            continue;
        }
        let Some(selector) = service.selector.as_ref().filter(|s| !s.is_empty()) else {
            continue;
        };
        let selected = context.workloads.iter().any(|workload| {
            selector
                .iter()
                .all(|(key, value)| may_carry(workload, key, value))
        });
        if !selected {
            out.push(report(context.text, service, selector, context.workloads));
        }
    }
}

/// The single-label corrections that would make the selector match a
/// workload's pods; `None` unless they all agree on one.
fn near_miss<'a>(selector: &[(String, String)], workloads: &'a [Workload]) -> Option<NearMiss<'a>> {
    let mut found: Vec<NearMiss<'a>> = Vec::new();
    for workload in workloads {
        let mut missing = selector
            .iter()
            .enumerate()
            .filter(|(_, (key, value))| !may_carry(workload, key, value));
        let (Some((entry, (key, value))), None) = (missing.next(), missing.next()) else {
            continue;
        };
        // Labels that no other entry of the selector already uses.
        let free = || {
            workload
                .pod_labels
                .iter()
                .filter(|(k, _)| k == key || !selector.iter().any(|(s, _)| s == k))
        };
        let candidate = match free().find(|(k, _)| k == key) {
            Some((k, v)) => Some((k, v, true)),
            None => {
                let same_value = free().filter(|(_, v)| v == value);
                closest(key, same_value.clone().map(|(k, _)| k.as_str())).and_then(|meant| {
                    same_value
                        .clone()
                        .find(|(k, _)| k == meant)
                        .map(|(k, v)| (k, v, false))
                })
            }
        };
        if let Some((key, value, same_key)) = candidate {
            found.push(NearMiss {
                workload,
                entry,
                key,
                value,
                same_key,
            });
        }
    }
    let first = found.first()?;
    let agree = found.iter().all(|other| {
        (other.entry, other.key, other.value) == (first.entry, first.key, first.value)
    });
    if agree {
        found.into_iter().next()
    } else {
        None
    }
}

/// `app=gemma-server,tier=gpu`, as `kubectl get pods -l` takes it.
fn selector_text(selector: &[(String, String)]) -> String {
    selector
        .iter()
        .map(|(key, value)| format!("{key}={value}"))
        .collect::<Vec<_>>()
        .join(",")
}

fn report(
    text: &str,
    service: &Service,
    selector: &[(String, String)],
    workloads: &[Workload],
) -> Diagnostic {
    let name = &service.name;
    let wanted = selector_text(selector);
    let miss = near_miss(selector, workloads);
    let message = match &miss {
        None => text!(
            "Service \"{name}\" selects {wanted}, but no pod template of this file has these labels: it gets no endpoints, and every connection to it is refused",
            "Service「{name}」選擇 {wanted}，但這個檔案裡沒有任何 Pod template 有這些 labels：它不會有任何 endpoint，每個連到它的連線都會被拒絕"
        ),
        Some(miss) => {
            let (kind, workload) = (miss.workload.kind.as_str(), &miss.workload.name);
            let meant = format!("{}={}", miss.key, miss.value);
            text!(
                "Service \"{name}\" selects {wanted}, but no pod template of this file has these labels: it gets no endpoints, and every connection to it is refused (did you mean {meant}, the label of {kind} \"{workload}\"'s pods?)",
                "Service「{name}」選擇 {wanted}，但這個檔案裡沒有任何 Pod template 有這些 labels：它不會有任何 endpoint，每個連到它的連線都會被拒絕（是不是要寫 {meant}？這是 {kind}「{workload}」的 Pod 的 label）"
            )
        }
    };
    let at = miss
        .as_ref()
        .and_then(|miss| service.selector_spans.get(miss.entry))
        .map(|(key, value)| {
            if miss.as_ref().is_some_and(|m| m.same_key) {
                *value
            } else {
                *key
            }
        })
        .or(service.selector_span)
        .unwrap_or(service.name_span);
    let mut diagnostic = RULE.diagnostic(at, message).with_help(text!(
        "`kubectl get pods -l {wanted}` finds no pod, and the Service's EndpointSlice (`kubectl get endpointslices -l kubernetes.io/service-name={name}`) lists no endpoint; compare with the labels of `kubectl get pods --show-labels`",
        "`kubectl get pods -l {wanted}` 找不到任何 Pod，Service 的 EndpointSlice（`kubectl get endpointslices -l kubernetes.io/service-name={name}`）也沒有任何 endpoint；可以和 `kubectl get pods --show-labels` 列出的 labels 比對"
    ));
    if let Some(fix) = miss
        .as_ref()
        .and_then(|miss| selector_fix(text, service, miss))
    {
        diagnostic = diagnostic.with_fix(fix);
    }
    diagnostic
}

/// Rewrites the selector's key or value to the pods' label.
fn selector_fix(text: &str, service: &Service, miss: &NearMiss<'_>) -> Option<Fix> {
    let (key_span, value_span): (Span, Span) = *service.selector_spans.get(miss.entry)?;
    let (span, written) = if miss.same_key {
        (value_span, miss.value)
    } else {
        (key_span, miss.key)
    };
    // Only a plain scalar the reader saw whole is rewritten.
    text.get(span.start..span.end)?;
    let meant = format!("{}={}", miss.key, miss.value);
    let (kind, workload) = (miss.workload.kind.as_str(), &miss.workload.name);
    Some(Fix {
        description: text!(
            "select {meant}, the label of {kind} \"{workload}\"'s pods",
            "改成選擇 {meant}，也就是 {kind}「{workload}」的 Pod 的 label"
        ),
        edits: vec![edit::replace(span, edit::yaml_scalar(written))],
    })
}

#[cfg(test)]
mod tests {
    use crate::diagnostic::apply_edits;
    use crate::lint::lint;

    fn fires(text: &str) -> Vec<crate::diagnostic::Diagnostic> {
        lint(text)
            .diagnostics
            .into_iter()
            .filter(|d| d.rule == "PL206")
            .collect()
    }

    fn line_of(text: &str, diagnostic: &crate::diagnostic::Diagnostic) -> usize {
        text[..diagnostic.span.start].matches('\n').count() + 1
    }

    const DEPLOYMENT: &str = "apiVersion: apps/v1\nkind: Deployment\nmetadata: { name: tgi }\nspec:\n  selector: { matchLabels: { app: gemma-server } }\n  template:\n    metadata:\n      labels:\n        app: gemma-server\n        ai.gke.io/model: gemma-2-2b-it\n    spec:\n      containers:\n        - name: tgi\n          image: ghcr.io/huggingface/text-generation-inference:2.4.0\n          ports: [{ containerPort: 8000 }]\n";

    fn with_service(selector: &str) -> String {
        format!("{DEPLOYMENT}---\napiVersion: v1\nkind: Service\nmetadata: {{ name: llm-service }}\nspec:\n  selector:\n{selector}  ports: [{{ port: 8000 }}]\n")
    }

    #[test]
    fn the_examples_behave() {
        let found = fires(super::RULE.failing);
        assert_eq!(found.len(), 1);
        let fix = found[0].fix.as_ref().expect("a fix");
        assert_eq!(
            apply_edits(super::RULE.failing, &fix.edits),
            super::RULE.fixed
        );
        assert!(fires(super::RULE.fixed).is_empty());
    }

    #[test]
    fn a_wrong_value_is_reported_at_the_value_with_the_label_meant() {
        let text = with_service("    app: gemma-serve\n");
        let found = fires(&text);
        assert_eq!(found.len(), 1);
        assert_eq!(line_of(&text, &found[0]), 22);
        assert!(
            found[0]
                .message
                .en
                .contains("did you mean app=gemma-server"),
            "{}",
            found[0].message.en
        );
        let fixed = apply_edits(&text, &found[0].fix.as_ref().unwrap().edits);
        assert!(fixed.contains("    app: gemma-server\n  ports"), "{fixed}");
        assert!(fires(&fixed).is_empty());
    }

    #[test]
    fn a_misspelt_key_is_reported_at_the_key() {
        let text = with_service("    app: gemma-server\n    ai.gke.io/modle: gemma-2-2b-it\n");
        let found = fires(&text);
        assert_eq!(found.len(), 1);
        assert_eq!(line_of(&text, &found[0]), 23);
        let fixed = apply_edits(&text, &found[0].fix.as_ref().unwrap().edits);
        assert!(
            fixed.contains("    ai.gke.io/model: gemma-2-2b-it\n  ports"),
            "{fixed}"
        );
        assert!(fires(&fixed).is_empty());
    }

    #[test]
    fn two_labels_off_is_reported_without_a_guess() {
        let text = with_service("    app: vllm\n    tier: gpu\n");
        let found = fires(&text);
        assert_eq!(found.len(), 1);
        assert!(found[0].fix.is_none());
        assert!(!found[0].message.en.contains("did you mean"));
    }

    #[test]
    fn a_service_alone_or_without_selector_is_not_judged() {
        let alone = "apiVersion: v1\nkind: Service\nmetadata: { name: llm-service }\nspec:\n  selector: { app: nowhere }\n  ports: [{ port: 8000 }]\n";
        assert!(fires(alone).is_empty());
        let manual = format!("{DEPLOYMENT}---\napiVersion: v1\nkind: Service\nmetadata: {{ name: external-db }}\nspec:\n  ports: [{{ port: 5432 }}]\n");
        assert!(fires(&manual).is_empty());
    }

    #[test]
    fn a_file_with_a_custom_resource_is_not_judged() {
        // KubeRay's operator makes the head pod, labelled ray.io/node-type.
        let text = format!("{}---\napiVersion: ray.io/v1\nkind: RayCluster\nmetadata: {{ name: raycluster }}\nspec: {{}}\n", with_service("    ray.io/node-type: head\n"));
        assert!(fires(&text).is_empty());
        // A ConfigMap makes no pods: the file is still judged.
        let text = format!(
            "{}---\napiVersion: v1\nkind: ConfigMap\nmetadata: {{ name: c }}\ndata: {{}}\n",
            with_service("    ray.io/node-type: head\n")
        );
        assert_eq!(fires(&text).len(), 1);
    }

    #[test]
    fn labels_the_controllers_add_count() {
        let statefulset = "apiVersion: apps/v1\nkind: StatefulSet\nmetadata: { name: web }\nspec:\n  serviceName: nginx\n  selector: { matchLabels: { app: nginx } }\n  template:\n    metadata: { labels: { app: nginx } }\n    spec:\n      containers: [{ name: nginx, image: \"nginx:1.27\", ports: [{ containerPort: 80 }] }]\n---\napiVersion: v1\nkind: Service\nmetadata: { name: web-0 }\nspec:\n  selector: { statefulset.kubernetes.io/pod-name: web-0 }\n  ports: [{ port: 80 }]\n";
        assert!(fires(statefulset).is_empty());
        let other_set = statefulset.replace("pod-name: web-0", "pod-name: db-0");
        assert_eq!(fires(&other_set).len(), 1);
    }
}
