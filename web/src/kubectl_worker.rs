//! The kubectl terminal's engine, in a Web Worker (docs/size.md: kubectl's
//! parser, its dispatch and the renderers only the terminal needs cost
//! ~48 KB gzip, which the playground's first screen does not need).
//!
//! The page asks (`ask`) with a [`Request`]: the file's text, the time and
//! the line; the worker simulates the text (the same pure function the page
//! ran, so the same run), keeps one `kubectl::session::Session` per
//! terminal, and answers with a [`Reply`]. Messages are strings of
//! length-prefixed fields (`encode`), so no serializer enters either build.
//!
//! The same worker lints the page's text (`Ask::Lint`, [`lint`]): the
//! rules stay out of the page's download, and the diagnostics arrive a
//! moment after the timeline (`crate::findings`).
//!
//! `Engine` is plain Rust, tested natively; `start` (the worker's `main`)
//! and `ask` (the page's side) are the only browser code.

use std::cell::RefCell;
use std::rc::Rc;

use podlab_core::diagnostic::TextEdit;
use podlab_core::exercise::exec::ExecContext;
use podlab_core::exercise::interview::Command;
use podlab_core::i18n::Text;
use podlab_core::kubectl::session::{Completion, Entry, Session};
use podlab_core::kubectl::Output;
use podlab_core::manifest::duration::Millis;
use podlab_core::sim::{simulate, Options, Run};
use podlab_core::span::Span;

use crate::findings::Findings;
use crate::mapped::{self, MapAsk, Mapped, Maps};
use crate::pasted::Pasted;

/// What a terminal asks the engine.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Request {
    /// The terminal asking: each has its own session (an open shell).
    pub terminal: u32,
    pub kind: Ask,
    pub at: Millis,
    pub line: String,
    pub text: Rc<str>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ask {
    Run,
    Complete,
    /// Lint the text (the page's diagnostics; `terminal`, `at` and `line`
    /// are not read).
    Lint,
    /// Read the text as what kubectl printed on a real cluster ("From my
    /// cluster", `podlab_core::paste`; `terminal`, `at`, `line` not read).
    Diagnose,
    /// "From my cluster"'s example: the article's crash loop described at
    /// 12 minutes (nothing of the request is read).
    Example,
    /// The outcome map of the text (`line`: a `mapped::MapAsk`).
    Map,
    /// The text with a map cell's values written (`line`:
    /// `mapped::pick_line`).
    MapWrite,
}

/// The engine's answer: a line's entry, the completions of a line, or the
/// lint of a text.
#[derive(Clone, PartialEq, Eq)]
pub enum Reply {
    /// The line's entry, the prompt of the next line (`# ` in a shell), and
    /// the edits that record what the line did to the cluster in the text's
    /// Scenario (issue 33: `delete pod`, `drain`, …; `controls::record`),
    /// which the page applies as a fix's.
    Entry(Entry, &'static str, Vec<TextEdit>),
    Completion(Completion),
    /// The text's findings; `None` when the worker could not load (never
    /// sent by the worker itself).
    Lint(Option<Findings>),
    /// A paste's answer; `None` when the worker could not load.
    Diagnosis(Option<Pasted>),
    /// The example to paste.
    Example(String),
    /// The outcome map; `None` when the worker could not load.
    Map(Option<Mapped>),
    /// The edits that write a map cell's values into the text, or why
    /// not; `None` when the worker could not load.
    Written(Option<Result<Vec<TextEdit>, Text>>),
}

/// How a terminal reaches the engine: the worker on the page, the engine
/// in-process in the wasm tests (which Trunk does not build a worker for).
pub type Runner = Rc<dyn Fn(Request, Box<dyn FnOnce(Reply)>)>;

// ------------------------------------------------------------ encoding

/// Fields as `<byte length>:<field>` one after another.
pub fn encode(fields: &[&str]) -> String {
    let mut out = String::new();
    for field in fields {
        out.push_str(&field.len().to_string());
        out.push(':');
        out.push_str(field);
    }
    out
}

/// The fields of [`encode`]'s string; `None` for anything else.
pub fn decode(mut text: &str) -> Option<Vec<&str>> {
    let mut fields = Vec::new();
    while !text.is_empty() {
        let (length, rest) = text.split_once(':')?;
        let length: usize = length.parse().ok()?;
        fields.push(rest.get(..length)?);
        text = rest.get(length..)?;
    }
    Some(fields)
}

/// The fields of edits across the boundary (a map click's, a line's
/// recorded action).
pub fn push_edits(edits: &[TextEdit], out: &mut Vec<String>) {
    for edit in edits {
        out.push(edit.span.start.to_string());
        out.push(edit.span.end.to_string());
        out.push(edit.text.clone());
    }
}

/// Reads what [`push_edits`] wrote (every field left); `None` for anything
/// else.
pub fn edits_from_fields(fields: &[&str]) -> Option<Vec<TextEdit>> {
    if !fields.len().is_multiple_of(3) {
        return None;
    }
    fields
        .chunks(3)
        .map(|edit| {
            Some(TextEdit {
                span: Span::new(edit[0].parse().ok()?, edit[1].parse().ok()?),
                text: edit[2].to_owned(),
            })
        })
        .collect()
}

impl Request {
    pub fn encode(&self, id: u32) -> String {
        let kind = match self.kind {
            Ask::Run => "run",
            Ask::Complete => "complete",
            Ask::Lint => "lint",
            Ask::Diagnose => "diagnose",
            Ask::Example => "example",
            Ask::Map => "map",
            Ask::MapWrite => "map-write",
        };
        encode(&[
            &id.to_string(),
            kind,
            &self.terminal.to_string(),
            &self.at.to_string(),
            &self.line,
            &self.text,
        ])
    }

