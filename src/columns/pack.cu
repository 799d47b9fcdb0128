// pack.hpp's kernels: grid-stride loops, one row per thread and step. The
// bounds read each column once in order; the pack reads each column's key
// through the row of the pass before (a gather) and writes one packed key
// per row.
#include "columns/layout.cuh"
#include "columns/ordered.hpp"
#include "columns/pack.hpp"

#include <gpusort/detail/block/warp.cuh>
#include <gpusort/detail/core/launch.cuh>

namespace gpusort::detail::columns {
namespace {

// Each column's bounds: a grid-stride minimum and maximum per thread, the
// block layer's warp reductions, one atomicMin and one atomicMax per warp.
// With `folded`, the same read also notes whether any key of a float column
// is one the folds change.
__global__ void bounds_kernel(packed_group g, std::uint64_t* bounds, unsigned* folded, std::size_t n) {
  bool folds = false;
  for (int c = 0; c < g.count; ++c) {
    std::uint64_t lo = ~std::uint64_t(0), hi = 0;
    for (std::size_t i = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x; i < n;
         i += std::size_t(gridDim.x) * blockDim.x) {
      const std::uint64_t o = ordered_any(g.columns[c], i);
      lo = min(lo, o);
      hi = max(hi, o);
      if (folded) folds |= folds_any(g.columns[c], i);
    }
    lo = block::warp_min(lo);
    hi = block::warp_max(hi);
    if (block::lane_id() == 0 && lo != ~std::uint64_t(0))
      atomicMin(reinterpret_cast<unsigned long long*>(bounds + c), static_cast<unsigned long long>(lo));
    if (block::lane_id() == 0 && hi != 0)
      atomicMax(reinterpret_cast<unsigned long long*>(bounds + max_packed + c), static_cast<unsigned long long>(hi));
  }
  if (folded && __any_sync(0xFFFFFFFFu, folds) && block::lane_id() == 0) atomicOr(folded, 1u);
}

template <class Key, class Row>
__global__ void pack_kernel(packed_group g, const std::uint64_t* bounds, const Row* rows, Key* keys, std::size_t n) {
  const packed_layout layout(g, bounds);
  for (std::size_t i = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x; i < n;
       i += std::size_t(gridDim.x) * blockDim.x) {
    const std::size_t row = rows ? std::size_t(rows[i]) : i;
    std::uint64_t k = 0;
    for (int c = 0; c < g.count; ++c) k |= layout.take(c, ordered_any(g.columns[c], row));
    keys[i] = Key(k);
  }
}

template <class Key>
void launch_as(const packed_group& g, const std::uint64_t* bounds, const void* rows, bool wide_rows, void* keys,
               std::size_t n, cudaStream_t s) {
  const unsigned grid = grid_for(n, 256);
  if (wide_rows)
    pack_kernel<<<grid, 256, 0, s>>>(g, bounds, static_cast<const std::uint64_t*>(rows), static_cast<Key*>(keys), n);
  else
    pack_kernel<<<grid, 256, 0, s>>>(g, bounds, static_cast<const std::uint32_t*>(rows), static_cast<Key*>(keys), n);
}

}  // namespace

void launch_column_bounds(const call_context& ctx, const packed_group& g, std::uint64_t* bounds, std::size_t n,
                          cudaStream_t s, unsigned* folded) {
  ctx.check(cudaMemsetAsync(bounds, 0xFF, max_packed * sizeof(std::uint64_t), s), "cudaMemsetAsync(minima)");
  ctx.check(cudaMemsetAsync(bounds + max_packed, 0, max_packed * sizeof(std::uint64_t), s), "cudaMemsetAsync(maxima)");
  if (folded) ctx.check(cudaMemsetAsync(folded, 0, sizeof(unsigned), s), "cudaMemsetAsync(folded)");
  if (n == 0) return;
  // a few blocks an SM: each reads its share of every column once
  bounds_kernel<<<grid_for(n, 256 * 16, 1024), 256, 0, s>>>(g, bounds, folded, n);
  ctx.check_launch("column_bounds");
}

void launch_pack(const call_context& ctx, const packed_group& g, const std::uint64_t* bounds, const void* rows,
                 bool wide_rows, void* keys, std::size_t n, cudaStream_t s) {
  if (n == 0) return;
  if (g.key_bytes == 4) launch_as<std::uint32_t>(g, bounds, rows, wide_rows, keys, n, s);
  else launch_as<std::uint64_t>(g, bounds, rows, wide_rows, keys, n, s);
  ctx.check_launch("pack_columns");
}

}  // namespace gpusort::detail::columns
