//! One set of numbers (issue 30, item 4): what a rule bounds, the diagnosis
//! reads off the run, and an exercise's prose states agree.

use podlab_core::exercise::library;
use podlab_core::explain::diagnosis::diagnose;
use podlab_core::lint::lint;
use podlab_core::manifest::duration::Millis;
use podlab_core::sim::{simulate, Options};

/// The figures in seconds a text states: `40 s`, `40s`, `40 秒`, `38.5s`.
fn seconds_figures(text: &str) -> Vec<String> {
    let chars: Vec<char> = text.chars().collect();
    let mut out = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        if !chars[i].is_ascii_digit()
            || (i > 0 && (chars[i - 1].is_alphanumeric() || chars[i - 1] == '.'))
        {
            i += 1;
            continue;
        }
        let start = i;
        while i < chars.len() && (chars[i].is_ascii_digit() || chars[i] == '.') {
            i += 1;
        }
        let number: String = chars[start..i].iter().collect();
        let mut j = i;
        while j < chars.len() && chars[j] == ' ' {
            j += 1;
        }
        // `503s` is HTTP statuses in the plural, not a duration.
        let status =
            j == i && number.len() == 3 && (number.starts_with('4') || number.starts_with('5'));
        let unit_s = !status
            && chars.get(j) == Some(&'s')
            && !chars.get(j + 1).is_some_and(|c| c.is_alphanumeric());
        if unit_s || chars.get(j) == Some(&'秒') {
            out.push(number.trim_end_matches('.').to_string());
        }
    }
    out
}

/// Every number in a text (`initialDelaySeconds: 10`, `startup: 40s`, `between 30s and 40s`).
fn numbers(text: &str) -> Vec<String> {
    text.split(|c: char| !(c.is_ascii_digit() || c == '.'))
        .map(|n| n.trim_matches('.'))
        .filter(|n| !n.is_empty())
        .map(str::to_string)
        .collect()
}

/// A file's documents other than the Exercise (whose prose is checked, and
/// so cannot vouch for itself), comments left out.
fn manifests(text: &str) -> String {
    text.split("\n---")
        .filter(|document| !document.contains("kind: Exercise"))
        .flat_map(|document| document.lines())
        .filter(|line| !line.trim_start().starts_with('#'))
        .collect::<Vec<_>>()
        .join("\n")
}

#[test]
fn figures_are_read_as_kubectl_rounds() {
    assert_eq!(
        seconds_figures("after 10 s, about 30 s, 40s, 38.5s, 40 秒, 5m, periodSeconds 10, 503s"),
        ["10", "30", "40", "38.5", "40"]
    );
}

#[test]
fn every_exercise_states_only_the_figures_of_its_text_rules_and_run() {
    let mut drifted = Vec::new();
    for exercise in library::all() {
        let prose = [&exercise.story, &exercise.goal, &exercise.explanation];
        // Kubernetes' own constants the prose may name: the HPA's 15 s sync
        // (`--horizontal-pod-autoscaler-sync-period`), the crash-loop
        // back-off from 10 s to 300 s (`kubelet.md` §4), the default 30 s
        // `terminationGracePeriodSeconds`.
        let mut stated: Vec<String> = ["15", "10", "300", "30"].map(String::from).to_vec();
        stated.extend(numbers(&manifests(&exercise.start)));
        stated.extend(numbers(&manifests(
            exercise.solution.as_deref().unwrap_or_default(),
        )));
        for diagnostic in lint(&exercise.start).diagnostics {
            stated.extend(numbers(&diagnostic.message.en));
            stated.extend(numbers(&diagnostic.message.zh_tw));
        }
        let run = simulate(&exercise.start, &Options::default());
        let at = exercise.interview.as_ref().map_or(run.end, |i| i.at);
        for diagnosis in diagnose(&run, at) {
            for text in [&diagnosis.root_cause, &diagnosis.fix, &diagnosis.symptom] {
                stated.extend(numbers(&text.en));
                stated.extend(numbers(&text.zh_tw));
            }
        }
        for text in prose {
            for language in [&text.en, &text.zh_tw] {
                for figure in seconds_figures(language) {
                    if !stated.contains(&figure) {
                        drifted.push(format!(
                            "{}: the prose states {figure} s, which neither the text, the rules nor the run's diagnosis states: {language}",
                            exercise.id
                        ));
                    }
                }
            }
        }
    }
    assert!(drifted.is_empty(), "{}", drifted.join("\n"));
}

