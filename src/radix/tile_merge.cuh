// radix_tile, step 3: merging the radix-sorted tiles, one level per launch
// pair, with the merge family's merge-path passes (merge/merge_passes.cuh):
//   partition  one thread per output-tile boundary finds, by binary search
//              in global memory, how many items of the left run precede it
//   merge      one block per output tile loads its slices of both runs into
//              shared memory, each thread merges ITEMS outputs (merge path
//              again, inside the tile), and the block stores them coalesced
// Runs of length `run` are merged pairwise into runs of 2 * run. The tile
// sort orders keys by the digits of key_order::rank over all bits, so
// merging under full_order continues the same sort (radix_tile compares,
// so partial bit ranges reach it as ranks: core/run_family.cuh). Ties go to the left run, so the
// merge is stable.
#pragma once

#include <gpusort/detail/core/launch.cuh>
#include "core/problem.cuh"
#include <gpusort/detail/merge/merge_passes.cuh>

#include <cstddef>

namespace gpusort::detail::radix {

// One block merges `tile` outputs. merge_kernel takes every output tile to
// lie inside one pair of runs, so `tile` must divide 2 * run at every level
// (tile.cuh checks it for the first, the tile sort's; doubling keeps it).
// A tile's keys and values (one spare slot each) are static shared memory,
// under 48 KB at every width: 4096 x 8 B, 2048 x 16 B, 1536 x 24 B.
template <class U, class P> struct merge_config {
  static constexpr int element = element_bytes<U, P>;
  static constexpr int threads = 256;
  static constexpr int items = element <= 8 ? 16 : (element <= 16 ? 8 : 6);  // outputs per thread
  static constexpr int tile = threads * items;                             // outputs per block
  static constexpr int partition_threads = 128;
  // Blocks per SM the registers must allow (__launch_bounds__): 6 for
  // elements up to 8 bytes (<= 42 registers), as merge's own passes. Wider
  // elements keep ptxas's choice.
  static constexpr int min_blocks = element <= 8 ? 6 : 1;

  static constexpr std::size_t tiles(std::size_t n) { return (n + tile - 1) / tile; }
  // Splits a level needs: one per output-tile boundary, both ends included.
  static constexpr std::size_t splits(std::size_t n) { return tiles(n) + 1; }
};

// One merge level under `ord`: runs of `run` in (ksrc, vsrc) -> runs of
// 2 * run in (kdst, vdst).
template <class C, class K, class P, class Ord>
void merge_level(const sort_problem<K, P>& p, const Ord& ord, const K* ksrc, K* kdst, const P* vsrc, P* vdst,
                 std::size_t run, std::size_t* splits) {
  const call_context& ctx = *p.ctx;
  const std::size_t tiles = C::tiles(p.n);
  merge::partition_kernel<<<grid_for(tiles + 1, C::partition_threads), C::partition_threads, 0, p.stream>>>(
      ksrc, run, merge::flat_tiles{p.n, std::size_t(C::tile)}, splits, ord);
  ctx.check_launch("radix tile merge partition");
  merge::merge_kernel<C::threads, C::items, C::min_blocks>
      <<<grid_for(tiles, 1), C::threads, 0, p.stream>>>(ksrc, kdst, vsrc, vdst, run, merge::flat_tiles{p.n, std::size_t(C::tile)}, splits, ord);
  ctx.check_launch("radix tile merge");
}

}  // namespace gpusort::detail::radix
