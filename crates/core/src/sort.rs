//! A stable sort compiled once for every element type.
//!
//! `slice::sort*` is instantiated for each element type and comparator, and
//! each instance (driftsort/ipnsort) costs several KB of wasm: twenty call
//! sites were 58 KB of the web build (issue 4's size budget). Here the
//! sorting itself is one merge sort over indices with a `dyn` comparator;
//! what is generic per call site is only the permutation that follows.
//! Same results as `sort_by` (stable), O(n log n).

use std::cmp::Ordering;

/// Sorts `items` stably by `compare`.
pub fn sort_by<T>(items: &mut [T], mut compare: impl FnMut(&T, &T) -> Ordering) {
    let order = {
        let view: &[T] = items;
        order(view.len(), &mut |a, b| compare(&view[a], &view[b]))
    };
    permute(items, &order);
}

/// Sorts `items` stably by a key.
pub fn sort_by_key<T, K: Ord>(items: &mut [T], mut key: impl FnMut(&T) -> K) {
    sort_by(items, |a, b| key(a).cmp(&key(b)));
}

/// Sorts `items` stably in their natural order.
pub fn sort<T: Ord>(items: &mut [T]) {
    sort_by(items, |a, b| a.cmp(b));
}

/// The stable order of `n` items: `order[k]` is the index that goes to `k`.
fn order(n: usize, compare: &mut dyn FnMut(usize, usize) -> Ordering) -> Vec<usize> {
    let mut order: Vec<usize> = (0..n).collect();
    let mut buffer = vec![0usize; n];
    let mut width = 1;
    while width < n {
        let mut start = 0;
        while start < n {
            let middle = (start + width).min(n);
            let end = (start + 2 * width).min(n);
            let (mut left, mut right, mut out) = (start, middle, start);
            while left < middle && right < end {
                // Ties take the left run first: stable.
                if compare(order[right], order[left]) == Ordering::Less {
                    buffer[out] = order[right];
                    right += 1;
                } else {
                    buffer[out] = order[left];
                    left += 1;
                }
                out += 1;
            }
            buffer[out..out + middle - left].copy_from_slice(&order[left..middle]);
            out += middle - left;
            buffer[out..out + end - right].copy_from_slice(&order[right..end]);
            start = end;
        }
        std::mem::swap(&mut order, &mut buffer);
        width *= 2;
    }
    order
}

/// Moves `items[order[k]]` to position `k`, by swaps.
fn permute<T>(items: &mut [T], order: &[usize]) {
    // destination[i]: where the item now at i must go.
    let mut destination = vec![0usize; order.len()];
    for (k, &source) in order.iter().enumerate() {
        destination[source] = k;
    }
    for i in 0..items.len() {
        while destination[i] != i {
            let j = destination[i];
            items.swap(i, j);
            destination.swap(i, j);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        #[test]
        fn agrees_with_the_standard_stable_sort(items in proptest::collection::vec((0u8..8, any::<u16>()), 0..200)) {
            let mut ours = items.clone();
            sort_by_key(&mut ours, |(key, _)| *key);
            let mut theirs = items;
            theirs.sort_by_key(|(key, _)| *key);
            prop_assert_eq!(ours, theirs);
        }
    }

    #[test]
    fn natural_order_and_edge_cases() {
        let mut empty: Vec<u8> = Vec::new();
        sort(&mut empty);
        let mut one = vec![1];
        sort(&mut one);
        assert_eq!(one, vec![1]);
        let mut words = vec!["b", "c", "a", "b"];
        sort(&mut words);
        assert_eq!(words, vec!["a", "b", "b", "c"]);
    }
}
