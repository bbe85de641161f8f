//! The event queue: occurrences in (time, insertion) order, as a calendar.
//!
//! A day of a cluster is tens of millions of queue operations (every probe
//! tick and call return), almost all a few seconds ahead of the clock. A
//! binary heap pays a logarithm of comparisons for each; here an
//! occurrence less than `SPAN` ms ahead goes into the ring slot of its
//! millisecond (appended: insertion order within a millisecond), and one
//! further ahead waits in a small heap until the clock comes within `SPAN`
//! of it. The order is exactly that of a heap on (time, sequence number):
//! an occurrence that waited in the heap was queued before any that went
//! straight to its slot (it was `SPAN` or more ahead then, the other less),
//! and it is moved into the slot before the clock gets there.
//!
//! Every push takes the next sequence number; `reserve` takes one without
//! an occurrence, and `push_reserved` queues an occurrence later under that
//! number, in the place it would have had if pushed when the number was
//! taken (`probes.rs`: a probe call whose return can only count is queued
//! only if a tick comes while it is in flight).

use std::cmp::Ordering;
use std::collections::BinaryHeap;

use crate::manifest::duration::Millis;

const BITS: u32 = 16;
/// Milliseconds the ring covers ahead of the clock: 65.5 s, so the ticks
/// of the usual probe periods (up to a minute) and the scheduler's 30 s
/// flush never wait in the heap (at 16.4 s, a 20 s liveness period's ticks
/// all did: 8 % of the cluster bench in `BinaryHeap::pop`).
const SPAN: Millis = 1 << BITS;
const MASK: usize = (1 << BITS) - 1;
const WORDS: usize = (1 << BITS) / 64;

/// No node: the end of a slot's list or of the free list.
const NONE: u32 = u32::MAX;

pub(super) struct Queue<T> {
    /// The time of the slot being drained: every occurrence in the ring is
    /// at `now..now + SPAN`.
    now: Millis,
    /// Each slot is a list of `nodes`, oldest first: its first and last
    /// node, read only while its `occupied` bit is set (so the ring starts
    /// as zeroed pages the allocator need not write).
    first: Vec<u32>,
    last: Vec<u32>,
    nodes: Vec<Node<T>>,
    /// Nodes to reuse, linked by `next`.
    free: u32,
    /// A bit per slot that holds occurrences, and one per word of those
    /// bits that is not zero (so finding the next time skips empty seconds).
    occupied: Vec<u64>,
    words: [u64; WORDS / 64],
    /// Occurrences in the ring.
    in_ring: usize,
    later: BinaryHeap<Later<T>>,
    /// The last sequence number taken.
    seq: u64,
    /// The sequence number of the occurrence popped last.
    popped: u64,
}

struct Node<T> {
    item: T,
    seq: u64,
    next: u32,
}

/// An occurrence `SPAN` or more ahead: ordered by (time, sequence), earliest
/// first (`BinaryHeap` pops the greatest).
struct Later<T> {
    at: Millis,
    seq: u64,
    item: T,
}

impl<T> PartialEq for Later<T> {
    fn eq(&self, other: &Later<T>) -> bool {
        (self.at, self.seq) == (other.at, other.seq)
    }
}

impl<T> Eq for Later<T> {}

impl<T> PartialOrd for Later<T> {
    fn partial_cmp(&self, other: &Later<T>) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl<T> Ord for Later<T> {
    fn cmp(&self, other: &Later<T>) -> Ordering {
        (other.at, other.seq).cmp(&(self.at, self.seq))
    }
}

impl<T: Copy> Queue<T> {
    pub(super) fn new() -> Queue<T> {
        Queue {
            now: 0,
            first: vec![0; MASK + 1],
            last: vec![0; MASK + 1],
            nodes: Vec::new(),
            free: NONE,
            occupied: vec![0; WORDS],
            words: [0; WORDS / 64],
            in_ring: 0,
            later: BinaryHeap::new(),
            seq: 0,
            popped: 0,
        }
    }

    /// Queues `item` at `at`, after everything already queued at `at`.
    /// `at` is never before the last popped time.
    pub(super) fn push(&mut self, at: Millis, item: T) {
        let seq = self.reserve();
        self.push_reserved(at, seq, item);
    }

    /// Takes the next sequence number, for an occurrence that may be
    /// queued later (`push_reserved`).
    pub(super) fn reserve(&mut self) -> u64 {
        self.seq += 1;
        self.seq
    }

