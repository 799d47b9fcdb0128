// gpusort::algorithm::sample: the Sintorn & Assarsson (2008) bucket/merge
// hybrid (seed 002; issue 5). Stable. Keys and pairs, every key type, both
// orders, bit ranges (keys compare by key_order / full_order, so "equal"
// means equal rank under the call's order).
//
//   1. splitters  on device: 2048 hashed samples sorted by one block,
//                 255 splitters (splitters.cuh)
//   2. count      per-tile bucket histograms -> [bucket][tile] table,
//                 cub exclusive scan -> offsets (partition.cuh)
//   3. scatter    stable scatter into 511 buckets: 256 range buckets and
//                 255 equality buckets (tuning.cuh, partition.cuh)
//   4. buckets    small ones one block each (block merge sort), large range
//                 buckets merge::sort on the subrange, equality buckets are
//                 copied unsorted (bucket_sort.cuh)
// n <= 2^14 skips all of it and runs merge::sort directly.
//
// Known host sync: the 512 bucket bounds are copied to the host once
// (cudaStreamSynchronize) so the host can pick each large bucket's sort.
// Not done (issue 5 step 3): oversized buckets are not re-split with a new
// sample; they go to merge::sort, one call per bucket, serially on the
// stream. Interpolated splitters (the seed's other option) are not offered.
//
// Scratch (one temp block): splitters, the count and offset tables
// (511 x ceil(n / 8192) size_t each), bucket bounds, cub's scan scratch,
// a scattered copy of keys and values, and merge::sort's scratch for a
// bucket as large as n (worst case: nearly every key in one range bucket).
#pragma once

#include "core/launch.cuh"
#include "core/problem.cuh"
#include "core/temp_layout.hpp"
#include "merge/merge_sort.cuh"
#include "sample/bucket_sort.cuh"
#include "sample/partition.cuh"
#include "sample/splitters.cuh"
#include "sample/tuning.cuh"

#include <cub/device/device_scan.cuh>

#include <cstddef>
#include <vector>

