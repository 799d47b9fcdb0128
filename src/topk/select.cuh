// Top-k of one array: radix selection on the device (RadiK, Li et al.,
// arXiv 2501.14336, 2025: histogram a digit, keep the bucket that holds the
// k-th key, repeat on the survivors), with the selection key of plan.hpp
// (key rank bits, then index), so ties at the boundary go to the lowest
// indices and the winners are one well-defined set.
//
//   histogram  one read of the input counts every key digit
//              (radix_onesweep::count_digits); the index digits' counts of
//              [0, n) are arithmetic (index_digit_count)
//   per level  choose  one block: the level's bucket from the candidates'
//                      histogram; it decides whether the level filters:
//                      a bucket holding every candidate changes nothing
//                      (skipped, when the next digit's histogram is
//                      already counted), a bucket of exactly the need
//                      makes every candidate up to it a winner (done)
//              filter  a resident grid over the candidates: digit < bucket
//                      -> a winner (its index appended to the winners);
//                      digit == bucket -> stays a candidate: its index
//                      appended to the next list when that fits
//                      list_capacity. Listed survivors count every lower
//                      key digit (and, from the last key level on, the
//                      index digits); survivors left in the input count
//                      their next digit only (the next level reads the
//                      input again with the prefix test). Two kernels, one
//                      reading the input and one a list; the level's state
//                      says which runs, the other leaves at once.
//
// The filter's cost is instructions, not bytes (ncu: issue-bound at 64
// instructions a key in the first cut), so at a key level a candidate's
// test is two compares in the key's width (key_window), the appends are
// one pipelined atomic a block and step (block::appender), and survivors'
// counting is out of the classification loop.
//
// Every level is launched (digits of the key and of the index: 8 for f32
// at 2^28); a level with nothing to do costs three launches whose blocks
// leave at once. No host synchronisation.
//
// The result: exactly k winner indices, in no particular order (the caller
// sorts them, select_device's callers in topk.cuh).
#pragma once

#include "radix/digit.cuh"
#include "radix/onesweep_histogram.cuh"
#include "topk/call.hpp"
#include "topk/plan.hpp"
#include "topk/tuning.cuh"

#include <gpusort/detail/block/append.cuh>


#include <cstddef>
#include <cstdint>

