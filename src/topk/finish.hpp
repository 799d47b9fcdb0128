// Top-k's key-independent kernels, compiled once (finish.cu).
#pragma once

#include "segmented/bins.cuh"

#include <gpusort/detail/core/context.hpp>

#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>

namespace gpusort::detail::topk {

// Segments of more than `tile` keys: [begin, end) for those, empty ranges
// for the rest (a segmented sort over them then sorts the long ones only).
void launch_long_ranges(const call_context& ctx, const segmented::offsets& off, std::size_t segments,
                        std::size_t tile, std::uint64_t* begin, std::uint64_t* end, cudaStream_t s);

// The caller's indices of the selected keys: gidx (global indices, ~0 for
// slots past a short segment) to idx_out as integers of index_bytes (4 or
// 8), local to the segment of each slot (slot / k) when off is given, and
// the values gathered (vals_in[gidx] -> vals_out, `width` bytes) when
// vals_in is given. Slots marked ~0 get index -1 and keep their value.
void launch_finish(const call_context& ctx, const std::uint64_t* gidx, std::size_t slots, std::size_t k,
                   const segmented::offsets* off, void* idx_out, int index_bytes, const void* vals_in,
                   void* vals_out, std::size_t width, cudaStream_t s);

}  // namespace gpusort::detail::topk
