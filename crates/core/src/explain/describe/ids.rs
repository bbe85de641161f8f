//! The identifiers kubectl prints that the simulator does not model, made
//! up deterministically from the pod and the image (see `describe`'s module
//! doc): the node's InternalIP, container and image IDs, and the name of
//! the service-account token volume.

use crate::sim::PodRun;

/// The node's InternalIP (see the module doc).
pub fn host_ip(pod: &PodRun) -> String {
    let node_index: u64 = pod
        .ip
        .split('.')
        .nth(2)
        .and_then(|octet| octet.parse().ok())
        .unwrap_or(0);
    crate::explain::node::internal_ip(node_index)
}

/// `containerd://<64 hex>` of one container instance (restart number).
pub fn container_id(pod: &PodRun, container: &str, instance: usize) -> String {
    format!(
        "containerd://{}",
        hex64(&format!("{}/{container}/{instance}", pod.uid))
    )
}

/// The image reference containerd reports: repository (Docker Hub names in
/// full) + `@sha256:` + a digest hashed from the image as written.
pub fn image_id(image: &str) -> String {
    format!(
        "{}@sha256:{}",
        crate::sim::image::repository(image),
        hex64(image)
    )
}

/// `kube-api-access-<5>`, the ServiceAccount admission plugin's volume.
pub fn api_access_volume(pod: &PodRun) -> String {
    const ALPHABET: &[u8] = b"bcdfghjklmnpqrstvwxz2456789";
    let mut state = fnv1a(&pod.uid);
    let suffix: String = (0..5)
        .map(|_| {
            let value = splitmix64(&mut state);
            char::from(ALPHABET[(value % ALPHABET.len() as u64) as usize])
        })
        .collect();
    format!("kube-api-access-{suffix}")
}

pub(crate) fn fnv1a(text: &str) -> u64 {
    text.bytes().fold(0xcbf2_9ce4_8422_2325, |hash, byte| {
        (hash ^ u64::from(byte)).wrapping_mul(0x0000_0100_0000_01b3)
    })
}

pub(crate) fn splitmix64(state: &mut u64) -> u64 {
    *state = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// 64 hex digits derived from `seed`.
pub(crate) fn hex64(seed: &str) -> String {
    let mut state = fnv1a(seed);
    (0..4)
        .map(|_| format!("{:016x}", splitmix64(&mut state)))
        .collect()
}

/// A version-4-shaped UUID hashed from `seed` (`8-4-4-4-12` hex digits).
pub(crate) fn uuid(seed: &str) -> String {
    uuid_of(&hex64(seed))
}

/// The version-4 shape of 32 hex digits: `8-4-4-4-12`, the version and
/// variant digits set.
pub(crate) fn uuid_of(hex: &str) -> String {
    format!(
        "{}-{}-4{}-8{}-{}",
        &hex[0..8],
        &hex[8..12],
        &hex[13..16],
        &hex[17..20],
        &hex[20..32]
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn image_ids_name_the_repository_as_containerd_does() {
        let id = image_id("registry.example.com/model-api:0.3.1");
        assert!(
            id.starts_with("registry.example.com/model-api@sha256:"),
            "{id}"
        );
        assert_eq!(
            id.len(),
            "registry.example.com/model-api@sha256:".len() + 64
        );
        assert!(image_id("nginx:1.27").starts_with("docker.io/library/nginx@sha256:"));
        assert!(image_id("vllm/vllm-openai").starts_with("docker.io/vllm/vllm-openai@sha256:"));
        assert!(image_id("localhost:5000/m:1").starts_with("localhost:5000/m@sha256:"));
    }
}
