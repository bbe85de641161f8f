//! What the API server refuses in a pod's GPU resources, found once: read by
//! the rules PL101 (gpu-limit-required) and PL102 (gpu-fractional), which
//! add the help and the fixes, and by the simulator, which refuses the
//! object at `kubectl apply` with the same words. Below both, so neither
//! reaches into the other.
//!
//! A request without a limit, and a request different from its limit
//! (`shared/reference/scheduler-controllers.md` §4; `gpu-sharing.md` §1):
//! `nvidia.com/gpu` and the other GPU resources are extended resources, which
//! `IsOvercommitAllowed` says may not be overcommitted. So in
//! `ValidateResourceRequirements` a request without a limit is
//! `field.Required(limPath, "Limit must be set for non overcommitable
//! resources")`, and a request different from its limit is
//! `field.Invalid(reqPath, quantity.String(), "must be equal to <name> limit
//! of <limit>")`. `SetDefaults_Pod` copies a limit into a missing request, never
//! the other way round, so a GPU written only in `requests` is rejected
//! (`kubernetes/kubernetes:pkg/apis/core/validation/validation.go`
//! `ValidateResourceRequirements`; `pkg/apis/core/helper/helpers.go`
//! `IsOvercommitAllowed`; `pkg/apis/core/v1/defaults.go` `SetDefaults_Pod`).
//!
//! A fraction of a GPU (`shared/reference/scheduler-controllers.md` §4):
//! `IsIntegerResourceName` includes every extended resource, so
//! `ValidateResourceQuantityValue` rejects a GPU quantity whose milli-value
//! is not a multiple of 1000 with `isNotIntegerErrorMsg = "must be an
//! integer"`; `0.5` is parsed to `500m` and printed that way
//! (`kubernetes/kubernetes:pkg/apis/core/validation/validation.go`
//! `ValidateResourceQuantityValue`; `pkg/apis/core/helper/helpers.go`
//! `IsIntegerResourceName`).
//!
//! Quantities are quoted as `Quantity.String()` prints them (canonical form:
//! `0.5` → `500m`, `1000` → `1k`; `k8s.io/apimachinery/pkg/api/resource`
//! `CanonicalizeBytes`), see [`api_quantity`].

use crate::i18n::Text;
use crate::manifest::model::{Amount, Container, Workload, WorkloadKind};
use crate::manifest::quantity::Quantity;
use crate::manifest::resources::is_gpu_resource;
use crate::span::Span;
use crate::text;

/// The API path of a workload's pod spec, as field errors print it:
/// `spec` (Pod), `spec.template.spec`, `spec.jobTemplate.spec.template.spec`.
pub fn pod_spec_path(workload: &Workload) -> &'static str {
    match workload.kind {
        WorkloadKind::Pod => "spec",
        WorkloadKind::CronJob => "spec.jobTemplate.spec.template.spec",
        _ => "spec.template.spec",
    }
}

/// Every container of every workload with its API path
/// (`spec.template.spec.containers[0]`), init containers included.
pub fn containers<'a>(
    workloads: &'a [Workload],
) -> impl Iterator<Item = (&'a Workload, &'a Container, String)> + 'a {
    workloads.iter().flat_map(|workload| {
        let base = pod_spec_path(workload);
        let regular = workload
            .pod
            .containers
            .iter()
            .enumerate()
            .map(move |(i, c)| (workload, c, format!("{base}.containers[{i}]")));
        let init = workload
            .pod
            .init_containers
            .iter()
            .enumerate()
            .map(move |(i, c)| (workload, c, format!("{base}.initContainers[{i}]")));
        regular.chain(init)
    })
}

/// The text at `span`, trimmed and unquoted; empty when there is no text
/// (the simulator's refusal reads the model only).
pub fn written(text: &str, span: Span) -> &str {
    text.get(span.start..span.end)
        .unwrap_or_default()
        .trim()
        .trim_matches(['"', '\''])
}

