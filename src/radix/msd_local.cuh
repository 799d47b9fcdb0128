// radix_msd, the local sort (Stehle & Jacobsen 2017, section 4.3: once a
// bucket fits on-chip, all its remaining digits are sorted there, in one
// read and one write). One block a run (grid-stride over the run list):
//   copy   a run with no digit left (a sorted bucket, a bucket of equal
//          keys) is copied to the output, unless it lies there already
//   sort   otherwise the run is loaded warp-striped (pads rank last), the
//          digits in which its keys differ are found (an OR over the block
//          of each key's ordered bits xor the first key's), and
//          radix/block_sort.cuh's LSD passes sort those digits only; the
//          tile is stored to the output at the run's place
// Runs are disjoint, and a block reads its whole run before it writes, so
// a run that lies in the output is sorted in place.
#pragma once

#include "radix/block_sort.cuh"
#include "radix/digit.cuh"
#include "radix/msd_levels.cuh"

#include <gpusort/detail/block/striped.cuh>

#include <cstddef>
#include <cstdint>

namespace gpusort::detail::radix_msd {

template <class P> struct value_buffers {
  const P* in;
  P* out;
  P* alt;
  __device__ __forceinline__ const P* of(int b) const {
    return b == radix_onesweep::buf_in ? in : b == radix_onesweep::buf_out ? out : alt;
  }
};

// OR of x over the block (every thread gets it).
template <int THREADS> __device__ __forceinline__ unsigned long long block_or(unsigned long long x) {
  __shared__ unsigned long long warp_or[THREADS / 32];
#pragma unroll
  for (int d = 16; d > 0; d >>= 1) x |= __shfl_xor_sync(0xFFFFFFFFu, x, d);
  if ((threadIdx.x & 31u) == 0) warp_or[threadIdx.x / 32] = x;
  __syncthreads();
  unsigned long long all = 0;
#pragma unroll
  for (int w = 0; w < THREADS / 32; ++w) all |= warp_or[w];
  __syncthreads();  // warp_or is reused by the next call
  return all;
}

template <class T, class K, class P>
__global__ void __launch_bounds__(T::local_threads)
local_kernel(key_buffers<typename key_traits<K>::bits> keys, value_buffers<P> vals, work_list<run> runs,
             key_order<K> ord) {
  using U = typename key_traits<K>::bits;
  using C = typename T::local;
  constexpr int I = C::items;
  constexpr bool pairs = !is_no_value<P>;
  extern __shared__ uint4 smem[];
  const U pad = radix::pad_bits(ord);
  const radix::digit_map<K> whole = radix::digit_map<K>::of(ord, T::radix_bits, 0);
  runs.for_each_block([&](std::size_t, const run& r) {
    const U* src = keys.of(r.buffer);
    const P* vsrc = pairs ? vals.of(r.buffer) : nullptr;
    if (r.passes == 0) {  // copy (keys and values can lie apart: in-place values of an out-of-place call)
      if (src != keys.out)
        for (std::size_t i = threadIdx.x; i < r.size; i += T::local_threads) keys.out[r.begin + i] = src[r.begin + i];
      if constexpr (pairs)
        if (vsrc != vals.out)
          for (std::size_t i = threadIdx.x; i < r.size; i += T::local_threads) vals.out[r.begin + i] = vsrc[r.begin + i];
      return;
    }
    const unsigned valid = unsigned(r.size);
    const U* from = src + r.begin;
    U key[I];
    P val[I];
    const U ref = whole.ordered(from[0]);
    unsigned long long mine = 0;
    block::for_striped<false, I>(int(valid), [&](int i, unsigned slot, bool live) {
      key[i] = live ? from[slot] : pad;
      if (live) mine |= static_cast<unsigned long long>(whole.ordered(key[i]) ^ ref);
      if constexpr (pairs)
        if (live) val[i] = vsrc[r.begin + slot];
    });
    const U differ = U(block_or<T::local_threads>(mine));
    unsigned live = 0;
    for (int p = 0; p < r.passes; ++p)
      if (radix::digit_map<K>::of(ord, T::radix_bits, p).from_ordered(differ)) live |= 1u << p;
    radix::sort_tile<C, K>(key, val, ord, r.passes, smem, live);  // ends with a barrier
#pragma unroll
    for (int i = 0; i < I; ++i) {
      const unsigned slot = C::ranker::slot(i);
      if (slot < valid) {
        keys.out[r.begin + slot] = key[i];
        if constexpr (pairs) vals.out[r.begin + slot] = val[i];
      }
    }
  });
}

}  // namespace gpusort::detail::radix_msd
