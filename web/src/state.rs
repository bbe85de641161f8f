//! The page's state: the YAML text (the source of truth), the last reading
//! and simulation of it, the worker's lint of that text, and the language.
//! One reducer; `reduce` is pure and returns `self` for a no-op so Yew
//! skips the render.
//!
//! The page reads and simulates a text itself (`Linted`, the timeline at
//! once); the rules run in the kubectl worker (`kubectl_worker::lint`), and
//! their findings come back as [`Action::Diagnosed`], accepted only for the
//! text simulated last ([`Diagnosed`]).
//!
//! The playback of the simulation (cursor, play/pause, speed, selected pod)
//! is a second, smaller reducer, [`Playback`], owned by the simulation
//! section: moving the cursor re-renders only what depends on it, and never
//! simulates again.

use std::cell::RefCell;
use std::rc::Rc;

use podlab_core::controls::{self, Change, Values};
use podlab_core::diagnostic::{apply_edits, TextEdit};
use podlab_core::explain::timeline::{timeline, Timeline};
use podlab_core::i18n::Lang;
use podlab_core::i18n::Text;
use podlab_core::lint::read;
use podlab_core::manifest::duration::Millis;
use podlab_core::manifest::model::WorkloadKind;
use podlab_core::manifest::read::Reading;
use podlab_core::sim::{has_heavy_part, simulate_pods, Options, Passes, Run};
use podlab_core::span::Span;
use yew::Reducible;

use crate::findings::Findings;

/// The editor's first content: the reference Deployment of issue 2 and a
/// Scenario saying its model takes 40 s to load.
pub const DEFAULT_TEXT: &str = include_str!("default.yaml");

/// A text with the simulation made from it, kept together so the timeline
/// always shows this text's run. Its lint comes from the worker
/// ([`AppState::diagnosed`]).
///
/// A change is answered in two steps (issue 28 item 4): [`Linted::first`]
/// simulates the pods alone (`sim::simulate_pods`, no request engine, no
/// HPA replay) so the lanes are drawn within the frame; when the text has
/// traffic or an HPA, [`Linted::step`] then runs the full simulation one
/// pass at a time (`sim::Passes`), each in its own task (`app.rs`), and the
/// finished `Linted` replaces this one ([`Action::Completed`]). Until then
/// `rest` is `Some` and the page says the traffic and replicas are being
/// computed.
#[derive(Debug)]
pub struct Linted {
    pub text: Rc<str>,
    pub run: Rc<Run>,
    pub timeline: Rc<Timeline>,
    /// The traffic band's data, when the Scenario sends requests. While
    /// `rest` is pending: the previous text's chart (drawn as updating, not
    /// as current), if it had one.
    pub traffic: Option<Rc<podlab_core::explain::traffic::Chart>>,
    /// The replicas band's data, when an HPA scales a Deployment (while
    /// pending: the previous text's, as `traffic`).
    pub replicas: Option<Rc<podlab_core::explain::replicas::ReplicasChart>>,
    /// Which cluster podlab assumed from the manifest's cloud hints, when
    /// the text writes none (`manifest::infer`, issue 12 item 5).
    pub cluster_note: Option<Text>,
    /// Each workload's kind, name and document: where the diagnosis card
    /// looks for the fix of a pod's outcome (`diagnosis::owner_document`).
    pub workloads: Rc<[(WorkloadKind, String, Span)]>,
    /// The full simulation still to run (`None`: `run` is the whole run).
    rest: Option<RefCell<Rest>>,
}

/// What the full simulation of a first pass needs: the text as read, and
/// the passes run so far.
#[derive(Debug)]
struct Rest {
    reading: Reading,
    passes: Passes,
    /// What it leaves out: requests, an HPA (for the "updating" note).
    traffic: bool,
    autoscaled: bool,
}

impl Linted {
    /// Reads and simulates `text` completely, at once (tests, and what a
    /// first pass steps to).
    pub fn new(text: Rc<str>) -> Linted {
        let first = Linted::first(text, None);
        if first.rest.is_none() {
            return first;
        }
        loop {
            if let Some(full) = first.step() {
                return full;
            }
        }
    }

    /// Reads `text` and simulates its pods: the page's answer within the
    /// frame. `previous`: the run shown until now, whose traffic and
    /// replicas charts stay on the page, marked as updating, until
    /// [`Linted::step`] has the new ones.
    pub fn first(text: Rc<str>, previous: Option<&Linted>) -> Linted {
        let reading = read(&text);
        let run = simulate_pods(&reading, reading.seed, &Options::default());
        let mut linted = Linted::of(text, &reading, run);
        if !has_heavy_part(&reading) {
            return linted;
        }
        if let Some(previous) = previous {
            linted.traffic = previous.traffic.clone();
            linted.replicas = previous.replicas.clone();
        }
        linted.rest = Some(RefCell::new(Rest {
            traffic: reading.scenario.traffic.is_some(),
            autoscaled: !reading.autoscalers.is_empty(),
            reading,
            passes: Passes::default(),
        }));
        linted
    }

