//! A Deployment's pod templates (`rollout.rs` runs them): the
//! `pod-template-hash` of a template, the template of a Scenario `rollout`
//! (a new image) and of a `restart` (the `restartedAt` annotation).

use crate::manifest::duration::Millis;
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

/// `kubectl rollout restart`'s template
/// (`staging/src/k8s.io/kubectl/pkg/polymorphichelpers/objectrestarter.go`):
/// the pod template's annotation `kubectl.kubernetes.io/restartedAt` set to
/// the time, RFC 3339; the pods are the same, the template's hash is not.
pub(super) fn restart_template(workload: &Workload, at: Millis) -> Workload {
    let mut template = workload.clone();
    let seconds = i64::try_from(at / 1000).unwrap_or(i64::MAX);
    let time = crate::manifest::duration::rfc3339(
        crate::manifest::duration::EPOCH_UNIX_SECONDS as i64 + seconds,
    );
    let path = [
        ("metadata", None),
        ("annotations", None),
        ("kubectl.kubernetes.io/restartedAt", None),
    ];
    template.template = template.template.as_ref().map(|canon| {
        canon
            .with_value(&path, crate::manifest::canonical::Canon::Str(time.clone()))
            .unwrap_or_else(|| canon.clone())
    });
    template
}