    pub fn decode(message: &str) -> Option<(u32, Request)> {
        let fields = decode(message)?;
        let [id, kind, terminal, at, line, text] = fields.as_slice() else {
            return None;
        };
        let kind = match *kind {
            "run" => Ask::Run,
            "complete" => Ask::Complete,
            "lint" => Ask::Lint,
            "diagnose" => Ask::Diagnose,
            "example" => Ask::Example,
            "map" => Ask::Map,
            "map-write" => Ask::MapWrite,
            _ => return None,
        };
        Some((
            id.parse().ok()?,
            Request {
                terminal: terminal.parse().ok()?,
                kind,
                at: at.parse().ok()?,
                line: line.to_string(),
                text: Rc::from(*text),
            },
        ))
    }
}

impl Reply {
    pub fn encode(&self, id: u32) -> String {
        let id = id.to_string();
        match self {
            Reply::Lint(findings) => {
                let mut fields = vec![id, "lint".to_owned()];
                match findings {
                    Some(findings) => findings.push_fields(&mut fields),
                    None => fields.push("failed".to_owned()),
                }
                let fields: Vec<&str> = fields.iter().map(String::as_str).collect();
                encode(&fields)
            }
            Reply::Diagnosis(pasted) => {
                let mut fields = vec![id, "diagnosis".to_owned()];
                match pasted {
                    Some(pasted) => pasted.push_fields(&mut fields),
                    None => fields.push("failed".to_owned()),
                }
                let fields: Vec<&str> = fields.iter().map(String::as_str).collect();
                encode(&fields)
            }
            Reply::Example(text) => encode(&[&id, "example", text]),
            Reply::Map(mapped) => {
                let mut fields = vec![id, "map".to_owned()];
                match mapped {
                    Some(mapped) => mapped.push_fields(&mut fields),
                    None => fields.push("failed".to_owned()),
                }
                let fields: Vec<&str> = fields.iter().map(String::as_str).collect();
                encode(&fields)
            }
            Reply::Written(None) => encode(&[&id, "written", "failed"]),
            Reply::Written(Some(Ok(edits))) => {
                let mut fields = vec![id, "written".to_owned(), "ok".to_owned()];
                push_edits(edits, &mut fields);
                let fields: Vec<&str> = fields.iter().map(String::as_str).collect();
                encode(&fields)
            }
            Reply::Written(Some(Err(why))) => {
                encode(&[&id, "written", "error", &why.en, &why.zh_tw])
            }
            Reply::Completion(completion) => {
                let from = completion.from.to_string();
                let mut fields = vec![id.as_str(), "completion", from.as_str()];
                fields.extend(completion.candidates.iter().map(String::as_str));
                encode(&fields)
            }
            Reply::Entry(entry, next, edits) => {
                let at = entry.at.to_string();
                let mut recorded = Vec::new();
                push_edits(edits, &mut recorded);
                let edit_fields = recorded.len().to_string();
                let exit = entry.output.exit_code.to_string();
                let notes = entry.output.notes.len().to_string();
                let mut fields = vec![
                    id.as_str(),
                    "entry",
                    next,
                    entry.prompt,
                    &entry.line,
                    &at,
                    &entry.output.stdout,
                    &entry.output.stderr,
                    &exit,
                    entry.reveals.map_or("", Command::id),
                    &notes,
                ];
                for note in &entry.output.notes {
                    fields.push(&note.en);
                    fields.push(&note.zh_tw);
                }
                fields.push(&edit_fields);
                fields.extend(recorded.iter().map(String::as_str));
                fields.extend(entry.pods.iter().map(String::as_str));
                encode(&fields)
            }
        }
    }

