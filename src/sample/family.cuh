// gpusort::algorithm::sample: the Sintorn & Assarsson (2008) bucket/merge
// hybrid (the lecture notes "MCMD L20: GPU Sorting". Stable. Keys and pairs, every key type, both
// orders, bit ranges (keys compare by key_order / full_order, so "equal"
// means equal rank under the call's order).
//
// Levels of distribution, each ending in one segmented block sort:
//   level 1   the whole input is one segment; levels >= 2: every range
//             bucket of the level before that holds more than one merge
//             tile (4864 keys for u32) is a segment, refined with new
//             splitters from a new sample of it ()
//   per level, all its segments together (segments.cuh), one set of launches:
//     splitters  255 per segment: sampled (splitters.cuh) or interpolated
//                over [min, max] (interpolate.cuh), by options::pivots
//     count      per-tile histograms of 511 buckets (a branch-free search
//                tree, search_tree.cuh) into the level's table, cub
//                exclusive scan (count.cuh)
//     scatter    stable, into 256 range and 255 equality buckets: one
//                radix-style pass with the bucket as digit (scatter.cuh)
//     pack       buckets <= one merge tile packed into runs of <= one tile,
//                oversized range buckets listed for the next level; one
//                block per segment (bucket_sort.cuh)
//     sort       merge::segment_sort_kernel over the runs, into the output
//   fallback  range buckets still oversized after the last level
//             (adversarial input): one merge sort of all of them at once,
//             over their device list (partition/fallback.cuh)
// Levels ping-pong: level 1 scatters input -> kbuf, level 2 kbuf -> output,
// level 3 output -> kbuf...; each level's runs are sorted from where that
// level left them into the output (in place on even levels: a run is read
// whole into shared memory before it is written). Each range moves only
// while it is oversized, so most keys are read and written three times per
// level they take part in, plus twice by the final block sort.
// n <= 2^14 skips all of it and runs merge::sort directly.
//
// Host syncs: none (the call can be captured in a CUDA graph). A level's
// segments are a device list that the level before fills (segments.cuh);
// every grid is sized from a host-known bound (level L: at most 256^(L-1)
// segments and n / 8192 + 256^(L-1) tiles, within plan.cuh's caps): a block
// a tile while that bound is at most twice the tiles of n, else the resident
// grid, whose blocks loop over the counts on the device. The levels
// launched are fixed on the host: with sampled pivots levels_for(n)
// (tuning.cuh: the levels 256-way splits need to reach a merge tile, plus
// one for stragglers where those leave buckets above half a tile), with
// interpolated ones tuning::max_levels. An empty
// level costs its 8 (9 with interpolated pivots) launches, whose blocks
// leave at once, and the fallback 4 + 2 ceil(log2(n / 9728)) launches (u32
// keys) when there is nothing to do. Uniform u32 keys need 1 level up to
// ~2^19 (part of the keys a second one at 2^20), 2 up to ~2^27, a partial
// third at 2^28 (docs/perf/sample.md).
#pragma once

#include <gpusort/detail/core/launch.cuh>
#include <gpusort/detail/core/work_queue.cuh>
#include "core/problem.cuh"
#include <gpusort/detail/merge/merge_sort.cuh>
#include <gpusort/detail/merge/segment_sort.cuh>
#include "partition/count.cuh"
#include "partition/fallback.cuh"
#include "partition/scatter.cuh"
#include "sample/bucket_sort.cuh"
#include "sample/interpolate.cuh"
#include "sample/plan.cuh"
#include "sample/policy.cuh"
#include "sample/scan.cuh"
#include "sample/segments.cuh"
#include "sample/splitters.cuh"
#include "sample/tuning.cuh"

#include <algorithm>
#include <cstddef>