/// A quantity as `Quantity.String()` prints it in an API error: the canonical
/// form of its format (binary when written with `Ki`…`Ei`, decimal otherwise).
/// Sub-milli values have already been rounded up to `1m` by the parser.
pub fn api_quantity(quantity: Quantity, written: &str) -> String {
    let sign = if quantity.milli < 0 { "-" } else { "" };
    let magnitude = quantity.milli.unsigned_abs();
    if magnitude == 0 {
        return "0".into();
    }
    if written.trim().ends_with('i') && magnitude.is_multiple_of(1000) {
        let units = magnitude / 1000;
        if units >= 1024 {
            for (suffix, shift) in [
                ("Ei", 60),
                ("Pi", 50),
                ("Ti", 40),
                ("Gi", 30),
                ("Mi", 20),
                ("Ki", 10),
            ] {
                let unit = 1u128 << shift;
                if units.is_multiple_of(unit) {
                    return format!("{sign}{}{suffix}", units / unit);
                }
            }
            return format!("{sign}{units}");
        }
    }
    for (suffix, power) in [
        ("E", 21u32),
        ("P", 18),
        ("T", 15),
        ("G", 12),
        ("M", 9),
        ("k", 6),
        ("", 3),
    ] {
        let unit = 10u128.pow(power);
        if magnitude.is_multiple_of(unit) {
            return format!("{sign}{}{suffix}", magnitude / unit);
        }
    }
    format!("{sign}{magnitude}m")
}

/// A GPU in `requests` that the API server refuses for its limit (PL101):
/// no limit at all, or a limit of another quantity.
pub struct GpuLimitError<'a> {
    pub workload: &'a Workload,
    pub container: &'a Container,
    /// The container's API path (`spec.template.spec.containers[0]`).
    pub path: String,
    pub request: &'a Amount,
    pub requested: Quantity,
    /// The limit and its quantity, when one is written (and different).
    pub limit: Option<(&'a Amount, Quantity)>,
}

/// Every GPU request the API server refuses for its limit, in the order of
/// the containers and their requests.
pub fn gpu_limit_errors(workloads: &[Workload]) -> Vec<GpuLimitError<'_>> {
    let mut found = Vec::new();
    for (workload, container, path) in containers(workloads) {
        let resources = &container.resources;
        for request in resources
            .requests
            .iter()
            .filter(|a| is_gpu_resource(&a.name))
        {
            let Some(requested) = request.quantity.filter(|q| !q.is_negative()) else {
                continue;
            };
            let limit = match resources.limit(&request.name) {
                None => None,
                Some(limit) => {
                    let Some(limited) = limit.quantity.filter(|q| !q.is_negative()) else {
                        continue;
                    };
                    if limited == requested {
                        continue;
                    }
                    Some((limit, limited))
                }
            };
            found.push(GpuLimitError {
                workload,
                container,
                path: path.clone(),
                request,
                requested,
                limit,
            });
        }
    }
    found
}

impl GpuLimitError<'_> {
    /// The API server's field error; quantities are quoted as written in
    /// `text` (empty when the text is not at hand).
    pub fn message(&self, text: &str) -> Text {
        let path = &self.path;
        let name = &self.request.name;
        match self.limit {
            None => text!(
                "{path}.resources.limits: Required value: Limit must be set for non overcommitable resources ({name} is only in requests)",
                "{path}.resources.limits：Required value：不可超賣的資源必須設定 limit（{name} 只寫在 requests）"
            ),
            Some((limit, limited)) => {
                let shown = api_quantity(self.requested, written(text, self.request.value_span));
                let limit_shown = api_quantity(limited, written(text, limit.value_span));
                text!(
                    "{path}.resources.requests: Invalid value: \"{shown}\": must be equal to {name} limit of {limit_shown}",
                    "{path}.resources.requests：Invalid value: \"{shown}\"：必須等於 {name} 的 limit {limit_shown}"
                )
            }
        }
    }
}

/// A GPU quantity that is not a whole number (PL102).
pub struct FractionalGpu<'a> {
    pub workload: &'a Workload,
    pub container: &'a Container,
    pub path: String,
    /// `limits` or `requests`.
    pub field: &'static str,
    pub amount: &'a Amount,
    pub quantity: Quantity,
}

/// Every fractional GPU quantity, limits before requests in each container.
pub fn fractional_gpus(workloads: &[Workload]) -> Vec<FractionalGpu<'_>> {
    let mut found = Vec::new();
    for (workload, container, path) in containers(workloads) {
        let resources = &container.resources;
        let amounts = resources
            .limits
            .iter()
            .map(|amount| ("limits", amount))
            .chain(resources.requests.iter().map(|amount| ("requests", amount)));
        for (field, amount) in amounts {
            if !is_gpu_resource(&amount.name) {
                continue;
            }
            let Some(quantity) = amount.quantity else {
                continue;
            };
            if quantity.is_integer() || quantity.is_negative() {
                continue;
            }
            found.push(FractionalGpu {
                workload,
                container,
                path: path.clone(),
                field,
                amount,
                quantity,
            });
        }
    }
    found
}

