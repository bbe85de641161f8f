//! The numbers podlab assumed: one `Assumption` per number a run uses that
//! neither a Scenario nor a `podlab.dev/` annotation states (DESIGN.md's
//! defaults: load time 40 s, steady memory = the request, peak = 1.75 ×
//! steady, one worker, no GPU memory, the default or inferred cluster).
//! An outcome that follows from one of them is conditional, and says so
//! (`explain::diagnosis`, `podlab simulate`); the paths are
//! `manifest::path`'s (docs/paths.md).
//!
//! Listed per app container of each workload the API server would store
//! (a refused object runs nothing), in document and container order, the
//! cluster last; a path with the same value twice is listed once. A GPU's
//! memory is listed only for a container that asks for a GPU: for the
//! others no outcome rests on it. Init containers and sidecars are not
//! listed (their defaults are a job's, `Scenario::init_program`).

use crate::i18n::Text;
use crate::manifest::model::Workload;
use crate::manifest::path::{Path, ProgramField};
use crate::manifest::quantity::format_bytes;
use crate::manifest::scenario::{NodePool, Program, Scenario};
use crate::text;

/// One assumed number: where it would be stated, and the value used.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Assumption {
    pub path: Path,
    /// As the Scenario would write it: `17920Mi`, `40s`, `1`; the cluster
    /// as its `nodePools` list.
    pub value: String,
}

/// The assumed numbers of a text's objects and Scenario.
pub fn assumptions(workloads: &[Workload], scenario: &Scenario) -> Vec<Assumption> {
    let mut out: Vec<Assumption> = Vec::new();
    for workload in workloads {
        if crate::manifest::api::refusal(workload).is_some() {
            continue;
        }
        for container in &workload.pod.containers {
            let program = scenario.program(container);
            let asks_for_gpu = !crate::manifest::resources::gpu_requests(container).is_empty();
            for field in ProgramField::ALL {
                if field == ProgramField::GpuMemory && !asks_for_gpu {
                    continue;
                }
                if let Some(value) = assumed_value(&program, field) {
                    let assumption = Assumption {
                        path: Path::program(&container.name, field),
                        value,
                    };
                    if !out.contains(&assumption) {
                        out.push(assumption);
                    }
                }
            }
        }
    }
    if !scenario.pools_written {
        out.push(Assumption {
            path: Path::Cluster,
            value: cluster_value(&scenario.node_pools),
        });
    }
    out
}

/// One line saying what was assumed, in both languages, for a reader of
/// `podlab simulate`'s text: `None` when nothing was.
pub fn summary(assumed: &[Assumption]) -> Option<Text> {
    if assumed.is_empty() {
        return None;
    }
    let list: Vec<String> = assumed
        .iter()
        .map(|assumption| format!("{} = {}", assumption.path, assumption.value))
        .collect();
    let (list_en, list_zh) = (list.join(", "), list.join("、"));
    Some(text!(
        "assumed, since nothing in the text states them: {list_en}; an outcome that rests on one of them is conditional (docs/paths.md)",
        "以下數值是假設的，因為文字裡沒有寫明：{list_zh}；取決於它們的結果都是有條件的（docs/paths.md）"
    ))
}

/// The value of `field` in `program` when it is a default, not stated.
pub fn assumed_value(program: &Program, field: ProgramField) -> Option<String> {
    let duration = crate::manifest::duration::format;
    match field {
        ProgramField::Startup => program
            .startup
            .is_default()
            .then(|| duration(program.startup.value)),
        ProgramField::MemorySteady => program
            .memory_steady
            .is_default()
            .then(|| format_bytes(program.memory_steady.value)),
        ProgramField::MemoryPeak => program
            .memory_peak
            .is_default()
            .then(|| format_bytes(program.memory_peak.value)),
        ProgramField::Workers => program
            .workers
            .is_default()
            .then(|| program.workers.value.to_string()),
        ProgramField::GpuMemory => program
            .gpu_memory
            .is_default()
            .then(|| format_bytes(program.gpu_memory.value)),
    }
}

/// The pools as a Scenario's `cluster.nodePools` would write them.
fn cluster_value(pools: &[NodePool]) -> String {
    let pools: Vec<String> = pools
        .iter()
        .map(|pool| {
            let cpu = if pool.cpu_milli % 1000 == 0 {
                (pool.cpu_milli / 1000).to_string()
            } else {
                format!("{}m", pool.cpu_milli)
            };
            let gpu = pool.gpu.as_ref().map_or(String::new(), |gpu| {
                format!(", gpu: {{ model: {}, count: {} }}", gpu.model, gpu.count)
            });
            format!(
                "{{ name: {}, count: {}, cpu: {cpu}, memory: {}{gpu} }}",
                pool.name,
                pool.count,
                format_bytes(pool.memory_bytes)
            )
        })
        .collect();
    format!("[{}]", pools.join(", "))
}

#[cfg(test)]
mod tests {
    use crate::manifest::read::read;

    fn listed(text: &str) -> Vec<(String, String)> {
        read(text)
            .assumed
            .iter()
            .map(|a| (a.path.to_string(), a.value.clone()))
            .collect()
    }

    const POD: &str = "apiVersion: v1\nkind: Pod\nmetadata: { name: p }\nspec:\n  containers:\n    - name: api\n      image: x:1\n      resources: { requests: { memory: 8Gi }, limits: { memory: 16Gi, nvidia.com/gpu: 1 } }\n";

    #[test]
    fn every_default_is_listed_with_its_value() {
        assert_eq!(
            listed(POD),
            [
                ("workload[api].startup", "40s"),
                ("workload[api].memory.steady", "8Gi"),
                ("workload[api].memory.peak", "14Gi"),
                ("workload[api].workers", "1"),
                ("workload[api].gpuMemory", "0"),
                (
                    "cluster",
                    "[{ name: gpu, count: 1, cpu: 8, memory: 32Gi, gpu: { model: A100-80GB, count: 1 } }]"
                ),
            ]
            .map(|(p, v)| (p.to_string(), v.to_string()))
        );
    }

    #[test]
    fn a_stated_number_is_not_listed() {
        let text = format!(
            "{POD}---\napiVersion: podlab.dev/v1alpha1\nkind: Scenario\nmetadata: {{ name: s }}\nspec:\n  workload:\n    - container: api\n      startup: 90s\n      memory: {{ peak: 12Gi }}\n  cluster:\n    nodePools: [{{ name: gpu, count: 1, cpu: 8, memory: 64Gi, gpu: {{ model: L4, count: 1 }} }}]\n"
        );
        let paths: Vec<String> = listed(&text).into_iter().map(|(p, _)| p).collect();
        assert_eq!(
            paths,
            [
                "workload[api].memory.steady",
                "workload[api].workers",
                "workload[api].gpuMemory"
            ]
        );
        // An annotation states it too.
        let annotated = POD.replace(
            "metadata: { name: p }",
            "metadata: { name: p, annotations: { podlab.dev/startup: 2m } }",
        );
        assert!(!listed(&annotated)
            .iter()
            .any(|(p, _)| p == "workload[api].startup"));
    }
}