namespace gpusort::detail::sample {

template <class K, class P> std::size_t temp_bytes(const sort_problem<K, P>& p) {
  return plan<K, P>(p.n, nullptr).bytes;
}

// Where a level reads and writes.
template <class K, class P> struct level_buffers {
  const K* kin;
  const P* vin;
  K* kout;
  P* vout;
};

// Blocks for work of a host-known bound: the resident grid, or fewer.
inline unsigned bounded(unsigned resident, std::size_t bound) {
  return bound < resident ? unsigned(bound > 0 ? bound : 1) : resident;
}

// The kernels of one call and their resident grids.
template <class K, class P, class Ord> struct level_kernels {
  using U = typename Ord::carried;
  using Tune = merge_tune<K, P>;
  decltype(&sample_splitters_kernel<K, Ord>) sample = sample_splitters_kernel<K, Ord>;
  decltype(&minmax_kernel<K, Ord>) minmax = minmax_kernel<K, Ord>;
  decltype(&interpolate_splitters_kernel<Ord>) interpolate = interpolate_splitters_kernel<Ord>;
  decltype(&partition::count_kernel<level_policy<U, no_value>, K, Ord>) count =
      partition::count_kernel<level_policy<U, no_value>, K, Ord>;
  decltype(&partition::scatter_kernel<level_policy<U, P>, K, P, Ord>) scatter =
      partition::scatter_kernel<level_policy<U, P>, K, P, Ord>;
  decltype(&pack_kernel<Tune::tile>) pack = pack_kernel<Tune::tile>;
  decltype(&merge::segment_sort_kernel<Tune::threads, Tune::items, Tune::segment_blocks, K, P, Ord, run_list>) sort =
      merge::segment_sort_kernel<Tune::threads, Tune::items, Tune::segment_blocks, K, P, Ord, run_list>;
  unsigned sample_grid, minmax_grid, interpolate_grid, count_grid, scatter_grid, pack_grid, sort_grid;

  // (asked of the runtime once per kernel and device: a query before each
  // launch would leave the GPU waiting on the host)
  explicit level_kernels(const call_context& ctx) {
    sample_grid = resident_grid(ctx, sample, tuning::sample_threads);
    minmax_grid = resident_grid(ctx, minmax, tuning::threads);
    interpolate_grid = resident_grid(ctx, interpolate, tuning::sample_threads);
    count_grid = resident_grid(ctx, count, tuning::threads);
    scatter_grid = resident_grid(ctx, scatter, tuning::threads);
    pack_grid = resident_grid(ctx, pack, tuning::pack_threads);
    sort_grid = resident_grid(ctx, sort, Tune::threads);
  }
};

// refine: splits level `level`'s segments (one set of launches) and sorts
// the runs it packs into the output. segs and tiles: host-known bounds on
// the level's segments and tiles; tight: the tile kernels take a block a
// tile (few blocks find no tile) instead of the resident grid's loop.
template <class K, class P, class Ord>
void split_level(const sort_problem<K, P>& p, const Ord& ord, const plan<K, P>& pl, const level_kernels<K, P, Ord>& kn,
                 int level, std::size_t segs, std::size_t tiles, bool tight, const level_buffers<K, P>& io) {
  const call_context& ctx = *p.ctx;
  const cudaStream_t st = p.stream;
  const segment_list list = pl.lists.at(level);
  const bool interpolated = p.pivots == pivot_rule::interpolated;
  auto tile_grid = [&](unsigned resident) { return tight ? grid_for(tiles, 1) : bounded(resident, tiles); };
  setup_kernel<<<grid_for(segs, 1, 1024), tuning::threads, 0, st>>>(
      pl.lists, level, pl.map, interpolated ? pl.ranges : rank_range{nullptr, nullptr}, pl.runs.count);
  ctx.check_launch("sample setup");
  // sample
  if (interpolated) {
    kn.minmax<<<tile_grid(kn.minmax_grid), tuning::threads, 0, st>>>(io.kin, list, pl.map, ord, pl.ranges);
    ctx.check_launch("sample minmax");
    kn.interpolate<<<bounded(kn.interpolate_grid, segs), tuning::sample_threads, 0, st>>>(list, ord, pl.ranges,
                                                                                          pl.splitters);
    ctx.check_launch("sample interpolated splitters");
  } else {
    kn.sample<<<bounded(kn.sample_grid, segs), tuning::sample_threads, 0, st>>>(io.kin, list, ord, pl.splitters);
    ctx.check_launch("sample splitters");
  }
  // count, scan
  using U = typename Ord::carried;
  const level_policy<U, no_value> counting{list, pl.map, pl.splitters, pl.table};
  kn.count<<<tile_grid(kn.count_grid), tuning::threads, 0, st>>>(io.kin, ord, counting);
  ctx.check_launch("sample count");
  table_sums_kernel<<<tuning::scan_blocks, tuning::scan_threads, 0, st>>>(pl.table, pl.lists, level, pl.sums);
  ctx.check_launch("sample table sums");
  table_scan_kernel<<<tuning::scan_blocks, tuning::scan_threads, 0, st>>>(pl.table, pl.lists, level, pl.sums);
  ctx.check_launch("sample table scan");
  // scatter
  const level_policy<U, P> scattering{list, pl.map, pl.splitters, pl.table};
  kn.scatter<<<tile_grid(kn.scatter_grid), tuning::threads, 0, st>>>(io.kin, io.vin, io.kout, io.vout, ord,
                                                                          scattering);
  ctx.check_launch("sample scatter");
  // pack
  kn.pack<<<bounded(kn.pack_grid, segs), tuning::pack_threads, 0, st>>>(list, pl.table, pl.runs,
                                                                        pl.lists.next(level));
  ctx.check_launch("sample pack");
  // sort: the kernel reads the run count itself
  kn.sort<<<bounded(kn.sort_grid, pl.runs.capacity), merge_tune<K, P>::threads, 0, st>>>(
      io.kout, p.keys_out, io.vout, p.vals_out, run_list{pl.runs}, ord);
  ctx.check_launch("sample bucket sort");
}

// `levels` levels of distribution, then the fallback (the tests run fewer
// levels to reach it).
template <class K, class P, order_for<K> Ord>
void sort_with(const sort_problem<K, P>& p, const Ord& ord, void* temp, int levels = tuning::max_levels) {
  using Tune = merge_tune<K, P>;
  const call_context& ctx = *p.ctx;
  const plan<K, P> pl(p.n, temp);
  if (p.n <= tuning::direct_max)
    return merge::sort<Tune>(ctx, p.keys_in, p.keys_out, p.vals_in, p.vals_out, p.n, ord, p.stream, pl.merge_temp);

  const level_kernels<K, P, Ord> kn(ctx);
  root_kernel<<<1, 1, 0, p.stream>>>(pl.lists, p.n);
  ctx.check_launch("sample root");
  const K* kin = p.keys_in;
  const P* vin = p.vals_in;
  // Level L holds at most 256^(L-1) segments (only range buckets are
  // refined), so at most n / tile + 256^(L-1) tiles.
  std::size_t seg_bound = 1;
  for (int level = 1; level <= levels; ++level) {
    const bool to_kbuf = level % 2 == 1;
    const level_buffers<K, P> io{kin, vin, to_kbuf ? pl.kbuf : p.keys_out, to_kbuf ? pl.vbuf : p.vals_out};
    const std::size_t segs = std::min(pl.cap_segs, seg_bound);
    const std::size_t tiles = std::min(pl.cap_tiles, tiles_of(p.n) + (level == 1 ? 0 : segs));
    split_level(p, ord, pl, kn, level, segs, tiles, tiles <= 2 * tiles_of(p.n), io);
    if (seg_bound < pl.cap_segs) seg_bound *= tuning::splitters + 1;
    kin = io.kout;
    vin = io.vout;
  }
  // fallback: the buckets still oversized after the last level, where it
  // left them, merge-sorted into the output with kbuf as the partner
  const partition::fallback_buffers<K, P> fb{kin, vin, p.keys_out, p.vals_out, pl.kbuf, pl.vbuf};
  partition::sort_fallback<Tune>(ctx, pl.fallback, pl.lists.next(levels), fb, p.n, ord, p.stream);
}

struct family {
  static constexpr algorithm id = algorithm::sample;
  static constexpr bool compares = true;
  static constexpr unsigned value_widths = all_value_widths;
  template <class K, class P> static std::size_t temp_bytes(const sort_problem<K, P>& p) {
    return sample::temp_bytes(p);
  }
  template <class K, class P> static void sort(const sort_problem<K, P>& p, void* temp) {
    if (p.n == 0) return;
    const int levels = p.pivots == pivot_rule::interpolated ? tuning::max_levels
                                                            : levels_for(p.n, merge_tune<K, P>::tile);
    sort_with(p, full_order<K>(p.ord), temp, levels);
  }
};

}  // namespace gpusort::detail::sample
