//! PL503 mig-unsupported.
//!
//! MIG (Multi-Instance GPU) facts from `shared/reference/gpu-sharing.md` §5
//! (NVIDIA MIG User Guide "Supported GPUs" / "Supported MIG Profiles";
//! `NVIDIA/mig-parted:deployments/systemd/config-default.yaml`), encoded in
//! `crate::gpu`:
//! - only some Ampere-or-newer cards have MIG (A30, A100, H100, H200, GH200,
//!   B200, GB200, B300, RTX PRO Blackwell); T4, V100, A10/A10G, A40, L4, L40S
//!   have none (§5.1);
//! - a layout fits on one GPU when its compute and memory slices stay within
//!   the card's (7/8 on A100-class cards, 4/4 on A30) and it has at most one
//!   `+me` instance (§5.3, `gpu::check_layout`); each model has its own
//!   profile names (`1g.5gb` is A100-40GB, `1g.10gb` A100-80GB);
//! - the device plugin's `single` strategy needs identical MIG devices on
//!   every GPU of the node (§5.4, NVIDIA/k8s-device-plugin README
//!   `MIG_STRATEGY`); `mixed` advertises `nvidia.com/mig-<profile>`.
//!
//! Part (a) checks the Scenario's MIG pools; part (b) a manifest's
//! `nvidia.com/mig-<profile>` request whose profile no GPU model of the
//! pools has (that pod could never be scheduled; PL502 leaves it to this rule).

use super::pl502_gpu_unschedulable::{nodes, resource_span, subject};
use super::{edit, words, Context, Rule};
use super::{long, long_str};
use crate::diagnostic::{Diagnostic, Fix, Severity};
use crate::gpu::{self, GpuModel, LayoutError, MigProfile};
use crate::manifest::model::{Container, Workload};
use crate::manifest::scenario::{MigStrategy, NodePool, Scenario, Sharing};
use crate::manifest::schema;
use crate::span::Span;
use crate::text;

