//! The goals about what a fix may not change, compared with the starting
//! file: `forbid` (more GPUs, the program, the taints) and `keepActions`
//! (the starting file's Scenario actions still happen).

use crate::i18n::Text;
use crate::manifest::scenario::{ProgramSpec, Scenario};
use crate::text;

use super::World;

fn physical_gpus(scenario: &Scenario) -> i64 {
    scenario
        .node_pools
        .iter()
        .filter_map(|pool| {
            pool.gpu
                .as_ref()
                .map(|gpu| gpu.count.max(0).saturating_mul(pool.count.max(0)))
        })
        .fold(0, i64::saturating_add)
}

/// The program fields `forbid: { programChanges }` compares (not
/// `workers`: starting fewer workers is a fix, not a change of the program).
fn program_fingerprint(spec: Option<&ProgramSpec>) -> Vec<Option<String>> {
    let Some(spec) = spec else {
        return vec![None; 13];
    };
    let serve = spec.serve.as_ref();
    vec![
        spec.startup.as_ref().map(|s| s.value.to_string()),
        spec.listen_port.as_ref().map(|s| s.value.to_string()),
        spec.health_path.as_ref().map(|s| s.value.clone()),
        spec.health_latency.as_ref().map(|s| s.value.to_string()),
        spec.memory_steady
            .as_ref()
            .map(|s| s.value.value().to_string()),
        spec.memory_peak
            .as_ref()
            .map(|s| s.value.value().to_string()),
        spec.gpu_memory
            .as_ref()
            .map(|s| s.value.value().to_string()),
        spec.shm.as_ref().map(|s| s.value.value().to_string()),
        spec.exit
            .as_ref()
            .map(|e| format!("{} {} {}", e.after, e.code, e.log)),
        spec.run_for.as_ref().map(|s| s.value.to_string()),
        spec.image_pull.as_ref().map(|s| s.value.to_string()),
        // How fast the model answers is the program's; concurrency,
        // batching and the queue are configuration a fix may change.
        serve
            .and_then(|s| s.latency.as_ref())
            .map(|s| s.value.to_string()),
        serve.map(|s| {
            format!(
                "{:?} {:?}",
                s.exponential.as_ref().map(|e| e.value),
                s.per_item.as_ref().map(|p| p.value)
            )
        }),
    ]
}

/// The requests a Scenario sends (`traffic`), for `forbid: programChanges`:
/// sending fewer is not a fix.
fn traffic_fingerprint(scenario: &Scenario) -> Option<String> {
    scenario.traffic.as_ref().map(|t| {
        let steps: Vec<String> = t
            .rate
            .iter()
            .map(|s| format!("{}:{}:{}", s.at, s.milli_rps, s.ramp))
            .collect();
        format!("{steps:?} {:?} {} {}", t.arrivals, t.timeout, t.target)
    })
}

impl World<'_> {
    pub(super) fn forbid(
        &self,
        more_gpus: bool,
        program_changes: bool,
        remove_taints: bool,
    ) -> (bool, Text) {
        let mut findings: Vec<Text> = Vec::new();
        if more_gpus {
            let (now, before) = (
                physical_gpus(&self.reading.scenario),
                physical_gpus(&self.start.scenario),
            );
            if now > before {
                findings.push(text!(
                    "the cluster has {now} GPUs; the starting file had {before}",
                    "叢集有 {now} 張 GPU；一開始只有 {before} 張"
                ));
            }
        }
        if program_changes {
            for spec in &self.start.scenario.programs {
                let name = &spec.container;
                let before = program_fingerprint(Some(spec));
                let now = program_fingerprint(self.reading.scenario.program_spec(name));
                if before != now {
                    findings.push(text!(
                        "the Scenario's program for container {name} changed (startup, port, memory or exit): fix the manifests, not the program",
                        "容器 {name} 在 Scenario 裡的程式行為被改了（startup、port、記憶體或 exit）：請修 manifest，不是改程式"
                    ));
                }
            }
            if traffic_fingerprint(&self.start.scenario)
                != traffic_fingerprint(&self.reading.scenario)
            {
                findings.push(Text::new(
                    "the Scenario's traffic changed: serve the requests, do not send fewer",
                    "Scenario 的流量被改了：請讓服務撐住請求，而不是送更少的請求",
                ));
            }
        }
        if remove_taints {
            for pool in &self.start.scenario.node_pools {
                let kept = self
                    .reading
                    .scenario
                    .node_pools
                    .iter()
                    .find(|candidate| candidate.name == pool.name);
                for taint in &pool.taints {
                    if !kept.is_some_and(|kept| kept.taints.contains(taint)) {
                        let (pool_name, key, effect) = (&pool.name, &taint.key, &taint.effect);
                        findings.push(text!(
                            "node pool {pool_name} lost its taint {key}:{effect}",
                            "節點池 {pool_name} 的 taint {key}:{effect} 被移除了"
                        ));
                    }
                }
            }
        }
        match findings.into_iter().next() {
            Some(finding) => (false, finding),
            None => (
                true,
                Text::new("nothing forbidden changed", "沒有改到禁止改動的地方"),
            ),
        }
    }

    /// `keepActions`: each action of the starting file's Scenario has its
    /// like in the learner's (the same time and act; where it is written
    /// does not matter).
    pub(super) fn keep_actions(&self) -> (bool, Text) {
        use crate::manifest::scenario::Act;
        let unplaced = |act: &Act| {
            let mut act = act.clone();
            match &mut act {
                Act::Delete(delete) => delete.span = crate::span::Span::empty(0),
                Act::Cordon(node) | Act::Uncordon(node) | Act::Drain(node) => {
                    node.span = crate::span::Span::empty(0)
                }
                Act::Restart(target) => target.span = crate::span::Span::empty(0),
                Act::Patch(patch) => patch.span = crate::span::Span::empty(0),
                Act::Undo(undo) => undo.span = crate::span::Span::empty(0),
                Act::Label(change) | Act::Annotate(change) => {
                    change.span = crate::span::Span::empty(0)
                }
                Act::Scale(_) | Act::Nothing => {}
            }
            act
        };
        let actions = &self.reading.scenario.actions;
        for action in &self.start.scenario.actions {
            let kept = actions
                .iter()
                .any(|now| now.at == action.at && unplaced(&now.act) == unplaced(&action.act));
            if !kept {
                let (key, when) = (
                    action.act.key(),
                    crate::manifest::duration::format(action.at),
                );
                return (
                    false,
                    text!(
                        "the starting file's action `{key}` at {when} is gone or changed: it still happens; act after it",
                        "起始檔案在 {when} 的動作 `{key}` 被移除或改掉了：它照樣會發生；請在它之後採取行動"
                    ),
                );
            }
        }
        let count = self.start.scenario.actions.len();
        (
            true,
            text!(
                "the starting file's {count} action(s) still happen",
                "起始檔案的 {count} 個動作照樣發生"
            ),
        )
    }
}
