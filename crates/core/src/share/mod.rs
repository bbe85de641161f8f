//! Share links: the whole text in the URL fragment (issue 4), as
//! `#v1.<base64url of raw DEFLATE>` (encoded by `deflate.rs`, decoded by
//! miniz_oxide). The fragment never reaches a server,
//! so a link works from the static site and offline.
//!
//! `#v2.<text>.<picture>` (issue 28) adds a second part: the picture of the
//! simulation an embed shows before its engine loads (`picture::Picture`'s
//! payload, raw DEFLATE and base64url like the text), which the page's
//! loader (`web/facade.js`) inflates with the browser's own
//! `DecompressionStream("deflate-raw")`. The text part is the same as v1's;
//! every v1 link keeps opening.
//!
//! Decoding treats the fragment as hostile: a wrong prefix, bad base64, a
//! corrupt stream or a text that inflates past [`MAX_TEXT_BYTES`] is an
//! error the page shows, never a panic, a hang or a blank page.

mod deflate;
pub mod embed;

use miniz_oxide::inflate::{decompress_to_vec_with_limit, DecompressError};

/// The format's prefix: the text alone.
pub const PREFIX: &str = "v1.";
/// The prefix of a link that carries a picture after its text.
pub const PREFIX_V2: &str = "v2.";
/// The longest picture payload a link may carry once inflated.
pub const MAX_PICTURE_BYTES: usize = 256 * 1024;
/// The longest text a link may carry once inflated (the editor's own limit
/// is larger; a link is for one example, not a cluster dump).
pub const MAX_TEXT_BYTES: usize = 256 * 1024;
/// The longest fragment the page writes: browsers and chat apps cut longer
/// URLs (Chromium keeps 2 MB, but many tools stop near 8 KB).
pub const MAX_FRAGMENT_BYTES: usize = 8 * 1024;

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ShareError {
    /// The text compresses to more than `MAX_FRAGMENT_BYTES`.
    TooLong { fragment_bytes: usize },
    /// Not `v1.` followed by base64url.
    NotALink,
    /// The data is not a DEFLATE stream, or not UTF-8.
    Corrupt,
    /// It inflates past `MAX_TEXT_BYTES`.
    TooLarge,
}

/// The fragment (without `#`) for a text.
pub fn encode(text: &str) -> Result<String, ShareError> {
    let compressed = deflate::compress(text.as_bytes());
    let fragment = format!("{PREFIX}{}", base64url(&compressed));
    if fragment.len() > MAX_FRAGMENT_BYTES {
        return Err(ShareError::TooLong {
            fragment_bytes: fragment.len(),
        });
    }
    Ok(fragment)
}

/// The fragment for a text and the picture of its simulation
/// (`picture::Picture::to_payload`): `v2.` when both fit in
/// `MAX_FRAGMENT_BYTES`, else the text alone as `encode` writes it. The
/// boolean says whether the picture is in.
pub fn encode_with_picture(text: &str, picture: &str) -> Result<(String, bool), ShareError> {
    let plain = encode(text)?;
    let body = plain.strip_prefix(PREFIX).unwrap_or(&plain);
    let picture = base64url(&deflate::compress(picture.as_bytes()));
    let fragment = format!("{PREFIX_V2}{body}.{picture}");
    if fragment.len() > MAX_FRAGMENT_BYTES {
        return Ok((plain, false));
    }
    Ok((fragment, true))
}

/// The text of a fragment (with or without the leading `#`): `v1.` or
/// `v2.` (whose picture is not read here).
pub fn decode(fragment: &str) -> Result<String, ShareError> {
    let fragment = fragment.strip_prefix('#').unwrap_or(fragment);
    let data = match fragment.strip_prefix(PREFIX) {
        Some(data) => data,
        None => {
            let rest = fragment
                .strip_prefix(PREFIX_V2)
                .ok_or(ShareError::NotALink)?;
            rest.split_once('.').map_or(rest, |(text, _)| text)
        }
    };
    inflate(data, MAX_TEXT_BYTES)
}

/// The picture payload of a `v2.` fragment, if it carries one that
/// inflates to UTF-8 within `MAX_PICTURE_BYTES`.
pub fn picture(fragment: &str) -> Option<String> {
    let fragment = fragment.strip_prefix('#').unwrap_or(fragment);
    let (_, picture) = fragment.strip_prefix(PREFIX_V2)?.split_once('.')?;
    inflate(picture, MAX_PICTURE_BYTES).ok()
}

fn inflate(data: &str, limit: usize) -> Result<String, ShareError> {
    let bytes = from_base64url(data).ok_or(ShareError::NotALink)?;
    let inflated =
        decompress_to_vec_with_limit(&bytes, limit).map_err(|error: DecompressError| {
            if error.status == miniz_oxide::inflate::TINFLStatus::HasMoreOutput {
                ShareError::TooLarge
            } else {
                ShareError::Corrupt
            }
        })?;
    String::from_utf8(inflated).map_err(|_| ShareError::Corrupt)
}

const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

