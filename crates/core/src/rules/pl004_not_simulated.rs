//! PL004 not-simulated: reported by `lint.rs` for kinds podlab reads but
//! does not simulate, only when asked (`LintOptions::verbose`, the CLI's
//! `--verbose`; issue 14).

use super::{long, long_str};
use super::{words, Rule};
use crate::diagnostic::Severity;

pub static RULE: Rule = Rule {
    id: "PL004",
    name: "not-simulated",
    severity: Severity::Info,
    scenario_aware: false,
    summary: words!(
        "an object podlab keeps but does not simulate (ConfigMap, Ingress, CRDs)",
        "podlab 會保留但不模擬的物件（ConfigMap、Ingress、CRD）"
    ),
    what: long!(
        "Documents whose kind is not Pod, Deployment, ReplicaSet, StatefulSet, DaemonSet, Job, CronJob, Service or Scenario are kept and, when asked (`podlab lint --verbose`), reported once each as information. They are never an error, and quiet by default: a real file mixes ConfigMaps, Ingresses and custom resources with the workloads. An autoscaler (HorizontalPodAutoscaler or ScaledObject) whose target is a StatefulSet is reported too, and always: podlab does not scale StatefulSets by HPA yet, so the run shows the StatefulSet at its written replicas.",
        "kind 不是 Pod、Deployment、ReplicaSet、StatefulSet、DaemonSet、Job、CronJob、Service 或 Scenario 的文件會被保留；要求時（`podlab lint --verbose`）每份以資訊層級提示一次。這絕不是錯誤，預設也不提示：真實的檔案本來就會把 ConfigMap、Ingress 和自訂資源跟 workload 放在一起。目標是 StatefulSet 的自動擴縮器（HorizontalPodAutoscaler 或 ScaledObject）也會提示，而且一定提示：podlab 目前還不會用 HPA 擴縮 StatefulSet，所以模擬結果裡的 StatefulSet 維持原本寫的 replicas。"
    ),
    why: long!(
        "Model-serving stacks (KServe InferenceService, RayService, Kubeflow PyTorchJob) create their pods through operators; podlab can only show what a pod template it can read would do, so it says plainly which objects it skipped.",
        "模型服務的堆疊（KServe InferenceService、RayService、Kubeflow PyTorchJob）透過 operator 建立 Pod；podlab 只能呈現它讀得懂的 pod template 會發生什麼事，所以會清楚說明略過了哪些物件。"
    ),
    failing: long_str!("apiVersion: v1\nkind: ConfigMap\nmetadata: { name: model-config }\ndata:\n  MODEL_NAME: llama-3-8b\n"),
    fixed: long_str!("apiVersion: v1\nkind: Pod\nmetadata: { name: model }\nspec:\n  containers:\n    - name: api\n      image: registry.example.com/model-api:0.3.1\n"),
    fix: long!(
        "Nothing to fix. To simulate an operator's workload, paste the Deployment or Job it creates (`kubectl get deploy -o yaml`).",
        "不需要修正。若要模擬 operator 產生的 workload，請貼上它建立的 Deployment 或 Job（`kubectl get deploy -o yaml`）。"
    ),
    check: None,
};
