// GPU quicksort: the three-way partition of one level, in one launch.
// After seed 004's qsort_warp (NVIDIA's cdpAdvancedQuicksort) and
// Cederman & Tsigas 2008 phase 1, in a single pass (read once, write once).
//
// A persistent grid walks the level's work items; item w is chunk
// w - first_chunk of segment map[w], at most `chunk` keys.
//   classify  each warp loads 32 x items keys (coalesced, warp-striped) and
//             compares each with the pivot: <, == or > under the call's
//             order (== means neither is less: bit ranges, -0.0 == +0.0)
//   rank      per round, three __ballot_sync masks; a key's rank in its
//             class within the warp is the warp's running count plus
//             __popc(mask & lanes below me), as in the seed
//   reserve   the seed does one atomicAdd per warp and class; here the
//             warps' counts are summed in shared memory first and thread
//             c does one atomicAdd for class c for the whole block (at
//             level 0 every block of the grid hits the same three
//             counters, 8x fewer atomics on them)
//   stage     keys and values go to shared memory in class order
//             (<, ==, >), each at its warp's offset plus its rank
//   store     the staged chunk leaves in three contiguous runs, so stores
//             coalesce: < keys fill the destination segment from its left
//             end, > keys from its right end (Cederman & Tsigas' two
//             cursors), == keys go to the side buffer at the segment's
//             begin + their cursor; scheduling (schedule.cuh) moves them to
//             their final place in the output, where they are done.
// The destination buffer ping-pongs between the output and one scratch
// array (family.cuh); the side buffer only ever holds the current level.
#pragma once

#include "core/payload.cuh"
#include "quick/queues.cuh"

#include <gpusort/detail/key_traits.hpp>

#include <cstddef>

namespace gpusort::detail::quick {

template <class Tune, class K, class P, class Ord>
__global__ void __launch_bounds__(Tune::threads, Tune::min_blocks)
partition_kernel(const K* kin, K* kout, const P* vin, P* vout, K* kside, P* vside, Ord ord,
                 segment<typename Ord::carried>* segs, const unsigned* map, const counter* packed) {
  using U = typename Ord::carried;
  using traits = key_traits<K>;
  constexpr int TH = Tune::threads, IT = Tune::items, CH = Tune::chunk, W = Tune::warps;
  constexpr unsigned short dead = 3;  // class tag of lanes past the chunk's end
  __shared__ typename traits::bits sk[CH];  // raw key bits (K may not be trivial)
  __shared__ P sv[is_no_value<P> ? 1 : CH];
  __shared__ unsigned warp_count[3][W];
  __shared__ unsigned total[3];
  __shared__ counter cursor[3];
  const counter items = *packed & Tune::chunk_mask;
  const unsigned lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  const unsigned below = (1u << lane) - 1;
  for (counter w = blockIdx.x; w < items; w += gridDim.x) {
    segment<U>& sg = segs[map[w]];
    const std::size_t begin = sg.begin, size = sg.size;
    const U pivot = sg.pivot;
    const std::size_t at = std::size_t(w - sg.first_chunk) * CH;
    const int valid = int(size - at < std::size_t(CH) ? size - at : std::size_t(CH));
    const K* src = kin + begin + at;
    const int first = int(warp) * 32 * IT + int(lane);

    // classify and rank
    K k[IT];
    unsigned short tag[IT];  // class << 10 | rank in the warp's class
    unsigned count[3] = {0, 0, 0};
#pragma unroll
    for (int r = 0; r < IT; ++r) {
      const int j = first + r * 32;
      const bool live = j < valid;
      if (live) k[r] = src[j];
      const U u = live ? ord.encode(k[r]) : pivot;
      const bool lt = live && ord.less(u, pivot);
      const bool gt = live && ord.less(pivot, u);
      const unsigned m_lt = __ballot_sync(0xFFFFFFFFu, lt);
      const unsigned m_gt = __ballot_sync(0xFFFFFFFFu, gt);
      const unsigned m_eq = __ballot_sync(0xFFFFFFFFu, live && !lt && !gt);
      const unsigned c = lt ? 0 : (gt ? 2 : 1);
      const unsigned mask = lt ? m_lt : (gt ? m_gt : m_eq);
      const unsigned base = lt ? count[0] : (gt ? count[2] : count[1]);
      tag[r] = live ? (unsigned short)(c << 10 | (base + __popc(mask & below))) : (unsigned short)(dead << 10);
      count[0] += __popc(m_lt);
      count[1] += __popc(m_eq);
      count[2] += __popc(m_gt);
    }
    if (lane < 3) warp_count[lane][warp] = count[lane];
    __syncthreads();

    // reserve: one atomicAdd per class for the block
    if (threadIdx.x < 3) {
      const int c = threadIdx.x;
      unsigned sum = 0;
#pragma unroll
      for (int v = 0; v < W; ++v) sum += warp_count[c][v];
      total[c] = sum;
      counter* cur = c == 0 ? &sg.lt : (c == 1 ? &sg.eq : &sg.gt);
      cursor[c] = sum ? atomicAdd(cur, counter(sum)) : 0;
    }
    __syncthreads();

    // stage in class order
    unsigned start[3];
#pragma unroll
    for (int c = 0; c < 3; ++c) {
      unsigned s = c == 0 ? 0 : (c == 1 ? total[0] : total[0] + total[1]);
      for (unsigned v = 0; v < warp; ++v) s += warp_count[c][v];
      start[c] = s;
    }
#pragma unroll
    for (int r = 0; r < IT; ++r) {
      const unsigned c = tag[r] >> 10;
      if (c == dead) continue;
      const unsigned pos = start[c] + (tag[r] & 1023u);
      sk[pos] = traits::raw(k[r]);
      if constexpr (!is_no_value<P>) sv[pos] = vin[begin + at + std::size_t(first + r * 32)];
    }
    __syncthreads();

    // store: three contiguous runs
    const unsigned n_lt = total[0], n_le = total[0] + total[1];
    const std::size_t to_lt = begin + cursor[0];
    const std::size_t to_eq = begin + cursor[1] - n_lt;
    const std::size_t to_gt = begin + size - cursor[2] - total[2] - n_le;
    for (int j = threadIdx.x; j < valid; j += TH) {
      const unsigned u = unsigned(j);
      if (u >= n_lt && u < n_le) {
        kside[to_eq + u] = traits::from_raw(sk[j]);
        if constexpr (!is_no_value<P>) vside[to_eq + u] = sv[j];
      } else {
        const std::size_t to = (u < n_lt ? to_lt : to_gt) + u;
        kout[to] = traits::from_raw(sk[j]);
        if constexpr (!is_no_value<P>) vout[to] = sv[j];
      }
    }
    __syncthreads();
  }
}

}  // namespace gpusort::detail::quick
