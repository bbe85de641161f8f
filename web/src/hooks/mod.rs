//! The page's custom hooks, one per file.

mod use_debounced;
mod use_playback;

pub use use_debounced::use_debounced_effect;
pub use use_playback::{use_playback_ticks, TICK_MS};
