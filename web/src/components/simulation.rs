//! The simulation of the current text: the stage (play/pause, the speed,
//! the timeline with its scrubber and `kubectl get pods` at the cursor) and,
//! below it, the other kubectl panes and the diagnosis.
//!
//! The run comes simulated from the app state (once per debounced text);
//! this section owns only the playback (cursor, speed, selected pod), so
//! moving the cursor re-renders this section and nothing above it.

use std::cell::Cell;
use std::rc::Rc;

use podlab_core::manifest::duration::Millis;

use podlab_core::i18n::Lang;
use web_sys::HtmlInputElement;
use yew::prelude::*;

use super::{KubectlPanes, Timeline};
use crate::hooks::use_playback_ticks;
use crate::i18n::TextHtml;
use crate::state::{Linted, Playback, PlaybackAction, SPEEDS};
use crate::{i18n, view_model};

#[derive(Properties)]
pub struct SimulationProps {
    /// The last lint and simulation of the text.
    pub linted: Rc<Linted>,
    pub lang: Lang,
    /// True while an edit waits for the debounce (the run shown is older).
    pub pending: bool,
    /// Where the cursor starts (`?at=`); `None`: at the run's end.
    #[prop_or_default]
    pub start_at: Option<Millis>,
    /// Start playing once mounted (`?autoplay=1`).
    #[prop_or_default]
    pub autoplay: bool,
    /// Written with the cursor on each render, read by Copy embed code
    /// (`at=`) without re-rendering the page on every tick.
    #[prop_or_default]
    pub cursor_out: Option<Rc<Cell<Millis>>>,
    /// Shown between the stage and the kubectl panes (an exercise's story
    /// and goals, beside the timeline they are checked on).
    #[prop_or_default]
    pub children: Html,
    /// An exercise: the diagnosis (which names the cause) stays folded.
    #[prop_or_default]
    pub fold_diagnosis: bool,
    /// `&cmd=`: the kubectl terminal opens and runs it.
    #[prop_or_default]
    pub command: Option<String>,
    /// The terminal's last kubectl line (the share link's `cmd=`).
    #[prop_or_default]
    pub command_out: Option<Rc<std::cell::RefCell<Option<String>>>>,
    /// An embed: the legend starts folded, one tap away.
    #[prop_or_default]
    pub fold_legend: bool,
    /// The diagnosis card's "Apply the fix" (none in an exercise).
    #[prop_or_default]
    pub fix: Option<super::CardFix>,
    /// The outcome map and the terminal may edit the text.
    #[prop_or_default]
    pub editing: Option<super::Editing>,
}

impl PartialEq for SimulationProps {
    fn eq(&self, other: &Self) -> bool {
        Rc::ptr_eq(&self.linted, &other.linted)
            && self.lang == other.lang
            && self.pending == other.pending
            && self.start_at == other.start_at
            && self.autoplay == other.autoplay
            && self.children == other.children
            && self.fold_diagnosis == other.fold_diagnosis
            && self.command == other.command
            && self.fold_legend == other.fold_legend
            && self.fix == other.fix
            && self.editing == other.editing
    }
}

