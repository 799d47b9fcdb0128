// Warp-striped tiles in registers: the layout of the rankers (rank.cuh) and
// of every kernel that ranks a tile (onesweep's passes, the block radix
// sort, the partition scatter). Item i of lane l in warp w is tile slot
// w * 32 * ITEMS + i * 32 + l, so a warp's loads of one item are one
// coalesced request, and a thread issues all of its loads before the first
// use. FULL tiles load without guards: with the guard inside an unrolled
// loop, ptxas keeps a predicate per item (docs/perf/radix.md).
#pragma once

#include <gpusort/detail/block/warp.cuh>

namespace gpusort::detail::block {

// f(i, slot, live) for each item i of this thread; live: the slot holds a
// key (always, when FULL).
template <bool FULL, int ITEMS, class F> __device__ __forceinline__ void for_striped(int valid, F f) {
#pragma unroll
  for (int i = 0; i < ITEMS; ++i) {
    const unsigned slot = striped_slot<ITEMS>(i);
    f(i, slot, FULL || int(slot) < valid);
  }
}

// x[i] = fetch(slot of item i) where live, `pad` elsewhere.
template <bool FULL, int ITEMS, class T, class Fetch>
__device__ __forceinline__ void load_striped(T (&x)[ITEMS], int valid, const T& pad, Fetch fetch) {
  for_striped<FULL, ITEMS>(valid, [&](int i, unsigned slot, bool live) { x[i] = live ? fetch(slot) : pad; });
}

}  // namespace gpusort::detail::block
