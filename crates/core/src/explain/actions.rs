//! The words for a Scenario action that could not happen
//! (`sim::ActionError`, docs/simulator.md "Actions").

use crate::i18n::Text;
use crate::manifest::duration;
use crate::sim::{ActionError, ActionProblem};
use crate::text;

/// What the action named that was not there, in both languages.
pub fn message(error: &ActionError) -> Text {
    let (verb, at) = (error.verb, duration::format(error.at));
    match &error.problem {
        ActionProblem::NoSuchPod(name) => text!(
            "the pod `{name}` does not exist at {at}, so this `{verb}` does nothing: `kubectl get pods` at that time lists the pods",
            "Pod `{name}` 在 {at} 不存在，所以這個 `{verb}` 沒有作用：當時的 Pod 請用 `kubectl get pods` 查看"
        ),
        ActionProblem::NoSuchDeployment(name) => text!(
            "the text has no Deployment `{name}`, so this `{verb}` does nothing",
            "文字中沒有名為 `{name}` 的 Deployment，所以這個 `{verb}` 沒有作用"
        ),
        ActionProblem::NothingToUndo(name) => text!(
            "the Deployment `{name}` has no other revision to go back to at {at} (or its template already is that revision's), so this `{verb}` does nothing: `kubectl rollout history deployment/{name}` lists the revisions",
            "Deployment `{name}` 在 {at} 沒有其他可以回復的 revision（或範本已經是該 revision 的），所以這個 `{verb}` 沒有作用：`kubectl rollout history deployment/{name}` 會列出各個 revision"
        ),
        ActionProblem::NoSuchNode { node, nodes } => {
            let nodes = nodes.join(", ");
            text!(
                "the node `{node}` does not exist, so this `{verb}` does nothing: the cluster's nodes are {nodes}",
                "節點 `{node}` 不存在，所以這個 `{verb}` 沒有作用：叢集的節點是 {nodes}"
            )
        }
    }
}
