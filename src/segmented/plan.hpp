// Segmented sort, the steps that do not depend on the key type (compiled
// once, in plan.cu): binning the segments by size class (bins.cuh), listing
// the large and huge segments' runs and tiles (lists.cuh), and the large
// class's digit bases and launch plan (large.cuh).
#pragma once

#include "segmented/bins.cuh"
#include "segmented/lists.cuh"
#include "segmented/values.cuh"
#include "radix/onesweep_plan.hpp"

#include <gpusort/detail/core/context.hpp>
#include <gpusort/detail/core/temp_layout.hpp>

#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>

namespace gpusort::detail::segmented {

// Scratch of the binning for `segments` segments, carved from t.
bins take_bins(temp_layout& t, std::size_t segments);
// Classifies and files every segment (three launches after a memset).
void bin_segments(const call_context& ctx, const offsets& off, std::size_t segments, const bins& b,
                  cudaStream_t stream);

// A class's list scratch for at most `bound` segments of n keys in all,
// runs of `run` and tiles of `tile` keys; `scan` is the prefix sums'.
struct list_scratch {
  segment_list list;
  unsigned long long* run_counts;
  unsigned long long* tile_counts;
  void* scan;
  std::size_t scan_bytes;
};
list_scratch take_list(temp_layout& t, std::size_t bound, std::size_t n, std::size_t run, std::size_t tile);
// Lists the runs and tiles of the segments of class `cls` from the bins.
void plan_list(const call_context& ctx, const offsets& off, const bins& b, int cls, const list_scratch& l,
               std::size_t run, std::size_t tile, cudaStream_t stream);

// The same lists for a list whose entries [0, *count) the caller wrote
// (begin and size; radix_msd's buckets), runs being tiles: the tiles are
// listed and the totals (first_tile[bound]) written; entries past the count
// are not all emptied, so readers stop at the count. l.list.bound may be below
// the bound l was taken for. `dependent`: the one-block list kernel (a
// bound of at most 2^16 entries) as a programmatic dependent launch
// (launch.cuh; radix_msd's chain of level kernels).
void plan_counted_list(const call_context& ctx, const unsigned long long* count, const list_scratch& l,
                       std::size_t tile, cudaStream_t stream, bool dependent = false);

// The large class's onesweep bases: for every pass p and listed segment q,
// base[p][q][digit] = the segment's first key + the exclusive scan of
// hist[p][q][digit] over the 256 digits (every segment of the list at
// once, one block each); and the passes' launch plan (slots launches: every
// pass sorts, a copy when there is none).
void scan_chains(const call_context& ctx, const segment_list& l, const unsigned* hist, unsigned long long* base,
                 int passes, radix_onesweep::slot_plan* plan, int slots, cudaStream_t stream);
// Zeroes what the large class's passes count into: the listed segments'
// histogram rows ([pass][segment][256]), the `slots` tile counters, and the
// listed tiles' words of the first look-back table.
void clear_chains(const call_context& ctx, const segment_list& l, unsigned* hist, int passes, unsigned* counters,
                  int slots, unsigned* lookback, cudaStream_t stream);
// The large class's pairs: output slot i of every listed tile (of `tile`
// keys) takes the value at position[i] of its segment.
void gather_chains(const call_context& ctx, const value_mover& vals, const segment_list& l, std::size_t tile,
                   std::size_t tile_bound, const std::uint32_t* position, cudaStream_t stream);

}  // namespace gpusort::detail::segmented
