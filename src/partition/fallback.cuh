// The depth-limit fallback that sample sort and quicksort share: the ranges
// still too large after the last level (adversarial input only: a depth
// limit, as in introsort, Musser 1997, keeps the total O(n log n)) are
// sorted by the merge family's merge sort, all of them at once and without
// the host knowing how many there are or how large.
//
// The ranges are a device list (core/work_queue.cuh): entries with a begin
// and a size, counted on the device, at most `cap` of them (host-known).
// Each range lies in `src` (where the last level left it) and is sorted into
// `out`; `buf` is the ping-pong partner, the families' second key and value
// array, whose keys at the ranges' positions are dead by then. Stages:
//   plan     one block: each range's tiles (merge output tiles, TILE keys)
//            and runs (block-sort runs, RUN keys) as exclusive scans, their
//            totals and the largest range (block scans over the list)
//   map      one block per range: tile -> range and run -> range maps
//   runs     merge::segment_sort_kernel over the run list, src -> out
//            (in place when src is out: a run is read whole before it is
//            written)
//   passes   merge-path passes of width RUN, 2 RUN, ... up to the host bound
//            n: merge::partition_kernel and merge::merge_kernel over the
//            listed_tiles geometry; a range takes part while the width is
//            below its size (its data ping-pong out <-> buf), and a pass
//            whose width reaches the largest range has no tiles
//   copy     ranges that made an odd number of passes ended in buf: their
//            tiles are copied to out
// Every grid is sized from host-known bounds (n, cap) or is the resident
// grid; with no range, every launch's blocks leave at once: 4 + 2 x passes
// launches (passes = ceil(log2(n / RUN)): 30 for 2^26 u32 keys). Scratch:
// the lists and the splits, under 0.01 bytes a key plus 16 a range; no key
// buffer. Stable (the block sort and the merges are), so sample sort stays
// stable.
#pragma once

#include <gpusort/detail/block/scan.cuh>
#include <gpusort/detail/core/bit_width.hpp>
#include <gpusort/detail/core/context.hpp>
#include <gpusort/detail/core/launch.cuh>
#include <gpusort/detail/core/payload.cuh>
#include <gpusort/detail/core/temp_layout.hpp>
#include <gpusort/detail/merge/merge_passes.cuh>
#include <gpusort/detail/merge/segment_sort.cuh>

#include <cstddef>

