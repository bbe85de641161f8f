//! The kubectl terminal (issue 17 items 3-5): type kubectl's own commands
//! against the simulated cluster at `at`, as `podlab kubectl` runs them
//! (`podlab_core::kubectl::session`, in the kubectl worker:
//! `crate::kubectl_worker`). History with ↑/↓, Tab completion of
//! commands, types and the names that exist then, Ctrl+L clears, the
//! output in a live region, and the completions as buttons above the
//! keyboard on a phone.

use std::rc::Rc;

use podlab_core::diagnostic::TextEdit;
use podlab_core::exercise::exec::ExecContext;
use podlab_core::i18n::{Lang, Text};
use podlab_core::kubectl::session::{self, Entry};
use podlab_core::manifest::duration::Millis;
use podlab_core::sim::Run;
use web_sys::{HtmlElement, HtmlInputElement};
use yew::prelude::*;

use crate::i18n;
use crate::i18n::TextHtml;
use crate::kubectl_worker::{next_terminal, runner, Ask, Reply, Request, Runner};
use crate::view_model;

/// At most this many completions show as buttons.
const SHOWN_COMPLETIONS: usize = 12;

#[derive(Properties)]
pub struct TerminalProps {
    /// The file the commands run against (simulated again in the worker:
    /// the same pure function, the same run).
    pub text: Rc<str>,
    /// The page's run of `text`: Tab completes from it at once (the names
    /// that exist at `at`).
    pub run: Rc<Run>,
    /// The simulated time the next line runs at.
    pub at: Millis,
    pub lang: Lang,
    /// A line to run once mounted (`&cmd=`).
    #[prop_or_default]
    pub initial: Option<String>,
    /// Told of every line run (interview mode scores them).
    #[prop_or_default]
    pub on_entry: Option<Callback<Entry>>,
    /// Given the edits that record what a typed line did to the cluster
    /// (`delete pod`, `drain`, …) in the text's Scenario; `None`: the line
    /// acts on the run the terminal shows only (interview mode).
    #[prop_or_default]
    pub on_edits: Option<Callback<Vec<TextEdit>>>,
}

impl PartialEq for TerminalProps {
    fn eq(&self, other: &Self) -> bool {
        Rc::ptr_eq(&self.text, &other.text)
            && Rc::ptr_eq(&self.run, &other.run)
            && self.at == other.at
            && self.lang == other.lang
            && self.initial == other.initial
            && self.on_entry == other.on_entry
            && self.on_edits == other.on_edits
    }
}

/// What the terminal keeps between renders.
#[derive(Clone, Default, PartialEq)]
struct Screen {
    entries: Vec<Entry>,
    /// The next line's prompt (`# ` inside a container's shell).
    prompt: &'static str,
    /// Lines run, oldest first, and the one ↑/↓ shows (`None`: the input).
    history: Vec<String>,
    recalled: Option<usize>,
}

impl Screen {
    fn ran(&mut self, entry: &Entry, next: &'static str) {
        self.entries.push(entry.clone());
        self.prompt = next;
        if !entry.line.trim().is_empty()
            && self.history.last().map(String::as_str) != Some(entry.line.as_str())
        {
            self.history.push(entry.line.clone());
        }
        self.recalled = None;
    }
}

/// The longest prefix all `words` share.
fn common_prefix(words: &[String]) -> &str {
    let Some(first) = words.first() else {
        return "";
    };
    let mut end = first.len();
    for word in &words[1..] {
        end = first
            .char_indices()
            .zip(word.chars())
            .take_while(|((_, a), b)| a == b)
            .map(|((at, a), _)| at + a.len_utf8())
            .last()
            .unwrap_or(0)
            .min(end);
    }
    &first[..end]
}

/// `line` with its word from `from` replaced by `word` (and a blank after
/// it when it is complete).
fn with_word(line: &str, from: usize, word: &str, complete: bool) -> String {
    let head = line.get(..from).unwrap_or(line);
    format!("{head}{word}{}", if complete { " " } else { "" })
}