pub static RULE: Rule = Rule {
    id: "PL503",
    name: "mig-unsupported",
    severity: Severity::Error,
    scenario_aware: true,
    summary: words!(
        "a MIG layout or MIG profile the GPU model cannot have",
        "GPU 型號做不到的 MIG 配置或 MIG profile"
    ),
    what: long!(
        "In the Scenario, for each node pool with `sharing.mode: mig`: the GPU model must support MIG (not T4, L4, A10G, L40S…) and be known to podlab's catalog; the `layout` must use that model's profile names and fit on one GPU (compute slices ≤ 7 and memory slices ≤ 8 on A100/H100-class cards, 4 and 4 on A30; at most one `+me` profile); the `single` strategy needs one profile repeated. In a manifest, a `nvidia.com/mig-<profile>` request whose profile exists on no GPU model of the node pools (`mig-1g.5gb` on A100-80GB, whose smallest is `1g.10gb`). It runs only when a Scenario states the cluster (`cluster.nodePools`): podlab's default pool and a cluster inferred from the manifests' cloud hints are assumptions, not the user's cluster.",
        "在 Scenario 中，對每個 `sharing.mode: mig` 的節點池檢查：GPU 型號必須支援 MIG（T4、L4、A10G、L40S… 都不支援），而且在 podlab 的型號目錄裡；`layout` 必須使用該型號的 profile 名稱，且放得進一張 GPU（A100/H100 等級的卡 compute slice ≤ 7、memory slice ≤ 8，A30 是 4 和 4；`+me` profile 最多一個）；`single` 策略只能重複同一個 profile。在 manifest 中，檢查 `nvidia.com/mig-<profile>` 的 profile 是否存在於節點池的任何 GPU 型號（例如 A100-80GB 上的 `mig-1g.5gb`，它最小的是 `1g.10gb`）。只有 Scenario 寫明叢集（`cluster.nodePools`）時才會檢查：podlab 的預設節點池，以及從 manifest 的雲端線索推測出的叢集，都只是假設，不是使用者的叢集。"
    ),
    why: long!(
        "MIG profile names encode the card's memory, so a name copied from an A100-40GB tutorial (`1g.5gb`, `3g.20gb`) does not exist on the A100-80GB or H100 you rent, and MIG Manager fails to apply a layout that does not fit. Either way no node advertises the resource, and the inference pods you meant to pack seven to a GPU all stay Pending.",
        "MIG profile 的名稱裡寫著卡的記憶體大小，從 A100-40GB 教學複製來的名稱（`1g.5gb`、`3g.20gb`）在你租的 A100-80GB 或 H100 上根本不存在；放不進一張卡的 layout，MIG Manager 也套用不了。不管哪一種，都沒有節點會宣告這個資源，原本打算一張 GPU 塞七個的推論 Pod 全部停在 Pending。"
    ),
    failing: long_str!("apiVersion: apps/v1\nkind: Deployment\nmetadata: { name: embedder }\nspec:\n  replicas: 2\n  selector: { matchLabels: { app: embedder } }\n  template:\n    metadata: { labels: { app: embedder } }\n    spec:\n      containers:\n        - name: triton\n          image: nvcr.io/nvidia/tritonserver:24.05-py3\n          resources:\n            limits: { nvidia.com/mig-1g.5gb: 1 }\n---\napiVersion: podlab.dev/v1alpha1\nkind: Scenario\nmetadata: { name: mig-a100 }\nspec:\n  cluster:\n    nodePools:\n      - name: gpu\n        gpu: { model: A100-80GB, count: 1 }\n        sharing: { mode: mig, strategy: mixed, layout: [1g.10gb, 1g.10gb, 1g.10gb, 1g.10gb, 3g.40gb] }\n"),
    fixed: long_str!("apiVersion: apps/v1\nkind: Deployment\nmetadata: { name: embedder }\nspec:\n  replicas: 2\n  selector: { matchLabels: { app: embedder } }\n  template:\n    metadata: { labels: { app: embedder } }\n    spec:\n      containers:\n        - name: triton\n          image: nvcr.io/nvidia/tritonserver:24.05-py3\n          resources:\n            limits: { nvidia.com/mig-1g.10gb: 1 }\n---\napiVersion: podlab.dev/v1alpha1\nkind: Scenario\nmetadata: { name: mig-a100 }\nspec:\n  cluster:\n    nodePools:\n      - name: gpu\n        gpu: { model: A100-80GB, count: 1 }\n        sharing: { mode: mig, strategy: mixed, layout: [1g.10gb, 1g.10gb, 1g.10gb, 1g.10gb, 3g.40gb] }\n"),
    fix: long!(
        "Use the profile names of your GPU model (`nvidia-smi mig -lgip` lists them; on A100-80GB and H100-80GB: 1g.10gb, 1g.20gb, 2g.20gb, 3g.40gb, 4g.40gb, 7g.80gb) and a layout that fits on one card; use `strategy: mixed` for different profiles on one GPU; for GPUs without MIG, share them with time-slicing or MPS instead.",
        "使用你的 GPU 型號的 profile 名稱（`nvidia-smi mig -lgip` 會列出來；A100-80GB 與 H100-80GB 是 1g.10gb、1g.20gb、2g.20gb、3g.40gb、4g.40gb、7g.80gb），layout 要放得進一張卡；同一張 GPU 要切成不同 profile 時用 `strategy: mixed`；不支援 MIG 的 GPU 改用 time-slicing 或 MPS 共享。"
    ),
    check: Some(check),
};

/// `1g.10gb+me` → (compute slices 1, memory GiB 10, media extensions).
fn parse_profile(name: &str) -> Option<(u32, u32, bool)> {
    let (compute, rest) = name.split_once("g.")?;
    let digits = rest.len() - rest.trim_start_matches(|c: char| c.is_ascii_digit()).len();
    let (memory, suffix) = rest.split_at(digits);
    let suffix = suffix.strip_prefix("gb")?;
    Some((
        compute.parse().ok()?,
        memory.parse().ok()?,
        suffix.contains("+me"),
    ))
}

