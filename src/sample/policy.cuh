// Sample sort, stages 2 and 3 (Sintorn & Assarsson 2008, step 2): the count
// and the stable scatter into 511 buckets, run by the shared distribution
// kernels (partition/count.cuh, partition/scatter.cuh) under this policy.
//   work item  one tile of tuning::tile keys of one segment of the level
//              (segments.cuh), walked in chunks; the level's tiles are
//              counted on the device (its segment list's counter)
//   publish    each (segment, bucket, tile) count to its cell of the level's
//              table, bucket-major within a segment: one exclusive scan of
//              the table (cub::DeviceScan) gives every cell its place
//   base       thread t owns buckets 2t and 2t + 1 (the ranker's bins) and
//              keeps, in registers, where the tile's next key of each goes:
//              the segment's begin + its scanned cell - the segment's first
//              cell, moved on by each chunk's count
// Ranked stably (warp multi-split), chunks in order: the scatter is stable.
#pragma once

#include "partition/policy.cuh"
#include "sample/segments.cuh"
#include "sample/tuning.cuh"

#include <gpusort/detail/block/rank.cuh>
#include <gpusort/detail/core/payload.cuh>

#include <cstddef>

namespace gpusort::detail::sample {

// U: the carried key bits; P: the payload (no_value for the count).
template <class U, class P> struct level_policy {
  static constexpr int threads = tuning::threads;
  static constexpr int count_items = tuning::count_items;
  static constexpr int scatter_items =
      partition::scatter_items_for<tuning::threads, tuning::exchange_bytes, tuning::max_scatter_items, U, P>;
  static constexpr int bits = tuning::bucket_bits;
  static constexpr int buckets = tuning::buckets;
  static constexpr int tree_levels = tuning::tree_levels;
  // the scatter at 3 blocks per SM (<= 85 registers): unbounded, ptxas took
  // 103 registers and 2 blocks, and the scatter ran 28% slower; the count at
  // 5 (<= 51; 8-byte keys 3): unbounded, its interleaved branch-free
  // descents took 94 registers and 2 blocks
  static constexpr int count_blocks = sizeof(U) <= 4 ? 5 : 3, scatter_blocks = 3;
  static constexpr bool stable = true, values_early = false, reserve_early = false, one_chunk = false;
  // the scatter's descent by node indices: the byte-offset walk (the count's)
  // ran this scatter 2-3% slower at 2^26 u32, where quicksort's partition
  // is 2-3% faster with it (docs/perf/sample.md)
  static constexpr bool indexed_descent = true;
  static_assert(tuning::tile % (threads * scatter_items) == 0, "whole chunks");
  static constexpr int owned = block::block_rank<threads, scatter_items, bits>::bins_per_thread;

  segment_list segs;    // the level's segments and (its counter) tiles
  const unsigned* map;  // tile -> segment
  const U* split;       // tuning::splitters sorted splitters per segment
  std::size_t* table;   // counts, then (scanned) offsets

  struct cursor {
    std::size_t next[owned];
  };

  __device__ std::size_t items() const { return segs.work_items(); }
  __device__ tile_view item(std::size_t w) const { return tile_at(segs.items, map, w); }
  __device__ const U* splitters(unsigned seg) const { return split + std::size_t(seg) * tuning::splitters; }
  __device__ void publish(const tile_view& v, int b, unsigned n) const { table[cell(v.d, b, v.t)] = n; }
  __device__ cursor begin(const tile_view& v) const {
    cursor c;
    const std::size_t origin = v.d.begin - table[cell(v.d, 0, 0)];
#pragma unroll
    for (int u = 0; u < owned; ++u) {
      const int b = int(threadIdx.x) * owned + u;
      c.next[u] = b < buckets ? origin + table[cell(v.d, b, v.t)] : 0;
    }
    return c;
  }
  __device__ std::size_t base(cursor& c, const tile_view&, int, int u, unsigned n) const {
    const std::size_t at = c.next[u];
    c.next[u] += n;
    return at;
  }
};

}  // namespace gpusort::detail::sample
