// gpusort::algorithm::quick: GPU quicksort after Cederman & Tsigas 2008
// ("A practical quicksort algorithm for graphics processors") and seed
// 004's warp-ballot partition (NVIDIA's cdpAdvancedQuicksort); issue 5.
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
//   pivot      median of 64 hashed, stratified samples per segment,
//              chosen on the device when the segment is filed (pivot.cuh)
//   partition  one persistent grid over all (segment, chunk) work items:
//              warp ballots rank, one atomicAdd per block and class
//              reserves, < keys fill from the left of the destination,
//              > keys from the right, == keys go to a side buffer
//              (partition.cuh): 2 x (key + value) bytes per key and level
//   schedule   per segment: equal run -> equal list; each child -> small
//              list, next level's list (with its pivot) or, past the
//              depth limit, the fallback list (schedule.cuh, queues.cuh)
//   equal      the == runs move to their final place in the output
//   small      children of <= one merge tile are filed in one of two
//              lists, by the buffer they lie in (later levels never write
//              there); after the last level merge::segment_sort_kernel
//              sorts each list into the output (in place for the output's
//              list), one full-grid launch per list
// The partitions ping-pong: level L reads dst(L - 1) (the input at level
// 0) and writes dst(L) = scratch for even L, the output for odd L; finished
// keys (equal runs, small children, fallbacks) always end in the output.
//
// Host syncs: none for the first ceil(log2(n / small_max)) + 2 levels
// (tuning::quiet_levels); after each later level the host reads that
// level's counters (24 bytes, cudaMemcpyAsync + cudaStreamSynchronize on
// the call's stream) to stop when no segment is left. Good pivots rarely
// leave any.
//
// Depth limit (introsort, Musser 1997): three-way partitioning makes
// all-equal and few-unique inputs linear, and sampled pivots make sorted,
// reverse, organ-pipe and median-of-3-killer inputs behave like uniform
// ones, but nothing bounds the depth against an adversary who knows the
// hash. After 2 * ceil(log2 n) + 8 levels the children still larger than
// a tile are sorted by merge::sort, O(n log n), one call each on the
// subrange: the total stays O(n log n).
//
// Scratch (one temp block): a second key and value array, the side buffer
// (shared with merge::sort's scratch, which runs only after the last
// level), two level lists, the chunk map, the two small lists, the equal
// and fallback lists and one counter slot per level. n <= small_max is one block sort.
#pragma once

#include "core/launch.cuh"
#include "core/problem.cuh"
#include "core/temp_layout.hpp"
#include "merge/merge_sort.cuh"
#include "merge/segment_sort.cuh"
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
  K* kbuf = nullptr;
  P* vbuf = nullptr;
  K* kside = nullptr;
  P* vside = nullptr;
  void* merge_temp = nullptr;
  queues<U> q;
  std::size_t segment_cap = 0;
  std::size_t bytes = 0;

  plan(std::size_t n, void* temp) {
    temp_layout t(temp);
    if (n <= std::size_t(Tune::small_max)) return;
    segment_cap = Tune::segment_capacity(n);
    q.max_levels = Tune::max_levels(n);
    kbuf = t.take<K>(n);
    if constexpr (!is_no_value<P>) vbuf = t.take<P>(n);
    // side buffer during the levels, merge::sort's scratch after them
    temp_layout side;
    side.take<K>(n);
    if constexpr (!is_no_value<P>) side.take<P>(n);
    merge_temp = t.take<std::uint8_t>(
        std::max(side.bytes(), merge::sort_temp_bytes<typename Tune::block, K, P>(n)));
    temp_layout carve(merge_temp);
    kside = carve.take<K>(n);
    if constexpr (!is_no_value<P>) vside = carve.take<P>(n);
    q.segs[0] = t.take<segment<U>>(segment_cap);
    q.segs[1] = t.take<segment<U>>(segment_cap);
    q.map = t.take<work<U>>(n / Tune::chunk + segment_cap + 1);
    q.small[0] = t.take<merge::segment>(Tune::small_capacity(n, q.max_levels));
    q.small[1] = t.take<merge::segment>(Tune::small_capacity(n, q.max_levels));
    q.small_count = t.take<counter>(2);
    q.equal = t.take<piece>(n / Tune::copy_piece + segment_cap + 1);
    q.fallback = t.take<range>(segment_cap);
    q.slots = t.take<level_slot>(std::size_t(q.max_levels) + 1);
    bytes = t.bytes();
  }
};


// Blocks of `kernel` that fit on the device at once: persistent grids.
template <class Kernel> unsigned resident_grid(const call_context& ctx, Kernel kernel, int threads) {
  int dev = 0, sms = 0, per_sm = 0;
  ctx.check(cudaGetDevice(&dev), "cudaGetDevice");
  ctx.check(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev), "cudaDeviceGetAttribute");
  ctx.check(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, threads, 0),
            "cudaOccupancyMaxActiveBlocksPerMultiprocessor");
  return unsigned(std::max(sms, 1) * std::max(per_sm, 1));
}

