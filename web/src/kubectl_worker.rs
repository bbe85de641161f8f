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

use podlab_core::exercise::exec::ExecContext;
use podlab_core::exercise::interview::Command;
use podlab_core::i18n::Text;
use podlab_core::kubectl::session::{Completion, Entry, Session};
use podlab_core::kubectl::Output;
use podlab_core::manifest::duration::Millis;
use podlab_core::sim::{simulate, Options, Run};

use crate::findings::Findings;

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
}

/// The engine's answer: a line's entry, the completions of a line, or the
/// lint of a text.
#[derive(Clone, PartialEq, Eq)]
pub enum Reply {
    /// The line's entry, and the prompt of the next line (`# ` in a shell).
    Entry(Entry, &'static str),
    Completion(Completion),
    /// The text's findings; `None` when the worker could not load (never
    /// sent by the worker itself).
    Lint(Option<Findings>),
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

impl Request {
    pub fn encode(&self, id: u32) -> String {
        let kind = match self.kind {
            Ask::Run => "run",
            Ask::Complete => "complete",
            Ask::Lint => "lint",
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
            Reply::Completion(completion) => {
                let from = completion.from.to_string();
                let mut fields = vec![id.as_str(), "completion", from.as_str()];
                fields.extend(completion.candidates.iter().map(String::as_str));
                encode(&fields)
            }
            Reply::Entry(entry, next) => {
                let at = entry.at.to_string();
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
            ["completion", from, candidates @ ..] => Some((
                id,
                Reply::Completion(Completion {
                    from: from.parse().ok()?,
                    candidates: candidates.iter().map(|c| c.to_string()).collect(),
                }),
            )),
            ["entry", next, prompt, line, at, stdout, stderr, exit, reveals, notes, rest @ ..] => {
                let notes: usize = notes.parse().ok()?;
                let (texts, pods) = rest.split_at_checked(notes.checked_mul(2)?)?;
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
                            },
                            reveals: Command::parse(reveals),
                            pods: pods.iter().map(|p| p.to_string()).collect(),
                        },
                        prompt_of(next),
                    ),
                ))
            }
            _ => None,
        }
    }
}

// ------------------------------------------------------------ engine

/// The worker's state: the last text with its run, a session per terminal.
#[derive(Default)]
pub struct Engine {
    text: Option<Rc<str>>,
    run: Option<Run>,
    sessions: Vec<(u32, Session)>,
}

impl Engine {
    /// Answers a lint or a terminal's line: the in-process engine's
    /// answer (the wasm tests'); on the page each goes to its own worker.
    pub fn answer(&mut self, request: &Request) -> Reply {
        if request.kind == Ask::Lint {
            // No simulation: the terminal's run stays as it is.
            return lint_answer(request);
        }
        self.answer_terminal(request)
    }

    /// A terminal's line or completion (`Ask::Run`, `Ask::Complete`): the
    /// kubectl worker's whole work, without the rules (a lint asked here by
    /// mistake gets `Reply::Lint(None)`, "could not be computed").
    pub fn answer_terminal(&mut self, request: &Request) -> Reply {
        if request.kind == Ask::Lint {
            return Reply::Lint(None);
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
        let entry = session.run(&context, &request.line, request.at);
        Reply::Entry(entry, session.prompt())
    }
}

/// The lint worker's answer: the text's findings.
pub fn lint_answer(request: &Request) -> Reply {
    Reply::Lint(Some(Findings::of(&request.text)))
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
    let request = Request {
        terminal: 0,
        kind: Ask::Lint,
        at: 0,
        line: String::new(),
        text,
    };
    runner()(
        request,
        Box::new(move |reply| match reply {
            Reply::Lint(findings) => done(findings),
            _ => done(None),
        }),
    );
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

// The page's two workers: the lint worker (index 0), started by the first
// lint, and the kubectl worker (index 1), started when a terminal mounts.
#[cfg(target_arch = "wasm32")]
thread_local! {
    static WORKER: [RefCell<Option<Started>>; 2] = const { [RefCell::new(None), RefCell::new(None)] };
    static WAITING: [RefCell<Waiting>; 2] = const { [RefCell::new(Vec::new()), RefCell::new(Vec::new())] };
}

/// Which worker answers a request: 0 the lint worker, 1 the kubectl worker.
#[cfg(target_arch = "wasm32")]
fn worker_of(kind: Ask) -> usize {
    usize::from(kind != Ask::Lint)
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
pub const WORKER_SCRIPTS: [&str; 2] = ["./lint-worker_loader.js", "./kubectl-worker_loader.js"];

/// Starts the kubectl worker ahead of a terminal's first line (the
/// terminal mounted: the reader asked for it), so its engine is in by the
/// time a line is typed, and later offline too.
pub fn warm_terminal() {
    #[cfg(target_arch = "wasm32")]
    if OVERRIDE.with(|slot| slot.borrow().is_none()) {
        WORKER.with(|workers| {
            let mut worker = workers[1].borrow_mut();
            if worker.is_none() {
                *worker = spawn(1);
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
    if request.kind == Ask::Lint {
        return Reply::Lint(None);
    }
    Reply::Entry(
        Entry {
            prompt: "$ ",
            line: request.line.clone(),
            at: request.at,
            output: failed(),
            reveals: None,
            pods: Vec::new(),
        },
        "$ ",
    )
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
        let Reply::Entry(entry, "$ ") = &reply else {
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
