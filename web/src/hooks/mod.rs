//! The page's custom hooks, one per file.

mod use_debounced;

pub use use_debounced::use_debounced_effect;