#[component]
pub fn Simulation(props: &SimulationProps) -> Html {
    let lang = props.lang;
    let run = props.linted.run.clone();
    let timeline = props.linted.timeline.clone();
    let end = run.end;
    let pods = run.pods.len();
    let start_at = props.start_at;
    let playback = use_reducer(move || {
        let mut playback = Playback::new(end);
        if let Some(at) = start_at {
            playback.cursor = at.min(end);
        }
        playback
    });
    {
        let dispatcher = playback.dispatcher();
        let autoplay = props.autoplay;
        use_effect_with((), move |_| {
            if autoplay {
                dispatcher.dispatch(PlaybackAction::Play {
                    end,
                    reduced_motion: prefers_reduced_motion(),
                });
            }
        });
    }
    {
        let dispatcher = playback.dispatcher();
        use_effect_with((end, pods), move |&(end, pods)| {
            dispatcher.dispatch(PlaybackAction::NewRun { end, pods })
        });
    }
    use_playback_ticks(playback.playing, end, playback.dispatcher());

    let cursor = playback.cursor.min(end);
    if let Some(out) = &props.cursor_out {
        out.set(cursor);
    }
    let statuses = Rc::new(view_model::pod_statuses(&run, cursor));

    let on_play = {
        let dispatcher = playback.dispatcher();
        let playing = playback.playing;
        Callback::from(move |_: MouseEvent| {
            dispatcher.dispatch(if playing {
                PlaybackAction::Pause
            } else {
                PlaybackAction::Play {
                    end,
                    reduced_motion: prefers_reduced_motion(),
                }
            })
        })
    };
    let on_scrub = {
        let dispatcher = playback.dispatcher();
        Callback::from(move |event: InputEvent| {
            let input: HtmlInputElement = event.target_unchecked_into();
            // The range counts whole seconds; anything unparsable is ignored.
            if let Ok(seconds) = input.value().parse::<u64>() {
                dispatcher.dispatch(PlaybackAction::Seek(seconds.saturating_mul(1000)));
            }
        })
    };
    let on_select = {
        let dispatcher = playback.dispatcher();
        Callback::from(move |pod: usize| dispatcher.dispatch(PlaybackAction::Select(pod)))
    };
    let speeds = SPEEDS.iter().map(|&speed| {
        let dispatcher = playback.dispatcher();
        let onclick = Callback::from(move |_: MouseEvent| {
            dispatcher.dispatch(PlaybackAction::Speed(speed))
        });
        let pressed = if playback.speed == speed { "true" } else { "false" };
        html! {
            <button type="button" class="speed" aria-pressed={pressed} data-testid={format!("speed-{speed}")} {onclick}>
                { format!("{speed}×") }
            </button>
        }
    });
    let play_label = if playback.playing {
        i18n::pause()
    } else {
        i18n::play()
    };
    let now = view_model::clock(cursor);
    let total = view_model::clock(end);

    let get_pods = view_model::get_pods_pane(&run, cursor);
    // The requests at the cursor, and what went wrong with them.
    let traffic_now = run.traffic.as_ref().map(|traffic| {
        let now = podlab_core::explain::traffic::now_line(traffic, cursor);
        let finding = podlab_core::explain::traffic::explain(traffic, &run, cursor);
        (now, finding)
    });

    html! {
        <section class="simulation" aria-labelledby="simulation-heading">
            <div class="stage" data-testid="stage">
                <div class="sim-controls">
                    <h2 id="simulation-heading">{ i18n::simulation_heading().html(lang) }</h2>
                    <button
                        type="button"
                        class="play"
                        data-testid="play"
                        onclick={on_play}
                    >
                        <span aria-hidden="true" class="play-icon">{ if playback.playing { "❚❚" } else { "▶" } }</span>
                        { play_label.html(lang) }
                    </button>
                    <div class="speeds" role="group" aria-label={i18n::speed().get(lang).to_owned()}>
                        <span class="speeds-label" aria-hidden="true">{ i18n::speed().html(lang) }</span>
                        { for speeds }
                    </div>
                    <output class="clock" data-testid="clock" for="scrubber">{ format!("{now} / {total}") }</output>
                    if props.pending {
                        <span class="pending">{ i18n::simulating().html(lang) }</span>
                    }
                </div>
                if let Some(note) = &props.linted.cluster_note {
                    <p class="cluster-note" data-testid="cluster-note">{ note.html(lang) }</p>
                }
                <Timeline
                    timeline={timeline}
                    {cursor}
                    statuses={statuses}
                    selected={playback.selected}
                    {lang}
                    on_select={on_select.clone()}
                    traffic={props.linted.traffic.clone()}
                    replicas={props.linted.replicas.clone()}
                    fold_legend={props.fold_legend}
                    updating={props.linted.pending()}
                />
                <div class="scrub">
                    <label for="scrubber" class="visually-hidden">{ i18n::simulated_time().html(lang) }</label>
                    <input
                        id="scrubber"
                        data-testid="scrubber"
                        type="range"
                        min="0"
                        max={(end / 1000).to_string()}
                        step="1"
                        value={(cursor / 1000).to_string()}
                        aria-valuetext={i18n::time_of(&now, &total).get(lang).to_owned()}
                        oninput={on_scrub}
                    />
                </div>
                if let Some((now, finding)) = &traffic_now {
                    <p class="traffic-now" data-testid="traffic-now" aria-live="polite">
                        { now.html(lang) }
                        if let Some(finding) = finding {
                            <span class="traffic-finding" data-testid="traffic-finding">
                                { i18n::traffic_finding(&finding.symptom, &finding.root_cause).html(lang) }
                            </span>
                        }
                    </p>
                    if let Some(finding) = finding.as_ref().filter(|f| !f.chain.is_empty()) {
                        // How the episode came about, then the fixes with
                        // their cost (issue 16 item 5).
                        <div class="traffic-chain" data-testid="traffic-chain">
                            <ol aria-label={i18n::traffic_chain().get(lang).to_owned()}>
                                { for finding.chain.iter().map(|step| html! {
                                    <li><time>{ view_model::clock(step.at) }</time>{ " " }{ step.text.html(lang) }</li>
                                }) }
                            </ol>
                            <ul aria-label={i18n::traffic_fixes().get(lang).to_owned()} data-testid="traffic-fixes">
                                { for finding.fixes.iter().map(|fix| html! { <li>{ fix.html(lang) }</li> }) }
                            </ul>
                        </div>
                    }
                }
                <pre class="terminal status-strip" data-testid="pane-get" tabindex="0" aria-label="kubectl get pods">
                    <span class="prompt">{ "$ kubectl get pods\n" }</span>
                    { get_pods }
                </pre>
            </div>
            { props.children.clone() }
            <KubectlPanes text={props.linted.text.clone()} {run} {cursor} selected={playback.selected} {lang} {on_select}
                fold_diagnosis={props.fold_diagnosis} command={props.command.clone()} command_out={props.command_out.clone()}
                fix={props.fix.clone()} editing={props.editing.clone()} />
        </section>
    }
}

/// The reader asked the system for less motion: play jumps instead.
fn prefers_reduced_motion() -> bool {
    web_sys::window()
        .and_then(|window| {
            window
                .match_media("(prefers-reduced-motion: reduce)")
                .ok()
                .flatten()
        })
        .is_some_and(|query| query.matches())
}