namespace gpusort::detail::sample {

template <class K, class P> using merge_tune = merge::tuning<typename key_traits<K>::bits, P>;

// The temp block's slots; the same code sizes (temp == nullptr) and carves.
template <class K, class P> struct plan {
  using U = typename key_traits<K>::bits;
  std::size_t tiles = 0, table = 0, scan_bytes = 0;
  U* splitters = nullptr;
  std::size_t* counts = nullptr;
  std::size_t* offsets = nullptr;
  std::size_t* bounds = nullptr;
  void* scan_temp = nullptr;
  K* kbuf = nullptr;
  P* vbuf = nullptr;
  void* merge_temp = nullptr;
  std::size_t bytes = 0;

  plan(const call_context& ctx, std::size_t n, void* temp) {
    temp_layout t(temp);
    if (n <= tuning::direct_max) {
      merge_temp = t.take<std::uint8_t>(merge::sort_temp_bytes<merge_tune<K, P>, K, P>(n));
      bytes = t.bytes();
      return;
    }
    tiles = (n + tuning::tile - 1) / tuning::tile;
    table = std::size_t(tuning::buckets) * tiles;
    ctx.check(cub::DeviceScan::ExclusiveSum(nullptr, scan_bytes, static_cast<std::size_t*>(nullptr),
                                            static_cast<std::size_t*>(nullptr), table),
              "cub::DeviceScan::ExclusiveSum(size)");
    splitters = t.take<U>(tuning::splitters);
    counts = t.take<std::size_t>(table);
    offsets = t.take<std::size_t>(table);
    bounds = t.take<std::size_t>(tuning::buckets + 1);
    scan_temp = t.take<std::uint8_t>(scan_bytes);
    kbuf = t.take<K>(n);
    if constexpr (!is_no_value<P>) vbuf = t.take<P>(n);
    merge_temp = t.take<std::uint8_t>(merge::sort_temp_bytes<merge_tune<K, P>, K, P>(n));
    bytes = t.bytes();
  }
};

template <class K, class P> std::size_t temp_bytes(const sort_problem<K, P>& p) {
  return plan<K, P>(*p.ctx, p.n, nullptr).bytes;
}

template <class K, class P, class Ord> void sort_with(const sort_problem<K, P>& p, const Ord& ord, void* temp) {
  using Tune = merge_tune<K, P>;
  const call_context& ctx = *p.ctx;
  const std::size_t n = p.n;
  plan<K, P> pl(ctx, n, temp);
  if (n <= tuning::direct_max)
    return merge::sort<Tune>(ctx, p.keys_in, p.keys_out, p.vals_in, p.vals_out, n, ord, p.stream, pl.merge_temp);

  // 1. splitters
  splitter_kernel<<<1, tuning::sample_threads, 0, p.stream>>>(p.keys_in, n, ord, pl.splitters);
  ctx.check_launch("sample splitters");
  // 2. count and scan
  const unsigned grid = grid_for(pl.tiles, 1);
  count_kernel<<<grid, tuning::threads, 0, p.stream>>>(p.keys_in, n, ord, pl.splitters, pl.counts, pl.tiles);
  ctx.check_launch("sample count");
  std::size_t scan_bytes = pl.scan_bytes;
  ctx.check(cub::DeviceScan::ExclusiveSum(pl.scan_temp, scan_bytes, pl.counts, pl.offsets, pl.table, p.stream),
            "cub::DeviceScan::ExclusiveSum");
  // 3. scatter
  scatter_kernel<<<grid, tuning::threads, 0, p.stream>>>(p.keys_in, p.vals_in, pl.kbuf, pl.vbuf, n, ord,
                                                         pl.splitters, pl.offsets, pl.tiles);
  ctx.check_launch("sample scatter");
  bucket_bounds_kernel<<<1, 512, 0, p.stream>>>(pl.offsets, pl.tiles, n, pl.bounds);
  ctx.check_launch("sample bucket bounds");
  // 4. small buckets on the device, in one launch
  segmented_sort_kernel<Tune::threads, Tune::items><<<tuning::buckets, Tune::threads, 0, p.stream>>>(
      pl.kbuf, p.keys_out, pl.vbuf, p.vals_out, pl.bounds, ord);
  ctx.check_launch("sample bucket sort");
  // the one host sync: bucket bounds
  std::vector<std::size_t> bounds(tuning::buckets + 1);
  ctx.check(cudaMemcpyAsync(bounds.data(), pl.bounds, bounds.size() * sizeof(std::size_t), cudaMemcpyDeviceToHost,
                            p.stream),
            "cudaMemcpyAsync(bucket bounds)");
  ctx.check(cudaStreamSynchronize(p.stream), "cudaStreamSynchronize(bucket bounds)");
  // 4b. large buckets
  for (int b = 0; b < tuning::buckets; ++b) {
    const std::size_t at = bounds[b], size = bounds[b + 1] - bounds[b];
    if (size <= std::size_t(Tune::tile)) continue;  // done by segmented_sort_kernel
    K* kout = p.keys_out + at;
    P* vout = p.vals_out ? p.vals_out + at : nullptr;
    P* vsrc = pl.vbuf ? pl.vbuf + at : nullptr;
    if (b % 2 == 1) {  // equality bucket: already in input order
      ctx.check(cudaMemcpyAsync(kout, pl.kbuf + at, size * sizeof(K), cudaMemcpyDeviceToDevice, p.stream),
                "cudaMemcpyAsync(equality bucket keys)");
      if constexpr (!is_no_value<P>)
        ctx.check(cudaMemcpyAsync(vout, vsrc, size * sizeof(P), cudaMemcpyDeviceToDevice, p.stream),
                  "cudaMemcpyAsync(equality bucket values)");
    } else {
      merge::sort<Tune>(ctx, pl.kbuf + at, kout, vsrc, vout, size, ord, p.stream, pl.merge_temp);
    }
  }
}

struct family {
  template <class K, class P> static std::size_t temp_bytes(const sort_problem<K, P>& p) {
    return sample::temp_bytes(p);
  }
  template <class K, class P> static void sort(const sort_problem<K, P>& p, void* temp) {
    if (p.n == 0) return;
    with_order(p.ord, [&](const auto& ord) { sort_with(p, ord, temp); });
  }
};

}  // namespace gpusort::detail::sample
