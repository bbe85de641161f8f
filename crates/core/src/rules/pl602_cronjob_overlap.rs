//! PL602 cronjob-overlap.
//!
//! Models the CronJob controller of `shared/reference/scheduler-controllers.md`
//! §9 (`kubernetes/kubernetes:pkg/controller/cronjob/cronjob_controllerv2.go`
//! `syncCronJob`): with `concurrencyPolicy: Allow` (the default,
//! `SetDefaults_CronJob`, §5.3) the controller creates a new Job at every
//! schedule time whatever is still running. When one run of a GPU CronJob
//! lasts longer than the shortest interval between two schedule times, the
//! next run's pod asks for a GPU the previous run still holds: on a cluster
//! with no spare GPU it stays Pending (FailedScheduling, `Insufficient
//! nvidia.com/gpu`), and with spare GPUs two runs pay for GPUs at once.
//!
//! The run time is the Scenario's `imagePull + startup + runFor` of the pod's
//! containers (the largest); a container without `runFor` is not a batch
//! program the Scenario models, and without any the rule says nothing. A Job
//! `activeDeadlineSeconds` not longer than the interval ends every run in
//! time (the Job then fails with `DeadlineExceeded`, another problem), so the
//! rule says nothing either.
//!
//! The schedule is read as the API server (`pkg/apis/batch/validation/validation.go`
//! `validateScheduleFormat`) and the controller read it: `cron.ParseStandard` of
//! robfig/cron v3 (`github.com/robfig/cron/v3` v3.0.1, `parser.go` `Parse`,
//! `getRange`, `parseDescriptor`; `spec.go` `dayMatches`): five fields
//! (minute hour day-of-month month day-of-week), `*` and `?`, `a-b`, `*/n`,
//! `a-b/n`, `a/n` (= `a-max/n`), comma lists, case-insensitive month and day
//! names, the descriptors `@yearly @annually @monthly @weekly @daily
//! @midnight @hourly` and `@every <duration>`. A day matches when the
//! day-of-month AND the day-of-week match if either field contains a `*` or
//! `?` without a step above 1 (robfig's "star bit"), and when EITHER matches
//! otherwise (the classic Vixie-cron rule): `0 0 1 * MON` runs on the 1st and
//! on every Monday, and `0 0 */2 * MON` on odd days and on Mondays (a step
//! clears the star bit).
//! One deliberate leniency: a `TZ=`/`CRON_TZ=` prefix is skipped here (the
//! API server rejects it in `.spec.schedule`, §9; PL003 reports it). `7` is
//! not Sunday: robfig's day-of-week range is 0-6 and a real API server
//! rejects `0 3 * * 7` with `end of range (7) above maximum (6)` (PL003
//! reports it too). A schedule that does not parse, or that never fires
//! twice, gets no diagnostic from this rule.
//!
//! The shortest interval is computed without a clock: the times of day a
//! schedule fires at are fixed by its minute and hour fields, so the rule
//! walks the days from 2026-01-01 for 28 years (every weekday alignment of
//! every month, leap years included, repeats within 28 years between 1901
//! and 2099) and takes the shortest gap between firings on the same day or
//! on two consecutive matching days, stopping early at one minute. Times are
//! wall-clock times without daylight-saving jumps (`spec.timeZone` is not
//! modelled).

use super::{edit, pod_gpu_requests, words, Context, Rule};
use super::{long, long_str};
use crate::diagnostic::{Diagnostic, Fix, Severity};
use crate::manifest::duration::{self, Millis};
use crate::manifest::model::WorkloadKind;
use crate::span::Span;
use crate::text;