template <class Tune, class K, class P, class Ord>
void sort_with(const sort_problem<K, P>& p, const Ord& ord, void* temp) {
  using U = typename Ord::carried;
  using Block = typename Tune::block;
  const call_context& ctx = *p.ctx;
  const std::size_t n = p.n;
  const cudaStream_t st = p.stream;
  auto small_sort = merge::segment_sort_kernel<Block::sort_threads, Block::items, Block::sort_blocks, K, P, Ord, small_list>;
  if (n <= std::size_t(Tune::small_max)) {
    merge::segment_sort_kernel<Block::sort_threads, Block::items, Block::sort_blocks><<<1, Block::sort_threads, 0, st>>>(
        p.keys_in, p.keys_out, p.vals_in, p.vals_out, merge::tile_segments{n, Block::sort_tile}, ord);
    return ctx.check_launch("quick block sort");
  }
  plan<Tune, K, P> pl(n, temp);
  if (pl.segment_cap >= Tune::max_segments) ctx.fail(errc::invalid_argument, "quick: n too large");
  const queues<U>& q = pl.q;
  auto partition = partition_kernel<Tune, K, P, Ord>;
  auto schedule = schedule_kernel<Tune, K, Ord>;
  auto copy_equal = copy_equal_kernel<Tune, K, P>;
  const unsigned partition_grid = resident_grid(ctx, partition, Tune::threads);
  const unsigned schedule_grid = resident_grid(ctx, schedule, Tune::schedule_threads);
  const unsigned copy_grid = resident_grid(ctx, copy_equal, Tune::copy_threads);
  const unsigned small_grid = resident_grid(ctx, small_sort, Block::sort_threads);

  // level L reads dst(L - 1) and writes dst(L)
  auto kdst = [&](int level) { return level % 2 ? p.keys_out : pl.kbuf; };
  auto vdst = [&](int level) { return level % 2 ? p.vals_out : pl.vbuf; };
  ctx.check(cudaMemsetAsync(q.slots, 0, (std::size_t(q.max_levels) + 1) * sizeof(level_slot), st),
            "cudaMemsetAsync(quick level counters)");
  ctx.check(cudaMemsetAsync(q.small_count, 0, 2 * sizeof(counter), st), "cudaMemsetAsync(quick small counters)");
  // pivot of the root
  root_kernel<Tune><<<1, Tune::schedule_threads, 0, st>>>(p.keys_in, n, ord, q);
  ctx.check_launch("quick root");
  const int quiet = Tune::quiet_levels(n);
  level_slot last;
  for (int level = 0; level < q.max_levels; ++level) {
    const K* ksrc = level == 0 ? p.keys_in : kdst(level - 1);
    const P* vsrc = level == 0 ? p.vals_in : vdst(level - 1);
    // partition
    partition<<<partition_grid, Tune::threads, 0, st>>>(ksrc, kdst(level), vsrc, vdst(level), pl.kside, pl.vside,
                                                         ord, q.list(level), q.map, &q.slots[level].next);
    ctx.check_launch("quick partition");
    // schedule: equal runs, children, pivots of the next level
    schedule<<<schedule_grid, Tune::schedule_threads, 0, st>>>(kdst(level), ord, q, level);
    ctx.check_launch("quick schedule");
    // equal runs are final
    level_slot* slot = q.slots + level + 1;
    copy_equal<<<copy_grid, Tune::copy_threads, 0, st>>>(pl.kside, p.keys_out, pl.vside, p.vals_out, q.equal,
                                                         &slot->equal);
    ctx.check_launch("quick equal runs");
    if (level + 1 < quiet && level + 1 < q.max_levels) continue;
    ctx.check(cudaMemcpyAsync(&last, slot, sizeof(level_slot), cudaMemcpyDeviceToHost, st),
              "cudaMemcpyAsync(quick level counters)");
    ctx.check(cudaStreamSynchronize(st), "cudaStreamSynchronize(quick level counters)");
    if ((last.next >> Tune::chunk_bits) == 0) break;
  }
  // small children, block-sorted into the output: those in the scratch
  // buffer (children of odd levels), then those already in the output (in
  // place). Later levels never write their ranges, so one launch per
  // buffer, with a full grid, does the whole run's small children.
  small_sort<<<small_grid, Block::sort_threads, 0, st>>>(pl.kbuf, p.keys_out, pl.vbuf, p.vals_out,
                                                    small_list{q.small[0], &q.small_count[0]}, ord);
  ctx.check_launch("quick small segments (scratch)");
  small_sort<<<small_grid, Block::sort_threads, 0, st>>>(p.keys_out, p.keys_out, p.vals_out, p.vals_out,
                                                    small_list{q.small[1], &q.small_count[1]}, ord);
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
  with_order(p.ord, [&](const auto& ord) { sort_with<Tune>(p, ord, temp); });
}

struct family {
  template <class K, class P> static std::size_t temp_bytes(const sort_problem<K, P>& p) {
    return temp_bytes_with<tune_for<K, P>>(p);
  }
  template <class K, class P> static void sort(const sort_problem<K, P>& p, void* temp) {
    sort_tuned<tune_for<K, P>>(p, temp);
  }
};

}  // namespace gpusort::detail::quick
