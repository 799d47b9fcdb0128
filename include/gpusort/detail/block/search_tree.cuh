// The classifier: the bucket of a key among sorted splitters (Sanders &
// Winkel 2004, "Super Scalar Sample Sort", section 3.1: the splitters as an
// implicit search tree). Sample sort's buckets (255 splitters) and
// quicksort's multi-pivot classes (31 pivots) both use it.
// The S = 2^LEVELS - 1 splitters of a segment (255 for sample sort), as
// ranks under the call's order, sit in shared memory in level order: node 1
// is the median, node j has children 2j and 2j + 1, so node j at depth
// t = floor(log2 j) holds sorted splitter (2 (j - 2^t) + 1) 2^(LEVELS-1-t) - 1.
// A key descends LEVELS levels with j = 2j + (node[j] < rank): no
// data-dependent branch, one compare and one shared load per level, and
// j - (S + 1) = pos, the number of splitters whose rank is below the key's.
// Splitters may repeat: "node < rank" is monotone over the sorted
// splitters, so pos is exact.
// Equality test: the smallest splitter >= the key is the node of the last
// left turn (none when every turn went right, pos = S), which the descent
// keeps. Buckets: 2 pos + 1 when that splitter's rank equals the key's,
// else 2 pos: 2 S + 1 of them.
#pragma once

#include <cstddef>

namespace gpusort::detail::block {

template <class Ord, int LEVELS> struct splitter_tree {
  using U = typename Ord::carried;  // ranks have the carried type too
  static constexpr int leaves = 1 << LEVELS;
  static constexpr int splitters = leaves - 1;
  static constexpr int buckets = 2 * splitters + 1;
  U node[leaves];  // node[0] is unused (set, so bucket_indexed's equality test may read it)

  // Block-cooperative: one segment's `splitters` sorted splitters, ranked,
  // in level order. The caller syncs before the first bucket() and before
  // a reload.
  __device__ __forceinline__ void load(const Ord& ord, const U* s) {
    for (int j = threadIdx.x; j < leaves; j += blockDim.x) {
      if (j == 0) {
        node[0] = U(0);
        continue;
      }
      const int depth = 31 - __clz(j);
      const int sorted = ((2 * (j - (1 << depth)) + 1) << (LEVELS - 1 - depth)) - 1;
      node[j] = ord.rank(s[sorted]);
    }
  }

  // Bucket of carried key k, in [0, buckets). The descent keeps the byte
  // offset of node j (child: 2 offset + the compare's width) and the last
  // splitter it turned left at, which is the smallest splitter >= the key:
  // the equality test needs no second read (none left: ~rank, never equal).
  __device__ __forceinline__ unsigned bucket(const Ord& ord, U k) const {
    const U r = ord.rank(k);
    const char* base = reinterpret_cast<const char*>(node);
    unsigned o = unsigned(sizeof(U));
    U above = U(~r);
#pragma unroll
    for (int l = 0; l < LEVELS; ++l) {
      const U x = *reinterpret_cast<const U*>(base + o);
      const bool right = x < r;
      o = 2 * o + (right ? unsigned(sizeof(U)) : 0u);
      above = right ? above : x;
    }
    const unsigned range = 2 * (o / unsigned(sizeof(U)) - leaves);
    return range + (above == r ? 1u : 0u);
  }

  // The same bucket by node indices, the equality test re-reading the node
  // of the last left turn (the ancestor named by j's lowest zero bit):
  // sample sort's scatter, one descent at a time, where the byte walk above
  // measured 2-3% slower (docs/perf/sample.md).
  __device__ __forceinline__ unsigned bucket_indexed(const Ord& ord, U k) const {
    const U r = ord.rank(k);
    unsigned j = 1;
#pragma unroll
    for (int l = 0; l < LEVELS; ++l) j = 2 * j + (node[j] < r ? 1u : 0u);
    const unsigned at = j >> __ffs(~j);  // last left turn: 0 if none
    const unsigned range = 2 * (j - leaves);
    return range + ((at != 0) & (node[at] == r) ? 1u : 0u);
  }
};

}  // namespace gpusort::detail::block
