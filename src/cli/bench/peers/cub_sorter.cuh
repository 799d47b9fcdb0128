// The shape both CUB peers share: CUB's two-phase call (query the scratch,
// then sort) behind device_sorter, with 32-bit offsets when n fits (as a
// caller sorting fewer than 2^31 items would) and 64-bit ones otherwise.
// Derived supplies `template <class N> static void call(temp, bytes, ...)`.
#pragma once

#include "bench/device_sorter.hpp"

#include <climits>
#include <cstdint>

namespace gpusort::cli::bench {

template <class K, class Derived> class cub_sorter : public device_sorter<K> {
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
      Derived::template call<int>(temp, bytes, keys_in, keys_out, vals_in, vals_out, int(n), stream);
    else
      Derived::template call<std::int64_t>(temp, bytes, keys_in, keys_out, vals_in, vals_out,
                                           std::int64_t(n), stream);
  }
};

}  // namespace gpusort::cli::bench
