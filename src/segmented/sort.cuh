// gpusort::segmented_sort_keys / _pairs: many independent stable sorts in
// one call, with no host synchronisation (the call can be captured in a
// CUDA graph). The phases and their files:
//   bin     every segment to its size class, on the device (bins.cuh)
//   small   one kernel per class up to tuning::block_max keys (small.cuh)
//   large   runs, merge-path passes and a gather for the rest (large.cuh)
// Every grid is sized from what the host knows (n, the number of
// segments); the kernels read their work from the class list.
//
// Scratch (one temp block): the class list; a copy of the input for
// in-place calls (the outputs gather from the input); and, when a segment
// can be large (n > block_max), the large list and two (rank, index)
// buffers of n elements.
#pragma once

#include "segmented/call.hpp"
#include "segmented/large.cuh"
#include "segmented/plan.hpp"
#include "segmented/small.cuh"

#include <gpusort/detail/core/context.hpp>
#include <gpusort/detail/core/launch.cuh>
#include <gpusort/detail/core/temp_layout.hpp>
#include <gpusort/detail/merge/merge_passes.cuh>

#include <cstddef>
#include <cstdint>
#include <map>
#include <mutex>
#include <utility>

namespace gpusort::detail::segmented {

// Resident blocks of `kernel` on the current device, asked of the runtime
// once per kernel and device: a call launches ~20 kernels, and an occupancy
// query before each launch left the GPU waiting on the host.
template <class Kernel> unsigned cached_resident_grid(const call_context& ctx, Kernel kernel, int threads) {
  int dev = 0;
  ctx.check(cudaGetDevice(&dev), "cudaGetDevice");
  static std::mutex lock;
  static std::map<std::pair<const void*, int>, unsigned> grids;
  const std::pair<const void*, int> key{reinterpret_cast<const void*>(kernel), dev};
  {
    std::lock_guard<std::mutex> hold(lock);
    if (auto it = grids.find(key); it != grids.end()) return it->second;
  }
  const unsigned grid = resident_grid(ctx, kernel, threads);
  std::lock_guard<std::mutex> hold(lock);
  grids[key] = grid;
  return grid;
}

// Resident blocks of `kernel`, but no more than `work` blocks' worth.
template <class Kernel> unsigned class_grid(const call_context& ctx, Kernel kernel, int threads, std::size_t work) {
  const unsigned resident = cached_resident_grid(ctx, kernel, threads);
  return work < resident ? unsigned(work > 0 ? work : 1) : resident;
}

// Host-known bound on segments of at least `min_size` keys.
inline std::size_t at_most(std::size_t segments, std::size_t n, std::size_t min_size) {
  const std::size_t fit = n / min_size;
  return segments < fit ? segments : fit;
}

template <class K> struct launch_args {
  class_args<K> args;
  cudaStream_t stream;
  const call_context* ctx_ptr;
};

template <int C, class K> void launch_groups(const launch_args<K>& a, std::size_t segments, std::size_t n) {
  if constexpr (C < tuning::group_classes) {
    constexpr int G = tuning::group_lanes[C], ITEMS = tuning::group_items[C];
    constexpr int per_block = tuning::group_threads / G;
    const std::size_t min_size = (std::size_t(1) << C) + 1;  // capacity 2^(C+1)
    auto kernel = group_kernel<G, ITEMS, K>;
    const unsigned grid = class_grid(*a.ctx_ptr, kernel, tuning::group_threads,
                                     (at_most(segments, n, min_size) + per_block - 1) / per_block);
    kernel<<<grid, tuning::group_threads, 0, a.stream>>>(a.args, tuning::first_group + C);
    a.ctx_ptr->check_launch("segmented group sort");
    launch_groups<C + 1>(a, segments, n);
  }
}

template <int C, class K> void launch_blocks(const launch_args<K>& a, std::size_t segments, std::size_t n) {
  if constexpr (C < tuning::block_classes) {
    constexpr int T = tuning::block_threads[C], ITEMS = tuning::block_items[C];
    const std::size_t min_size = (std::size_t(256) << C) + 1;
    auto kernel = block_kernel<T, ITEMS, K>;
    const unsigned grid = class_grid(*a.ctx_ptr, kernel, T, at_most(segments, n, min_size));
    kernel<<<grid, T, 0, a.stream>>>(a.args, tuning::first_block + C);
    a.ctx_ptr->check_launch("segmented block sort");
    launch_blocks<C + 1>(a, segments, n);
  }
}

// The large class for indices of type I (u32 while n < 2^32).
template <class K, class I> struct large_path {
  using U = typename key_traits<K>::bits;
  using tune = tuning::large<U, I>;
  static constexpr std::size_t run = std::size_t(tune::sort_tile), tile = std::size_t(tune::tile);

  large_scratch plan;
  U* rank[2];
  I* index[2];
  std::size_t* splits;

  large_path(temp_layout& t, std::size_t bound, std::size_t n) {
    plan = take_large(t, bound, n, run, tile);
    rank[0] = t.take<U>(n);
    rank[1] = t.take<U>(n);
    index[0] = t.take<I>(n);
    index[1] = t.take<I>(n);
    splits = t.take<std::size_t>(n / tile + bound + 1);
  }

  void sort(const call<K>& c, const K* kin, const offsets& off, const bins& b, const value_mover& vals) const {
    const call_context& ctx = *c.ctx;
    const std::size_t bound = plan.list.bound;
    plan_large(ctx, off, b, plan, run, tile, c.stream);
    // runs
    auto runs = run_kernel<tune::sort_threads, tune::items, K, I>;
    run_kernel<tune::sort_threads, tune::items, K, I>
        <<<class_grid(ctx, runs, tune::sort_threads, c.n / run + bound), tune::sort_threads, 0, c.stream>>>(
            kin, c.ord, plan.list, rank[0], index[0]);
    ctx.check_launch("segmented run sort");
    // passes, up to the largest segment there can be
    const segment_tiles geometry{plan.list, tile};
    const full_order<U> ord{};
    const std::size_t tile_bound = c.n / tile + bound;
    auto merge = merge::merge_kernel<tune::threads, tune::items, tune::merge_blocks, U, I, full_order<U>,
                                     segment_tiles>;
    const unsigned merge_grid = class_grid(ctx, merge, tune::threads, tile_bound);
    int pass = 0;
    for (std::size_t width = run; width < c.n; width *= 2, ++pass) {
      const int from = pass % 2, to = 1 - from;
      merge::partition_kernel<<<grid_for(tile_bound, tune::partition_threads), tune::partition_threads, 0,
                                c.stream>>>(rank[from], width, geometry, splits, ord);
      ctx.check_launch("segmented merge partition");
      merge<<<merge_grid, tune::threads, 0, c.stream>>>(rank[from], rank[to], index[from], index[to], width,
                                                        geometry, splits, ord);
      ctx.check_launch("segmented merge pass");
    }
    // gather
    auto gather = gather_kernel<K, I>;
    gather<<<class_grid(ctx, gather, 256, tile_bound), 256, 0, c.stream>>>(kin, c.keys_out, vals, plan.list, tile,
                                                                            index[0], index[1]);
    ctx.check_launch("segmented gather");
  }
};

template <class K> struct layout {
  bins b;
  K* key_copy = nullptr;
  void* val_copy = nullptr;
  std::size_t large_bound = 0;

  layout(temp_layout& t, const call<K>& c) {
    b = take_bins(t, c.segments);
    if (c.keys_in == c.keys_out) key_copy = t.take<K>(c.n);
    if (c.val_size && c.vals_in == c.vals_out) val_copy = t.take<std::uint8_t>(c.n * c.val_size);
    large_bound = at_most(c.segments, c.n, std::size_t(tuning::block_max) + 1);
  }
};

template <class K> void run(const call<K>& c) {
  const call_context& ctx = *c.ctx;
  temp_layout t(c.temp);
  const layout<K> lay(t, c);
  const bool wide = c.n > 0xFFFFFFFFull;
  const std::size_t large_at = t.bytes();
  if (lay.large_bound) {
    if (wide) large_path<K, std::uint64_t>(t, lay.large_bound, c.n);
    else large_path<K, std::uint32_t>(t, lay.large_bound, c.n);
  }
  if (!c.temp) {
    *c.temp_bytes = t.bytes() ? t.bytes() : 1;
    return;
  }
  if (*c.temp_bytes < t.bytes())
    ctx.fail(errc::invalid_argument, "temp_bytes smaller than the query returned (" + std::to_string(t.bytes()) + ")");
  if (c.n == 0 || c.segments == 0) return;

  // in place: the outputs gather from a copy of the input
  const K* kin = c.keys_in;
  const void* vin = c.vals_in;
  if (lay.key_copy) {
    ctx.check(cudaMemcpyAsync(lay.key_copy, kin, c.n * sizeof(K), cudaMemcpyDeviceToDevice, c.stream),
              "cudaMemcpyAsync(keys)");
    kin = lay.key_copy;
  }
  if (lay.val_copy) {
    ctx.check(cudaMemcpyAsync(lay.val_copy, vin, c.n * c.val_size, cudaMemcpyDeviceToDevice, c.stream),
              "cudaMemcpyAsync(values)");
    vin = lay.val_copy;
  }
  const offsets off{c.begin_offsets, c.end_offsets, c.offset_bytes, c.n};
  const value_mover vals = value_mover::of(c.val_size ? vin : nullptr, c.vals_out, c.val_size);

  // bin
  bin_segments(ctx, off, c.segments, lay.b, c.stream);

  // small
  const launch_args<K> a{{kin, c.keys_out, vals, off, lay.b, c.ord}, c.stream, &ctx};
  {
    auto copy = copy_kernel<K>;
    copy<<<class_grid(ctx, copy, tuning::group_threads, (c.segments + 255) / 256), tuning::group_threads, 0,
           c.stream>>>(a.args);
    ctx.check_launch("segmented copy");
  }
  launch_groups<0>(a, c.segments, c.n);
  launch_blocks<0>(a, c.segments, c.n);

  // large
  if (lay.large_bound) {
    temp_layout lt(static_cast<std::uint8_t*>(c.temp) + large_at);
    if (wide) large_path<K, std::uint64_t>(lt, lay.large_bound, c.n).sort(c, kin, off, lay.b, vals);
    else large_path<K, std::uint32_t>(lt, lay.large_bound, c.n).sort(c, kin, off, lay.b, vals);
  }
}

}  // namespace gpusort::detail::segmented
