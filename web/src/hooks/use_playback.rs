//! Plays the simulation: while `playing`, an `Interval` sends the real time
//! that passed to the playback reducer, which moves the cursor by it times
//! the speed. The run is never recomputed: only the cursor moves.
//!
//! Dropping the interval (pause, a new end, unmount) stops it.

use gloo::timers::callback::Interval;
use podlab_core::manifest::duration::Millis;
use yew::prelude::*;

use crate::state::{Playback, PlaybackAction};

/// Real milliseconds between two cursor moves (10 per second).
pub const TICK_MS: u32 = 100;

#[hook]
pub fn use_playback_ticks(playing: bool, end: Millis, dispatcher: UseReducerDispatcher<Playback>) {
    use_effect_with((playing, end), move |&(playing, end)| {
        let interval = playing.then(|| {
            Interval::new(TICK_MS, move || {
                dispatcher.dispatch(PlaybackAction::Tick {
                    elapsed_ms: TICK_MS,
                    end,
                })
            })
        });
        move || drop(interval)
    });
}
