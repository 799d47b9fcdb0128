// 128-bit integer keys (unsigned __int128, __int128) as records of two
// 64-bit fields, most significant first: the high half (int64 for
// __int128, whose sign it carries; uint64 otherwise), then the low half
// (uint64). Ordering records by (high, low) in one direction is ordering
// the integers, so sort_keys and sort_pairs of 128-bit keys are the record
// sort of columns.hpp (src/columns/wide.cpp): the halves' order-preserving
// bits packed per 64-bit group and radix-sorted as (key, row) pairs, then
// one gather of the keys and values.
#pragma once

#include <gpusort/columns.hpp>
#include <gpusort/detail/core/context.hpp>

#include <bit>
#include <cstddef>

namespace gpusort::detail {

static_assert(std::endian::native == std::endian::little,
              "gpusort: 128-bit keys are read as two 64-bit halves, the low half first");

// The fields of the 128-bit key at `first` (the first of an array of them),
// high half first, each in direction dir.
inline void wide_fields(bool is_signed, const void* first, order dir, key_column (&out)[2]) {
  const auto* p = static_cast<const unsigned char*>(first);
  out[0] = key_column{is_signed ? key_type::i64 : key_type::u64, p + 8, dir, 16};
  out[1] = key_column{key_type::u64, p, dir, 16};
}

// The checks every 128-bit call makes first (wide.cpp): no bit range, no
// null pointer with n > 0, keys aligned to 8 bytes.
void check_wide_call(const call_context& ctx, const void* keys_in, const void* keys_out, const void* vals_in,
                     const void* vals_out, std::size_t val_size, std::size_t n, const options& opt);

}  // namespace gpusort::detail
