// Peer: cub::DeviceMergeSort, a comparison sort, given a comparator that
// implements gpusort's key_order<K> (ranks compared, so -0.0 == +0.0 and
// NaNs order by their bits): its output order is exactly ours and verifies
// with the same checks. Stable variants: StableSortKeysCopy (out of place)
// for keys, StableSortPairs (in place; CUB has no stable pairs copy) for
// pairs.
#pragma once

#include "bench/cuda_check.hpp"
#include "bench/peers/cub_sorter.cuh"

#include <gpusort/detail/key_traits.hpp>

#include <cub/device/device_merge_sort.cuh>

namespace gpusort::cli::bench {

// a before b iff rank(a) < rank(b) under ascending key_order<K> over all
// bits: the twiddled bits, -0.0 folded onto +0.0. Stateless, so CUB's
// kernels see compile-time constants (a key_order member, runtime shift,
// mask and flip, cost CUB ~20% at 2^28 u32: 21.5 -> 17.4 Gkeys/s).
template <class K> struct key_order_less {
  using traits = detail::key_traits<K>;
  static __host__ __device__ __forceinline__ typename traits::bits rank(const K& k) {
    return detail::key_order<K>{}.fold(traits::to_bits(k));
  }
  __host__ __device__ __forceinline__ bool operator()(const K& a, const K& b) const { return rank(a) < rank(b); }
};

template <class K, class V, cub_build B>
class cub_merge_sorter final : public cub_sorter<K, V, B, cub_merge_sorter<K, V, B>> {
 public:
  bool in_place(bool pairs) const override { return pairs; }
  template <class N>
  static void call(void* temp, std::size_t& bytes, K* keys_in, K* keys_out, V* vals_in,
                   V* /*vals_out*/, N n, cudaStream_t stream) {
    if (vals_in)
      cuda_check(cub::DeviceMergeSort::StableSortPairs(temp, bytes, keys_in, vals_in, n,
                                                       key_order_less<K>{}, stream),
                 "cub::DeviceMergeSort::StableSortPairs");
    else
      cuda_check(cub::DeviceMergeSort::StableSortKeysCopy(temp, bytes, keys_in, keys_out, n,
                                                          key_order_less<K>{}, stream),
                 "cub::DeviceMergeSort::StableSortKeysCopy");
  }
};

template <class K, class V, cub_build B> std::unique_ptr<device_sorter<K, V>> make_cub_merge() {
  return std::make_unique<cub_merge_sorter<K, V, B>>();
}

}  // namespace gpusort::cli::bench

#define GPUSORT_CLI_INSTANTIATE_cub_merge(K, V)                                                        \
  template std::unique_ptr<gpusort::cli::bench::device_sorter<K, V>>                                  \
  gpusort::cli::bench::make_cub_merge<K, V, GPUSORT_CLI_THIS_CUB>();
