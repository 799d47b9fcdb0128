// Block radix sort: each block sorts one tile in shared memory with an LSD
// radix sort of RADIX_BITS-bit digits (Cozzi, "Parallel Algorithms Continued" (CIS 565, 2012): "sort tiles that fit in
// shared memory with radix sort"; the ranking is block/rank.cuh's
// multi-split, Adinets & Merrill 2022).
//
// Per pass: rank the tile by the pass's digit, exchange keys (and values)
// through shared memory into rank order, and reload them warp-striped, so
// the next pass ranks the tile in its new order (LSD: stable passes from the
// least significant digit up). A pass whose digit is the same for every key
// leaves the tile as it is. Partial tiles are padded with keys that rank last
// in every digit; they end up behind every real key and are never stored.
//
// Used by radix_tile (every tile, then merged), by radix_onesweep's
// small-n path (one block, one launch) and, through sort_tile, by the
// segmented sort's block classes (one segment a block).
#pragma once

#include <gpusort/detail/core/launch.cuh>
#include "core/problem.cuh"
#include <gpusort/detail/block/rank.cuh>
#include <gpusort/detail/block/striped.cuh>
#include "radix/digit.cuh"

#include <cstddef>
#include <cstdint>

namespace gpusort::detail::radix {

template <int THREADS, int ITEMS, int RADIX_BITS, class U, class P> struct block_sort_config {
  static constexpr int threads = THREADS;
  static constexpr int items = ITEMS;
  static constexpr int radix_bits = RADIX_BITS;
  static constexpr int tile = THREADS * ITEMS;
  using ranker = block::block_rank<THREADS, ITEMS, RADIX_BITS>;

  // Shared memory: the ranker's histograms, or the exchange of keys and values.
  static constexpr std::size_t keys_bytes = align16(std::size_t(tile) * sizeof(U));
  static constexpr std::size_t vals_bytes = is_no_value<P> ? 0 : std::size_t(tile) * sizeof(P);
  static constexpr std::size_t rank_bytes = sizeof(typename ranker::storage);
  static constexpr std::size_t shared_bytes =
      keys_bytes + vals_bytes > rank_bytes ? keys_bytes + vals_bytes : rank_bytes;
};

// Sorts one warp-striped tile held in registers (key[i], val[i]: item i of
// this thread, tile slot C::ranker::slot(i)) by `passes` digits of
// C::radix_bits of the order (digit_map::of: counted from the top of its
// range); pads must rank last. On return the
// tile is in sorted order, warp-striped again. `smem` holds C::shared_bytes;
// every thread of the block calls it. Passes whose bit is clear in `live`
// (block-uniform: digits the caller knows to be constant) are not made.
template <class C, class K, class P>
__device__ __forceinline__ void sort_tile(typename key_traits<K>::bits (&key)[C::items], P (&val)[C::items],
                                          const key_order<K>& ord, int passes, void* smem,
                                          unsigned live = ~0u) {
  using U = typename key_traits<K>::bits;
  using ranker = typename C::ranker;
  constexpr int I = C::items;
  auto& rank_store = *reinterpret_cast<typename ranker::storage*>(smem);
  U* s_keys = reinterpret_cast<U*>(smem);
  P* s_vals = reinterpret_cast<P*>(reinterpret_cast<std::uint8_t*>(smem) + C::keys_bytes);
  for (int pass = 0; pass < passes; ++pass) {
    if (!((live >> pass) & 1u)) continue;
    const auto digit = digit_map<K>::of(ord, C::radix_bits, pass);
    unsigned ranks[I], counts[ranker::bins_per_thread], starts[ranker::bins_per_thread];
    const bool moved = ranker::rank(
        rank_store, [&](int i) { return digit(key[i]); }, ranks, counts, starts,
        [&](const unsigned(&c)[ranker::bins_per_thread]) {
          bool one_digit = false;
#pragma unroll
          for (int u = 0; u < ranker::bins_per_thread; ++u) one_digit |= c[u] == unsigned(C::tile);
          return __syncthreads_or(one_digit) != 0;
        });
    if (moved) {
      __syncthreads();  // every rank is known: the exchange may overwrite the histograms
#pragma unroll
      for (int i = 0; i < I; ++i) {
        s_keys[ranks[i]] = key[i];
        if constexpr (!is_no_value<P>) s_vals[ranks[i]] = val[i];
      }
      __syncthreads();
#pragma unroll
      for (int i = 0; i < I; ++i) {
        key[i] = s_keys[ranker::slot(i)];
        if constexpr (!is_no_value<P>) val[i] = s_vals[ranker::slot(i)];
      }
    }
    __syncthreads();  // the next pass's histograms overwrite the exchange
  }
}

// Sorts each tile of kin into kout (in place works: a block reads its whole
// tile before it writes). `passes` digits of C::radix_bits (digit_map::of) of
// the order.
template <class C, class K, class P>
__global__ void __launch_bounds__(C::threads)
block_sort_kernel(const K* kin, K* kout, const P* vin, P* vout, std::size_t n, key_order<K> ord, int passes) {
  using U = typename key_traits<K>::bits;
  using ranker = typename C::ranker;
  constexpr int I = C::items;
  extern __shared__ uint4 smem[];
  const U* in = reinterpret_cast<const U*>(kin);
  U* out = reinterpret_cast<U*>(kout);
  const U pad = pad_bits(ord);

  for (std::size_t tile = blockIdx.x; tile * C::tile < n; tile += gridDim.x) {
    const std::size_t base = tile * C::tile;
    const unsigned valid = unsigned(n - base < std::size_t(C::tile) ? n - base : std::size_t(C::tile));
    U key[I];
    P val[I];
    block::for_striped<false, I>(int(valid), [&](int i, unsigned s, bool live) {
      key[i] = live ? in[base + s] : pad;
      if constexpr (!is_no_value<P>)
        if (live) val[i] = vin[base + s];
    });
    sort_tile<C, K>(key, val, ord, passes, smem);
#pragma unroll
    for (int i = 0; i < I; ++i) {
      const unsigned s = ranker::slot(i);
      if (s < valid) {
        out[base + s] = key[i];
        if constexpr (!is_no_value<P>) vout[base + s] = val[i];
      }
    }
  }
}

// Launches block_sort_kernel over every tile of [0, n): `blocks` blocks
// (grid-stride over tiles), `passes` digits.
template <class C, class K, class P>
void block_sort(const sort_problem<K, P>& p, const K* kin, K* kout, const P* vin, P* vout, int passes,
                unsigned blocks, const char* what) {
  auto kernel = block_sort_kernel<C, K, P>;
  allow_shared_memory(*p.ctx, kernel, C::shared_bytes, what);
  kernel<<<blocks, C::threads, C::shared_bytes, p.stream>>>(kin, kout, vin, vout, p.n, p.ord, passes);
  p.ctx->check_launch(what);
}

}  // namespace gpusort::detail::radix