namespace gpusort::detail::topk {

// What the level kernels share.
template <class K> struct select_args {
  using U = typename key_traits<K>::bits;
  const U* keys;                  // the input's raw bits
  std::size_t n;
  radix::digit_map<K> order;      // .ordered(raw): the key's rank bits (full range)
  digit_plan digits;
  select_state* state;
  count_t* hists;                 // [2][max_digits][bins]
  std::uint64_t* lists[2];        // candidate indices
  std::size_t list_capacity;
  std::uint64_t* winners;         // k indices
};

__device__ __forceinline__ count_t* hist_set(count_t* hists, int set) {
  return hists + std::size_t(set) * max_digits * bins;
}

// The first read: every key digit of the input, counted per block in
// shared memory (onesweep's counting), flushed into histogram set 0 at the
// selection's levels (level l = key digit pass key_digits - 1 - l).
template <class T, class K>
__global__ void __launch_bounds__(T::hist_threads)
histogram_kernel(select_args<K> a, radix_onesweep::pass_digits<K, T::hist::max_passes> d) {
  using H = typename T::hist;
  __shared__ unsigned counts[H::max_passes * H::bins];
  const int words = d.passes * H::bins;
  for (int i = threadIdx.x; i < words; i += T::hist_threads) counts[i] = 0;
  __syncthreads();
  constexpr std::size_t per_block = std::size_t(T::hist_threads) * T::hist_items;
  radix_onesweep::count_digits<H, K>(a.keys, blockIdx.x * per_block, a.n, per_block * gridDim.x, d, counts,
                                     T::hist_threads);
  __syncthreads();
  count_t* h = hist_set(a.hists, 0);
  for (int i = threadIdx.x; i < words; i += T::hist_threads) {
    const int pass = i / H::bins, b = i % H::bins;
    const int level = a.digits.key_digits - 1 - pass;
    if (counts[i]) atomicAdd(&h[level * bins + b], count_t(counts[i]));
  }
}

// One block: the state's start and the index digits' counts of [0, n).
template <class K> __global__ void __launch_bounds__(bins) start_kernel(select_args<K> a, std::size_t k) {
  select_state& s = *a.state;
  count_t* h = hist_set(a.hists, 0);
  for (int j = 0; j < a.digits.index_digits; ++j) {
    const int level = a.digits.key_digits + j;
    const digit_field f = field_of(a.digits, level);
    const unsigned v = threadIdx.x;
    h[level * bins + v] = index_digit_count(a.n, f.shift, f.width, v);
  }
  if (threadIdx.x == 0) {
    s.need = k;
    s.count = a.n;
    s.above = prefix{};
    s.chosen = prefix{};
    s.done = k == 0;
    s.have = a.digits.digits();  // key digits counted, index digits arithmetic
  }
}

// One block of `bins` threads: level `level`'s bucket and what its filter does.
template <class K> __global__ void __launch_bounds__(bins) choose_kernel(select_args<K> a, int level) {
  __shared__ count_t warp_sums[bins / 32];
  __shared__ bucket_choice pick;
  select_state& s = *a.state;
  const unsigned t = threadIdx.x;
  // the last filter's survivors are the candidates now
  const int filtered = s.filter;
  const int hist_at = filtered && !s.done ? s.hist_at ^ 1 : s.hist_at;
  const int list_at = filtered && s.to_list ? s.list_at ^ 1 : s.list_at;
  const int from_list = filtered ? s.to_list : s.from_list;
  const count_t need = s.need, count = s.count;
  const int done = s.done, have = s.have, digits = a.digits.digits();
  __syncthreads();  // every thread has read the state before thread 0 writes it
  if (done) {
    if (t == 0) s.filter = 0;
    return;
  }
  const count_t* h = hist_set(a.hists, hist_at) + std::size_t(level) * bins;
  const count_t mine = h[t];
  const count_t upto = block::block_exclusive_sum<bins>(mine, warp_sums) + mine;
  // the bucket: fewer than `need` below it, at least `need` up to it
  if (upto >= need && upto - mine < need) pick = bucket_choice{t, upto - mine, mine};
  __syncthreads();
  const bucket_choice c = pick;
  const count_t left = need - c.less;
  const bool all_win = c.equal == left;
  const bool unchanged = c.less == 0 && c.equal == count;
  const bool to_list = !all_win && c.equal <= a.list_capacity;
  // a level that moves nothing still filters (counting) when the next
  // level's histogram was never counted
  const bool missing = level + 1 < digits && have <= level + 1;
  const bool run = all_win || !unchanged || missing;
  if (run && !all_win) {  // the survivors' histograms start from zero
    count_t* next = hist_set(a.hists, hist_at ^ 1);
    for (int l = level + 1; l < digits; ++l) next[l * bins + t] = 0;
  }
  if (t != 0) return;
  s.hist_at = hist_at;
  s.list_at = list_at;
  s.from_list = from_list;
  s.above = s.chosen;
  s.chosen.append(field_of(a.digits, level), c.bucket);
  s.bucket = c.bucket;
  if (!run) {  // every candidate has this digit: nothing moves, the histograms stand
    s.filter = 0;
    return;
  }
  s.filter = 1;
  s.all_win = all_win;
  s.to_list = to_list;
  s.appends = to_list || all_win || c.less > 0;
  // listed survivors are few: every lower key digit counted, so that later
  // key levels that move nothing need no pass (the index digits, whose
  // counting matches lanes, only from the last key level on: before it they
  // matter only for ties, and a level missing them filters the list to
  // count them); survivors left in the input are re-read by the next level
  // anyway: their next digit only
  const int rest = digits - level - 1, key_rest = a.digits.key_digits - level - 1;
  const int depth = !to_list ? (rest < 1 ? rest : 1) : key_rest > 0 ? key_rest : rest;
  s.depth = depth;
  s.have = level + 1 + depth;
  s.need = left;
  s.count = c.equal;
  s.done = all_win;
  if (to_list) s.listed[list_at ^ 1] = 0;
}

// Counts the survivor (r, i)'s digits of levels [level + 1, level + 1 +
// depth) into the block's counters: the key's (8-bit digits of a key of
// sizeof(U) bytes: constant shifts; random digits, so plain atomics rarely
// collide) and the index's, where lanes counting the same index digit
// (consecutive indices share their top digits) add once for all of them.
template <class U>
__device__ __forceinline__ void count_survivor(unsigned* counts, const digit_plan& p, int level, int depth,
                                               std::uint64_t r, std::uint64_t i) {
  constexpr int D = int(sizeof(U));
  static_assert(radix_bits == 8, "key digits are bytes");
  const int end = level + 1 + depth;
#pragma unroll
  for (int lv = 1; lv < D; ++lv)
    if (lv > level && lv < end)
      atomicAdd(&counts[unsigned(lv - level - 1) * bins + (unsigned(r >> (8 * (D - 1 - lv))) & 255u)], 1u);
  for (int lv = level + 1 > D ? level + 1 : D; lv < end; ++lv) {
    const unsigned slot = unsigned(lv - level - 1) * bins + digit_of(field_of(p, lv), r, i);
    const unsigned peers = __match_any_sync(__activemask(), slot);
    if ((threadIdx.x & 31u) == unsigned(__ffs(peers) - 1)) atomicAdd(&counts[slot], unsigned(__popc(peers)));
  }
}

// A key level's test in the key's own width, from the prefix of the digits
// above (a block of 2^(shift + 8) rank values from lo) and the bucket: with
// off = r - lo, a candidate's digit is under the bucket when off < below,
// and is the bucket when off - below < span (wrapping: off < below fails
// it). Two compares a key instead of a prefix test and a digit in 64 bits.
template <class U> struct key_window {
  U lo, below, span;
  __device__ __forceinline__ static key_window of(const prefix& above, const digit_field& f, unsigned bucket) {
    key_window w;
    w.lo = above.key_shift >= 64 ? U(0) : U(above.key << above.key_shift);
    w.below = U(std::uint64_t(bucket) << f.shift);
    w.span = U(std::uint64_t(1) << f.shift);
    return w;
  }
};

// Loads the keys of one step's items of this lane (item i: at + i * 32 +
// lane, those below `left`): from the input, or through a list (whose
// indices go to idx).
template <int I, bool LIST, class U>
__device__ __forceinline__ void load_items(const U* keys, const std::uint64_t* list, std::size_t at, std::size_t left,
                                           U (&key)[I], std::uint64_t (&idx)[LIST ? I : 1]) {
  const unsigned lane = threadIdx.x & 31u;
  if constexpr (LIST) {
#pragma unroll
    for (int i = 0; i < I; ++i)
      if (unsigned(i * 32) + lane < left) idx[i] = list[at + unsigned(i * 32) + lane];
#pragma unroll
    for (int i = 0; i < I; ++i)
      if (unsigned(i * 32) + lane < left) key[i] = keys[idx[i]];
  } else {
    const U* from = keys + at + lane;
    if (left >= std::size_t(I) * 32) {
#pragma unroll
      for (int i = 0; i < I; ++i) key[i] = from[i * 32];
    } else {
#pragma unroll
      for (int i = 0; i < I; ++i)
        if (unsigned(i * 32) + lane < left) key[i] = from[i * 32];
    }
  }
}

// A resident grid of T::filter_threads: the level's filter (see the header).
// LIST: the candidates are the current list of indices; else the input
// itself, tested by the prefix of the digits above (level 0: every key),
// read in coalesced runs of 32 keys. Both are launched for every level
// (level 0: the input's only) and one leaves at once. Every block runs the
// same number of steps; the next step's keys load before this step's are
// decided, and the appends are pipelined (block::appender).
template <class T, class K, bool LIST>
__global__ void __launch_bounds__(T::filter_threads, T::filter_min_blocks) filter_kernel(select_args<K> a, int level) {
  using U = typename key_traits<K>::bits;
  constexpr int I = LIST ? T::list_items : T::filter_items, WARPS = T::filter_threads / 32;
  using index_t = std::uint64_t[LIST ? I : 1];
  __shared__ unsigned counts[max_digits * bins];
  __shared__ block::appends<WARPS> appends;
  const select_state& s = *a.state;
  if (!s.filter || bool(s.from_list) != LIST) return;
  const bool all_win = s.all_win, to_list = s.to_list, count_rest = !s.all_win, appending = s.appends;
  const int depth = s.depth;
  const unsigned bucket = s.bucket;
  const prefix above = s.above;
  const digit_field f = field_of(a.digits, level);
  const int digits = a.digits.digits();
  const bool key_level = level < a.digits.key_digits;
  const key_window<U> window = key_window<U>::of(above, f, bucket);
  const bool one_digit = depth == 1 && level + 1 < a.digits.key_digits;  // the next key digit only
  const int next_shift = a.digits.key_bits - radix_bits * (level + 2);
  // (the lists chosen by a branch: a parameter array indexed at run time
  // would be copied to local memory)
  const bool second = s.list_at != 0;
  const std::uint64_t* src_list = second ? a.lists[1] : a.lists[0];
  block::appender<WARPS> out{appends, &a.state->winners, second ? &a.state->listed[0] : &a.state->listed[1],
                            a.winners, second ? a.lists[0] : a.lists[1]};
  const std::size_t total = LIST ? std::size_t(s.listed[second ? 1 : 0]) : a.n;
  if (count_rest) {
    for (int i = threadIdx.x; i < (digits - level - 1) * bins; i += T::filter_threads) counts[i] = 0;
    __syncthreads();
  }
  const unsigned lane = threadIdx.x & 31u;
  constexpr std::size_t tile = std::size_t(T::filter_threads) * I;
  const std::size_t stride = std::size_t(gridDim.x) * tile, warp_at = (threadIdx.x / 32) * 32 * I;
  auto left_of = [&](std::size_t step) { return step + warp_at < total ? total - (step + warp_at) : 0; };
  // the flags (and list indices) of this step and the two before
  block::step_flags<I> flags1, flags2;
  index_t idx, idx1, idx2;
  std::size_t at1 = 0, at2 = 0;  // the warp's first item of the steps before
  auto index_at = [&](const index_t& x, std::size_t at) {
    return [&x, at, lane](int i) -> std::uint64_t {
      if constexpr (LIST) return x[i];
      else return at + unsigned(i * 32) + lane;
    };
  };
  U key[I], next_key[I];
  index_t next_idx;
  std::size_t step = std::size_t(blockIdx.x) * tile;
  if (step < total) load_items<I, LIST>(a.keys, src_list, step + warp_at, left_of(step), key, idx);
  for (; step < total; step += stride, ++out.step) {
    const std::size_t left = left_of(step), at = step + warp_at;
    if (step + stride < total)
      load_items<I, LIST>(a.keys, src_list, step + stride + warp_at, left_of(step + stride), next_key, next_idx);
    block::step_flags<I> now;
    auto index_of = index_at(idx, at);
    unsigned valid = (1u << I) - 1u;  // bit i: item i exists
    if (left < std::size_t(I) * 32) {
      valid = 0;
#pragma unroll
      for (int i = 0; i < I; ++i) valid |= unsigned(unsigned(i * 32) + lane < left) << i;
    }
    // classify: a block-uniform branch between the key levels' window and
    // the index levels' prefix test and digit
    if (key_level) {
#pragma unroll
      for (int i = 0; i < I; ++i) {
        const U off = U(a.order.ordered(key[i]) - window.lo);
        const bool under = off < window.below, in_bucket = U(off - window.below) < window.span;
        now.win |= unsigned(under || (all_win && in_bucket)) << i;
        now.stay |= unsigned(!all_win && in_bucket) << i;
      }
    } else {
#pragma unroll
      for (int i = 0; i < I; ++i) {
        const U r = a.order.ordered(key[i]);
        if (!LIST && !above.matches(r, index_of(i))) continue;
        const unsigned d = digit_of(f, r, index_of(i));
        now.win |= unsigned(d < bucket || (all_win && d == bucket)) << i;
        now.stay |= unsigned(!all_win && d == bucket) << i;
      }
    }
    now.win &= valid;
    now.stay &= valid;
    // count the survivors' lower digits (one key digit: a single atomic)
    if (__any_sync(0xFFFFFFFFu, now.stay)) {
      if (one_digit) {
#pragma unroll
        for (int i = 0; i < I; ++i)
          if ((now.stay >> i) & 1u) atomicAdd(&counts[unsigned(a.order.ordered(key[i]) >> next_shift) & 255u], 1u);
      } else {
#pragma unroll
        for (int i = 0; i < I; ++i)
          if ((now.stay >> i) & 1u)
            count_survivor<U>(counts, a.digits, level, depth, a.order.ordered(key[i]), index_of(i));
      }
    }
    if (!to_list) now.stay = 0;
    if (appending) {  // (block-uniform: a counting-only level has no barrier a step)
      out.count(now);
      __syncthreads();
      out.reserve();
      if (out.step >= 2) out.write(out.step - 2, flags2, index_at(idx2, at2));
    }
    flags2 = flags1;
    flags1 = now;
    at2 = at1;
    at1 = at;
#pragma unroll
    for (int i = 0; i < I; ++i) key[i] = next_key[i];
    if constexpr (LIST) {
#pragma unroll
      for (int i = 0; i < I; ++i) {
        idx2[i] = idx1[i];
        idx1[i] = idx[i];
        idx[i] = next_idx[i];
      }
    }
  }
  // the last two steps' items: place the last, then write both
  __syncthreads();
  if (appending) {
    if (out.step > 0 && threadIdx.x < 2) out.place(out.step - 1, out.issued);
    __syncthreads();
    if (out.step >= 2) out.write(out.step - 2, flags2, index_at(idx2, at2));
    if (out.step >= 1) out.write(out.step - 1, flags1, index_at(idx1, at1));
  }
  if (!count_rest) return;
  count_t* h = hist_set(a.hists, s.hist_at ^ 1);
  for (int i = threadIdx.x; i < (digits - level - 1) * bins; i += T::filter_threads)
    if (counts[i]) atomicAdd(&h[(level + 1) * bins + i], count_t(counts[i]));
}

}  // namespace gpusort::detail::topk
