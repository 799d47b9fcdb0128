// Top-k of many rows or segments: one block a segment of up to block_tile
// keys, radix selection in shared memory (RadiK, Li et al., arXiv
// 2501.14336, 2025, section 4: the batched case) over the selection key of
// plan.hpp, so among equal keys the lowest indices win.
//
//   load     the segment's keys, warp-striped in registers (block/striped.cuh),
//            as rank bits; every key a candidate
//   levels   per key digit from the top: the candidates' digit histogram
//            (shared atomics), the bucket of the need-th (one scan of 256
//            counts), winners below it, candidates in it; stops early when
//            the bucket is exactly the need
//   ties     the candidates left share one key: the first `need` of them
//            in index order win (a block scan in slot order)
//   output   winners compacted in index order; sorted: up to 32 by one
//            warp's bitonic network on (rank, index) (block/warp_sort.cuh), more by the block
//            radix sort (radix/block_sort.cuh's sort_tile, stable, so ties
//            stay in index order); unsorted: in index order
// Writes keys to keys_out[s * k + j] and the global index to gidx[s * k + j]
// for j < min(k, size); slots past a short segment's size get index ~0.
// Segments of more than block_tile keys are left to the caller (topk.cuh
// sorts them).
#pragma once

#include "radix/block_sort.cuh"
#include "radix/digit.cuh"
#include "segmented/bins.cuh"
#include "topk/plan.hpp"
#include "topk/tuning.cuh"

#include <gpusort/detail/block/striped.cuh>
#include <gpusort/detail/block/warp.cuh>
#include <gpusort/detail/block/warp_sort.cuh>

#include <cstddef>
#include <cstdint>