impl FractionalGpu<'_> {
    /// The API server's field error, the quantity quoted as written in `text`.
    pub fn message(&self, text: &str) -> Text {
        let (path, field, name) = (&self.path, self.field, &self.amount.name);
        let shown = api_quantity(self.quantity, written(text, self.amount.value_span));
        text!(
            "{path}.resources.{field}[{name}]: Invalid value: \"{shown}\": must be an integer",
            "{path}.resources.{field}[{name}]：Invalid value: \"{shown}\"：必須是整數"
        )
    }
}

/// What `kubectl apply` answers for an object the API server refuses
/// (`The Deployment "x" is invalid: …`, several causes in `[a, b]`), so
/// nothing of it is created; `None` when it is stored. The causes are
/// PL101's then PL102's, as the rules find them.
pub fn refusal(workload: &Workload) -> Option<String> {
    let workloads = std::slice::from_ref(workload);
    let causes: Vec<String> = gpu_limit_errors(workloads)
        .iter()
        .map(|error| error.message("").en)
        .chain(
            fractional_gpus(workloads)
                .iter()
                .map(|fraction| fraction.message("").en),
        )
        .chain(zero_surge_and_unavailable(workload))
        .collect();
    let kind = workload.kind.as_str();
    let name = &workload.name;
    match causes.as_slice() {
        [] => None,
        [one] => Some(format!("The {kind} \"{name}\" is invalid: {one}")),
        many => Some(format!(
            "The {kind} \"{name}\" is invalid: [{}]",
            many.join(", ")
        )),
    }
}

/// `ValidateRollingUpdateDeployment` (`pkg/apis/apps/validation/validation.go`,
/// traffic-autoscaling.md §6.1): `maxSurge` and `maxUnavailable` may not
/// both be 0 (`getIntOrPercentValue`: `0` and `0%` alike).
fn zero_surge_and_unavailable(workload: &Workload) -> Option<String> {
    use crate::manifest::model::IntOrPercent;
    let deployment = workload.deployment.as_ref()?;
    if deployment.strategy.value != "RollingUpdate" {
        return None;
    }
    let value = |setting: IntOrPercent| match setting {
        IntOrPercent::Int(value) | IntOrPercent::Percent(value) => value,
    };
    let unavailable = deployment.max_unavailable.value;
    if value(unavailable) != 0 || value(deployment.max_surge.value) != 0 {
        return None;
    }
    let shown = match unavailable {
        IntOrPercent::Int(value) => value.to_string(),
        IntOrPercent::Percent(_) => format!("\"{}\"", unavailable.text()),
    };
    Some(format!(
        "spec.strategy.rollingUpdate.maxUnavailable: Invalid value: {shown}: may not be 0 when `maxSurge` is 0"
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_rolling_update_with_zero_surge_and_zero_unavailable_is_refused() {
        let text = "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: api}\nspec:\n  strategy: {rollingUpdate: {maxSurge: 0, maxUnavailable: 0}}\n  template:\n    spec:\n      containers: [{name: a, image: a:1}]\n";
        let reading = crate::manifest::read::read(text);
        assert_eq!(
            refusal(&reading.workloads[0]).as_deref(),
            Some("The Deployment \"api\" is invalid: spec.strategy.rollingUpdate.maxUnavailable: Invalid value: 0: may not be 0 when `maxSurge` is 0")
        );
    }

    #[test]
    fn refusal_lists_pl101_then_pl102_causes_as_the_rules_word_them() {
        let text = "apiVersion: v1\nkind: Pod\nmetadata: {name: x}\nspec:\n  containers:\n    - name: a\n      image: a:1\n      resources: {requests: {nvidia.com/gpu: 1}}\n    - name: b\n      image: b:1\n      resources: {requests: {nvidia.com/gpu: 1}, limits: {nvidia.com/gpu: 2}}\n    - name: c\n      image: c:1\n      resources: {limits: {nvidia.com/gpu: 0.5}}\n";
        let reading = crate::manifest::read::read(text);
        let refusal = refusal(&reading.workloads[0]).expect("refused");
        assert_eq!(
            refusal,
            "The Pod \"x\" is invalid: [spec.containers[0].resources.limits: Required value: Limit must be set for non overcommitable resources (nvidia.com/gpu is only in requests), spec.containers[1].resources.requests: Invalid value: \"1\": must be equal to nvidia.com/gpu limit of 2, spec.containers[2].resources.limits[nvidia.com/gpu]: Invalid value: \"500m\": must be an integer]"
        );
        let linted: Vec<String> = crate::lint::lint(text)
            .diagnostics
            .into_iter()
            .filter(|d| d.rule == "PL101" || d.rule == "PL102")
            .map(|d| d.message.en)
            .collect();
        assert_eq!(linted.len(), 3, "{linted:?}");
        for message in &linted {
            assert!(refusal.contains(message.as_str()), "{message}");
        }
    }
}
