// GPU quicksort: the three-way partition of one level, in one launch.
// After seed 004's qsort_warp (NVIDIA's cdpAdvancedQuicksort) and
// Cederman & Tsigas 2008 phase 1, in a single pass (read once, write once).
//
// A persistent grid walks the level's work items (chunk map, queues.cuh):
// block b takes items b, b + grid, b + 2 grid, ... Each item is at most
// `chunk` keys of one segment, with that segment's pivot.
//
// Software pipeline (the first version loaded a chunk into registers only
// after a chain of dependent loads and waited on it, so a block had memory
// in flight for a fraction of its time: ~1.9 TB/s of 4.8):
//   prefetch  the work item after next is loaded into registers one whole
//             iteration before it is needed, so no dependent chain remains
//   fetch     the next item's keys (and values) are copied into the other
//             shared buffer by cp.async (core/async_copy.cuh), every copy in
//             flight, while the block ranks, reserves and stores the
//             current one: each block keeps a chunk of loads in flight
//   classify  each warp reads 32 x items keys of the current buffer (warp-
//             striped, no bank conflicts) and compares each with the pivot:
//             <, == or > under the call's order (== means neither is less:
//             bit ranges, -0.0 == +0.0)
//   rank      per round, three __ballot_sync masks; a key's rank in its
//             class within the warp is the warp's running count plus
//             __popc(mask & lanes below me), as in the seed
//   reserve   the warps' counts are summed in shared memory and thread c
//             does one atomicAdd for class c for the whole block (the seed
//             does one per warp and class)
//   stage     keys and values go back into the current buffer (every thread
//             holds its keys in registers by then) in class order
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

#include "core/async_copy.cuh"
#include "core/payload.cuh"
#include "quick/queues.cuh"

#include <gpusort/detail/key_traits.hpp>

#include <cstddef>

