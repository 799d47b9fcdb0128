// CUB's radix sort as an independent oracle for stable families: the same
// order definition (twiddled bits, -0.0 == +0.0, bit ranges), computed by
// different code. Compiled once, in cub_reference.cu, for every key type.
#pragma once

#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>

namespace gpusort_test {

// Synchronous; d_in is left untouched. end_bit is one past the last bit.
template <class K>
void cub_sort_keys(const K* d_in, K* d_out, std::size_t n, bool descending, int begin_bit, int end_bit);
template <class K>
void cub_sort_pairs(const K* d_keys_in, K* d_keys_out, const std::uint32_t* d_vals_in,
                    std::uint32_t* d_vals_out, std::size_t n, bool descending, int begin_bit, int end_bit);

// Where CUB's own order is not the library's: CUB's onesweep kernels fold
// -0.0 onto the *descending* image of -0.0 rather than of +0.0, which is
// invisible with all bits but ranks zeros differently from key_order when
// a descending float sort uses a partial bit range. Skip the comparison there.
constexpr bool cub_agrees(bool is_float, bool descending, bool full_range) {
  return !(is_float && descending && !full_range);
}

}  // namespace gpusort_test
