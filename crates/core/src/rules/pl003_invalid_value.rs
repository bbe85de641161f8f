//! PL003 invalid-value. Types, quantities and enum values are checked while
//! reading the structure (`manifest::validate`); this file adds the values
//! the API server rejects that need the typed model, with the API server's
//! own words (`shared/reference/scheduler-controllers.md` §4, §5.4;
//! `kubernetes/kubernetes:pkg/apis/core/validation/validation.go`
//! `validateLivenessProbe`, `validateStartupProbe`, `ValidateResourceRequirements`).

use super::{containers, words, Context, Rule};
use super::{long, long_str};
use crate::diagnostic::{Diagnostic, Severity};
use crate::manifest::model::ProbeKind;
use crate::text;

pub static RULE: Rule = Rule {
    id: "PL003",
    name: "invalid-value",
    severity: Severity::Error,
    scenario_aware: false,
    summary: words!(
        "a value the API server rejects: wrong type, bad quantity, unsupported value",
        "API server 會拒絕的值：型別錯誤、數量格式錯誤、不支援的值"
    ),
    what: long!(
        "Values must have the type the API expects (an env value `true` must be quoted), quantities must be Kubernetes quantities (`8Gi`, not `8GB` or `8 Gi`), enums must be one of the supported values (`imagePullPolicy`, `restartPolicy`, probe `scheme`), liveness and startup probes must have `successThreshold: 1`, and a CPU or memory request may not exceed its limit. The messages quote the API server (`Invalid value: 2: must be 1`).",
        "值必須是 API 預期的型別（env 的值 `true` 要加引號）、數量必須是 Kubernetes 的數量格式（`8Gi`，不是 `8GB` 或 `8 Gi`）、列舉值必須在支援的範圍內（`imagePullPolicy`、`restartPolicy`、探針的 `scheme`）、liveness 與 startup 探針的 `successThreshold` 必須是 1，CPU 或記憶體的 requests 不可超過 limits。訊息引用 API server 的原文（`Invalid value: 2: must be 1`）。"
    ),
    why: long!(
        "`kubectl apply` refuses the whole object, so the rollout of a new model version never starts; in CI the failure shows up late, after the image was built and pushed. `8GB` is the most common one: it is how GPU and model cards write memory, and Kubernetes does not accept it.",
        "`kubectl apply` 會拒絕整個物件，新模型版本的部署根本不會開始；在 CI 裡這個錯誤出現得很晚，映像早已建好推上去了。最常見的是 `8GB`：GPU 規格和 model card 都這樣寫記憶體，但 Kubernetes 不接受。"
    ),
    failing: long_str!("apiVersion: v1\nkind: Pod\nmetadata: { name: model }\nspec:\n  containers:\n    - name: api\n      image: registry.example.com/model-api:0.3.1\n      resources:\n        requests: { memory: 16Gi }\n        limits: { memory: 8Gi }\n"),
    fixed: long_str!("apiVersion: v1\nkind: Pod\nmetadata: { name: model }\nspec:\n  containers:\n    - name: api\n      image: registry.example.com/model-api:0.3.1\n      resources:\n        requests: { memory: 8Gi }\n        limits: { memory: 8Gi }\n"),
    fix: long!(
        "Write the value the message asks for; quantity fixes (`8GB` → `8Gi`) can be applied directly.",
        "依訊息改成正確的值；數量格式的修正（`8GB` → `8Gi`）可以直接套用。"
    ),
    check: Some(check),
};

