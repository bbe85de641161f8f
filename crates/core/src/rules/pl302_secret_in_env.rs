//! PL302 secret-in-env.
//!
//! A literal `env[].value` is part of the pod spec: it is stored in the
//! manifest (and so in git), returned by `kubectl get pod -o yaml` and
//! printed by `kubectl describe pod` to anyone who may read pods, while a
//! `valueFrom.secretKeyRef` shows only as `<set to the key 'HF_TOKEN' in
//! secret 'hf-token'>` (`kubernetes/kubernetes:staging/src/k8s.io/kubectl/pkg/describe/describe.go`
//! `describeContainerEnvVars`). Secrets are the API object meant for these
//! values (RBAC on `secrets`, optional encryption at rest).
//!
//! What counts as a credential (decided here, no Kubernetes source):
//! - by name: the variable's words (split at `_`, `-`, `.` and lowerCamel
//!   humps, case-insensitive) contain TOKEN, SECRET, PASSWORD, PASSWD,
//!   APIKEY, CREDENTIAL(S), or API/ACCESS/PRIVATE followed by KEY
//!   (`HF_TOKEN`, `HUGGING_FACE_HUB_TOKEN`, `WANDB_API_KEY`, `OPENAI_API_KEY`,
//!   `AWS_SECRET_ACCESS_KEY`, `dbPassword`). Whole words only, so
//!   `MAX_NUM_BATCHED_TOKENS` and `TOKENIZERS_PARALLELISM` are not credentials.
//!   A name whose last word says the value is about the secret rather than
//!   the secret (`…_FILE`, `_PATH`, `_DIR`, `_NAME`, `_URL`, `_ENDPOINT`,
//!   `_HOST`, `_TYPE`, `_LENGTH`, `_TTL`, `_HEADER`, `_ENABLED`, …) is
//!   skipped. The value must not be a placeholder: empty, a boolean or a
//!   number, a path (`/run/secrets/hf`), a `$(VAR)` / `${VAR}` / `{{ }}`
//!   reference, `<…>`, all `x`/`*`, or one of `changeme`, `change-me`,
//!   `replace-me`, `your-token-here`, `dummy`, `example`, `placeholder`,
//!   `todo`, `redacted`, `none`, `null`, `secret`, `password`, `token`, `test`
//!   (and `your_…`/`your-…`). `changeme` counts as a placeholder: it leaks
//!   nothing, and tutorials use it to mean "put yours here"; a cluster
//!   really running with it has a weak password, which is not what this rule
//!   is about.
//! - by value, whatever the name: a Hugging Face token (`hf_` + 30 or more
//!   letters and digits), an OpenAI-style key (`sk-` + 20 or more of
//!   `[A-Za-z0-9_-]`, also `sk-proj-…`, `sk-ant-…`), an AWS access key ID
//!   (`AKIA`/`ASIA` + 16 of `[0-9A-Z]`), a GitHub token (`ghp_`, `gho_`,
//!   `ghu_`, `ghs_`, `ghr_` + 30 or more, `github_pat_` + 20 or more), a
//!   GitLab token (`glpat-` + 20 or more), a Slack token (`xoxb-`, `xoxp-`,
//!   `xoxa-`, `xoxr-`, `xoxs-` + 10 or more), a PEM private key, or a URL
//!   with a password (`postgresql://mlflow:s3cret@db/mlflow`, a common
//!   MLflow backend store). A token counts where it starts the value or
//!   follows a character that is not a letter or digit (`Bearer hf_…`), and
//!   when its body looks generated: upper and lower case letters for the
//!   base62 tokens (Hugging Face, OpenAI, GitHub, GitLab), two of upper
//!   case, lower case and digits for AWS and Slack
//!   (`sk-llama-3-8b-instruct-finetuned`, a model name, does not count).
//!
//! The message never repeats the secret: at most its first 4 characters
//! (fewer for short values: a quarter of its length) then `…`, and the
//! diagnostic points at the variable's name, so the source line a text
//! report prints is the name's line, not the value's (block style).

