// Top-k, the launches of one carrier key type (the generated topk_<kind>.cu
// units instantiate them): the device-wide selection (select.cuh), the
// block selection of rows and segments (block_select.cuh), and the small
// kernels around them. The scratch is carved by the caller
// (src/core/topk_api.cu, with topk/scratch.hpp) and handed in as pointers;
// nothing here allocates or synchronises.
#pragma once

#include "topk/block_select.cuh"
#include "topk/call.hpp"
#include "topk/select.cuh"

#include <gpusort/detail/core/launch.cuh>

#include <cstddef>
#include <cstdint>

namespace gpusort::detail::topk {

// The winners of one array: k indices, any order, in c.winners.
template <class K> void select(const select_call<K>& c) {
  using U = typename key_traits<K>::bits;
  using T = tuning<U>;
  const call_context& ctx = *c.ctx;
  const cudaStream_t st = c.stream;
  select_args<K> a{};
  a.keys = reinterpret_cast<const U*>(c.keys);
  a.n = c.n;
  a.order = radix::digit_map<K>::of(c.ord, radix_bits, 0);
  a.digits = make_digits(int(sizeof(U)) * 8, c.n);
  a.state = c.state;
  a.hists = c.hists;
  a.lists[0] = c.lists[0];
  a.lists[1] = c.lists[1];
  a.list_capacity = c.list_capacity;
  a.winners = c.winners;
  ctx.check(cudaMemsetAsync(c.state, 0, sizeof(select_state), st), "cudaMemsetAsync(topk state)");
  ctx.check(cudaMemsetAsync(c.hists, 0, sizeof(count_t) * max_digits * bins, st), "cudaMemsetAsync(topk histogram)");
  const unsigned sms = sm_count(ctx);
  {  // the first read: every key digit
    radix_onesweep::pass_digits<K, T::hist::max_passes> d{};
    d.passes = a.digits.key_digits;
    for (int p = 0; p < d.passes; ++p) d.pass[p] = radix::digit_map<K>::of(c.ord, radix_bits, p);
    const std::size_t per_block = std::size_t(T::hist_threads) * T::hist_items;
    const unsigned grid = grid_for(c.n, per_block, std::size_t(sms) * T::hist_blocks_per_sm);
    histogram_kernel<T, K><<<grid, T::hist_threads, 0, st>>>(a, d);
    ctx.check_launch("topk histogram");
  }
  start_kernel<K><<<1, bins, 0, st>>>(a, c.k);
  ctx.check_launch("topk start");
  auto input = filter_kernel<T, K, false>;
  auto list = filter_kernel<T, K, true>;
  const unsigned input_grid =
      grid_for(c.n, std::size_t(T::filter_threads) * T::filter_items, std::size_t(resident_grid(ctx, input, T::filter_threads)));
  const unsigned list_grid = grid_for(c.list_capacity, std::size_t(T::filter_threads) * T::list_items,
                                      std::size_t(resident_grid(ctx, list, T::filter_threads)));
  for (int level = 0; level < a.digits.digits(); ++level) {
    choose_kernel<K><<<1, bins, 0, st>>>(a, level);
    ctx.check_launch("topk choose");
    input<<<input_grid, T::filter_threads, 0, st>>>(a, level);
    if (level > 0) list<<<list_grid, T::filter_threads, 0, st>>>(a, level);
    ctx.check_launch("topk filter");
  }
}

// The first min(k, size) of each long segment, sorted, to its output slots.
template <class U>
__global__ void __launch_bounds__(256)
take_first_kernel(segmented::offsets off, std::size_t segments, std::size_t k, std::size_t tile, const U* keys,
                  const std::uint64_t* idx, U* keys_out, std::uint64_t* gidx) {
  const std::size_t total = segments * k, stride = std::size_t(gridDim.x) * 256;
  for (std::size_t o = std::size_t(blockIdx.x) * 256 + threadIdx.x; o < total; o += stride) {
    const std::size_t s = o / k, j = o % k;
    std::size_t first = 0, last = 0;
    off.span(s, first, last);
    if (last - first <= tile) continue;
    if (j < last - first) {
      keys_out[o] = keys[first + j];
      gidx[o] = idx[first + j];
    } else {
      gidx[o] = ~std::uint64_t(0);
    }
  }
}

// Block selection of every segment of at most block_tile keys.
template <class K> void select_segments(const segments_call<K>& c) {
  using U = typename key_traits<K>::bits;
  using T = tuning<U>;
  const call_context& ctx = *c.ctx;
  auto kernel = block_select_kernel<T, K>;
  constexpr std::size_t shared = block_select_config<T, K>::shared_bytes;
  allow_shared_memory(ctx, kernel, shared, "cudaFuncSetAttribute(topk block select)");
  block_args<K> a{};
  a.keys = reinterpret_cast<const U*>(c.keys);
  a.keys_out = reinterpret_cast<U*>(c.keys_out);
  a.gidx = c.gidx;
  a.off = c.off;
  a.segments = c.segments;
  a.k = c.k;
  a.ord = c.ord;
  a.sorted = c.sorted;
  const unsigned grid = grid_for(c.segments, 1, std::size_t(sm_count(ctx)) * 64);
  kernel<<<grid, T::block_threads, shared, c.stream>>>(a);
  ctx.check_launch("topk block select");
}

// After the long segments' sort: their first k to the output.
template <class K> void take_first(const segments_call<K>& c, const K* sorted_keys, const std::uint64_t* sorted_idx) {
  using U = typename key_traits<K>::bits;
  using T = tuning<U>;
  const unsigned grid = grid_for(c.segments * c.k, 256, std::size_t(sm_count(*c.ctx)) * 16);
  take_first_kernel<U><<<grid, 256, 0, c.stream>>>(c.off, c.segments, c.k, T::block_tile,
                                                   reinterpret_cast<const U*>(sorted_keys), sorted_idx,
                                                   reinterpret_cast<U*>(c.keys_out), c.gidx);
  c.ctx->check_launch("topk take first");
}

}  // namespace gpusort::detail::topk
