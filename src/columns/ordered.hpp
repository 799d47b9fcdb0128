// A column's order-preserving bits, on the device (pack.cu, carry.cu) and on
// the host (the host call, columns_api.cpp): one definition for both.
//
// ordered<K> is the typed definition: key_traits' transform and key_order's
// folds. The kernels use ordered_any, the same arithmetic with the width and
// the kind of key as run-time values of the column (packed_column::bytes
// and ::kind): a load of 1, 2, 4 or 8 bytes and a dozen integer operations.
// A switch over the twelve key types in the kernels' inner loops (one per
// column and row) made them issue-bound at a fifth to a half of the copy
// rate. tests/columns_host_test.cpp checks ordered_any, folds_raw and
// raw_any against ordered<K> and key_traits for every key type.
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

// The width's mask and sign bit.
GPUSORT_HD std::uint64_t all_of(const packed_column& c) {
  return c.bytes == 8 ? ~std::uint64_t(0) : (std::uint64_t(1) << (8 * c.bytes)) - 1;
}
GPUSORT_HD std::uint64_t sign_of(const packed_column& c) { return std::uint64_t(1) << (8 * c.bytes - 1); }

// The row's key as stored, zero-extended.
GPUSORT_HD std::uint64_t raw_at(const packed_column& c, std::size_t row) {
  const unsigned char* p = static_cast<const unsigned char*>(c.data) + row * c.stride;
  switch (c.bytes) {
    case 1: return *p;
    case 2: return *reinterpret_cast<const std::uint16_t*>(p);
    case 4: return *reinterpret_cast<const std::uint32_t*>(p);
    default: return *reinterpret_cast<const std::uint64_t*>(p);
  }
}

// key_traits::twiddle: the sign bit flipped for signed integers; for
// floats, every bit of a negative key inverted and the sign bit set on
// the others.
GPUSORT_HD std::uint64_t twiddled(const packed_column& c, std::uint64_t raw) {
  const std::uint64_t sign = sign_of(c), all = all_of(c);
  if (c.kind == packed_column::signed_int) return raw ^ sign;
  if (c.kind == packed_column::floating) return raw ^ (((std::uint64_t(0) - ((raw & sign) != 0)) & all) | sign);
  return raw;
}

// key_order::fold for a column (whose order is ascending): -0.0 takes
// +0.0's place; with NaNs largest every NaN takes all ones.
GPUSORT_HD std::uint64_t folded_bits(const packed_column& c, std::uint64_t t) {
  if (c.kind != packed_column::floating) return t;
  const std::uint64_t sign = sign_of(c), all = all_of(c);
  if (t == sign - 1) t = sign;
  if (((t - c.nan_lo) & all) > c.nan_span) t = all;
  return t;
}

// The order-preserving bits of a key as stored (raw_at's value).
GPUSORT_HD std::uint64_t ordered_raw(const packed_column& c, std::uint64_t raw) {
  const std::uint64_t b = folded_bits(c, twiddled(c, raw));
  return c.descending ? ~b & all_of(c) : b;
}
GPUSORT_HD std::uint64_t ordered_any(const packed_column& c, std::size_t row) { return ordered_raw(c, raw_at(c, row)); }

// Whether key_order's folds change the row's key (a -0.0, or a NaN that
// nans_largest maps to all ones): the packed key then does not give the
// key back, and a record sort that rebuilds its records from the packed
// keys (carry.hpp) must move them by row instead.
GPUSORT_HD bool folds_raw(const packed_column& c, std::uint64_t raw) {
  if (c.kind != packed_column::floating) return false;
  const std::uint64_t t = twiddled(c, raw);
  return folded_bits(c, t) != t;
}

// ordered's inverse for keys no fold changed: the key's raw bits (its
// storage, zero-extended) from its order-preserving bits
// (key_traits::untwiddle).
GPUSORT_HD std::uint64_t raw_any(const packed_column& c, std::uint64_t bits) {
  const std::uint64_t sign = sign_of(c), all = all_of(c);
  const std::uint64_t b = c.descending ? ~bits & all : bits;
  if (c.kind == packed_column::signed_int) return b ^ sign;
  if (c.kind == packed_column::floating) return b ^ ((((b & sign) != 0 ? std::uint64_t(0) : all)) | sign);
  return b;
}

}  // namespace gpusort::detail::columns