/// RFC 4648 §5 without padding.
fn base64url(bytes: &[u8]) -> String {
    let mut out = String::with_capacity(bytes.len().div_ceil(3) * 4);
    for chunk in bytes.chunks(3) {
        let b = [
            chunk[0],
            chunk.get(1).copied().unwrap_or(0),
            chunk.get(2).copied().unwrap_or(0),
        ];
        let n = (u32::from(b[0]) << 16) | (u32::from(b[1]) << 8) | u32::from(b[2]);
        for i in 0..=chunk.len() {
            out.push(char::from(ALPHABET[(n >> (18 - 6 * i) & 63) as usize]));
        }
    }
    out
}

fn from_base64url(text: &str) -> Option<Vec<u8>> {
    let text = text.trim_end_matches('=');
    let mut out = Vec::with_capacity(text.len() * 3 / 4);
    let mut acc: u32 = 0;
    let mut bits = 0;
    for byte in text.bytes() {
        let value = match byte {
            b'A'..=b'Z' => byte - b'A',
            b'a'..=b'z' => byte - b'a' + 26,
            b'0'..=b'9' => byte - b'0' + 52,
            b'-' | b'+' => 62,
            b'_' | b'/' => 63,
            _ => return None,
        };
        acc = (acc << 6) | u32::from(value);
        bits += 6;
        if bits >= 8 {
            bits -= 8;
            out.push((acc >> bits) as u8);
            acc &= (1 << bits) - 1;
        }
    }
    // A single leftover character cannot hold a byte.
    (bits < 6).then_some(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use miniz_oxide::deflate::compress_to_vec;
    use proptest::prelude::*;

    #[test]
    fn a_manifest_round_trips_and_stays_short() {
        let text = include_str!("../../../../tests/golden/crash-loop-liveness-40s.yaml");
        let fragment = encode(text).expect("fits");
        assert!(fragment.starts_with("v1."));
        assert!(
            fragment.len() < text.len(),
            "{} vs {}",
            fragment.len(),
            text.len()
        );
        assert!(fragment
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_' || b == b'.'));
        assert_eq!(decode(&format!("#{fragment}")).as_deref(), Ok(text));
    }

    /// Incompressible: 20,000 pseudo-random letters.
    fn alphabet_soup(mut state: u64) -> String {
        (0..20_000)
            .map(|_| {
                state = state
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                char::from(b'a' + (state >> 59) as u8 % 26)
            })
            .collect()
    }

    #[test]
    fn a_v2_link_carries_the_text_and_a_picture() {
        let text = include_str!("../../../../tests/golden/crash-loop-liveness-40s.yaml");
        let (fragment, with_picture) =
            encode_with_picture(text, "podlab 0 at=1 lang=en\n<p>x</p>").expect("fits");
        assert!(with_picture);
        assert!(fragment.starts_with("v2."));
        assert_eq!(decode(&fragment).as_deref(), Ok(text));
        assert_eq!(
            picture(&format!("#{fragment}")).as_deref(),
            Some("podlab 0 at=1 lang=en\n<p>x</p>")
        );
        // The text part is v1's.
        let v1 = encode(text).expect("fits");
        assert!(fragment.starts_with(&format!("v2.{}.", &v1[3..])));
        assert_eq!(picture(&v1), None);
        // A picture too large for a link is left out: the text alone.
        let soup = alphabet_soup(7);
        assert_eq!(encode_with_picture(text, &soup), Ok((v1, false)));
        assert_eq!(decode("v2.***.AAAA"), Err(ShareError::NotALink));
        assert_eq!(picture("v2.AAAA.***"), None);
    }

    #[test]
    fn bad_fragments_are_errors() {
        assert_eq!(decode(""), Err(ShareError::NotALink));
        assert_eq!(decode("#hello"), Err(ShareError::NotALink));
        assert_eq!(decode("v1.***"), Err(ShareError::NotALink));
        assert_eq!(decode("v1.AAAA"), Err(ShareError::Corrupt));
        // A valid stream of 1 MiB of zeros is refused, not inflated.
        let bomb = format!(
            "v1.{}",
            base64url(&compress_to_vec(&vec![b'a'; 1 << 20], 9))
        );
        assert_eq!(decode(&bomb), Err(ShareError::TooLarge));
        // Not UTF-8.
        let latin1 = format!("v1.{}", base64url(&compress_to_vec(&[0xff, 0xfe], 9)));
        assert_eq!(decode(&latin1), Err(ShareError::Corrupt));
    }

    #[test]
    fn a_text_too_long_for_a_link_says_how_long() {
        let text = alphabet_soup(1);
        match encode(&text) {
            Err(ShareError::TooLong { fragment_bytes }) => {
                assert!(fragment_bytes > MAX_FRAGMENT_BYTES)
            }
            other => panic!("{other:?}"),
        }
    }

    proptest! {
        #[test]
        fn base64url_round_trips(bytes in proptest::collection::vec(any::<u8>(), 0..300)) {
            prop_assert_eq!(from_base64url(&base64url(&bytes)), Some(bytes));
        }

        #[test]
        fn any_text_round_trips(text in "\\PC{0,400}") {
            let fragment = encode(&text).expect("short");
            prop_assert_eq!(decode(&fragment), Ok(text));
        }

        #[test]
        fn decoding_garbage_never_panics(garbage in "v1\\.[A-Za-z0-9_-]{0,200}") {
            let _ = decode(&garbage);
        }
    }
}