    /// One pass of the full simulation: the finished `Linted` after the
    /// last pass; `None` while more passes remain, and when nothing is
    /// pending.
    pub fn step(&self) -> Option<Linted> {
        let mut rest = self.rest.as_ref()?.borrow_mut();
        let rest = &mut *rest;
        let run = rest
            .passes
            .step(&rest.reading, rest.reading.seed, &Options::default())?;
        Some(Linted::of(self.text.clone(), &rest.reading, run))
    }

    /// What is still being computed: (the requests, the HPA's decisions);
    /// `None` when the run is complete.
    pub fn pending(&self) -> Option<(bool, bool)> {
        let rest = self.rest.as_ref()?.borrow();
        Some((rest.traffic, rest.autoscaled))
    }

    fn of(text: Rc<str>, reading: &Reading, run: Run) -> Linted {
        let timeline = Rc::new(timeline(&run));
        // At most 300 spans: one a second over the default 15 minutes is 900.
        let traffic = run
            .traffic
            .as_ref()
            .map(|traffic| Rc::new(podlab_core::explain::traffic::chart(traffic, run.end, 300)));
        let replicas = podlab_core::explain::replicas::chart(&run).map(Rc::new);
        Linted {
            text,
            run: Rc::new(run),
            timeline,
            traffic,
            replicas,
            workloads: reading
                .workloads
                .iter()
                .map(|workload| (workload.kind, workload.name.clone(), workload.span))
                .collect(),
            cluster_note: reading.scenario.inferred_note.clone(),
            rest: None,
        }
    }
}

/// The worker's findings on a text, kept with it so positions and fix edits
/// are never applied to a text they were not computed for.
#[derive(Debug, PartialEq, Eq)]
pub struct Lint {
    pub text: Rc<str>,
    pub findings: Findings,
}

/// Where the lint of the simulated text (`Linted::text`) stands.
#[derive(Clone, Debug)]
pub enum Diagnosed {
    /// Asked the worker; no answer yet (the list says it is checking).
    /// After a slider or an edit: the last answer, for the text before,
    /// which the list keeps showing under "Checking…" as it does while the
    /// edit waits for the debounce (emptying it and filling it again was
    /// most of the layout work of a slider change, issue 28 item 4). Never
    /// used for marks or fixes (`AppState::lint`).
    Waiting(Option<Rc<Lint>>),
    Found(Rc<Lint>),
    /// The worker could not load (offline before it was fetched): the list
    /// says the diagnostics could not be computed.
    Unavailable,
}

impl Diagnosed {
    /// The worker's last answer, for this text or (while waiting) the one
    /// before: what the list shows.
    pub fn last(&self) -> Option<&Rc<Lint>> {
        match self {
            Diagnosed::Found(lint) | Diagnosed::Waiting(Some(lint)) => Some(lint),
            Diagnosed::Waiting(None) | Diagnosed::Unavailable => None,
        }
    }
}

#[derive(Debug)]
pub struct AppState {
    /// What the editor holds right now.
    pub text: Rc<str>,
    /// The last simulation; lags behind `text` while an edit waits for the
    /// debounce.
    pub linted: Rc<Linted>,
    /// The worker's lint of `linted.text`.
    pub diagnosed: Diagnosed,
    pub lang: Lang,
    /// What the sliders show, read from `text` at once (not debounced), so
    /// a slider never jumps back while it is dragged.
    pub values: Rc<Option<Values>>,
    /// The fix applied last, until the next edit: its note ("failureThreshold
    /// 30 → 45 · Undo"), the lines it changed, the text to go back to.
    pub applied: Option<Rc<Applied>>,
}

/// A fix the reader applied (from the diagnosis card or the list), kept
/// until the next edit so the page can show what changed and undo it: the
/// textarea's own undo does not see a value set from code.
#[derive(Debug, PartialEq, Eq)]
pub struct Applied {
    /// The text before the fix.
    pub before: Rc<str>,
    /// What changed, one entry per edit ([`changes`]).
    pub changes: Vec<FixChange>,
    /// The changed lines of the new text, 0-based, first and last.
    pub lines: Vec<(usize, usize)>,
}

