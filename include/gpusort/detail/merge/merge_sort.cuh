// The fast merge sort: CUDA lecture 6, "Understanding parallel thinking from the parallel sort method"'s three stages with merge path (Green,
// McColl & Bader 2012), structured like CUB's and ModernGPU's merge sorts.
//   block sort   stages 1-2 per tile of THREADS x ITEMS (segment_sort.cuh)
//   merge passes stage 3, ceil(log2(tiles)) times (merge_passes.cuh)
// Buffers ping-pong between the output and one scratch array; the block
// sort writes to whichever makes the last pass land in the output, so no
// copy is needed at the end. Stable; any strict weak order (`Ord`, see
// merge_passes.cuh) on the carried key type, so custom key types sort
// through a comparator.
#pragma once

#include <gpusort/detail/core/context.hpp>
#include <gpusort/detail/core/launch.cuh>
#include <gpusort/detail/core/temp_layout.hpp>
#include <gpusort/detail/key_traits.hpp>
#include <gpusort/detail/merge/merge_passes.cuh>
#include <gpusort/detail/merge/segment_sort.cuh>

#include <cstddef>

namespace gpusort::detail::merge {

// One tuning struct for the family, read by kernels and host alike. The
// figures behind each choice are in docs/perf/merge.md.
template <class T, class P> struct tuning {
  static constexpr int element = int(sizeof(T)) + (is_no_value<P> ? 0 : int(sizeof(P)));
  static constexpr int threads = 256;
  static constexpr int items = element <= 4 ? 19 : (element <= 8 ? 11 : 7);
  static constexpr int tile = threads * items;  // merge pass output per block
  // The block sort may use more threads than a merge pass: each doubling of
  // its sorted runs saves one global merge pass (512 x 19 for 4-byte
  // elements: 9728-key runs).
  static constexpr int sort_threads = element <= 8 ? 512 : threads;
  static constexpr int sort_tile = sort_threads * items;
  static constexpr int partition_threads = 256;
  // Blocks per SM the register budget must allow (__launch_bounds__), swept
  // with the items: block sort 4 x 512 threads for 4-byte elements (<= 32
  // registers), 3 x 512 for 8-byte; merge passes 6 x 256 for both (<= 42
  // registers). Wider elements keep ptxas's choice.
  static constexpr int sort_blocks = element <= 4 ? 4 : (element <= 8 ? 3 : 1);
  static constexpr int merge_blocks = element <= 4 ? 6 : (element <= 8 ? 6 : 1);
  // The same block sort at `threads` for segments of at most one merge tile
  // (sample sort's buckets, merge_recursive's leaves): 7 blocks per SM for
  // 4-byte elements (<= 36 registers), 6 for 8-byte, as swept for merge::sort
  // before its block sort grew to 512 threads.
  static constexpr int segment_blocks = element <= 4 ? 7 : (element <= 8 ? 6 : 1);
};

// One merge pass: the pairs of sorted `width`-item runs that the output
// tiles `tiles` cover are merged from kin into kout (stage 3, once). splits
// holds tiles.boundaries() entries. merge::sort runs each pass whole
// (flat_tiles); the host pipeline (src/host/in_core.cpp) merges a pair of
// chunks as soon as both are sorted and streams its last pass out window by
// window (window_tiles).
template <class Tune, class K, class P, order_for<K> Ord, class Tiles>
void merge_pass(const call_context& ctx, const K* kin, K* kout, const P* vin, P* vout, Tiles tiles,
                std::size_t width, std::size_t* splits, Ord ord, cudaStream_t stream) {
  const std::size_t count = tiles.tiles(width);
  if (count == 0) return;
  partition_kernel<<<grid_for(count + 1, Tune::partition_threads), Tune::partition_threads, 0, stream>>>(
      kin, width, tiles, splits, ord);
  ctx.check_launch("merge partition");
  merge_kernel<Tune::threads, Tune::items, Tune::merge_blocks><<<grid_for(count, 1), Tune::threads, 0, stream>>>(
      kin, kout, vin, vout, width, tiles, splits, ord);
  ctx.check_launch("merge pass");
}

// Scratch: a second key array, a second value array, the splits.
template <class Tune, class K, class P> std::size_t sort_temp_bytes(std::size_t n) {
  temp_layout plan;
  plan.take<K>(n);
  if constexpr (!is_no_value<P>) plan.take<P>(n);
  plan.take<std::size_t>((n + Tune::tile - 1) / Tune::tile + 1);
  return plan.bytes();
}

template <class Tune, class K, class P, order_for<K> Ord>
void sort(const call_context& ctx, const K* kin, K* kout, const P* vin, P* vout, std::size_t n, Ord ord,
          cudaStream_t stream, void* temp) {
  if (n == 0) return;
  constexpr int IT = Tune::items, TILE = Tune::tile, RUN = Tune::sort_tile;
  temp_layout plan(temp);
  K* kbuf = plan.take<K>(n);
  P* vbuf = nullptr;
  if constexpr (!is_no_value<P>) vbuf = plan.take<P>(n);
  const std::size_t tiles = (n + TILE - 1) / TILE;
  std::size_t* splits = plan.take<std::size_t>(tiles + 1);
  int passes = ceil_log2((n + RUN - 1) / RUN);
  // the block sort writes where the last pass must read from
  K* k_src = passes % 2 ? kbuf : kout;
  P* v_src = passes % 2 ? vbuf : vout;
  K* k_dst = passes % 2 ? kout : kbuf;
  P* v_dst = passes % 2 ? vout : vbuf;
  segment_sort_kernel<Tune::sort_threads, IT, Tune::sort_blocks><<<grid_for((n + RUN - 1) / RUN, 1), Tune::sort_threads, 0, stream>>>(
      kin, k_src, vin, v_src, tile_segments{n, RUN}, ord);
  ctx.check_launch("merge block sort");
  for (std::size_t width = RUN; width < n; width *= 2) {
    merge_pass<Tune>(ctx, k_src, k_dst, v_src, v_dst, flat_tiles{n, std::size_t(TILE)}, width, splits, ord, stream);
    std::swap(k_src, k_dst);
    std::swap(v_src, v_dst);
  }
}

}  // namespace gpusort::detail::merge
