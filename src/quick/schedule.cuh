// GPU quicksort: scheduling, i.e. the recursion step, on the device.
// Cederman & Tsigas 2008 let the last block of a sequence (found by an
// atomic decrement) pick the next pivots; the article "GPU sorting" (2024) launches child grids by
// dynamic parallelism. Here a few launches per level do it for every
// segment of the level at once:
//
//   root      root_kernel: the whole input is level 0's one segment
//   pivots    pivot_kernel, before a level: one block per segment draws
//             `samples` keys (pivot.cuh), sorts them with merge's block
//             sort, and takes its fanout - 1 pivots at even quantiles
//             (pivots past the last repeat it); it zeroes the segment's
//             counts and writes its work items to the chunk map
//   offsets   offsets_kernel, after the count: each segment's classes in
//             key order, as output cursors (a warp scan per segment)
//   file      file_kernel, after the partition: one thread per segment and
//             class; the class's run [cursor - count, cursor) of the level's
//             destination buffer is
//               empty                nothing
//               equal to a pivot     final where it is; in the scratch
//                                    buffer, pieces of it go to the small
//                                    list as copies
//               a child, <= small_max  small list of the buffer it lies in
//                                    (block sort, after the last level)
//               a larger child       next level's list
//               larger, too deep     fallback list (partition/fallback.cuh)
#pragma once

#include <gpusort/detail/core/payload.cuh>
#include <gpusort/detail/block/merge_sort.cuh>
#include "quick/pivot.cuh"
#include "quick/queues.cuh"

#include <gpusort/detail/block/scan.cuh>

#include <cstddef>

namespace gpusort::detail::quick {

// Level 0: the whole input [0, n) as one segment; every other counter of
// the call starts at zero.
template <class Tune, class Q> __global__ void root_kernel(std::size_t n, Q q) {
  const auto& first = q.levels.at(0);
  *first.count = first.packed(1, (n + Tune::chunk - 1) / Tune::chunk);
  *q.levels.next(0).count = 0;
  *q.fallback.count = 0;
  q.small_count[0] = q.small_count[1] = 0;
  auto& s = first[0];
  s.begin = 0;
  s.size = n;
  s.first = 0;
}

// pivots of level `level`'s segments, which lie in `keys`
// (the level's first kernel: it clears the next level's counter)
template <class Tune, class K, class Ord, class Q>
__global__ void __launch_bounds__(Tune::schedule_threads)
pivot_kernel(const K* keys, Ord ord, Q q, int level) {
  using U = typename Ord::carried;
  constexpr int S = Tune::samples, TH = Tune::schedule_threads, IT = Tune::sample_items, CH = Tune::chunk;
  __shared__ block::tile_storage<U, no_value, S> sorted;
  if (blockIdx.x == 0 && threadIdx.x == 0) q.levels.clear_next(level);
  const auto& list = q.levels.at(level);
  const std::size_t segs = list.size();
  const int t = int(threadIdx.x);
  for (std::size_t p = blockIdx.x; p < segs; p += gridDim.x) {
    auto& sg = list[p];
    const std::size_t begin = sg.begin, size = sg.size;
    // sample, then sort it (merge's block sort, under the call's order)
    U k[IT];
    no_value v[IT];
#pragma unroll
    for (int r = 0; r < IT; ++r) k[r] = ord.encode(keys[sample_index<S>(begin, size, level, t * IT + r)]);
    block::block_merge_sort<TH, IT>(ord, k, v, S, sorted);
    // pick: pivot j at quantile (j + 1) / fanout; the rest repeat the last
    const int r = Tune::fanout(size);
    for (int j = t; j < Tune::pivots; j += TH) sg.pivot[j] = sorted.keys[(j + 1 < r ? j + 1 : r - 1) * S / r];
    for (int c = t; c < Tune::classes; c += TH) sg.count[c] = 0;
    // work items
    const counter first = sg.first;
    const counter chunks = (size + CH - 1) / CH;
    for (counter j = counter(t); j < chunks; j += TH) {
      const std::size_t off = std::size_t(j) * CH;
      const std::size_t left = size - off;
      q.map[first + j] = work{begin + off, unsigned(p), int(left < std::size_t(CH) ? left : std::size_t(CH))};
    }
    __syncthreads();
  }
}

// offsets: class c of a segment starts after classes 0 .. c - 1; one warp
// per segment, two classes a lane, a warp scan
template <class Tune, class Q> __global__ void offsets_kernel(Q q, int level) {
  static_assert(Tune::classes <= 64, "two classes a lane");
  const auto& list = q.levels.at(level);
  const std::size_t segs = list.size();
  const int c = 2 * int(block::lane_id());
  for (std::size_t p = (blockIdx.x * std::size_t(blockDim.x) + threadIdx.x) / 32; p < segs;
       p += std::size_t(gridDim.x) * blockDim.x / 32) {
    auto& sg = list[p];
    const counter a = c < Tune::classes ? sg.count[c] : 0, b = c + 1 < Tune::classes ? sg.count[c + 1] : 0;
    counter at = block::warp_inclusive_sum(a + b) + sg.begin - a - b;
    if (c < Tune::classes) sg.cursor[c] = at;
    if (c + 1 < Tune::classes) sg.cursor[c + 1] = at + a;
  }
}

// file: the runs level `level` left in its destination buffer
template <class Tune, class Q> __global__ void file_kernel(Q q, int level) {
  constexpr int C = Tune::classes;
  const auto& list = q.levels.at(level);
  const auto& next = q.levels.next(level);
  const std::size_t parents = list.size();
  // level L's destination is the scratch buffer (small list 0) for even L,
  // the output (small list 1) for odd L
  const int b = level % 2;
  for (std::size_t t = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x; t < parents * C;
       t += std::size_t(gridDim.x) * blockDim.x) {
    const auto& sg = list[t / C];
    const int c = int(t % C);
    const std::size_t size = std::size_t(sg.count[c]);
    if (size == 0) continue;
    const std::size_t begin = std::size_t(sg.cursor[c]) - size;
    if (c % 2) {
      // equal to a pivot: final, once in the output
      if (b == 1) continue;
      const counter pieces = (size + Tune::copy_piece - 1) / Tune::copy_piece;
      const counter at = atomicAdd(&q.small_count[0], pieces);
      for (counter j = 0; j < pieces; ++j) {
        const std::size_t off = std::size_t(j) * Tune::copy_piece, left = size - off;
        q.small_at(0, at + j) =
            merge::segment{begin + off, int(left < std::size_t(Tune::copy_piece) ? left : Tune::copy_piece), true};
      }
    } else if (size <= std::size_t(Tune::small_max)) {
      q.small_at(b, atomicAdd(&q.small_count[b], counter(1))) = merge::segment{begin, int(size), false};
    } else if (level + 1 < q.max_levels) {
      const auto at = next.reserve(1, (size + Tune::chunk - 1) / Tune::chunk);
      auto& child = next[at.entry];
      child.begin = begin;
      child.size = size;
      child.first = at.item;
    } else {
      q.fallback.push(range{begin, size});
    }
  }
}

}  // namespace gpusort::detail::quick
