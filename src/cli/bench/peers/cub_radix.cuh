// Peer: cub::DeviceRadixSort (onesweep LSD radix sort), keys and pairs,
// out of place. Counts that fit in 32 bits use 32-bit offsets, as a caller
// sorting fewer than 2^31 items would.
#pragma once

#include "bench/cuda_check.hpp"
#include "bench/device_sorter.hpp"

#include <cub/device/device_radix_sort.cuh>

#include <climits>
#include <cstdint>

namespace gpusort::cli::bench {

template <class K> class cub_radix_sorter final : public device_sorter<K> {
 public:
  std::size_t scratch_bytes(K* keys_in, K* keys_out, value_t* vals_in, value_t* vals_out,
                            std::size_t n) override {
    std::size_t bytes = 0;
    run(nullptr, bytes, keys_in, keys_out, vals_in, vals_out, n, nullptr);
    return bytes;
  }
  void sort(void* temp, std::size_t temp_bytes, K* keys_in, K* keys_out, value_t* vals_in,
            value_t* vals_out, std::size_t n, cudaStream_t stream) override {
    run(temp, temp_bytes, keys_in, keys_out, vals_in, vals_out, n, stream);
  }

 private:
  static void run(void* temp, std::size_t& bytes, K* keys_in, K* keys_out, value_t* vals_in,
                  value_t* vals_out, std::size_t n, cudaStream_t stream) {
    if (n <= std::size_t(INT_MAX))
      run_with<int>(temp, bytes, keys_in, keys_out, vals_in, vals_out, int(n), stream);
    else
      run_with<std::int64_t>(temp, bytes, keys_in, keys_out, vals_in, vals_out,
                             std::int64_t(n), stream);
  }
  template <class N>
  static void run_with(void* temp, std::size_t& bytes, K* keys_in, K* keys_out, value_t* vals_in,
                       value_t* vals_out, N n, cudaStream_t stream) {
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

template <class K> std::unique_ptr<device_sorter<K>> make_cub_radix() {
  return std::make_unique<cub_radix_sorter<K>>();
}

}  // namespace gpusort::cli::bench

#define GPUSORT_CLI_INSTANTIATE_cub_radix(K) \
  template std::unique_ptr<gpusort::cli::bench::device_sorter<K>> gpusort::cli::bench::make_cub_radix<K>();
