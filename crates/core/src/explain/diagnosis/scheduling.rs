//! The pod that never reaches a node: the API server refused its object at
//! `kubectl apply` (PL101/PL102), or the scheduler found no node for it
//! (FailedScheduling, PL501-PL505).

use super::evidence::{assumed_cluster, object, Evidence};
use super::{Diagnosis, Kind};
use crate::explain::describe;
use crate::i18n::Text;
use crate::manifest::duration::Millis;
use crate::sim::{PodRun, Run};
use crate::text;

/// An object the API server refused (PL101/PL102's validation).
pub(super) fn refused(refused: &crate::sim::Refused) -> Diagnosis {
    let object = &refused.object;
    Diagnosis {
        assumed: Vec::new(),
        pod: object.clone(),
        kind: Kind::Refused,
        symptom: text!(
            "kubectl apply fails for {object}; kubectl get pods shows none of its pods",
            "{object} 在 kubectl apply 時就失敗；kubectl get pods 看不到它的任何 Pod"
        ),
        root_cause: text!(
            "the API server rejects the object before anything is scheduled: GPUs are extended resources, counted in whole units, with the request equal to the limit",
            "API server 在排程之前就拒絕了這個物件：GPU 是擴充資源（Extended Resource），只能用整數計算，而且 requests 必須等於 limits"
        ),
        evidence: vec![refused.message.clone()],
        next_command: "kubectl apply -f <file> --dry-run=server".to_string(),
        why_that_command: text!(
            "the server-side dry run prints the same validation error without changing the cluster; the field path in it points at the line to fix",
            "server 端的 dry run 不會改動叢集，但會印出同樣的驗證錯誤；錯誤裡的欄位路徑就指向要改的那一行"
        ),
        fix: text!(
            "ask for whole GPUs in limits (nvidia.com/gpu: 1); to share a GPU, use time-slicing, MPS or a MIG profile on the node side (PL101, PL102)",
            "在 limits 裡要求整數張 GPU（nvidia.com/gpu: 1）；想共用 GPU，請在節點端設定 time-slicing、MPS 或 MIG profile（PL101、PL102）"
        ),
    }
}