/// The liveness crash loop: the rule's bound, the diagnosis's instant, the
/// same words and rounding, and every kill of the run inside the bound.
#[test]
fn the_liveness_kill_reads_inside_the_rules_bound() {
    let exercise = library::find("liveness-crash-loop").expect("in the library");
    let rule = lint(&exercise.start)
        .diagnostics
        .into_iter()
        .find(|d| d.rule == "PL201")
        .expect("PL201 fires");
    let bound = "between 30s and 40s after each start";
    assert!(rule.message.en.contains(bound), "{}", rule.message.en);
    assert!(
        rule.message.zh_tw.contains("每次啟動後 30 秒到 40 秒之間"),
        "{}",
        rule.message.zh_tw
    );
    // The budget (10 + 3 × 10 s) equals the 40 s load: the text says who wins.
    assert!(
        rule.message
            .en
            .contains("the budget equals the load and the probe wins"),
        "{}",
        rule.message.en
    );
    let run = simulate(&exercise.start, &Options::default());
    let diagnosis = &diagnose(&run, 300_000)[0];
    assert!(
        diagnosis.root_cause.en.contains(bound),
        "{}",
        diagnosis.root_cause.en
    );
    assert!(
        diagnosis
            .root_cause
            .en
            .contains("killed the container 38s after it started"),
        "{}",
        diagnosis.root_cause.en
    );
    assert!(
        diagnosis.root_cause.zh_tw.contains("啟動後 38 秒"),
        "{}",
        diagnosis.root_cause.zh_tw
    );
    let container = &run.pods[0].containers[0];
    let kills: Vec<Millis> = run
        .events
        .iter()
        .filter(|e| e.reason == "Killing")
        .map(|e| e.at)
        .collect();
    assert!(kills.len() >= 5);
    for kill in kills {
        let instance = container
            .instances
            .iter()
            .rev()
            .find(|i| i.started <= kill)
            .expect("an instance ran");
        let after = kill - instance.started;
        assert!(
            (30_000..40_000).contains(&after),
            "killed {after} ms after the start"
        );
    }
}

/// A startupProbe whose budget equals the load: killed (the probe wins), as
/// the rule says.
#[test]
fn a_budget_equal_to_the_load_is_killed_in_the_run_too() {
    let text = "apiVersion: apps/v1\nkind: Deployment\nmetadata: { name: m }\nspec:\n  selector: { matchLabels: { app: m } }\n  template:\n    metadata: { labels: { app: m } }\n    spec:\n      containers:\n        - name: api\n          image: registry.example.com/m:1\n          ports: [{ containerPort: 8000 }]\n          startupProbe:\n            httpGet: { path: /health, port: 8000 }\n            periodSeconds: 10\n            failureThreshold: 6\n---\napiVersion: podlab.dev/v1alpha1\nkind: Scenario\nmetadata: { name: s }\nspec:\n  duration: 5m\n  workload:\n    - container: api\n      startup: 60s\n";
    let rule = lint(text)
        .diagnostics
        .into_iter()
        .find(|d| d.rule == "PL202")
        .expect("PL202 fires");
    assert!(
        rule.message
            .en
            .contains("between 50s and 60s after each start"),
        "{}",
        rule.message.en
    );
    assert!(
        rule.message.en.contains("the probe wins"),
        "{}",
        rule.message.en
    );
    let run = simulate(text, &Options::default());
    assert!(
        run.events.iter().any(|e| e.reason == "Killing"),
        "the kubelet kills it"
    );
}
