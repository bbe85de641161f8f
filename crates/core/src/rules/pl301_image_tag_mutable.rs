//! PL301 image-tag-mutable.
//!
//! Models `SetDefaults_Container` (`shared/reference/scheduler-controllers.md`
//! §5.1; `kubernetes/kubernetes:pkg/apis/core/v1/defaults.go`, with
//! `pkg/util/parsers/parsers.go` `ParseImageName`): an image with tag
//! `latest`, or with no tag and no digest (read as `latest`), gets
//! `imagePullPolicy: Always`, so the kubelet asks the registry at every
//! container start (`shared/reference/kubelet.md` §9: `Pulling`, then
//! `Pulled` with timings) and downloads whatever `latest` points to now.
//! The tag is read with `model::image_tag`: a `:` before the last `/` is a
//! registry port (`host:5000/img` has no tag).
//!
//! The fix pins the tag only when the file itself says which one: another
//! container of the file uses the same repository (`docker.io/` and
//! `library/` ignored) with a tag or digest, and only one such pin. Any other
//! choice would be a guess at a version.

use super::{containers, edit, words, Context, Rule};
use super::{long, long_str};
use crate::diagnostic::{Diagnostic, Fix, Severity};
use crate::manifest::model::{image_tag, ImageTag};
use crate::span::Span;
use crate::text;

pub static RULE: Rule = Rule {
    id: "PL301",
    name: "image-tag-mutable",
    severity: Severity::Warning,
    scenario_aware: false,
    summary: words!(
        "an image with tag `latest` or no tag: what runs can change without the manifest changing",
        "映像的 tag 是 `latest` 或沒有 tag：manifest 沒變，實際跑的東西卻可能變了"
    ),
    what: long!(
        "Reports every container and init container whose image has the tag `latest`, or no tag and no digest (which Kubernetes reads as `latest`). A `:port` in the registry host (`registry:5000/model`) is not a tag. A tag (`:v0.6.3`) or a digest (`@sha256:…`) passes.",
        "回報每個映像 tag 為 `latest`、或沒有 tag 也沒有 digest（Kubernetes 會當成 `latest`）的 container 與 init container。registry 主機的 `:port`（`registry:5000/model`）不是 tag。有 tag（`:v0.6.3`）或 digest（`@sha256:…`）就通過。"
    ),
    why: long!(
        "`latest` gets `imagePullPolicy: Always` by default: every container start, each crash-loop restart included, asks the registry, and once `latest` has moved the node downloads a new multi-GB CUDA image before the model can even start loading (a registry outage or rate limit turns the restart into ImagePullBackOff). Two replicas started a day apart can run different model-server versions behind one Service, with different outputs, and rolling back is impossible because the old version has no name to go back to.",
        "`latest` 預設會得到 `imagePullPolicy: Always`：每次 container 啟動（包含每次 CrashLoopBackOff 的重啟）都會去問 registry，一旦 `latest` 指向新版，節點就要先下載好幾 GB 的 CUDA 映像，模型才能開始載入（registry 掛掉或被限流時，重啟就變成 ImagePullBackOff）。相隔一天啟動的兩個副本，可能在同一個 Service 後面跑著不同版本的模型伺服器、給出不同的結果；而且舊版本沒有名字，想回滾也回不去。"
    ),
    failing: long_str!("apiVersion: apps/v1\nkind: Deployment\nmetadata: { name: llm-server }\nspec:\n  selector: { matchLabels: { app: llm-server } }\n  template:\n    metadata: { labels: { app: llm-server } }\n    spec:\n      containers:\n        - name: vllm\n          image: vllm/vllm-openai:latest\n          args: [\"--model\", \"Qwen/Qwen2.5-1.5B-Instruct\"]\n          ports: [{ containerPort: 8000 }]\n"),
    fixed: long_str!("apiVersion: apps/v1\nkind: Deployment\nmetadata: { name: llm-server }\nspec:\n  selector: { matchLabels: { app: llm-server } }\n  template:\n    metadata: { labels: { app: llm-server } }\n    spec:\n      containers:\n        - name: vllm\n          image: vllm/vllm-openai:v0.6.3\n          args: [\"--model\", \"Qwen/Qwen2.5-1.5B-Instruct\"]\n          ports: [{ containerPort: 8000 }]\n"),
    fix: long!(
        "Pin a version tag (`vllm/vllm-openai:v0.6.3`), or better a digest (`vllm/vllm-openai@sha256:…`, which stays the same even if someone re-pushes the tag). When another container in the same file already pins the same image, the fix copies that pin.",
        "固定版本 tag（`vllm/vllm-openai:v0.6.3`），更好的是用 digest（`vllm/vllm-openai@sha256:…`，就算有人重新推送同一個 tag 也不會變）。若同一個檔案裡另一個 container 已經固定了同一個映像，修正會沿用那個版本。"
    ),
    check: Some(check),
};

