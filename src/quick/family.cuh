// gpusort::algorithm::quick: GPU quicksort after Cederman & Tsigas 2008
// ("A practical quicksort algorithm for graphics processors") and seed
// 004's warp-ballot partition (NVIDIA's cdpAdvancedQuicksort), with
// multi-pivot partitions (Aumüller & Dietzfelbinger 2016).
// Not stable. Keys and pairs, every key type, both orders, bit ranges:
// keys compare as carried bits under key_order / full_order, so "equal"
// means neither is less.
//
// Recursion: level-synchronous, driven by device-side work lists, with no
// dynamic parallelism. The seed launches child grids from the device,
// which needs -rdc and cudadevrt for the whole library, a launch per
// segment (thousands of tiny grids at the deep levels) and a hard nesting
// limit. Instead every level is a fixed number of launches whatever its
// segment count:
//   pivots     per segment, 2 to 32 ranges: up to 31 pivots at even
//              quantiles of 1024 hashed, stratified samples, sorted by
//              merge's block sort (schedule.cuh, pivot.cuh); the fanout
//              spreads the split evenly over the levels the segment needs
//              (tuning::fanout)
//   count      every key's class (63: 32 ranges, 31 equal to a pivot),
//              summed per segment (partition.cuh)
//   offsets    each segment's classes in key order
//   partition  one grid of resident blocks over all (segment, chunk) work
//              items: shared atomics rank the classes, one atomicAdd per
//              block and class reserves, each class leaves as one run
//              (partition.cuh): read 2x, write 1x per key and level
//   file       equal runs are final; children of <= one merge tile go to a
//              small list (by the buffer they lie in), larger ones to the
//              next level, too deep ones to the fallback list (schedule.cuh)
//   small      after the last level merge::segment_sort_kernel sorts each
//              small list into the output (in place for the output's
//              list) and copies the equal runs left in the scratch buffer:
//              one full-grid launch per list
// The partitions ping-pong: level L reads dst(L - 1) (the input at level
// 0) and writes dst(L) = scratch for even L, the output for odd L; finished
// keys (equal runs, small children, fallbacks) always end in the output.
//
// Host syncs: none (the call can be captured in a CUDA graph). The lists
// are device-side (queues.cuh, core/work_queue.cuh), the pivot, count,
// partition and list kernels run resident grids that loop over the counts
// on the device, and all max_levels(n) = levels_needed(n) + 1 levels are
// launched: a level with no segment costs its five launches, whose blocks
// leave at once (at 2^26 keys good pivots need 3 levels, and the fourth
// takes the children that overshot a tile).
//
// Depth limit (introsort, Musser 1997): equality classes make all-equal
// and few-unique inputs linear, and sampled pivots make sorted, reverse,
// organ-pipe and median-of-3-killer inputs behave like uniform ones, but
// nothing bounds the depth against an adversary who knows the hash. After
// max_levels(n) levels the children still larger than a tile lie in the
// fallback list, and one merge sort of all of them at once, over that
// device list (partition/fallback.cuh), sorts them into the output,
// O(n log n): the total stays O(n log n). With no such child its
// launches' blocks leave at once.
//
// Scratch (one temp block): a second key and value array (also the
// fallback's ping-pong partner), two level lists, the chunk map, the small
// lists (sized for the depth limit: ~13% of the keys' bytes at 2^28 u32),
// the fallback list and its merge lists, five counters.
// n <= small_max is one block sort.
#pragma once

#include <gpusort/detail/core/launch.cuh>
#include "core/problem.cuh"
#include <gpusort/detail/core/temp_layout.hpp>
#include <gpusort/detail/core/work_queue.cuh>
#include <gpusort/detail/merge/merge_sort.cuh>
#include <gpusort/detail/merge/segment_sort.cuh>
#include "partition/count.cuh"
#include "partition/fallback.cuh"
#include "partition/scatter.cuh"
#include "quick/partition.cuh"
#include "quick/queues.cuh"
#include "quick/schedule.cuh"
#include "quick/tuning.cuh"

