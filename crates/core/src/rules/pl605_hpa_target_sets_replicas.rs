//! PL605 hpa-target-sets-replicas.
//!
//! The HPA writes the target's `spec.replicas` through `/scale`
//! (`shared/reference/traffic-autoscaling.md` §1.1); a manifest that also
//! writes it sets it back on every apply. Kubernetes' docs (Horizontal Pod
//! Autoscaling, "Migrating Deployments and StatefulSets to horizontal
//! autoscaling"): "When an HPA is enabled, it is recommended that the value
//! of spec.replicas of the Deployment and / or StatefulSet be removed from
//! their manifest(s)."

use super::{edit, hpa_subject, long, long_str, words, Context, Rule};
use crate::diagnostic::{Diagnostic, Fix, Severity};
use crate::span::Span;
use crate::text;

pub static RULE: Rule = Rule {
    id: "PL605",
    name: "hpa-target-sets-replicas",
    severity: Severity::Warning,
    scenario_aware: false,
    summary: words!(
        "a workload an HPA scales also writes `replicas`: every apply resets what the HPA chose",
        "HPA 擴縮的工作負載又寫了 `replicas`：每次 apply 都會蓋掉 HPA 決定的副本數"
    ),
    what: long!(
        "For each HorizontalPodAutoscaler whose `scaleTargetRef` is a Deployment, StatefulSet or ReplicaSet of the file, warns when that workload writes `spec.replicas`. The Kubernetes docs (Horizontal Pod Autoscaling, \"Migrating Deployments and StatefulSets to horizontal autoscaling\") advise: \"When an HPA is enabled, it is recommended that the value of spec.replicas of the Deployment and / or StatefulSet be removed from their manifest(s).\"",
        "對每個 HorizontalPodAutoscaler，若 `scaleTargetRef` 指向檔案裡的 Deployment、StatefulSet 或 ReplicaSet，而該工作負載寫了 `spec.replicas`，就發出警告。Kubernetes 文件（Horizontal Pod Autoscaling，〈Migrating Deployments and StatefulSets to horizontal autoscaling〉）建議：「When an HPA is enabled, it is recommended that the value of spec.replicas of the Deployment and / or StatefulSet be removed from their manifest(s).」"
    ),
    why: long!(
        "The HPA and the manifest own the same field. Each `kubectl apply` (or GitOps sync) of the file sets the replica count back to the written number: an HPA that had scaled a model server to 8 sees it cut to 2, the 6 deleted pods drop their requests, and getting them back costs a full cold start each (image pull and minutes of model load) once the HPA notices the load again. The reverse, a written count above the HPA's, starts GPU pods that the HPA removes 5 minutes later.",
        "HPA 和 manifest 在搶同一個欄位。每次 `kubectl apply`（或 GitOps 同步）這個檔案，副本數都會被設回寫死的數字：HPA 已經把模型伺服器擴到 8 個，會被砍回 2 個，被刪掉的 6 個 Pod 上的請求會中斷，等 HPA 再次看到負載，每個新 Pod 都要重新冷啟動（拉映像、好幾分鐘的模型載入）。反過來，寫的數字比 HPA 的大，就會多開 GPU Pod，5 分鐘後又被 HPA 縮掉。"
    ),
    failing: long_str!("apiVersion: apps/v1\nkind: Deployment\nmetadata: { name: vllm }\nspec:\n  replicas: 2\n  selector: { matchLabels: { app: vllm } }\n  template:\n    metadata: { labels: { app: vllm } }\n    spec:\n      containers:\n        - name: server\n          image: vllm/vllm-openai:v0.6.3\n---\napiVersion: autoscaling/v2\nkind: HorizontalPodAutoscaler\nmetadata: { name: vllm }\nspec:\n  scaleTargetRef: { apiVersion: apps/v1, kind: Deployment, name: vllm }\n  minReplicas: 2\n  maxReplicas: 8\n  metrics:\n    - type: Pods\n      pods:\n        metric: { name: requests_in_queue }\n        target: { type: AverageValue, averageValue: \"5\" }\n"),
    fixed: long_str!("apiVersion: apps/v1\nkind: Deployment\nmetadata: { name: vllm }\nspec:\n  selector: { matchLabels: { app: vllm } }\n  template:\n    metadata: { labels: { app: vllm } }\n    spec:\n      containers:\n        - name: server\n          image: vllm/vllm-openai:v0.6.3\n---\napiVersion: autoscaling/v2\nkind: HorizontalPodAutoscaler\nmetadata: { name: vllm }\nspec:\n  scaleTargetRef: { apiVersion: apps/v1, kind: Deployment, name: vllm }\n  minReplicas: 2\n  maxReplicas: 8\n  metrics:\n    - type: Pods\n      pods:\n        metric: { name: requests_in_queue }\n        target: { type: AverageValue, averageValue: \"5\" }\n"),
    fix: long!(
        "Remove `replicas` from the workload and let the HPA's `minReplicas` set the floor. For an object already running, do it as the Kubernetes docs describe, or the first apply without the field drops it to 1 pod (the default): with client-side apply, `kubectl apply edit-last-applied deployment/NAME` and delete `spec.replicas` there first; with server-side apply, follow the docs' field-manager steps. In a Helm chart, write `replicas` only when autoscaling is off.",
        "把工作負載的 `replicas` 拿掉，由 HPA 的 `minReplicas` 決定下限。已經在跑的物件要照 Kubernetes 文件的步驟做，否則第一次 apply 不含這個欄位的 manifest 時會降到 1 個 Pod（預設值）：client-side apply 先用 `kubectl apply edit-last-applied deployment/NAME` 刪掉裡面的 `spec.replicas`；server-side apply 請照文件調整 field manager。Helm chart 則只在沒開自動擴縮時才寫 `replicas`。"
    ),
    check: Some(check),
};

