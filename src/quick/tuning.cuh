// GPU quicksort (Cederman & Tsigas 2008, "A practical quicksort algorithm
// for graphics processors"; seed 004's warp-ballot partition): the one
// tuning struct, read by kernels and host alike. See family.cuh for the
// design and the phases.
#pragma once

#include "core/launch.cuh"
#include "core/payload.cuh"
#include "merge/merge_sort.cuh"

#include <cstddef>

namespace gpusort::detail::quick {

template <class U, class P> struct tuning {
  static constexpr int element = element_bytes<U, P>;

  // partition: one block takes one work item at a time, a chunk of `chunk`
  // keys of one segment; each warp ranks 32 x items of them by ballots.
  // Two chunk buffers in shared memory (keys and values), one being
  // filled while the other is ranked and stored: at most `chunk_bytes`
  // each (16 KB for 4-byte keys, 2 x 20 KB for 4-byte pairs), under the
  // 48 KB of static shared memory.
  static constexpr int threads = 256;
  static constexpr int warps = threads / 32;
  static constexpr int chunk_bytes = 20 * 1024;
  static constexpr int items = chunk_bytes / (threads * element) < 16 ? chunk_bytes / (threads * element) : 16;
  static_assert(items >= 1, "quick: element too wide for the partition chunk");
  static constexpr int chunk = threads * items;
  // blocks per SM the registers must allow (<= 64 registers a thread): four
  // chunks of loads in flight per SM (64 KB for 4-byte keys)
  static constexpr int min_blocks = 4;

  // small segments (<= one merge block-sort tile: 9728 keys for 4-byte
  // keys, 5632 for 8-byte elements) are sorted by the merge family's block
  // sort, merge::segment_sort_kernel, at merge::sort's first-stage shape
  using block = merge::tuning<U, P>;
  static constexpr int small_max = block::sort_tile;

  // pivot: the median of `samples` keys at hashed, stratified positions;
  // the scheduling block has one group of `samples` threads per child
  static constexpr int samples = 64;
  static constexpr int schedule_threads = 2 * samples;

  // equal runs move from the side buffer to the output in pieces
  static constexpr int copy_piece = 4096;
  static constexpr int copy_threads = 256;

  // A level's list counter packs (segments << chunk_bits) | work items, so
  // one atomicAdd gives a new segment both its index and its first work
  // item, and the two orders agree.
  static constexpr int chunk_bits = 40;
  static constexpr unsigned long long chunk_mask = (1ull << chunk_bits) - 1;
  static constexpr std::size_t max_segments = std::size_t(1) << (64 - chunk_bits);

  // Depth limit (introsort): segments still larger than small_max after
  // 2 * ceil(log2 n) + depth_slack levels go to merge::sort. Good pivots
  // need about ceil(log2(n / small_max)) + 2 levels.
  static constexpr int depth_slack = 8;
  static int max_levels(std::size_t n) { return 2 * ceil_log2(n) + depth_slack; }
  // Levels run before the host starts reading the level counters back.
  // Median-of-64 pivots leave segments of n / 2^L (1 +- ~40%) after L
  // levels, so about ceil(log2(n / small_max)) + 2 levels do real work;
  // an empty level (a few empty grids) costs less than a readback, which
  // also drains the stream.
  static int quiet_levels(std::size_t n) { return ceil_log2((n + small_max - 1) / small_max) + quiet_slack; }
  static constexpr int quiet_slack = 2;

  // Segments a level can hold: they are disjoint and larger than small_max.
  static std::size_t segment_capacity(std::size_t n) { return n / (std::size_t(small_max) + 1) + 1; }
  // Entries of each small list (kept over all levels): a level's segments
  // file at most two children each, list b takes those of every other
  // level, and small children are disjoint and non-empty.
  static std::size_t small_capacity(std::size_t n, int levels) {
    const std::size_t filed = segment_capacity(n) * std::size_t(levels + 1);
    return filed < n ? filed : n;
  }
};

}  // namespace gpusort::detail::quick