/// What a fix changes, for the note under the diagnosis card and the
/// editor's marks: one [`FixChange`] per edit, and the lines of the new text
/// (0-based, first and last) each edit wrote. Edits as `apply_edits` takes
/// them (sorted by position; an edit it would skip is skipped here too).
pub fn changes(text: &str, edits: &[TextEdit]) -> (Vec<FixChange>, Vec<(usize, usize)>) {
    let mut sorted: Vec<&TextEdit> = edits.iter().collect();
    podlab_core::sort::sort_by_key(&mut sorted, |edit| (edit.span.start, edit.span.end));
    let (mut changes, mut lines) = (Vec::new(), Vec::new());
    let (mut cursor, mut line_shift) = (0usize, 0isize);
    for edit in sorted {
        let (start, end) = (edit.span.start, edit.span.end);
        let (Some(before), Some(old)) = (text.get(..start), text.get(start..end)) else {
            continue;
        };
        if start < cursor {
            continue;
        }
        cursor = end;
        let new = edit.text.as_str();
        let first = (before.matches('\n').count() as isize + line_shift).max(0) as usize;
        let body = new.strip_suffix('\n').unwrap_or(new);
        let count = body.matches('\n').count();
        lines.push((first, first + count));
        line_shift += new.matches('\n').count() as isize - old.matches('\n').count() as isize;
        let line_start = before.rfind('\n').map_or(0, |at| at + 1);
        changes.push(
            if !old.contains('\n') && !new.contains('\n') && !old.trim().is_empty() {
                FixChange::Value {
                    key: key_before(&text[line_start..start]),
                    from: old.trim().to_owned(),
                    to: new.trim().to_owned(),
                }
            } else if old.trim().is_empty() {
                let key = body
                    .lines()
                    .map(str::trim)
                    .find(|line| !line.is_empty())
                    .map(|line| line.trim_start_matches("- "))
                    .map(|line| line.split(':').next().unwrap_or(line).to_owned())
                    .unwrap_or_default();
                FixChange::Added {
                    lines: count + 1,
                    key,
                }
            } else {
                FixChange::Rewritten { lines: count + 1 }
            },
        );
    }
    (changes, lines)
}

/// The key a value on a line belongs to: `memory` in `limits: { memory: `,
/// `failureThreshold` in `      failureThreshold: `.
fn key_before(prefix: &str) -> String {
    let prefix = prefix.trim_end();
    let prefix = prefix.strip_suffix(':').unwrap_or(prefix);
    prefix
        .rsplit([' ', '{', ',', '-', '['])
        .find(|part| !part.is_empty())
        .unwrap_or_default()
        .to_owned()
}

/// One edit of a fix, as the note says it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FixChange {
    /// A value on one line: `failureThreshold` `30` → `45`.
    Value {
        key: String,
        from: String,
        to: String,
    },
    /// Lines added (a startupProbe block): how many, the first key.
    Added { lines: usize, key: String },
    /// Anything else: lines rewritten.
    Rewritten { lines: usize },
}

pub enum Action {
    /// The editor's content changed.
    Edit(Rc<str>),
    /// The debounce fired: simulate the current text (and ask the worker to
    /// lint it).
    Lint,
    /// The worker's findings on a text (`None`: the worker could not load);
    /// ignored unless the text is the one simulated last.
    Diagnosed(Rc<str>, Option<Findings>),
    /// Apply the fix of the diagnostic at this index of the worker's
    /// findings on the current text.
    ApplyFix(usize),
    SetLang(Lang),
    /// A slider or picker changed the Scenario (written into the text).
    Control(Change),
    /// A whole new text (an exercise's start or solution), linted at once.
    Replace(Rc<str>),
    /// Put back the text from before the fix applied last.
    UndoFix,
    /// Apply edits a tool made (a click on the outcome map: the tools
    /// worker's `mapped::write`; a kubectl line that acts), linted at once
    /// and undoable as a fix is ([`Applied`]).
    ApplyEdits(Vec<TextEdit>),
    /// The full simulation of a first pass is done (`Linted::step`): the
    /// first pass, and what replaces it; ignored unless the first pass is
    /// still the one shown (a newer change makes it stale).
    Completed(Rc<Linted>, Rc<Linted>),
}

impl AppState {
    pub fn new(text: Rc<str>, lang: Lang) -> AppState {
        AppState::after(text, lang, None)
    }

    /// A new text simulated at once (its first pass; `previous`: the run
    /// shown until now, see [`Linted::first`]).
    fn after(text: Rc<str>, lang: Lang, previous: Option<&Linted>) -> AppState {
        AppState {
            linted: Rc::new(Linted::first(text.clone(), previous)),
            diagnosed: Diagnosed::Waiting(None),
            values: Rc::new(controls::values(&text)),
            text,
            lang,
            applied: None,
        }
    }

