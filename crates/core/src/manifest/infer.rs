//! A cluster that matches a pasted manifest: with no Scenario
//! `cluster.nodePools`, a pod that names a managed cloud's GPU node (GKE
//! `cloud.google.com/gke-accelerator`, EKS `node.kubernetes.io/instance-type`,
//! Karpenter / EKS Auto Mode `instance-gpu-name`, Karpenter
//! `instance-family`, GFD `nvidia.com/gpu.product`) in its nodeSelector or
//! in the first term of its required node affinity gets a node pool built
//! from that hint; pods without a hint keep podlab's default pool. A written
//! cluster always wins (`manifest::read` calls this only without one).
//!
//! Facts (docs/simulator.md "Inferred cluster"): GKE taints GPU nodes
//! `nvidia.com/gpu=present:NoSchedule` and runs the ExtendedResourceToleration
//! admission plugin, which adds `{key: <resource>, operator: Exists, effect:
//! NoSchedule}` to pods that request an extended resource (gpu-sharing.md §8;
//! GKE "Run GPUs in Standard node pools", quoted in kserve's accelerator
//! sample; kubernetes/kubernetes#55839). EKS node groups and Karpenter add
//! no GPU taint by default (gpu-sharing.md §8).

use std::borrow::Cow;

use crate::gpu;
use crate::i18n::Text;
use crate::manifest::model::{PodSpec, Toleration, Workload};
use crate::manifest::resources::pod_gpu_requests;
use crate::manifest::scenario::{NodePool, PoolGpu, Scenario, Sharing, Taint, GIB};
use crate::span::Span;

const GKE_ACCELERATOR: &str = "cloud.google.com/gke-accelerator";

/// `cloud.google.com/gke-accelerator` values → catalog models (GKE "GPU
/// platforms"; values not listed keep their name, with no memory check).
const GKE_MODELS: &[(&str, &str)] = &[
    ("nvidia-tesla-t4", "T4"),
    ("nvidia-tesla-v100", "V100"),
    ("nvidia-l4", "L4"),
    ("nvidia-tesla-a100", "A100-40GB"),
    ("nvidia-a100-80gb", "A100-80GB"),
    ("nvidia-h100-80gb", "H100-80GB"),
    ("nvidia-h100-mega-80gb", "H100-80GB"),
    ("nvidia-h200-141gb", "H200-141GB"),
    ("nvidia-b200", "B200-180GB"),
    ("nvidia-gb200", "GB200-186GB"),
    ("nvidia-rtx-pro-6000", "RTX-PRO-6000-Blackwell-96GB"),
];

/// EC2 GPU families: (family, model, MiB of memory per vCPU) (AWS "Accelerated
/// computing instance types": g4dn 4 GiB/vCPU, g5/g6 4, g6e 8, p3 61 GiB per 8,
/// p4d/p4de 1152 GiB per 96, p5/p5e/p5en 2048 GiB per 192).
const EC2_FAMILIES: &[(&str, &str, i128)] = &[
    ("g4dn", "T4", 4096),
    ("g5", "A10G", 4096),
    ("g6", "L4", 4096),
    ("g6e", "L40S", 8192),
    ("p3", "V100", 7808),
    ("p3dn", "V100", 8192),
    ("p4d", "A100-40GB", 12288),
    ("p4de", "A100-80GB", 12288),
    ("p5", "H100-80GB", 10923),
    ("p5e", "H200-141GB", 10923),
    ("p5en", "H200-141GB", 10923),
];

/// Karpenter `instance-gpu-name` / EKS Auto Mode `instance-gpu-name` values.
const GPU_NAMES: &[(&str, &str)] = &[
    ("t4", "T4"),
    ("a10g", "A10G"),
    ("l4", "L4"),
    ("l40s", "L40S"),
    ("v100", "V100"),
    ("a100", "A100-40GB"),
    ("h100", "H100-80GB"),
    ("h200", "H200-141GB"),
    ("b200", "B200-180GB"),
];

/// What one hint says about the node.
struct Hint {
    /// `key: value` as written, for the note.
    written: String,
    gke: bool,
    model: String,
    /// GPUs per node and (vCPU, MiB per vCPU) when an instance type says so.
    instance: Option<(i64, i128, i128)>,
    /// A GFD product with `-SHARED`: time-slicing without renaming.
    shared: bool,
}