fn check(context: &Context<'_>, out: &mut Vec<Diagnostic>) {
    check_schedules(context, out);
    for (_, container, path) in containers(context.workloads) {
        for probe in container.probes() {
            if probe.kind == ProbeKind::Readiness {
                continue;
            }
            let threshold = &probe.success_threshold;
            if let (Some(span), true) = (threshold.span, threshold.value != 1) {
                // A written 0 is defaulted to 1 before validation (kubelet.md §1).
                if threshold.value == 0 {
                    continue;
                }
                let field = probe.kind.field();
                let value = threshold.value;
                out.push(RULE.diagnostic(
                    span,
                    text!(
                        "{path}.{field}.successThreshold: Invalid value: {value}: must be 1",
                        "{path}.{field}.successThreshold：Invalid value: {value}：liveness 與 startup 探針的 successThreshold 必須是 1"
                    ),
                ));
            }
        }
        for resource in ["cpu", "memory"] {
            let (Some(request), Some(limit)) = (
                container.resources.request(resource),
                container.resources.limit(resource),
            ) else {
                continue;
            };
            let (Some(requested), Some(limited)) = (request.quantity, limit.quantity) else {
                continue;
            };
            if requested.milli > limited.milli {
                let written = context
                    .text
                    .get(request.value_span.start..request.value_span.end)
                    .unwrap_or_default()
                    .trim_matches(['"', '\''])
                    .to_string();
                let limit_text = context
                    .text
                    .get(limit.value_span.start..limit.value_span.end)
                    .unwrap_or_default()
                    .trim_matches(['"', '\''])
                    .to_string();
                out.push(
                    RULE.diagnostic(
                        request.value_span,
                        text!(
                            "{path}.resources.requests: Invalid value: \"{written}\": must be less than or equal to {resource} limit of {limit_text}",
                            "{path}.resources.requests：Invalid value: \"{written}\"：不可大於 {resource} 的 limit {limit_text}"
                        ),
                    )
                    .with_help(text!(
                        "the request is what the scheduler reserves and the limit is the ceiling; lower the request to at most {limit_text}, or raise the limit",
                        "requests 是排程器保留的量，limits 是上限；請把 requests 降到 {limit_text} 以下，或提高 limits"
                    )),
                );
            }
        }
    }
}

/// `validateScheduleFormat` (`pkg/apis/batch/validation/validation.go`):
/// the schedule must parse with robfig/cron v3 `ParseStandard`, and on
/// create any `TZ` in it is refused ("cannot use TZ or CRON_TZ in schedule,
/// use timeZone field instead"). The parse errors are robfig's; podlab words
/// them itself (the exact Go text is only quoted where known).
fn check_schedules(context: &Context<'_>, out: &mut Vec<Diagnostic>) {
    use super::pl602_cronjob_overlap::{parse, CronError};
    for workload in context.workloads {
        let Some(cron) = &workload.cron else { continue };
        let Some(span) = cron.schedule.span else {
            continue;
        };
        let schedule = cron.schedule.value.as_str();
        if schedule.contains("TZ") {
            out.push(
                RULE.diagnostic(
                    span,
                    text!(
                        "spec.schedule: Invalid value: \"{schedule}\": cannot use TZ or CRON_TZ in schedule, use timeZone field instead",
                        "spec.schedule：Invalid value: \"{schedule}\"：schedule 裡不能用 TZ 或 CRON_TZ，請改用 timeZone 欄位"
                    ),
                )
                .with_help(text!(
                    "write the zone as `timeZone: Asia/Taipei` beside `schedule`",
                    "在 `schedule` 旁邊寫 `timeZone: Asia/Taipei`"
                )),
            );
            continue;
        }
        let Err(error) = parse(schedule) else {
            continue;
        };
        let reason = match error {
            CronError::Empty => text!("the schedule is empty", "schedule 是空的"),
            CronError::FieldCount => text!(
                "expected exactly 5 fields (minute hour day-of-month month day-of-week) or a descriptor like @daily",
                "需要剛好 5 個欄位（分 時 日 月 星期），或 @daily 這類描述字"
            ),
            CronError::UnknownDescriptor => text!(
                "unknown descriptor (use @yearly, @monthly, @weekly, @daily, @hourly or @every <duration>)",
                "不認得的描述字（可用 @yearly、@monthly、@weekly、@daily、@hourly 或 @every <時間>）"
            ),
            CronError::OutOfRange => text!(
                "a value is outside its field's range (minute 0-59, hour 0-23, day 1-31, month 1-12, day of week 0-6: Sunday is 0, not 7)",
                "有值超出欄位範圍（分 0-59、時 0-23、日 1-31、月 1-12、星期 0-6：星期日是 0，不是 7）"
            ),
            CronError::BadNumber | CronError::BadRange | CronError::ZeroStep | CronError::BadDuration => text!(
                "a field is not a number, name, range or step that cron understands",
                "有欄位不是 cron 看得懂的數字、名稱、範圍或間隔"
            ),
        };
        let (en, zh) = (reason.en, reason.zh_tw);
        out.push(RULE.diagnostic(
            span,
            text!(
                "spec.schedule: Invalid value: \"{schedule}\": {en}",
                "spec.schedule：Invalid value: \"{schedule}\"：{zh}"
            ),
        ));
    }
}
