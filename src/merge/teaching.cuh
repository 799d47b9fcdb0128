// The teaching merge sorts of "Merge sort on CUDA" (Russian, "Сортировка слиянием на CUDA"), correct for any n, stable.
//
// merge_recursive  the host recursion of the seed's first version: the
//                  host splits [lo, hi) in halves (tile-aligned) down to
//                  tiles, sorts each tile with the block sort, and launches
//                  one kernel per merge on the way back up. About 2n/tile
//                  launches: launch latency, not bandwidth, bounds it, which
//                  is why the benchmark caps its n.
// merge_bottom_up  the seed's iterative version: runs of width 1, 2, 4, ..
//                  are merged pairwise, one thread per merge, ping-ponging
//                  between the output and a scratch array. log2(n)
//                  launches, but the last ones have one thread merging
//                  everything serially: slow for large n.
// Both pick buffers so that the result lands in the output with no copy at
// the end.
#pragma once

#include <gpusort/detail/core/context.hpp>
#include <gpusort/detail/core/launch.cuh>
#include <gpusort/detail/core/temp_layout.hpp>
#include <gpusort/detail/merge/merge_sort.cuh>

#include <cstddef>

namespace gpusort::detail::merge {

// One merge of a[0..na) and b[0..nb) into out, split over many threads by
// merge path on global memory (no partition pass: a teaching kernel).
template <int ITEMS, class K, class P, class Ord>
__global__ void one_merge_kernel(const K* ka, const P* va, std::size_t na, const K* kb, const P* vb, std::size_t nb,
                                 K* kout, P* vout, Ord ord) {
  std::size_t diag = (std::size_t(blockIdx.x) * blockDim.x + threadIdx.x) * ITEMS;
  if (diag >= na + nb) return;
  global_run<Ord, K> a{ka, ord}, b{kb, ord};
  std::size_t ia = block::merge_path(a, na, b, nb, diag, ord);
  block::serial_merge<ITEMS>(a, ia, na, b, diag - ia, nb, ord, [&](int r, bool from_a, std::size_t i, const auto&) {
    kout[diag + r] = from_a ? ka[i] : kb[i];
    if constexpr (!is_no_value<P>) vout[diag + r] = from_a ? va[i] : vb[i];
  });
}

// One pass of the bottom-up sort: thread i merges runs [2iw, 2iw+w) and
// [2iw+w, 2iw+2w) serially.
template <class K, class P, class Ord>
__global__ void bottom_up_pass_kernel(const K* ksrc, K* kdst, const P* vsrc, P* vdst, std::size_t n, std::size_t width,
                                      std::size_t merges, Ord ord) {
  for (std::size_t m = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x; m < merges;
       m += std::size_t(gridDim.x) * blockDim.x) {
    std::size_t a0 = m * 2 * width;
    std::size_t a1 = a0 + width < n ? a0 + width : n;
    std::size_t b1 = a0 + 2 * width < n ? a0 + 2 * width : n;
    std::size_t i = a0, j = a1;
    for (std::size_t o = a0; o < b1; ++o) {
      bool take_a = j >= b1 || (i < a1 && !ord(ord.encode(ksrc[j]), ord.encode(ksrc[i])));
      std::size_t from = take_a ? i++ : j++;
      kdst[o] = ksrc[from];
      if constexpr (!is_no_value<P>) vdst[o] = vsrc[from];
    }
  }
}

// Scratch of both teaching sorts: one more key array and value array.
template <class K, class P> struct teaching_scratch {
  K* keys = nullptr;
  P* vals = nullptr;
  teaching_scratch(temp_layout& plan, std::size_t n) {
    keys = plan.take<K>(n);
    if constexpr (!is_no_value<P>) vals = plan.take<P>(n);
  }
};

template <class K, class P> std::size_t teaching_temp_bytes(std::size_t n) {
  temp_layout plan;
  teaching_scratch<K, P> sizing(plan, n);
  return plan.bytes();
}

template <class Tune, class K, class P, class Ord> struct recursive_sorter {
  const call_context& ctx;
  const K* kin;
  const P* vin;
  Ord ord;
  cudaStream_t stream;

  // Sorts [lo, hi) of the input into `dst`, using `other` as scratch.
  void run(std::size_t lo, std::size_t hi, K* kdst, P* vdst, K* kother, P* vother) const {
    constexpr int TILE = Tune::tile;
    if (hi - lo <= std::size_t(TILE)) {
      segment_sort_kernel<Tune::threads, Tune::items, Tune::segment_blocks><<<1, Tune::threads, 0, stream>>>(
          kin + lo, kdst + lo, vin ? vin + lo : nullptr, vdst ? vdst + lo : nullptr, tile_segments{hi - lo, TILE}, ord);
      ctx.check_launch("merge_recursive leaf sort");
      return;
    }
    std::size_t tiles = (hi - lo + TILE - 1) / TILE;
    std::size_t mid = lo + tiles / 2 * TILE;
    run(lo, mid, kother, vother, kdst, vdst);
    run(mid, hi, kother, vother, kdst, vdst);
    constexpr int ITEMS = Tune::items;
    std::size_t threads = (hi - lo + ITEMS - 1) / ITEMS;
    one_merge_kernel<ITEMS><<<grid_for(threads, 256, std::size_t(1) << 31), 256, 0, stream>>>(
        kother + lo, vother ? vother + lo : nullptr, mid - lo, kother + mid, vother ? vother + mid : nullptr, hi - mid,
        kdst + lo, vdst ? vdst + lo : nullptr, ord);
    ctx.check_launch("merge_recursive merge");
  }
};

template <class Tune, class K, class P, class Ord>
void sort_recursive(const call_context& ctx, const K* kin, K* kout, const P* vin, P* vout, std::size_t n, Ord ord,
                    cudaStream_t stream, void* temp) {
  if (n == 0) return;
  temp_layout plan(temp);
  teaching_scratch<K, P> scratch(plan, n);
  K* kbuf = scratch.keys;
  P* vbuf = scratch.vals;
  recursive_sorter<Tune, K, P, Ord>{ctx, kin, vin, ord, stream}.run(0, n, kout, vout, kbuf, vbuf);
}

template <class K, class P, class Ord>
void sort_bottom_up(const call_context& ctx, const K* kin, K* kout, const P* vin, P* vout, std::size_t n, Ord ord,
                    cudaStream_t stream, void* temp) {
  if (n == 0) return;
  temp_layout plan(temp);
  teaching_scratch<K, P> scratch(plan, n);
  K* kbuf = scratch.keys;
  P* vbuf = scratch.vals;
  const int passes = ceil_log2(n);
  if (passes == 0) {
    copy_to_output(ctx, kin, kout, vin, vout, n, stream);
    return;
  }
  // pass p writes the output when (passes - 1 - p) is even. In place with the
  // first pass writing the output, start from a copy in scratch instead.
  const K* ksrc = kin;
  const P* vsrc = vin;
  if (kin == kout && passes % 2 == 1) {
    copy_to_output(ctx, kin, kbuf, vin, vbuf, n, stream);
    ksrc = kbuf;
    vsrc = vbuf;
  }
  for (int p = 0; p < passes; ++p) {
    bool to_out = (passes - 1 - p) % 2 == 0;
    K* kdst = to_out ? kout : kbuf;
    P* vdst = to_out ? vout : vbuf;
    std::size_t width = std::size_t(1) << p;
    std::size_t merges = (n + 2 * width - 1) / (2 * width);
    bottom_up_pass_kernel<<<grid_for(merges, 256), 256, 0, stream>>>(ksrc, kdst, vsrc, vdst, n, width, merges, ord);
    ctx.check_launch("merge_bottom_up pass");
    ksrc = kdst;
    vsrc = vdst;
  }
}

}  // namespace gpusort::detail::merge
