// GPU quicksort: one level's multi-pivot partition, in two launches of the
// shared distribution kernels (partition/count.cuh, partition/scatter.cuh)
// under this policy.
// After the article "GPU sorting" (2024)'s qsort_warp (NVIDIA's cdpAdvancedQuicksort) and
// Cederman & Tsigas 2008 phase 1 (warp ballots rank the keys, one atomicAdd
// per block and class reserves their output), generalised from one pivot
// to 31 (Aumüller & Dietzfelbinger 2016, "How to Generalize Quicksort"):
// each level splits a segment up to 32 ways, so about log32 levels instead
// of log2 move the keys (3 instead of 13 at 2^26). With several pivots the
// classes' places are not known from the two ends of the segment, so each
// level counts first:
//
//   count      every key's class, summed per block in shared memory, then
//              one atomicAdd per class and chunk into its segment's counts
//              (read 1x)
//   offsets    schedule.cuh: each segment's classes laid out in key order
//   partition  rank, reserve, exchange, store (read 1x, write 1x)
//
// Classes (tuning.cuh): 2j for keys between pivots j - 1 and j (a child
// segment, partitioned again or block-sorted), 2j + 1 for keys equal to
// pivot j (finished: three-way partitioning generalised, so all-equal and
// few-unique inputs take one level). A key's class is a descent of the
// pivots' search tree in shared memory (block/search_tree.cuh) under the
// call's order: "equal" means neither is less (bit ranges, -0.0 == +0.0).
//
// Both kernels run a grid of resident blocks over the level's work items
// (queues.cuh): block b takes items b, b + grid, ... Each item is at most
// `chunk` keys of one segment; the block reloads the search tree only when
// the segment changes.
//
// The partition, per chunk:
//   load       keys (and values) into registers, warp-striped (coalesced),
//              all in flight, then each key's class
//   rank       block::block_rank::rank_unstable on the class: each key's
//              rank in its warp's class is the old value of one shared
//              atomicAdd (the article "GPU sorting" (2024) ranks by ballot + popc, which for 63
//              classes takes 6 ballots a key and measured slower), and a
//              block scan of the warps' counts gives each class's first
//              slot in the chunk
//   reserve    thread c does one atomicAdd on class c's cursor of the
//              segment, as soon as the counts are known (it overlaps the
//              scan and the ranking)
//   exchange   keys (then values) to shared memory in class order
//   store      consecutive threads store consecutive slots: each class
//              leaves as one contiguous run, coalesced
// Not stable: chunks reserve in whatever order their atomics land.
#pragma once

#include "quick/queues.cuh"

#include <cstddef>

namespace gpusort::detail::quick {

// One work item as the shared kernels see it.
struct item_view {
  unsigned seg;
  std::size_t first;
  int valid;
};

template <class Tune, class List> struct level_policy {
  static constexpr int threads = Tune::threads;
  static constexpr int count_items = Tune::items, scatter_items = Tune::items;
  static constexpr int bits = Tune::class_bits;
  static constexpr int buckets = Tune::classes;
  static constexpr int tree_levels = Tune::tree_levels;
  static constexpr int count_blocks = Tune::count_blocks, scatter_blocks = Tune::partition_blocks;
  static constexpr bool stable = false, values_early = true, reserve_early = true, one_chunk = true;
  static_assert(Tune::chunk == threads * scatter_items && buckets <= threads, "one chunk an item; one class a thread");

  List segs;  // the level's segments, counted with their work items
  const work* map;

  struct cursor {};

  __device__ std::size_t items() const { return segs.work_items(); }
  __device__ item_view item(std::size_t w) const {
    const work it = map[w];
    return {it.seg, it.at, it.size};
  }
  __device__ const auto* splitters(unsigned seg) const { return segs[seg].pivot; }
  __device__ void publish(const item_view& it, int c, unsigned n) const {
    if (n) atomicAdd(&segs[it.seg].count[c], counter(n));
  }
  __device__ cursor begin(const item_view&) const { return {}; }
  // reserve: one atomicAdd on the class's cursor of the segment
  __device__ std::size_t base(cursor&, const item_view& it, int c, int, unsigned n) const {
    return c < buckets && n ? std::size_t(atomicAdd(segs[it.seg].cursor + c, counter(n))) : 0;
  }
};

}  // namespace gpusort::detail::quick
