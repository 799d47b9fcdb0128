// Index moves that do not depend on the key type, compiled once (gather.cu):
// the identity permutation, and gathering elements of any width by index
// (32-bit indices, or 64-bit when `wide`).
#pragma once

#include <gpusort/detail/core/context.hpp>

#include <cuda_runtime_api.h>

#include <cstddef>

namespace gpusort::detail {

// idx[i] = i for i < n.
void launch_iota(const call_context& ctx, void* idx, bool wide, std::size_t n, cudaStream_t s);
// dst[i] = src[idx[i]] for i < n, elements of `width` bytes.
void launch_gather(const call_context& ctx, const void* src, void* dst, const void* idx, bool wide, std::size_t n,
                   std::size_t width, cudaStream_t s);

}  // namespace gpusort::detail
