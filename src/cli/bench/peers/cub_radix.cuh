// Peer: cub::DeviceRadixSort (onesweep LSD radix sort), keys and pairs
// (u32 or u64 values), out of place (offset width and CUB build: see
// cub_sorter.cuh).
#pragma once

#include "bench/cuda_check.hpp"
#include "bench/peers/cub_sorter.cuh"

#include <cub/device/device_radix_sort.cuh>

namespace gpusort::cli::bench {

template <class K, class V, cub_build B>
class cub_radix_sorter final : public cub_sorter<K, V, B, cub_radix_sorter<K, V, B>> {
 public:
  template <class N>
  static void call(void* temp, std::size_t& bytes, K* keys_in, K* keys_out, V* vals_in,
                   V* vals_out, N n, cudaStream_t stream) {
    constexpr int end_bit = int(sizeof(K) * 8);
    if (vals_in)
      cuda_check(cub::DeviceRadixSort::SortPairs(temp, bytes, keys_in, keys_out, vals_in,
                                                 vals_out, n, 0, end_bit, stream),
                 "cub::DeviceRadixSort::SortPairs");
    else
      cuda_check(cub::DeviceRadixSort::SortKeys(temp, bytes, keys_in, keys_out, n, 0, end_bit,
                                                stream),
                 "cub::DeviceRadixSort::SortKeys");
  }
};

template <class K, class V, cub_build B> std::unique_ptr<device_sorter<K, V>> make_cub_radix() {
  return std::make_unique<cub_radix_sorter<K, V, B>>();
}

}  // namespace gpusort::cli::bench

#define GPUSORT_CLI_INSTANTIATE_cub_radix(K, V)                                                        \
  template std::unique_ptr<gpusort::cli::bench::device_sorter<K, V>>                                  \
  gpusort::cli::bench::make_cub_radix<K, V, GPUSORT_CLI_THIS_CUB>();
