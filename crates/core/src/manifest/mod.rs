//! Manifests: YAML text → spanned documents → typed objects and the Scenario.

pub mod yaml;