/// The profile of `profiles` of the same size as `wanted`, or the next
/// larger: at least its compute slices and memory, smallest first.
fn same_or_next_larger<'a>(
    profiles: impl Iterator<Item = &'a MigProfile>,
    wanted: &str,
) -> Option<&'a MigProfile> {
    let (compute, memory, media) = parse_profile(wanted)?;
    profiles
        .filter(|profile| profile.media == media)
        .filter(|profile| profile.compute_slices >= compute && profile.memory_gib >= memory)
        .min_by_key(|profile| (profile.compute_slices, profile.memory_gib))
}

fn profile_names(model: &GpuModel) -> String {
    model
        .profiles
        .iter()
        .map(|profile| profile.name)
        .collect::<Vec<_>>()
        .join(", ")
}

/// The MIG models podlab knows, for messages.
fn mig_models() -> String {
    gpu::CATALOG
        .iter()
        .filter(|model| model.supports_mig())
        .map(|model| model.model)
        .collect::<Vec<_>>()
        .join(", ")
}

/// Where `needle` is written inside `within` (a layout item), else `within`.
fn find_in(text: &str, within: Span, needle: &str) -> Span {
    text.get(within.start..within.end)
        .and_then(|written| written.find(needle))
        .map_or(within, |at| {
            Span::new(within.start + at, within.start + at + needle.len())
        })
}

// ---- (a) the Scenario's MIG pools ------------------------------------------------

