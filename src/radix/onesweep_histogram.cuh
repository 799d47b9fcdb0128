// radix_onesweep, before the passes (Adinets & Merrill 2022, section 3.1):
//   histogram  one read of the keys counts the digits of *every* pass, per
//              portion: hist[pass][portion][digit] (shared counters per
//              block, flushed with global atomics)
//   scan       one block: for every pass, the exclusive scan over digits of
//              the totals (64-bit: any n) gives each digit's first output
//              position, base[pass][0][digit]. Portion q + 1's bases are
//              written by the last tile of portion q's launch (its
//              inclusive look-back), since a pass reads the portions of the
//              previous pass's output, not of the input.
//   plan       pass skipping: a pass whose digit is the same for every key
//              (one bin holds all n) is the identity and is skipped. The
//              histograms live on the device, so the choice is made there,
//              with no copy back to the host (the call stays asynchronous
//              and capturable): the scan block writes one slot_plan per
//              launch (onesweep_plan.hpp), and every launch is made and
//              reads its entry: skip (all blocks return at once), sort one
//              digit src -> dst, or copy src -> dst.
// For few keys, one block does the histogram and the scan in one launch.
#pragma once

#include <gpusort/detail/block/rank.cuh>
#include "radix/digit.cuh"
#include "radix/onesweep_plan.hpp"
#include "radix/onesweep_tuning.cuh"

#include <cstddef>

namespace gpusort::detail::radix_onesweep {

// The digits of every pass of one sort call.
template <class K, int MAX_PASSES> struct pass_digits {
  radix::digit_map<K> pass[MAX_PASSES];
  int passes;
};

// Shared counters of one block: [pass][digit]. Chunks of threads x I keys,
// strided over [begin, end); whole chunks load with no guard (a guard per
// item made ptxas keep a predicate per item, as in the pass kernel's load).
template <class T, class K>
__device__ __forceinline__ void count_digits(const typename key_traits<K>::bits* keys, std::size_t begin,
                                             std::size_t end, std::size_t stride,
                                             const pass_digits<K, T::max_passes>& d, unsigned* counts,
                                             int threads) {
  using U = typename key_traits<K>::bits;
  constexpr int I = T::hist_items;
  auto count = [&](U key) {
    const U t = d.pass[0].ordered(key);
#pragma unroll
    for (int p = 0; p < T::max_passes; ++p)
      if (p < d.passes) atomicAdd(&counts[p * T::bins + d.pass[p].from_ordered(t)], 1u);
  };
  const std::size_t chunk = std::size_t(I) * threads;
  for (std::size_t at = begin; at < end; at += stride) {
    const U* from = keys + at + threadIdx.x;
    if (end - at >= chunk) {
      U k[I];
#pragma unroll
      for (int i = 0; i < I; ++i) k[i] = from[std::size_t(i) * threads];
#pragma unroll
      for (int i = 0; i < I; ++i) count(k[i]);
    } else {
      const unsigned left = unsigned(end - at);
#pragma unroll
      for (int i = 0; i < I; ++i)
        if (unsigned(i * threads) + threadIdx.x < left) count(from[std::size_t(i) * threads]);
    }
  }
}

// grid (blocks per portion, portions of portion_keys keys, the last one
// shorter): hist[pass][portion][digit] += counts.
template <class T, class K>
__global__ void __launch_bounds__(T::hist_threads)
histogram_kernel(const K* keys, std::size_t n, std::size_t portion_keys, pass_digits<K, T::max_passes> d,
                 unsigned* hist) {
  __shared__ unsigned counts[T::max_passes * T::bins];
  const int words = d.passes * T::bins;
  for (int i = threadIdx.x; i < words; i += T::hist_threads) counts[i] = 0;
  __syncthreads();
  const std::size_t portion = blockIdx.y, portions = gridDim.y;
  const std::size_t begin = portion * portion_keys;
  const std::size_t end = n - begin < portion_keys ? n : begin + portion_keys;
  constexpr std::size_t per_block = std::size_t(T::hist_threads) * T::hist_items;
  count_digits<T, K>(reinterpret_cast<const typename key_traits<K>::bits*>(keys), begin + blockIdx.x * per_block,
                     end, per_block * gridDim.x, d, counts, T::hist_threads);
  __syncthreads();
  for (int i = threadIdx.x; i < words; i += T::hist_threads) {
    const int p = i / T::bins, b = i % T::bins;
    if (counts[i]) atomicAdd(&hist[(p * portions + portion) * T::bins + b], counts[i]);
  }
}

// One block of T::bins threads: bases and the launch plan (see the header).
// hist may be in global or shared memory.
template <class T>
__device__ __forceinline__ void scan_and_plan(const unsigned* hist, unsigned long long* base, int passes,
                                              std::size_t portions, std::size_t n, slot_plan* plan, int slots,
                                              bool in_place) {
  __shared__ unsigned long long warp_sums[T::bins / 32];
  __shared__ int skip[T::max_passes];
  const int b = threadIdx.x;
  for (int p = 0; p < passes; ++p) {
    const unsigned* h = hist + std::size_t(p) * portions * T::bins + b;
    unsigned long long total = 0;
    for (std::size_t q = 0; q < portions; ++q) total += h[q * T::bins];
    base[std::size_t(p) * portions * T::bins + b] = block::block_exclusive_sum<T::bins>(total, warp_sums);
    const int constant = __syncthreads_or(total == n);
    if (b == 0) skip[p] = constant;
  }
  __syncthreads();
  if (b == 0) make_plan(skip, passes, slots, in_place, plan);
}

// After histogram_kernel: one block of T::bins threads.
template <class T>
__global__ void __launch_bounds__(T::bins)
scan_kernel(const unsigned* hist, unsigned long long* base, int passes, std::size_t portions, std::size_t n,
            slot_plan* plan, int slots, bool in_place) {
  scan_and_plan<T>(hist, base, passes, portions, n, plan, slots, in_place);
}

// Few keys (one portion): histogram and scan in one block, one launch.
template <class T, class K>
__global__ void __launch_bounds__(T::bins)
histogram_scan_kernel(const K* keys, std::size_t n, pass_digits<K, T::max_passes> d, unsigned long long* base,
                      slot_plan* plan, int slots, bool in_place) {
  __shared__ unsigned counts[T::max_passes * T::bins];
  const int words = d.passes * T::bins;
  for (int i = threadIdx.x; i < words; i += T::bins) counts[i] = 0;
  __syncthreads();
  constexpr std::size_t per_iter = std::size_t(T::bins) * T::hist_items;
  count_digits<T, K>(reinterpret_cast<const typename key_traits<K>::bits*>(keys), 0, n, per_iter, d, counts,
                     T::bins);
  __syncthreads();
  scan_and_plan<T>(counts, base, d.passes, 1, n, plan, slots, in_place);
}

}  // namespace gpusort::detail::radix_onesweep
