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
template <class F> __device__ __forceinline__ void for_each_column(const packed_group& g, F&& f) {
#pragma unroll
  for (int c = 0; c < max_packed; ++c)
    if (c < g.count) f(c, g.columns[c]);
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

struct packed_layout {
  std::uint64_t low[max_packed];
  unsigned shift[max_packed];
  unsigned width[max_packed];  // 0: the column never varies

  __device__ packed_layout(const packed_group& g, const std::uint64_t* bounds) {
    unsigned top = 8u * unsigned(g.key_bytes);
    for_each_column(g, [&](int c, const packed_column&) {
      low[c] = bounds[c];
      const std::uint64_t span = bounds[max_packed + c] - bounds[c];
      width[c] = 64u - unsigned(__clzll(static_cast<long long>(span)));
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

}  // namespace gpusort::detail::columns