fn check_pool(context: &Context<'_>, pool: &NodePool, out: &mut Vec<Diagnostic>) {
    let Sharing::Mig {
        strategy,
        layout,
        layout_span,
    } = &pool.sharing
    else {
        return;
    };
    let Some(gpu) = &pool.gpu else { return };
    let fallback = pool.span.or(context.scenario.kind_span);
    let model_span = gpu.model_span.or(*layout_span).or(fallback);
    let layout_at = layout_span.or(gpu.model_span).or(fallback);
    let (Some(model_span), Some(layout_at)) = (model_span, layout_at) else {
        return;
    };
    let name = &pool.name;
    let written = &gpu.model;
    let Some(model) = gpu.catalog else {
        let known = mig_models();
        let names = gpu::CATALOG
            .iter()
            .flat_map(|model| std::iter::once(model.model).chain(model.aliases.iter().copied()));
        let closest = schema::closest(written, names);
        let guess = closest.map(|meant| {
            (
                format!(" (did you mean {meant}?)"),
                format!("（是不是要寫 {meant}？）"),
            )
        });
        let (guess, guess_zh) = guess.unwrap_or_default();
        out.push(RULE.diagnostic(
            model_span,
            text!(
                "pool \"{name}\": GPU model \"{written}\" is not in podlab's catalog{guess}, so its MIG layout cannot be checked or simulated; MIG models: {known}",
                "節點池「{name}」：GPU 型號「{written}」不在 podlab 的型號目錄中{guess_zh}，無法檢查或模擬它的 MIG layout；支援 MIG 的型號：{known}"
            ),
        ));
        return;
    };
    let model_name = model.model;
    if !model.supports_mig() {
        let known = mig_models();
        out.push(
            RULE.diagnostic(
                model_span,
                text!(
                    "pool \"{name}\": {model_name} has no MIG, so `sharing.mode: mig` cannot partition it and the nodes advertise no MIG device; MIG needs one of {known}",
                    "節點池「{name}」：{model_name} 不支援 MIG，`sharing.mode: mig` 無法切分它，節點不會宣告任何 MIG 裝置；MIG 需要這些型號之一：{known}"
                ),
            )
            .with_help(text!(
                "to share a {model_name} between pods, use time-slicing (`sharing: {{ mode: timeSlicing, replicas: 4 }}`) or MPS, which isolate less; or use a MIG-capable GPU",
                "要讓多個 Pod 共用 {model_name}，改用 time-slicing（`sharing: {{ mode: timeSlicing, replicas: 4 }}`）或 MPS（隔離較弱）；或改用支援 MIG 的 GPU"
            )),
        );
        return;
    }
    let profiles = profile_names(model);
    let layout_text = layout.join(", ");
    match gpu::check_layout(model, layout) {
        Ok(()) => {}
        Err(LayoutError::UnknownProfile(profile)) => {
            let suggestion = same_or_next_larger(model.profiles.iter(), &profile)
                .map(|profile| profile.name)
                .or_else(|| schema::closest(&profile, model.profiles.iter().map(|p| p.name)));
            let (hint, hint_zh) = suggestion.map_or_else(Default::default, |meant| {
                (format!("; did you mean {meant}?"), format!("；是不是要寫 {meant}？"))
            });
            let owners: Vec<&str> = gpu::CATALOG
                .iter()
                .filter(|other| other.profile(&profile).is_some())
                .map(|other| other.model)
                .collect();
            let (owner, owner_zh) = if owners.is_empty() {
                (String::new(), String::new())
            } else {
                let owners = owners.join(", ");
                (
                    format!(" ({profile} is a profile of {owners})"),
                    format!("（{profile} 是 {owners} 的 profile）"),
                )
            };
            out.push(RULE.diagnostic(
                find_in(context.text, layout_at, &profile),
                text!(
                    "pool \"{name}\": {model_name} has no MIG profile \"{profile}\"{owner}, so MIG Manager cannot create this layout; its profiles: {profiles}{hint}",
                    "節點池「{name}」：{model_name} 沒有「{profile}」這個 MIG profile{owner_zh}，MIG Manager 無法建立這個 layout；它的 profile 有：{profiles}{hint_zh}"
                ),
            ));
        }
        Err(LayoutError::Compute(used, total)) => out.push(RULE.diagnostic(
            layout_at,
            text!(
                "pool \"{name}\": the MIG layout [{layout_text}] needs {used} compute slices, but the {model_name} has {total}: it does not fit on one GPU",
                "節點池「{name}」：MIG layout [{layout_text}] 需要 {used} 個 compute slice，但 {model_name} 只有 {total} 個：一張 GPU 放不下"
            ),
        )),
        Err(LayoutError::Memory(used, total)) => out.push(RULE.diagnostic(
            layout_at,
            text!(
                "pool \"{name}\": the MIG layout [{layout_text}] needs {used} memory slices, but the {model_name} has {total}: it does not fit on one GPU",
                "節點池「{name}」：MIG layout [{layout_text}] 需要 {used} 個 memory slice，但 {model_name} 只有 {total} 個：一張 GPU 放不下"
            ),
        )),
        Err(LayoutError::Media) => out.push(RULE.diagnostic(
            layout_at,
            text!(
                "pool \"{name}\": the MIG layout [{layout_text}] has more than one +me profile, but a GPU has one set of media engines (at most one +me instance)",
                "節點池「{name}」：MIG layout [{layout_text}] 有超過一個 +me profile，但一張 GPU 只有一組媒體引擎（+me 最多一個）"
            ),
        )),
        Err(LayoutError::NoMig) => {}
    }
    let mut distinct: Vec<&str> = Vec::new();
    for profile in layout {
        if !distinct.contains(&profile.as_str()) {
            distinct.push(profile);
        }
    }
    if *strategy == MigStrategy::Single && distinct.len() > 1 {
        let list = distinct.join(", ");
        out.push(RULE.diagnostic(
            layout_at,
            text!(
                "pool \"{name}\": the single MIG strategy needs identical MIG devices on every GPU, but the layout mixes {list}; use `strategy: mixed` (pods then ask for nvidia.com/mig-<profile>) or one profile",
                "節點池「{name}」：single MIG 策略要求每張 GPU 切成相同的 MIG 裝置，但 layout 混用了 {list}；改用 `strategy: mixed`（Pod 改要求 nvidia.com/mig-<profile>），或只用一種 profile"
            ),
        ));
    }
}

// ---- (b) a manifest's nvidia.com/mig-<profile> -----------------------------------