    /// The same state with a new text waiting for the debounced lint.
    fn edited(&self, text: Rc<str>) -> AppState {
        AppState {
            values: Rc::new(controls::values(&text)),
            text,
            linted: self.linted.clone(),
            diagnosed: self.diagnosed.clone(),
            lang: self.lang,
            applied: None,
        }
    }

    /// The text with `edits` applied, linted at once, the fix kept for its
    /// note and Undo.
    fn applied_edits(&self, edits: &[TextEdit]) -> Rc<AppState> {
        let fixed: Rc<str> = apply_edits(&self.text, edits).into();
        let (changes, lines) = changes(&self.text, edits);
        Rc::new(AppState {
            applied: Some(Rc::new(Applied {
                before: self.text.clone(),
                changes,
                lines,
            })),
            ..AppState::after(fixed, self.lang, Some(&self.linted))
        })
    }

    /// True while the shown diagnostics belong to an older text.
    pub fn is_stale(&self) -> bool {
        !Rc::ptr_eq(&self.text, &self.linted.text) && self.text != self.linted.text
    }

    /// The worker's findings on the text the editor holds, once they are
    /// in: what the list, the marks and the fixes use.
    pub fn lint(&self) -> Option<&Rc<Lint>> {
        match &self.diagnosed {
            Diagnosed::Found(lint) if !self.is_stale() => Some(lint),
            _ => None,
        }
    }
}

impl Reducible for AppState {
    type Action = Action;

    fn reduce(self: Rc<Self>, action: Action) -> Rc<Self> {
        match action {
            Action::Edit(text) if text != self.text => Rc::new(self.edited(text)),
            Action::Replace(text) => Rc::new(AppState::after(text, self.lang, Some(&self.linted))),
            Action::Control(change) => match controls::apply(&self.text, &change) {
                Ok(text) if *text != *self.text => Rc::new(self.edited(text.into())),
                _ => self,
            },
            Action::Lint if self.is_stale() => Rc::new(AppState {
                linted: Rc::new(Linted::first(self.text.clone(), Some(&self.linted))),
                diagnosed: Diagnosed::Waiting(self.diagnosed.last().cloned()),
                text: self.text.clone(),
                lang: self.lang,
                values: self.values.clone(),
                applied: self.applied.clone(),
            }),
            Action::Diagnosed(text, findings)
                if matches!(self.diagnosed, Diagnosed::Waiting(_))
                    && *text == *self.linted.text =>
            {
                let diagnosed = match findings {
                    Some(findings) => Diagnosed::Found(Rc::new(Lint {
                        text: self.linted.text.clone(),
                        findings,
                    })),
                    None => Diagnosed::Unavailable,
                };
                Rc::new(AppState {
                    diagnosed,
                    text: self.text.clone(),
                    linted: self.linted.clone(),
                    lang: self.lang,
                    values: self.values.clone(),
                    applied: self.applied.clone(),
                })
            }
            Action::ApplyFix(index) => {
                let Some(fix) = self
                    .lint()
                    .and_then(|lint| lint.findings.diagnostics.get(index))
                    .and_then(|diagnostic| diagnostic.fix.as_ref())
                else {
                    return self;
                };
                self.applied_edits(&fix.edits)
            }
            Action::ApplyEdits(edits) if !edits.is_empty() => self.applied_edits(&edits),
            Action::UndoFix => match &self.applied {
                Some(applied) => Rc::new(AppState::after(
                    applied.before.clone(),
                    self.lang,
                    Some(&self.linted),
                )),
                None => self,
            },
            Action::Completed(first, full) if Rc::ptr_eq(&first, &self.linted) => {
                Rc::new(AppState {
                    linted: full,
                    text: self.text.clone(),
                    diagnosed: self.diagnosed.clone(),
                    lang: self.lang,
                    values: self.values.clone(),
                    applied: self.applied.clone(),
                })
            }
            Action::SetLang(lang) if lang != self.lang => Rc::new(AppState {
                text: self.text.clone(),
                linted: self.linted.clone(),
                diagnosed: self.diagnosed.clone(),
                lang,
                values: self.values.clone(),
                applied: self.applied.clone(),
            }),
            _ => self,
        }
    }
}

/// The playback speeds offered: simulated seconds per real second.
pub const SPEEDS: [u32; 4] = [1, 10, 60, 600];

