// The index arrays of the run-time typed API (runtime.hpp): the offsets of
// equal rows for the segmented sort, row-local indices for argsort, and the
// widening of 32-bit indices to 64 bits. Key-independent, compiled once
// (rows.cu).
#pragma once

#include <gpusort/detail/core/context.hpp>

#include <cuda_runtime_api.h>

#include <cstddef>

namespace gpusort::detail {

// offsets[i] = i * row_len for i <= rows, as u32 (offset_bytes 4) or u64 (8).
void launch_row_offsets(const call_context& ctx, void* offsets, int offset_bytes, std::size_t rows,
                        std::size_t row_len, cudaStream_t s);
// idx[i] = i % row_len for i < n, as u32 (index_bytes 4) or u64 (8).
void launch_row_iota(const call_context& ctx, void* idx, int index_bytes, std::size_t n, std::size_t row_len,
                     cudaStream_t s);
// out[i] = in[i] for i < n, u32 to u64.
void launch_widen(const call_context& ctx, const void* in, void* out, std::size_t n, cudaStream_t s);

}  // namespace gpusort::detail
