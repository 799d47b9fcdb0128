// GPU quicksort (Cederman & Tsigas 2008, "A practical quicksort algorithm
// for graphics processors"; the article "GPU sorting" (2024)'s warp-ballot partition; multi-pivot
// partitions after Aumüller & Dietzfelbinger 2016, "How to Generalize
// Quicksort"): the one tuning struct, read by kernels and host alike. See
// family.cuh for the design and the phases.
#pragma once

#include <gpusort/detail/core/launch.cuh>
#include <gpusort/detail/core/payload.cuh>
#include <gpusort/detail/merge/merge_sort.cuh>

#include <cstddef>

namespace gpusort::detail::quick {

// The knobs measured on the H200 (docs/perf/quick.md): pivots per segment
// 2^TREE_LEVELS - 1, children aimed at FILL tenths of a block-sort tile,
// and the blocks per SM the count and partition kernels' registers allow.
template <class U, class P, int TREE_LEVELS, int FILL, int COUNT_BLOCKS, int PARTITION_BLOCKS> struct tuning_of {
  static constexpr int element = element_bytes<U, P>;

  // Pivots per segment: 2^TREE_LEVELS - 1 (31), so a partition has
  // 2 pivots + 1 classes (63) in key order (2j: between pivots j - 1 and j;
  // 2j + 1: equal to pivot j), ranked as a TREE_LEVELS + 1 bit digit. A
  // segment uses 2 to `ranges` of the ranges (fanout()); the pivots past
  // its last real one repeat it, leaving their ranges empty.
  static constexpr int tree_levels = TREE_LEVELS;
  static constexpr int pivots = (1 << tree_levels) - 1;
  static constexpr int ranges = pivots + 1;
  static constexpr int classes = 2 * pivots + 1;
  static constexpr int class_bits = tree_levels + 1;
  static_assert(classes < (1 << class_bits), "a pad class above every class");

  // count and partition: one block takes one work item at a time, a chunk
  // of `chunk` keys of one segment (threads x items, warp-striped). The
  // partition's shared exchange (keys or values, and one byte of class a
  // key) stays within 32 KB of the 48 KB of static shared memory.
  static constexpr int threads = 256;
  static constexpr int warps = threads / 32;
  static constexpr int exchange_bytes = 32 * 1024;
  static constexpr std::size_t widest = sizeof(U) > sizeof(P) ? sizeof(U) : sizeof(P);
  static constexpr int items = exchange_bytes / (threads * widest) < 16 ? int(exchange_bytes / (threads * widest)) : 16;
  static_assert(items >= 1, "quick: element too wide for the partition chunk");
  static constexpr int chunk = threads * items;
  // blocks per SM the kernels' registers must allow (1: no bound)
  static constexpr int count_blocks = COUNT_BLOCKS;
  static constexpr int partition_blocks = PARTITION_BLOCKS;

  // small segments (<= one merge block-sort tile: 9728 keys for 4-byte
  // keys, 5632 for 8-byte elements) are sorted by the merge family's block
  // sort, merge::segment_sort_kernel, at merge::sort's first-stage shape
  using block = merge::tuning<U, P>;
  static constexpr int leaf_threads = block::sort_threads, leaf_items = block::items, leaf_blocks = block::sort_blocks;
  static constexpr int small_max = leaf_threads * leaf_items;
  // Children are aimed at `fill` tenths of a block-sort tile: the block sort
  // costs about the same for any fill, and sampled pivots leave children of
  // size/ranges x (1 +- ~25%), so few overshoot the tile.
  static constexpr int fill = FILL;
  static constexpr std::size_t target = std::size_t(small_max) * fill / 10;

  // Ranges of a segment of `size` keys (> small_max): the fewest levels of
  // at most `ranges`-way splits that bring it down to `target`, and the
  // fewest ranges that do it in that many levels (an even split over the
  // levels: 2^26 u32 keys take 3 levels of 22-way splits).
  __host__ __device__ static int fanout(std::size_t size) {
    const double m = double(size) / double(target);
    int levels = 1;
    for (double reach = ranges; reach < m; reach *= ranges) ++levels;
    int r = 2;
    for (; r < ranges; ++r) {
      double reach = 1;
      for (int l = 0; l < levels; ++l) reach *= r;
      if (reach >= m) break;
    }
    return r;
  }

  // pivot choice: `samples` keys at hashed, stratified positions, sorted by
  // one block (merge's block sort, sample_items a thread); pivot j is the
  // sample at quantile (j + 1) / fanout: ~32 samples a range at 32 ranges,
  // so children stay within ~+-18% of size / fanout
  static constexpr int schedule_threads = 256;
  static constexpr int sample_items = 4;
  static constexpr int samples = schedule_threads * sample_items;
  static_assert(samples <= small_max, "a segment to split holds a sample");

  // A level's list counter packs (segments << chunk_bits) | work items
  // (core/work_queue.cuh's packed lists), so one atomicAdd gives a new
  // segment both its index and its first work item, and the two orders agree.
  static constexpr int chunk_bits = 40;
  static constexpr std::size_t max_segments = std::size_t(1) << (64 - chunk_bits);

  // Depth limit (introsort): segments still larger than small_max after
  // levels_needed(n) + depth_slack levels go to the fallback's merge sort
  // (partition/fallback.cuh). Good pivots need levels_needed(n) (about
  // log32(n / target)), and one level more takes the children that
  // overshoot a tile (~7% of the keys at 2^26); every one of the
  // max_levels(n) levels is launched, an empty one costing its five
  // launches, so the slack is that one level.
  static constexpr int depth_slack = 1;
  static int levels_needed(std::size_t n) {
    int levels = 0;
    for (std::size_t s = n; s > std::size_t(small_max); s = (s + fanout(s) - 1) / fanout(s)) ++levels;
    return levels;
  }
  static int max_levels(std::size_t n) { return levels_needed(n) + depth_slack; }

  // Runs of keys equal to a pivot that a level leaves in the scratch buffer
  // are copied to the output by the small sort's launch, in pieces.
  static constexpr int copy_piece = 1 << 16;

  // Segments a level can hold: they are disjoint and larger than small_max.
  static std::size_t segment_capacity(std::size_t n) { return n / (std::size_t(small_max) + 1) + 1; }
  // Entries of the small lists together (one array, kept over all levels):
  // level L has at most min(segment_capacity, ranges^L) segments, each filing
  // at most `classes` runs (children and equal runs), equal runs take one
  // entry per copy_piece more, and all entries are disjoint and non-empty.
  static std::size_t small_capacity(std::size_t n, int levels) {
    std::size_t parents = 0, level = 1;
    for (int l = 0; l < levels; ++l) {
      parents += level < segment_capacity(n) ? level : segment_capacity(n);
      if (level < segment_capacity(n)) level *= ranges;
    }
    const std::size_t filed = parents * classes + n / copy_piece + 1;
    return filed < n ? filed : n;
  }
};

// 31 pivots, children at 0.8 of a tile; 4-byte keys alone fit 8 count
// and 5 partition blocks per SM (32 and 48 registers: measured faster
// than 4 blocks at 64 despite a few spilled words), wider elements keep
// their registers
template <class U, class P>
using tuning = tuning_of<U, P, 5, 8, sizeof(U) <= 4 ? 8 : 4, element_bytes<U, P> <= 4 ? 5 : 1>;

}  // namespace gpusort::detail::quick
