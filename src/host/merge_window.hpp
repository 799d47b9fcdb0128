// The host pipeline's view of the merge family: one window of one merge pass
// over chunks that sit sorted in device memory. Plain C++ (no kernels), so
// the pipeline's host code is compiled by the host compiler; the definition
// (merge_window.cuh) is instantiated in the generated merge_sort_<kind> units
// beside merge::sort, whose kernels it launches.
#pragma once

#include <gpusort/detail/core/context.hpp>
#include <gpusort/detail/key_traits.hpp>

#include <cuda_runtime_api.h>

#include <cstddef>

namespace gpusort::detail::host {

// Output items per merge block for carrier C with values of val_size bytes
// (0: keys alone); chunk and window sizes are multiples of it. 0 when the
// values have no payload type (widths other than 1, 2, 4, 8, 16 bytes): the
// pipeline then sorts the whole array in one call instead of merging.
template <class C> std::size_t merge_tile(std::size_t val_size);

// Merges, in the order `ord` (a full-range order: rank = carried bits), the
// pairs of sorted `width`-item runs of keys[0, n) that output tiles
// [first, last) cover, from kin/vin into kout/vout. splits needs
// last - first + 1 entries. Asynchronous on `stream`.
template <class C>
void merge_window(const call_context& ctx, const C* kin, C* kout, const void* vin, void* vout,
                  std::size_t val_size, std::size_t n, std::size_t width, std::size_t first, std::size_t last,
                  std::size_t* splits, const key_order<C>& ord, cudaStream_t stream);

// Merges two sorted runs of any lengths, keys[0, a) and keys[a, n), in the
// order `ord` (full range), from kin/vin into kout/vout; ties take run A's
// items first. splits needs merge_runs_splits(n, val_size) entries.
// Asynchronous on `stream`. (The multi-GPU sort merges its receipts so.)
template <class C> std::size_t merge_runs_splits(std::size_t n, std::size_t val_size);
template <class C>
void merge_runs(const call_context& ctx, const C* kin, C* kout, const void* vin, void* vout, std::size_t val_size,
                std::size_t n, std::size_t a, std::size_t* splits, const key_order<C>& ord, cudaStream_t stream);

}  // namespace gpusort::detail::host