/// An image reference split into its repository and the pin after it
/// (`:tag`, `@digest` or `:tag@digest`; empty when none).
fn split_image(image: &str) -> (&str, &str) {
    let name_end = image.find('@').unwrap_or(image.len());
    let name = &image[..name_end];
    let component_start = name.rfind('/').map_or(0, |slash| slash + 1);
    let repository_end = name[component_start..]
        .find(':')
        .map_or(name_end, |colon| component_start + colon);
    (&image[..repository_end], &image[repository_end..])
}

/// The repository as compared between containers: Docker Hub's implicit
/// `docker.io/` and `library/` dropped.
fn normalized(repository: &str) -> &str {
    let repository = repository
        .strip_prefix("docker.io/")
        .or_else(|| repository.strip_prefix("index.docker.io/"))
        .unwrap_or(repository);
    repository.strip_prefix("library/").unwrap_or(repository)
}

fn check(context: &Context<'_>, out: &mut Vec<Diagnostic>) {
    // Every pinned image of the file: (normalized repository, pin).
    let pinned: Vec<(&str, &str)> = containers(context.workloads)
        .filter_map(|(_, container, _)| container.image.as_ref())
        .map(|image| image.value.trim())
        .filter(|image| matches!(image_tag(image), ImageTag::Tag(_) | ImageTag::Digest))
        .map(|image| {
            let (repository, pin) = split_image(image);
            (normalized(repository), pin)
        })
        .filter(|(repository, pin)| {
            !repository.is_empty() && pin.len() > 1 && !pin.ends_with([':', '@'])
        })
        .collect();
    for (workload, container, _) in containers(context.workloads) {
        let Some(image) = &container.image else {
            continue;
        };
        let Some(span) = image.span else { continue };
        let value = image.value.trim();
        if value.is_empty() || value.contains(char::is_whitespace) || value.contains('$') {
            continue;
        }
        let latest = match image_tag(value) {
            ImageTag::Latest => true,
            ImageTag::Missing => false,
            ImageTag::Digest | ImageTag::Tag(_) => continue,
        };
        let (repository, _) = split_image(value);
        if repository.is_empty() {
            continue;
        }
        let mut pins: Vec<&str> = pinned
            .iter()
            .filter(|(known, _)| *known == normalized(repository))
            .map(|(_, pin)| *pin)
            .collect();
        crate::sort::sort(&mut pins);
        pins.dedup();
        let name = &container.name;
        let kind = workload.kind.as_str();
        let workload_name = &workload.name;
        let policy = &container.image_pull_policy;
        let message = match (latest, policy.is_default()) {
            (true, true) => text!(
                "container \"{name}\" ({kind} \"{workload_name}\"): image \"{value}\" uses the mutable tag `latest`, and imagePullPolicy defaults to Always: every start asks the registry and runs whatever `latest` is now",
                "container「{name}」（{kind}「{workload_name}」）：映像「{value}」用的是會變動的 tag `latest`，imagePullPolicy 預設為 Always：每次啟動都會去問 registry，跑的是當下的 `latest`"
            ),
            (false, true) => text!(
                "container \"{name}\" ({kind} \"{workload_name}\"): image \"{value}\" has no tag, so it means `latest`, and imagePullPolicy defaults to Always: every start asks the registry and runs whatever `latest` is now",
                "container「{name}」（{kind}「{workload_name}」）：映像「{value}」沒有 tag，等於 `latest`，imagePullPolicy 預設為 Always：每次啟動都會去問 registry，跑的是當下的 `latest`"
            ),
            (true, false) => text!(
                "container \"{name}\" ({kind} \"{workload_name}\"): image \"{value}\" uses the mutable tag `latest`: which version runs depends on when and where the image was pulled",
                "container「{name}」（{kind}「{workload_name}」）：映像「{value}」用的是會變動的 tag `latest`：實際跑哪個版本取決於映像是何時、在哪個節點拉下來的"
            ),
            (false, false) => text!(
                "container \"{name}\" ({kind} \"{workload_name}\"): image \"{value}\" has no tag, so it means `latest`: which version runs depends on when and where the image was pulled",
                "container「{name}」（{kind}「{workload_name}」）：映像「{value}」沒有 tag，等於 `latest`：實際跑哪個版本取決於映像是何時、在哪個節點拉下來的"
            ),
        };
        let mut diagnostic = RULE.diagnostic(span, message);
        match pins.as_slice() {
            [pin] => {
                let pinned_image = format!("{repository}{pin}");
                diagnostic = diagnostic.with_help(text!(
                    "this file already runs {pinned_image}; `kubectl get pod <pod> -o jsonpath='{{.status.containerStatuses[*].imageID}}'` shows the digest a node actually pulled",
                    "這個檔案裡已經有用 {pinned_image}；`kubectl get pod <pod> -o jsonpath='{{.status.containerStatuses[*].imageID}}'` 可以看到節點實際拉到的 digest"
                ));
                if let Some(edit) = pin_edit(context.text, span, value, latest, pin) {
                    diagnostic = diagnostic.with_fix(Fix {
                        description: text!(
                            "pin the image to {pinned_image}, as elsewhere in this file",
                            "把映像固定為 {pinned_image}，與檔案中其他地方一致"
                        ),
                        edits: vec![edit],
                    });
                }
            }
            [] => {
                diagnostic = diagnostic.with_help(text!(
                    "pin a version ({repository}:<version>) or a digest ({repository}@sha256:…); `kubectl get pod <pod> -o jsonpath='{{.status.containerStatuses[*].imageID}}'` shows the digest a node actually pulled",
                    "請固定版本（{repository}:<版本>）或 digest（{repository}@sha256:…）；`kubectl get pod <pod> -o jsonpath='{{.status.containerStatuses[*].imageID}}'` 可以看到節點實際拉到的 digest"
                ));
            }
            several => {
                let list = several
                    .iter()
                    .map(|pin| format!("{repository}{pin}"))
                    .collect::<Vec<_>>()
                    .join(", ");
                diagnostic = diagnostic.with_help(text!(
                    "this file pins the same image differently elsewhere ({list}): pick one version or digest",
                    "這個檔案其他地方固定了不同的版本（{list}）：請選定一個版本或 digest"
                ));
            }
        }
        out.push(diagnostic);
    }
}

