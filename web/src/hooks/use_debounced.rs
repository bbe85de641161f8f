//! Runs a callback once its dependencies have stopped changing for a while.
//!
//! Each change of `deps` replaces the pending `Timeout`; dropping the old one
//! cancels it (Yew's boids example), so only the last edit of a burst fires.

use gloo::timers::callback::Timeout;
use yew::prelude::*;

#[hook]
pub fn use_debounced_effect<D, F>(deps: D, delay_ms: u32, callback: F)
where
    D: PartialEq + 'static,
    F: FnOnce() + 'static,
{
    use_effect_with(deps, move |_| {
        let timeout = Timeout::new(delay_ms, callback);
        move || drop(timeout)
    });
}