#include <cstddef>
#include <cstdint>

namespace gpusort::detail::quick {

template <class K, class P> using tune_for = tuning<typename key_traits<K>::bits, P>;

// The temp block's slots; the same code sizes (temp == nullptr) and carves.
template <class Tune, class K, class P> struct plan {
  using U = typename key_traits<K>::bits;
  using Seg = segment_of<U, Tune::pivots, Tune::classes>;
  using Q = queues<Seg, Tune::chunk_bits>;
  K* kbuf = nullptr;
  P* vbuf = nullptr;
  Q q;
  partition::fallback_scratch<typename Tune::block> fallback;
  std::size_t bytes = 0;

  plan(std::size_t n, void* temp) {
    temp_layout t(temp);
    if (n <= std::size_t(Tune::small_max)) return;
    const std::size_t segment_cap = Tune::segment_capacity(n);
    q.max_levels = Tune::max_levels(n);
    kbuf = t.take<K>(n);
    if constexpr (!is_no_value<P>) vbuf = t.take<P>(n);
    for (auto& l : q.levels.list) l = {t.take<Seg>(segment_cap), nullptr, segment_cap};
    q.map = t.take<work>(n / Tune::chunk + segment_cap + 1);
    q.small_cap = Tune::small_capacity(n, q.max_levels);
    q.small = t.take<merge::segment>(q.small_cap);
    q.fallback = {t.take<range>(segment_cap), nullptr, segment_cap};
    // the counters: both level lists', the fallback list's, the small lists'
    counter* counters = t.take<counter>(5);
    if (counters) {
      q.levels.list[0].count = counters;
      q.levels.list[1].count = counters + 1;
      q.fallback.count = counters + 2;
      q.small_count = counters + 3;
    }
    fallback = partition::fallback_scratch<typename Tune::block>(t, n, segment_cap);
    bytes = t.bytes();
  }
};

template <class Tune, class K, class P, order_for<K> Ord>
void sort_with(const sort_problem<K, P>& p, const Ord& ord, void* temp) {
  const call_context& ctx = *p.ctx;
  const std::size_t n = p.n;
  const cudaStream_t st = p.stream;
  if (n <= std::size_t(Tune::small_max)) {
    merge::segment_sort_kernel<Tune::leaf_threads, Tune::leaf_items, Tune::leaf_blocks><<<1, Tune::leaf_threads, 0, st>>>(
        p.keys_in, p.keys_out, p.vals_in, p.vals_out, merge::tile_segments{n, Tune::small_max}, ord);
    return ctx.check_launch("quick block sort");
  }
  plan<Tune, K, P> pl(n, temp);
  using Q = typename plan<Tune, K, P>::Q;
  if (Tune::segment_capacity(n) >= Tune::max_segments) ctx.fail(errc::invalid_argument, "quick: n too large");
  const Q& q = pl.q;
  auto small_sort = merge::segment_sort_kernel<Tune::leaf_threads, Tune::leaf_items, Tune::leaf_blocks, K, P, Ord, small_list>;
  auto pivots = pivot_kernel<Tune, K, Ord, Q>;
  using Policy = level_policy<Tune, typename Q::level_list>;
  auto count = partition::count_kernel<Policy, K, Ord>;
  auto offsets = offsets_kernel<Tune, Q>;
  auto scatter = partition::scatter_kernel<Policy, K, P, Ord>;
  auto file = file_kernel<Tune, Q>;
  constexpr int list_threads = 256;  // offsets and file: one thread per segment or class
  // resident grids, asked of the runtime once per kernel and device
  const unsigned pivot_grid = resident_grid(ctx, pivots, Tune::schedule_threads);
  const unsigned count_grid = resident_grid(ctx, count, Tune::threads);
  const unsigned partition_grid = resident_grid(ctx, scatter, Tune::threads);
  const unsigned list_grid = resident_grid(ctx, file, list_threads);
  const unsigned small_grid = resident_grid(ctx, small_sort, Tune::leaf_threads);

  // level L reads dst(L - 1) and writes dst(L)
  auto kdst = [&](int level) { return level % 2 ? p.keys_out : pl.kbuf; };
  auto vdst = [&](int level) { return level % 2 ? p.vals_out : pl.vbuf; };
  root_kernel<Tune><<<1, 1, 0, st>>>(n, q);
  ctx.check_launch("quick root");
  for (int level = 0; level < q.max_levels; ++level) {
    const K* ksrc = level == 0 ? p.keys_in : kdst(level - 1);
    const P* vsrc = level == 0 ? p.vals_in : vdst(level - 1);
    pivots<<<pivot_grid, Tune::schedule_threads, 0, st>>>(ksrc, ord, q, level);
    ctx.check_launch("quick pivots");
    const Policy pol{q.levels.at(level), q.map};
    count<<<count_grid, Tune::threads, 0, st>>>(ksrc, ord, pol);
    ctx.check_launch("quick count");
    offsets<<<list_grid, list_threads, 0, st>>>(q, level);
    ctx.check_launch("quick offsets");
    scatter<<<partition_grid, Tune::threads, 0, st>>>(ksrc, vsrc, kdst(level), vdst(level), ord, pol);
    ctx.check_launch("quick partition");
    file<<<list_grid, list_threads, 0, st>>>(q, level);
    ctx.check_launch("quick file");
  }
  // small children, block-sorted into the output, and equal runs copied
  // there: those in the scratch buffer, then those already in the output
  // (in place). Later levels never write their ranges, so one launch per
  // buffer, with a full grid, does the whole run's small lists.
  small_sort<<<small_grid, Tune::leaf_threads, 0, st>>>(pl.kbuf, p.keys_out, pl.vbuf, p.vals_out,
                                                    small_list{q.small, q.small_cap, &q.small_count[0], false}, ord);
  ctx.check_launch("quick small segments (scratch)");
  small_sort<<<small_grid, Tune::leaf_threads, 0, st>>>(p.keys_out, p.keys_out, p.vals_out, p.vals_out,
                                                    small_list{q.small, q.small_cap, &q.small_count[1], true}, ord);
  ctx.check_launch("quick small segments (output)");
  // past the depth limit: the children of the last level still larger
  // than a tile, where it left them, merge-sorted into the output with the
  // scratch buffer as the partner (their keys there are dead)
  const int final_level = q.max_levels - 1;
  const partition::fallback_buffers<K, P> fb{kdst(final_level), vdst(final_level), p.keys_out, p.vals_out,
                                             pl.kbuf,           pl.vbuf};
  partition::sort_fallback<typename Tune::block>(ctx, pl.fallback, q.fallback, fb, n, ord, st);
}

// Any tuning (the tests shrink the depth limit to reach the fallback).
template <class Tune, class K, class P> std::size_t temp_bytes_with(const sort_problem<K, P>& p) {
  return plan<Tune, K, P>(p.n, nullptr).bytes;
}
template <class Tune, class K, class P> void sort_tuned(const sort_problem<K, P>& p, void* temp) {
  if (p.n == 0) return;
  sort_with<Tune>(p, full_order<K>(p.ord), temp);
}

struct family {
  static constexpr algorithm id = algorithm::quick;
  static constexpr bool compares = true;
  static constexpr unsigned value_widths = all_value_widths;
  template <class K, class P> static std::size_t temp_bytes(const sort_problem<K, P>& p) {
    return temp_bytes_with<tune_for<K, P>>(p);
  }
  template <class K, class P> static void sort(const sort_problem<K, P>& p, void* temp) {
    sort_tuned<tune_for<K, P>>(p, temp);
  }
};

}  // namespace gpusort::detail::quick
