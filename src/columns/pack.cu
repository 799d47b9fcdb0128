// pack.hpp's kernels: grid-stride loops, rows_a_thread rows per thread and
// step, each column's keys of them loaded together (layout.cuh's
// for_row_batches). The bounds read each column once in order; the pack
// reads each column's key through the row of the pass before (a gather) and
// writes one packed key per row.
#include "columns/layout.cuh"
#include "columns/ordered.hpp"
#include "columns/pack.hpp"

#include <gpusort/detail/block/warp.cuh>
#include <gpusort/detail/core/launch.cuh>

namespace gpusort::detail::columns {
namespace {

// Each column's bounds: every thread reads its rows (for_row_batches, a
// batch of one column's keys loaded together) keeping a minimum and a
// maximum per column, then the block layer's warp reductions and one
// atomicMin and one atomicMax per warp and column. With `folded`, the same
// read also notes whether any key of a float column is one the folds change.
template <int C>
__global__ void bounds_kernel(packed_group g, std::uint64_t* bounds, unsigned* folded, std::size_t n) {
  std::uint64_t lo[C], hi[C];
  for_each_column<C>(g, [&](int c, const packed_column&) { lo[c] = ~std::uint64_t(0), hi[c] = 0; });
  bool folds = false;
  for_row_batches(n, [&](const std::size_t(&row)[rows_a_thread], const bool(&live)[rows_a_thread]) {
    for_each_column<C>(g, [&](int c, const packed_column& col) {
      std::uint64_t raw[rows_a_thread];
      raws_at(col, row, live, raw);
#pragma unroll
      for (int u = 0; u < rows_a_thread; ++u) {
        if (!live[u]) continue;
        const std::uint64_t o = ordered_raw(col, raw[u]);
        lo[c] = min(lo[c], o);
        hi[c] = max(hi[c], o);
        if (folded) folds |= folds_raw(col, raw[u]);
      }
    });
  });
  for_each_column<C>(g, [&](int c, const packed_column&) {
    const std::uint64_t l = block::warp_min(lo[c]), h = block::warp_max(hi[c]);
    if (block::lane_id() == 0 && l != ~std::uint64_t(0))
      atomicMin(reinterpret_cast<unsigned long long*>(bounds + c), static_cast<unsigned long long>(l));
    if (block::lane_id() == 0 && h != 0)
      atomicMax(reinterpret_cast<unsigned long long*>(bounds + max_packed + c), static_cast<unsigned long long>(h));
  });
  if (folded && __any_sync(0xFFFFFFFFu, folds) && block::lane_id() == 0) atomicOr(folded, 1u);
}

template <int C, class Key, class Row>
__global__ void pack_kernel(packed_group g, const std::uint64_t* bounds, const Row* rows, Key* keys, std::size_t n) {
  const packed_layout layout(g, bounds);
  for_row_batches(n, [&](const std::size_t(&at)[rows_a_thread], const bool(&live)[rows_a_thread]) {
    std::size_t row[rows_a_thread];
#pragma unroll
    for (int u = 0; u < rows_a_thread; ++u) row[u] = rows ? (live[u] ? std::size_t(rows[at[u]]) : 0) : at[u];
    std::uint64_t k[rows_a_thread];
    pack_batch<C>(g, layout, row, live, k);
#pragma unroll
    for (int u = 0; u < rows_a_thread; ++u)
      if (live[u]) keys[at[u]] = Key(k[u]);
  });
}

template <class Key>
void launch_as(const packed_group& g, const std::uint64_t* bounds, const void* rows, bool wide_rows, void* keys,
               std::size_t n, cudaStream_t s) {
  const unsigned grid = grid_for(n, 256 * rows_a_thread);
  with_columns(g.count, [&]<int C>() {
    if (wide_rows)
      pack_kernel<C><<<grid, 256, 0, s>>>(g, bounds, static_cast<const std::uint64_t*>(rows), static_cast<Key*>(keys),
                                          n);
    else
      pack_kernel<C><<<grid, 256, 0, s>>>(g, bounds, static_cast<const std::uint32_t*>(rows), static_cast<Key*>(keys),
                                          n);
  });
}

}  // namespace

void launch_column_bounds(const call_context& ctx, const packed_group& g, std::uint64_t* bounds, std::size_t n,
                          cudaStream_t s, unsigned* folded) {
  ctx.check(cudaMemsetAsync(bounds, 0xFF, max_packed * sizeof(std::uint64_t), s), "cudaMemsetAsync(minima)");
  ctx.check(cudaMemsetAsync(bounds + max_packed, 0, max_packed * sizeof(std::uint64_t), s), "cudaMemsetAsync(maxima)");
  if (folded) ctx.check(cudaMemsetAsync(folded, 0, sizeof(unsigned), s), "cudaMemsetAsync(folded)");
  if (n == 0) return;
  // at most 2048 blocks (16 an SM on the largest GPUs), each thread 4 rows
  // in flight: enough loads to cover the memory's latency, few atomics
  with_columns(g.count, [&]<int C>() {
    bounds_kernel<C><<<grid_for(n, 256 * rows_a_thread, 2048), 256, 0, s>>>(g, bounds, folded, n);
  });
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
