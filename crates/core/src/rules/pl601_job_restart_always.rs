//! PL601 job-restart-always.
//!
//! Models the API server's validation of a Job's pod template
//! (`shared/reference/scheduler-controllers.md` §5.4;
//! `kubernetes/kubernetes:pkg/apis/batch/validation/validation.go`
//! `validateJobSpec`, reached for a CronJob through `validateCronJobSpec` →
//! `ValidateJobTemplateSpec` with the path `spec.jobTemplate.spec`):
//! `restartPolicy` `Always` or empty gives
//! `spec.template.spec.restartPolicy: Required value: valid values: "OnFailure", "Never"`
//! and the whole object is rejected.
//!
//! An UNSET restartPolicy fails too, whichever way it reaches validation.
//! The generated defaulter of batch/v1 calls `core_v1.SetDefaults_PodSpec`
//! on the pod template (`pkg/apis/batch/v1/zz_generated.defaults.go`:
//! `SetObjectDefaults_Job` on `in.Spec.Template.Spec`, read; and
//! `SetObjectDefaults_CronJob` on `in.Spec.JobTemplate.Spec.Template.Spec`
//! in the releases that serve CronJob as batch/v1, not re-read here), and
//! `SetDefaults_PodSpec` turns an empty `restartPolicy` into `Always` (§5.1).
//! `validateJobSpec` checks both cases anyway, and says why in a comment:
//! "spec.Template.Spec.RestartPolicy can be defaulted as RestartPolicyAlways
//! by SetDefaults_PodSpec function when the user does not explicitly specify
//! a value for it, so we check both empty and RestartPolicyAlways cases
//! here". Any other unsupported
//! value (`Sometimes`) is PL003's `Unsupported value`.

use super::{edit, pod_spec_path, words, Context, Rule};
use super::{long, long_str};
use crate::diagnostic::{Diagnostic, Fix, Severity};
use crate::text;

pub static RULE: Rule = Rule {
    id: "PL601",
    name: "job-restart-always",
    severity: Severity::Error,
    scenario_aware: false,
    summary: words!(
        "a Job or CronJob pod template with restartPolicy Always, or none: the API server rejects it",
        "Job 或 CronJob 的 Pod 範本 restartPolicy 為 Always 或沒有設定：API server 會拒絕"
    ),
    what: long!(
        "For each Job and CronJob, checks the pod template's `restartPolicy` (`spec.template.spec`, or `spec.jobTemplate.spec.template.spec` for a CronJob). `Always`, an empty value, or no value at all is an error: the pod spec default is `Always`, and a Job only accepts `OnFailure` or `Never`. The message is the API server's: `spec.template.spec.restartPolicy: Required value: valid values: \"OnFailure\", \"Never\"`.",
        "對每個 Job 與 CronJob，檢查 Pod 範本的 `restartPolicy`（`spec.template.spec`，CronJob 則是 `spec.jobTemplate.spec.template.spec`）。`Always`、空值或完全沒寫都是錯誤：Pod spec 的預設值是 `Always`，而 Job 只接受 `OnFailure` 或 `Never`。訊息與 API server 相同：`spec.template.spec.restartPolicy: Required value: valid values: \"OnFailure\", \"Never\"`。"
    ),
    why: long!(
        "A Deployment's pod template copied into a Job keeps working everywhere except at `kubectl apply`: the API server rejects the whole Job, so the training run or batch-inference CronJob never starts, and in a pipeline the failure appears only after the image was built and pushed. Leaving `restartPolicy` out is the usual cause, because the error names a field the manifest does not even contain: the pod spec default `Always` is filled in before validation.",
        "把 Deployment 的 Pod 範本複製到 Job 裡，除了 `kubectl apply` 之外一切看起來都正常：API server 會拒絕整個 Job，訓練或批次推論的 CronJob 根本不會開始；在 CI/CD 流程裡，這個錯誤要等到映像建好、推上去之後才出現。最常見的原因是沒寫 `restartPolicy`，所以錯誤訊息指向一個 manifest 裡根本不存在的欄位：驗證之前，Pod spec 的預設值 `Always` 已經被填進去了。"
    ),
    failing: long_str!("apiVersion: batch/v1\nkind: Job\nmetadata: { name: finetune-llama }\nspec:\n  backoffLimit: 2\n  template:\n    spec:\n      containers:\n        - name: train\n          image: registry.example.com/finetune:2.1.0\n          args: [\"--epochs\", \"3\"]\n          resources:\n            limits: { nvidia.com/gpu: 1, memory: 24Gi }\n"),
    fixed: long_str!("apiVersion: batch/v1\nkind: Job\nmetadata: { name: finetune-llama }\nspec:\n  backoffLimit: 2\n  template:\n    spec:\n      restartPolicy: Never\n      containers:\n        - name: train\n          image: registry.example.com/finetune:2.1.0\n          args: [\"--epochs\", \"3\"]\n          resources:\n            limits: { nvidia.com/gpu: 1, memory: 24Gi }\n"),
    fix: long!(
        "Set `restartPolicy: Never` (the fix writes it) or `OnFailure`. They count failures differently. With `Never` every failed attempt stays as its own pod (STATUS `Error`) with its logs, a new pod replaces it after a back-off of 10 s, 20 s, 40 s…, and the Job fails when failed pods exceed `backoffLimit` (default 6: the 7th failure). With `OnFailure` the kubelet restarts the container inside the same pod (same node, `emptyDir` kept: local checkpoints and cached data survive), only the last run's logs remain (`kubectl logs --previous`), and the Job fails when the restart count reaches `backoffLimit`. For training, `Never` keeps each failed attempt's logs and exit code to debug; `OnFailure` restarts faster on the same GPU.",
        "設定 `restartPolicy: Never`（修正會寫這個）或 `OnFailure`。兩者計算失敗的方式不同。`Never`：每次失敗的嘗試都會留下自己的 Pod（STATUS `Error`）與日誌，控制器在 10 秒、20 秒、40 秒……的退避後建立新 Pod 取代它，失敗的 Pod 數超過 `backoffLimit`（預設 6，也就是第 7 次失敗）時 Job 失敗。`OnFailure`：kubelet 在同一個 Pod 裡重啟 container（同一個節點，`emptyDir` 保留：本機 checkpoint 與快取的資料都還在），只留得下上一輪的日誌（`kubectl logs --previous`），重啟次數達到 `backoffLimit` 時 Job 失敗。訓練工作用 `Never` 可以保留每次失敗的日誌與 exit code 方便排錯；`OnFailure` 則能在同一張 GPU 上更快重來。"
    ),
    check: Some(check),
};

