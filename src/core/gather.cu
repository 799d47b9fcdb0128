// The key-independent index moves of gather.hpp. Elements of 1, 2, 4, 8 or
// 16 bytes whose arrays are aligned to their width move as one word; any
// other width moves byte by byte.
#include "core/gather.hpp"

#include <gpusort/detail/core/launch.cuh>
#include <gpusort/detail/core/payload.cuh>

#include <cstdint>

namespace gpusort::detail {
namespace {

template <class I> __global__ void iota_kernel(I* out, std::size_t n) {
  for (std::size_t i = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += std::size_t(gridDim.x) * blockDim.x)
    out[i] = I(i);
}

template <class T, class I> __global__ void gather_kernel(const T* src, T* dst, const I* idx, std::size_t n) {
  for (std::size_t i = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += std::size_t(gridDim.x) * blockDim.x)
    dst[i] = src[idx[i]];
}

template <class I>
__global__ void gather_bytes_kernel(const std::uint8_t* src, std::uint8_t* dst, const I* idx, std::size_t n,
                                    std::size_t width) {
  for (std::size_t i = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += std::size_t(gridDim.x) * blockDim.x) {
    const std::uint8_t* from = src + std::size_t(idx[i]) * width;
    std::uint8_t* to = dst + i * width;
    for (std::size_t b = 0; b < width; ++b) to[b] = from[b];
  }
}

template <int W> bool aligned(const void* a, const void* b) {
  return reinterpret_cast<std::uintptr_t>(a) % W == 0 && reinterpret_cast<std::uintptr_t>(b) % W == 0;
}

template <class I>
void gather(const call_context& ctx, const void* src, void* dst, const I* idx, std::size_t n, std::size_t width,
            cudaStream_t s) {
  const unsigned grid = grid_for(n, 256);
  auto typed = [&](auto word) {
    using T = decltype(word);
    gather_kernel<<<grid, 256, 0, s>>>(static_cast<const T*>(src), static_cast<T*>(dst), idx, n);
  };
  if (width == 1) typed(std::uint8_t{});
  else if (width == 2 && aligned<2>(src, dst)) typed(std::uint16_t{});
  else if (width == 4 && aligned<4>(src, dst)) typed(std::uint32_t{});
  else if (width == 8 && aligned<8>(src, dst)) typed(std::uint64_t{});
  else if (width == 16 && aligned<16>(src, dst)) typed(payload16{});
  else
    gather_bytes_kernel<<<grid, 256, 0, s>>>(static_cast<const std::uint8_t*>(src), static_cast<std::uint8_t*>(dst), idx,
                                             n, width);
  ctx.check_launch("gather");
}

}  // namespace

void launch_iota(const call_context& ctx, void* idx, bool wide, std::size_t n, cudaStream_t s) {
  if (n == 0) return;
  if (wide) iota_kernel<<<grid_for(n, 256), 256, 0, s>>>(static_cast<std::uint64_t*>(idx), n);
  else iota_kernel<<<grid_for(n, 256), 256, 0, s>>>(static_cast<std::uint32_t*>(idx), n);
  ctx.check_launch("iota");
}

void launch_gather(const call_context& ctx, const void* src, void* dst, const void* idx, bool wide, std::size_t n,
                   std::size_t width, cudaStream_t s) {
  if (n == 0) return;
  if (wide) gather(ctx, src, dst, static_cast<const std::uint64_t*>(idx), n, width, s);
  else gather(ctx, src, dst, static_cast<const std::uint32_t*>(idx), n, width, s);
}

}  // namespace gpusort::detail