fn known(table: &[(&str, &str)], value: &str) -> Option<String> {
    table
        .iter()
        .find(|(name, _)| name.eq_ignore_ascii_case(value))
        .map(|(_, model)| model.to_string())
}

/// `g5.12xlarge` → (model, GPUs, vCPUs, MiB per vCPU).
fn ec2(instance_type: &str) -> Option<(String, i64, i128, i128)> {
    let (family, size) = instance_type.split_once('.')?;
    let (_, model, mib) = EC2_FAMILIES
        .iter()
        .find(|(name, _, _)| name.eq_ignore_ascii_case(family))?;
    let vcpu: i128 = match size {
        "xlarge" => 4,
        "metal" => 96,
        _ => size
            .strip_suffix("xlarge")?
            .parse::<i128>()
            .ok()?
            .saturating_mul(4),
    };
    let gpus = match (family.starts_with('p'), vcpu) {
        (true, 16) => 1,
        (true, 32) => 4,
        (true, 8) => 1,
        (true, _) => 8,
        (false, 48 | 96) => 4,
        (false, v) if v >= 192 => 8,
        (false, _) => 1,
    };
    Some((model.to_string(), gpus, vcpu, *mib))
}

fn hint(key: &str, value: &str) -> Option<Hint> {
    let written = format!("{key}: {value}");
    let plain = |model: String| Hint {
        written: written.clone(),
        gke: false,
        model,
        instance: None,
        shared: false,
    };
    match key {
        GKE_ACCELERATOR => Some(Hint {
            gke: true,
            model: known(GKE_MODELS, value).unwrap_or_else(|| value.to_string()),
            ..plain(String::new())
        }),
        "node.kubernetes.io/instance-type" | "beta.kubernetes.io/instance-type" => {
            let (model, gpus, vcpu, mib) = ec2(value)?;
            Some(Hint {
                instance: Some((gpus, vcpu, mib)),
                ..plain(model)
            })
        }
        "karpenter.k8s.aws/instance-gpu-name" | "eks.amazonaws.com/instance-gpu-name" => {
            known(GPU_NAMES, value).map(plain)
        }
        "karpenter.k8s.aws/instance-family" => ec2(&format!("{value}.xlarge"))
            .map(|(model, ..)| model)
            .map(plain),
        "nvidia.com/gpu.product" => {
            // GFD appends `-SHARED` under time-slicing and `-MIG-<profile>`
            // under MIG single (gpu-sharing.md §6).
            let base = value.trim_end_matches("-SHARED");
            let base = base.split("-MIG-").next().unwrap_or(base);
            let model = gpu::lookup(base)
                .or_else(|| gpu::lookup(base.trim_start_matches("NVIDIA-")))
                .map_or_else(|| base.to_string(), |gpu| gpu.model.to_string());
            Some(Hint {
                shared: value.ends_with("-SHARED"),
                ..plain(model)
            })
        }
        _ => None,
    }
}

/// The labels a node needs to admit the pod: its nodeSelector and, of its
/// required affinity, the first term (`In`: the first value; `Exists`: `true`).
fn wanted_labels(pod: &PodSpec) -> Vec<(String, String)> {
    let mut labels = pod.node_selector.clone();
    for requirement in pod.node_affinity.first().map_or(&[][..], Vec::as_slice) {
        let value = match requirement.operator.as_str() {
            "In" => requirement.values.first().cloned(),
            "Exists" => Some("true".to_string()),
            _ => None,
        };
        if let Some(value) = value {
            if !labels.iter().any(|(key, _)| *key == requirement.key) {
                labels.push((requirement.key.clone(), value));
            }
        }
    }
    labels
}

fn pod_requests(workload: &Workload, name: &str) -> i128 {
    workload
        .pod
        .containers
        .iter()
        .filter_map(|c| c.resources.effective_request(name))
        .map(|q| if name == "cpu" { q.milli } else { q.value() })
        .fold(0, i128::saturating_add)
}