namespace gpusort::detail::partition {

// The fallback's lists, for the merge tuning Tune (TILE = Tune::tile keys
// a merge output tile, RUN = Tune::sort_tile keys a block-sorted run).
struct fallback_lists {
  unsigned long long* first_tile = nullptr;  // [cap] exclusive scan of tiles
  unsigned long long* first_run = nullptr;   // [cap] exclusive scan of runs
  unsigned* tile_range = nullptr;            // [n / TILE + cap] range of each tile
  unsigned* run_range = nullptr;             // [n / RUN + cap] range of each run
  unsigned long long* totals = nullptr;      // tiles, runs, the largest range's keys
  std::size_t* splits = nullptr;             // [n / TILE + cap] merge-path splits
};

template <class Tune> struct fallback_scratch {
  static constexpr std::size_t tile = std::size_t(Tune::tile), run = std::size_t(Tune::sort_tile);
  std::size_t cap = 0, tile_bound = 0, run_bound = 0;
  fallback_lists l;

  fallback_scratch() = default;
  fallback_scratch(temp_layout& t, std::size_t n, std::size_t ranges) : cap(ranges) {
    tile_bound = n / tile + cap;
    run_bound = n / run + cap;
    l.first_tile = t.take<unsigned long long>(cap);
    l.first_run = t.take<unsigned long long>(cap);
    l.tile_range = t.take<unsigned>(tile_bound);
    l.run_range = t.take<unsigned>(run_bound);
    l.totals = t.take<unsigned long long>(3);
    l.splits = t.take<std::size_t>(tile_bound);
  }
};

// Where the ranges lie, where they go, and the ping-pong partner.
template <class K, class P> struct fallback_buffers {
  const K* ksrc;
  const P* vsrc;
  K* kout;
  P* vout;
  K* kbuf;
  P* vbuf;
};

__device__ __forceinline__ unsigned long long pieces(unsigned long long size, std::size_t piece) {
  return (size + piece - 1) / piece;
}
// Merge passes a range of `runs` runs takes: ceil(log2(runs)).
__device__ __forceinline__ int passes_of(unsigned long long runs) { return ceil_log2(runs); }

constexpr int fallback_threads = 512;

// plan: one block walks the list in steps of fallback_threads ranges.
template <std::size_t TILE, std::size_t RUN, class List>
__global__ void __launch_bounds__(fallback_threads) fallback_plan_kernel(List list, fallback_lists f) {
  constexpr int T = fallback_threads;
  __shared__ unsigned long long warp_sums[T / 32];
  __shared__ unsigned long long largest;
  const std::size_t count = list.size();
  if (threadIdx.x == 0) largest = 0;
  unsigned long long tiles_before = 0, runs_before = 0;
  for (std::size_t base = 0; base < count; base += T) {  // block-uniform
    const std::size_t q = base + threadIdx.x;
    const unsigned long long size = q < count ? list[q].size : 0;
    unsigned long long all_tiles, all_runs;
    const unsigned long long tile_at = block::block_exclusive_sum<T>(pieces(size, TILE), warp_sums, all_tiles);
    __syncthreads();
    const unsigned long long run_at = block::block_exclusive_sum<T>(pieces(size, RUN), warp_sums, all_runs);
    __syncthreads();
    if (q < count) {
      f.first_tile[q] = tiles_before + tile_at;
      f.first_run[q] = runs_before + run_at;
      atomicMax(&largest, size);
    }
    tiles_before += all_tiles;
    runs_before += all_runs;
  }
  __syncthreads();
  if (threadIdx.x == 0) {
    f.totals[0] = tiles_before;
    f.totals[1] = runs_before;
    f.totals[2] = largest;
  }
}

// map: one block per range.
template <std::size_t TILE, std::size_t RUN, class List>
__global__ void __launch_bounds__(256) fallback_map_kernel(List list, fallback_lists f) {
  const std::size_t count = list.size();
  for (std::size_t q = blockIdx.x; q < count; q += gridDim.x) {
    const unsigned long long size = list[q].size;
    const unsigned long long tiles = pieces(size, TILE), runs = pieces(size, RUN);
    for (unsigned long long t = threadIdx.x; t < tiles; t += 256) f.tile_range[f.first_tile[q] + t] = unsigned(q);
    for (unsigned long long r = threadIdx.x; r < runs; r += 256) f.run_range[f.first_run[q] + r] = unsigned(q);
  }
}

// The runs as a segment list for merge::segment_sort_kernel.
template <std::size_t RUN, class List> struct listed_runs {
  List list;
  fallback_lists f;
  __device__ std::size_t count() const { return std::size_t(f.totals[1]); }
  __device__ merge::segment operator()(std::size_t i) const {
    const unsigned q = f.run_range[i];
    const std::size_t begin = list[q].begin, size = list[q].size;
    const std::size_t at = std::size_t(i - f.first_run[q]) * RUN, left = size - at;
    return {begin + at, int(left < RUN ? left : RUN), false};
  }
};

// The merge kernels' tile geometry over the listed ranges (merge_passes.cuh).
template <std::size_t TILE, class List> struct listed_tiles {
  List list;
  fallback_lists f;
  // none once the width reaches the largest range
  __device__ __forceinline__ std::size_t tiles(std::size_t width) const {
    return width < f.totals[2] ? std::size_t(f.totals[0]) : 0;
  }
  __device__ __forceinline__ std::size_t boundaries(std::size_t width) const { return tiles(width); }
  __device__ __forceinline__ merge::tile_span at(std::size_t t, std::size_t width) const {
    const unsigned q = f.tile_range[t];
    const std::size_t size = list[q].size;
    return {list[q].begin, size, std::size_t(t - f.first_tile[q]) * TILE, width < size};
  }
};

// copy: the tiles of ranges that ended in buf.
template <std::size_t TILE, std::size_t RUN, class List, class K, class P>
__global__ void __launch_bounds__(256)
fallback_copy_kernel(List list, fallback_lists f, const K* kbuf, K* kout, const P* vbuf, P* vout) {
  const std::size_t tiles = std::size_t(f.totals[0]);
  for (std::size_t t = blockIdx.x; t < tiles; t += gridDim.x) {
    const unsigned q = f.tile_range[t];
    const std::size_t size = list[q].size;
    if (passes_of(pieces(size, RUN)) % 2 == 0) continue;  // block-uniform
    const std::size_t at = std::size_t(t - f.first_tile[q]) * TILE, left = size - at;
    const std::size_t from = list[q].begin + at, keys = left < TILE ? left : TILE;
    for (std::size_t i = threadIdx.x; i < keys; i += 256) {
      kout[from + i] = kbuf[from + i];
      if constexpr (!is_no_value<P>) vout[from + i] = vbuf[from + i];
    }
  }
}

// Sorts the listed ranges (List: a work_list whose entries have begin and
// size) from b.ksrc into b.kout, n keys in all (the host bound on a range).
template <class Tune, class List, class K, class P, class Ord>
void sort_fallback(const call_context& ctx, const fallback_scratch<Tune>& s, const List& list,
                   const fallback_buffers<K, P>& b, std::size_t n, Ord ord, cudaStream_t stream) {
  constexpr std::size_t TILE = fallback_scratch<Tune>::tile, RUN = fallback_scratch<Tune>::run;
  const fallback_lists& f = s.l;
  const unsigned sms = sm_count(ctx);
  fallback_plan_kernel<TILE, RUN><<<1, fallback_threads, 0, stream>>>(list, f);
  ctx.check_launch("fallback plan");
  fallback_map_kernel<TILE, RUN><<<grid_for(s.cap, 1, std::size_t(sms) * 2), 256, 0, stream>>>(list, f);
  ctx.check_launch("fallback map");
  // runs
  auto runs = merge::segment_sort_kernel<Tune::sort_threads, Tune::items, Tune::sort_blocks, K, P, Ord,
                                         listed_runs<RUN, List>>;
  const unsigned run_grid = resident_grid(ctx, runs, Tune::sort_threads);
  runs<<<s.run_bound < run_grid ? unsigned(s.run_bound) : run_grid, Tune::sort_threads, 0, stream>>>(
      b.ksrc, b.kout, b.vsrc, b.vout, listed_runs<RUN, List>{list, f}, ord);
  ctx.check_launch("fallback runs");
  // passes: out -> buf -> out ...
  const listed_tiles<TILE, List> geometry{list, f};
  auto merge = merge::merge_kernel<Tune::threads, Tune::items, Tune::merge_blocks, K, P, Ord, listed_tiles<TILE, List>>;
  const unsigned merge_grid = resident_grid(ctx, merge, Tune::threads);
  const unsigned partition_grid = grid_for(s.tile_bound, Tune::partition_threads, std::size_t(sms) * 4);
  K* k[2] = {b.kout, b.kbuf};
  P* v[2] = {b.vout, b.vbuf};
  int pass = 0;
  for (std::size_t width = RUN; width < n; width *= 2, ++pass) {
    const int from = pass % 2, to = 1 - from;
    merge::partition_kernel<<<partition_grid, Tune::partition_threads, 0, stream>>>(k[from], width, geometry, f.splits,
                                                                                  ord);
    ctx.check_launch("fallback merge partition");
    merge<<<s.tile_bound < merge_grid ? unsigned(s.tile_bound) : merge_grid, Tune::threads, 0, stream>>>(
        k[from], k[to], v[from], v[to], width, geometry, f.splits, ord);
    ctx.check_launch("fallback merge pass");
  }
  // copy
  if (pass > 0) {
    fallback_copy_kernel<TILE, RUN><<<grid_for(s.tile_bound, 1, std::size_t(sms) * 8), 256, 0, stream>>>(
        list, f, b.kbuf, b.kout, b.vbuf, b.vout);
    ctx.check_launch("fallback copy");
  }
}

}  // namespace gpusort::detail::partition
