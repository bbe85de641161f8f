//! The commands that act (`delete pod`, `cordon`, `uncordon`, `drain`)
//! through podlab's line against the real kubectl given the same objects:
//! the pods that exist at T, the nodes (cordoned as the run has them at T)
//! and their Tables. The server performs each change (`server::mutate`),
//! so every line gets a fresh server.

use podlab_core::manifest::duration::Millis;
use podlab_core::sim::Run;
use serde_json::json;

use super::objects::{Clock, EPOCH};
use super::server::{ApiServer, Objects};
use super::{run_kubectl, write_kubeconfig, KubectlRun, TempDir};

/// What the API server holds at `at`: `nodes::served` (the nodes cordoned
/// as the run has them), and the DaemonSets that own pods.
pub fn served(text: &str, run: &Run, at: Millis) -> Objects {
    let reading = podlab_core::manifest::read::read(text);
    let clock = Clock { base: EPOCH };
    let mut objects = super::nodes::served(text, run, &reading.scenario, at, clock);
    let (deployments, replica_sets, _) = super::deployments::served(run, text, at, clock);
    objects.deployments = deployments;
    objects.replica_sets = replica_sets;
    // The DaemonSets that own pods (kubectl drain reads them).
    for pod in &run.pods {
        if let Some(name) = pod.owner.strip_prefix("DaemonSet/") {
            if !objects
                .daemon_sets
                .iter()
                .any(|d| d["metadata"]["name"] == name)
            {
                objects.daemon_sets.push(json!({
                    "apiVersion": "apps/v1",
                    "kind": "DaemonSet",
                    "metadata": { "name": name, "namespace": "default" },
                }));
            }
        }
    }
    objects
}

/// `line` through the real kubectl against a fresh server holding
/// [`served`]; and the requests kubectl made.
pub fn kubectl_acts(text: &str, run: &Run, at: Millis, line: &str) -> (KubectlRun, Vec<String>) {
    let server = ApiServer::start(served(text, run, at));
    let dir = TempDir::new("kubectl-acts");
    let kubeconfig = write_kubeconfig(&dir.0, &server);
    // The line's words as a shell splits them (`-p '{"spec": …}'`).
    let words = podlab_core::kubectl::parse::words(line).unwrap_or_default();
    let args: Vec<&str> = words.iter().map(String::as_str).collect();
    let printed = run_kubectl(&dir.0, &kubeconfig, &args);
    (printed, server.requests())
}
