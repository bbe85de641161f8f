//! What the page's "From my cluster" shows of a paste's answer
//! (`podlab_core::paste::Answer`, docs/diagnose.md) and its fields across
//! the tools worker's boundary. Only the worker calls [`Pasted::of`], so
//! the paste's reader, the judge, the replay's simulator and the answer's
//! markup stay out of the page's download: the page gets the kind, the
//! evidence's line numbers (to mark them in the paste) and the answer drawn
//! as markup in both languages (as the timeline's lane charts are strings).

use podlab_core::i18n::{Lang, Text};
use podlab_core::paste::{words, Answer};
use podlab_core::picture::escape;
use podlab_core::share::embed::at_param;

/// An answer, as the page shows it.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Pasted {
    /// `liveness-kills-slow-start`, …, `healthy`, `unknown`.
    pub kind: String,
    /// The pasted lines that show it (1-based).
    pub evidence: Vec<usize>,
    /// The answer drawn ([`markup`]) in each language.
    pub markup: Text,
}

impl Pasted {
    /// The worker's side: what the page needs of an answer.
    pub fn of(answer: &Answer) -> Pasted {
        Pasted {
            kind: answer.kind.to_owned(),
            evidence: answer.evidence.iter().map(|line| line.number).collect(),
            markup: Text::new(markup(answer, Lang::En), markup(answer, Lang::ZhTw)),
        }
    }

    /// The fields of the worker's reply (`kubectl_worker::encode`).
    pub fn push_fields(&self, out: &mut Vec<String>) {
        out.push(self.kind.clone());
        out.push(self.evidence.len().to_string());
        out.extend(self.evidence.iter().map(usize::to_string));
        out.push(self.markup.en.clone());
        out.push(self.markup.zh_tw.clone());
    }

    /// Reads what [`Pasted::push_fields`] wrote; `None` for anything else.
    pub fn from_fields<'a>(fields: &mut impl Iterator<Item = &'a str>) -> Option<Pasted> {
        let kind = fields.next()?.to_owned();
        let count: usize = fields.next()?.parse().ok()?;
        let mut evidence = Vec::new();
        for _ in 0..count {
            evidence.push(fields.next()?.parse().ok()?);
        }
        let markup = Text::new(fields.next()?, fields.next()?);
        Some(Pasted {
            kind,
            evidence,
            markup,
        })
    }
}

/// The answer as markup: the kind, the explanation, the evidence (each
/// line a button carrying its line number, which the page's one listener
/// selects in the paste), the fix, the assumptions, the replay with its
/// link into the playground at the replay's time, the pods, what was read.
/// Everything from the paste is escaped.
pub fn markup(answer: &Answer, lang: Lang) -> String {
    let colon = match lang {
        Lang::En => ": ",
        Lang::ZhTw => "：",
    };
    let word = |text: Text| escape(text.get(lang));
    let mut out = format!(
        "<h3 class=\"paste-kind\">{}{colon}<code data-testid=\"paste-kind\">{}</code>",
        word(words::diagnosis()),
        escape(answer.kind)
    );
    if let Some(pod) = &answer.pod {
        out.push_str(&format!(
            " <span class=\"paste-pod\">{} <code>{}</code></span>",
            word(words::pod()),
            escape(pod)
        ));
    }
    out.push_str(&format!(
        "</h3><p class=\"explanation\">{}</p>",
        escape(answer.explanation.get(lang))
    ));
    if !answer.evidence.is_empty() {
        out.push_str(&format!(
            "<h4>{}</h4><ol class=\"evidence\" data-testid=\"paste-evidence\">",
            word(words::evidence())
        ));
        let title = word(words::evidence_goto());
        for line in &answer.evidence {
            out.push_str(&format!(
                "<li><button type=\"button\" class=\"evidence-line\" data-line=\"{n}\" title=\"{title}\"><span class=\"evidence-number\">{n}</span><code>{}</code></button></li>",
                escape(&line.text),
                n = line.number,
            ));
        }
        out.push_str("</ol>");
    }
    if !matches!(answer.kind, "healthy" | "unknown") {
        out.push_str(&format!("<h4>{}</h4>", word(words::fix())));
        match &answer.fix {
            Some(fix) => out.push_str(&format!(
                "<pre class=\"paste-fix\" data-testid=\"paste-fix\">{}</pre>",
                escape(fix)
            )),
            None => out.push_str(&format!("<p>{}</p>", word(words::no_fix()))),
        }
    }
    if !answer.assumed.is_empty() {
        out.push_str(&format!(
            "<h4>{}</h4><ul class=\"assumed\">",
            word(words::assumed())
        ));
        for assumption in &answer.assumed {
            out.push_str(&format!(
                "<li><code>{} = {}</code></li>",
                escape(&assumption.path.to_string()),
                escape(&assumption.value)
            ));
        }
        out.push_str("</ul>");
    }
    if let Some(replay) = &answer.replay {
        let at = podlab_core::explain::human_duration(replay.at);
        out.push_str(&format!(
            "<h4>{}</h4><p>{}</p><pre class=\"get-pods\">{}</pre>",
            word(words::replay()),
            word(words::replay_at(&at, replay.matches)),
            escape(&replay.get_pods),
        ));
        // The messages compared besides STATUS and RESTARTS.
        let messages: Vec<_> = replay
            .compared
            .iter()
            .filter(|c| c.what != "STATUS" && c.what != "RESTARTS")
            .collect();
        if !messages.is_empty() {
            out.push_str("<ul class=\"compared\">");
            for compared in messages {
                out.push_str(&format!(
                    "<li><b>{}</b> ({}): <code>{}</code></li>",
                    escape(compared.what),
                    word(words::compared(compared.same)),
                    escape(&compared.replayed)
                ));
            }
            out.push_str("</ul>");
        }
        out.push_str(&format!("<p>{}</p>", escape(replay.fix_note.get(lang))));
        // Empty where podlab cannot model the fix (the note says why).
        if !replay.fixed_get_pods.is_empty() {
            out.push_str(&format!(
                "<p>{}</p><pre class=\"get-pods\">{}</pre>",
                word(words::with_the_fix()),
                escape(&replay.fixed_get_pods),
            ));
        }
        if let Some(fragment) = &replay.link {
            let at = at_param(replay.at);
            out.push_str(&format!(
                "<a class=\"open-replay\" data-testid=\"open-replay\" href=\"./?at={at}&amp;lang={}#{}\">{}</a>",
                lang.code(),
                escape(fragment),
                word(words::open_replay(&at)),
            ));
        }
    }
    if answer.pods.len() > 1 {
        out.push_str(&format!(
            "<h4>{}</h4><ul class=\"paste-pods\">",
            word(words::other_pods())
        ));
        for (name, kind) in &answer.pods {
            out.push_str(&format!(
                "<li><code>{}</code> <code>{}</code></li>",
                escape(name),
                escape(kind)
            ));
        }
        out.push_str("</ul>");
    }
    out.push_str(&format!(
        "<p class=\"recognised\">{}{colon}{}</p>",
        word(words::read()),
        escape(answer.recognised.get(lang))
    ));
    out
}
