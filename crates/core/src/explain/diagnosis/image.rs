//! An image that cannot be pulled (ErrImagePull, ImagePullBackOff) or is
//! absent under `imagePullPolicy: Never` (ErrImageNeverPull).

use super::evidence::{spec, Evidence};
use super::{Diagnosis, Kind};
use crate::explain::describe;
use crate::manifest::duration::Millis;
use crate::sim::{ContainerRun, PodRun, Run};
use crate::text;

pub(super) fn image_pull(
    run: &Run,
    pod: &PodRun,
    container: &ContainerRun,
    reason: &str,
    at: Millis,
) -> Diagnosis {
    let name = &container.name;
    let image = spec(pod, container)
        .and_then(|c| c.image.as_ref())
        .map_or_else(String::new, |i| i.value.clone());
    let described = describe::describe_pod(run, pod, at);
    let mut evidence = Evidence::new();
    evidence.find(&described, &format!("Reason:       {reason}"), None);
    let never = reason == "ErrImageNeverPull";
    if never {
        evidence.find(&described, "is not present with pull policy of Never", None);
    } else {
        evidence.find(&described, "Failed to pull image", None);
        evidence.find(&described, "Back-off pulling image", None);
    }
    let full = crate::sim::image::normalized(&image);
    if never {
        return Diagnosis {
            assumed: Vec::new(),
            pod: pod.name.clone(),
            kind: Kind::ImagePull,
            symptom: text!(
                "{reason}: container \"{name}\" never starts",
                "{reason}：container「{name}」一直沒有啟動"
            ),
            root_cause: text!(
                "imagePullPolicy is Never and the image {image} is not on the node: the kubelet will not pull it",
                "imagePullPolicy 是 Never，而節點上沒有映像 {image}：kubelet 不會去拉"
            ),
            evidence: evidence.lines,
            next_command: format!("kubectl get pod {} -o jsonpath='{{.spec.nodeName}}'", pod.name),
            why_that_command: text!(
                "find the node, then load the image there (`kind load docker-image {image}`) or let the kubelet pull it",
                "先找出是哪個節點，再把映像放上去（`kind load docker-image {image}`），或讓 kubelet 自己拉"
            ),
            fix: text!(
                "set imagePullPolicy: IfNotPresent (the registry has it), or preload the image on every node",
                "把 imagePullPolicy 改成 IfNotPresent（registry 上有這個映像），或事先把映像放到每個節點上"
            ),
        };
    }
    Diagnosis {
        assumed: Vec::new(),
        pod: pod.name.clone(),
        kind: Kind::ImagePull,
        symptom: text!(
            "{reason}: container \"{name}\" never starts; the kubelet keeps trying to pull {image}, backing off 10 s, 20 s, 40 s … up to 5 min",
            "{reason}：container「{name}」一直沒有啟動；kubelet 一再嘗試拉 {image}，間隔 10 秒、20 秒、40 秒……最長 5 分鐘"
        ),
        root_cause: text!(
            "the registry has no image {full}: the tag is wrong or was never pushed (describe's Failed event ends with \"not found\"; an \"unauthorized\" there would mean missing imagePullSecrets instead)",
            "registry 上沒有映像 {full}：tag 寫錯了，或從來沒有推上去（describe 裡 Failed 事件的結尾是「not found」；如果是「unauthorized」，那才是少了 imagePullSecrets）"
        ),
        evidence: evidence.lines,
        next_command: format!("docker manifest inspect {image}"),
        why_that_command: text!(
            "ask the registry directly whether that tag exists, from your own machine; list the repository's tags to find the right one",
            "在自己的電腦上直接問 registry 這個 tag 存不存在；列出 repository 的 tag，找出正確的那一個"
        ),
        fix: text!(
            "correct the image tag in the manifest (or push the image); the pod starts at the next pull, no restart needed",
            "修正 manifest 裡的映像 tag（或把映像推上去）；下一次拉取時 Pod 就會啟動，不需要重啟"
        ),
    }
}
