//! The program's own exit: a non-zero code no probe or limit caused, or a
//! batch program that finishes (exit 0) under restartPolicy Always.

use super::evidence::{
    has_previous, last_line, logs_command, planned_last_words, target, Evidence,
};
use super::{Diagnosis, Kind};
use crate::explain::{describe, logs};
use crate::manifest::duration::Millis;
use crate::sim::{ContainerRun, PodRun, Run};
use crate::text;

pub(super) fn program_crash(
    run: &Run,
    pod: &PodRun,
    container: &ContainerRun,
    code: i64,
    at: Millis,
) -> Diagnosis {
    let name = &container.name;
    let log = logs::logs(run, pod, name, at, has_previous(container, at)).unwrap_or_default();
    // The program's own last words (the Scenario's `exit.log`), when it wrote any.
    let said = planned_last_words(container, code)
        .filter(|line| log.lines().any(|l| l == *line))
        .map(str::to_string);
    let last = last_line(&log).unwrap_or("").to_string();
    let described = describe::describe_pod(run, pod, at);
    let mut evidence = Evidence::new();
    evidence.find(&described, &format!("Exit Code:    {code}"), None);
    evidence.find(&described, "Restart Count:", None);
    evidence.push(said.as_deref().unwrap_or(&last));
    let next_command = logs_command(pod, container, at);
    let policy = &pod.restart_policy;
    Diagnosis {
        assumed: Vec::new(),
        pod: pod.name.clone(),
        kind: Kind::ProgramCrash,
        symptom: if policy == "Never" {
            text!(
                "Failed: container \"{name}\" exited with code {code}",
                "Failed：container「{name}」以 exit code {code} 結束"
            )
        } else {
            text!(
                "CrashLoopBackOff: container \"{name}\" exits with code {code} and is restarted",
                "CrashLoopBackOff：container「{name}」以 exit code {code} 結束後一再重啟"
            )
        },
        root_cause: match &said {
            Some(said) => text!(
                "the program itself fails — no probe or limit killed it; its last words: {said}",
                "是程式自己出錯——不是探針或 limit 砍掉它；它最後印出的是：{said}"
            ),
            None => text!(
                "the program itself exits with code {code} — no probe or limit killed it — without writing an error (its log ends with: {last}); look for the code in the program's documentation",
                "是程式自己以 exit code {code} 結束——不是探針或 limit 砍掉它——而且沒有印出錯誤訊息（日誌最後一行是：{last}）；請查程式文件裡這個 exit code 的意思"
            ),
        },
        evidence: evidence.lines,
        next_command,
        why_that_command: text!(
            "describe shows only the exit code; the program's own log (of the run that crashed) says why",
            "describe 只看得到 exit code；當掉那一輪程式自己的日誌才會說明原因"
        ),
        fix: text!(
            "fix what the log line reports (configuration, a missing file or credential, a bug); restarting will not help",
            "修正日誌裡回報的問題（設定、缺少的檔案或憑證、程式錯誤）；一直重啟沒有幫助"
        ),
    }
}

pub(super) fn completed_but_restarted(
    run: &Run,
    pod: &PodRun,
    container: &ContainerRun,
    at: Millis,
) -> Diagnosis {
    let name = &container.name;
    let owner = &pod.owner;
    let described = describe::describe_pod(run, pod, at);
    let mut evidence = Evidence::new();
    evidence.find(&described, "Reason:       Completed", None);
    evidence.find(&described, "Exit Code:    0", None);
    evidence.find(&described, "Restart Count:", None);
    if let Ok(previous) = logs::logs(run, pod, name, at, true) {
        if let Some(line) = last_line(&previous) {
            evidence.push(line);
        }
    }
    Diagnosis {
        assumed: Vec::new(),
        pod: pod.name.clone(),
        kind: Kind::CompletedButRestarted,
        symptom: text!(
            "container \"{name}\" finishes (exit code 0) and is started again and again",
            "container「{name}」正常結束（exit code 0）後又一再被重新啟動"
        ),
        root_cause: text!(
            "the program is a batch job that ends, but {owner} runs it with restartPolicy Always, which restarts every container that exits, even successfully",
            "這個程式是會結束的批次工作，但 {owner} 用 restartPolicy Always 執行它，container 一結束（即使成功）就會被重啟"
        ),
        evidence: evidence.lines,
        next_command: format!("kubectl logs {} --previous", target(pod, container)),
        why_that_command: text!(
            "describe shows Completed / Exit Code 0; the previous run's log confirms the work finished",
            "describe 看到 Completed／Exit Code 0；上一輪的日誌可以確認工作已經完成"
        ),
        fix: text!(
            "run it as a Job (restartPolicy OnFailure or Never) instead of a Deployment",
            "改用 Job（restartPolicy OnFailure 或 Never）執行，不要用 Deployment"
        ),
    }
}