pub static RULE: Rule = Rule {
    id: "PL602",
    name: "cronjob-overlap",
    severity: Severity::Warning,
    scenario_aware: true,
    summary: words!(
        "a GPU CronJob runs longer than its schedule interval and concurrencyPolicy Allow lets the runs pile up",
        "GPU CronJob 跑一次的時間比排程間隔長，concurrencyPolicy Allow 讓執行一輪輪疊上去"
    ),
    what: long!(
        "For each CronJob whose pods ask for a GPU and whose `concurrencyPolicy` is `Allow` (the default), compares the time one run takes — the Scenario's `imagePull + startup + runFor` of its containers, the largest; no `runFor`, no check — with the shortest interval between two times of its `schedule` (five-field cron as Kubernetes parses it with robfig/cron: lists, ranges, steps, month and day names, `@hourly`/`@daily`/… and `@every`; when both day-of-month and day-of-week are restricted a day matches if either does). It reports when the run is longer. A Job `activeDeadlineSeconds` not longer than the interval, or a schedule that does not parse, silences it. When only the default load time makes a run longer than the interval, it is at most info and says so.",
        "對每個 Pod 要求 GPU、`concurrencyPolicy` 為 `Allow`（預設值）的 CronJob，比較跑一次所需的時間——Scenario 中各 container 的 `imagePull + startup + runFor`，取最大者；沒有 `runFor` 就不檢查——與 `schedule` 兩次觸發之間最短的間隔（依 Kubernetes 使用的 robfig/cron 解析五欄位 cron：列表、範圍、間隔、月份與星期名稱、`@hourly`／`@daily`／… 與 `@every`；日期與星期兩欄都有限制時，任一欄符合即觸發）。跑一次比間隔長就回報。Job 的 `activeDeadlineSeconds` 不超過間隔，或 schedule 無法解析時，不回報。只有加上預設的載入時間才超過間隔時，最多只是資訊，訊息會說明這是假設。"
    ),
    why: long!(
        "With `Allow` the CronJob controller creates a new Job at every schedule time, whether or not the previous one has finished. A nightly fine-tune or an hourly batch-inference run that holds the only GPU longer than the interval leaves the next run's pod Pending (`0/1 nodes are available: 1 Insufficient nvidia.com/gpu`); the runs pile up, each new one waiting for the GPU, and on a cluster with spare GPUs two runs bill GPU hours at once and may write the same output. Runs get longer as data and models grow, so a schedule that fit at first stops fitting silently.",
        "在 `Allow` 之下，CronJob 控制器每到排程時間就建立新的 Job，不管上一個跑完沒有。每晚的微調或每小時的批次推論，若佔用唯一一張 GPU 的時間超過排程間隔，下一輪的 Pod 就會卡在 Pending（`0/1 nodes are available: 1 Insufficient nvidia.com/gpu`）；執行一輪輪疊上去，每個新的都在等 GPU。叢集有多餘的 GPU 時，則會有兩輪同時計費，還可能寫到同一份輸出。資料與模型會長大，執行時間也跟著變長，原本排得下的排程會無聲地排不下。"
    ),
    failing: long_str!("apiVersion: batch/v1\nkind: CronJob\nmetadata: { name: batch-embed }\nspec:\n  schedule: \"0 * * * *\"\n  jobTemplate:\n    spec:\n      template:\n        spec:\n          restartPolicy: Never\n          containers:\n            - name: embed\n              image: registry.example.com/batch-embed:1.4.0\n              resources:\n                limits: { nvidia.com/gpu: 1, memory: 16Gi }\n---\napiVersion: podlab.dev/v1alpha1\nkind: Scenario\nmetadata: { name: slow-batch }\nspec:\n  workload:\n    - container: embed\n      startup: 1m\n      runFor: 75m\n"),
    fixed: long_str!("apiVersion: batch/v1\nkind: CronJob\nmetadata: { name: batch-embed }\nspec:\n  concurrencyPolicy: Forbid\n  schedule: \"0 * * * *\"\n  jobTemplate:\n    spec:\n      template:\n        spec:\n          restartPolicy: Never\n          containers:\n            - name: embed\n              image: registry.example.com/batch-embed:1.4.0\n              resources:\n                limits: { nvidia.com/gpu: 1, memory: 16Gi }\n---\napiVersion: podlab.dev/v1alpha1\nkind: Scenario\nmetadata: { name: slow-batch }\nspec:\n  workload:\n    - container: embed\n      startup: 1m\n      runFor: 75m\n"),
    fix: long!(
        "Set `concurrencyPolicy: Forbid`: while a run is active the controller skips the schedule time (Normal `JobAlreadyActive` event) and starts the most recent missed time as soon as the run ends (within `startingDeadlineSeconds`, if set). `Replace` is rarely right for GPU work: it deletes the running Job, so a run that is always too long never finishes. Or space the schedule out, or make the run shorter.",
        "設定 `concurrencyPolicy: Forbid`：有執行還在跑時，控制器會跳過該次排程（Normal 事件 `JobAlreadyActive`），等這輪結束後立刻補跑最近一次錯過的排程（若有設定 `startingDeadlineSeconds`，須在期限內）。`Replace` 很少適合 GPU 工作：它會刪掉正在跑的 Job，一輪總是跑太久的話就永遠跑不完。也可以把排程拉開，或縮短每輪的執行時間。"
    ),
    check: Some(check),
};