use super::{containers, words, Context, Rule};
use super::{long, long_str};
use crate::diagnostic::{Diagnostic, Severity};
use crate::text;

pub static RULE: Rule = Rule {
    id: "PL302",
    name: "secret-in-env",
    severity: Severity::Warning,
    scenario_aware: false,
    summary: words!(
        "a credential written as a literal `env` value instead of a `secretKeyRef`",
        "憑證以明文寫在 `env` 的 value，而不是用 `secretKeyRef`"
    ),
    what: long!(
        "Reports an `env[].value` that looks like a credential: the variable's name has the word TOKEN, SECRET, PASSWORD, PASSWD, APIKEY, CREDENTIAL(S), or API/ACCESS/PRIVATE KEY (`HF_TOKEN`, `WANDB_API_KEY`, `AWS_SECRET_ACCESS_KEY`; not `MAX_NUM_BATCHED_TOKENS`, not `TOKEN_PATH`) and the value is not a placeholder (empty, `changeme`, `<your-token>`, `${HF_TOKEN}`, a path, a number or a boolean); or, whatever the name, the value has the shape of a known token: `hf_…` (Hugging Face), `sk-…` (OpenAI and similar), `AKIA…` (AWS), `ghp_…`/`github_pat_…` (GitHub), `glpat-…`, `xoxb-…` (Slack), a PEM private key, or a URL with a password (`postgresql://user:pass@host/db`). The message shows at most the first 4 characters of the value.",
        "回報看起來像憑證的 `env[].value`：變數名稱含有 TOKEN、SECRET、PASSWORD、PASSWD、APIKEY、CREDENTIAL(S) 或 API／ACCESS／PRIVATE KEY 這些字（`HF_TOKEN`、`WANDB_API_KEY`、`AWS_SECRET_ACCESS_KEY`；不包括 `MAX_NUM_BATCHED_TOKENS`、`TOKEN_PATH`），而且值不是佔位字（空字串、`changeme`、`<your-token>`、`${HF_TOKEN}`、路徑、數字或布林值）；或者不論名稱，值本身就是已知 token 的格式：`hf_…`（Hugging Face）、`sk-…`（OpenAI 等）、`AKIA…`（AWS）、`ghp_…`／`github_pat_…`（GitHub）、`glpat-…`、`xoxb-…`（Slack）、PEM 私鑰，或含密碼的 URL（`postgresql://user:pass@host/db`）。訊息最多只顯示值的前 4 個字元。"
    ),
    why: long!(
        "Manifests live in git, get pasted into issues and chats, and a literal env value is printed by `kubectl get pod -o yaml` and `kubectl describe pod` to anyone who may read pods. A Hugging Face token grants access to gated weights (Llama, Gemma) and to your private models and datasets; a W&B or OpenAI key bills your account; an MLflow database URL with its password opens every experiment. Once committed, the token stays in the git history: it must be revoked, not just deleted.",
        "manifest 放在 git 裡、會被貼進 issue 和聊天室，而明文的 env 值會被 `kubectl get pod -o yaml` 和 `kubectl describe pod` 印給任何能讀 Pod 的人看。Hugging Face token 能存取需授權的權重（Llama、Gemma）以及你的私有模型與資料集；W&B 或 OpenAI 的 key 會算到你的帳上；帶密碼的 MLflow 資料庫 URL 則打開所有實驗紀錄。一旦 commit 進去，token 就留在 git 歷史裡：必須撤銷，光刪掉不夠。"
    ),
    failing: long_str!("apiVersion: apps/v1\nkind: Deployment\nmetadata: { name: llm-server }\nspec:\n  selector: { matchLabels: { app: llm-server } }\n  template:\n    metadata: { labels: { app: llm-server } }\n    spec:\n      containers:\n        - name: vllm\n          image: vllm/vllm-openai:v0.6.3\n          args: [\"--model\", \"meta-llama/Llama-3.1-8B-Instruct\"]\n          env:\n            - name: HF_TOKEN\n              value: hf_aBcDeFgHiJkLmNoPqRsTuVwXyZ01234567\n"),
    fixed: long_str!("apiVersion: apps/v1\nkind: Deployment\nmetadata: { name: llm-server }\nspec:\n  selector: { matchLabels: { app: llm-server } }\n  template:\n    metadata: { labels: { app: llm-server } }\n    spec:\n      containers:\n        - name: vllm\n          image: vllm/vllm-openai:v0.6.3\n          args: [\"--model\", \"meta-llama/Llama-3.1-8B-Instruct\"]\n          env:\n            - name: HF_TOKEN\n              valueFrom:\n                secretKeyRef: { name: hf-token, key: HF_TOKEN }\n"),
    fix: long!(
        "Revoke the token (it is in git history now), create a Secret outside the manifest — `kubectl create secret generic hf-token --from-literal=HF_TOKEN=<new token>` — and reference it: `valueFrom: { secretKeyRef: { name: hf-token, key: HF_TOKEN } }` (or `envFrom: [{ secretRef: { name: hf-token } }]` for several keys). There is no automatic fix: the Secret has to be created with the real value.",
        "先撤銷這個 token（它已經在 git 歷史裡了），在 manifest 之外建立 Secret——`kubectl create secret generic hf-token --from-literal=HF_TOKEN=<新的 token>`——再引用它：`valueFrom: { secretKeyRef: { name: hf-token, key: HF_TOKEN } }`（多個 key 時可用 `envFrom: [{ secretRef: { name: hf-token } }]`）。沒有自動修正：Secret 必須用真正的值來建立。"
    ),
    check: Some(check),
};

