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
//   fallback  range buckets still oversized after tuning::max_levels
//             (adversarial input) go to merge::sort on the subrange
// Levels ping-pong: level 1 scatters input -> kbuf, level 2 kbuf -> output,
// level 3 output -> kbuf...; each level's runs are sorted from where that
// level left them into the output (in place on even levels: a run is read
// whole into shared memory before it is written). Each range moves only
// while it is oversized, so most keys are read and written three times per
// level they take part in, plus twice by the final block sort.
// n <= 2^14 skips all of it and runs merge::sort directly.
//
// Host syncs: one per level, to read the oversized spans (the next level's
// segments); a second read in the same level when there are more than
// tuning::preview of them. Uniform u32 keys take 1 level up to ~2^19 (part
// of the keys a second one at 2^20), 2 up to ~2^26, a partial third at 2^28
// (docs/perf/sample.md).
#pragma once

#include <gpusort/detail/core/launch.cuh>
#include "core/problem.cuh"
#include <gpusort/detail/merge/merge_sort.cuh>
#include <gpusort/detail/merge/segment_sort.cuh>
#include "sample/bucket_sort.cuh"
#include "sample/interpolate.cuh"
#include "sample/plan.cuh"
#include "sample/policy.cuh"
#include "partition/count.cuh"
#include "partition/scatter.cuh"
#include "sample/segments.cuh"
#include "sample/splitters.cuh"
#include "sample/tuning.cuh"

#include <cub/device/device_scan.cuh>

#include <algorithm>
#include <cstddef>
#include <vector>