    /// The sequence number of the occurrence popped last: one reserved
    /// after it comes after it at the same time.
    pub(super) fn popped(&self) -> u64 {
        self.popped
    }

    /// Queues `item` at `at` under sequence number `seq` (`reserve`): at
    /// `at`, after the occurrences with a smaller number, before those
    /// with a larger one. `at` is never before the last popped time.
    pub(super) fn push_reserved(&mut self, at: Millis, seq: u64, item: T) {
        let at = at.max(self.now);
        if at - self.now < SPAN {
            self.insert(at, seq, item);
        } else {
            self.later.push(Later { at, seq, item });
        }
    }

    /// Puts `item` into the list of the slot of `at` (less than `SPAN`
    /// ahead), which is in sequence order: at its end, unless it was
    /// reserved before some already there.
    fn insert(&mut self, at: Millis, seq: u64, item: T) {
        let slot = (at as usize) & MASK;
        let occupied = self.occupied(slot);
        let mut before = if occupied { self.last[slot] } else { NONE };
        let mut after = NONE;
        if before != NONE && self.nodes[before as usize].seq > seq {
            // Walk from the front to the first node with a larger number.
            before = NONE;
            after = self.first[slot];
            while self.nodes[after as usize].seq < seq {
                before = after;
                after = self.nodes[after as usize].next;
            }
        }
        let node = Node {
            item,
            seq,
            next: after,
        };
        let index = if self.free == NONE {
            self.nodes.push(node);
            u32::try_from(self.nodes.len() - 1).expect("fewer than 2^32 queued occurrences")
        } else {
            let index = self.free;
            self.free = self.nodes[index as usize].next;
            self.nodes[index as usize] = node;
            index
        };
        match before {
            NONE => {
                if !occupied {
                    self.occupied[slot / 64] |= 1 << (slot % 64);
                    self.words[slot / 64 / 64] |= 1 << (slot / 64 % 64);
                }
                self.first[slot] = index;
            }
            before => self.nodes[before as usize].next = index,
        }
        if after == NONE {
            self.last[slot] = index;
        }
        self.in_ring += 1;
    }

    /// The earliest occurrence (the first queued among equals) and its time.
    pub(super) fn pop(&mut self) -> Option<(Millis, T)> {
        loop {
            let slot = (self.now as usize) & MASK;
            if self.occupied(slot) {
                let index = self.first[slot];
                let node = &mut self.nodes[index as usize];
                let item = node.item;
                self.popped = node.seq;
                self.first[slot] = node.next;
                node.next = self.free;
                self.free = index;
                if self.first[slot] == NONE {
                    self.occupied[slot / 64] &= !(1 << (slot % 64));
                    if self.occupied[slot / 64] == 0 {
                        self.words[slot / 64 / 64] &= !(1 << (slot / 64 % 64));
                    }
                }
                self.in_ring -= 1;
                return Some((self.now, item));
            }
            let ring = (self.in_ring > 0).then(|| self.now + self.next_occupied(slot));
            let later = self.later.peek().map(|later| later.at);
            self.now = match (ring, later) {
                (Some(a), Some(b)) => a.min(b),
                (Some(a), None) | (None, Some(a)) => a,
                (None, None) => return None,
            };
            // Into the ring, in order, everything now less than SPAN ahead.
            while self
                .later
                .peek()
                .is_some_and(|later| later.at - self.now < SPAN)
            {
                if let Some(later) = self.later.pop() {
                    self.insert(later.at, later.seq, later.item);
                }
            }
        }
    }

    /// Whether slot `slot` holds occurrences (inlined: `opt-level = "z"`
    /// leaves it a call otherwise, 3 % of the cluster bench).
    #[inline(always)]
    fn occupied(&self, slot: usize) -> bool {
        self.occupied[slot / 64] & (1 << (slot % 64)) != 0
    }