/// Words of an environment variable name, upper-cased: `HF_TOKEN` →
/// `[HF, TOKEN]`, `dbPassword` → `[DB, PASSWORD]`.
fn name_words(name: &str) -> Vec<String> {
    let mut words = Vec::new();
    let mut current = String::new();
    let mut previous_lower = false;
    for c in name.chars() {
        if matches!(c, '_' | '-' | '.') {
            if !current.is_empty() {
                words.push(std::mem::take(&mut current));
            }
            previous_lower = false;
            continue;
        }
        if c.is_ascii_uppercase() && previous_lower && !current.is_empty() {
            words.push(std::mem::take(&mut current));
        }
        previous_lower = c.is_ascii_lowercase() || c.is_ascii_digit();
        current.push(c.to_ascii_uppercase());
    }
    if !current.is_empty() {
        words.push(current);
    }
    words
}

/// Last words that say the value is about a secret, not the secret.
const NOT_THE_SECRET: &[&str] = &[
    "FILE",
    "PATH",
    "DIR",
    "NAME",
    "URL",
    "URI",
    "ENDPOINT",
    "HOST",
    "PORT",
    "TYPE",
    "LENGTH",
    "LEN",
    "TTL",
    "EXPIRY",
    "EXPIRES",
    "TIMEOUT",
    "HEADER",
    "ENABLED",
    "ENABLE",
    "REQUIRED",
    "MODE",
    "KIND",
    "REF",
    "ID",
    "LIMIT",
    "MAX",
    "MIN",
    "SIZE",
    "COUNT",
    "FORMAT",
    "SOURCE",
    "NAMESPACE",
    "REGION",
    "BACKEND",
    "PROVIDER",
    "STORE",
    "AUDIENCE",
    "ISSUER",
    "SCOPE",
];

