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
//              next level, too deep ones to the fallback (schedule.cuh)
//   small      after the last level merge::segment_sort_kernel sorts each
//              small list into the output (in place for the output's
//              list) and copies the equal runs left in the scratch buffer:
//              one full-grid launch per list
// The partitions ping-pong: level L reads dst(L - 1) (the input at level
// 0) and writes dst(L) = scratch for even L, the output for odd L; finished
// keys (equal runs, small children, fallbacks) always end in the output.
//
// Host syncs: none for the first levels_needed(n) + 1 levels (about
// log32(n / (0.8 tile)) + 1; tuning::quiet_levels); after each later level
// the host reads that level's counters (16 bytes, cudaMemcpyAsync +
// cudaStreamSynchronize on the call's stream) to stop when no segment is
// left. Good pivots rarely leave any.
//
// Depth limit (introsort, Musser 1997): equality classes make all-equal
// and few-unique inputs linear, and sampled pivots make sorted, reverse,
// organ-pipe and median-of-3-killer inputs behave like uniform ones, but
// nothing bounds the depth against an adversary who knows the hash. After
// levels_needed(n) + 4 levels the children still larger than a tile are
// sorted by merge::sort, O(n log n), one call each on the subrange: the
// total stays O(n log n).
//
// Scratch (one temp block): a second key and value array, merge::sort's
// scratch (used only after the last level), two level lists, the chunk
// map, the small lists (sized for the depth limit: ~13% of the keys' bytes
// at 2^28 u32), the fallback list and one counter slot per level.
// n <= small_max is one block sort.
#pragma once

#include <gpusort/detail/core/launch.cuh>
#include "core/problem.cuh"
#include <gpusort/detail/core/temp_layout.hpp>
#include <gpusort/detail/merge/merge_sort.cuh>
#include <gpusort/detail/merge/segment_sort.cuh>
#include "partition/count.cuh"
#include "partition/scatter.cuh"
#include "quick/partition.cuh"
#include "quick/queues.cuh"
#include "quick/schedule.cuh"
#include "quick/tuning.cuh"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace gpusort::detail::quick {

template <class K, class P> using tune_for = tuning<typename key_traits<K>::bits, P>;

// The temp block's slots; the same code sizes (temp == nullptr) and carves.
template <class Tune, class K, class P> struct plan {
  using U = typename key_traits<K>::bits;
  using Seg = segment_of<U, Tune::pivots, Tune::classes>;
  K* kbuf = nullptr;
  P* vbuf = nullptr;
  void* merge_temp = nullptr;
  queues<Seg> q;
  std::size_t bytes = 0;

  plan(std::size_t n, void* temp) {
    temp_layout t(temp);
    if (n <= std::size_t(Tune::small_max)) return;
    const std::size_t segment_cap = Tune::segment_capacity(n);
    q.max_levels = Tune::max_levels(n);
    kbuf = t.take<K>(n);
    if constexpr (!is_no_value<P>) vbuf = t.take<P>(n);
    merge_temp = t.take<std::uint8_t>(merge::sort_temp_bytes<typename Tune::block, K, P>(n));
    q.segs[0] = t.take<Seg>(segment_cap);
    q.segs[1] = t.take<Seg>(segment_cap);
    q.map = t.take<work>(n / Tune::chunk + segment_cap + 1);
    q.small_cap = Tune::small_capacity(n, q.max_levels);
    q.small = t.take<merge::segment>(q.small_cap);
    q.small_count = t.take<counter>(2);
    q.fallback = t.take<range>(segment_cap);
    q.slots = t.take<level_slot>(std::size_t(q.max_levels) + 1);
    bytes = t.bytes();
  }
};