fn check(context: &Context<'_>, out: &mut Vec<Diagnostic>) {
    for workload in context.workloads {
        if workload.kind != WorkloadKind::CronJob {
            continue;
        }
        let Some(cron) = &workload.cron else { continue };
        if cron.concurrency_policy.value != "Allow" {
            continue;
        }
        let gpus = pod_gpu_requests(workload);
        let Some((gpu_name, gpu_count)) = gpus.first() else {
            continue;
        };
        // The longest run among the containers the Scenario models as batch programs.
        let mut longest: Option<(Millis, Millis, Millis, Millis, &str, Millis)> = None;
        for container in &workload.pod.containers {
            let program = context.scenario.program(container);
            let Some(run_for) = &program.run_for else {
                continue;
            };
            let pull = program.image_pull.value;
            let startup = program.startup.value;
            let total = pull.saturating_add(startup).saturating_add(run_for.value);
            // What the stated numbers alone prove (issue 14): an assumed
            // startup or image pull counts as 0.
            let stated_total = [&program.image_pull, &program.startup]
                .iter()
                .filter(|setting| setting.span.is_some())
                .fold(run_for.value, |sum, setting| {
                    sum.saturating_add(setting.value)
                });
            if longest.is_none_or(|(known, ..)| total > known) {
                longest = Some((
                    total,
                    pull,
                    startup,
                    run_for.value,
                    &container.name,
                    stated_total,
                ));
            }
        }
        let Some((run_ms, pull_ms, startup_ms, run_for_ms, container, stated_ms)) = longest else {
            continue;
        };
        let Ok(schedule) = parse(&cron.schedule.value) else {
            continue;
        };
        let Some(gap_ms) = schedule.shortest_gap_ms() else {
            continue;
        };
        if run_ms <= gap_ms {
            continue;
        }
        let deadline_ms = workload
            .job
            .as_ref()
            .and_then(|job| job.active_deadline_seconds.as_ref())
            .filter(|deadline| deadline.value > 0)
            .map(|deadline| {
                u64::try_from(deadline.value)
                    .unwrap_or(0)
                    .saturating_mul(1000)
            });
        if deadline_ms.is_some_and(|deadline| deadline <= gap_ms) {
            continue;
        }
        let name = &workload.name;
        let schedule_text = cron.schedule.value.trim();
        let run = duration::format(run_ms);
        let gap = duration::format(gap_ms);
        let parts = if pull_ms > 0 {
            format!(
                "imagePull {} + startup {} + runFor {}",
                duration::format(pull_ms),
                duration::format(startup_ms),
                duration::format(run_for_ms)
            )
        } else {
            format!(
                "startup {} + runFor {}",
                duration::format(startup_ms),
                duration::format(run_for_ms)
            )
        };
        let policy = if cron.concurrency_policy.is_default() {
            "concurrencyPolicy not set (Allow)"
        } else {
            "concurrencyPolicy Allow"
        };
        let policy_zh = if cron.concurrency_policy.is_default() {
            "沒有設定 concurrencyPolicy（預設 Allow）"
        } else {
            "concurrencyPolicy 為 Allow"
        };
        let span = cron
            .concurrency_policy
            .span
            .or(cron.schedule.span)
            .unwrap_or(workload.kind_span);
        let message = text!(
            "CronJob \"{name}\": a run takes {run} (container \"{container}\": {parts}) but schedule \"{schedule_text}\" starts one every {gap} at the shortest; with {policy} the next run starts while the previous still holds {gpu_name}: {gpu_count}",
            "CronJob「{name}」：跑一次要 {run}（container「{container}」：{parts}），但 schedule「{schedule_text}」最短每 {gap} 就啟動一次；{policy_zh}，下一輪會在上一輪還佔著 {gpu_name}: {gpu_count} 時就開始"
        );
        let mut diagnostic = RULE.diagnostic(span, message).with_help(text!(
            "with no spare GPU the new run's pod stays Pending: `kubectl get jobs` shows several active Jobs `{name}-<minutes>` and `kubectl describe pod` shows `FailedScheduling ... Insufficient {gpu_name}`",
            "沒有多餘的 GPU 時，新一輪的 Pod 會停在 Pending：`kubectl get jobs` 會看到好幾個進行中的 `{name}-<分鐘數>` Job，`kubectl describe pod` 會看到 `FailedScheduling ... Insufficient {gpu_name}`"
        ));
        if let Some(edit) = forbid_edit(context.text, cron.concurrency_policy.span, cron.span) {
            diagnostic = diagnostic.with_fix(Fix {
                description: text!(
                    "set concurrencyPolicy: Forbid (a schedule time that comes while a run is active is skipped)",
                    "設定 concurrencyPolicy: Forbid（有執行還在跑時到來的排程會被跳過）"
                ),
                edits: vec![edit],
            });
        }
        if stated_ms <= gap_ms {
            let startup = duration::format(startup_ms);
            diagnostic = super::on_assumption(
                diagnostic,
                text!("a {startup} model load", "模型載入要 {startup}"),
                "podlab.dev/startup",
            );
        }
        out.push(diagnostic);
    }
}

