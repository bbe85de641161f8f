//! Manifests: YAML text → spanned documents → typed objects and the Scenario.

pub mod annotations;
pub mod api;
pub mod assumed;
pub mod canonical;
pub mod cron;
pub mod duration;
pub mod exercise;
pub mod hpa;
pub mod infer;
pub mod keda;
pub mod model;
pub mod patch;
pub mod path;
pub mod quantity;
pub mod read;
pub mod reference;
pub mod reindent;
pub mod resources;
pub mod scenario;
pub mod schema;
pub mod service;
pub mod validate;
pub mod yaml;

/// A Kubernetes-style name made from free text: ASCII letters and digits
/// lowercased, anything else `-`, no `-` at either end (`HF_TOKEN` →
/// `hf-token`, `nvidia-tesla-t4` stays). Empty when nothing is left.
pub fn name_from(text: &str) -> String {
    let name: String = text
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() {
                c.to_ascii_lowercase()
            } else {
                '-'
            }
        })
        .collect();
    name.trim_matches('-').to_string()
}