fn check(context: &Context<'_>, out: &mut Vec<Diagnostic>) {
    for (hpa, workload) in context.autoscaled() {
        let Some((written, span)) = workload
            .replicas
            .as_ref()
            .and_then(|replicas| Some((replicas.value, replicas.span?)))
        else {
            continue;
        };
        let (who, who_zh) = super::pl502_gpu_unschedulable::subject(workload);
        let (hpa_who, hpa_who_zh) = hpa_subject(hpa);
        let (min, max) = (hpa.min_replicas, hpa.max_replicas);
        let kind = workload.kind.as_str().to_ascii_lowercase();
        let name = &workload.name;
        let mut diagnostic = RULE
            .diagnostic(
                span,
                text!(
                    "{who} writes `replicas: {written}` and {hpa_who} scales it ({min} to {max}): every `kubectl apply` of this file sets it back to {written} pods, whatever the HPA chose",
                    "{who_zh}寫了 `replicas: {written}`，而 {hpa_who_zh}會擴縮它（{min} 到 {max}）：每次 `kubectl apply` 這個檔案都會把它設回 {written} 個 Pod，不管 HPA 決定了多少"
                ),
            )
            .with_help(text!(
                "the Kubernetes docs recommend removing spec.replicas from the manifest when an HPA manages it; on a running object first run `kubectl apply edit-last-applied {kind}/{name}` and delete `spec.replicas` there, or the first apply without it drops the {kind} to 1 pod",
                "Kubernetes 文件建議：由 HPA 管理時，把 spec.replicas 從 manifest 拿掉；已經在跑的物件要先執行 `kubectl apply edit-last-applied {kind}/{name}` 刪掉裡面的 `spec.replicas`，否則第一次 apply 不含它的 manifest 時會降到 1 個 Pod"
            ));
        if let Some(line) = whole_line(context.text, span) {
            diagnostic = diagnostic.with_fix(Fix {
                description: text!(
                    "remove `replicas: {written}` (the HPA's minReplicas {min} is the floor)",
                    "移除 `replicas: {written}`（下限由 HPA 的 minReplicas {min} 決定）"
                ),
                edits: vec![edit::replace(line, "")],
            });
        }
        out.push(diagnostic);
    }
}

/// The line `replicas: N` (with its line break) when the value is alone on
/// its line after its key, as in a block mapping; `None` in a flow mapping.
fn whole_line(text: &str, value: Span) -> Option<Span> {
    let start = text.get(..value.start)?.rfind('\n').map_or(0, |at| at + 1);
    let rest = text.get(value.end..)?;
    let end = rest.find('\n').map_or(text.len(), |at| value.end + at + 1);
    let after = rest.get(..end - value.end)?.trim();
    (text.get(start..value.start)?.trim() == "replicas:"
        && (after.is_empty() || after.starts_with('#')))
    .then_some(Span::new(start, end))
}