namespace gpusort::detail::topk {

template <class K> struct block_args {
  using U = typename key_traits<K>::bits;
  const U* keys;
  U* keys_out;
  std::uint64_t* gidx;
  segmented::offsets off;
  std::size_t segments;
  std::size_t k;
  key_order<K> ord;  // full range, ascending (k smallest) or descending (k largest)
  bool sorted;
};

// Exclusive rank of each flagged item among the block's flagged items in
// slot order (warp, item, lane); returns the block's total.
template <int THREADS, int I>
__device__ __forceinline__ unsigned slot_rank(const bool (&flag)[I], unsigned (&rank)[I], unsigned* warp_totals) {
  const unsigned lane = threadIdx.x & 31u, warp = threadIdx.x / 32;
  const unsigned below = (1u << lane) - 1u;
  unsigned running = 0;
#pragma unroll
  for (int i = 0; i < I; ++i) {
    const unsigned votes = __ballot_sync(0xFFFFFFFFu, flag[i]);
    rank[i] = running + __popc(votes & below);
    running += __popc(votes);
  }
  __syncthreads();  // warp_totals may still be read by a previous call
  if (lane == 0) warp_totals[warp] = running;
  __syncthreads();
  unsigned before = 0, total = 0;
#pragma unroll
  for (unsigned w = 0; w < unsigned(THREADS / 32); ++w) {
    const unsigned t = warp_totals[w];
    if (w < warp) before += t;
    total += t;
  }
#pragma unroll
  for (int i = 0; i < I; ++i) rank[i] += before;
  return total;
}

template <class T, class K> struct block_select_config {
  using U = typename key_traits<K>::bits;
  using sort = radix::block_sort_config<T::block_threads, T::block_items, radix_bits, U, unsigned>;
  static constexpr std::size_t shared_bytes = sort::shared_bytes;
};

template <class T, class K>
__global__ void __launch_bounds__(T::block_threads) block_select_kernel(block_args<K> a) {
  using U = typename key_traits<K>::bits;
  using C = typename block_select_config<T, K>::sort;
  constexpr int I = T::block_items;
  constexpr int THREADS = T::block_threads;
  static_assert(THREADS == bins, "one thread a bin");
  extern __shared__ uint4 smem[];
  __shared__ unsigned hist[bins];
  __shared__ unsigned warp_totals[THREADS / 32];
  __shared__ unsigned scan_warps[THREADS / 32];
  __shared__ unsigned pick[3];
  unsigned* staged = reinterpret_cast<unsigned*>(smem);  // winners' slots, in index order
  const radix::digit_map<K> whole = radix::digit_map<K>::of(a.ord, radix_bits, 0);
  const int key_digits = (int(sizeof(U)) * 8 + radix_bits - 1) / radix_bits;
  const unsigned t = threadIdx.x;
  for (std::size_t s = blockIdx.x; s < a.segments; s += gridDim.x) {
    std::size_t first = 0, last = 0;
    a.off.span(s, first, last);
    const std::size_t size = last - first;
    if (size > std::size_t(T::block_tile)) continue;
    const std::size_t need_all = size < a.k ? size : a.k;
    const std::size_t out = s * a.k;
    for (std::size_t j = need_all + t; j < a.k; j += THREADS) a.gidx[out + j] = ~std::uint64_t(0);
    if (need_all == 0) continue;
    const unsigned valid = unsigned(size);
    U r[I];
    bool cand[I], win[I];
    block::for_striped<false, I>(int(valid), [&](int i, unsigned slot, bool live) {
      r[i] = live ? U(whole.ordered(a.keys[first + slot])) : U(0);
      cand[i] = live;
      win[i] = false;
    });
    unsigned rem = unsigned(need_all);
    if (need_all < size) {
      for (int level = 0; level < key_digits; ++level) {
        const digit_field f{true, int(sizeof(U)) * 8 - (level + 1) * radix_bits, radix_bits};
        hist[t] = 0;
        __syncthreads();
#pragma unroll
        for (int i = 0; i < I; ++i)
          if (cand[i]) atomicAdd(&hist[digit_of(f, std::uint64_t(r[i]), 0)], 1u);
        __syncthreads();
        // the bucket of the rem-th candidate
        const unsigned mine = hist[t];
        unsigned total = 0;
        const unsigned before = block::block_exclusive_sum<THREADS>(mine, scan_warps, total);
        if (before < rem && before + mine >= rem) {
          pick[0] = t;
          pick[1] = before;
          pick[2] = mine;
        }
        __syncthreads();
        const unsigned b = pick[0], less = pick[1], equal = pick[2];
#pragma unroll
        for (int i = 0; i < I; ++i) {
          if (!cand[i]) continue;
          const unsigned d = digit_of(f, std::uint64_t(r[i]), 0);
          if (d < b) win[i] = true;
          cand[i] = d == b;
        }
        rem -= less;
        if (equal == rem) break;  // block-uniform: every candidate left wins
      }
      // the candidates left share one key (or are exactly rem): the first
      // rem of them in index order win
      unsigned rank[I];
      slot_rank<THREADS, I>(cand, rank, warp_totals);
#pragma unroll
      for (int i = 0; i < I; ++i)
        if (cand[i] && rank[i] < rem) win[i] = true;
    } else {
#pragma unroll
      for (int i = 0; i < I; ++i) win[i] = cand[i];
    }
    // winners in index order
    unsigned pos[I];
    slot_rank<THREADS, I>(win, pos, warp_totals);
    __syncthreads();  // the staging area may hold the last segment's sort
#pragma unroll
    for (int i = 0; i < I; ++i)
      if (win[i]) staged[pos[i]] = block::striped_slot<I>(i);
    __syncthreads();
    const unsigned count = unsigned(need_all);
    if (!a.sorted) {
      for (unsigned j = t; j < count; j += THREADS) {
        const unsigned slot = staged[j];
        a.keys_out[out + j] = a.keys[first + slot];
        a.gidx[out + j] = first + slot;
      }
    } else if (count <= 32) {
      if (t < 32) {
        U rk[1] = {~U(0)};
        unsigned slot[1] = {~0u};
        if (t < count) {
          slot[0] = staged[t];
          rk[0] = U(whole.ordered(a.keys[first + slot[0]]));
        }
        block::warp_bitonic_sort<1>(rk, slot);
        if (t < count) {
          a.keys_out[out + t] = a.keys[first + slot[0]];
          a.gidx[out + t] = first + slot[0];
        }
      }
    } else {
      // the block radix sort of the winners (pads rank last), stable
      U key[I];
      unsigned val[I];
      const U pad = radix::pad_bits(a.ord);
      block::for_striped<false, I>(int(count), [&](int i, unsigned slot, bool live) {
        val[i] = live ? staged[slot] : 0u;
        key[i] = live ? a.keys[first + val[i]] : pad;
      });
      __syncthreads();  // staged is read: the sort may use the shared memory
      radix::sort_tile<C, K>(key, val, a.ord, radix::pass_count(a.ord, radix_bits), smem);
#pragma unroll
      for (int i = 0; i < I; ++i) {
        const unsigned slot = block::striped_slot<I>(i);
        if (slot < count) {
          a.keys_out[out + slot] = key[i];
          a.gidx[out + slot] = first + val[i];
        }
      }
    }
    __syncthreads();
  }
}

}  // namespace gpusort::detail::topk
