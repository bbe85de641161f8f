//! `podlab diagnose FILE|- [--format text|json] [--lang en|zh-TW] [--replay OUT]`: what
//! kubectl printed about a failing pod, pasted (`describe pod`, `get pod -o
//! yaml|json`, `get events`, `get pods`, `logs`, in any mix, cut anywhere),
//! read by `podlab_core::paste` and answered: the kind, the pasted lines
//! that show it, the explanation, the fix and what podlab assumed
//! (docs/diagnose.md). Exit 0 when the paste was read (`unknown`
//! included: it says what to paste), 2 on a usage or I/O problem.

use podlab_core::i18n::Lang;
use podlab_core::paste::{self, words, Answer};
use serde_json::{json, Value};

use crate::{lang_value, read_input, USAGE};

/// Where the playground is published (as `podlab share`'s default).
const DEFAULT_BASE: &str = "http://127.0.0.1:8080/";

pub fn diagnose_command(args: &[String]) -> Result<u8, String> {
    let mut file = None;
    let mut lang = Lang::En;
    let mut json_format = false;
    let mut replay_out = None;
    let mut iter = args.iter();
    while let Some(arg) = iter.next() {
        match arg.as_str() {
            "--lang" => lang = lang_value(iter.next())?,
            "--format" => match iter.next().map(String::as_str) {
                Some("text") => json_format = false,
                Some("json") => json_format = true,
                Some(other) => return Err(format!("--format {other}: text or json\n{USAGE}")),
                None => return Err(format!("--format needs a value\n{USAGE}")),
            },
            "--replay" => {
                replay_out = Some(
                    iter.next()
                        .cloned()
                        .ok_or_else(|| format!("--replay needs a file\n{USAGE}"))?,
                )
            }
            other if other.starts_with("--") => {
                return Err(format!("unknown option `{other}`\n{USAGE}"))
            }
            _ if file.is_some() => return Err(format!("one FILE or -\n{USAGE}")),
            _ => file = Some(arg.clone()),
        }
    }
    let file = file.ok_or_else(|| format!("diagnose needs a FILE or -\n{USAGE}"))?;
    let text = read_input(&file)?;
    let answer = paste::diagnose(&text);
    if let Some(out_file) = &replay_out {
        let replay = answer.replay.as_ref().ok_or_else(|| {
            format!(
                "--replay: podlab cannot rebuild this paste (kind {}; a replay is made from a describe of a liveness crash loop, an OOM kill, a Pending pod, an image pull or a missing Secret/ConfigMap, docs/diagnose.md)",
                answer.kind
            )
        })?;
        std::fs::write(out_file, &replay.text)
            .map_err(|error| format!("cannot write {out_file}: {error}"))?;
    }
    if json_format {
        let output = serde_json::to_string_pretty(&to_json(&answer)).map_err(|e| e.to_string())?;
        outln!("{output}");
    } else {
        out!("{}", render(&answer, lang));
    }
    Ok(0)
}

/// The JSON answer: issue 31's fields (`kind`, `evidence`, `explanation`,
/// `fix`, `assumed`, `replay`) and what was read.
fn to_json(answer: &Answer) -> Value {
    let evidence: Vec<Value> = answer
        .evidence
        .iter()
        .map(|line| json!({"line": line.number, "text": line.text}))
        .collect();
    let assumed: Vec<Value> = answer
        .assumed
        .iter()
        .map(|a| json!({"path": a.path.to_string(), "value": a.value}))
        .collect();
    let pods: Vec<Value> = answer
        .pods
        .iter()
        .map(|(name, kind)| json!({"name": name, "kind": kind}))
        .collect();
    json!({
        "kind": answer.kind,
        "pod": answer.pod,
        "container": answer.container,
        "evidence": evidence,
        "explanation": {"en": answer.explanation.en, "zh-TW": answer.explanation.zh_tw},
        "fix": answer.fix,
        "assumed": assumed,
        "replay": answer.replay.as_ref().map_or(Value::Null, |replay| json!({
            "text": replay.text,
            "link": replay.link.as_deref().map(link),
            "at": podlab_core::explain::human_duration(replay.at),
            "at_seconds": replay.at / 1000,
            "matches": replay.matches,
            "get_pods": replay.get_pods,
            // null where podlab cannot model the fix (`fix_note` says why).
            "fixed_get_pods": (!replay.fixed_get_pods.is_empty()).then_some(&replay.fixed_get_pods),
            "fixed_recovers": replay.fixed_recovers,
            "fix_note": {"en": replay.fix_note.en, "zh-TW": replay.fix_note.zh_tw},
            "compared": replay.compared.iter().map(|c| json!({
                "what": c.what, "pasted": c.pasted, "replayed": c.replayed, "same": c.same,
            })).collect::<Vec<Value>>(),
        })),
        "recognised": {"en": answer.recognised.en, "zh-TW": answer.recognised.zh_tw},
        "pods": pods,
    })
}