/// Where the simulation's cursor is, whether it plays, how fast, and which
/// pod the kubectl panes show.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Playback {
    pub cursor: Millis,
    pub playing: bool,
    /// One of [`SPEEDS`].
    pub speed: u32,
    /// An index into the run's pods.
    pub selected: usize,
}

pub enum PlaybackAction {
    /// The scrubber moved.
    Seek(Millis),
    /// `elapsed_ms` of real time passed while playing a run ending at `end`.
    Tick {
        elapsed_ms: u32,
        end: Millis,
    },
    /// Play a run ending at `end`; with reduced motion, jump to its end.
    Play {
        end: Millis,
        reduced_motion: bool,
    },
    Pause,
    Speed(u32),
    Select(usize),
    /// A new run (a new text): keep the cursor and the selection inside it.
    NewRun {
        end: Millis,
        pods: usize,
    },
}

impl Playback {
    /// Starts at the end of the run: the state the text leads to.
    pub fn new(end: Millis) -> Playback {
        Playback {
            cursor: end,
            playing: false,
            speed: 60,
            selected: 0,
        }
    }
}

impl Reducible for Playback {
    type Action = PlaybackAction;

    fn reduce(self: Rc<Self>, action: PlaybackAction) -> Rc<Self> {
        let next = match action {
            PlaybackAction::Seek(at) => Playback {
                cursor: at,
                playing: false,
                ..(*self).clone()
            },
            PlaybackAction::Tick { elapsed_ms, end } if self.playing => {
                let step = Millis::from(elapsed_ms).saturating_mul(Millis::from(self.speed));
                let cursor = self.cursor.saturating_add(step).min(end);
                Playback {
                    cursor,
                    playing: cursor < end,
                    ..(*self).clone()
                }
            }
            PlaybackAction::Play {
                end,
                reduced_motion,
            } => {
                // From the end, play starts over.
                let cursor = if self.cursor >= end { 0 } else { self.cursor };
                if reduced_motion {
                    Playback {
                        cursor: end,
                        playing: false,
                        ..(*self).clone()
                    }
                } else {
                    Playback {
                        cursor,
                        playing: end > 0,
                        ..(*self).clone()
                    }
                }
            }
            PlaybackAction::Pause => Playback {
                playing: false,
                ..(*self).clone()
            },
            PlaybackAction::Speed(speed) if SPEEDS.contains(&speed) => Playback {
                speed,
                ..(*self).clone()
            },
            PlaybackAction::Select(pod) => Playback {
                selected: pod,
                ..(*self).clone()
            },
            PlaybackAction::NewRun { end, pods } => Playback {
                cursor: self.cursor.min(end),
                playing: self.playing && self.cursor < end,
                selected: if self.selected < pods {
                    self.selected
                } else {
                    0
                },
                ..(*self).clone()
            },
            _ => return self,
        };
        if next == *self {
            self
        } else {
            Rc::new(next)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use podlab_core::diagnostic::{Diagnostic, Fix, Severity, TextEdit};
    use podlab_core::i18n::Text;
    use podlab_core::span::Span;

    fn playback(cursor: Millis, playing: bool) -> Rc<Playback> {
        Rc::new(Playback {
            cursor,
            playing,
            ..Playback::new(0)
        })
    }

    #[test]
    fn ticks_move_the_cursor_by_the_speed_and_stop_at_the_end() {
        let playing = playback(1_000, true).reduce(PlaybackAction::Tick {
            elapsed_ms: 100,
            end: 900_000,
        });
        assert_eq!(playing.cursor, 1_000 + 100 * 60);
        assert!(playing.playing);
        let fast = playing.reduce(PlaybackAction::Speed(600));
        let ended = fast.reduce(PlaybackAction::Tick {
            elapsed_ms: 60_000,
            end: 900_000,
        });
        assert_eq!(ended.cursor, 900_000);
        assert!(!ended.playing, "stops at the end");
        let paused = playback(5, false);
        assert!(Rc::ptr_eq(
            &paused,
            &paused.clone().reduce(PlaybackAction::Tick {
                elapsed_ms: 100,
                end: 10
            })
        ));
    }

    #[test]
    fn play_from_the_end_starts_over_and_reduced_motion_jumps() {
        let at_end = playback(900_000, false);
        let playing = at_end.clone().reduce(PlaybackAction::Play {
            end: 900_000,
            reduced_motion: false,
        });
        assert_eq!((playing.cursor, playing.playing), (0, true));
        let jumped = playback(1_000, false).reduce(PlaybackAction::Play {
            end: 900_000,
            reduced_motion: true,
        });
        assert_eq!((jumped.cursor, jumped.playing), (900_000, false));
        let seeked = playing.reduce(PlaybackAction::Seek(720_000));
        assert_eq!((seeked.cursor, seeked.playing), (720_000, false));
        assert_eq!(
            seeked.clone().reduce(PlaybackAction::Speed(7)).speed,
            60,
            "only the offered speeds"
        );
    }

    #[test]
    fn a_new_run_keeps_cursor_and_selection_inside_it() {
        let state = Rc::new(Playback {
            cursor: 800_000,
            playing: false,
            speed: 10,
            selected: 3,
        });
        let next = state.reduce(PlaybackAction::NewRun {
            end: 600_000,
            pods: 2,
        });
        assert_eq!((next.cursor, next.selected), (600_000, 0));
        let same = next.clone().reduce(PlaybackAction::NewRun {
            end: 900_000,
            pods: 2,
        });
        assert!(Rc::ptr_eq(&next, &same));
    }

    /// The e2e test's story, natively: the article's crash loop, then its
    /// PL201 fix (a startupProbe), simulated again at once.
    #[test]
    fn the_pl201_fix_turns_the_crash_loop_into_a_ready_pod() {
        use podlab_core::explain::get_pods;
        let text = include_str!("../../tests/golden/crash-loop-liveness-40s.yaml");
        let start = diagnosed(state(text));
        let row = get_pods::row(&start.linted.run.pods[0], 720_000);
        assert_eq!(row.status, "CrashLoopBackOff");
        let index = start
            .lint()
            .expect("the worker's findings")
            .findings
            .diagnostics
            .iter()
            .position(|diagnostic| diagnostic.rule == "PL201")
            .expect("PL201 fires");
        let fixed = start.reduce(Action::ApplyFix(index));
        assert!(!fixed.is_stale());
        assert!(
            matches!(fixed.diagnosed, Diagnosed::Waiting(None)),
            "asked again"
        );
        let row = get_pods::row(&fixed.linted.run.pods[0], 720_000);
        assert_eq!(
            (row.ready.as_str(), row.status.as_str(), row.restart_count),
            ("1/1", "Running", 0)
        );
    }

    /// Issue 30: the diagnosis card's fix, what it changed, and its undo.
    #[test]
    fn the_card_fix_says_what_changed_and_undoes_to_the_learners_text() {
        use podlab_core::explain::get_pods;
        let text = include_str!("../../exercises/startup-budget-too-short.yaml");
        let start = diagnosed(state(text));
        let run = &start.linted.run;
        let diagnosis = crate::view_model::pod_diagnosis(run, 0, run.end).expect("the pod fails");
        let lint = start.lint().expect("the worker's findings");
        let index =
            crate::view_model::card_fix(&diagnosis, run, &start.linted.workloads, &lint.findings)
                .expect("the card offers PL202's fix");
        assert_eq!(lint.findings.diagnostics[index].rule, "PL202");
        let fixed = start.clone().reduce(Action::ApplyFix(index));
        let applied = fixed.applied.clone().expect("the note of the fix");
        assert!(Rc::ptr_eq(&applied.before, &start.text));
        let threshold_line = text
            .lines()
            .position(|line| line.trim_start().starts_with("failureThreshold"))
            .expect("the startupProbe's threshold");
        assert_eq!(applied.lines, vec![(threshold_line, threshold_line)]);
        let FixChange::Value { key, from, to } = &applied.changes[0] else {
            panic!("{:?}", applied.changes)
        };
        assert_eq!(key, "failureThreshold");
        assert!(text
            .lines()
            .nth(threshold_line)
            .is_some_and(|line| line.ends_with(from.as_str())));
        assert!(fixed
            .text
            .lines()
            .nth(threshold_line)
            .is_some_and(|line| line.ends_with(to.as_str())));
        // The timeline shows the recovery at once.
        let row = get_pods::row(&fixed.linted.run.pods[0], fixed.linted.run.end);
        assert_eq!(row.status, "Running");
        // The note lasts until the next edit; a relint keeps it.
        let relinted = diagnosed(fixed.clone());
        assert_eq!(relinted.applied, fixed.applied);
        let typed = fixed
            .clone()
            .reduce(Action::Edit(format!("{}# x\n", fixed.text).into()));
        assert!(typed.applied.is_none());
        // Undo puts the learner's text back, whole.
        let undone = fixed.reduce(Action::UndoFix);
        assert_eq!(&*undone.text, text);
        assert!(undone.applied.is_none());
        assert!(
            Rc::ptr_eq(&undone.clone().reduce(Action::UndoFix), &undone),
            "nothing to undo"
        );
    }

    #[test]
    fn linting_also_simulates_the_text() {
        let linted = Linted::new(crate::DEFAULT_TEXT.into());
        assert_eq!(linted.run.pods.len(), 2);
        assert_eq!(linted.timeline.pods.len(), 2);
        assert_eq!(linted.timeline.end, linted.run.end);
    }

    /// Issue 28 item 4: a text with traffic and an HPA is answered with its
    /// pods first; the previous bands stay, marked pending, until the full
    /// run, stepped one pass at a time, replaces the first pass.
    #[test]
    fn a_first_pass_keeps_the_previous_bands_until_its_full_run_is_in() {
        let text = include_str!("../../tests/golden/hpa-cpu-step.yaml");
        let start = state(text);
        assert_eq!(start.linted.pending(), Some((true, true)));
        assert!(start.linted.traffic.is_none() && start.linted.run.traffic.is_none());
        let full = Rc::new(Linted::new(start.linted.text.clone()));
        assert!(full.pending().is_none() && full.traffic.is_some() && full.replicas.is_some());
        let completed = start
            .clone()
            .reduce(Action::Completed(start.linted.clone(), full.clone()));
        assert!(Rc::ptr_eq(&completed.linted, &full));
        assert!(
            full.run.pods.len() > start.linted.run.pods.len(),
            "the scale-out's pods"
        );
        // A slider change: the pods at once, the bands of the run before
        // kept (drawn as updating), the full run by steps.
        let moved = completed
            .reduce(Action::Control(Change::Startup(60_000)))
            .reduce(Action::Lint);
        let first = moved.linted.clone();
        assert_eq!(first.pending(), Some((true, true)));
        assert!(Rc::ptr_eq(
            first.traffic.as_ref().unwrap(),
            full.traffic.as_ref().unwrap()
        ));
        let mut passes = 1;
        let finished = loop {
            if let Some(finished) = first.step() {
                break finished;
            }
            passes += 1;
        };
        assert!(passes > 1, "one task per pass of the HPA's replay");
        assert_eq!(finished.run, Linted::new(moved.text.clone()).run);
        // An answer for a first pass no longer shown is dropped.
        let newer = moved
            .clone()
            .reduce(Action::Control(Change::Startup(90_000)))
            .reduce(Action::Lint);
        let late = newer
            .clone()
            .reduce(Action::Completed(first.clone(), Rc::new(finished)));
        assert!(Rc::ptr_eq(&late, &newer));
    }

    #[test]
    fn a_text_without_traffic_or_an_hpa_is_complete_at_once() {
        let start = state(crate::DEFAULT_TEXT);
        assert!(start.linted.pending().is_none());
        assert!(start.linted.step().is_none(), "nothing to step");
        assert_eq!(start.linted.run, Linted::new(start.text.clone()).run);
    }

    fn state(text: &str) -> Rc<AppState> {
        Rc::new(AppState::new(text.into(), Lang::En))
    }

    /// The worker's answer for the simulated text, made in-process.
    fn diagnosed(state: Rc<AppState>) -> Rc<AppState> {
        let text = state.linted.text.clone();
        let findings = Findings::of(&text);
        state.reduce(Action::Diagnosed(text, Some(findings)))
    }

    fn rules(state: &AppState) -> Vec<&'static str> {
        let lint = state.lint().expect("findings on the current text");
        lint.findings.diagnostics.iter().map(|d| d.rule).collect()
    }

    #[test]
    fn findings_are_taken_only_for_the_text_simulated_last() {
        let start = state("a: 1\n");
        assert!(matches!(start.diagnosed, Diagnosed::Waiting(None)));
        assert!(start.lint().is_none(), "checking until the worker answers");
        // The answer for a text the page has moved past is dropped.
        let edited = start.reduce(Action::Edit("a: [".into()));
        let linted = edited.reduce(Action::Lint);
        let late = linted.clone().reduce(Action::Diagnosed(
            "a: 1\n".into(),
            Some(Findings::of("a: 1\n")),
        ));
        assert!(Rc::ptr_eq(&late, &linted));
        let current = diagnosed(linted);
        assert_eq!(rules(&current), ["PL001"]);
        // A second answer for the same text changes nothing.
        let again = current
            .clone()
            .reduce(Action::Diagnosed("a: [".into(), Some(Findings::default())));
        assert!(Rc::ptr_eq(&again, &current));
        // While an edit waits for the debounce the findings are not shown
        // on the new text, and come back when it is undone.
        let typing = current.reduce(Action::Edit("a: [\n".into()));
        assert!(typing.lint().is_none());
        let undone = typing.reduce(Action::Edit("a: [".into()));
        assert_eq!(rules(&undone), ["PL001"]);
    }

    #[test]
    fn a_worker_that_cannot_load_leaves_no_findings() {
        let start = state("a: [");
        let text = start.linted.text.clone();
        let failed = start.reduce(Action::Diagnosed(text, None));
        assert!(matches!(failed.diagnosed, Diagnosed::Unavailable));
        assert!(failed.lint().is_none());
        assert!(Rc::ptr_eq(
            &failed,
            &failed.clone().reduce(Action::ApplyFix(0))
        ));
        // The next text asks again.
        let edited = failed.reduce(Action::Edit("a: []\n".into()));
        let linted = edited.reduce(Action::Lint);
        assert!(matches!(linted.diagnosed, Diagnosed::Waiting(_)));
    }

    #[test]
    fn a_slider_writes_the_scenario_and_waits_for_the_debounce() {
        let start = state(crate::DEFAULT_TEXT);
        let moved = start
            .clone()
            .reduce(Action::Control(Change::Startup(300_000)));
        assert!(moved.is_stale());
        assert!(moved.text.contains("startup: 5m"), "{}", moved.text);
        assert_eq!(
            moved.values.as_ref().as_ref().map(|v| v.startup),
            Some(300_000)
        );
        // Writing the value it already has changes nothing.
        let same = moved
            .clone()
            .reduce(Action::Control(Change::Startup(300_000)));
        assert!(Rc::ptr_eq(&same, &moved));
        let linted = moved.reduce(Action::Lint);
        assert!(!linted.is_stale());
        assert_eq!(&*linted.linted.text, &*linted.text);
        assert!(matches!(linted.diagnosed, Diagnosed::Waiting(_)));
    }

    #[test]
    fn edits_wait_for_the_debounce_before_linting() {
        let edited = diagnosed(state("a: 1\n")).reduce(Action::Edit("a: [".into()));
        assert!(edited.is_stale());
        assert!(edited.lint().is_none());
        let linted = edited.reduce(Action::Lint);
        assert!(!linted.is_stale());
        // Until the worker answers, the list keeps the answer for the text
        // before (shown as checking); marks and fixes take none of it.
        let Diagnosed::Waiting(Some(before)) = &linted.diagnosed else {
            panic!("{:?}", linted.diagnosed)
        };
        assert_eq!(&*before.text, "a: 1\n");
        assert!(linted.lint().is_none());
        assert_eq!(rules(&diagnosed(linted)), ["PL001"]);
    }

    #[test]
    fn no_op_actions_return_the_same_state() {
        let start = state("a: 1\n");
        assert!(Rc::ptr_eq(&start, &start.clone().reduce(Action::Lint)));
        assert!(Rc::ptr_eq(
            &start,
            &start.clone().reduce(Action::Edit("a: 1\n".into()))
        ));
        assert!(Rc::ptr_eq(
            &start,
            &start.clone().reduce(Action::SetLang(Lang::En))
        ));
        assert!(Rc::ptr_eq(
            &start,
            &start.clone().reduce(Action::ApplyFix(7))
        ));
    }

    #[test]
    fn a_fix_applies_its_edits_and_relints() {
        let mut start = AppState::new("a: [".into(), Lang::ZhTw);
        // Give the findings a fix of our own to apply.
        let mut findings = Findings::of(&start.text);
        findings.summaries.push(None);
        findings.diagnostics.push(Diagnostic {
            rule: "PL999",
            name: "test-fix",
            severity: Severity::Warning,
            span: Span::new(3, 4),
            message: Text::new("m", "m"),
            help: None,
            fix: Some(Fix {
                description: Text::new("close it", "補上"),
                edits: vec![TextEdit {
                    span: Span::new(3, 4),
                    text: "[]\n".into(),
                }],
            }),
        });
        let index = findings.diagnostics.len() - 1;
        start.diagnosed = Diagnosed::Found(Rc::new(Lint {
            text: start.text.clone(),
            findings,
        }));
        let fixed = Rc::new(start).reduce(Action::ApplyFix(index));
        assert_eq!(&*fixed.text, "a: []\n");
        assert!(diagnosed(fixed.clone())
            .lint()
            .unwrap()
            .findings
            .diagnostics
            .is_empty());
        assert_eq!(fixed.lang, Lang::ZhTw);
    }

    #[test]
    fn a_fix_is_ignored_while_the_report_is_stale() {
        let edited = diagnosed(state("a: [")).reduce(Action::Edit("b: [".into()));
        assert!(Rc::ptr_eq(
            &edited,
            &edited.clone().reduce(Action::ApplyFix(0))
        ));
    }
}