/// Whether a variable name says it holds a credential.
fn credential_name(name: &str) -> bool {
    let words = name_words(name);
    if words
        .last()
        .is_some_and(|last| NOT_THE_SECRET.contains(&last.as_str()))
    {
        return false;
    }
    let single = words.iter().any(|word| {
        matches!(
            word.as_str(),
            "TOKEN"
                | "SECRET"
                | "PASSWORD"
                | "PASSWD"
                | "APIKEY"
                | "CREDENTIAL"
                | "CREDENTIALS"
                | "ACCESSKEY"
                | "SECRETKEY"
                | "PRIVATEKEY"
                | "AUTHTOKEN"
        )
    });
    let pair = words
        .windows(2)
        .any(|pair| matches!(pair[0].as_str(), "API" | "ACCESS" | "PRIVATE") && pair[1] == "KEY");
    single || pair
}

/// Values that stand for a secret without being one.
fn placeholder(value: &str) -> bool {
    let value = value.trim();
    let lower = value.to_ascii_lowercase();
    if value.is_empty()
        || crate::number::is_float(value)
        || matches!(
            lower.as_str(),
            "true" | "false" | "yes" | "no" | "on" | "off"
        )
        || value.starts_with('/')
        || value.starts_with("./")
        || value.starts_with("~/")
        || lower.starts_with("file://")
        || value.contains("$(")
        || value.contains("${")
        || value.contains("{{")
        || (value.starts_with('<') && value.ends_with('>'))
        || value
            .chars()
            .all(|c| matches!(c, 'x' | 'X' | '*' | '.' | '-' | '_'))
    {
        return true;
    }
    let bare: String = lower
        .chars()
        .filter(|c| c.is_ascii_alphanumeric())
        .collect();
    matches!(
        bare.as_str(),
        "changeme"
            | "changethis"
            | "replaceme"
            | "yourtokenhere"
            | "yourkeyhere"
            | "yourapikey"
            | "yourapikeyhere"
            | "yourpasswordhere"
            | "yourtoken"
            | "dummy"
            | "example"
            | "placeholder"
            | "todo"
            | "tbd"
            | "redacted"
            | "none"
            | "null"
            | "nil"
            | "secret"
            | "password"
            | "token"
            | "test"
            | "fake"
            | "notset"
            | "unset"
    ) || lower.starts_with("your_")
        || lower.starts_with("your-")
}

/// What a value looks like, when it has the shape of a known token.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Known {
    HuggingFace,
    OpenAi,
    AwsAccessKey,
    GitHub,
    GitLab,
    Slack,
    PrivateKey,
    UrlPassword,
}

impl Known {
    fn describe(self) -> (&'static str, &'static str) {
        match self {
            Known::HuggingFace => ("a Hugging Face token", "Hugging Face token"),
            Known::OpenAi => ("an OpenAI-style API key", "OpenAI 類的 API key"),
            Known::AwsAccessKey => ("an AWS access key ID", "AWS access key ID"),
            Known::GitHub => ("a GitHub token", "GitHub token"),
            Known::GitLab => ("a GitLab token", "GitLab token"),
            Known::Slack => ("a Slack token", "Slack token"),
            Known::PrivateKey => ("a PEM private key", "PEM 私鑰"),
            Known::UrlPassword => ("a URL with a password", "含密碼的 URL"),
        }
    }
}

/// Whether a token body looks generated: upper and lower case letters for
/// the base62 tokens (`mixed_case`; `sk-llama-3-8b-instruct-finetuned`, a
/// model name, is not), at least two of upper case, lower case and digits
/// for the others.
fn random_looking(body: &[u8], mixed_case: bool) -> bool {
    let upper = body.iter().any(u8::is_ascii_uppercase);
    let lower = body.iter().any(u8::is_ascii_lowercase);
    let digit = body.iter().any(u8::is_ascii_digit);
    if mixed_case {
        upper && lower
    } else {
        u8::from(upper) + u8::from(lower) + u8::from(digit) >= 2
    }
}

/// The characters a token body is made of.
#[derive(Clone, Copy)]
enum Body {
    /// Letters and digits.
    Alphanumeric,
    /// Letters, digits, `_` and `-`.
    Word,
    /// Upper-case letters and digits.
    UpperDigit,
}

