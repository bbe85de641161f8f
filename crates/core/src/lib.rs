//! podlab's core: YAML manifests with positions, lint rules, the simulator and
//! kubectl-style renderers. Pure Rust: no IO, no clock, no global state.

pub mod config;
pub mod controls;
pub mod diagnostic;
pub mod exercise;
pub mod explain;
pub mod go_sort;
pub mod gpu;
pub mod i18n;
pub mod kubectl;
pub mod lint;
pub mod manifest;
pub mod map;
pub mod number;
pub mod paste;
pub mod picture;
pub mod rules;
pub mod sched;
pub mod share;
pub mod sim;
pub mod sort;
pub mod span;
pub mod suppress;
