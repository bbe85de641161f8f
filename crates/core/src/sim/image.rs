//! What podlab assumes about an image it cannot inspect; image references'
//! names are `manifest::reference`'s (re-exported here).

pub use crate::manifest::reference::{normalized, repository};

/// Whether the Scenario's `cluster.missing` names this image
/// (`Image/<reference>`, as written or normalised).
pub fn is_missing(missing: &[String], image: &str) -> bool {
    missing.iter().any(|entry| {
        entry
            .strip_prefix("Image/")
            .is_some_and(|named| named == image || normalized(named) == normalized(image))
    })
}

/// containerd's error for a reference the registry does not have, as the
/// kubelet passes it through CRI (`rpc error: code = NotFound desc = …`;
/// the form kind's containerd prints, docs/simulator.md).
pub fn not_found_error(image: &str) -> String {
    let full = normalized(image);
    format!(
        "rpc error: code = NotFound desc = failed to pull and unpack image \"{full}\": failed to resolve reference \"{full}\": {full}: not found"
    )
}

/// podlab cannot know an image's size: a stable number from the reference,
/// between 2 and 10 GB (the range of CUDA and PyTorch serving images), for
/// the `Image size: N bytes.` of the `Pulled` event.
pub fn size_bytes(image: &str) -> u64 {
    let hash = image.bytes().fold(0xcbf2_9ce4_8422_2325_u64, |hash, byte| {
        (hash ^ u64::from(byte)).wrapping_mul(0x0000_0100_0000_01b3)
    });
    2_000_000_000 + hash % 8_000_000_000
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn docker_hub_names_are_expanded_and_tagged() {
        assert_eq!(normalized("nginx"), "docker.io/library/nginx:latest");
        assert_eq!(normalized("acme/api:1.4"), "docker.io/acme/api:1.4");
        assert_eq!(normalized("ghcr.io/acme/api:1.4"), "ghcr.io/acme/api:1.4");
        assert_eq!(
            normalized("localhost:5000/api"),
            "localhost:5000/api:latest"
        );
        assert_eq!(
            normalized("ghcr.io/acme/api@sha256:abc"),
            "ghcr.io/acme/api@sha256:abc"
        );
    }

    #[test]
    fn missing_matches_written_or_normalised() {
        let missing = vec!["Image/nginx:9.9".to_string(), "Secret/x".to_string()];
        assert!(is_missing(&missing, "docker.io/library/nginx:9.9"));
        assert!(is_missing(&missing, "nginx:9.9"));
        assert!(!is_missing(&missing, "nginx:1.27"));
        assert!(!is_missing(&missing, "x"));
    }

    #[test]
    fn size_is_stable_and_plausible() {
        let size = size_bytes("ghcr.io/acme/model-api:1.4.2");
        assert_eq!(size, size_bytes("ghcr.io/acme/model-api:1.4.2"));
        assert!((2_000_000_000..10_000_000_000).contains(&size));
    }
}