impl Body {
    fn allows(self, b: u8) -> bool {
        match self {
            Body::Alphanumeric => b.is_ascii_alphanumeric(),
            Body::Word => b.is_ascii_alphanumeric() || b == b'_' || b == b'-',
            Body::UpperDigit => b.is_ascii_uppercase() || b.is_ascii_digit(),
        }
    }
}

/// Token prefixes, what they are, the least body length and its characters.
const PREFIXES: &[(&str, Known, usize, Body)] = &[
    ("hf_", Known::HuggingFace, 30, Body::Alphanumeric),
    ("sk-", Known::OpenAi, 20, Body::Word),
    ("AKIA", Known::AwsAccessKey, 16, Body::UpperDigit),
    ("ASIA", Known::AwsAccessKey, 16, Body::UpperDigit),
    ("github_pat_", Known::GitHub, 20, Body::Word),
    ("ghp_", Known::GitHub, 30, Body::Alphanumeric),
    ("gho_", Known::GitHub, 30, Body::Alphanumeric),
    ("ghu_", Known::GitHub, 30, Body::Alphanumeric),
    ("ghs_", Known::GitHub, 30, Body::Alphanumeric),
    ("ghr_", Known::GitHub, 30, Body::Alphanumeric),
    ("glpat-", Known::GitLab, 20, Body::Word),
    ("xoxb-", Known::Slack, 10, Body::Word),
    ("xoxp-", Known::Slack, 10, Body::Word),
    ("xoxa-", Known::Slack, 10, Body::Word),
    ("xoxr-", Known::Slack, 10, Body::Word),
    ("xoxs-", Known::Slack, 10, Body::Word),
];

/// The shape of a known token anywhere in the value (at its start or after
/// a character that is not a letter or digit).
fn known_token(value: &str) -> Option<Known> {
    if value.contains("-----BEGIN") && value.contains("PRIVATE KEY") {
        return Some(Known::PrivateKey);
    }
    if url_password(value) {
        return Some(Known::UrlPassword);
    }
    let bytes = value.as_bytes();
    for (at, _) in value.char_indices() {
        if at > 0 && bytes.get(at - 1).is_some_and(|b| b.is_ascii_alphanumeric()) {
            continue;
        }
        let rest = value.get(at..).unwrap_or_default();
        for (prefix, known, least, body_chars) in PREFIXES {
            if !rest.starts_with(prefix) {
                continue;
            }
            let start = at + prefix.len();
            let length = bytes
                .get(start..)
                .unwrap_or_default()
                .iter()
                .take_while(|b| body_chars.allows(**b))
                .count();
            let body = bytes.get(start..start + length).unwrap_or_default();
            let mixed_case = !matches!(known, Known::AwsAccessKey | Known::Slack);
            if length >= *least && random_looking(body, mixed_case) {
                return Some(*known);
            }
        }
    }
    None
}

/// `scheme://user:password@host`, with a password that is not a placeholder.
fn url_password(value: &str) -> bool {
    let Some((_, rest)) = value.split_once("://") else {
        return false;
    };
    let authority = rest.split(['/', '?', '#']).next().unwrap_or_default();
    let Some((user_info, _)) = authority.rsplit_once('@') else {
        return false;
    };
    let Some((_, password)) = user_info.split_once(':') else {
        return false;
    };
    !placeholder(password)
}

/// At most the first 4 characters (a quarter of a short value), then `…`.
fn masked(value: &str) -> String {
    let count = value.chars().count();
    let shown = (count / 4).min(4);
    let mut out: String = value.chars().take(shown).collect();
    out.push('…');
    out
}

/// A Secret name for the help: `HF_TOKEN` → `hf-token`.
fn secret_name(variable: &str) -> String {
    let name = crate::manifest::name_from(variable);
    if name.is_empty() {
        "app-secret".into()
    } else {
        name
    }
}

