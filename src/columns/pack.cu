// pack.hpp's kernels: grid-stride loops, one row per thread and step. The
// minima read each column once in order; the pack reads each column's key
// through the row of the pass before (a gather) and writes one packed key
// per row.
#include "columns/ordered.hpp"
#include "columns/pack.hpp"

#include <gpusort/detail/block/warp.cuh>
#include <gpusort/detail/core/launch.cuh>

namespace gpusort::detail::columns {
namespace {

// Each column's minimum: a grid-stride minimum per thread, the block
// layer's warp minimum, one atomicMin per warp. With `folded`, the same read
// also notes whether any key of a float column is one the folds change.
__global__ void mins_kernel(packed_group g, std::uint64_t* mins, unsigned* folded, std::size_t n) {
  bool folds = false;
  for (int c = 0; c < g.count; ++c) {
    std::uint64_t m = ~std::uint64_t(0);
    for (std::size_t i = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x; i < n;
         i += std::size_t(gridDim.x) * blockDim.x) {
      m = min(m, ordered_any(g.columns[c], i));
      if (folded) folds |= folds_any(g.columns[c], i);
    }
    m = block::warp_min(m);
    if (block::lane_id() == 0 && m != ~std::uint64_t(0))
      atomicMin(reinterpret_cast<unsigned long long*>(mins + c), static_cast<unsigned long long>(m));
  }
  if (folded && __any_sync(0xFFFFFFFFu, folds) && block::lane_id() == 0) atomicOr(folded, 1u);
}

template <class Key, class Row>
__global__ void pack_kernel(packed_group g, const std::uint64_t* mins, const Row* rows, Key* keys, std::size_t n) {
  std::uint64_t low[max_packed];
  for (int c = 0; c < g.count; ++c) low[c] = mins[c];
  for (std::size_t i = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x; i < n;
       i += std::size_t(gridDim.x) * blockDim.x) {
    const std::size_t row = rows ? std::size_t(rows[i]) : i;
    std::uint64_t k = 0;
    for (int c = 0; c < g.count; ++c) k |= (ordered_any(g.columns[c], row) - low[c]) << g.columns[c].shift;
    keys[i] = Key(k);
  }
}

template <class Key>
void launch_as(const packed_group& g, const std::uint64_t* mins, const void* rows, bool wide_rows, void* keys,
               std::size_t n, cudaStream_t s) {
  const unsigned grid = grid_for(n, 256);
  if (wide_rows)
    pack_kernel<<<grid, 256, 0, s>>>(g, mins, static_cast<const std::uint64_t*>(rows), static_cast<Key*>(keys), n);
  else
    pack_kernel<<<grid, 256, 0, s>>>(g, mins, static_cast<const std::uint32_t*>(rows), static_cast<Key*>(keys), n);
}

}  // namespace

void launch_column_mins(const call_context& ctx, const packed_group& g, std::uint64_t* mins, std::size_t n,
                        cudaStream_t s, unsigned* folded) {
  ctx.check(cudaMemsetAsync(mins, 0xFF, std::size_t(g.count) * sizeof(std::uint64_t), s), "cudaMemsetAsync(mins)");
  if (folded) ctx.check(cudaMemsetAsync(folded, 0, sizeof(unsigned), s), "cudaMemsetAsync(folded)");
  if (n == 0) return;
  // a few blocks an SM: each reads its share of every column once
  mins_kernel<<<grid_for(n, 256 * 16, 1024), 256, 0, s>>>(g, mins, folded, n);
  ctx.check_launch("column_mins");
}

void launch_pack(const call_context& ctx, const packed_group& g, const std::uint64_t* mins, const void* rows,
                 bool wide_rows, void* keys, std::size_t n, cudaStream_t s) {
  if (n == 0) return;
  if (g.key_bytes == 4) launch_as<std::uint32_t>(g, mins, rows, wide_rows, keys, n, s);
  else launch_as<std::uint64_t>(g, mins, rows, wide_rows, keys, n, s);
  ctx.check_launch("pack_columns");
}

}  // namespace gpusort::detail::columns
