// Two lanes of a warp sort 2N unsigned integers, N a lane (N a power of
// two): the lower lane (lane ^ 1 = its partner, `upper` the odd one) ends
// with the N least ascending, the upper lane with the rest ascending. Each
// lane sorts its own N by Batcher's network (thread_sort.cuh), the upper one
// descending: its items are complemented before and after (~x reverses
// their order, so no comparator depends on the lane). Then one bitonic
// merge (Batcher 1968, "Sorting networks and their applications"): item i
// against the partner's item i, the lower lane keeping the lesser, the
// upper the greater, leaves each lane a bitonic sequence, ascending after
// its half-cleaners. That is N shuffles of an item, against about one a
// comparator for the same network laid across lanes (group_bitonic.cuh).
// Not stable: callers make every item unique, or equal items identical
// (the segmented sort's (rank, index) words, or the ranks of keys alone).
// Every lane of the warp calls it.
#pragma once

#include <gpusort/detail/block/thread_sort.cuh>

#include <type_traits>

namespace gpusort::detail::block {

template <int N, class E> __device__ __forceinline__ void lane_pair_sort(E (&x)[N], bool upper) {
  static_assert(std::is_unsigned_v<E>, "items whose complement reverses their order");
  const E flip = upper ? E(~E(0)) : E(0);
#pragma unroll
  for (int i = 0; i < N; ++i) x[i] ^= flip;
  thread_network_sort(x, unsigned_less{});
#pragma unroll
  for (int i = 0; i < N; ++i) {
    x[i] ^= flip;
    const E other = __shfl_xor_sync(0xFFFFFFFFu, x[i], 1);
    const bool lesser = x[i] < other;
    x[i] = lesser != upper ? x[i] : other;
  }
  run_network<bitonic_cleaner<N>>(x, unsigned_less{});
}

}  // namespace gpusort::detail::block
