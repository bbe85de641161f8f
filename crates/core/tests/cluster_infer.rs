//! A cluster that matches a pasted manifest (issue 12 item 5,
//! `manifest/infer.rs`): corpus files written for GKE land on the pool their
//! selector names, EKS instance types and GPU-name labels give their
//! instance's GPUs, a written Scenario cluster wins, and a manifest without a
//! cloud hint keeps the default pool.

use std::path::Path;

use podlab_core::i18n::Lang;
use podlab_core::lint::{lint, read};
use podlab_core::manifest::scenario::{NodePool, Sharing};
use podlab_core::sim::{cluster_note, simulate, Options, Run};

fn corpus(path: &str) -> String {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/corpus")
        .join(path);
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

fn run(text: &str) -> Run {
    simulate(
        text,
        &Options {
            until: Some(60_000),
        },
    )
}

/// The node of every pod of the run, in creation order.
fn nodes(run: &Run) -> Vec<Option<String>> {
    run.pods
        .iter()
        .map(|pod| pod.node.as_ref().map(|(node, _)| node.clone()))
        .collect()
}

/// (file, inferred pool, GPUs per node) for every simulated corpus file
/// whose pods name a GKE accelerator or a GFD product in their nodeSelector.
const CLOUD_FILES: &[(&str, &str, &str, i64)] = &[
    ("GoogleCloudPlatform__kubernetes-engine-samples/ai-ml__llm-serving-gemma__vllm__vllm-2-2b-it.yaml", "nvidia-l4", "L4", 1),
    ("GoogleCloudPlatform__kubernetes-engine-samples/ai-ml__llm-serving-gemma__tgi__tgi-2-2b-it.yaml", "nvidia-l4", "L4", 1),
    ("GoogleCloudPlatform__kubernetes-engine-samples/ai-ml__gke-online-serving-single-gpu__src__gke-config__deployment-triton.yaml", "nvidia-l4", "L4", 1),
    ("GoogleCloudPlatform__kubernetes-engine-samples/ai-ml__llm-multiple-gpus__llama3-70b__text-generation-inference.yaml", "nvidia-l4", "L4", 2),
    ("GoogleCloudPlatform__kubernetes-engine-samples/ai-ml__llm-finetuning-gemma__finetune.yaml", "nvidia-l4", "L4", 8),
    ("GoogleCloudPlatform__ai-on-gke/tutorials-and-examples__gpu-examples__training-single-gpu__src__gke-config__standard-tf-mnist-train.yaml", "nvidia-tesla-t4", "T4", 1),
    ("NVIDIA__gpu-operator/tests__plugin-test.yaml", "tesla-t4-shared", "T4", 1),
];

#[test]
fn corpus_files_with_a_cloud_selector_schedule_on_their_inferred_pool() {
    for (file, pool, model, gpus) in CLOUD_FILES {
        let text = corpus(file);
        let reading = read(&text);
        let scenario = &reading.scenario;
        assert!(
            scenario.is_cluster_inferred(),
            "{file}: no inferred cluster"
        );
        let inferred = &scenario.node_pools[0];
        assert_eq!(inferred.name, *pool, "{file}");
        let gpu = inferred.gpu.as_ref().expect("a GPU pool");
        assert_eq!(gpu.catalog.map(|g| g.model), Some(*model), "{file}");
        assert_eq!(gpu.count, *gpus, "{file}");
        if file.contains("SHARED") || text.contains("Tesla-T4-SHARED") {
            // `-SHARED`: time-slicing, one share per replica.
            assert!(
                matches!(
                    inferred.sharing,
                    Sharing::TimeSlicing {
                        replicas: 5,
                        rename: false
                    }
                ),
                "{file}"
            );
        }
        let run = run(&text);
        assert!(!run.pods.is_empty(), "{file}: no pods");
        for node in nodes(&run) {
            assert_eq!(node, Some(format!("{pool}-0")), "{file}");
        }
        assert!(
            !run.events.iter().any(|e| e.reason == "FailedScheduling"),
            "{file}: FailedScheduling"
        );
    }
}

#[test]
fn the_gke_vllm_sample_tolerates_the_gke_gpu_taint_by_admission() {
    let text = corpus(CLOUD_FILES[0].0);
    let reading = read(&text);
    let pool = &reading.scenario.node_pools[0];
    assert_eq!(reading.scenario.node_pools.len(), 1);
    assert_eq!(
        (
            pool.taints[0].key.as_str(),
            pool.taints[0].value.as_str(),
            pool.taints[0].effect.as_str()
        ),
        ("nvidia.com/gpu", "present", "NoSchedule")
    );
    assert!(reading.scenario.extended_resource_toleration);
    // The written manifest has no toleration; the admitted pod has one.
    assert!(reading.workloads[0].pod.tolerations.is_empty());
    let run = run(&text);
    let tolerations = &run.pods[0].spec.tolerations;
    assert_eq!(tolerations.len(), 1);
    assert_eq!(
        (
            tolerations[0].key.as_str(),
            tolerations[0].operator.as_str(),
            tolerations[0].effect.as_str()
        ),
        ("nvidia.com/gpu", "Exists", "NoSchedule")
    );
    // No PL501 on GKE: the admission plugin adds the toleration.
    assert!(!lint(&text).diagnostics.iter().any(|d| d.rule == "PL501"));
    let note = cluster_note(&text).expect("a note");
    assert!(
        note.get(Lang::En).contains(
            "`cloud.google.com/gke-accelerator: nvidia-l4` in Deployment/vllm-gemma-deployment"
        ),
        "{}",
        note.en
    );
    assert!(note.get(Lang::En).contains("spec.cluster.nodePools"));
    assert!(note.get(Lang::ZhTw).contains("節點池"));
}

const EKS: &str = "apiVersion: apps/v1\nkind: Deployment\nmetadata: { name: llm }\nspec:\n  replicas: 1\n  selector: { matchLabels: { app: llm } }\n  template:\n    metadata: { labels: { app: llm } }\n    spec:\n      nodeSelector:\n        karpenter.sh/nodepool: gpu\n      affinity:\n        nodeAffinity:\n          requiredDuringSchedulingIgnoredDuringExecution:\n            nodeSelectorTerms:\n              - matchExpressions:\n                  - { key: node.kubernetes.io/instance-type, operator: In, values: [g5.12xlarge, g5.24xlarge] }\n      containers:\n        - name: server\n          image: vllm/vllm-openai:v0.6.3\n          resources:\n            limits: { nvidia.com/gpu: 4 }\n---\napiVersion: v1\nkind: Pod\nmetadata: { name: web }\nspec:\n  containers:\n    - name: web\n      image: nginx:1.27\n";

#[test]
fn an_eks_instance_type_in_node_affinity_gives_that_instance_and_untainted_nodes() {
    let reading = read(EKS);
    let pools = &reading.scenario.node_pools;
    // g5.12xlarge: 4 × A10G, 48 vCPU, 192 GiB; the pod without a hint keeps
    // the default pool.
    assert_eq!(pools.len(), 2);
    assert_eq!(pools[0].name, "g5-12xlarge");
    let gpu = pools[0].gpu.as_ref().expect("a GPU");
    assert_eq!((gpu.catalog.map(|g| g.model), gpu.count), (Some("A10G"), 4));
    assert_eq!(pools[0].cpu_milli, 48_000);
    assert_eq!(pools[0].memory_bytes, 192 << 30);
    assert!(pools[0].taints.is_empty());
    assert_eq!(
        pools[0].labels,
        vec![
            ("karpenter.sh/nodepool".to_string(), "gpu".to_string()),
            (
                "node.kubernetes.io/instance-type".to_string(),
                "g5.12xlarge".to_string()
            ),
        ]
    );
    assert_eq!(pools[1], NodePool::default_pool());
    assert!(!reading.scenario.extended_resource_toleration);
    // First fit: the untainted GPU node also takes the web pod, as a real
    // scheduler would (nothing keeps it off).
    let run = run(EKS);
    assert_eq!(
        nodes(&run),
        vec![
            Some("g5-12xlarge-0".to_string()),
            Some("g5-12xlarge-0".to_string())
        ]
    );
    assert!(cluster_note(EKS).is_some_and(|note| note.en.contains("default pool `gpu`")));
}

#[test]
fn karpenter_gpu_name_and_gpu_count_size_the_pool() {
    let text = EKS
        .replace(
            "{ key: node.kubernetes.io/instance-type, operator: In, values: [g5.12xlarge, g5.24xlarge] }",
            "{ key: karpenter.k8s.aws/instance-gpu-name, operator: In, values: [l40s] }",
        )
        .replace("nvidia.com/gpu: 4", "nvidia.com/gpu: 3");
    let reading = read(&text);
    let gpu = reading.scenario.node_pools[0].gpu.as_ref().expect("a GPU");
    // 3 GPUs asked: the next machine size, 4 GPUs.
    assert_eq!((gpu.catalog.map(|g| g.model), gpu.count), (Some("L40S"), 4));
    assert_eq!(nodes(&run(&text))[0], Some("l40s-0".to_string()));
}

#[test]
fn a_written_scenario_cluster_wins_over_inference() {
    let text = format!(
        "{}\n---\napiVersion: podlab.dev/v1alpha1\nkind: Scenario\nmetadata: {{ name: s }}\nspec:\n  cluster:\n    nodePools:\n      - name: a100\n        gpu: {{ model: A100-80GB, count: 1 }}\n",
        corpus(CLOUD_FILES[0].0).trim_end()
    );
    let reading = read(&text);
    assert!(!reading.scenario.is_cluster_inferred());
    assert!(cluster_note(&text).is_none());
    assert_eq!(reading.scenario.node_pools.len(), 1);
    assert_eq!(reading.scenario.node_pools[0].name, "a100");
    let run = run(&text);
    assert_eq!(nodes(&run), vec![None]);
    assert!(run.events.iter().any(|e| e.reason == "FailedScheduling"
        && e.message
            .contains("didn't match Pod's node affinity/selector")));
}

#[test]
fn a_written_cluster_can_turn_on_extended_resource_toleration() {
    let text = "apiVersion: v1\nkind: Pod\nmetadata: { name: p }\nspec:\n  containers:\n    - name: c\n      image: c:1\n      resources: { limits: { nvidia.com/gpu: 1 } }\n---\napiVersion: podlab.dev/v1alpha1\nkind: Scenario\nmetadata: { name: s }\nspec:\n  cluster:\n    admissionPlugins: [ExtendedResourceToleration]\n    nodePools:\n      - name: gpu\n        gpu: { model: L4, count: 1 }\n        taints: [{ key: nvidia.com/gpu, value: present, effect: NoSchedule }]\n";
    assert!(!lint(text).diagnostics.iter().any(|d| d.rule == "PL501"));
    assert_eq!(nodes(&run(text)), vec![Some("gpu-0".to_string())]);
    let without = text.replace("    admissionPlugins: [ExtendedResourceToleration]\n", "");
    assert_eq!(nodes(&run(&without)), vec![None]);
    assert!(lint(&without).diagnostics.iter().any(|d| d.rule == "PL501"));
}

#[test]
fn manifests_without_a_cloud_hint_keep_the_default_cluster() {
    for text in [
        "apiVersion: v1\nkind: Pod\nmetadata: { name: p }\nspec:\n  containers:\n    - name: c\n      image: c:1\n      resources: { limits: { nvidia.com/gpu: 1 } }\n",
        // A selector podlab cannot read as a cloud's GPU node stays unmatched.
        "apiVersion: v1\nkind: Pod\nmetadata: { name: p }\nspec:\n  nodeSelector: { gpu: \"true\" }\n  containers:\n    - name: c\n      image: c:1\n",
    ] {
        let reading = read(text);
        assert!(!reading.scenario.is_cluster_inferred());
        assert_eq!(reading.scenario.node_pools, vec![NodePool::default_pool()]);
        assert!(!reading.scenario.extended_resource_toleration);
        assert!(cluster_note(text).is_none());
    }
}
