//! Manifests: YAML text → spanned documents → typed objects and the Scenario.

pub mod annotations;
pub mod api;
pub mod cron;
pub mod duration;
pub mod exercise;
pub mod infer;
pub mod model;
pub mod quantity;
pub mod read;
pub mod reindent;
pub mod resources;
pub mod scenario;
pub mod schema;
pub mod validate;
pub mod yaml;
