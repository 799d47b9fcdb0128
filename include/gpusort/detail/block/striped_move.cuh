// A tile moved through registers in the warp-striped layout (striped.cuh):
// onesweep's copies and reversals of presorted input.
#pragma once

#include <gpusort/detail/block/striped.cuh>

namespace gpusort::detail::block {

// A tile of `valid` elements moved, ITEMS a thread, in rounds of BATCH
// items: each thread issues a round's loads before its first store, so BATCH
// loads a thread are in flight (a loop of one load and one store a thread
// keeps one in flight, and copied at about half the copy rate), in BATCH
// elements' registers (a kernel that holds a whole tile elsewhere has none
// to spare). fetch(slot) -> an element; store(slot, element) may compute
// the slot's destination (its loads are already issued).
template <int ITEMS, int BATCH, class Fetch, class Store>
__device__ __forceinline__ void move_striped(int valid, Fetch fetch, Store store) {
  decltype(fetch(0u)) x[BATCH];
#pragma unroll 1
  for (int i0 = 0; i0 < ITEMS; i0 += BATCH) {
#pragma unroll
    for (int b = 0; b < BATCH; ++b) {
      const unsigned slot = striped_slot<ITEMS>(i0 + b);
      if (i0 + b < ITEMS && int(slot) < valid) x[b] = fetch(slot);
    }
#pragma unroll
    for (int b = 0; b < BATCH; ++b) {
      const unsigned slot = striped_slot<ITEMS>(i0 + b);
      if (i0 + b < ITEMS && int(slot) < valid) store(slot, x[b]);
    }
  }
}

}  // namespace gpusort::detail::block