    pub fn decode(message: &str) -> Option<(u32, Reply)> {
        let fields = decode(message)?;
        let (id, rest) = fields.split_first()?;
        let id = id.parse().ok()?;
        match rest {
            ["lint", "failed"] => Some((id, Reply::Lint(None))),
            ["lint", fields @ ..] => {
                let mut fields = fields.iter().copied();
                let findings = Findings::from_fields(&mut fields)?;
                fields
                    .next()
                    .is_none()
                    .then_some((id, Reply::Lint(Some(findings))))
            }
            ["diagnosis", "failed"] => Some((id, Reply::Diagnosis(None))),
            ["diagnosis", fields @ ..] => {
                let mut fields = fields.iter().copied();
                let pasted = Pasted::from_fields(&mut fields)?;
                fields
                    .next()
                    .is_none()
                    .then_some((id, Reply::Diagnosis(Some(pasted))))
            }
            ["example", text] => Some((id, Reply::Example(text.to_string()))),
            ["map", "failed"] => Some((id, Reply::Map(None))),
            ["map", fields @ ..] => {
                let mut fields = fields.iter().copied();
                let mapped = Mapped::from_fields(&mut fields)?;
                fields
                    .next()
                    .is_none()
                    .then_some((id, Reply::Map(Some(mapped))))
            }
            ["written", "failed"] => Some((id, Reply::Written(None))),
            ["written", "ok", edits @ ..] => {
                Some((id, Reply::Written(Some(Ok(edits_from_fields(edits)?)))))
            }
            ["written", "error", en, zh_tw] => {
                Some((id, Reply::Written(Some(Err(Text::new(*en, *zh_tw))))))
            }
            ["completion", from, candidates @ ..] => Some((
                id,
                Reply::Completion(Completion {
                    from: from.parse().ok()?,
                    candidates: candidates.iter().map(|c| c.to_string()).collect(),
                }),
            )),
            ["entry", next, prompt, line, at, stdout, stderr, exit, reveals, notes, rest @ ..] => {
                let notes: usize = notes.parse().ok()?;
                let (texts, rest) = rest.split_at_checked(notes.checked_mul(2)?)?;
                let (count, rest) = rest.split_first()?;
                let (edits, pods) = rest.split_at_checked(count.parse().ok()?)?;
                let edits = edits_from_fields(edits)?;
                let notes = texts
                    .chunks(2)
                    .map(|pair| Text::new(pair[0], pair[1]))
                    .collect();
                let prompt_of = |written: &str| if written == "# " { "# " } else { "$ " };
                Some((
                    id,
                    Reply::Entry(
                        Entry {
                            prompt: prompt_of(prompt),
                            line: line.to_string(),
                            at: at.parse().ok()?,
                            output: Output {
                                stdout: stdout.to_string(),
                                stderr: stderr.to_string(),
                                exit_code: exit.parse().ok()?,
                                notes,
                                // What the line did crosses as `edits`.
                                acts: Vec::new(),
                            },
                            reveals: Command::parse(reveals),
                            pods: pods.iter().map(|p| p.to_string()).collect(),
                        },
                        prompt_of(next),
                        edits,
                    ),
                ))
            }
            _ => None,
        }
    }
}

// ------------------------------------------------------------ engine

/// The worker's state: the last text with its run, a session per terminal
/// (the kubectl worker's), the map being filled (the tools worker's).
#[derive(Default)]
pub struct Engine {
    text: Option<Rc<str>>,
    run: Option<Run>,
    sessions: Vec<(u32, Session)>,
    tools: Tools,
}

impl Engine {
    /// Answers a lint or a terminal's line: the in-process engine's
    /// answer (the wasm tests'); on the page each goes to its own worker.
    pub fn answer(&mut self, request: &Request) -> Reply {
        match request.kind {
            // No simulation: the terminal's run stays as it is.
            Ask::Lint => lint_answer(request),
            Ask::Diagnose | Ask::Example | Ask::Map | Ask::MapWrite => self.tools.answer(request),
            Ask::Run | Ask::Complete => self.answer_terminal(request),
        }
    }

