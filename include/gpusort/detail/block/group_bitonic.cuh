// Bitonic sort (Batcher 1968, "Sorting networks and their applications")
// of G x ITEMS elements held by a group of G lanes of one warp (G a power
// of two up to 32), ITEMS a thread, in registers: no shared memory and no
// barrier. Element e of the group's run is item e / G of lane e % G
// (striped), so a group loads and stores its run coalesced. Strides below
// G exchange with the partner lane (__shfl_xor_sync inside the group);
// strides of G or more pair items of the same lane.
//
// The network is not stable by itself: callers make every element unique
// (the segmented sort orders (rank, index) pairs), and pad a short run with
// elements that order after every real one.
#pragma once

#include <cstdint>

namespace gpusort::detail::block {

// One element exchanged between lanes: shuffled in 32-bit words.
template <class E> __device__ __forceinline__ E shfl_xor(const E& x, int mask, int width) {
  static_assert(sizeof(E) % 4 == 0, "elements are shuffled in words");
  E y;
  const auto* in = reinterpret_cast<const std::uint32_t*>(&x);
  auto* out = reinterpret_cast<std::uint32_t*>(&y);
#pragma unroll
  for (int w = 0; w < int(sizeof(E) / 4); ++w) out[w] = __shfl_xor_sync(0xFFFFFFFFu, in[w], mask, width);
  return y;
}

// Sorts the group's G x ITEMS elements ascending under `less`. Every lane
// of the warp must call it (the shuffles take the full mask); `lane` is the
// lane's index within its group.
template <int G, int ITEMS, class E, class Less>
__device__ __forceinline__ void group_bitonic_sort(E (&x)[ITEMS], unsigned lane, const Less& less) {
  static_assert(G >= 1 && G <= 32 && (G & (G - 1)) == 0, "a group is a power of two of lanes");
  static_assert((ITEMS & (ITEMS - 1)) == 0, "a power of two of items a lane");
  constexpr unsigned N = unsigned(G) * ITEMS;
#pragma unroll
  for (unsigned size = 2; size <= N; size <<= 1) {
#pragma unroll
    for (unsigned stride = size >> 1; stride > 0; stride >>= 1) {
      if (stride >= unsigned(G)) {
        // partner: item i ^ (stride / G) of this lane
#pragma unroll
        for (int i = 0; i < ITEMS; ++i) {
          const int j = i ^ int(stride / G);
          if (j > i) {
            const unsigned e = unsigned(i) * G + lane;
            const bool up = (e & size) == 0;
            if (up ? less(x[j], x[i]) : less(x[i], x[j])) {
              const E t = x[i];
              x[i] = x[j];
              x[j] = t;
            }
          }
        }
      } else {
        // partner: the same item of lane ^ stride
#pragma unroll
        for (int i = 0; i < ITEMS; ++i) {
          const unsigned e = unsigned(i) * G + lane;
          const E y = shfl_xor(x[i], int(stride), G);
          const bool up = (e & size) == 0;
          const bool low = (lane & stride) == 0;  // this lane holds the lower element of the pair
          // the lower slot keeps the smaller element when ascending
          const bool take = low == up ? less(y, x[i]) : less(x[i], y);
          if (take) x[i] = y;
        }
      }
    }
  }
}

}  // namespace gpusort::detail::block
