//! The replay of a container that cannot start (`image-pull`,
//! `missing-config`), read from a `describe pod`.
//!
//! podlab's Scenario makes an object absent with `cluster.missing`
//! (docs/simulator.md): `Image/<ref>` is a reference the registry lacks
//! (`Failed to pull image "<ref>": rpc error: code = NotFound …`, then
//! ErrImagePull and ImagePullBackOff with the pull back-off, kubelet.md §9,
//! `sim/image.rs`), `Secret/<name>` or `ConfigMap/<name>` one the
//! container's environment needs (`Error: secret "<name>" not found`,
//! CreateContainerConfigError on every sync). The replay writes the pasted
//! image, or an `envFrom` of the object the kubelet's message names (the
//! paste does not say whether `env` or `envFrom` refers to it: both fail
//! alike), and lists it as missing. The fix drops it from `missing`: the
//! Secret the answer's `kubectl create secret` creates, or the image as a
//! tag the registry has. A registry that refuses (`unauthorized`,
//! `denied`) or cannot be reached is not modelled: the replay still shows
//! the STATUS, and has no fixed run.

use super::{
    cluster_yaml, container_yaml, dns_name, header, image_of, pod_age, quoted, run, running,
    scenario_yaml, status_and_restarts, Asks, Compared, Pool, Rebuilt, Replay, View, Workload,
};
use crate::paste::read::{ContainerFacts, PodFacts};
use crate::text;

/// The image a pull failure names: `Failed to pull image "x": …`,
/// `Back-off pulling image "x"`.
fn pulled_image(message: &str) -> Option<&str> {
    let (_, rest) = message
        .split_once("pulling image \"")
        .or_else(|| message.split_once("pull image \""))?;
    rest.split_once('"').map(|(image, _)| image)
}

/// The registry said the reference does not exist (podlab's model of a
/// pull failure), as opposed to refusing it or not answering.
fn not_found(message: &str) -> bool {
    let m = message.to_ascii_lowercase();
    m.contains("not found") || m.contains("manifest unknown") || m.contains("notfound")
}

