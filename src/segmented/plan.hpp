// Segmented sort, the steps that do not depend on the key type (compiled
// once, in plan.cu): binning the segments by size class (bins.cuh) and
// listing the large segments' runs and tiles (large.cuh).
#pragma once

#include "segmented/bins.cuh"
#include "segmented/large.cuh"

#include <gpusort/detail/core/context.hpp>
#include <gpusort/detail/core/temp_layout.hpp>

#include <cuda_runtime_api.h>

#include <cstddef>

namespace gpusort::detail::segmented {

// Scratch of the binning for `segments` segments, carved from t.
bins take_bins(temp_layout& t, std::size_t segments);
// Classifies and files every segment (three launches after a memset).
void bin_segments(const call_context& ctx, const offsets& off, std::size_t segments, const bins& b,
                  cudaStream_t stream);

// The large list's scratch for at most `bound` large segments of n keys in
// all, runs of `run` and tiles of `tile` keys; `scan` is the prefix sums'.
struct large_scratch {
  large_list list;
  unsigned long long* run_counts;
  unsigned long long* tile_counts;
  void* scan;
  std::size_t scan_bytes;
};
large_scratch take_large(temp_layout& t, std::size_t bound, std::size_t n, std::size_t run, std::size_t tile);
// Lists the large segments' runs and tiles from the bins.
void plan_large(const call_context& ctx, const offsets& off, const bins& b, const large_scratch& l, std::size_t run,
                std::size_t tile, cudaStream_t stream);

}  // namespace gpusort::detail::segmented