namespace gpusort::detail::quick {

// Starts copying work item `it`'s keys and values into shared buffers
// `sk` and `sv`, striped over the block (coalesced), all in flight.
template <int TH, int IT, class K, class P, class B, class U>
__device__ __forceinline__ void fetch_chunk(const K* kin, const P* vin, const work<U>& it, B* sk, P* sv) {
  using traits = key_traits<K>;
#pragma unroll
  for (int r = 0; r < IT; ++r) {
    const int j = int(threadIdx.x) + r * TH;
    if (j < it.size) {
      if constexpr (async_copyable<K>) copy_async(reinterpret_cast<K*>(sk + j), kin + it.at + j);
      else sk[j] = traits::raw(kin[it.at + j]);
      if constexpr (!is_no_value<P>) copy_async(sv + j, vin + it.at + j);
    }
  }
}

// Starts copying a work record into shared memory (threads 0 .. 2, one
// 8-byte word each), so no thread holds it in registers meanwhile.
template <class U> __device__ __forceinline__ void fetch_record(const work<U>* from, work<U>* to) {
  using word = unsigned long long;
  constexpr unsigned words = sizeof(work<U>) / sizeof(word);
  static_assert(sizeof(work<U>) % sizeof(word) == 0 && alignof(work<U>) >= alignof(word));
  if (threadIdx.x < words)
    copy_async(reinterpret_cast<word*>(to) + threadIdx.x, reinterpret_cast<const word*>(from) + threadIdx.x);
}

template <class Tune, class K, class P, class Ord>
__global__ void __launch_bounds__(Tune::threads, Tune::min_blocks)
partition_kernel(const K* kin, K* kout, const P* vin, P* vout, K* kside, P* vside, Ord ord,
                 segment<typename Ord::carried>* segs, const work<typename Ord::carried>* map, const counter* packed) {
  using U = typename Ord::carried;
  using traits = key_traits<K>;
  using B = typename traits::bits;  // keys as raw bits (K may not be trivial)
  constexpr int TH = Tune::threads, IT = Tune::items, CH = Tune::chunk, W = Tune::warps;
  constexpr bool pairs = !is_no_value<P>;
  constexpr unsigned dead = 3;  // class tag of lanes past the chunk's end
  __shared__ B sk[2][CH];
  __shared__ P sv[pairs ? 2 : 1][pairs ? CH : 1];
  __shared__ unsigned warp_count[3][W];
  __shared__ unsigned total[3];
  __shared__ std::size_t to[3];  // destination of staged position 0, per class
  __shared__ work<U> rec[3];     // records of items w, w + grid, w + 2 grid (a ring)
  const counter items = *packed & Tune::chunk_mask;
  const counter stride = gridDim.x;
  const unsigned lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  const unsigned below = (1u << lane) - 1;
  const int first = int(warp) * 32 * IT + int(lane);  // this thread's warp-striped slots

  counter w = blockIdx.x;
  if (w >= items) return;
  // prologue: item w's record read, its chunk in flight into buffer 0,
  // item w + grid's record in flight into record slot 1
  if (threadIdx.x == 0) rec[0] = map[w];
  __syncthreads();
  fetch_chunk<TH, IT>(kin, vin, rec[0], sk[0], sv[0]);
  if (w + stride < items) fetch_record(map + w + stride, &rec[1]);
  for (int b = 0, slot = 0; w < items; w += stride, b ^= 1, slot = slot == 2 ? 0 : slot + 1) {
    // ---- wait: item w has landed in buffer b, item w + grid's record in
    // the next slot; buffer b ^ 1 and the slot after next are free
    copy_async_wait();
    __syncthreads();
    const int slot1 = slot == 2 ? 0 : slot + 1, slot2 = slot1 == 2 ? 0 : slot1 + 1;
    const int size = rec[slot].size;
    const unsigned seg = rec[slot].seg;
    const U pivot = rec[slot].pivot;
    // ---- fetch item w + grid into buffer b ^ 1, item w + 2 grid's record
    if (w + stride < items) fetch_chunk<TH, IT>(kin, vin, rec[slot1], sk[b ^ 1], sv[pairs ? b ^ 1 : 0]);
    if (w + 2 * stride < items) fetch_record(map + w + 2 * stride, &rec[slot2]);

    // ---- classify and rank (keys and values into registers)
    B k[IT];
    P v[IT];
    // two 16-bit tags a word: class << 10 | rank in the warp's class
    unsigned tags[(IT + 1) / 2] = {};
    unsigned count[3] = {0, 0, 0};
#pragma unroll
    for (int r = 0; r < IT; ++r) {
      const int j = first + r * 32;
      const bool live = j < size;
      if (live) {
        k[r] = sk[b][j];
        if constexpr (pairs) v[r] = sv[b][j];
      }
      const U u = live ? ord.encode(traits::from_raw(k[r])) : pivot;
      const bool lt = live && ord.less(u, pivot);
      const bool gt = live && ord.less(pivot, u);
      const unsigned m_lt = __ballot_sync(0xFFFFFFFFu, lt);
      const unsigned m_gt = __ballot_sync(0xFFFFFFFFu, gt);
      const unsigned m_eq = __ballot_sync(0xFFFFFFFFu, live && !lt && !gt);
      const unsigned c = lt ? 0 : (gt ? 2 : 1);
      const unsigned mask = lt ? m_lt : (gt ? m_gt : m_eq);
      const unsigned base = lt ? count[0] : (gt ? count[2] : count[1]);
      const unsigned tag = live ? c << 10 | (base + __popc(mask & below)) : dead << 10;
      tags[r / 2] |= tag << (r % 2 * 16);
      count[0] += __popc(m_lt);
      count[1] += __popc(m_eq);
      count[2] += __popc(m_gt);
    }
    if (lane < 3) warp_count[lane][warp] = lane == 0 ? count[0] : (lane == 1 ? count[1] : count[2]);
    __syncthreads();  // counts published; buffer b fully read

    // ---- reserve: one atomicAdd per class for the block
    if (threadIdx.x < 3) {
      const int c = threadIdx.x;
      segment<U>& sg = segs[seg];
      const std::size_t seg_begin = sg.begin, seg_size = sg.size;
      unsigned sum = 0;
#pragma unroll
      for (int x = 0; x < W; ++x) sum += warp_count[c][x];
      total[c] = sum;
      counter* cursor = c == 0 ? &sg.lt : (c == 1 ? &sg.eq : &sg.gt);
      const std::size_t old = sum ? std::size_t(atomicAdd(cursor, counter(sum))) : 0;
      to[c] = c == 2 ? seg_begin + seg_size - old - sum : seg_begin + old;
    }
    __syncthreads();

    // ---- stage in class order, in place in buffer b
    // this warp's first staged position per class (scalars: an array indexed
    // by the class would live in local memory)
    unsigned start_lt = 0, start_eq = total[0], start_gt = total[0] + total[1];
    for (unsigned x = 0; x < warp; ++x) {
      start_lt += warp_count[0][x];
      start_eq += warp_count[1][x];
      start_gt += warp_count[2][x];
    }
#pragma unroll
    for (int r = 0; r < IT; ++r) {
      const unsigned tag = tags[r / 2] >> (r % 2 * 16) & 0xFFFFu;
      const unsigned c = tag >> 10;
      if (c == dead) continue;
      const unsigned pos = (c == 0 ? start_lt : (c == 1 ? start_eq : start_gt)) + (tag & 1023u);
      sk[b][pos] = k[r];
      if constexpr (pairs) sv[b][pos] = v[r];
    }
    __syncthreads();

    // ---- store: three contiguous runs
    const unsigned n_lt = total[0], n_le = total[0] + total[1];
    // staged position u of class c goes to to[c] + (u - class c's first
    // staged position); the subtractions may wrap, the add undoes it
    const std::size_t to_lt = to[0], to_eq = to[1] - n_lt, to_gt = to[2] - n_le;
    for (int j = threadIdx.x; j < size; j += TH) {
      const unsigned u = unsigned(j);
      if (u >= n_lt && u < n_le) {
        kside[to_eq + u] = traits::from_raw(sk[b][j]);
        if constexpr (pairs) vside[to_eq + u] = sv[b][j];
      } else {
        const std::size_t dst = (u < n_lt ? to_lt : to_gt) + u;
        kout[dst] = traits::from_raw(sk[b][j]);
        if constexpr (pairs) vout[dst] = sv[b][j];
      }
    }
    // the next iteration's barrier orders these reads before buffer b refills
  }
}

}  // namespace gpusort::detail::quick