/// Replaces the default pool with pools for the pods' cloud hints; sets the
/// note and, for GKE, the admission plugin. Nothing changes without a hint.
pub fn infer_cluster(scenario: &mut Scenario, workloads: &[Workload]) {
    let mut pools: Vec<NodePool> = Vec::new();
    let mut reasons: Vec<(String, String)> = Vec::new();
    let mut unhinted = false;
    let mut gke = false;
    for workload in workloads {
        let labels = wanted_labels(&workload.pod);
        let Some((key, hint)) = labels
            .iter()
            .find_map(|(key, value)| hint(key, value).map(|hint| (key.clone(), hint)))
        else {
            unhinted = true;
            continue;
        };
        let gpus: i64 = pod_gpu_requests(workload)
            .iter()
            .filter(|(name, _)| name == "nvidia.com/gpu")
            .map(|(_, count)| *count)
            .sum();
        let count = hint.instance.map_or_else(
            || i64::from((gpus.clamp(1, 64) as u32).next_power_of_two()),
            |(per_node, ..)| per_node,
        );
        let (cpu, memory) = match hint.instance {
            Some((_, vcpu, mib)) => (vcpu * 1000, vcpu * mib * (1 << 20)),
            None => {
                let default = NodePool::default_pool();
                (
                    default.cpu_milli.max(pod_requests(workload, "cpu")),
                    default.memory_bytes.max(pod_requests(workload, "memory")),
                )
            }
        };
        gke |= hint.gke;
        reasons.push((
            format!("{}/{}", workload.kind.as_str(), workload.name),
            hint.written.clone(),
        ));
        if let Some(pool) = pools.iter_mut().find(|pool| pool.labels == labels) {
            if let Some(gpu) = pool.gpu.as_mut() {
                gpu.count = gpu.count.max(count);
            }
            pool.cpu_milli = pool.cpu_milli.max(cpu);
            pool.memory_bytes = pool.memory_bytes.max(memory);
            continue;
        }
        let value = labels
            .iter()
            .find(|(known, _)| *known == key)
            .map_or("gpu", |(_, value)| value.as_str());
        pools.push(NodePool {
            name: super::name_from(value),
            span: None,
            count: 1,
            cpu_milli: cpu,
            memory_bytes: memory,
            gpu: Some(PoolGpu {
                catalog: gpu::lookup(&hint.model),
                model: hint.model,
                model_span: None,
                count,
            }),
            device_plugin: true,
            // The replica count is not in the manifest: enough shares for
            // every pod of the workload (at least 2).
            sharing: if hint.shared {
                Sharing::TimeSlicing {
                    replicas: workload
                        .replicas
                        .as_ref()
                        .map_or(1, |r| r.value)
                        .saturating_mul(gpus)
                        .clamp(2, 64),
                    rename: false,
                }
            } else {
                Sharing::None
            },
            taints: if hint.gke {
                vec![Taint {
                    key: "nvidia.com/gpu".into(),
                    value: "present".into(),
                    effect: "NoSchedule".into(),
                }]
            } else {
                Vec::new()
            },
            labels,
        });
    }
    if pools.is_empty() {
        return;
    }
    if unhinted {
        pools.push(NodePool::default_pool());
    }
    scenario.extended_resource_toleration = gke;
    scenario.inferred_note = Some(note(&pools, &reasons, gke, unhinted));
    scenario.node_pools = pools;
}