pub(super) fn replay(
    kind: &'static str,
    pod: &PodFacts,
    container: &ContainerFacts,
) -> Option<Replay> {
    let age = pod_age(pod)?;
    let status = super::pasted_status(pod, container)?;
    let restarts = container.restarts.as_ref().map(|(n, _)| *n);
    let workload = Workload::of(pod);
    let name = dns_name(&container.name, "app");
    let asks = Asks::of(container).unwrap_or_default();
    if asks.other_devices() {
        return None;
    }
    let pool = Pool::fitting("node", 1, &asks);
    let keys = super::resources_yaml(container, None).unwrap_or_default();
    let pull_failure = pod
        .events
        .iter()
        .filter(|e| e.message.starts_with("Failed to pull image \""))
        .map(|e| e.message.clone())
        .chain(
            pod.logs
                .iter()
                .filter(|l| l.text.starts_with("Failed to pull image \""))
                .map(|l| l.text.clone()),
        )
        .next_back();
    if kind == "image-pull" {
        if !["ErrImagePull", "ImagePullBackOff"].contains(&status.as_str()) {
            return None;
        }
        let image = image_of(container).or_else(|| {
            pull_failure
                .as_deref()
                .and_then(pulled_image)
                .filter(|i| quoted(i).is_some())
                .map(str::to_string)
        })?;
        let modelled = pull_failure.as_deref().is_none_or(not_found);
        let missing = [quoted(&format!("Image/{image}"))?];
        let build = |missing: &[String]| {
            format!(
                "{}{}{}",
                header("the container and its image as pasted; the registry lacks the image (cluster.missing)."),
                workload.yaml(&container_yaml(&name, &image, &keys)),
                scenario_yaml(age.1, &cluster_yaml(std::slice::from_ref(&pool), missing))
            )
        };
        let text = build(&missing);
        let (fixed_text, fix_note) = if modelled {
            (
                Some(build(&[])),
                text!(
                    "the fix is an image the registry has: podlab cannot know the right tag, so the fixed replay keeps the name and drops it from cluster.missing (a tag that was pushed)",
                    "修正是一個 registry 裡有的映像：podlab 無法知道正確的 tag，所以修正後的重播保留映像名稱，把它從 cluster.missing 移除（也就是一個推上去過的 tag）"
                ),
            )
        } else {
            (
                None,
                text!(
                    "no fixed run: the registry refuses or does not answer (not \"not found\"), and podlab models only a reference the registry lacks, not credentials (imagePullSecrets) or the network",
                    "沒有修正後的重播：registry 拒絕或沒有回應（不是「not found」），而 podlab 只模擬 registry 裡沒有的映像，不模擬憑證（imagePullSecrets）或網路"
                ),
            )
        };
        let pasted = pull_failure.clone();
        let compare = move |view: &View<'_>| -> Vec<Compared> {
            let mut out = status_and_restarts(&status, restarts, view);
            if let Some(pasted) = &pasted {
                let replayed = view
                    .events("Failed")
                    .rfind(|m| m.starts_with("Failed to pull image \""))
                    .unwrap_or("-")
                    .to_string();
                let same = pulled_image(pasted) == pulled_image(&replayed)
                    && not_found(pasted) == not_found(&replayed);
                out.push(Compared {
                    what: "Failed",
                    pasted: pasted.clone(),
                    replayed,
                    same,
                });
            }
            out
        };
        return Some(run(
            Rebuilt {
                kind,
                text,
                fixed_text,
                workload,
                age,
                startup_s: 0,
                compare,
                recovers: running,
                assumed: vec![super::cluster_assumed(std::slice::from_ref(&pool))],
                fix_note,
            },
            pod,
        ));
    }
    // missing-config: the object the kubelet's message names.
    if status != "CreateContainerConfigError" {
        return None;
    }
    let messages: Vec<&str> = pod
        .events
        .iter()
        .map(|e| e.message.as_str())
        .chain(container.waiting_message.iter().map(|(m, _)| m.as_str()))
        .collect();
    let (object_kind, object) = messages
        .iter()
        .rev()
        .find_map(|m| crate::paste::fixes::not_found_object(m))?;
    quoted(&object)?;
    let (env, missing) = match object_kind.as_str() {
        "secret" => (
            format!("envFrom: [{{ secretRef: {{ name: {object} }} }}]\n"),
            format!("Secret/{object}"),
        ),
        _ => (
            format!("envFrom: [{{ configMapRef: {{ name: {object} }} }}]\n"),
            format!("ConfigMap/{object}"),
        ),
    };
    let image = image_of(container).unwrap_or_else(|| "registry.example.com/app:pasted".into());
    let build = |missing: &[String]| {
        format!(
            "{}{}{}",
            header("the container as pasted, its environment from the object the kubelet's message names (cluster.missing)."),
            workload.yaml(&container_yaml(&name, &image, &format!("{keys}{env}"))),
            scenario_yaml(age.1, &cluster_yaml(std::slice::from_ref(&pool), missing))
        )
    };
    let text = build(&[format!("\"{missing}\"")]);
    let fixed_text = build(&[]);
    let pasted = messages
        .iter()
        .rev()
        .find(|m| crate::paste::fixes::not_found_object(m).is_some())
        .map(|m| m.to_string());
    let compare = move |view: &View<'_>| -> Vec<Compared> {
        let mut out = status_and_restarts(&status, restarts, view);
        if let Some(pasted) = &pasted {
            let replayed = view
                .events("Failed")
                .rfind(|m| crate::paste::fixes::not_found_object(m).is_some())
                .unwrap_or("-")
                .to_string();
            let same = crate::paste::fixes::not_found_object(pasted)
                == crate::paste::fixes::not_found_object(&replayed);
            out.push(Compared {
                what: "Failed",
                pasted: pasted.clone(),
                replayed,
                same,
            });
        }
        out
    };
    Some(run(Rebuilt {
        kind,
        text,
        fixed_text: Some(fixed_text),
        workload,
        age,
        startup_s: 0,
        compare,
        recovers: running,
        assumed: vec![super::cluster_assumed(std::slice::from_ref(&pool))],
        fix_note: text!(
            "the fix creates the {object_kind} {object} (the answer's kubectl create command): the fixed replay drops it from cluster.missing",
            "修正建立 {object_kind} {object}（答案裡的 kubectl create 指令）：修正後的重播把它從 cluster.missing 移除"
        ),
    }, pod))
}