/// The GPU models of the Scenario's pools that podlab knows.
fn pool_models(scenario: &Scenario) -> Vec<&'static GpuModel> {
    let mut models: Vec<&'static GpuModel> = Vec::new();
    for gpu in scenario
        .node_pools
        .iter()
        .filter_map(|pool| pool.gpu.as_ref())
    {
        if let Some(model) = gpu.catalog {
            if !models.iter().any(|known| known.model == model.model) {
                models.push(model);
            }
        }
    }
    models
}

/// The MIG profile of `resource` when no node advertises it, no GPU model of
/// the pools has it, and some model of the pools has MIG (else PL502 explains).
fn unknown_profile<'r>(resource: &'r str, scenario: &Scenario) -> Option<&'r str> {
    let profile = resource.strip_prefix("nvidia.com/mig-")?;
    let advertised = scenario.node_pools.iter().any(|pool| {
        nodes(pool) > 0
            && pool
                .extended_resources()
                .iter()
                .any(|(name, _)| name == resource)
    });
    let models = pool_models(scenario);
    let any_mig = models.iter().any(|model| model.supports_mig());
    let known = models.iter().any(|model| model.profile(profile).is_some());
    (!advertised && any_mig && !known).then_some(profile)
}

/// Whether PL503 reports a MIG request of this workload (PL502 then stays quiet).
pub(super) fn flags_unknown_profile(workload: &Workload, scenario: &Scenario) -> bool {
    containers(workload).any(|container| {
        container
            .resources
            .limits
            .iter()
            .chain(&container.resources.requests)
            .any(|amount| unknown_profile(&amount.name, scenario).is_some())
    })
}

fn containers(workload: &Workload) -> impl Iterator<Item = &Container> {
    workload
        .pod
        .containers
        .iter()
        .chain(&workload.pod.init_containers)
}

/// The one profile a request for `wanted` should become, when unambiguous:
/// for each MIG pool (mixed ones first: only they advertise MIG resources),
/// the same-size-or-next-larger profile it offers.
fn replacement(scenario: &Scenario, wanted: &str) -> Option<&'static str> {
    let mixed: Vec<&NodePool> = scenario
        .node_pools
        .iter()
        .filter(|pool| {
            matches!(
                pool.sharing,
                Sharing::Mig {
                    strategy: MigStrategy::Mixed,
                    ..
                }
            )
        })
        .collect();
    let pools: Vec<&NodePool> = if mixed.is_empty() {
        scenario.node_pools.iter().collect()
    } else {
        mixed
    };
    let mut found: Vec<&'static str> = Vec::new();
    for pool in pools {
        let Some(model) = pool.gpu.as_ref().and_then(|gpu| gpu.catalog) else {
            continue;
        };
        if !model.supports_mig() {
            continue;
        }
        let offered: Vec<&'static MigProfile> = match &pool.sharing {
            Sharing::Mig {
                strategy: MigStrategy::Mixed,
                layout,
                ..
            } => model
                .profiles
                .iter()
                .filter(|profile| layout.iter().any(|name| name == profile.name))
                .collect(),
            _ => model.profiles.iter().collect(),
        };
        if let Some(profile) = same_or_next_larger(offered.into_iter(), wanted) {
            if !found.contains(&profile.name) {
                found.push(profile.name);
            }
        }
    }
    match found.as_slice() {
        [only] => Some(only),
        _ => None,
    }
}