/// Replaces a written `concurrencyPolicy` value, or inserts the entry into
/// the CronJob spec mapping.
fn forbid_edit(
    text: &str,
    written: Option<Span>,
    spec: Option<Span>,
) -> Option<crate::diagnostic::TextEdit> {
    if let Some(value) = written {
        return Some(edit::replace(value, "Forbid"));
    }
    let at = edit::first_key(text, spec?)?;
    edit::insert_entry(text, at, &["concurrencyPolicy: Forbid".to_string()])
}

// The cron schedule: `manifest/cron.rs`, shared with the simulator.
pub use crate::manifest::cron::{parse, CronError, Schedule};

#[cfg(test)]
mod tests {
    use super::*;
    use crate::manifest::cron::{days_in_month, MINUTE_MS, SCAN_DAYS, SCAN_START};

    const HOUR: Millis = 60 * MINUTE_MS;
    const DAY: Millis = 24 * HOUR;

    fn gap(schedule: &str) -> Option<Millis> {
        parse(schedule)
            .unwrap_or_else(|error| panic!("{schedule}: {error:?}"))
            .shortest_gap_ms()
    }

    fn bits(values: &[u32]) -> u64 {
        values.iter().fold(0, |bits, value| bits | (1 << value))
    }

    fn fields(schedule: &str) -> (u64, u64, u64, u64, u64, bool, bool) {
        match parse(schedule) {
            Ok(Schedule::Fields {
                minutes,
                hours,
                days_of_month,
                months,
                days_of_week,
                day_of_month_star,
                day_of_week_star,
            }) => (
                minutes,
                hours,
                days_of_month,
                months,
                days_of_week,
                day_of_month_star,
                day_of_week_star,
            ),
            other => panic!("{schedule}: {other:?}"),
        }
    }

    #[test]
    fn single_values_ranges_steps_and_lists() {
        let (minutes, hours, dom, months, dow, dom_star, dow_star) = fields("5 9-17 1,15 */3 1-5");
        assert_eq!(minutes, bits(&[5]));
        assert_eq!(hours, bits(&[9, 10, 11, 12, 13, 14, 15, 16, 17]));
        assert_eq!(dom, bits(&[1, 15]));
        assert_eq!(months, bits(&[1, 4, 7, 10]));
        assert_eq!(dow, bits(&[1, 2, 3, 4, 5]));
        assert!(!dom_star && !dow_star);
        assert_eq!(fields("*/15 * * * *").0, bits(&[0, 15, 30, 45]));
        assert_eq!(fields("10-40/10 * * * *").0, bits(&[10, 20, 30, 40]));
        // robfig: "N/step" means "N-max/step".
        assert_eq!(fields("50/5 * * * *").0, bits(&[50, 55]));
        assert_eq!(fields("0 0 * * 1/2").4, bits(&[1, 3, 5]));
        // Empty list items are skipped (strings.FieldsFunc).
        assert_eq!(fields("1,,2 * * * *").0, bits(&[1, 2]));
        assert_eq!(fields("0 0,12 * * *").1, bits(&[0, 12]));
    }

    #[test]
    fn names_are_case_insensitive_and_seven_is_out_of_range() {
        assert_eq!(fields("0 0 * JAN,mar,Dec *").3, bits(&[1, 3, 12]));
        assert_eq!(fields("0 0 * * MON-FRI").4, bits(&[1, 2, 3, 4, 5]));
        assert_eq!(fields("0 0 * * sun").4, bits(&[0]));
        // robfig/cron v3 `dow` bounds are 0-6, as the API server enforces.
        assert_eq!(parse("0 0 * * 7"), Err(CronError::OutOfRange));
        assert_eq!(parse("0 0 * * 5-7"), Err(CronError::OutOfRange));
        assert_eq!(fields("0 0 * * */2").4, bits(&[0, 2, 4, 6]));
        assert_eq!(fields("0 0 * feb-apr *").3, bits(&[2, 3, 4]));
    }

