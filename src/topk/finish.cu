// Top-k's key-independent kernels (finish.hpp), compiled once.
#include "topk/finish.hpp"

#include <gpusort/detail/core/launch.cuh>

namespace gpusort::detail::topk {
namespace {

__global__ void __launch_bounds__(256)
long_ranges_kernel(segmented::offsets off, std::size_t segments, std::size_t tile, std::uint64_t* begin,
                   std::uint64_t* end) {
  const std::size_t stride = std::size_t(gridDim.x) * 256;
  for (std::size_t s = std::size_t(blockIdx.x) * 256 + threadIdx.x; s < segments; s += stride) {
    std::size_t first = 0, last = 0;
    off.span(s, first, last);
    begin[s] = first;
    end[s] = last - first > tile ? last : first;
  }
}

template <int INDEX_BYTES>
__global__ void __launch_bounds__(256)
finish_kernel(const std::uint64_t* gidx, std::size_t slots, std::size_t k, segmented::offsets off, bool local,
              void* idx_out, const std::uint8_t* vals_in, std::uint8_t* vals_out, std::size_t width) {
  const std::size_t stride = std::size_t(gridDim.x) * 256;
  for (std::size_t o = std::size_t(blockIdx.x) * 256 + threadIdx.x; o < slots; o += stride) {
    const std::uint64_t g = gidx[o];
    std::uint64_t i = ~std::uint64_t(0);
    if (g != ~std::uint64_t(0)) {
      i = g;
      if (local) {
        std::size_t first = 0, last = 0;
        off.span(o / k, first, last);
        i = g - first;
      }
      if (vals_in)
        for (std::size_t b = 0; b < width; ++b) vals_out[o * width + b] = vals_in[g * width + b];
    }
    if (!idx_out) continue;
    if constexpr (INDEX_BYTES == 4) static_cast<std::uint32_t*>(idx_out)[o] = std::uint32_t(i);
    else static_cast<std::uint64_t*>(idx_out)[o] = i;
  }
}

}  // namespace

void launch_long_ranges(const call_context& ctx, const segmented::offsets& off, std::size_t segments,
                        std::size_t tile, std::uint64_t* begin, std::uint64_t* end, cudaStream_t s) {
  if (segments == 0) return;
  long_ranges_kernel<<<grid_for(segments, 256, std::size_t(sm_count(ctx)) * 16), 256, 0, s>>>(off, segments, tile,
                                                                                               begin, end);
  ctx.check_launch("topk long ranges");
}

void launch_finish(const call_context& ctx, const std::uint64_t* gidx, std::size_t slots, std::size_t k,
                   const segmented::offsets* off, void* idx_out, int index_bytes, const void* vals_in,
                   void* vals_out, std::size_t width, cudaStream_t s) {
  if (slots == 0 || (!idx_out && !vals_in)) return;
  const unsigned grid = grid_for(slots, 256, std::size_t(sm_count(ctx)) * 16);
  const segmented::offsets none{nullptr, nullptr, 8, 0};
  const auto* vi = static_cast<const std::uint8_t*>(vals_in);
  auto* vo = static_cast<std::uint8_t*>(vals_out);
  if (index_bytes == 4)
    finish_kernel<4><<<grid, 256, 0, s>>>(gidx, slots, k, off ? *off : none, off != nullptr, idx_out, vi, vo, width);
  else
    finish_kernel<8><<<grid, 256, 0, s>>>(gidx, slots, k, off ? *off : none, off != nullptr, idx_out, vi, vo, width);
  ctx.check_launch("topk finish");
}

}  // namespace gpusort::detail::topk
