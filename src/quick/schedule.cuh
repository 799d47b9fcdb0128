// GPU quicksort: scheduling, i.e. the recursion step, on the device.
// Cederman & Tsigas 2008 let the last block of a sequence (found by an
// atomic decrement) pick the next pivots; seed 004 launches child grids by
// dynamic parallelism. Here one launch per level does it for every
// segment of the level, after the partition launch has finished:
//
//   root      root_kernel: the whole input is level 0's one segment
//   equal     the parent's == keys (side buffer) become pieces of the
//             equal list: out[begin + lt + j] = side[begin + j]; they are
//             final there, and copy_equal_kernel moves them
//   children  the < part [begin, begin + lt) and the > part
//             [begin + size - gt, begin + size) of the destination buffer:
//               empty               nothing
//               <= small_max keys   small list of the buffer it lies in
//                                   (block sort, after the last level)
//               larger              next level's list, with a pivot
//                                   (pivot.cuh) and its work items
//                                   (offset, size, pivot) in the chunk map
//               larger, too deep    fallback list (merge::sort, host)
// The scheduling block has two groups of `samples` threads: group 0 takes
// the < child, group 1 the > child, so both pivots are chosen at once.
#pragma once

#include "core/payload.cuh"
#include "quick/pivot.cuh"
#include "quick/queues.cuh"

#include <cstddef>

namespace gpusort::detail::quick {

// Files the children [b0, b0 + s0) and [b1, b1 + s1) of `buf` for `level`
// (the children's level). Called by all schedule_threads threads.
template <class Tune, class K, class Ord>
__device__ void schedule_children(const K* buf, const Ord& ord, const queues<typename Ord::carried>& q,
                                  int level, std::size_t b0, std::size_t s0, std::size_t b1, std::size_t s1) {
  using U = typename Ord::carried;
  constexpr int S = Tune::samples;
  __shared__ U sample[2][S];
  __shared__ U pivot[2];
  __shared__ counter placed[2];  // packed (index << chunk_bits) | first work item
  const int g = int(threadIdx.x) / S, i = int(threadIdx.x) % S;
  const std::size_t begin = g ? b1 : b0, size = g ? s1 : s0;
  const bool large = size > std::size_t(Tune::small_max);
  const bool next = large && level < q.max_levels;
  level_slot& slot = q.slots[level];
  if (next) sample[g][i] = ord.encode(buf[sample_index<S>(begin, size, level, i)]);
  __syncthreads();
  if (next && sample_rank<S>(ord, sample[g], i) == S / 2) pivot[g] = sample[g][i];
  __syncthreads();
  const counter chunks = (size + Tune::chunk - 1) / Tune::chunk;
  if (i == 0 && size > 0) {
    if (!large) {
      // children of `level` lie in dst(level - 1): list (level - 1) % 2
      const int b = (level + 1) % 2;
      const counter at = atomicAdd(&q.small_count[b], counter(1));
      q.smalls(b)[at] = merge::segment{begin, int(size), false};
    } else if (!next) {
      const counter at = atomicAdd(&slot.fallback, counter(1));
      q.fallback[at] = range{begin, size};
    } else {
      const counter old = atomicAdd(&slot.next, (counter(1) << Tune::chunk_bits) | chunks);
      segment<U>& s = q.list(level)[old >> Tune::chunk_bits];
      s.begin = begin;
      s.size = size;
      s.lt = s.eq = s.gt = 0;
      s.pivot = pivot[g];
      placed[g] = old;
    }
  }
  __syncthreads();
  if (next) {
    const counter old = placed[g];
    const counter first = old & Tune::chunk_mask;
    const unsigned index = unsigned(old >> Tune::chunk_bits);
    for (counter j = counter(i); j < chunks; j += S) {
      const std::size_t off = std::size_t(j) * Tune::chunk;
      const std::size_t left = size - off;
      const int keys = int(left < std::size_t(Tune::chunk) ? left : std::size_t(Tune::chunk));
      q.map[first + j] = work<U>{begin + off, index, keys, pivot[g]};
    }
  }
  __syncthreads();
}

// Level 0: the whole input [0, n) of `keys` as one segment.
template <class Tune, class K, class Ord>
__global__ void __launch_bounds__(Tune::schedule_threads)
root_kernel(const K* keys, std::size_t n, Ord ord, queues<typename Ord::carried> q) {
  schedule_children<Tune>(keys, ord, q, 0, 0, 0, 0, n);
}

// After level `level`'s partition: files every segment's equal run and its
// children (which live in `buf`, the level's destination).
template <class Tune, class K, class Ord>
__global__ void __launch_bounds__(Tune::schedule_threads)
schedule_kernel(const K* buf, Ord ord, queues<typename Ord::carried> q, int level) {
  using U = typename Ord::carried;
  constexpr int CP = Tune::copy_piece;
  __shared__ counter piece_base;
  const std::size_t parents = std::size_t(q.slots[level].next >> Tune::chunk_bits);
  const segment<U>* segs = q.list(level);
  level_slot& slot = q.slots[level + 1];
  for (std::size_t p = blockIdx.x; p < parents; p += gridDim.x) {
    const segment<U>& s = segs[p];
    if (s.eq > 0) {
      const counter pieces = (s.eq + CP - 1) / CP;
      if (threadIdx.x == 0) piece_base = atomicAdd(&slot.equal, pieces);
      __syncthreads();
      for (counter j = threadIdx.x; j < pieces; j += blockDim.x) {
        const std::size_t off = std::size_t(j) * CP;
        const std::size_t left = std::size_t(s.eq) - off;
        q.equal[piece_base + j] = piece{s.begin + off, s.begin + s.lt + off, int(left < std::size_t(CP) ? left : std::size_t(CP))};
      }
    }
    schedule_children<Tune>(buf, ord, q, level + 1, s.begin, std::size_t(s.lt), s.begin + s.size - s.gt,
                            std::size_t(s.gt));
  }
}

// Moves the level's equal runs from the side buffer to the output.
template <class Tune, class K, class P>
__global__ void __launch_bounds__(Tune::copy_threads)
copy_equal_kernel(const K* kside, K* kout, const P* vside, P* vout, const piece* pieces, const counter* count) {
  const std::size_t n = std::size_t(*count);
  for (std::size_t i = blockIdx.x; i < n; i += gridDim.x) {
    const piece c = pieces[i];
    for (int j = threadIdx.x; j < c.size; j += Tune::copy_threads) {
      kout[c.to + j] = kside[c.from + j];
      if constexpr (!is_no_value<P>) vout[c.to + j] = vside[c.from + j];
    }
  }
}

}  // namespace gpusort::detail::quick
