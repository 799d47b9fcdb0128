// Where each column of a pass sits in its packed key, decided on the device
// from the columns' bounds (launch_column_bounds): each column's ordered bits
// less its minimum take only the bits that vary (the bit length of its
// maximum less its minimum), the first column highest, and the whole sits at
// the top of the key. The radix sort then finds every bit that varies in
// its top digits: its first MSD level splits by the top 8 varying bits, not
// by a digit where one or two bits vary (a 17-bit field of a 64-bit key
// left 2 buckets at the first level), and the digits below the last varying
// bit are constant, which every radix plan skips. A column that never varies
// takes no bits.
#pragma once

#include <gpusort/detail/core/bit_width.hpp>
#include "columns/ordered.hpp"
#include "columns/pack.hpp"

#include <cstddef>
#include <cstdint>

namespace gpusort::detail::columns {

// f(c, column) for each column of the group, unrolled over max_packed: every
// index into the group (a kernel parameter) and into per-column arrays is
// then a constant, so they stay in parameter space and registers. A loop to
// g.count indexed them at run time, which copies the whole group (about 400
// bytes) to each thread's local memory: the pack, unpack and bounds kernels
// ran at a fifth to a half of the copy rate.
// C: a bound on g.count known at compile time (with_columns), so that a
// kernel keeps per-column state in registers for C columns, not max_packed.
template <int C = max_packed, class F> __device__ __forceinline__ void for_each_column(const packed_group& g, F&& f) {
#pragma unroll
  for (int c = 0; c < C; ++c)
    if (c < g.count) f(c, g.columns[c]);
}

// f.template operator()<C>() with C the least of 1, 2, 4 and max_packed
// that is at least `count`: the instances of a kernel templated on C.
template <class F> void with_columns(int count, F&& f) {
  if (count <= 1) f.template operator()<1>();
  else if (count <= 2) f.template operator()<2>();
  else if (count <= 4) f.template operator()<4>();
  else f.template operator()<max_packed>();
}

// f(i) for this thread's rows: grid-stride, rows_a_thread at a time, so
// that their loads are in flight together. Launch grid_for(n, threads *
// rows_a_thread) blocks.
inline constexpr int rows_a_thread = 4;
template <class F> __device__ __forceinline__ void for_rows(std::size_t n, F&& f) {
  const std::size_t step = std::size_t(gridDim.x) * blockDim.x;
  for (std::size_t base = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x; base < n; base += step * rows_a_thread) {
#pragma unroll
    for (int u = 0; u < rows_a_thread; ++u)
      if (base + u * step < n) f(base + u * step);
  }
}

// The same rows in batches: f(row, live) once a step with this thread's
// rows_a_thread rows (live: below n). A kernel that loads a batch's keys of
// one column together (raws_at) keeps rows_a_thread loads in flight: a load
// whose width is a run-time value sits in a branch, and the compiler moves
// no load of the next row above the previous row's use across it, so
// for_rows with the load inside f left one load in flight a thread (the
// bounds and pack kernels at a fifth of the copy rate).
template <class F> __device__ __forceinline__ void for_row_batches(std::size_t n, F&& f) {
  const std::size_t step = std::size_t(gridDim.x) * blockDim.x;
  for (std::size_t base = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x; base < n; base += step * rows_a_thread) {
    std::size_t row[rows_a_thread];
    bool live[rows_a_thread];
#pragma unroll
    for (int u = 0; u < rows_a_thread; ++u) {
      row[u] = base + u * step;
      live[u] = row[u] < n;
    }
    f(row, live);
  }
}

// raw_at for a batch of rows of one column: one branch on the width, then
// the batch's loads back to back (0 where not live).
__device__ __forceinline__ void raws_at(const packed_column& c, const std::size_t (&row)[rows_a_thread],
                                        const bool (&live)[rows_a_thread], std::uint64_t (&raw)[rows_a_thread]) {
  const unsigned char* p = static_cast<const unsigned char*>(c.data);
  const auto load = [&]<class W>() {
#pragma unroll
    for (int u = 0; u < rows_a_thread; ++u)
      raw[u] = live[u] ? std::uint64_t(*reinterpret_cast<const W*>(p + row[u] * c.stride)) : 0;
  };
  switch (c.bytes) {
    case 1: load.template operator()<std::uint8_t>(); break;
    case 2: load.template operator()<std::uint16_t>(); break;
    case 4: load.template operator()<std::uint32_t>(); break;
    default: load.template operator()<std::uint64_t>();
  }
}

struct packed_layout {
  std::uint64_t low[max_packed];
  unsigned shift[max_packed];
  unsigned width[max_packed];  // 0: the column never varies

  __device__ packed_layout(const packed_group& g, const std::uint64_t* bounds) {
    unsigned top = 8u * unsigned(g.key_bytes);
    for_each_column(g, [&](int c, const packed_column&) {
      low[c] = bounds[c];
      const std::uint64_t span = bounds[max_packed + c] - bounds[c];
      width[c] = unsigned(bit_width64(span));
      top -= width[c];  // the widths sum to at most the pass's bits: the key's
      shift[c] = top;
    });
  }
  // The column's bits of a packed key (ordered less the minimum).
  __device__ std::uint64_t take(int c, std::uint64_t ordered) const {
    return width[c] ? (ordered - low[c]) << shift[c] : 0;
  }
  // take's inverse: the ordered bits of column c from a packed key.
  __device__ std::uint64_t ordered(int c, std::uint64_t key) const {
    if (width[c] == 0) return low[c];
    const std::uint64_t mask = width[c] == 64 ? ~std::uint64_t(0) : (std::uint64_t(1) << width[c]) - 1;
    return ((key >> shift[c]) & mask) + low[c];
  }
};

// The packed keys of a batch of rows (for_row_batches): each column's keys
// of the batch loaded together, then or-ed into place.
template <int C>
__device__ __forceinline__ void pack_batch(const packed_group& g, const packed_layout& layout,
                                           const std::size_t (&row)[rows_a_thread], const bool (&live)[rows_a_thread],
                                           std::uint64_t (&k)[rows_a_thread]) {
#pragma unroll
  for (int u = 0; u < rows_a_thread; ++u) k[u] = 0;
  for_each_column<C>(g, [&](int c, const packed_column& col) {
    std::uint64_t raw[rows_a_thread];
    raws_at(col, row, live, raw);
#pragma unroll
    for (int u = 0; u < rows_a_thread; ++u) k[u] |= layout.take(c, ordered_raw(col, raw[u]));
  });
}

}  // namespace gpusort::detail::columns
