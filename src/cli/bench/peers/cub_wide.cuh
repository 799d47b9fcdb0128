// The peer on 128-bit integer keys (struct_key.hpp: --key u128, i128):
// cub::DeviceRadixSort on unsigned __int128 or __int128 keys, keys or pairs
// (u32 values), as automatic is given (offset width and CUB build: see
// cub_sorter.cuh).
#pragma once

#include "bench/cuda_check.hpp"
#include "bench/peers/cub_sorter.cuh"
#include "bench/struct_key.hpp"

#include <cub/device/device_radix_sort.cuh>

namespace gpusort::cli::bench {

template <class K, cub_build B>
class cub_wide_radix_sorter final : public cub_sorter<K, std::uint32_t, B, cub_wide_radix_sorter<K, B>> {
 public:
  template <class N>
  static void call(void* temp, std::size_t& bytes, K* keys_in, K* keys_out, std::uint32_t* vals_in,
                   std::uint32_t* vals_out, N n, cudaStream_t stream) {
    if (vals_in)
      cuda_check(cub::DeviceRadixSort::SortPairs(temp, bytes, keys_in, keys_out, vals_in, vals_out, n, 0,
                                                 int(sizeof(K) * 8), stream),
                 "cub::DeviceRadixSort::SortPairs (128-bit keys)");
    else
      cuda_check(cub::DeviceRadixSort::SortKeys(temp, bytes, keys_in, keys_out, n, 0, int(sizeof(K) * 8), stream),
                 "cub::DeviceRadixSort::SortKeys (128-bit keys)");
  }
};

template <class K, cub_build B> std::unique_ptr<device_sorter<K, std::uint32_t>> make_cub_wide_radix() {
  return std::make_unique<cub_wide_radix_sorter<K, B>>();
}

}  // namespace gpusort::cli::bench

// One unit per CUB build for both 128-bit keys; the key and value of the
// generated unit's name (cub_wide_u128_u32) are not otherwise used.
#define GPUSORT_CLI_INSTANTIATE_cub_wide(K, V)                                                                  \
  template std::unique_ptr<gpusort::cli::bench::device_sorter<gpusort::cli::bench::u128, std::uint32_t>>        \
  gpusort::cli::bench::make_cub_wide_radix<gpusort::cli::bench::u128, GPUSORT_CLI_THIS_CUB>();                  \
  template std::unique_ptr<gpusort::cli::bench::device_sorter<gpusort::cli::bench::i128, std::uint32_t>>        \
  gpusort::cli::bench::make_cub_wide_radix<gpusort::cli::bench::i128, GPUSORT_CLI_THIS_CUB>();