    #[test]
    fn star_bit_follows_robfig() {
        let (.., dom_star, dow_star) = fields("0 0 * * *");
        assert!(dom_star && dow_star);
        let (.., dom_star, dow_star) = fields("0 0 ? * MON");
        assert!(dom_star && !dow_star);
        // A step above 1 clears the star; */1 keeps it.
        assert!(!fields("0 0 */2 * MON").5);
        assert!(fields("0 0 */1 * MON").5);
        // A star anywhere in a list sets it.
        assert!(fields("0 0 *,5 * MON").5);
    }

    #[test]
    fn descriptors_and_time_zone_prefixes() {
        assert_eq!(parse("@daily"), parse("0 0 * * *"));
        assert_eq!(parse("@midnight"), parse("0 0 * * *"));
        assert_eq!(parse("@hourly"), parse("0 * * * *"));
        assert_eq!(parse("@weekly"), parse("0 0 * * 0"));
        assert_eq!(parse("@monthly"), parse("0 0 1 * *"));
        assert_eq!(parse("@yearly"), parse("0 0 1 1 *"));
        assert_eq!(parse("@annually"), parse("0 0 1 1 *"));
        assert_eq!(parse("@every 90m"), Ok(Schedule::Every(90 * MINUTE_MS)));
        assert_eq!(parse("@every 1500ms"), Ok(Schedule::Every(1000)));
        assert_eq!(parse("@every 10ms"), Ok(Schedule::Every(1000)));
        assert_eq!(parse("TZ=Asia/Taipei 30 2 * * *"), parse("30 2 * * *"));
        assert_eq!(parse("CRON_TZ=UTC @daily"), parse("@daily"));
        assert_eq!(parse("  0  3 * * *  "), parse("0 3 * * *"));
    }

    #[test]
    fn bad_schedules_do_not_parse() {
        for (schedule, error) in [
            ("", CronError::Empty),
            ("   ", CronError::Empty),
            ("TZ=UTC", CronError::FieldCount),
            ("* * * *", CronError::FieldCount),
            ("0 * * * * *", CronError::FieldCount),
            ("@reboot", CronError::UnknownDescriptor),
            ("@Daily", CronError::UnknownDescriptor),
            ("@every", CronError::UnknownDescriptor),
            ("@every soon", CronError::BadDuration),
            ("60 * * * *", CronError::OutOfRange),
            ("0 24 * * *", CronError::OutOfRange),
            ("0 0 0 * *", CronError::OutOfRange),
            ("0 0 32 * *", CronError::OutOfRange),
            ("0 0 * 13 *", CronError::OutOfRange),
            ("0 0 * * 8", CronError::OutOfRange),
            ("0 0 * 0 *", CronError::OutOfRange),
            ("5-1 * * * *", CronError::BadRange),
            ("1-2-3 * * * *", CronError::BadRange),
            ("*/5/2 * * * *", CronError::BadRange),
            ("*/0 * * * *", CronError::ZeroStep),
            ("x * * * *", CronError::BadNumber),
            ("-1 * * * *", CronError::BadNumber),
            ("*/ * * * *", CronError::BadNumber),
            ("99999999999 * * * *", CronError::BadNumber),
            ("0 0 * * MONDAY", CronError::BadNumber),
            ("0 0 * * 1.5", CronError::BadNumber),
        ] {
            assert_eq!(parse(schedule), Err(error), "{schedule:?}");
        }
    }

    #[test]
    fn day_of_month_and_day_of_week_match_either_when_both_are_restricted() {
        // 2026-01-01 is a Thursday (weekday 4), 2026-01-05 a Monday.
        let either = parse("0 0 1 * MON").unwrap();
        assert!(either.fires_on(1, 1, 4));
        assert!(either.fires_on(1, 5, 1));
        assert!(!either.fires_on(1, 2, 5));
        // With a star in one field, both must match.
        let both = parse("0 0 ? * MON").unwrap();
        assert!(!both.fires_on(1, 1, 4));
        assert!(both.fires_on(1, 5, 1));
        // A step clears the star: odd days OR Mondays.
        let stepped = parse("0 0 */2 * MON").unwrap();
        assert!(stepped.fires_on(1, 3, 6));
        assert!(stepped.fires_on(1, 12, 1));
        assert!(!stepped.fires_on(1, 4, 0));
        // The month restricts both.
        assert!(!parse("0 0 1 2 MON").unwrap().fires_on(1, 5, 1));
    }

