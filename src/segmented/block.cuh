// Segmented sort, the block classes (257 .. 4096 keys; tuning.cuh): one
// block sorts a segment of up to THREADS x ITEMS keys in shared memory:
// keys of up to 4 bytes by the radix family's block radix sort
// (radix/block_sort.cuh, sort_tile) of their bits with 16-bit positions;
// 8-byte keys by the block merge sort (block/merge_sort.cuh) of (rank,
// index) pairs. The block merge sort is also the huge class's first stage
// (huge.cuh): there it sorts one run of a huge segment and writes the
// (rank, index) run instead of gathering.
#pragma once

#include "segmented/small.cuh"
#include "radix/block_sort.cuh"

#include <gpusort/detail/block/merge_sort.cuh>
#include <gpusort/detail/block/striped.cuh>

#include <cstddef>
#include <cstdint>

namespace gpusort::detail::segmented {

template <class U> struct rank_less {
  __device__ __forceinline__ bool operator()(U a, U b) const { return a < b; }
};

// One block sorts `size` (<= THREADS x ITEMS) keys starting at `keys` by
// (rank, index), index = index_base + position; the sorted ranks and
// indices are left in s.keys / s.vals.
template <int THREADS, int ITEMS, class K, class I>
__device__ __forceinline__ void block_sort_run(const K* keys, unsigned size, const key_order<K>& ord, I index_base,
                                               block::tile_storage<typename key_traits<K>::bits, I, THREADS * ITEMS>& s) {
  using U = typename key_traits<K>::bits;
#pragma unroll
  for (int r = 0; r < ITEMS; ++r) {
    const unsigned i = threadIdx.x + unsigned(r) * THREADS;
    if (i < size) {
      s.keys[i] = U(ord.key_rank(keys[i]));
      s.vals[i] = I(index_base + i);
    }
  }
  __syncthreads();
  U k[ITEMS];
  I v[ITEMS];
#pragma unroll
  for (int r = 0; r < ITEMS; ++r) {
    const unsigned j = threadIdx.x * ITEMS + unsigned(r);
    if (j < size) {
      k[r] = s.keys[j];
      v[r] = s.vals[j];
    }
  }
  __syncthreads();
  // stable merge sort of ranks with their indices: ties keep index order
  block::block_merge_sort<THREADS, ITEMS>(rank_less<U>{}, k, v, int(size), s);
}

// Block class, keys of up to 4 bytes: block radix sort of the key bits, one
// segment a block; with values (P = u16), each key's position in the
// segment rides along and fetches its value; keys alone carry nothing.
template <int THREADS, int ITEMS, class K, class P>
__global__ void __launch_bounds__(THREADS) block_radix_kernel(class_args<K> a, int cls) {
  using U = typename key_traits<K>::bits;
  using C = radix::block_sort_config<THREADS, ITEMS, tuning::block_radix_bits, U, P>;
  static_assert(C::tile <= 65536, "positions fit 16 bits");
  __shared__ __align__(16) std::uint8_t smem[C::shared_bytes];
  const unsigned first = a.b.firsts[cls];
  const unsigned count = a.b.firsts[cls + 1] - first;
  const int passes = radix::pass_count(a.ord, C::radix_bits);
  const U pad = radix::pad_bits(a.ord);
  const U* kin = reinterpret_cast<const U*>(a.kin);
  U* kout = reinterpret_cast<U*>(a.kout);
  for (std::size_t g = blockIdx.x; g < count; g += gridDim.x) {
    std::size_t s0, s1;
    a.off.span(a.b.list[first + g], s0, s1);
    const unsigned size = unsigned(s1 - s0);
    U key[ITEMS];
    P at[ITEMS];
    block::for_striped<false, ITEMS>(int(size), [&](int i, unsigned slot, bool live) {
      key[i] = live ? kin[s0 + slot] : pad;
      if constexpr (!is_no_value<P>) at[i] = P(slot);
    });
    radix::sort_tile<C, K>(key, at, a.ord, passes, smem);  // ends with a barrier: smem is free again
#pragma unroll
    for (int i = 0; i < ITEMS; ++i) {
      const unsigned slot = C::ranker::slot(i);
      if (slot < size) {
        kout[s0 + slot] = key[i];
        if constexpr (!is_no_value<P>) a.vals.move(s0 + slot, s0 + at[i]);
      }
    }
  }
}

// Block class, 8-byte keys: block merge sort of (rank, index), one
// segment a block.
template <int THREADS, int ITEMS, class K>
__global__ void __launch_bounds__(THREADS) block_merge_kernel(class_args<K> a, int cls) {
  using U = typename key_traits<K>::bits;
  __shared__ block::tile_storage<U, std::uint16_t, THREADS * ITEMS> s;
  static_assert(THREADS * ITEMS <= 65536, "indices fit 16 bits");
  const unsigned first = a.b.firsts[cls];
  const unsigned count = a.b.firsts[cls + 1] - first;
  for (std::size_t g = blockIdx.x; g < count; g += gridDim.x) {
    std::size_t s0, s1;
    a.off.span(a.b.list[first + g], s0, s1);
    const unsigned size = unsigned(s1 - s0);
    block_sort_run<THREADS, ITEMS>(a.kin + s0, size, a.ord, std::uint16_t(0), s);
#pragma unroll
    for (int r = 0; r < ITEMS; ++r) {
      const unsigned i = threadIdx.x + unsigned(r) * THREADS;
      if (i < size) {
        const std::size_t from = s0 + s.vals[i];
        a.kout[s0 + i] = a.kin[from];
        a.vals.move(s0 + i, from);
      }
    }
    __syncthreads();  // the next segment reuses the tile
  }
}

}  // namespace gpusort::detail::segmented