    /// A terminal's line or completion (`Ask::Run`, `Ask::Complete`): the
    /// kubectl worker's whole work, without the rules (a lint asked here by
    /// mistake gets `Reply::Lint(None)`, "could not be computed").
    pub fn answer_terminal(&mut self, request: &Request) -> Reply {
        match request.kind {
            Ask::Lint | Ask::Diagnose | Ask::Example | Ask::Map | Ask::MapWrite => {
                return unanswered(request)
            }
            Ask::Run | Ask::Complete => {}
        }
        if self.text.as_deref() != Some(&*request.text) {
            self.run = Some(simulate(&request.text, &Options::default()));
            self.text = Some(request.text.clone());
        }
        let run = self
            .run
            .get_or_insert_with(|| simulate(&request.text, &Options::default()));
        let context = ExecContext::new(&request.text, run);
        let at = self
            .sessions
            .iter()
            .position(|(id, _)| *id == request.terminal);
        let index = match at {
            Some(index) => index,
            None => {
                self.sessions.push((request.terminal, Session::new()));
                self.sessions.len() - 1
            }
        };
        let session = &mut self.sessions[index].1;
        if request.kind == Ask::Complete {
            return Reply::Completion(session.complete(&context, &request.line, request.at));
        }
        let mut entry = session.run(&context, &request.line, request.at);
        let edits = record(&request.text, &mut entry);
        Reply::Entry(entry, session.prompt(), edits)
    }
}

/// The edits that write what `entry`'s line did (its actions, at the
/// line's time) into the text's Scenario (`controls::record`, a Scenario
/// added when there is none): the page applies them, so the timeline
/// shows the consequence, a share link carries it and Undo removes it. A
/// text it cannot write into gets a note instead.
fn record(text: &str, entry: &mut Entry) -> Vec<TextEdit> {
    let mut written = text.to_owned();
    for action in entry.actions() {
        match podlab_core::controls::record(&written, &action) {
            Ok(next) => written = next,
            Err(why) => {
                entry.output.notes.push(Text::new(
                    format!("Not recorded in the text: {}", why.en),
                    format!("沒有記錄到文字裡：{}", why.zh_tw),
                ));
                return Vec::new();
            }
        }
    }
    podlab_core::diagnostic::diff_edits(text, &written)
}

/// The seed article's crash loop (`tests/golden/crash-loop-liveness-40s.yaml`:
/// a 40 s load, a livenessProbe with defaults) as `kubectl describe pod`
/// prints it at 12 minutes, after its prompt line: "From my cluster"'s
/// example, made by the worker so its text is not in the page.
pub fn example() -> String {
    const ARTICLE: &str = include_str!("../../tests/golden/crash-loop-liveness-40s.yaml");
    const AT: Millis = 12 * 60 * 1000;
    let run = simulate(ARTICLE, &Options::default());
    // The renderer itself, not the kubectl command line: the tools worker
    // carries no kubectl parser (docs/size.md "Issue 31").
    let Some(pod) = run.pods.iter().find(|pod| pod.exists_at(AT)) else {
        return String::new();
    };
    let described = podlab_core::explain::describe::describe_pod(&run, pod, AT);
    format!("$ kubectl describe pod {}\n{described}", pod.name)
}

/// The lint worker's answer: the text's findings.
pub fn lint_answer(request: &Request) -> Reply {
    Reply::Lint(Some(Findings::of(&request.text)))
}

/// The tools worker's state: the outcome map being filled.
#[derive(Default)]
pub struct Tools {
    maps: Maps,
}

/// How long the tools worker fills a map before it answers with what it
/// has (and reads the next message: a newer ask cuts in): a text whose
/// cells are slow fills progressively.
const MAP_SLICE_MS: f64 = 150.0;

impl Tools {
    /// The tools worker's answer: "From my cluster"'s paste read and judged
    /// (`podlab_core::paste::diagnose`) or its example, the outcome map of
    /// a text (`mapped::Maps::answer`, filled for at most
    /// [`MAP_SLICE_MS`]), a map cell's values written as edits.
    pub fn answer(&mut self, request: &Request) -> Reply {
        match request.kind {
            Ask::Diagnose => {
                let answer = podlab_core::paste::diagnose(&request.text);
                Reply::Diagnosis(Some(Pasted::of(&answer)))
            }
            Ask::Example => Reply::Example(example()),
            Ask::Map => match MapAsk::decode(&request.line) {
                Some(ask) => {
                    let started = clock_ms();
                    let mapped = self
                        .maps
                        .answer(&request.text, &ask, || clock_ms() - started < MAP_SLICE_MS);
                    Reply::Map(Some(mapped))
                }
                None => unanswered(request),
            },
            Ask::MapWrite => Reply::Written(Some(mapped::write(&request.text, &request.line))),
            Ask::Lint | Ask::Run | Ask::Complete => unanswered(request),
        }
    }
}

/// Milliseconds from an arbitrary start: the worker's time budget (never
/// the core's: a map's cells do not depend on it, only how many come in
/// one answer).
fn clock_ms() -> f64 {
    #[cfg(target_arch = "wasm32")]
    {
        web_sys::js_sys::Date::now()
    }
    #[cfg(not(target_arch = "wasm32"))]
    {
        use std::sync::OnceLock;
        static START: OnceLock<std::time::Instant> = OnceLock::new();
        START
            .get_or_init(std::time::Instant::now)
            .elapsed()
            .as_secs_f64()
            * 1000.0
    }
}

/// A request sent to a worker that does not answer its kind (the lint to
/// the kubectl worker, a line to the tools worker...): "could not be
/// computed", as when the worker cannot load.
fn unanswered(request: &Request) -> Reply {
    match request.kind {
        Ask::Lint => Reply::Lint(None),
        Ask::Diagnose | Ask::Example => Reply::Diagnosis(None),
        Ask::Map => Reply::Map(None),
        Ask::MapWrite => Reply::Written(None),
        Ask::Run | Ask::Complete => failed_line(
            request,
            Output {
                stdout: String::new(),
                stderr: String::new(),
                exit_code: 1,
                notes: Vec::new(),
                acts: Vec::new(),
            },
        ),
    }
}

/// A terminal's line that did not run, with what it printed.
fn failed_line(request: &Request, output: Output) -> Reply {
    Reply::Entry(
        Entry {
            prompt: "$ ",
            line: request.line.clone(),
            at: request.at,
            output,
            reveals: None,
            pods: Vec::new(),
        },
        "$ ",
        Vec::new(),
    )
}

/// An in-process runner over one [`Engine`] (the wasm tests' and any
/// host's): answers at once.
pub fn in_process() -> Runner {
    let engine = Rc::new(RefCell::new(Engine::default()));
    Rc::new(move |request: Request, reply: Box<dyn FnOnce(Reply)>| {
        let answer = engine.borrow_mut().answer(&request);
        reply(answer);
    })
}

// ------------------------------------------------------------ browser

/// The kubectl worker's entry point: a terminal's lines and completions.
#[cfg(target_arch = "wasm32")]
pub fn start() {
    let engine = RefCell::new(Engine::default());
    serve(move |request| engine.borrow_mut().answer_terminal(request));
}

/// The lint worker's entry point: the rules only (docs/size.md "First
/// contact": the diagnostics arrive without the terminal's engine).
#[cfg(target_arch = "wasm32")]
pub fn start_lint() {
    serve(lint_answer);
}

/// The tools worker's entry point: "From my cluster"'s reader, judge and
/// replay (docs/diagnose.md), in neither the terminal's nor the lint's.
#[cfg(target_arch = "wasm32")]
pub fn start_tools() {
    let tools = RefCell::new(Tools::default());
    serve(move |request| tools.borrow_mut().answer(request));
}

/// A worker's loop: answer every message with its reply.
#[cfg(target_arch = "wasm32")]
fn serve(answer: impl Fn(&Request) -> Reply + 'static) {
    use wasm_bindgen::closure::Closure;
    use wasm_bindgen::JsCast;
    use web_sys::{DedicatedWorkerGlobalScope, MessageEvent};

    let scope: DedicatedWorkerGlobalScope = web_sys::js_sys::global().unchecked_into();
    let reply_to = scope.clone();
    let on_message = Closure::<dyn Fn(MessageEvent)>::new(move |event: MessageEvent| {
        let Some(message) = event.data().as_string() else {
            return;
        };
        let Some((id, request)) = Request::decode(&message) else {
            return;
        };
        let reply = answer(&request);
        let _ = reply_to.post_message(&reply.encode(id).into());
    });
    scope.set_onmessage(Some(on_message.as_ref().unchecked_ref()));
    on_message.forget();
    // Messages that arrived while the wasm loaded had no listener: the page
    // holds them until this word.
    let _ = scope.post_message(&READY.into());
}

/// The worker's first message: it listens from now on.
pub const READY: &str = "ready";

#[cfg(not(target_arch = "wasm32"))]
pub fn start() {}

#[cfg(not(target_arch = "wasm32"))]
pub fn start_lint() {}

#[cfg(not(target_arch = "wasm32"))]
pub fn start_tools() {}

thread_local! {
    /// The engine the terminals use instead of the worker (`set_engine`).
    static OVERRIDE: RefCell<Option<Runner>> = const { RefCell::new(None) };
}

/// Makes the page's terminals use `runner` instead of the kubectl worker:
/// the wasm tests give `in_process()`, since Trunk builds no worker for
/// them.
pub fn set_engine(runner: Runner) {
    OVERRIDE.with(|slot| *slot.borrow_mut() = Some(runner));
}

/// The engine a terminal talks to: the kubectl worker on the page.
pub fn runner() -> Runner {
    if let Some(runner) = OVERRIDE.with(|slot| slot.borrow().clone()) {
        return runner;
    }
    worker_runner()
}

/// Lints `text` in the worker (the in-process engine in the wasm tests):
/// `done` gets its findings, or `None` when the worker could not load. The
/// page's first lint starts the worker, as soon as the page is up.
pub fn lint(text: Rc<str>, done: impl FnOnce(Option<Findings>) + 'static) {
    runner()(
        request_of(Ask::Lint, text),
        Box::new(move |reply| match reply {
            Reply::Lint(findings) => done(findings),
            _ => done(None),
        }),
    );
}

/// Reads `paste` in the kubectl worker ("From my cluster"): `done` gets
/// its answer, or `None` when the worker could not load.
pub fn diagnose(paste: Rc<str>, done: impl FnOnce(Option<Pasted>) + 'static) {
    runner()(
        request_of(Ask::Diagnose, paste),
        Box::new(move |reply| match reply {
            Reply::Diagnosis(pasted) => done(pasted),
            _ => done(None),
        }),
    );
}

/// The outcome map of `text` (`ask`), from the tools worker: `done` gets
/// it, or `None` when the worker could not load.
pub fn map(text: Rc<str>, ask: &MapAsk, done: impl FnOnce(Option<Mapped>) + 'static) {
    let mut request = request_of(Ask::Map, text);
    request.line = ask.encode();
    runner()(
        request,
        Box::new(move |reply| match reply {
            Reply::Map(mapped) => done(mapped),
            _ => done(None),
        }),
    );
}

/// The edits that write a map cell's values into `text` (`line`:
/// `mapped::pick_line`), from the tools worker: `done` gets them or why
/// not, `None` when the worker could not load.
pub fn write_map(
    text: Rc<str>,
    line: String,
    done: impl FnOnce(Option<Result<Vec<TextEdit>, Text>>) + 'static,
) {
    let mut request = request_of(Ask::MapWrite, text);
    request.line = line;
    runner()(
        request,
        Box::new(move |reply| match reply {
            Reply::Written(written) => done(written),
            _ => done(None),
        }),
    );
}

/// "From my cluster"'s example, from the tools worker (`None` when it
/// could not load).
pub fn fetch_example(done: impl FnOnce(Option<String>) + 'static) {
    runner()(
        request_of(Ask::Example, Rc::from("")),
        Box::new(move |reply| match reply {
            Reply::Example(text) => done(Some(text)),
            _ => done(None),
        }),
    );
}

fn request_of(kind: Ask, text: Rc<str>) -> Request {
    Request {
        terminal: 0,
        kind,
        at: 0,
        line: String::new(),
        text,
    }
}

/// The page's side: the worker, started at the first request, and the
/// replies still awaited.
#[cfg(target_arch = "wasm32")]
fn worker_runner() -> Runner {
    Rc::new(|request: Request, reply: Box<dyn FnOnce(Reply)>| ask(request, reply))
}

#[cfg(not(target_arch = "wasm32"))]
fn worker_runner() -> Runner {
    in_process()
}

#[cfg(target_arch = "wasm32")]
type Waiting = Vec<(u32, Request, Box<dyn FnOnce(Reply)>)>;

/// The worker, the last id given, and the messages held until it is ready
/// (`None` once sent).
#[cfg(target_arch = "wasm32")]
type Started = (web_sys::Worker, u32, Option<Vec<String>>);

// The page's three workers: the lint worker (index 0), started by the
// first lint, the kubectl worker (index 1), started when a terminal mounts,
// and the tools worker (index 2), started when "From my cluster" or the outcome
// map opens.
#[cfg(target_arch = "wasm32")]
thread_local! {
    static WORKER: [RefCell<Option<Started>>; 3] =
        const { [RefCell::new(None), RefCell::new(None), RefCell::new(None)] };
    static WAITING: [RefCell<Waiting>; 3] =
        const { [RefCell::new(Vec::new()), RefCell::new(Vec::new()), RefCell::new(Vec::new())] };
}

/// Which worker answers a request: 0 the lint worker, 1 the kubectl
/// worker, 2 the tools worker.
#[cfg(target_arch = "wasm32")]
fn worker_of(kind: Ask) -> usize {
    match kind {
        Ask::Lint => 0,
        Ask::Run | Ask::Complete => 1,
        Ask::Diagnose | Ask::Example | Ask::Map | Ask::MapWrite => 2,
    }
}

/// A new terminal's id (its session in the engine).
pub fn next_terminal() -> u32 {
    thread_local! {
        static NEXT: std::cell::Cell<u32> = const { std::cell::Cell::new(0) };
    }
    NEXT.with(|next| {
        next.set(next.get().wrapping_add(1));
        next.get()
    })
}

/// The scripts Trunk writes for the workers (index.html's `data-bin`), by
/// `worker_of`.
pub const WORKER_SCRIPTS: [&str; 3] = [
    "./lint-worker_loader.js",
    "./kubectl-worker_loader.js",
    "./tools-worker_loader.js",
];

/// Starts the kubectl worker ahead of a terminal's first line (the
/// terminal mounted: the reader asked for it), so its engine is in by the
/// time a line is typed, and later offline too.
pub fn warm_terminal() {
    warm(1);
}

/// Starts the tools worker as "From my cluster" or the outcome map opens,
/// so its engine is in by the time something is pasted or mapped.
pub fn warm_tools() {
    warm(2);
}

fn warm(_which: usize) {
    #[cfg(target_arch = "wasm32")]
    if OVERRIDE.with(|slot| slot.borrow().is_none()) {
        WORKER.with(|workers| {
            let mut worker = workers[_which].borrow_mut();
            if worker.is_none() {
                *worker = spawn(_which);
            }
        });
    }
}

#[cfg(target_arch = "wasm32")]
fn ask(request: Request, reply: Box<dyn FnOnce(Reply)>) {
    let which = worker_of(request.kind);
    let sent = WORKER.with(|workers| {
        let mut worker = workers[which].borrow_mut();
        if worker.is_none() {
            *worker = spawn(which);
        }
        let (spawned, next, held) = worker.as_mut()?;
        *next = next.wrapping_add(1);
        let message = request.encode(*next);
        match held {
            Some(held) => held.push(message),
            None => {
                let _ = spawned.post_message(&message.into());
            }
        }
        Some(*next)
    });
    match sent {
        Some(id) => WAITING.with(|waiting| waiting[which].borrow_mut().push((id, request, reply))),
        None => reply(unavailable(&request)),
    }
}

#[cfg(target_arch = "wasm32")]
fn spawn(which: usize) -> Option<Started> {
    use wasm_bindgen::closure::Closure;
    use wasm_bindgen::JsCast;
    use web_sys::MessageEvent;

    let spawned = web_sys::Worker::new(WORKER_SCRIPTS.get(which)?).ok()?;
    let on_message = Closure::<dyn Fn(MessageEvent)>::new(move |event: MessageEvent| {
        let Some(message) = event.data().as_string() else {
            return;
        };
        if message == READY {
            flush(which);
            return;
        }
        let Some((id, answer)) = Reply::decode(&message) else {
            return;
        };
        let waiting = WAITING.with(|waiting| {
            let mut waiting = waiting[which].borrow_mut();
            let at = waiting.iter().position(|(known, _, _)| *known == id)?;
            Some(waiting.remove(at).2)
        });
        if let Some(reply) = waiting {
            reply(answer);
        }
    });
    spawned.set_onmessage(Some(on_message.as_ref().unchecked_ref()));
    on_message.forget();
    // The worker's script or wasm did not load (offline before it was
    // fetched, a broken deployment): every line waiting gets a note, and the
    // next line tries again.
    let on_error = Closure::<dyn Fn(web_sys::Event)>::new(move |_: web_sys::Event| {
        WORKER.with(|workers| workers[which].borrow_mut().take());
        let waiting = WAITING.with(|waiting| std::mem::take(&mut *waiting[which].borrow_mut()));
        for (_, request, reply) in waiting {
            reply(unavailable(&request));
        }
    });
    spawned.set_onerror(Some(on_error.as_ref().unchecked_ref()));
    on_error.forget();
    Some((spawned, 0, Some(Vec::new())))
}

/// The answer to a line (or a lint) when the engine cannot run.
#[cfg(target_arch = "wasm32")]
fn unavailable(request: &Request) -> Reply {
    if request.kind != Ask::Run && request.kind != Ask::Complete {
        return unanswered(request);
    }
    failed_line(request, failed())
}

#[cfg(target_arch = "wasm32")]
fn failed() -> Output {
    Output {
        stdout: String::new(),
        stderr: String::new(),
        exit_code: 1,
        notes: vec![Text::new(
            "the terminal's engine (kubectl-worker) could not load: reload the page while online",
            "終端機的引擎（kubectl-worker）載入失敗：請在連線時重新載入頁面",
        )],
        acts: Vec::new(),
    }
}

/// Sends what was held while the worker loaded.
#[cfg(target_arch = "wasm32")]
fn flush(which: usize) {
    WORKER.with(|workers| {
        if let Some((spawned, _, held)) = workers[which].borrow_mut().as_mut() {
            for message in held.take().unwrap_or_default() {
                let _ = spawned.post_message(&message.into());
            }
        }
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    const FILE: &str = include_str!("../../tests/golden/crash-loop-liveness-40s.yaml");

    /// A line that acts (issue 33) comes back with the edits that record
    /// it in the text's Scenario; they cross the boundary, and the text
    /// they write runs the action (the deleted pod replaced, from RESTARTS
    /// 0: deleting does not fix a crash loop).
    #[test]
    fn a_delete_pod_in_the_terminal_comes_back_with_its_recording_edits() {
        let mut engine = Engine::default();
        let line = |engine: &mut Engine, line: &str| {
            engine.answer(&Request {
                terminal: 1,
                kind: Ask::Run,
                at: 720_000,
                line: line.into(),
                text: Rc::from(FILE),
            })
        };
        let Reply::Entry(listed, _, edits) = line(&mut engine, "kubectl get pods -o name") else {
            panic!("an entry");
        };
        assert!(edits.is_empty(), "a read records nothing");
        let pod = listed
            .output
            .stdout
            .trim()
            .strip_prefix("pod/")
            .expect("pod/NAME")
            .to_owned();
        let reply = line(&mut engine, &format!("kubectl delete pod {pod}"));
        let Reply::Entry(entry, _, edits) = &reply else {
            panic!("an entry");
        };
        assert_eq!(
            entry.output.stdout,
            format!("pod \"{pod}\" deleted from default namespace\n")
        );
        // The edits cross unchanged (the acts themselves stay in the worker).
        let (_, back) = Reply::decode(&reply.encode(3)).expect("a reply");
        let Reply::Entry(crossed, _, crossed_edits) = back else {
            panic!("an entry");
        };
        assert_eq!(
            (&crossed.output.stdout, &crossed_edits),
            (&entry.output.stdout, edits)
        );
        let written = podlab_core::diagnostic::apply_edits(FILE, edits);
        assert!(written.contains(&format!("pod: {pod}")), "{written}");
        let run = simulate(&written, &Options::default());
        let replacement = run
            .pods
            .iter()
            .find(|p| p.name != pod && p.name.starts_with("model-api-"))
            .expect("the ReplicaSet's replacement");
        assert!(replacement.created >= 720_000, "{}", replacement.created);
    }

    #[test]
    fn fields_round_trip_whatever_they_hold() {
        let fields = ["", "a:b", "12:x", "中文", "\n\u{1f}"];
        let encoded = encode(&fields);
        assert_eq!(decode(&encoded), Some(fields.to_vec()));
        assert_eq!(decode("3:ab"), None);
        assert_eq!(decode("x:ab"), None);
        assert_eq!(decode(""), Some(Vec::new()));
    }

    #[test]
    fn a_request_and_the_engines_reply_cross_the_boundary_unchanged() {
        let request = Request {
            terminal: 7,
            kind: Ask::Run,
            at: 720_000,
            line: "kubectl get pods".into(),
            text: Rc::from(FILE),
        };
        let (id, decoded) = Request::decode(&request.encode(42)).expect("a request");
        assert_eq!((id, &decoded), (42, &request));

        let mut engine = Engine::default();
        let reply = engine.answer(&decoded);
        let Reply::Entry(entry, "$ ", _) = &reply else {
            panic!("an entry");
        };
        assert!(
            entry.output.stdout.contains("CrashLoopBackOff"),
            "{}",
            entry.output.stdout
        );
        let (id, back) = Reply::decode(&reply.encode(42)).expect("a reply");
        assert_eq!(id, 42);
        assert!(back == reply);

        // A note, an exit status and the shell's prompt survive too.
        let pod = entry
            .output
            .stdout
            .lines()
            .nth(1)
            .and_then(|l| l.split(' ').next())
            .expect("a pod");
        let shell = Request {
            line: format!("kubectl logs {pod} --previous --tail=x"),
            ..request.clone()
        };
        let reply = engine.answer(&shell);
        let (_, back) = Reply::decode(&reply.encode(1)).expect("a reply");
        assert!(back == reply);
        let complete = Request {
            kind: Ask::Complete,
            line: "kubectl describe pod m".into(),
            ..request
        };
        let reply = engine.answer(&complete);
        let Reply::Completion(completion) = &reply else {
            panic!("a completion");
        };
        assert_eq!(completion.candidates, [pod]);
        let (_, back) = Reply::decode(&reply.encode(2)).expect("a reply");
        assert!(back == reply);
    }

    #[test]
    fn the_example_paste_is_diagnosed_and_the_answer_crosses_the_boundary_unchanged() {
        let mut engine = Engine::default();
        let example = Request {
            terminal: 0,
            kind: Ask::Example,
            at: 0,
            line: String::new(),
            text: Rc::from(""),
        };
        let (_, decoded) = Request::decode(&example.encode(5)).expect("a request");
        let Reply::Example(paste) = engine.answer(&decoded) else {
            panic!("the example");
        };
        assert!(
            paste.starts_with("$ kubectl describe pod model-api-"),
            "{paste}"
        );
        // What podlab's kubectl prints for that line, byte for byte.
        let (prompt, described) = paste.split_once('\n').expect("a prompt line");
        let article = simulate(FILE, &Options::default());
        let context = ExecContext::new(FILE, &article);
        let line = prompt.trim_start_matches("$ ");
        assert_eq!(
            podlab_core::kubectl::run(&context, line, 12 * 60 * 1000).stdout,
            described
        );
        assert!(
            paste.contains("Back-off restarting failed container"),
            "{paste}"
        );
        let (_, back) = Reply::decode(&Reply::Example(paste.clone()).encode(5)).expect("a reply");
        assert!(back == Reply::Example(paste.clone()));

        let request = Request {
            kind: Ask::Diagnose,
            text: Rc::from(paste.as_str()),
            ..example
        };
        let (id, decoded) = Request::decode(&request.encode(6)).expect("a request");
        assert_eq!((id, &decoded), (6, &request));
        let reply = engine.answer(&decoded);
        let Reply::Diagnosis(Some(answer)) = &reply else {
            panic!("an answer");
        };
        // The seed's crash loop (issue 31's "Done when"), as the CLI answers it.
        assert_eq!(answer.kind, "liveness-kills-slow-start");
        let quoted = |wanted: &str| {
            answer.evidence.iter().any(|line| {
                paste
                    .lines()
                    .nth(line - 1)
                    .is_some_and(|pasted| pasted.contains(wanted))
            })
        };
        assert!(quoted("Liveness probe failed") && quoted("Back-off restarting failed container"));
        for (markup, words) in [
            (
                &answer.markup.en,
                [
                    "startupProbe",
                    "Open the replay in the playground at 12m",
                    "CrashLoopBackOff",
                ],
            ),
            (
                &answer.markup.zh_tw,
                ["startupProbe", "在練習場打開重播（12m）", "診斷"],
            ),
        ] {
            for word in words {
                assert!(markup.contains(word), "{word} in {markup}");
            }
            assert!(markup.contains("href=\"./?at=12m&amp;lang="), "{markup}");
            // One button per evidence line, carrying its number.
            for line in &answer.evidence {
                assert!(
                    markup.contains(&format!("data-line=\"{line}\"")),
                    "{markup}"
                );
            }
        }
        let (_, back) = Reply::decode(&reply.encode(6)).expect("a reply");
        assert!(back == reply);
        // A field too many, or a broken flag, is refused.
        let mut extra = reply.encode(6);
        extra.push_str("0:");
        assert!(Reply::decode(&extra).is_none());
        // Nothing pasted reads as unknown, and crosses too.
        let empty = engine.answer(&Request {
            text: Rc::from(""),
            ..request
        });
        let Reply::Diagnosis(Some(unknown)) = &empty else {
            panic!("an answer");
        };
        assert_eq!(unknown.kind, "unknown");
        assert!(unknown.evidence.is_empty() && !unknown.markup.en.contains("open-replay"));
        assert!(Reply::decode(&empty.encode(7)).is_some_and(|(_, back)| back == empty));
        let failed = Reply::Diagnosis(None);
        assert!(Reply::decode(&failed.encode(8)).is_some_and(|(_, back)| back == failed));
    }

    #[test]
    fn what_the_paste_holds_is_escaped_in_the_answers_markup() {
        let paste = "Name: <img src=x onerror=alert(1)>\n  Warning  Failed  1m  kubelet  Error: secret \"a&b<script>\" not found\n";
        let Reply::Diagnosis(Some(answer)) = Tools::default().answer(&Request {
            terminal: 0,
            kind: Ask::Diagnose,
            at: 0,
            line: String::new(),
            text: Rc::from(paste),
        }) else {
            panic!("an answer");
        };
        for markup in [&answer.markup.en, &answer.markup.zh_tw] {
            assert!(
                !markup.contains("<img") && !markup.contains("<script"),
                "{markup}"
            );
            assert!(
                markup.contains("&lt;img") || markup.contains("&lt;script"),
                "{markup}"
            );
        }
    }

    #[test]
    fn a_lint_request_gets_the_texts_findings_back_unchanged() {
        let request = Request {
            terminal: 0,
            kind: Ask::Lint,
            at: 0,
            line: String::new(),
            text: Rc::from(FILE),
        };
        let (id, decoded) = Request::decode(&request.encode(9)).expect("a request");
        assert_eq!((id, &decoded), (9, &request));
        let mut engine = Engine::default();
        let reply = engine.answer(&decoded);
        let Reply::Lint(Some(findings)) = &reply else {
            panic!("findings");
        };
        assert_eq!(findings, &Findings::of(FILE));
        assert!(findings.diagnostics.iter().any(|d| d.rule == "PL201"));
        let (id, back) = Reply::decode(&reply.encode(9)).expect("a reply");
        assert_eq!(id, 9);
        assert!(back == reply);
        // The page's note when the worker cannot load.
        let failed = Reply::Lint(None);
        assert!(Reply::decode(&failed.encode(3)).is_some_and(|(_, back)| back == failed));
        // Linting simulates nothing: the terminal's run is untouched.
        assert!(engine.run.is_none());
        // A lint reply with a field too many is refused.
        let mut extra = reply.encode(9);
        extra.push_str("0:");
        assert!(Reply::decode(&extra).is_none());
    }
}