#[component]
pub fn Terminal(props: &TerminalProps) -> Html {
    let lang = props.lang;
    let screen = use_mut_ref(|| Screen {
        prompt: "$ ",
        ..Screen::default()
    });
    let terminal = *use_state(next_terminal);
    let runner: Runner = runner();
    let input = use_state(String::new);
    let redraw = use_state(|| 0_u32);
    let input_ref = use_node_ref();
    let log_ref = use_node_ref();
    let bump = {
        let redraw = redraw.clone();
        Rc::new(move || redraw.set(redraw.wrapping_add(1)))
    };
    // Runs a line in the engine; the entry lands on the screen when the
    // answer comes back.
    let run_line = {
        let (screen, runner, bump) = (screen.clone(), runner.clone(), bump.clone());
        let (text, at, on_entry) = (props.text.clone(), props.at, props.on_entry.clone());
        let on_edits = props.on_edits.clone();
        Rc::new(move |line: String, reveal: bool, log: NodeRef| {
            let (screen, bump, on_entry) = (screen.clone(), bump.clone(), on_entry.clone());
            let on_edits = on_edits.clone();
            let request = Request {
                terminal,
                kind: Ask::Run,
                at,
                line,
                text: text.clone(),
            };
            runner(
                request,
                Box::new(move |reply| {
                    if let Reply::Entry(entry, next, edits) = reply {
                        screen.borrow_mut().ran(&entry, next);
                        if let Some(on_entry) = on_entry {
                            on_entry.emit(entry);
                        }
                        // A typed line that acted is recorded in the text
                        // (a link's `&cmd=` line is not: the link's text
                        // holds what it recorded).
                        if let (false, false, Some(on_edits)) = (reveal, edits.is_empty(), on_edits)
                        {
                            on_edits.emit(edits);
                        }
                        bump();
                        // The reader followed a link to this output: show it.
                        if let (true, Some(log)) = (reveal, log.cast::<web_sys::Element>()) {
                            log.scroll_into_view();
                        }
                    }
                }),
            );
        })
    };
    {
        // `&cmd=`: run the article's line once, at the page's time.
        let (run_line, log_ref) = (run_line.clone(), log_ref.clone());
        use_effect_with(props.initial.clone(), move |initial| {
            if let Some(line) = initial.as_deref().filter(|line| !line.trim().is_empty()) {
                run_line(line.to_string(), true, log_ref);
            }
        });
    }
    // The engine's worker starts when the terminal is first shown
    // (`KubectlPanes`) or at its first line, and serves offline after that.
    {
        // Keep the newest output in view.
        let log_ref = log_ref.clone();
        use_effect_with(*redraw, move |_| {
            if let Some(log) = log_ref.cast::<HtmlElement>() {
                log.set_scroll_top(log.scroll_height());
            }
        });
    }
    // What Tab and the completion bar offer for the typed line, at once
    // from the page's run (reading the text costs a parse: only while a
    // line is typed, not on every tick of the cursor).
    let complete = {
        let (text, run, at, screen) = (
            props.text.clone(),
            props.run.clone(),
            props.at,
            screen.clone(),
        );
        Rc::new(move |line: &str| {
            let context = ExecContext::new(&text, &run);
            session::complete(&context, line, at, screen.borrow().prompt == "# ")
        })
    };
    let completion = (!input.is_empty()).then(|| complete(&input));
    let prompt = screen.borrow().prompt;

    let on_input = {
        let input = input.clone();
        Callback::from(move |event: InputEvent| {
            let field: HtmlInputElement = event.target_unchecked_into();
            input.set(field.value());
        })
    };
    // Esc, then Tab, leaves the terminal, as in the editor (the hint
    // under the line says so); Tab on an empty line moves on too.
    let escaped = use_mut_ref(|| false);
    let on_keydown = {
        let (screen, input, bump) = (screen.clone(), input.clone(), bump.clone());
        let (run_line, complete, log_ref) = (run_line.clone(), complete.clone(), log_ref.clone());
        Callback::from(move |event: KeyboardEvent| {
            let field: HtmlInputElement = event.target_unchecked_into();
            let line = field.value();
            let key = event.key();
            let was_escaped = match key.as_str() {
                "Escape" => {
                    *escaped.borrow_mut() = true;
                    return;
                }
                "Shift" => *escaped.borrow(),
                _ => escaped.replace(false),
            };
            match key.as_str() {
                "Tab" if was_escaped || line.trim().is_empty() => {}
                "Enter" => {
                    event.prevent_default();
                    input.set(String::new());
                    field.set_value("");
                    run_line(line, false, log_ref.clone());
                }
                "Tab" if !event.shift_key() => {
                    event.prevent_default();
                    let offer = complete(&line);
                    let next = match offer.candidates.as_slice() {
                        [] => return,
                        [only] => with_word(&line, offer.from, only, true),
                        many => with_word(&line, offer.from, common_prefix(many), false),
                    };
                    field.set_value(&next);
                    input.set(next);
                }
                "ArrowUp" | "ArrowDown" => {
                    event.prevent_default();
                    let mut screen = screen.borrow_mut();
                    let last = screen.history.len();
                    let recalled = match (event.key().as_str(), screen.recalled) {
                        ("ArrowUp", None) => last.checked_sub(1),
                        ("ArrowUp", Some(at)) => Some(at.saturating_sub(1)),
                        (_, Some(at)) if at + 1 < last => Some(at + 1),
                        _ => None,
                    };
                    screen.recalled = recalled;
                    let shown = recalled
                        .and_then(|at| screen.history.get(at).cloned())
                        .unwrap_or_default();
                    field.set_value(&shown);
                    input.set(shown);
                }
                "l" | "L" if event.ctrl_key() => {
                    event.prevent_default();
                    screen.borrow_mut().entries.clear();
                    bump();
                }
                _ => {}
            }
        })
    };
    let choose = |from: usize, candidate: String| {
        let (input, input_ref) = (input.clone(), input_ref.clone());
        Callback::from(move |_: MouseEvent| {
            if let Some(field) = input_ref.cast::<HtmlInputElement>() {
                let next = with_word(&field.value(), from, &candidate, true);
                field.set_value(&next);
                let _ = field.focus();
                input.set(next);
            }
        })
    };
    let clock = view_model::clock(props.at);
    let screen = screen.borrow();
    html! {
        <section class="term" data-testid="terminal" aria-label={i18n::terminal_label().get(lang).to_owned()}>
            <div class="term-log" ref={log_ref} role="log" aria-live="polite" data-testid="terminal-log">
                if screen.entries.is_empty() {
                    <p class="term-hint">{ i18n::terminal_hint(&clock).html(lang) }</p>
                }
                { for screen.entries.iter().enumerate().map(|(index, entry)| entry_html(index, entry, lang)) }
            </div>
            <div class="term-in">
                <span class="term-at" title={i18n::terminal_time().get(lang).to_owned()}>{ clock.clone() }</span>
                <label class="prompt" for="term-input">{ prompt }</label>
                <input
                    id="term-input"
                    ref={input_ref.clone()}
                    data-testid="terminal-input"
                    type="text"
                    value={(*input).clone()}
                    autocomplete="off"
                    autocapitalize="off"
                    spellcheck="false"
                    enterkeyhint="send"
                    aria-label={i18n::terminal_input().get(lang).to_owned()}
                    aria-describedby="term-keys"
                    placeholder={if prompt == "# " { "env" } else { "kubectl get pods" }}
                    oninput={on_input}
                    onkeydown={on_keydown}
                />
            </div>
            <p class="term-keys" id="term-keys" data-testid="terminal-keys">{ i18n::terminal_keys().html(lang) }</p>
            if let Some(completion) = completion.filter(|c| !c.candidates.is_empty()) {
                <div class="term-complete" role="group" data-testid="terminal-completions"
                    aria-label={i18n::terminal_completions().get(lang).to_owned()}>
                    { for completion.candidates.iter().take(SHOWN_COMPLETIONS).map(|candidate| html! {
                        <button type="button" onclick={choose(completion.from, candidate.clone())}>{ candidate.clone() }</button>
                    }) }
                </div>
            }
        </section>
    }
}

/// One line and what it printed: the prompt, stdout and stderr as a
/// terminal interleaves them, then podlab's notes (not kubectl's words).
fn entry_html(index: usize, entry: &Entry, lang: Lang) -> Html {
    let output = &entry.output;
    html! {
        <div class="term-entry" data-testid={format!("terminal-entry-{index}")}>
            <pre><span class="prompt">{ entry.prompt }{ entry.line.clone() }{ "\n" }</span>{ output.stdout.clone() }<span class="stderr">{ output.stderr.clone() }</span></pre>
            { for output.notes.iter().map(|note: &Text| html! { <p class="term-note">{ note.html(lang) }</p> }) }
        </div>
    }
}