    #[test]
    fn shortest_gaps_of_common_schedules() {
        assert_eq!(gap("* * * * *"), Some(MINUTE_MS));
        assert_eq!(gap("*/5 * * * *"), Some(5 * MINUTE_MS));
        assert_eq!(gap("*/7 * * * *"), Some(4 * MINUTE_MS)); // 56 → 0 of the next hour
        assert_eq!(gap("0 * * * *"), Some(HOUR));
        assert_eq!(gap("@hourly"), Some(HOUR));
        assert_eq!(gap("0 */6 * * *"), Some(6 * HOUR));
        assert_eq!(gap("0 0,12 * * *"), Some(12 * HOUR));
        assert_eq!(gap("0 9-17 * * 1-5"), Some(HOUR));
        assert_eq!(gap("30 2 * * *"), Some(DAY));
        assert_eq!(gap("@daily"), Some(DAY));
        // 23:00 then 01:00 the next day.
        assert_eq!(gap("0 1,23 * * *"), Some(2 * HOUR));
        assert_eq!(gap("0 22 * * *"), Some(DAY));
        assert_eq!(gap("0 0 * * 0"), Some(7 * DAY));
        assert_eq!(gap("@weekly"), Some(7 * DAY));
        // Friday 18:00 → Monday 06:00.
        assert_eq!(gap("0 6,18 * * 1-5"), Some(12 * HOUR));
        assert_eq!(gap("0 18 * * 5,1"), Some(3 * DAY));
        assert_eq!(gap("@every 45m"), Some(45 * MINUTE_MS));
    }

    #[test]
    fn shortest_gaps_over_months_and_years() {
        // February: 28 days from 1 Feb to 1 Mar.
        assert_eq!(gap("@monthly"), Some(28 * DAY));
        // Months with a 31st: 31 Jul → 31 Aug and 31 Dec → 31 Jan.
        assert_eq!(gap("0 0 31 * *"), Some(31 * DAY));
        assert_eq!(gap("@yearly"), Some(365 * DAY));
        // Leap days only: four years apart.
        assert_eq!(gap("0 0 29 2 *"), Some((3 * 365 + 366) * DAY));
        // 13 February or any Friday of February: in 2027 Friday the 12th is
        // followed by Saturday the 13th, an alignment January 2026 lacks.
        assert_eq!(gap("0 0 13 2 FRI"), Some(DAY));
        // The 1st OR Mondays: Monday 31st then Tuesday 1st.
        assert_eq!(gap("0 0 1 * MON"), Some(DAY));
        // With a star the day-of-month field no longer widens it.
        assert_eq!(gap("0 0 ? * MON"), Some(7 * DAY));
    }

    #[test]
    fn schedules_that_never_fire_twice_have_no_gap() {
        assert_eq!(gap("0 0 31 2 *"), None);
        assert_eq!(gap("0 0 30 2 *"), None);
        assert_eq!(gap(", * * * *"), None);
        // Fires once a day at one time: the gap is a day, not zero.
        assert_eq!(gap("0 12 * * *"), Some(DAY));
    }

    #[test]
    fn odd_input_never_panics() {
        for schedule in [
            "@",
            "@every ",
            "@every 0s",
            "@every 99999h",
            "TZ= ",
            "CRON_TZ=Asia/Taipei",
            "*/99999999 * * * *",
            "59-59/59 23 31 12 7",
            "*-5 * * * *",
            "?/? * * * *",
            "0 0 * * sun-sat",
            "0 0 * * 7-7",
            "0 0 * * 0-7",
            "\u{3000}",
            "0 0 * * 月",
            ",,,, ,, ,, ,, ,,",
            "- - - - -",
            "/ / / / /",
        ] {
            if let Ok(parsed) = parse(schedule) {
                let _ = parsed.shortest_gap_ms();
            }
        }
        assert_eq!(parse("0 0 * * 0-7"), Err(CronError::OutOfRange));
        assert_eq!(gap("@every 0s"), Some(1000));
    }

    #[test]
    fn scan_days_cover_28_years() {
        let (mut year, mut days) = (SCAN_START.0, 0);
        while year < SCAN_START.0 + 28 {
            days += (1..=12)
                .map(|month| days_in_month(year, month))
                .sum::<u32>();
            year += 1;
        }
        assert_eq!(days, SCAN_DAYS);
        assert_eq!(days_in_month(2100, 2), 28);
        assert_eq!(days_in_month(2000, 2), 29);
    }
}