fn note(pools: &[NodePool], reasons: &[(String, String)], gke: bool, unhinted: bool) -> Text {
    let mut en = Vec::new();
    let mut zh = Vec::new();
    for pool in pools {
        let gpu = pool.gpu.as_ref().map_or(String::new(), |gpu| {
            format!("{} × {}", gpu.count, gpu.model)
        });
        let cpu = pool.cpu_milli / 1000;
        let memory = pool.memory_bytes / GIB;
        let labels: Vec<String> = pool
            .labels
            .iter()
            .map(|(k, v)| format!("{k}={v}"))
            .collect();
        let taints: Vec<String> = pool
            .taints
            .iter()
            .map(|t| format!("{}={}:{}", t.key, t.value, t.effect))
            .collect();
        let extra = |comma: &str, labels_word: &str| {
            let mut extra = String::new();
            if !labels.is_empty() {
                extra.push_str(&format!("{comma}{labels_word} {}", labels.join(",")));
            }
            if !taints.is_empty() {
                extra.push_str(&format!("{comma}taint {}", taints.join(",")));
            }
            extra
        };
        en.push(format!(
            "`{}` ({} node, {gpu}, {cpu} CPU, {memory}Gi{})",
            pool.name,
            pool.count,
            extra(", ", "labels")
        ));
        zh.push(format!(
            "`{}`（{} 個節點，{gpu}，{cpu} CPU，{memory}Gi{}）",
            pool.name,
            pool.count,
            extra("，", "標籤")
        ));
    }
    let from: Vec<String> = reasons
        .iter()
        .map(|(object, hint)| format!("`{hint}` in {object}"))
        .collect();
    let from_zh: Vec<String> = reasons
        .iter()
        .map(|(object, hint)| format!("{object} 的 `{hint}`"))
        .collect();
    let mut text = Text::new(
        format!(
            "No Scenario cluster: podlab assumed the cluster these manifests were written for, from {}: node pool{} {}.",
            from.join(", "),
            if pools.len() > 1 { "s" } else { "" },
            en.join("; ")
        ),
        format!(
            "沒有 Scenario cluster：podlab 依照 {} 推測這些 manifest 原本要用的叢集，節點池為 {}。",
            from_zh.join("、"),
            zh.join("；")
        ),
    );
    if gke {
        text.en.push_str(" As on GKE, the ExtendedResourceToleration admission plugin adds the nvidia.com/gpu toleration to pods that request GPUs.");
        text.zh_tw.push_str("與 GKE 相同，ExtendedResourceToleration admission plugin 會替要求 GPU 的 Pod 加上 nvidia.com/gpu 的 toleration。");
    }
    if unhinted {
        text.en
            .push_str(" Pods without a cloud hint use podlab's default pool `gpu`.");
        text.zh_tw
            .push_str("沒有雲端線索的 Pod 使用 podlab 的預設節點池 `gpu`。");
    }
    text.en.push_str(" To simulate another cluster, add a Scenario with `spec.cluster.nodePools`: a written cluster always wins.");
    text.zh_tw.push_str(
        "要模擬其他叢集，請加上寫了 `spec.cluster.nodePools` 的 Scenario：寫明的叢集一定優先。",
    );
    text
}

/// The names of the extended resources a pod requests (containers and init
/// containers, requests or limits), sorted: `IsExtendedResourceName` — a
/// domain-prefixed name outside `kubernetes.io/`.
fn extended_resources(pod: &PodSpec) -> Vec<String> {
    let mut names: Vec<String> = pod
        .containers
        .iter()
        .chain(&pod.init_containers)
        .flat_map(|c| c.resources.requests.iter().chain(&c.resources.limits))
        .map(|amount| amount.name.clone())
        .filter(|name| name.contains('/') && !name.contains("kubernetes.io/"))
        .collect();
    crate::sort::sort(&mut names);
    names.dedup();
    names
}

impl Scenario {
    /// The pod's tolerations after admission: with ExtendedResourceToleration
    /// on (`kubernetes/kubernetes:plugin/pkg/admission/extendedresourcetoleration`
    /// `Admit`), one `{key: <resource>, operator: Exists, effect: NoSchedule}`
    /// per requested extended resource, in name order, unless the same
    /// toleration is written (`AddOrUpdateTolerationInPod`).
    pub fn tolerations<'p>(&self, pod: &'p PodSpec) -> Cow<'p, [Toleration]> {
        if !self.extended_resource_toleration {
            return Cow::Borrowed(&pod.tolerations);
        }
        let mut tolerations = pod.tolerations.clone();
        for key in extended_resources(pod) {
            let added = Toleration {
                key,
                operator: "Exists".into(),
                value: String::new(),
                effect: "NoSchedule".into(),
                span: Span::new(pod.span.start, pod.span.start),
            };
            let same = |t: &Toleration| {
                t.key == added.key
                    && t.operator == added.operator
                    && t.value.is_empty()
                    && t.effect == added.effect
            };
            if !tolerations.iter().any(same) {
                tolerations.push(added);
            }
        }
        Cow::Owned(tolerations)
    }

    /// The text of the assumed-cluster note, in `lang`, when the cluster was
    /// inferred (for `podlab simulate` and the page).
    pub fn cluster_note(&self, lang: crate::i18n::Lang) -> Option<&str> {
        self.inferred_note.as_ref().map(|note| note.get(lang))
    }
}
