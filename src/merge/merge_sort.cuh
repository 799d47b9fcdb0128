// The fast merge sort: seed 000's three stages with merge path (Green,
// McColl & Bader 2012), structured like CUB's and ModernGPU's merge sorts.
//   block sort   stages 1-2 per tile of THREADS x ITEMS (segment_sort.cuh)
//   merge passes stage 3, ceil(log2(tiles)) times (merge_passes.cuh)
// Buffers ping-pong between the output and one scratch array; the block
// sort writes to whichever makes the last pass land in the output, so no
// copy is needed at the end. Stable; any strict weak order (`Ord`, see
// merge_passes.cuh) on the carried key type, so custom key types sort
// through a comparator.
#pragma once

#include "core/context.hpp"
#include "core/launch.cuh"
#include "core/temp_layout.hpp"
#include "merge/merge_passes.cuh"
#include "merge/segment_sort.cuh"

#include <cstddef>

namespace gpusort::detail::merge {

// One tuning struct for the family (CUB sm_90 uses 256 x 17 for 4-byte keys;
// 256 x 19 measured faster here).
template <class T, class P> struct tuning {
  static constexpr int element = int(sizeof(T)) + (is_no_value<P> ? 0 : int(sizeof(P)));
  static constexpr int threads = 256;
  static constexpr int items = element <= 4 ? 19 : (element <= 8 ? 11 : 7);
  static constexpr int tile = threads * items;
  static constexpr int partition_threads = 256;
  // Blocks per SM the register budget must allow (__launch_bounds__), swept
  // with the items on the H200 at 2^26 and 2^28 (docs/perf/merge.md).
  // 4-byte elements: 19 items, 7 block-sort blocks (<= 36 registers; ptxas
  // chose 57 for 17 items: 49% warps active) and 6 merge blocks (<= 42;
  // it chose 64): u32 3.36 -> 3.01 ms at 2^26. 8-byte elements (u64 keys,
  // u32+u32 pairs): 6 and 6: u64 7.73 -> 5.77 ms, pairs 7.79 -> 5.46.
  // Wider elements keep ptxas's choice (not measured).
  static constexpr int sort_blocks = element <= 4 ? 7 : (element <= 8 ? 6 : 1);
  static constexpr int merge_blocks = element <= 4 ? 6 : (element <= 8 ? 6 : 1);
};

// Scratch: a second key array, a second value array, the splits.
template <class Tune, class K, class P> std::size_t sort_temp_bytes(std::size_t n) {
  temp_layout plan;
  plan.take<K>(n);
  if constexpr (!is_no_value<P>) plan.take<P>(n);
  plan.take<std::size_t>((n + Tune::tile - 1) / Tune::tile + 1);
  return plan.bytes();
}

template <class Tune, class K, class P, class Ord>
void sort(const call_context& ctx, const K* kin, K* kout, const P* vin, P* vout, std::size_t n, Ord ord,
          cudaStream_t stream, void* temp) {
  if (n == 0) return;
  constexpr int TH = Tune::threads, IT = Tune::items, TILE = Tune::tile;
  temp_layout plan(temp);
  K* kbuf = plan.take<K>(n);
  P* vbuf = nullptr;
  if constexpr (!is_no_value<P>) vbuf = plan.take<P>(n);
  const std::size_t tiles = (n + TILE - 1) / TILE;
  std::size_t* splits = plan.take<std::size_t>(tiles + 1);
  int passes = ceil_log2(tiles);
  // the block sort writes where the last pass must read from
  K* k_src = passes % 2 ? kbuf : kout;
  P* v_src = passes % 2 ? vbuf : vout;
  K* k_dst = passes % 2 ? kout : kbuf;
  P* v_dst = passes % 2 ? vout : vbuf;
  segment_sort_kernel<TH, IT, Tune::sort_blocks><<<grid_for(tiles, 1), TH, 0, stream>>>(kin, k_src, vin, v_src, tile_segments{n, TILE},
                                                                      ord);
  ctx.check_launch("merge block sort");
  for (std::size_t width = TILE; width < n; width *= 2) {
    partition_kernel<<<grid_for(tiles + 1, Tune::partition_threads), Tune::partition_threads, 0, stream>>>(
        k_src, n, width, std::size_t(TILE), tiles + 1, splits, ord);
    ctx.check_launch("merge partition");
    merge_kernel<TH, IT, Tune::merge_blocks><<<grid_for(tiles, 1), TH, 0, stream>>>(k_src, k_dst, v_src, v_dst, n, width, splits, ord);
    ctx.check_launch("merge pass");
    std::swap(k_src, k_dst);
    std::swap(v_src, v_dst);
  }
}

}  // namespace gpusort::detail::merge
