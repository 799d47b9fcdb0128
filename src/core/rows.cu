// The index kernels of rows.hpp: grid-stride loops, one element per thread
// and step. Widening reads four 32-bit indices and writes two 16-byte words
// per thread where the arrays allow it (the argsort's last pass: 12 bytes
// an item at copy rate).
#include "core/rows.hpp"

#include <gpusort/detail/core/launch.cuh>

#include <cstdint>

namespace gpusort::detail {
namespace {

template <class O> __global__ void row_offsets_kernel(O* out, std::size_t rows, std::size_t row_len) {
  for (std::size_t i = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x; i <= rows;
       i += std::size_t(gridDim.x) * blockDim.x)
    out[i] = O(i * row_len);
}

template <class I> __global__ void row_iota_kernel(I* out, std::size_t n, std::size_t row_len) {
  for (std::size_t i = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x; i < n;
       i += std::size_t(gridDim.x) * blockDim.x)
    out[i] = I(row_len == n ? i : i % row_len);
}

__global__ void widen4_kernel(const uint4* in, ulonglong2* out, std::size_t quads) {
  for (std::size_t i = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x; i < quads;
       i += std::size_t(gridDim.x) * blockDim.x) {
    const uint4 v = in[i];
    out[2 * i] = make_ulonglong2(v.x, v.y);
    out[2 * i + 1] = make_ulonglong2(v.z, v.w);
  }
}

__global__ void widen_kernel(const std::uint32_t* in, std::uint64_t* out, std::size_t from, std::size_t n) {
  for (std::size_t i = from + std::size_t(blockIdx.x) * blockDim.x + threadIdx.x; i < n;
       i += std::size_t(gridDim.x) * blockDim.x)
    out[i] = in[i];
}

}  // namespace

void launch_row_offsets(const call_context& ctx, void* offsets, int offset_bytes, std::size_t rows,
                        std::size_t row_len, cudaStream_t s) {
  const unsigned grid = grid_for(rows + 1, 256);
  if (offset_bytes == 8) row_offsets_kernel<<<grid, 256, 0, s>>>(static_cast<std::uint64_t*>(offsets), rows, row_len);
  else row_offsets_kernel<<<grid, 256, 0, s>>>(static_cast<std::uint32_t*>(offsets), rows, row_len);
  ctx.check_launch("row_offsets");
}

void launch_row_iota(const call_context& ctx, void* idx, int index_bytes, std::size_t n, std::size_t row_len,
                     cudaStream_t s) {
  if (n == 0) return;
  const unsigned grid = grid_for(n, 256);
  if (index_bytes == 8) row_iota_kernel<<<grid, 256, 0, s>>>(static_cast<std::uint64_t*>(idx), n, row_len);
  else row_iota_kernel<<<grid, 256, 0, s>>>(static_cast<std::uint32_t*>(idx), n, row_len);
  ctx.check_launch("row_iota");
}

void launch_widen(const call_context& ctx, const void* in, void* out, std::size_t n, cudaStream_t s) {
  if (n == 0) return;
  const auto* src = static_cast<const std::uint32_t*>(in);
  auto* dst = static_cast<std::uint64_t*>(out);
  std::size_t quads = 0;
  if (reinterpret_cast<std::uintptr_t>(src) % 16 == 0 && reinterpret_cast<std::uintptr_t>(dst) % 16 == 0) {
    quads = n / 4;
    if (quads) widen4_kernel<<<grid_for(quads, 256), 256, 0, s>>>(reinterpret_cast<const uint4*>(src),
                                                                   reinterpret_cast<ulonglong2*>(dst), quads);
  }
  if (quads * 4 < n) widen_kernel<<<grid_for(n - quads * 4, 256), 256, 0, s>>>(src, dst, quads * 4, n);
  ctx.check_launch("widen");
}

}  // namespace gpusort::detail
