// radix_msd, the kernels of one MSD level (Stehle & Jacobsen 2017, "A
// Memory Bandwidth-Efficient Hybrid Radix Sort on GPUs", section 4). Every
// level is the same fixed set of launches, whatever its bucket count: the
// buckets are device-side lists (core/work_queue.cuh's scheme: arrays of a
// host-known bound, counts in device memory), and every grid is sized from
// a host-known bound, its blocks leaving once the list is done.
//
//   plan       once, after the first histogram (every digit, one read):
//              which digits every key shares (skipped by every bucket),
//              each level's plan (msd_plan.hpp), level 0's one bucket
//              (msd_plan_kernel.cuh)
//   histogram  per bucket of the level: the level's digit counts, the
//              bits in which its keys differ from its first key, and how
//              many keys equal it (one read); the first sorting level takes
//              its counts from the first histogram instead
//   triage     per bucket: keys all equal in the order's bits -> a copy run,
//              done; otherwise listed for the pass, its digit bases the
//              exclusive scan of its counts. A skipped level hands its
//              buckets on unchanged.
//   pass       onesweep_pass_kernel over the listed buckets' tiles, each
//              bucket a look-back chain of its own (the segmented sort's
//              segment_chains geometry), src -> dst by the level's plan
//   file       per bucket, its 256 children: big ones to the next level
//              (or copied, where the first key's child holds that key's
//              value alone), runs of small ones to the local sort
//              (msd_plan.hpp)
#pragma once

#include "radix/digit.cuh"
#include "radix/msd_classes.hpp"
#include "radix/msd_ints.hpp"
#include "radix/msd_plan.hpp"
#include "radix/msd_tuning.cuh"
#include "radix/onesweep_histogram.cuh"
#include "radix/onesweep_plan.hpp"
#include "segmented/lists.cuh"

#include <gpusort/detail/block/scan.cuh>
#include <gpusort/detail/block/shared_bitonic.cuh>
#include <gpusort/detail/core/launch.cuh>
#include <gpusort/detail/core/work_queue.cuh>

#include <cstddef>
#include <cstdint>

