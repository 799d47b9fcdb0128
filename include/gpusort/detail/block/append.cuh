// Block-wide appends to two device lists (e.g. the winners and the
// survivors of a selection filter), in a loop where every thread of the
// block runs the same steps: each lane flags up to 32 of its step's items
// in two bit masks (step_flags), and the block reserves each list's slots
// with one global atomic a step, pipelined so that no warp waits for it.
// (A warp's atomic a step serialises on a hot counter in L2 once there are
// ~10^6 warp-steps; a block's atomic that its warps wait for leaves a
// streaming kernel latency bound.) The order of items in a list is not
// kept. Used by topk/select.cuh.
#pragma once

#include <gpusort/detail/block/scan.cuh>

#include <cstddef>
#include <cstdint>

namespace gpusort::detail::block {

// The pipeline, one barrier a step: step j's warp totals go to shared
// memory before the step's barrier (count); after it, threads 0 and 1 turn
// step j - 1's returned atomics into per-warp bases and add step j's sums
// to the counters (reserve); the warps then write step j - 2's items
// (write). After the loop: place the last step, then write the last two.
//
//   for each step j:  flags = ...; app.count(flags); __syncthreads();
//                     app.reserve(); if (j >= 2) app.write(j - 2, flags2, index2);
//                     ++app.step;
//   after:            __syncthreads(); if (step && t < 2) app.place(step - 1, app.issued);
//                     __syncthreads(); write(step - 2, ...); write(step - 1, ...);

// The shared memory of one block's appends.
template <int WARPS> struct appends {
  unsigned total[3][2][WARPS];           // step j's flagged items a list and warp, at j % 3
  unsigned long long base[2][2][WARPS];  // step j's per-warp run starts, at j % 2
};

// One step's flagged items of a lane: bit i of win (list 0) and of stay
// (list 1) flags item i.
template <int I> struct step_flags {
  unsigned win = 0, stay = 0;
};

// One thread's side of the appends (every thread of the block holds one).
template <int WARPS> struct appender {
  appends<WARPS>& sh;
  unsigned long long *win_counter, *stay_counter;  // the lists' lengths (device)
  std::uint64_t *win_list, *stay_list;
  unsigned long long issued = 0;  // threads 0 and 1: the last step's atomic's return
  unsigned step = 0;              // the step being counted

  // Step `step`'s totals (before the step's barrier).
  template <int I> __device__ __forceinline__ void count(const step_flags<I>& f) {
    const unsigned tw = warp_sum(__popc(f.win)), ts = warp_sum(__popc(f.stay));
    if ((threadIdx.x & 31u) == 0) {
      sh.total[step % 3][0][threadIdx.x / 32] = tw;
      sh.total[step % 3][1][threadIdx.x / 32] = ts;
    }
  }
  // After the step's barrier: threads 0 and 1 place the previous step and
  // reserve this one.
  __device__ __forceinline__ void reserve() {
    if (threadIdx.x >= 2) return;
    const int l = threadIdx.x;
    if (step > 0) place(step - 1, issued);
    unsigned long long sum = 0;
    for (int w = 0; w < WARPS; ++w) sum += sh.total[step % 3][l][w];
    issued = sum ? atomicAdd(l == 0 ? win_counter : stay_counter, sum) : 0;
  }
  // Threads 0 and 1: step j's per-warp bases from its list's start `at`.
  __device__ __forceinline__ void place(unsigned j, unsigned long long at) {
    const int l = threadIdx.x;
    for (int w = 0; w < WARPS; ++w) {
      sh.base[j % 2][l][w] = at;
      at += sh.total[j % 3][l][w];
    }
  }
  // Writes step j's items (every lane of the warp calls it): a lane's
  // flagged items go to consecutive slots after the lanes below it.
  template <int I, class Index> __device__ __forceinline__ void write(unsigned j, const step_flags<I>& f, Index index) {
    const unsigned warp = threadIdx.x / 32;
#pragma unroll
    for (int l = 0; l < 2; ++l) {
      const unsigned bits = l == 0 ? f.win : f.stay;
      if (!__any_sync(0xFFFFFFFFu, bits)) continue;
      const unsigned mine = __popc(bits), upto = warp_inclusive_sum(mine);
      std::size_t at = std::size_t(sh.base[j % 2][l][warp]) + (upto - mine);
      std::uint64_t* out = l == 0 ? win_list : stay_list;
#pragma unroll
      for (int i = 0; i < I; ++i)
        if ((bits >> i) & 1u) out[at++] = index(i);
    }
  }
};

}  // namespace gpusort::detail::block
