// A column's order-preserving bits, on the device (pack.cu) and on the host
// (the host call, columns_api.cpp): one definition for both.
#pragma once

#include "columns/pack.hpp"

#include <gpusort/detail/key_traits.hpp>
#include <gpusort/runtime.hpp>

#include <cstddef>
#include <cstdint>

namespace gpusort::detail::columns {

// The column's order-preserving bits for one row: the key transform and
// key_order's folds (-0.0 as +0.0; NaNs by the column's test), all ones
// inverted for a descending column.
template <class K> GPUSORT_HD std::uint64_t ordered(const packed_column& c, std::size_t row) {
  using B = typename key_traits<K>::bits;
  key_order<K> o;
  o.nan_lo = B(c.nan_lo);
  o.nan_span = B(c.nan_span);
  // stride: a multiple of the key's width (checked), so the load is aligned
  const K k = *reinterpret_cast<const K*>(static_cast<const unsigned char*>(c.data) + row * c.stride);
  B b = o.fold(key_traits<K>::to_bits(k));
  if (c.descending) b = B(~b);
  return std::uint64_t(b);
}

GPUSORT_HD std::uint64_t ordered_any(const packed_column& c, std::size_t row) {
  switch (key_type(c.key)) {
    case key_type::u8: return ordered<std::uint8_t>(c, row);
    case key_type::u16: return ordered<std::uint16_t>(c, row);
    case key_type::u32: return ordered<std::uint32_t>(c, row);
    case key_type::u64: return ordered<std::uint64_t>(c, row);
    case key_type::i8: return ordered<std::int8_t>(c, row);
    case key_type::i16: return ordered<std::int16_t>(c, row);
    case key_type::i32: return ordered<std::int32_t>(c, row);
    case key_type::i64: return ordered<std::int64_t>(c, row);
    case key_type::f16: return ordered<__half>(c, row);
    case key_type::bf16: return ordered<__nv_bfloat16>(c, row);
    case key_type::f32: return ordered<float>(c, row);
    case key_type::f64: return ordered<double>(c, row);
  }
  return 0;
}

}  // namespace gpusort::detail::columns