fn render(answer: &Answer, lang: Lang) -> String {
    let (open, close, colon) = match lang {
        Lang::En => (" (", ")", ": "),
        Lang::ZhTw => ("（", "）", "："),
    };
    let word = |text: podlab_core::i18n::Text| text.get(lang).to_owned();
    let heading = |text: podlab_core::i18n::Text| format!("{}{}\n", word(text), colon.trim_end());
    let pod = word(words::pod());
    let mut out = format!("{}{colon}{}", word(words::diagnosis()), answer.kind);
    if let Some(name) = &answer.pod {
        out.push_str(&format!("{open}{pod} {name}{close}"));
    }
    out.push('\n');
    out.push_str(&format!("  {}\n", answer.explanation.get(lang)));
    if !answer.evidence.is_empty() {
        out.push_str(&heading(words::evidence()));
        for line in &answer.evidence {
            out.push_str(&format!("  {:>5}  {}\n", line.number, line.text));
        }
    }
    if answer.kind != "healthy" && answer.kind != "unknown" {
        match &answer.fix {
            Some(text) => {
                out.push_str(&heading(words::fix()));
                for line in text.lines() {
                    out.push_str(&format!("  {line}\n"));
                }
            }
            None => out.push_str(&format!(
                "{}{colon}{}\n",
                word(words::fix()),
                word(words::no_fix())
            )),
        }
    }
    for assumption in &answer.assumed {
        out.push_str(&format!(
            "{}{colon}{} = {}\n",
            word(words::assumed()),
            assumption.path,
            assumption.value
        ));
    }
    if answer.pods.len() > 1 {
        let others: Vec<String> = answer
            .pods
            .iter()
            .map(|(name, kind)| format!("{name} {kind}"))
            .collect();
        out.push_str(&format!("{pod}{colon}{}\n", others.join(", ")));
    }
    if let Some(replay) = &answer.replay {
        let at = podlab_core::explain::human_duration(replay.at);
        out.push_str(&heading(words::replay()));
        out.push_str(&format!(
            "  {}\n",
            word(words::replay_at(&at, replay.matches))
        ));
        for line in replay.get_pods.lines() {
            out.push_str(&format!("    {line}\n"));
        }
        // The messages compared besides STATUS and RESTARTS.
        for compared in replay
            .compared
            .iter()
            .filter(|c| c.what != "STATUS" && c.what != "RESTARTS")
        {
            out.push_str(&format!(
                "  {}{open}{}{close}{colon}{}\n",
                compared.what,
                word(words::compared(compared.same)),
                compared.replayed
            ));
        }
        out.push_str(&format!("  {}\n", replay.fix_note.get(lang)));
        if !replay.fixed_get_pods.is_empty() {
            out.push_str(&format!("  {}\n", word(words::with_the_fix())));
            for line in replay.fixed_get_pods.lines() {
                out.push_str(&format!("    {line}\n"));
            }
        }
        if let Some(fragment) = &replay.link {
            out.push_str(&format!(
                "  {}{colon}{}\n",
                word(words::open_it()),
                link(fragment)
            ));
        }
    }
    out.push_str(&format!(
        "{}{colon}{}\n",
        word(words::read()),
        answer.recognised.get(lang)
    ));
    out
}

/// The playground link of a replay's fragment (`share::encode`'s, without
/// its `#`).
fn link(fragment: &str) -> String {
    format!("{DEFAULT_BASE}#{fragment}")
}
