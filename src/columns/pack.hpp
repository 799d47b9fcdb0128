// The pack kernels of a sort by columns (plan.hpp): one pass's columns, each
// mapped to its order-preserving bits (key_order's fold over the key
// transform, inverted for a descending column), less the column's smallest
// such bits, shifted into place and or-ed into one normalized key per row.
// Subtracting the minimum keeps the order and clears the bits that never
// vary: small values (ids, small signed numbers on both sides of zero, whose
// transformed bits differ in the top byte) take only the bits their range
// needs, placed from the top of the key (layout.cuh), and the radix sort
// skips the constant digits below (its first histogram shows one bucket).
// The bounds come from a reduction on the device, so the call needs no host
// synchronisation. Compiled once for every key type (pack.cu); the columns'
// types are read at run time.
#pragma once

#include <gpusort/detail/core/context.hpp>

#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>

namespace gpusort::detail::columns {

inline constexpr int max_packed = 8;  // 64 bits of 8-bit columns
// A pass's bounds: the columns' smallest ordered bits, then their largest.
inline constexpr int bounds_count = 2 * max_packed;

struct packed_column {
  enum kind_of : int { unsigned_int = 0, signed_int = 1, floating = 2 };
  const void* data = nullptr;
  std::size_t stride = 0;  // bytes from one key to the next
  int key = 0;             // gpusort::key_type, as an int
  unsigned bytes = 4;      // the key's width (ordered.hpp's run-time form)
  int kind = unsigned_int;
  unsigned shift = 0;  // the host's place for the column (the CPU path); the device packs by layout.cuh
  bool descending = false;
  // key_order's NaN test for this column (its nan_lo and nan_span, widened):
  // with NaNs largest every NaN packs as the largest bits, all equal.
  std::uint64_t nan_lo = 0;
  std::uint64_t nan_span = ~std::uint64_t(0);
};

struct packed_group {
  packed_column columns[max_packed];
  int count = 0;
  int key_bytes = 8;  // 4: u32 keys, 8: u64 keys
};

// bounds[c] and bounds[max_packed + c] = the smallest and the largest
// ordered bits of column c of the group over its n rows (bounds_count
// entries of device memory). With `folded` (device memory), *folded = 1
// when the folds change any key of the group (folds_raw), else 0.
void launch_column_bounds(const call_context& ctx, const packed_group& g, std::uint64_t* bounds, std::size_t n,
                          cudaStream_t s, unsigned* folded = nullptr);
// keys[i] = the packed bits of row (rows ? rows[i] : i) in the layout the
// bounds give (layout.cuh), for i < n; rows are u64 when `wide_rows`, else u32.
void launch_pack(const call_context& ctx, const packed_group& g, const std::uint64_t* bounds, const void* rows,
                 bool wide_rows, void* keys, std::size_t n, cudaStream_t s);

}  // namespace gpusort::detail::columns
