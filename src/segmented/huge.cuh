// Segmented sort, phase 3b: segments of more than tuning::large_max keys
// (2^28), too long for the look-back counts of the onesweep passes
// (large.cuh), spread over many blocks. The merge family's three-stage
// merge sort (merge_sort.cuh), run on every huge segment at once:
//
//   plan     per huge segment: its runs (of RUN keys) and tiles (of TILE
//            keys), scanned into a run list and a tile list (which segment
//            each run and each tile belongs to) on the device
//            (plan.cu, compiled once)
//   runs     one block sorts each run: (rank, index) elements, index = the
//            key's position in its segment (block_sort_run),
//            into buffer 0
//   passes   merge-path passes of width RUN, 2 RUN, ... over the tile
//            list: the merge family's partition and merge kernels with the
//            segmented tile geometry (segment_tiles), so every tile is a
//            block however few and large the segments. A segment takes part
//            in a pass while the width is below its size; its elements
//            ping-pong between buffers 0 and 1.
//   gather   per tile, the output takes key and value number `index` of
//            the segment's input, from the buffer the segment's last pass
//            wrote (values.cuh)
// The number of passes is bounded on the host by the largest segment there
// can be (n keys); passes past a segment's own are empty for it, and past
// the largest segment (max_size, found by the plan) their kernels return at
// once.
#pragma once

#include "segmented/call.hpp"
#include "segmented/grid.cuh"
#include "segmented/lists.cuh"
#include "segmented/plan.hpp"
#include "segmented/block.cuh"

#include <gpusort/detail/merge/merge_passes.cuh>
#include <gpusort/detail/merge/merge_sort.cuh>

#include <cstddef>
#include <cstdint>

namespace gpusort::detail::segmented {

// Segment q's passes: one per doubling of its sorted runs.
__device__ __forceinline__ int passes_of(const segment_list& l, unsigned q) {
  const unsigned long long runs = l.first_run[q + 1] - l.first_run[q];
  int p = 0;
  while ((1ull << p) < runs) ++p;
  return p;
}

// The merge kernels' tile geometry for the huge segments (merge_passes.cuh).
struct segment_tiles {
  segment_list l;
  std::size_t tile;
  // none once the width reaches the largest segment: the passes past every
  // segment's own end at once
  __device__ __forceinline__ std::size_t tiles(std::size_t width) const {
    return width < *l.max_size ? std::size_t(l.first_tile[l.bound]) : 0;
  }
  __device__ __forceinline__ std::size_t boundaries(std::size_t width) const { return tiles(width); }
  __device__ __forceinline__ merge::tile_span at(std::size_t t, std::size_t width) const {
    const unsigned q = l.tile_seg[t];
    const std::size_t n = l.size[q];
    return {l.begin[q], n, std::size_t(t - l.first_tile[q]) * tile, width < n};
  }
};

// runs: each run of each huge segment, sorted by one block into buffer 0.
template <int THREADS, int ITEMS, class K, class I>
__global__ void __launch_bounds__(THREADS) run_kernel(const K* kin, key_order<K> ord, segment_list l,
                                                       typename key_traits<K>::bits* rank0, I* index0) {
  __shared__ block::tile_storage<typename key_traits<K>::bits, I, THREADS * ITEMS> s;
  constexpr unsigned RUN = THREADS * ITEMS;
  const std::size_t runs = std::size_t(l.first_run[l.bound]);
  for (std::size_t r = blockIdx.x; r < runs; r += gridDim.x) {
    const unsigned q = l.run_seg[r];
    const std::size_t at = std::size_t(r - l.first_run[q]) * RUN;  // first key of the run in its segment
    const std::size_t left = l.size[q] - at;
    const unsigned size = left < RUN ? unsigned(left) : RUN;
    const std::size_t base = l.begin[q] + at;
    block_sort_run<THREADS, ITEMS>(kin + base, size, ord, I(at), s);
#pragma unroll
    for (int i = 0; i < ITEMS; ++i) {
      const unsigned j = threadIdx.x + unsigned(i) * THREADS;
      if (j < size) {
        rank0[base + j] = s.keys[j];
        index0[base + j] = s.vals[j];
      }
    }
    __syncthreads();
  }
}

// gather: tile t of the tile list, from the buffer its segment ended in.
template <class K, class I>
__global__ void __launch_bounds__(256) gather_kernel(const K* kin, K* kout, value_mover vals, segment_list l,
                                                      std::size_t tile, const I* index0, const I* index1) {
  const std::size_t tiles = std::size_t(l.first_tile[l.bound]);
  for (std::size_t t = blockIdx.x; t < tiles; t += gridDim.x) {
    const unsigned q = l.tile_seg[t];
    const std::size_t base = l.begin[q];
    const std::size_t at = std::size_t(t - l.first_tile[q]) * tile;
    const std::size_t left = l.size[q] - at;
    const unsigned size = left < tile ? unsigned(left) : unsigned(tile);
    const I* index = passes_of(l, q) % 2 ? index1 : index0;
    for (unsigned j = threadIdx.x; j < size; j += 256) {
      const std::size_t from = base + std::size_t(index[base + at + j]);
      kout[base + at + j] = kin[from];
      vals.move(base + at + j, from);
    }
  }
}

// The huge class for indices of type I (u32 while n < 2^32).
template <class K, class I> struct huge_path {
  using U = typename key_traits<K>::bits;
  using tune = tuning::huge<U, I>;
  static constexpr std::size_t run = std::size_t(tune::sort_tile), tile = std::size_t(tune::tile);

  list_scratch plan;
  U* rank[2];
  I* index[2];
  std::size_t* splits;

  huge_path(temp_layout& t, std::size_t bound, std::size_t n) {
    plan = take_list(t, bound, n, run, tile);
    rank[0] = t.take<U>(n);
    rank[1] = t.take<U>(n);
    index[0] = t.take<I>(n);
    index[1] = t.take<I>(n);
    splits = t.take<std::size_t>(n / tile + bound + 1);
  }

  void sort(const call<K>& c, const K* kin, const offsets& off, const bins& b, const value_mover& vals) const {
    const call_context& ctx = *c.ctx;
    const std::size_t bound = plan.list.bound;
    plan_list(ctx, off, b, tuning::huge_class, plan, run, tile, c.stream);
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

}  // namespace gpusort::detail::segmented
