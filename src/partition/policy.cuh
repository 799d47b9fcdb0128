// The distribution step that sample sort and quicksort share: every key of
// a segment goes to the bucket its segment's sorted splitters give it
// (block::splitter_tree), in two launches over a level's work items:
//   count    count.cuh: each item's bucket counts, published by the policy
//            (sample sort: a table cell per bucket and tile, scanned after;
//            quicksort: one atomicAdd per class into its segment's counts)
//   scatter  scatter.cuh: classify, rank by bucket, exchange in shared
//            memory, store each bucket's run coalesced; where a run goes is
//            the policy's (sample sort: the scanned table; quicksort: an
//            atomicAdd on the class's cursor, as soon as the counts are known)
// Sample sort (Sintorn & Assarsson 2008; Sanders & Winkel 2004, "Super
// Scalar Sample Sort") ranks stably by warp multi-split; quicksort
// (Cederman & Tsigas 2008, multi-pivot after Aumüller & Dietzfelbinger
// 2016) by one shared atomic a key, unstably.
//
// A policy P provides, for the kernels:
//   P::threads, P::count_items, P::scatter_items, P::bits   block shape,
//            keys a thread per chunk, and bucket bits (a pad bucket above
//            every real one is (1 << bits) - 1)
//   P::buckets, P::tree_levels   real buckets; splitters = 2^levels - 1
//   P::count_blocks, P::scatter_blocks   blocks per SM (__launch_bounds__)
//   P::stable, P::values_early   ranker; values loaded with the keys (held
//            in registers) or after the keys are out
//   P::reserve_early             place each bucket's run as soon as the
//            counts are known, inside the ranking (atomics that overlap it),
//            or after it (no base held in registers while it runs)
//   P::one_chunk                 every work item is at most one chunk (no
//            chunk loop)
//   P::indexed_descent           optional: the scatter's tree descent by
//            node indices (block::splitter_tree::bucket_indexed)
//   items()                      work items of the launch (device)
//   item(w) -> {seg, first, valid} and policy data: keys [first, first +
//            valid) of the source, all in segment seg
//   splitters(seg)               the segment's sorted splitters (carried)
//   bucket(ord, key, index)      optional (the policy's `classifies`): the
//            key's bucket by the policy's own rule, given its index in the
//            source (the multi-GPU sort's tags); the search tree is then
//            neither loaded nor read
//   publish(item, b, count)      count kernel: bucket b's count of the item
//   cursor begin(item)           scatter: a thread's state for its buckets
//   base(cursor&, item, b, u, count) -> where bucket b's next `count` keys
//            go (u: the thread's u-th bucket)
#pragma once

#include <gpusort/detail/block/search_tree.cuh>

#include <cstddef>

namespace gpusort::detail::partition {

// Loads segment `seg`'s splitters as the block's search tree unless already
// there. Block-uniform; the caller syncs before the first descent, and had
// synced since the last one.
template <class Policy> inline constexpr bool classifies = requires { Policy::classifies; };

template <class Tree, class Ord, class Policy>
__device__ __forceinline__ void use_segment(Tree& tree, const Ord& ord, const Policy& pol, unsigned seg,
                                            unsigned& loaded) {
  if constexpr (classifies<Policy>) return;
  if (seg == loaded) return;
  tree.load(ord, pol.splitters(seg));
  loaded = seg;
}

template <class Policy> inline constexpr unsigned pad_bucket = (1u << Policy::bits) - 1;

// Whether the scatter descends by node indices (block::splitter_tree::
// bucket_indexed) rather than byte offsets: a policy's optional
// `indexed_descent`.
template <class Policy> constexpr bool indexed_descent() {
  if constexpr (requires { Policy::indexed_descent; }) return Policy::indexed_descent;
  else return false;
}

// Keys a thread per scatter chunk (a policy's scatter_items) when the
// chunk's exchange holds the larger of key and value in EXCHANGE_BYTES of
// static shared memory: at most MAX.
template <int THREADS, int EXCHANGE_BYTES, int MAX, class U, class P>
inline constexpr int scatter_items_for =
    std::size_t(EXCHANGE_BYTES) / (std::size_t(THREADS) * (sizeof(U) > sizeof(P) ? sizeof(U) : sizeof(P))) <
            std::size_t(MAX)
        ? int(std::size_t(EXCHANGE_BYTES) / (std::size_t(THREADS) * (sizeof(U) > sizeof(P) ? sizeof(U) : sizeof(P))))
        : MAX;

// The bucket of carried key k, at `index` of the source; the pad bucket
// where !live. BRANCH_FREE: the tree's descent runs for every lane (a pad
// key is as good as any) and the result is selected, so the unrolled
// chunk's descents interleave (the count, whose registers hold little
// else); otherwise one descent at a time under a branch (the scatter, whose
// registers hold the chunk and the ranker's state), by node indices where
// the policy says `indexed_descent` (measured per family). A policy's own
// rule is asked for live keys only.
template <bool BRANCH_FREE, class Tree, class Ord, class Policy, class U>
__device__ __forceinline__ unsigned classify(const Tree& tree, const Ord& ord, const Policy& pol, U k,
                                             std::size_t index, bool live) {
  if constexpr (classifies<Policy>) {
    return live ? pol.bucket(ord, k, index) : pad_bucket<Policy>;
  } else if constexpr (BRANCH_FREE) {
    const unsigned b = tree.bucket(ord, k);
    return live ? b : pad_bucket<Policy>;
  } else if constexpr (indexed_descent<Policy>()) {
    return live ? tree.bucket_indexed(ord, k) : pad_bucket<Policy>;
  } else {
    return live ? tree.bucket(ord, k) : pad_bucket<Policy>;
  }
}

}  // namespace gpusort::detail::partition
