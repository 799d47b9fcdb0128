// A column's order-preserving bits, on the device (pack.cu) and on the host
// (the host call, columns_api.cpp): one definition for both.
#pragma once

#include "columns/pack.hpp"

#include <gpusort/detail/key_traits.hpp>
#include <gpusort/detail/with_key.hpp>
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

// The key type behind a column's run-time key code (with_key.hpp's switch).
template <class F> GPUSORT_HD auto with_column_key(int key, F&& f) { return visit_key(key_type(key), f); }

GPUSORT_HD std::uint64_t ordered_any(const packed_column& c, std::size_t row) {
  return with_column_key(c.key, [&]<class K>() { return ordered<K>(c, row); });
}

// Whether key_order's folds change the row's key (a -0.0, or a NaN that
// nans_largest maps to all ones): the packed key then does not give the
// key back, and a record sort that rebuilds its records from the packed
// keys (carry.cuh) must move them by row instead.
GPUSORT_HD bool folds_any(const packed_column& c, std::size_t row) {
  return with_column_key(c.key, [&]<class K>() {
    if constexpr (!key_traits<K>::is_float) {
      return false;
    } else {
      using B = typename key_traits<K>::bits;
      key_order<K> o;
      o.nan_lo = B(c.nan_lo);
      o.nan_span = B(c.nan_span);
      const K k = *reinterpret_cast<const K*>(static_cast<const unsigned char*>(c.data) + row * c.stride);
      const B b = key_traits<K>::to_bits(k);
      return o.fold(b) != b;
    }
  });
}

// ordered's inverse for keys no fold changed: the key's raw bits (its
// storage, zero-extended) from its order-preserving bits.
GPUSORT_HD std::uint64_t raw_any(const packed_column& c, std::uint64_t bits) {
  return with_column_key(c.key, [&]<class K>() {
    using B = typename key_traits<K>::bits;
    B b = B(bits);
    if (c.descending) b = B(~b);
    return std::uint64_t(key_traits<K>::untwiddle(b));
  });
}

}  // namespace gpusort::detail::columns
