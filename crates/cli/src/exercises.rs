//! `podlab exercises list|check`: the exercise library, and one exercise's
//! goals checked on a file.

use podlab_core::i18n::Lang;
use serde_json::{json, Value};

use crate::{lang_value, read_input, USAGE};

/// `podlab exercises list|check`.
pub fn exercises_command(args: &[String]) -> Result<u8, String> {
    use podlab_core::exercise::{self, goals, library};
    let mut format = "text".to_string();
    let mut lang = Lang::En;
    let mut positional = Vec::new();
    let mut iter = args.iter();
    while let Some(arg) = iter.next() {
        match arg.as_str() {
            "--format" => format = iter.next().ok_or("--format needs a value")?.clone(),
            "--lang" => lang = lang_value(iter.next())?,
            _ => positional.push(arg.clone()),
        }
    }
    if !matches!(format.as_str(), "text" | "json") {
        return Err(format!("unknown format `{format}` (text or json)"));
    }
    match positional
        .iter()
        .map(String::as_str)
        .collect::<Vec<_>>()
        .as_slice()
    {
        ["list"] => {
            let all = library::all();
            if format == "json" {
                let items: Vec<Value> = all
                    .iter()
                    .map(|exercise| {
                        json!({
                            "id": exercise.id,
                            "title": exercise.title.get(lang),
                            "tags": exercise.tags.iter().map(|tag| tag.as_str()).collect::<Vec<_>>(),
                            "goal": exercise.goal.get(lang),
                            "goals": exercise.goals.iter().map(|goal| json!({"goal": goal.key(), "label": goal.label().get(lang)})).collect::<Vec<_>>(),
                        })
                    })
                    .collect();
                outln!(
                    "{}",
                    serde_json::to_string_pretty(&json!({ "exercises": items }))
                        .unwrap_or_default()
                );
            } else {
                let width = all.iter().map(|e| e.id.len()).max().unwrap_or(0);
                for exercise in &all {
                    let tags: Vec<&str> = exercise.tags.iter().map(|tag| tag.as_str()).collect();
                    outln!(
                        "{:<width$}  {:<13}  {}",
                        exercise.id,
                        tags.join(","),
                        exercise.title.get(lang)
                    );
                }
            }
            Ok(0)
        }
        ["check", id, file] => {
            let exercise = library::find(id).ok_or_else(|| {
                format!("no exercise `{id}` (`podlab exercises list` lists them)")
            })?;
            let text = read_input(file)?;
            let results = exercise::check(&exercise, &text);
            let solved = goals::solved(&results);
            if format == "json" {
                let items: Vec<Value> = results
                    .iter()
                    .map(|result| {
                        json!({
                            "goal": result.goal.key(), "label": result.label.get(lang),
                            "passed": result.passed, "why": result.why.get(lang),
                        })
                    })
                    .collect();
                outln!(
                    "{}",
                    serde_json::to_string_pretty(
                        &json!({"exercise": exercise.id, "solved": solved, "goals": items})
                    )
                    .unwrap_or_default()
                );
            } else {
                outln!("{}: {}", exercise.id, exercise.title.get(lang));
                for result in &results {
                    let mark = if result.passed { "✓" } else { "✗" };
                    outln!(
                        "  {mark} {}\n      {}",
                        result.label.get(lang),
                        result.why.get(lang)
                    );
                }
                outln!("{}", goals::summary(&results).get(lang));
            }
            Ok(if solved { 0 } else { 1 })
        }
        _ => Err(USAGE.into()),
    }
}