pub(super) fn unschedulable(run: &Run, pod: &PodRun, at: Millis) -> Option<Diagnosis> {
    let object = object(pod);
    let event = run
        .events
        .iter()
        .rev()
        .find(|e| e.reason == "FailedScheduling" && *e.object == *object && e.at <= at)?;
    let message = &event.message;
    let described = describe::describe_pod(run, pod, at);
    let mut evidence = Evidence::new();
    evidence.find(&described, "FailedScheduling", Some(&**message));
    evidence.find(&described, "PodScheduled", None);
    let reasons = message
        .split(". ")
        .next()
        .and_then(|head| head.split(": ").nth(1))
        .unwrap_or("");
    let not_helpful = message.contains("Preemption is not helpful");
    let insufficient: Vec<&str> = reasons
        .split(", ")
        .filter_map(|reason| reason.split_once(" Insufficient "))
        .map(|(_, resource)| resource)
        .collect();
    let extended = insufficient
        .iter()
        .find(|resource| resource.contains('/'))
        .copied();
    if let Some(resource) = extended {
        evidence.find_after(&described, "    Requests:", &format!("{resource}:"));
    }
    let mut causes: Vec<Text> = Vec::new();
    let mut fixes: Vec<Text> = Vec::new();
    if reasons.contains("untolerated taint") {
        causes.push(text!(
            "`node(s) had untolerated taint(s)`: the nodes carry a NoSchedule taint (GPU nodes are usually tainted nvidia.com/gpu) that the pod does not tolerate; the ExtendedResourceToleration admission plugin that would add it is off by default",
            "`node(s) had untolerated taint(s)`：節點有 NoSchedule 的 taint（GPU 節點通常帶有 nvidia.com/gpu），Pod 沒有對應的 toleration；會自動加上它的 ExtendedResourceToleration admission plugin 預設是關閉的"
        ));
        fixes.push(text!(
            "add a toleration for the node's taint to the pod template — for the usual GPU taint `tolerations: [{{ key: nvidia.com/gpu, operator: Exists, effect: NoSchedule }}]` (PL501 gpu-taint-not-tolerated)",
            "在 Pod template 加上容忍節點 taint 的 toleration——常見的 GPU taint 就是 `tolerations: [{{ key: nvidia.com/gpu, operator: Exists, effect: NoSchedule }}]`（PL501 gpu-taint-not-tolerated）"
        ));
    }
    if reasons.contains("node affinity/selector") {
        causes.push(text!(
            "`didn't match Pod's node affinity/selector`: no node has the labels the pod's nodeSelector or required node affinity asks for",
            "`didn't match Pod's node affinity/selector`：沒有任何節點有 Pod 的 nodeSelector 或必要 node affinity 要求的標籤"
        ));
        fixes.push(text!(
            "make the nodeSelector/affinity match a label the nodes really have (`kubectl get nodes --show-labels`)",
            "讓 nodeSelector／affinity 對上節點真的有的標籤（`kubectl get nodes --show-labels`）"
        ));
    }
    if reasons.contains("were unschedulable") {
        causes.push(text!(
            "`node(s) were unschedulable`: the nodes are cordoned",
            "`node(s) were unschedulable`：節點被 cordon 了"
        ));
        fixes.push(text!(
            "`kubectl uncordon <node>` once its maintenance is over",
            "維護結束後 `kubectl uncordon <node>`"
        ));
    }
    if let Some(resource) = extended {
        let holders: Vec<&str> = run
            .pods
            .iter()
            .filter(|other| other.node.as_ref().is_some_and(|(_, bound)| *bound <= at))
            .filter(|other| {
                other.spec.containers.iter().any(|c| {
                    c.resources
                        .limit(resource)
                        .or_else(|| c.resources.request(resource))
                        .is_some()
                })
            })
            .map(|other| other.name.as_str())
            .collect();
        let mig = resource.starts_with("nvidia.com/mig-");
        if mig && not_helpful {
            causes.push(text!(
                "`Insufficient {resource}`: no node advertises this MIG profile (the GPUs are not partitioned that way, the strategy is single, or the GPU has no MIG)",
                "`Insufficient {resource}`：沒有任何節點宣告這個 MIG profile（GPU 沒有這樣切、策略是 single，或這張 GPU 不支援 MIG）"
            ));
            fixes.push(text!(
                "ask for a MIG profile the nodes advertise, or change the nodes' MIG layout (PL503 mig-unsupported, PL502 gpu-unschedulable)",
                "改成要求節點有宣告的 MIG profile，或修改節點的 MIG layout（PL503 mig-unsupported、PL502 gpu-unschedulable）"
            ));
        } else if not_helpful {
            causes.push(text!(
                "`Insufficient {resource}` with `Preemption is not helpful`: the request is above what any node advertises at all — the NVIDIA device plugin is not running or has not registered the GPUs (allocatable 0), or the pod asks for more than one node has",
                "`Insufficient {resource}` 加上 `Preemption is not helpful`：要求量超過任何節點宣告的總量——NVIDIA device plugin 沒有執行或沒有註冊 GPU（allocatable 是 0），或是 Pod 要的比單一節點有的還多"
            ));
            fixes.push(text!(
                "install the NVIDIA device plugin (or GPU Operator) so the nodes register {resource}, or ask for no more than one node has (PL502 gpu-unschedulable)",
                "安裝 NVIDIA device plugin（或 GPU Operator）讓節點註冊 {resource}，或要求量不要超過單一節點的數量（PL502 gpu-unschedulable）"
            ));
        } else {
            let count = holders.len();
            let shown = holders
                .iter()
                .take(3)
                .copied()
                .collect::<Vec<_>>()
                .join(", ");
            let more = if count > 3 { ", …" } else { "" };
            causes.push(text!(
                "`Insufficient {resource}` with `No preemption victims found`: the nodes do advertise {resource}, but every one is already allocated ({count} running pod(s) hold them: {shown}{more}) and extended resources are never shared or overcommitted",
                "`Insufficient {resource}` 加上 `No preemption victims found`：節點確實有宣告 {resource}，但已經全部被分配出去（{count} 個執行中的 Pod 占著：{shown}{more}），擴充資源（Extended Resource）不能共用也不能超賣"
            ));
            fixes.push(text!(
                "lower replicas to the number of GPUs, add GPU nodes, or share GPUs (time-slicing, MPS or a MIG profile) (PL505 replicas-exceed-gpus)",
                "把 replicas 降到 GPU 的數量、增加 GPU 節點，或共享 GPU（Time-slicing、MPS 或 MIG profile）（PL505 replicas-exceed-gpus）"
            ));
        }
    }
    for resource in insufficient.iter().filter(|r| !r.contains('/')) {
        causes.push(text!(
            "`Insufficient {resource}`: the pod's {resource} requests do not fit in what is left on any node",
            "`Insufficient {resource}`：Pod 的 {resource} requests 在任何節點剩下的容量裡都放不下"
        ));
        fixes.push(text!(
            "lower the {resource} requests to what the program needs at steady state, or add nodes",
            "把 {resource} requests 降到程式穩態實際需要的量，或增加節點"
        ));
    }
    if causes.is_empty() {
        causes.push(text!(
            "no node passes the scheduler's filters",
            "沒有任何節點通過排程器的篩選"
        ));
        fixes.push(text!(
            "compare the pod's requests, tolerations and nodeSelector with the nodes",
            "比對 Pod 的 requests、tolerations、nodeSelector 與節點"
        ));
    }
    let join = |texts: &[Text]| {
        Text::new(
            texts
                .iter()
                .map(|t| t.en.clone())
                .collect::<Vec<_>>()
                .join("; "),
            texts
                .iter()
                .map(|t| t.zh_tw.clone())
                .collect::<Vec<_>>()
                .join("；"),
        )
    };
    let cause = join(&causes);
    let fix = join(&fixes);
    let (cause_en, cause_zh) = (&cause.en, &cause.zh_tw);
    let root_cause = text!(
        "the scheduler says \"{message}\" — {cause_en}",
        "排程器說「{message}」——{cause_zh}",
    );
    Some(Diagnosis {
        assumed: assumed_cluster(run),
        pod: pod.name.clone(),
        kind: Kind::Unschedulable,
        symptom: text!(
            "Pending: the pod was never scheduled to a node, no container started",
            "Pending：Pod 一直沒有被排程到任何節點，container 一個都沒啟動"
        ),
        root_cause,
        evidence: evidence.lines,
        next_command: "kubectl describe node".into(),
        why_that_command: text!(
            "describe pod's Events already quote the scheduler (FailedScheduling), and a pod that never started has no logs to read; describe node shows each node's Taints, Allocatable (is the GPU there at all?) and Allocated resources (is it all taken?)",
            "describe pod 的 Events 已經引用了排程器的訊息（FailedScheduling），沒啟動過的 Pod 也沒有日誌可看；describe node 會列出每個節點的 Taints、Allocatable（GPU 到底有沒有被註冊）和 Allocated resources（是不是已經被用光）"
        ),
        fix,
    })
}
