//! A Deployment's pod templates (`rollout.rs` runs them): the
//! `pod-template-hash` of a template and the template of a Scenario
//! `rollout` (a new image). A `restart`'s and a `patch`'s templates are the
//! manifest layer's (`manifest::patch::templates`, from `Reading::deployments`).

use crate::manifest::model::Workload;

/// A Deployment's `pod-template-hash`: `controller.ComputeHash` over its
/// template (`manifest::canonical::pod_template_hash`), so the same
/// template gets the same hash whatever the text around it, and any change
/// of it a new one (scheduler-controllers.md §6.1).
pub(super) fn template_hash(workload: &Workload, collision_count: Option<u32>) -> String {
    let empty = crate::manifest::canonical::Canon::Map(Vec::new());
    crate::manifest::canonical::pod_template_hash(
        workload.template.as_ref().unwrap_or(&empty),
        collision_count,
    )
}

/// The rollout's template: the workload with the new image in the
/// container whose image repository is the new image's, else the first;
/// a defaulted `imagePullPolicy` follows the new tag (`Always` for
/// `latest` or none, `IfNotPresent` otherwise: `SetDefaults_Container`).
pub(super) fn rollout_template(workload: &Workload, image: &str) -> Workload {
    let mut template = workload.clone();
    let repository = crate::sim::image::repository(image);
    let containers = &mut template.pod.containers;
    let index = containers
        .iter()
        .position(|c| {
            c.image
                .as_ref()
                .is_some_and(|i| crate::sim::image::repository(&i.value) == repository)
        })
        .unwrap_or(0);
    if let Some(container) = containers.get_mut(index) {
        let span = container.image.as_ref().and_then(|i| i.span);
        container.image = Some(crate::manifest::model::Setting {
            value: image.to_string(),
            span,
        });
        let name = container.name.clone();
        template.template = template
            .template
            .as_ref()
            .map(|canon| canon.with_image(&name, image));
        if container.image_pull_policy.is_default() {
            let tagged = crate::sim::image::normalized(image);
            container.image_pull_policy.value =
                if image.contains('@') || !tagged.ends_with(":latest") {
                    "IfNotPresent".into()
                } else {
                    "Always".into()
                };
        }
    }
    template
}