fn check(context: &Context<'_>, out: &mut Vec<Diagnostic>) {
    for (_, container, path) in containers(context.workloads) {
        for (index, env) in container.env.iter().enumerate() {
            let Some(value) = &env.value else { continue };
            let Some(value_span) = value.span else {
                continue;
            };
            let known = known_token(&value.value);
            let by_name = credential_name(&env.name) && !placeholder(&value.value);
            if known.is_none() && !by_name {
                continue;
            }
            let variable = &env.name;
            let shown = masked(value.value.trim());
            let length = value.value.trim().chars().count();
            let name = &container.name;
            let message = match known {
                Some(known) => {
                    let (what, what_zh) = known.describe();
                    text!(
                        "{path}.env[{index}] {variable} (container \"{name}\"): the literal value (\"{shown}\", {length} characters) looks like {what}; anyone who can read this manifest or the pod can use it",
                        "{path}.env[{index}] {variable}（container「{name}」）：明文的值（「{shown}」，{length} 個字元）看起來是 {what_zh}；任何讀得到這份 manifest 或這個 Pod 的人都能拿去用"
                    )
                }
                None => text!(
                    "{path}.env[{index}] {variable} (container \"{name}\"): a credential written as a literal value (\"{shown}\", {length} characters) instead of a secretKeyRef; anyone who can read this manifest or the pod can use it",
                    "{path}.env[{index}] {variable}（container「{name}」）：憑證以明文的值寫在這裡（「{shown}」，{length} 個字元），而不是用 secretKeyRef；任何讀得到這份 manifest 或這個 Pod 的人都能拿去用"
                ),
            };
            let secret = secret_name(variable);
            let span = env.name_span.unwrap_or(value_span);
            out.push(RULE.diagnostic(span, message).with_help(text!(
                "revoke it, then `kubectl create secret generic {secret} --from-literal={variable}=...` and write `valueFrom: {{ secretKeyRef: {{ name: {secret}, key: {variable} }} }}` instead of `value`; `kubectl describe pod` then shows `<set to the key '{variable}' in secret '{secret}'>` instead of the value",
                "先撤銷它，再執行 `kubectl create secret generic {secret} --from-literal={variable}=...`，並把 `value` 換成 `valueFrom: {{ secretKeyRef: {{ name: {secret}, key: {variable} }} }}`；之後 `kubectl describe pod` 只會顯示 `<set to the key '{variable}' in secret '{secret}'>`，不再顯示值"
            )));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_split_into_words() {
        assert_eq!(name_words("HF_TOKEN"), ["HF", "TOKEN"]);
        assert_eq!(name_words("dbPassword"), ["DB", "PASSWORD"]);
        assert_eq!(name_words("openai.api-key"), ["OPENAI", "API", "KEY"]);
        assert_eq!(name_words("S3Secret"), ["S3", "SECRET"]);
    }

    #[test]
    fn credential_names_are_whole_words() {
        for name in [
            "HF_TOKEN",
            "HUGGING_FACE_HUB_TOKEN",
            "WANDB_API_KEY",
            "OPENAI_API_KEY",
            "AWS_SECRET_ACCESS_KEY",
            "MLFLOW_TRACKING_PASSWORD",
            "DB_PASSWD",
            "GOOGLE_APPLICATION_CREDENTIALS_JSON",
            "PRIVATE_KEY",
            "apiKey",
            "CLIENT_SECRET",
            "REDIS_CREDENTIAL",
        ] {
            assert!(credential_name(name), "{name}");
        }
        for name in [
            "MAX_NUM_BATCHED_TOKENS",
            "MAX_NEW_TOKENS",
            "TOKENIZERS_PARALLELISM",
            "TOKENIZER_NAME",
            "HF_TOKEN_PATH",
            "GOOGLE_APPLICATION_CREDENTIALS_FILE",
            "SECRET_NAME",
            "MODEL_ID",
            "KEY",
            "PASSWORD_MIN_LENGTH",
            "MONKEY",
            "AWS_ACCESS_KEY_ID",
        ] {
            assert!(!credential_name(name), "{name}");
        }
    }

    #[test]
    fn placeholders_are_not_secrets() {
        for value in [
            "",
            " ",
            "changeme",
            "CHANGE_ME",
            "change-me",
            "<your-hf-token>",
            "${HF_TOKEN}",
            "$(HF_TOKEN)",
            "{{ .Values.token }}",
            "/var/run/secrets/hf/token",
            "xxxxxxxx",
            "****",
            "true",
            "8080",
            "your_token_here",
            "REDACTED",
        ] {
            assert!(placeholder(value), "{value:?}");
        }
        for value in ["hunter2", "s3cr3t-Passw0rd", "hf_abc"] {
            assert!(!placeholder(value), "{value:?}");
        }
    }

    #[test]
    fn known_token_shapes() {
        let hf = "hf_aBcDeFgHiJkLmNoPqRsTuVwXyZ01234567";
        assert_eq!(known_token(hf), Some(Known::HuggingFace));
        assert_eq!(
            known_token(&format!("Bearer {hf}")),
            Some(Known::HuggingFace)
        );
        assert_eq!(known_token("hf_short"), None);
        assert_eq!(
            known_token("my-hf_aBcDeFgHiJkLmNoPqRsTuVwXyZ0123456"),
            Some(Known::HuggingFace)
        );
        assert_eq!(known_token("xhf_aBcDeFgHiJkLmNoPqRsTuVwXyZ0123456"), None);
        assert_eq!(
            known_token("sk-proj-AbCdEfGhIjKlMnOpQrStUv"),
            Some(Known::OpenAi)
        );
        assert_eq!(known_token("sk-small"), None);
        assert_eq!(
            known_token("AKIAIOSFODNN7EXAMPLE"),
            Some(Known::AwsAccessKey)
        );
        assert_eq!(known_token("AKIAios"), None);
        assert_eq!(
            known_token("ghp_0123456789abcdefghijABCDEFGHIJ012345"),
            Some(Known::GitHub)
        );
        assert_eq!(known_token("xoxb-1234567890-abcdef"), Some(Known::Slack));
        assert_eq!(
            known_token("glpat-AbCdEfGhIj0123456789"),
            Some(Known::GitLab)
        );
        assert_eq!(
            known_token("-----BEGIN OPENSSH PRIVATE KEY-----\nb3Blbn\n"),
            Some(Known::PrivateKey)
        );
        assert_eq!(
            known_token("postgresql://mlflow:s3cret@postgres:5432/mlflow"),
            Some(Known::UrlPassword)
        );
        assert_eq!(
            known_token("postgresql://mlflow@postgres:5432/mlflow"),
            None
        );
        assert_eq!(known_token("http://mlflow:5000"), None);
        assert_eq!(
            known_token("postgresql://mlflow:${DB_PASSWORD}@postgres/mlflow"),
            None
        );
        assert_eq!(known_token("meta-llama/Llama-3.1-8B-Instruct"), None);
        assert_eq!(known_token("sk-llama-3-8b-instruct-finetuned"), None);
        assert_eq!(
            known_token("hf_datasets_cache_directory_for_training"),
            None
        );
        assert_eq!(known_token("task-classification-v2"), None);
    }

    #[test]
    fn masks_show_at_most_four_characters() {
        assert_eq!(masked("hf_aBcDeFgHiJkLmNoPqRsTuVwXyZ01234567"), "hf_a…");
        assert_eq!(masked("hunter2"), "h…");
        assert_eq!(masked("abc"), "…");
        assert_eq!(masked("密碼密碼密碼密碼"), "密碼…");
    }

    #[test]
    fn secret_names_for_the_help() {
        assert_eq!(secret_name("HF_TOKEN"), "hf-token");
        assert_eq!(secret_name("__"), "app-secret");
    }
}