fn check_requests(context: &Context<'_>, workload: &Workload, out: &mut Vec<Diagnostic>) {
    let scenario = context.scenario;
    let models = pool_models(scenario);
    for container in containers(workload) {
        let mut seen: Vec<&str> = Vec::new();
        for amount in container
            .resources
            .limits
            .iter()
            .chain(&container.resources.requests)
        {
            let resource = amount.name.as_str();
            if seen.contains(&resource) {
                continue;
            }
            seen.push(resource);
            let Some(profile) = unknown_profile(resource, scenario) else {
                continue;
            };
            let mig: Vec<&&GpuModel> = models.iter().filter(|model| model.supports_mig()).collect();
            let offered = mig
                .iter()
                .map(|model| format!("{}: {}", model.model, profile_names(model)))
                .collect::<Vec<_>>()
                .join("; ");
            let offered_zh = mig
                .iter()
                .map(|model| {
                    format!(
                        "{}：{}",
                        model.model,
                        profile_names(model).replace(", ", "、")
                    )
                })
                .collect::<Vec<_>>()
                .join("；");
            let owners: Vec<&str> = gpu::CATALOG
                .iter()
                .filter(|model| model.profile(profile).is_some())
                .map(|model| model.model)
                .collect();
            let (owner, owner_zh) = if owners.is_empty() {
                (String::new(), String::new())
            } else {
                let owners = owners.join(", ");
                (
                    format!(" ({profile} exists on {owners})"),
                    format!("（{profile} 是 {owners} 的 profile）"),
                )
            };
            let (who, who_zh) = subject(workload);
            let span = container
                .resources
                .limit(resource)
                .or_else(|| container.resources.request(resource))
                .map_or_else(
                    || resource_span(workload, resource),
                    |amount| amount.key_span,
                );
            let mut diagnostic = RULE
                .diagnostic(
                    span,
                    text!(
                        "{who} asks for {resource}, but no GPU of the node pools has a {profile} MIG profile{owner}; the pools' models offer {offered}. No node will ever advertise it: the pod stays Pending",
                        "{who_zh}要求 {resource}，但節點池的 GPU 都沒有 {profile} 這個 MIG profile{owner_zh}；節點池的型號提供的是 {offered_zh}。不會有節點宣告這個資源：Pod 會一直停在 Pending"
                    ),
                )
                .with_help(text!(
                    "MIG profile names carry the card's memory and differ between models; `kubectl describe node` lists the nvidia.com/mig-* resources a node really advertises",
                    "MIG profile 的名稱帶有卡的記憶體大小，每個型號都不一樣；`kubectl describe node` 會列出節點真正宣告的 nvidia.com/mig-* 資源"
                ));
            if let Some(meant) = replacement(scenario, profile) {
                let new_name = format!("nvidia.com/mig-{meant}");
                let edits: Vec<_> = container
                    .resources
                    .limits
                    .iter()
                    .chain(&container.resources.requests)
                    .filter(|other| other.name == resource)
                    .map(|other| edit::replace(other.key_span, new_name.clone()))
                    .collect();
                diagnostic = diagnostic.with_fix(Fix {
                    description: text!(
                        "ask for {new_name} (the same size or the next larger profile of the pool's GPU)",
                        "改成要求 {new_name}（節點池 GPU 上同樣大小或大一級的 profile）"
                    ),
                    edits,
                });
            }
            out.push(diagnostic);
        }
    }
}

fn check(context: &Context<'_>, out: &mut Vec<Diagnostic>) {
    // Issue 14: the default pool and an inferred cluster are assumptions,
    // and a manifest is not wrong for a cluster nobody described.
    if !context.cluster_stated() {
        return;
    }
    if context.scenario.is_written() {
        for pool in &context.scenario.node_pools {
            check_pool(context, pool, out);
        }
    }
    for workload in context.workloads {
        check_requests(context, workload, out);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn profiles_parse_and_round_up() {
        assert_eq!(parse_profile("1g.10gb"), Some((1, 10, false)));
        assert_eq!(parse_profile("1g.10gb+me"), Some((1, 10, true)));
        assert_eq!(parse_profile("7g.141gb"), Some((7, 141, false)));
        assert_eq!(parse_profile("gpu"), None);
        assert_eq!(parse_profile("xg.5gb"), None);
        let a100 = gpu::lookup("A100-80GB")
            .map(|model| model.profiles)
            .unwrap_or(&[]);
        let next = |wanted: &str| same_or_next_larger(a100.iter(), wanted).map(|p| p.name);
        assert_eq!(next("1g.5gb"), Some("1g.10gb"));
        assert_eq!(next("3g.20gb"), Some("3g.40gb"));
        assert_eq!(next("2g.10gb"), Some("2g.20gb"));
        assert_eq!(next("1g.5gb+me"), Some("1g.10gb+me"));
        assert_eq!(next("7g.94gb"), None);
    }
}