/// Rewrites the image in place: `:latest` becomes the pin, or the pin is
/// appended. Only when the written scalar holds the image verbatim (plain,
/// or quoted without escapes); otherwise the whole scalar is rewritten as a
/// double-quoted string.
fn pin_edit(
    text: &str,
    span: Span,
    value: &str,
    latest: bool,
    pin: &str,
) -> Option<crate::diagnostic::TextEdit> {
    let written = text.get(span.start..span.end)?;
    let inner_start = if written == value {
        span.start
    } else if written.len() == value.len() + 2
        && (written.starts_with('"') || written.starts_with('\''))
        && written.get(1..written.len() - 1) == Some(value)
    {
        span.start + 1
    } else {
        let (repository, _) = split_image(value);
        return Some(edit::replace(
            span,
            edit::json_string(&format!("{repository}{pin}")),
        ));
    };
    let end = inner_start + value.len();
    if latest {
        let tag = Span::new(end - ":latest".len(), end);
        Some(edit::replace(tag, pin))
    } else {
        Some(edit::replace(Span::empty(end), pin))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn images_split_into_repository_and_pin() {
        assert_eq!(split_image("vllm/vllm-openai"), ("vllm/vllm-openai", ""));
        assert_eq!(
            split_image("vllm/vllm-openai:v0.6.3"),
            ("vllm/vllm-openai", ":v0.6.3")
        );
        assert_eq!(
            split_image("registry:5000/model:1.2"),
            ("registry:5000/model", ":1.2")
        );
        assert_eq!(
            split_image("registry:5000/model"),
            ("registry:5000/model", "")
        );
        assert_eq!(split_image("model@sha256:ab12"), ("model", "@sha256:ab12"));
        assert_eq!(
            split_image("nvcr.io/nvidia/tritonserver:24.08-py3@sha256:ab12"),
            ("nvcr.io/nvidia/tritonserver", ":24.08-py3@sha256:ab12")
        );
        assert_eq!(normalized("docker.io/library/python"), "python");
        assert_eq!(normalized("docker.io/vllm/vllm-openai"), "vllm/vllm-openai");
    }

    #[test]
    fn pin_edits_keep_the_scalar_style() {
        use crate::diagnostic::apply_edits;
        let text = "image: vllm/vllm-openai:latest\n";
        let span = Span::new(7, text.len() - 1);
        let edit = pin_edit(text, span, "vllm/vllm-openai:latest", true, ":v0.6.3").unwrap();
        assert_eq!(
            apply_edits(text, &[edit]),
            "image: vllm/vllm-openai:v0.6.3\n"
        );
        let text = "image: \"vllm/vllm-openai\"\n";
        let span = Span::new(7, text.len() - 1);
        let edit = pin_edit(text, span, "vllm/vllm-openai", false, "@sha256:ab").unwrap();
        assert_eq!(
            apply_edits(text, &[edit]),
            "image: \"vllm/vllm-openai@sha256:ab\"\n"
        );
    }
}
