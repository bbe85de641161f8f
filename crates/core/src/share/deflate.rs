//! A small raw-DEFLATE encoder (RFC 1951): LZ77 with hash chains and one
//! block of fixed Huffman codes. Share links only need a decent ratio on
//! YAML; miniz_oxide's full compressor cost the web build more than the
//! rest of the share feature (issue 4's size budget). Decoding stays with
//! miniz_oxide's inflate, which reads any valid stream.

const WINDOW: usize = 32 * 1024;
const MIN_MATCH: usize = 3;
const MAX_MATCH: usize = 258;
const HASH_BITS: u32 = 14;
const CHAIN: usize = 64;

/// (base length, extra bits) of length codes 257..=285.
const LENGTHS: [(u16, u8); 29] = [
    (3, 0),
    (4, 0),
    (5, 0),
    (6, 0),
    (7, 0),
    (8, 0),
    (9, 0),
    (10, 0),
    (11, 1),
    (13, 1),
    (15, 1),
    (17, 1),
    (19, 2),
    (23, 2),
    (27, 2),
    (31, 2),
    (35, 3),
    (43, 3),
    (51, 3),
    (59, 3),
    (67, 4),
    (83, 4),
    (99, 4),
    (115, 4),
    (131, 5),
    (163, 5),
    (195, 5),
    (227, 5),
    (258, 0),
];

/// (base distance, extra bits) of distance codes 0..=29.
const DISTANCES: [(u16, u8); 30] = [
    (1, 0),
    (2, 0),
    (3, 0),
    (4, 0),
    (5, 1),
    (7, 1),
    (9, 2),
    (13, 2),
    (17, 3),
    (25, 3),
    (33, 4),
    (49, 4),
    (65, 5),
    (97, 5),
    (129, 6),
    (193, 6),
    (257, 7),
    (385, 7),
    (513, 8),
    (769, 8),
    (1025, 9),
    (1537, 9),
    (2049, 10),
    (3073, 10),
    (4097, 11),
    (6145, 11),
    (8193, 12),
    (12289, 12),
    (16385, 13),
    (24577, 13),
];

struct Bits {
    out: Vec<u8>,
    acc: u32,
    count: u32,
}

impl Bits {
    /// `n` bits of `value`, least significant first.
    fn put(&mut self, value: u32, n: u32) {
        self.acc |= value << self.count;
        self.count += n;
        while self.count >= 8 {
            self.out.push(self.acc as u8);
            self.acc >>= 8;
            self.count -= 8;
        }
    }

    /// A Huffman code: its bits go most significant first.
    fn code(&mut self, code: u32, n: u32) {
        self.put(code.reverse_bits() >> (32 - n), n);
    }

    /// The fixed literal/length code of a symbol (RFC 1951 §3.2.6).
    fn symbol(&mut self, symbol: u32) {
        match symbol {
            0..=143 => self.code(0x30 + symbol, 8),
            144..=255 => self.code(0x190 + symbol - 144, 9),
            256..=279 => self.code(symbol - 256, 7),
            _ => self.code(0xc0 + symbol - 280, 8),
        }
    }

    fn finish(mut self) -> Vec<u8> {
        if self.count > 0 {
            self.out.push(self.acc as u8);
        }
        self.out
    }
}

/// `data` as one final fixed-Huffman block.
pub fn compress(data: &[u8]) -> Vec<u8> {
    let mut bits = Bits {
        out: Vec::with_capacity(data.len() / 2 + 16),
        acc: 0,
        count: 0,
    };
    bits.put(1, 1); // BFINAL
    bits.put(1, 2); // BTYPE 01: fixed Huffman codes
    let mut head = vec![usize::MAX; 1 << HASH_BITS];
    let mut prev = vec![usize::MAX; data.len()];
    let hash = |at: usize| {
        let v = u32::from(data[at]) | u32::from(data[at + 1]) << 8 | u32::from(data[at + 2]) << 16;
        (v.wrapping_mul(0x9e37_79b1) >> (32 - HASH_BITS)) as usize
    };
    let insert = |at: usize, head: &mut Vec<usize>, prev: &mut Vec<usize>| {
        if at + MIN_MATCH <= data.len() {
            let h = hash(at);
            prev[at] = head[h];
            head[h] = at;
        }
    };
    let mut at = 0;
    while at < data.len() {
        let mut best = (0, 0);
        if at + MIN_MATCH <= data.len() {
            let mut candidate = head[hash(at)];
            let limit = (data.len() - at).min(MAX_MATCH);
            for _ in 0..CHAIN {
                if candidate == usize::MAX || at - candidate > WINDOW {
                    break;
                }
                let length = data[candidate..]
                    .iter()
                    .zip(&data[at..at + limit])
                    .take_while(|(a, b)| a == b)
                    .count();
                if length > best.0 {
                    best = (length, at - candidate);
                    if length == limit {
                        break;
                    }
                }
                candidate = prev[candidate];
            }
        }
        if best.0 >= MIN_MATCH {
            let (length, distance) = best;
            let code = LENGTHS
                .iter()
                .rposition(|(base, _)| usize::from(*base) <= length)
                .unwrap_or(0);
            let (base, extra) = LENGTHS[code];
            bits.symbol(257 + code as u32);
            bits.put((length - usize::from(base)) as u32, u32::from(extra));
            let code = DISTANCES
                .iter()
                .rposition(|(base, _)| usize::from(*base) <= distance)
                .unwrap_or(0);
            let (base, extra) = DISTANCES[code];
            bits.code(code as u32, 5);
            bits.put((distance - usize::from(base)) as u32, u32::from(extra));
            for position in at..at + length {
                insert(position, &mut head, &mut prev);
            }
            at += length;
        } else {
            bits.symbol(u32::from(data[at]));
            insert(at, &mut head, &mut prev);
            at += 1;
        }
    }
    bits.symbol(256);
    bits.finish()
}

#[cfg(test)]
mod tests {
    use super::*;
    use miniz_oxide::inflate::decompress_to_vec;
    use proptest::prelude::*;

    #[test]
    fn yaml_round_trips_and_shrinks() {
        let text = include_str!("../../../../tests/golden/gpu-memory-at-run-time.yaml");
        let packed = compress(text.as_bytes());
        assert!(
            packed.len() * 2 < text.len(),
            "{} of {}",
            packed.len(),
            text.len()
        );
        assert_eq!(
            decompress_to_vec(&packed).ok().as_deref(),
            Some(text.as_bytes())
        );
    }

    proptest! {
        #[test]
        fn any_bytes_round_trip(data in proptest::collection::vec(prop_oneof![Just(b'a'), Just(b'b'), any::<u8>()], 0..3000)) {
            let packed = compress(&data);
            prop_assert_eq!(decompress_to_vec(&packed).ok(), Some(data));
        }
    }
}