namespace gpusort::detail::sample {

template <class K, class P> std::size_t temp_bytes(const sort_problem<K, P>& p) {
  return plan<K, P>(*p.ctx, p.n, nullptr).bytes;
}

// Where a level reads and writes.
template <class K, class P> struct level_buffers {
  const K* kin;
  const P* vin;
  K* kout;
  P* vout;
};

// refine: splits the level's segments (one set of launches) and sorts the
// runs it packs into the output.
template <class K, class P, class Ord>
void split_level(const sort_problem<K, P>& p, const Ord& ord, const plan<K, P>& pl, const level_segments& lv,
                 const level_buffers<K, P>& io) {
  using Tune = merge_tune<K, P>;
  const call_context& ctx = *p.ctx;
  const std::size_t segs = lv.descs.size(), tiles = lv.tiles;
  const bool interpolated = p.pivots == pivot_rule::interpolated;
  ctx.check(cudaMemcpyAsync(pl.descs, lv.descs.data(), segs * sizeof(segment_desc), cudaMemcpyHostToDevice,
                            p.stream),
            "cudaMemcpyAsync(sample segments)");
  setup_kernel<<<grid_for(segs, 1), tuning::threads, 0, p.stream>>>(
      pl.descs, segs, pl.map, interpolated ? pl.ranges : rank_range{nullptr, nullptr}, pl.counters);
  ctx.check_launch("sample setup");
  // sample
  if (interpolated) {
    minmax_kernel<<<grid_for(tiles, 1), tuning::threads, 0, p.stream>>>(io.kin, pl.descs, pl.map, tiles, ord,
                                                                      pl.ranges);
    ctx.check_launch("sample minmax");
    interpolate_splitters_kernel<<<grid_for(segs, 1), tuning::sample_threads, 0, p.stream>>>(segs, ord, pl.ranges,
                                                                                            pl.splitters);
    ctx.check_launch("sample interpolated splitters");
  } else {
    sample_splitters_kernel<<<grid_for(segs, 1), tuning::sample_threads, 0, p.stream>>>(io.kin, pl.descs, segs,
                                                                                       ord, pl.splitters);
    ctx.check_launch("sample splitters");
  }
  // count
  using U = typename Ord::carried;
  const level_policy<U, no_value> counting{pl.descs, pl.map, tiles, pl.splitters, pl.table};
  partition::count_kernel<<<grid_for(tiles, 1), tuning::threads, 0, p.stream>>>(io.kin, ord, counting);
  ctx.check_launch("sample count");
  std::size_t scan_bytes = pl.scan_bytes;
  ctx.check(cub::DeviceScan::ExclusiveSum(pl.scan_temp, scan_bytes, pl.table, pl.table,
                                          std::size_t(tuning::buckets) * tiles, p.stream),
            "cub::DeviceScan::ExclusiveSum");
  // scatter
  const level_policy<U, P> scattering{pl.descs, pl.map, tiles, pl.splitters, pl.table};
  partition::scatter_kernel<<<grid_for(tiles, 1), tuning::threads, 0, p.stream>>>(io.kin, io.vin, io.kout, io.vout,
                                                                                 ord, scattering);
  ctx.check_launch("sample scatter");
  // pack
  pack_kernel<Tune::tile><<<grid_for(segs, 1), tuning::pack_threads, 0, p.stream>>>(
      pl.descs, segs, pl.table, pl.counters, pl.runs, pl.oversized);
  ctx.check_launch("sample pack");
  // sort: about one block per run; the kernel reads the run count itself
  const std::size_t runs_guess = 2 * ((lv.keys + Tune::tile - 1) / Tune::tile) + segs;
  merge::segment_sort_kernel<Tune::threads, Tune::items, Tune::segment_blocks><<<grid_for(runs_guess, 1), Tune::threads, 0, p.stream>>>(
      io.kout, p.keys_out, io.vout, p.vals_out, run_list{pl.counters, pl.runs}, ord);
  ctx.check_launch("sample bucket sort");
}

// The level's oversized spans, copied to the host (the level's sync).
template <class K, class P>
std::vector<span> read_oversized(const call_context& ctx, const plan<K, P>& pl, cudaStream_t stream) {
  const std::size_t preview = std::min<std::size_t>(tuning::preview, pl.cap_segs);
  std::vector<std::size_t> head(level_counters::words + 2 * preview);
  ctx.check(cudaMemcpyAsync(head.data(), pl.counters, head.size() * sizeof(std::size_t), cudaMemcpyDeviceToHost,
                            stream),
            "cudaMemcpyAsync(sample oversized buckets)");
  ctx.check(cudaStreamSynchronize(stream), "cudaStreamSynchronize(sample level)");
  std::vector<span> spans(head[level_counters::oversized]);
  const std::size_t seen = std::min(spans.size(), preview);
  for (std::size_t i = 0; i < seen; ++i)
    spans[i] = {head[level_counters::words + 2 * i], head[level_counters::words + 2 * i + 1]};
  if (spans.size() > seen) {
    ctx.check(cudaMemcpyAsync(spans.data() + seen, pl.oversized + seen, (spans.size() - seen) * sizeof(span),
                              cudaMemcpyDeviceToHost, stream),
              "cudaMemcpyAsync(sample oversized buckets)");
    ctx.check(cudaStreamSynchronize(stream), "cudaStreamSynchronize(sample level)");
  }
  return spans;
}

template <class K, class P, order_for<K> Ord> void sort_with(const sort_problem<K, P>& p, const Ord& ord, void* temp) {
  using Tune = merge_tune<K, P>;
  const call_context& ctx = *p.ctx;
  const plan<K, P> pl(ctx, p.n, temp);
  if (p.n <= tuning::direct_max)
    return merge::sort<Tune>(ctx, p.keys_in, p.keys_out, p.vals_in, p.vals_out, p.n, ord, p.stream, pl.merge_temp);

  std::vector<span> spans{{0, p.n}};
  const K* kin = p.keys_in;
  const P* vin = p.vals_in;
  for (int level = 1; level <= tuning::max_levels && !spans.empty(); ++level) {
    const bool to_kbuf = level % 2 == 1;
    const level_buffers<K, P> io{kin, vin, to_kbuf ? pl.kbuf : p.keys_out, to_kbuf ? pl.vbuf : p.vals_out};
    split_level(p, ord, pl, level_segments(spans), io);
    spans = read_oversized(ctx, pl, p.stream);
    kin = io.kout;
    vin = io.vout;
  }
  // fallback: still oversized after max_levels
  for (const span& s : spans) {
    const P* vsrc = vin ? vin + s.begin : nullptr;
    P* vdst = p.vals_out ? p.vals_out + s.begin : nullptr;
    merge::sort<Tune>(ctx, kin + s.begin, p.keys_out + s.begin, vsrc, vdst, s.size, ord, p.stream, pl.merge_temp);
  }
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
    sort_with(p, full_order<K>(p.ord), temp);
  }
};

}  // namespace gpusort::detail::sample