namespace gpusort::detail::radix_msd {

using radix_onesweep::slot_plan;
using segmented::segment_list;

// What the level kernels share, passed by value. Counters (zeroed once per
// call): listed[j], the buckets of level j (list at[j % 2]); live[j], those
// level j's pass sorts (list `sorting`).
struct level_state {
  const slot_plan* plan;            // [level]
  const unsigned* first_hist;       // [pass][digit], the first histogram (of the levels' digits)
  const unsigned* lsd_hist;         // [pass][digit], of the ordered bits (LSD mode's): first_hist but for doubles
  // doubles: the class map (msd_classes.cuh), the levels' digits being the
  // mapped key's; null for other keys
  const std::uint16_t* classes;
  unsigned* classes_ok;
  // 64-bit integers: the affine map (msd_ints.hpp), the levels' digits
  // being c's where it is taken; null for other keys
  const int_map* ints;
  unsigned* mapped_hist;            // first_hist where the map is (the plan may drop the map)
  int* first_level;                 // the first level that sorts (levels when none)
  unsigned* hist;                   // [bucket of at][digit], this level's
  unsigned long long* varying;      // [bucket of at]: ordered bits in which keys differ from the first
  unsigned long long* same;         // [bucket of at]: the keys equal to the first, and its digit (msd_plan.hpp)
  unsigned long long* one;          // [bucket of sorting]: `same`, for the file kernel
  unsigned long long* base;         // [bucket of sorting][digit]: first output of each digit
  queue_counter* listed;            // [level + 1]
  queue_counter* live;              // [level]
  work_list<run> runs;
  int levels;
  std::size_t local;                // keys a local sort holds
  std::size_t alone;                // children of more keys are runs alone
};

// The keys as the buffer ids of slot_plan name them.
template <class U> struct key_buffers {
  const U* in;
  U* out;
  U* alt;
  __device__ __forceinline__ const U* of(int b) const {
    return b == radix_onesweep::buf_in ? in : b == radix_onesweep::buf_out ? out : alt;
  }
};

// Pieces of a copy run (many blocks share a big one), written from entry
// `at` of the run list on; returns the entry after them.
__device__ __forceinline__ std::size_t write_copy(const work_list<run>& runs, std::size_t at, std::size_t begin,
                                                  std::size_t size, int buffer) {
  const std::size_t k = pieces(size);
  for (std::size_t i = 0; i < k; ++i) {
    const std::size_t from = i * copy_piece;
    runs[at + i] = run{begin + from, size - from < copy_piece ? size - from : copy_piece, 0, buffer};
  }
  return at + k;
}
__device__ __forceinline__ void push_copy(const work_list<run>& runs, std::size_t begin, std::size_t size,
                                          int buffer) {
  write_copy(runs, runs.reserve(pieces(size)), begin, size, buffer);
}

// The level's digit counts per listed bucket, the bits that vary, and the
// keys equal to the bucket's first key (msd_plan.hpp one_value_child).
// NanFold: false for float orders that rank NaNs by their bits (CUB's):
// a key's ordered bits then skip the NaN test (as the passes' pass_key).
template <class T, class K, bool NanFold = true>
__global__ void __launch_bounds__(T::hist_threads)
histogram_kernel(key_buffers<typename key_traits<K>::bits> keys, level_state s, segment_list l, int level,
                 radix::digit_map<K> digit) {
  wait_for_prior_grids();
  using U = typename key_traits<K>::bits;
  const auto ordered = [&](U k) {
    if constexpr (NanFold) return digit.ordered(k);
    else return digit.template ordered_carried<false>(radix::digit_map<K>::carry(k));
  };
  __shared__ unsigned counts[T::bins];
  __shared__ unsigned long long differ, equal;
  const slot_plan pl = s.plan[level];
  if (pl.mode != radix_onesweep::slot_sort) return;
  if (level == *s.first_level) {  // level 0's one bucket: the first histogram has it
    if (blockIdx.x != 0) return;
    for (int b = threadIdx.x; b < T::bins; b += T::hist_threads)
      s.hist[b] = s.first_hist[(s.levels - 1 - level) * T::bins + b];
    if (threadIdx.x == 0) s.varying[0] = ~0ull;
    return;
  }
  const U* src = keys.of(pl.src);
  const unsigned tiles = unsigned(l.first_tile[l.bound]);
  constexpr std::size_t tile = std::size_t(T::pass::tile);
  for (unsigned t = blockIdx.x; t < tiles; t += gridDim.x) {
    for (int b = threadIdx.x; b < T::bins; b += T::hist_threads) counts[b] = 0;
    if (threadIdx.x == 0) {
      differ = 0;
      equal = 0;
    }
    __syncthreads();
    const unsigned q = l.tile_seg[t];
    const std::size_t from = std::size_t(t - unsigned(l.first_tile[q])) * tile;
    const std::size_t left = l.size[q] - from;
    const std::size_t first = l.begin[q] + from;
    const unsigned valid = left < tile ? unsigned(left) : unsigned(tile);
    const U ref = ordered(src[l.begin[q]]);
    // doubles under the class map: below the first level a bucket has one
    // class, so c's digit is a shift of o by the first key's lift
    // (msd_classes.hpp class_lift); 0 where the map is not taken
    unsigned lift = 0;
    if constexpr (sizeof(U) == 8 && key_traits<K>::is_float)
      if (s.classes && *s.classes_ok) lift = class_lift(std::uint64_t(ref), s.classes);  // block-uniform
    const int_map im = s.ints ? *s.ints : int_map{};  // base 0, shift 0 where not taken: c = o
    unsigned long long mine = 0;
    unsigned same = 0;
    // T::hist_items loads in flight a thread before any is counted
    constexpr unsigned chunk = unsigned(T::hist_threads) * T::hist_items;
    for (unsigned c = 0; c < valid; c += chunk) {
      U k[T::hist_items];
#pragma unroll
      for (int i = 0; i < T::hist_items; ++i) {
        const unsigned at = c + unsigned(i) * T::hist_threads + threadIdx.x;
        if (at < valid) k[i] = src[first + at];
      }
#pragma unroll
      for (int i = 0; i < T::hist_items; ++i) {
        if (c + unsigned(i) * T::hist_threads + threadIdx.x >= valid) continue;
        const U o = ordered(k[i]);
        const U x = o ^ ref;
        mine |= static_cast<unsigned long long>(x);
        same += x == 0;
        if constexpr (sizeof(U) == 8 && key_traits<K>::is_float) {
          atomicAdd(&counts[digit.from_ordered(U(o << lift))], 1u);
          continue;
        }
        if constexpr (sizeof(U) == 8 && !key_traits<K>::is_float) {
          atomicAdd(&counts[digit.from_ordered(U(int_mapped(std::uint64_t(o), im)))], 1u);
          continue;
        }
        atomicAdd(&counts[digit.from_ordered(o)], 1u);
      }
    }
    if (mine) atomicOr(&differ, mine);
    same = block::warp_sum(same);
    if ((threadIdx.x & 31u) == 0 && same) atomicAdd(&equal, static_cast<unsigned long long>(same));
    __syncthreads();
    for (int b = threadIdx.x; b < T::bins; b += T::hist_threads)
      if (counts[b]) atomicAdd(&s.hist[std::size_t(q) * T::bins + b], counts[b]);
    if (threadIdx.x == 0) {
      if (differ) atomicOr(&s.varying[q], differ);
      // the bucket's first tile adds the first key's digit (counted as its
      // keys are: equal keys share it)
      unsigned long long word = equal;
      if (from == 0) {
        U r = ref;
        if constexpr (sizeof(U) == 8 && key_traits<K>::is_float) r = U(ref << lift);
        if constexpr (sizeof(U) == 8 && !key_traits<K>::is_float) r = U(int_mapped(std::uint64_t(ref), im));
        word += same_digit(digit.from_ordered(r));
      }
      atomicAdd(&s.same[q], word);
    }
    __syncthreads();  // the next tile clears the counts
  }
}

// Zeroes the histogram rows and varying words of the level's listed buckets.
// (Kernels of no key type are templates on the digit count: a header's
// plain kernels would be defined once per unit that includes it.)
template <int BINS> __global__ void __launch_bounds__(256) clear_kernel(level_state s, segment_list l, int level) {
  wait_for_prior_grids();
  allow_dependents();
  const std::size_t listed = std::size_t(s.listed[level]);
  const std::size_t stride = std::size_t(gridDim.x) * 256;
  for (std::size_t w = std::size_t(blockIdx.x) * 256 + threadIdx.x; w < listed * BINS; w += stride) {
    s.hist[w] = 0;
    if (w % BINS == 0) {
      s.varying[w / BINS] = 0;
      s.same[w / BINS] = 0;
    }
  }
}

// One warp a listed bucket (see the header).
template <class K>
__global__ void __launch_bounds__(256)
triage_kernel(level_state s, segment_list at, segment_list next, segment_list sorting, int level, key_order<K> ord) {
  wait_for_prior_grids();
  allow_dependents();
  using U = typename key_traits<K>::bits;
  const slot_plan pl = s.plan[level];
  const std::size_t listed = std::size_t(s.listed[level]);
  const unsigned lane = threadIdx.x & 31u;
  const std::size_t warps = std::size_t(gridDim.x) * 8;
  for (std::size_t q = std::size_t(blockIdx.x) * 8 + threadIdx.x / 32; q < listed; q += warps) {
    const std::size_t begin = at.begin[q], size = at.size[q];
    if (pl.mode != radix_onesweep::slot_sort) {  // the digit is every key's: on to the next level
      if (lane != 0) continue;
      if (level + 1 == s.levels) {  // no digit left: sorted where it lies
        const int at = buffer_before(s.plan, level);
        if (at != radix_onesweep::buf_out) push_copy(s.runs, begin, size, at);
        continue;
      }
      const std::size_t i = std::size_t(atomicAdd(&s.listed[level + 1], 1ull));
      next.begin[i] = begin;
      next.size[i] = size;
      continue;
    }
    const U differ = U(s.varying[q]);
    if (U(U(differ >> ord.shift) & ord.mask) == 0) {  // all equal: sorted
      if (lane == 0 && pl.src != radix_onesweep::buf_out) push_copy(s.runs, begin, size, pl.src);
      continue;
    }
    std::size_t i = 0;
    if (lane == 0) i = std::size_t(atomicAdd(&s.live[level], 1ull));
    i = __shfl_sync(0xFFFFFFFFu, i, 0);
    if (lane == 0) {
      sorting.begin[i] = begin;
      sorting.size[i] = size;
      s.one[i] = s.same[q];
    }
    // bases: the bucket's first key + the exclusive scan of its counts
    const unsigned* h = s.hist + q * 256 + lane * 8;
    unsigned d[8], sum = 0;
#pragma unroll
    for (int k = 0; k < 8; ++k) {
      d[k] = h[k];
      sum += d[k];
    }
    unsigned long long run_at = begin + (block::warp_inclusive_sum(sum) - sum);
    unsigned long long* out = s.base + i * 256 + lane * 8;
#pragma unroll
    for (int k = 0; k < 8; ++k) {
      out[k] = run_at;
      run_at += d[k];
    }
  }
}

// One warp a bucket the level sorted: its children, filed by msd_plan.hpp's
// kind_of and run_packer (tests/radix_msd_host_test.cpp checks the filing
// they make in digit order). Lane l takes children 8l to
// 8l + 7: their kinds, then their entries at places from warp sums (big
// children to the next level's list in digit order, runs alone and copies
// to the run list), with one atomic a list for the bucket. Lane 0 packs the
// small children into runs (run_packer), only where some child is small (on
// uniform keys none is), over one 32-bit word a child that the lanes wrote
// (its size if small, all ones if it closes a run, 0 if empty): loads that
// do not wait on the packing, 8 in flight. A lane 0 that walked all 256
// children from their bases, twice, took 60 to 80 us a level, a third of a
// level histogram's time.
template <int BINS>
__global__ void __launch_bounds__(256)
file_kernel(level_state s, segment_list sorting, segment_list next, int level) {
  static_assert(BINS == 256, "a lane files 8 children");
  wait_for_prior_grids();
  allow_dependents();
  __shared__ std::size_t starts[8][BINS + 1];
  __shared__ unsigned walk[8][BINS];  // lane 0's words: small size, closes (all ones), empty (0)
  const slot_plan pl = s.plan[level];
  if (pl.mode != radix_onesweep::slot_sort) return;
  const int pass = s.levels - 1 - level;
  const std::size_t count = std::size_t(s.live[level]);
  const unsigned lane = threadIdx.x & 31u, w = threadIdx.x / 32;
  const std::size_t warps = std::size_t(gridDim.x) * 8;
  const bool copy_needed = pl.dst != radix_onesweep::buf_out;
  for (std::size_t q = std::size_t(blockIdx.x) * 8 + w; q < count; q += warps) {
    const std::size_t begin = sorting.begin[q], end = begin + sorting.size[q];
    if (pass == 0) {  // the bucket is sorted
      if (lane == 0 && copy_needed && end > begin) push_copy(s.runs, begin, end - begin, pl.dst);
      continue;
    }
    const unsigned long long* b = s.base + q * 256;
    const unsigned long long same = s.one[q];
    for (int c = lane; c < BINS; c += 32) starts[w][c] = std::size_t(b[c]);
    if (lane == 0) starts[w][BINS] = end;
    __syncwarp();
    const std::size_t* at = starts[w];
    // this lane's children: kinds, big ones, and run-list entries
    bool small = false;
    std::size_t bigs = 0, entries = 0;
    child_kind kind[8];
#pragma unroll
    for (int i = 0; i < 8; ++i) {
      const int c = int(lane) * 8 + i;
      const std::size_t n = at[c + 1] - at[c];
      kind[i] = kind_of(n, n > s.local && one_value_child(same, c, n), s.local, s.alone);
      small |= kind[i] == child_kind::small;
      walk[w][c] = kind[i] == child_kind::small ? unsigned(n) : kind[i] == child_kind::empty ? 0u : ~0u;
      bigs += kind[i] == child_kind::big;
      entries += kind[i] == child_kind::alone ? 1 : kind[i] == child_kind::one && copy_needed ? pieces(n) : 0;
    }
    const bool any_small = __any_sync(0xFFFFFFFFu, small);
    __syncwarp();
    // lane 0's walk: the small children packed, the others closing runs
    const auto pack = [&](auto loc) {
      run_packer packed;
      for (int c0 = 0; c0 < BINS; c0 += 8) {
        unsigned word[8];
#pragma unroll
        for (int i = 0; i < 8; ++i) word[i] = walk[w][c0 + i];
#pragma unroll
        for (int i = 0; i < 8; ++i) {
          if (word[i] == ~0u) packed.close(pass, loc);
          else if (word[i] != 0) packed.add(at[c0 + i], word[i], s.local, pass, loc);
        }
      }
      packed.close(pass, loc);
    };
    std::size_t packed_runs = 0;
    if (any_small && lane == 0) pack([&](std::size_t, std::size_t, int) { ++packed_runs; });
    const std::size_t big_end = block::warp_inclusive_sum(bigs), entry_end = block::warp_inclusive_sum(entries);
    const std::size_t all_bigs = __shfl_sync(0xFFFFFFFFu, big_end, 31);
    const std::size_t all_entries = __shfl_sync(0xFFFFFFFFu, entry_end, 31);
    std::size_t big_at = 0, run_at = 0;
    if (lane == 0) {
      if (all_bigs) big_at = std::size_t(atomicAdd(&s.listed[level + 1], (unsigned long long)all_bigs));
      if (all_entries + packed_runs) run_at = s.runs.reserve(all_entries + packed_runs);
    }
    big_at = __shfl_sync(0xFFFFFFFFu, big_at, 0) + (big_end - bigs);
    run_at = __shfl_sync(0xFFFFFFFFu, run_at, 0);
    const std::size_t packed_at = run_at + all_entries;
    run_at += entry_end - entries;
#pragma unroll
    for (int i = 0; i < 8; ++i) {
      const int c = int(lane) * 8 + i;
      const std::size_t from = at[c], n = at[c + 1] - from;
      if (kind[i] == child_kind::big) {
        next.begin[big_at] = from;
        next.size[big_at] = n;
        ++big_at;
      } else if (kind[i] == child_kind::alone) {
        s.runs[run_at++] = run{from, n, pass, pl.dst};
      } else if (kind[i] == child_kind::one && copy_needed) {
        run_at = write_copy(s.runs, run_at, from, n, pl.dst);
      }
    }
    if (any_small && lane == 0) {
      std::size_t k = packed_at;
      pack([&](std::size_t from, std::size_t n, int passes) { s.runs[k++] = run{from, n, passes, pl.dst}; });
    }
    __syncwarp();  // the next bucket reuses the staging
  }
}

}  // namespace gpusort::detail::radix_msd
