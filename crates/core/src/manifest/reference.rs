//! Image references as the container runtime sees them (`sim::image`
//! re-exports them; `manifest::patch` chooses a Scenario rollout's
//! container with them).
//!
//! Normalisation follows `github.com/distribution/reference`
//! `ParseNormalizedNamed`, which containerd applies before a pull: a first
//! path component without `.` or `:` (and not `localhost`) is a Docker Hub
//! path, and a one-component Docker Hub name lives under `library/`.

/// The repository without tag or digest: `nginx` → `docker.io/library/nginx`,
/// `acme/api:1` → `docker.io/acme/api`, `ghcr.io/acme/api:1` → `ghcr.io/acme/api`.
pub fn repository(image: &str) -> String {
    let without_digest = image.split('@').next().unwrap_or(image);
    let (path, last) = match without_digest.rsplit_once('/') {
        Some((path, last)) => (Some(path), last),
        None => (None, without_digest),
    };
    let name = last.split(':').next().unwrap_or(last);
    match path {
        None => format!("docker.io/library/{name}"),
        Some(path) => {
            let first = path.split('/').next().unwrap_or(path);
            if first.contains('.') || first.contains(':') || first == "localhost" {
                format!("{path}/{name}")
            } else {
                format!("docker.io/{path}/{name}")
            }
        }
    }
}

/// The full reference containerd pulls: the repository plus the tag
/// (`latest` when none is written) or the digest.
pub fn normalized(image: &str) -> String {
    if let Some((_, digest)) = image.split_once('@') {
        return format!("{}@{digest}", repository(image));
    }
    let last = image.rsplit('/').next().unwrap_or(image);
    let tag = last.split_once(':').map_or("latest", |(_, tag)| tag);
    format!("{}:{tag}", repository(image))
}