    /// Milliseconds from slot `from` (empty) to the next occupied slot, in
    /// ring order; the ring holds at least one occurrence.
    fn next_occupied(&self, from: usize) -> Millis {
        let word = from / 64;
        let bits = self.occupied[word] & (!0u64 << (from % 64));
        let slot = if bits != 0 {
            word * 64 + bits.trailing_zeros() as usize
        } else {
            // The next word with a bit, in ring order (it may be `word`
            // again, for a slot before `from`: one more turn).
            let next = next_set(&self.words, (word + 1) % WORDS).unwrap_or(word);
            next * 64 + self.occupied[next].trailing_zeros() as usize
        };
        (slot.wrapping_sub(from) & MASK) as Millis
    }
}

/// The first set bit of `bits` at index `from` or after, wrapping around.
fn next_set(bits: &[u64], from: usize) -> Option<usize> {
    let start = from / 64;
    let masked = bits[start] & (!0u64 << (from % 64));
    if masked != 0 {
        return Some(start * 64 + masked.trailing_zeros() as usize);
    }
    (1..=bits.len()).find_map(|k| {
        let i = (start + k) % bits.len();
        (bits[i] != 0).then(|| i * 64 + bits[i].trailing_zeros() as usize)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The same order as a heap on (time, sequence), with pushes while
    /// popping, near and far, and equal times.
    #[test]
    fn pops_in_time_then_insertion_order() {
        let mut queue = Queue::new();
        let mut reference: BinaryHeap<std::cmp::Reverse<(Millis, u64)>> = BinaryHeap::new();
        let mut seq = 0u64;
        let mut rng = 0x2545_f491_4f6c_dd1du64;
        let mut next = || {
            rng ^= rng << 13;
            rng ^= rng >> 7;
            rng ^= rng << 17;
            rng
        };
        let mut push = |queue: &mut Queue<u64>, reference: &mut BinaryHeap<_>, at: Millis| {
            seq += 1;
            queue.push(at, seq);
            reference.push(std::cmp::Reverse((at, seq)));
        };
        for _ in 0..50 {
            let at = next() % 100_000;
            push(&mut queue, &mut reference, at);
        }
        let mut popped = 0;
        while let Some((at, item)) = queue.pop() {
            let std::cmp::Reverse(expected) = reference.pop().unwrap();
            assert_eq!((at, item), expected);
            popped += 1;
            if popped < 20_000 {
                for _ in 0..(1 + next() % 2) {
                    let ahead = match next() % 4 {
                        0 => 0,
                        1 => next() % 50,
                        2 => next() % 20_000,
                        _ => next() % 200_000,
                    };
                    push(&mut queue, &mut reference, at + ahead);
                }
            }
        }
        assert!(reference.is_empty());
        assert!(popped > 20_000);
    }

    /// Numbers reserved and queued later (`push_reserved`) take the place
    /// they would have had if pushed when reserved: the same order as a
    /// heap on (time, sequence), near, far, at the popped time.
    #[test]
    fn reserved_occurrences_pop_in_their_reserved_place() {
        let mut queue = Queue::new();
        let mut reference: BinaryHeap<std::cmp::Reverse<(Millis, u64)>> = BinaryHeap::new();
        let mut rng = 0x9e37_79b9_7f4a_7c15u64;
        let mut next = || {
            rng ^= rng << 13;
            rng ^= rng >> 7;
            rng ^= rng << 17;
            rng
        };
        // Reserved and not queued yet: (time, number).
        let mut reserved: Vec<(Millis, u64)> = Vec::new();
        for _ in 0..50 {
            let at = next() % 100_000;
            let seq = queue.reserve();
            queue.push_reserved(at, seq, seq);
            reference.push(std::cmp::Reverse((at, seq)));
        }
        let mut popped = 0;
        while let Some((at, item)) = queue.pop() {
            let std::cmp::Reverse(expected) = reference.pop().unwrap();
            assert_eq!((at, item), expected);
            assert_eq!(queue.popped(), item);
            popped += 1;
            // Queue some reserved ones whose place is still ahead.
            let mut i = 0;
            while i < reserved.len() {
                let (r_at, r_seq) = reserved[i];
                let ahead = r_at > at || (r_at == at && r_seq > item);
                if ahead && next() % 3 == 0 {
                    queue.push_reserved(r_at, r_seq, r_seq);
                    reference.push(std::cmp::Reverse((r_at, r_seq)));
                    reserved.swap_remove(i);
                } else if !ahead {
                    reserved.swap_remove(i);
                } else {
                    i += 1;
                }
            }
            if popped < 20_000 {
                for _ in 0..(1 + next() % 2) {
                    let ahead = match next() % 4 {
                        0 => 0,
                        1 => next() % 50,
                        2 => next() % 20_000,
                        _ => next() % 200_000,
                    };
                    let seq = queue.reserve();
                    if next() % 2 == 0 {
                        queue.push_reserved(at + ahead, seq, seq);
                        reference.push(std::cmp::Reverse((at + ahead, seq)));
                    } else {
                        reserved.push((at + ahead, seq));
                    }
                }
            }
        }
        assert!(reference.is_empty());
        assert!(popped > 20_000);
    }
}