template <class Tune, class K, class P, order_for<K> Ord>
void sort_with(const sort_problem<K, P>& p, const Ord& ord, void* temp) {
  using Block = typename Tune::block;
  const call_context& ctx = *p.ctx;
  const std::size_t n = p.n;
  const cudaStream_t st = p.stream;
  if (n <= std::size_t(Tune::small_max)) {
    merge::segment_sort_kernel<Tune::leaf_threads, Tune::leaf_items, Tune::leaf_blocks><<<1, Tune::leaf_threads, 0, st>>>(
        p.keys_in, p.keys_out, p.vals_in, p.vals_out, merge::tile_segments{n, Tune::small_max}, ord);
    return ctx.check_launch("quick block sort");
  }
  plan<Tune, K, P> pl(n, temp);
  using Seg = typename plan<Tune, K, P>::Seg;
  if (Tune::segment_capacity(n) >= Tune::max_segments) ctx.fail(errc::invalid_argument, "quick: n too large");
  const queues<Seg>& q = pl.q;
  auto small_sort = merge::segment_sort_kernel<Tune::leaf_threads, Tune::leaf_items, Tune::leaf_blocks, K, P, Ord, small_list>;
  auto pivots = pivot_kernel<Tune, K, Ord, Seg>;
  using Policy = level_policy<Tune, Seg>;
  auto count = partition::count_kernel<Policy, K, Ord>;
  auto offsets = offsets_kernel<Tune, Seg>;
  auto scatter = partition::scatter_kernel<Policy, K, P, Ord>;
  auto file = file_kernel<Tune, Seg>;
  constexpr int list_threads = 256;  // offsets and file: one thread per segment or class
  const unsigned pivot_grid = resident_grid(ctx, pivots, Tune::schedule_threads);
  const unsigned count_grid = resident_grid(ctx, count, Tune::threads);
  const unsigned partition_grid = resident_grid(ctx, scatter, Tune::threads);
  const unsigned list_grid = resident_grid(ctx, file, list_threads);
  const unsigned small_grid = resident_grid(ctx, small_sort, Tune::leaf_threads);

  // level L reads dst(L - 1) and writes dst(L)
  auto kdst = [&](int level) { return level % 2 ? p.keys_out : pl.kbuf; };
  auto vdst = [&](int level) { return level % 2 ? p.vals_out : pl.vbuf; };
  ctx.check(cudaMemsetAsync(q.slots, 0, (std::size_t(q.max_levels) + 1) * sizeof(level_slot), st),
            "cudaMemsetAsync(quick level counters)");
  ctx.check(cudaMemsetAsync(q.small_count, 0, 2 * sizeof(counter), st), "cudaMemsetAsync(quick small counters)");
  root_kernel<Tune><<<1, 1, 0, st>>>(n, q);
  ctx.check_launch("quick root");
  const int quiet = Tune::quiet_levels(n);
  level_slot last;
  for (int level = 0; level < q.max_levels; ++level) {
    const K* ksrc = level == 0 ? p.keys_in : kdst(level - 1);
    const P* vsrc = level == 0 ? p.vals_in : vdst(level - 1);
    pivots<<<pivot_grid, Tune::schedule_threads, 0, st>>>(ksrc, ord, q, level);
    ctx.check_launch("quick pivots");
    const counter* items = &q.slots[level].next;
    const Policy pol{q.list(level), q.map, items};
    count<<<count_grid, Tune::threads, 0, st>>>(ksrc, ord, pol);
    ctx.check_launch("quick count");
    offsets<<<list_grid, list_threads, 0, st>>>(q, level);
    ctx.check_launch("quick offsets");
    scatter<<<partition_grid, Tune::threads, 0, st>>>(ksrc, vsrc, kdst(level), vdst(level), ord, pol);
    ctx.check_launch("quick partition");
    file<<<list_grid, list_threads, 0, st>>>(q, level);
    ctx.check_launch("quick file");
    if (level + 1 < quiet && level + 1 < q.max_levels) continue;
    ctx.check(cudaMemcpyAsync(&last, q.slots + level + 1, sizeof(level_slot), cudaMemcpyDeviceToHost, st),
              "cudaMemcpyAsync(quick level counters)");
    ctx.check(cudaStreamSynchronize(st), "cudaStreamSynchronize(quick level counters)");
    if ((last.next >> Tune::chunk_bits) == 0) break;
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
  if (last.fallback == 0) return;
  // past the depth limit: merge::sort each remaining child (they are all
  // children of the last level, so they lie in its destination)
  const int final_level = q.max_levels - 1;
  std::vector<range> rest(last.fallback);
  ctx.check(cudaMemcpyAsync(rest.data(), q.fallback, rest.size() * sizeof(range), cudaMemcpyDeviceToHost, st),
            "cudaMemcpyAsync(quick fallback list)");
  ctx.check(cudaStreamSynchronize(st), "cudaStreamSynchronize(quick fallback list)");
  for (const range& r : rest) {
    P* vsrc = vdst(final_level) ? vdst(final_level) + r.begin : nullptr;
    P* vout = p.vals_out ? p.vals_out + r.begin : nullptr;
    merge::sort<Block>(ctx, kdst(final_level) + r.begin, p.keys_out + r.begin, vsrc, vout, r.size, ord, st,
                       pl.merge_temp);
  }
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