fn check(context: &Context<'_>, out: &mut Vec<Diagnostic>) {
    for workload in context.workloads {
        if !workload.kind.is_batch() || workload.pod.keys.is_empty() {
            continue;
        }
        let policy = &workload.pod.restart_policy;
        let written = policy.span.is_some();
        if !(policy.value == "Always" || policy.value.is_empty()) {
            continue;
        }
        let path = pod_spec_path(workload);
        let kind = workload.kind.as_str();
        let name = &workload.name;
        let message = if written && policy.value.is_empty() {
            text!(
                "{path}.restartPolicy: Required value: valid values: \"OnFailure\", \"Never\" ({kind} \"{name}\" has an empty restartPolicy, so the pod default Always applies)",
                "{path}.restartPolicy：Required value: valid values: \"OnFailure\", \"Never\"（{kind}「{name}」的 restartPolicy 是空值，套用 Pod 的預設值 Always）"
            )
        } else if written {
            text!(
                "{path}.restartPolicy: Required value: valid values: \"OnFailure\", \"Never\" ({kind} \"{name}\" cannot restart its pods Always)",
                "{path}.restartPolicy：Required value: valid values: \"OnFailure\", \"Never\"（{kind}「{name}」的 Pod 不能用 Always）"
            )
        } else {
            text!(
                "{path}.restartPolicy: Required value: valid values: \"OnFailure\", \"Never\" ({kind} \"{name}\" sets no restartPolicy, so the pod default Always applies)",
                "{path}.restartPolicy：Required value: valid values: \"OnFailure\", \"Never\"（{kind}「{name}」沒有設定 restartPolicy，套用 Pod 的預設值 Always）"
            )
        };
        let span = policy.span.unwrap_or(workload.pod.key_span);
        let mut diagnostic = RULE.diagnostic(span, message).with_help(text!(
            "`kubectl apply` rejects the whole {kind} with this message; use `Never` to keep every failed attempt as a pod with its logs, or `OnFailure` to restart the container in place",
            "`kubectl apply` 會用這個訊息拒絕整個 {kind}；用 `Never` 可保留每次失敗的 Pod 與日誌，用 `OnFailure` 則在原地重啟 container"
        ));
        let edit = match policy.span {
            Some(value) => Some(edit::replace(value, "Never")),
            None => workload.pod.insertion_point().and_then(|at| {
                edit::insert_entry(context.text, at, &["restartPolicy: Never".to_string()])
            }),
        };
        if let Some(edit) = edit {
            diagnostic = diagnostic.with_fix(Fix {
                description: text!(
                    "set restartPolicy: Never in the {kind}'s pod template",
                    "在 {kind} 的 Pod 範本設定 restartPolicy: Never"
                ),
                edits: vec![edit],
            });
        }
        out.push(diagnostic);
    }
}
