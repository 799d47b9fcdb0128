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
//                      (skipped: the next digit's histogram is already
//                      known), a bucket of exactly the need makes every
//                      candidate up to it a winner (done)
//              filter  a resident grid over the candidates: digit < bucket
//                      -> a winner (its index appended to the winners);
//                      digit == bucket -> stays a candidate: its index
//                      appended to the next list when that fits
//                      list_capacity, and every lower digit of it counted
//                      for the next levels. The first filter reads the
//                      input; later ones a list, or the input again with
//                      the prefix test when the survivors did not fit.
// Every level is launched (digits of the key and of the index: 8 for f32
// at 2^28); a level with nothing to do costs two launches whose blocks
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

#include <gpusort/detail/block/warp.cuh>

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
    s.index_counted = 1;  // arithmetic, above
  }
}

// Inclusive scan of one count a thread over the block (bins threads).
__device__ __forceinline__ count_t block_inclusive_sum(count_t x, count_t* warp_sums) {
  const unsigned lane = threadIdx.x & 31u, warp = threadIdx.x / 32;
#pragma unroll
  for (int d = 1; d < 32; d <<= 1) {
    const count_t y = __shfl_up_sync(0xFFFFFFFFu, x, d);
    if (lane >= unsigned(d)) x += y;
  }
  if (lane == 31) warp_sums[warp] = x;
  __syncthreads();
  count_t before = 0;
  for (unsigned w = 0; w < warp; ++w) before += warp_sums[w];
  return x + before;
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
  const int done = s.done, index_counted = s.index_counted;
  __syncthreads();  // every thread has read the state before thread 0 writes it
  if (done) {
    if (t == 0) s.filter = 0;
    return;
  }
  const count_t* h = hist_set(a.hists, hist_at) + std::size_t(level) * bins;
  const count_t mine = h[t];
  const count_t upto = block_inclusive_sum(mine, warp_sums);
  // the bucket: fewer than `need` below it, at least `need` up to it
  if (upto >= need && upto - mine < need) pick = bucket_choice{t, upto - mine, mine};
  __syncthreads();
  const bucket_choice c = pick;
  const count_t left = need - c.less;
  const bool all_win = c.equal == left;
  const bool unchanged = c.less == 0 && c.equal == count;
  const bool to_list = !all_win && c.equal <= a.list_capacity;
  const bool forced = unchanged && level + 1 == a.digits.key_digits && !index_counted;
  if (!all_win && (!unchanged || forced)) {  // the survivors' histograms start from zero
    count_t* next = hist_set(a.hists, hist_at ^ 1);
    for (int l = level + 1; l < a.digits.digits(); ++l) next[l * bins + t] = 0;
  }
  if (t != 0) return;
  const digit_field f = field_of(a.digits, level);
  s.hist_at = hist_at;
  s.list_at = list_at;
  s.from_list = from_list;
  s.above = s.chosen;
  s.chosen.append(f, c.bucket);
  s.bucket = c.bucket;
  // the index digits are counted by a filter whose survivors fit a list
  // (cheap) or that is the last before the index levels
  const bool last_key = level + 1 == a.digits.key_digits;
  if (unchanged && !all_win && !forced) {  // every candidate has this digit: nothing moves
    s.filter = 0;
    return;
  }
  // (unchanged at the last key level without the index counts: a filter
  // that moves nothing and counts them)
  s.filter = 1;
  s.all_win = all_win;
  s.to_list = to_list;
  const bool index = to_list || last_key || level >= a.digits.key_digits;
  s.count_index = index;
  s.index_counted = index;
  s.need = left;
  s.count = c.equal;
  s.done = all_win;
  if (to_list) s.listed[list_at ^ 1] = 0;
}

// Appends this warp's flagged items of one step (bit i of `flags`: item i
// of this lane) to a list with one atomic for them all: f(i, slot) for each
// flagged item. Every lane of the warp calls it.
template <int I, class F> __device__ __forceinline__ void warp_append(count_t* counter, unsigned flags, F&& f) {
  unsigned total = 0;
#pragma unroll
  for (int i = 0; i < I; ++i) total += __popc(__ballot_sync(0xFFFFFFFFu, (flags >> i) & 1u));
  if (total == 0) return;
  const unsigned lane = threadIdx.x & 31u;
  count_t base = 0;
  if (lane == 0) base = atomicAdd(counter, count_t(total));
  base = __shfl_sync(0xFFFFFFFFu, base, 0);
  const unsigned below = (1u << lane) - 1u;
#pragma unroll
  for (int i = 0; i < I; ++i) {
    const unsigned votes = __ballot_sync(0xFFFFFFFFu, (flags >> i) & 1u);
    if ((flags >> i) & 1u) f(i, std::size_t(base) + __popc(votes & below));
    base += __popc(votes);
  }
}

// Counts the survivor (r, i)'s digits below `level` into the block's
// counters: the key's digits always, the index's when `index` (the choose
// kernel asks for them where the survivors fit a list, or at the last key
// level). The key digits take one atomic each; lanes counting the same
// index digit (consecutive indices share their top digits) add once for
// all of them, so that many survivors do not serialise on a few counters.
__device__ __forceinline__ void count_survivor(unsigned* counts, const digit_plan& p, int level, bool index,
                                               std::uint64_t r, std::uint64_t i) {
  for (int lv = level + 1; lv < p.key_digits; ++lv)  // random digits: plain atomics rarely collide
    atomicAdd(&counts[unsigned(lv - level - 1) * bins + digit_of(field_of(p, lv), r, i)], 1u);
  if (!index) return;
  for (int lv = level + 1 > p.key_digits ? level + 1 : p.key_digits; lv < p.digits(); ++lv) {
    const unsigned slot = unsigned(lv - level - 1) * bins + digit_of(field_of(p, lv), r, i);
    const unsigned peers = __match_any_sync(__activemask(), slot);
    if ((threadIdx.x & 31u) == unsigned(__ffs(peers) - 1)) atomicAdd(&counts[slot], unsigned(__popc(peers)));
  }
}

// A resident grid of T::filter_threads: the level's filter (see the header).
// FIRST: level 0, whose candidates are the whole input in order (no list,
// no prefix): keys load by 32-bit offsets from the step's start, with no
// index array.
template <class T, class K, bool FIRST>
__global__ void __launch_bounds__(T::filter_threads) filter_kernel(select_args<K> a, int level) {
  using U = typename key_traits<K>::bits;
  constexpr int I = T::filter_items;
  __shared__ unsigned counts[max_digits * bins];
  const select_state& s = *a.state;
  if (!s.filter) return;
  const bool all_win = s.all_win, to_list = s.to_list, count_rest = !s.all_win, count_index = s.count_index;
  const bool from_list = s.from_list;
  const unsigned bucket = s.bucket;
  const prefix above = s.above;
  const digit_field f = field_of(a.digits, level);
  const int digits = a.digits.digits();
  const std::uint64_t* src_list = a.lists[s.list_at];
  std::uint64_t* dst_list = a.lists[s.list_at ^ 1];
  count_t* dst_count = &a.state->listed[s.list_at ^ 1];
  const std::size_t total = from_list ? std::size_t(s.listed[s.list_at]) : a.n;
  if (count_rest) {
    for (int i = threadIdx.x; i < (digits - level - 1) * bins; i += T::filter_threads) counts[i] = 0;
    __syncthreads();
  }
  const std::size_t step = std::size_t(gridDim.x) * T::filter_threads * I;
  // the loop runs the same number of times in every thread of a warp (the
  // warp's items share `at`), so the warp-wide appends see every lane
  for (std::size_t at = std::size_t(blockIdx.x) * T::filter_threads * I + (threadIdx.x & ~31u) * I; at < total;
       at += step) {
    const unsigned lane = threadIdx.x & 31u;
    U key[I];
    unsigned win = 0, stay = 0;  // bit i: item i
    if constexpr (FIRST) {
      const U* from = a.keys + at + lane;
      const std::size_t left = total - at;  // items of this step: offsets below it exist
      if (left >= std::size_t(I) * 32) {
#pragma unroll
        for (int i = 0; i < I; ++i) key[i] = from[i * 32];
      } else {
#pragma unroll
        for (int i = 0; i < I; ++i)
          if (unsigned(i * 32) + lane < left) key[i] = from[i * 32];
      }
#pragma unroll
      for (int i = 0; i < I; ++i) {
        if (unsigned(i * 32) + lane >= left) continue;
        const std::uint64_t r = std::uint64_t(a.order.ordered(key[i]));
        const unsigned d = unsigned(r >> f.shift) & ((1u << f.width) - 1u);
        if (d < bucket || (all_win && d == bucket)) win |= 1u << i;
        if (!all_win && d == bucket) {
          stay |= 1u << i;
          count_survivor(counts, a.digits, level, count_index, r, at + unsigned(i * 32) + lane);
        }
      }
      auto index = [&](int i) { return std::uint64_t(at + unsigned(i * 32) + lane); };
      warp_append<I>(&a.state->winners, win, [&](int i, std::size_t w) { a.winners[w] = index(i); });
      if (to_list) warp_append<I>(dst_count, stay, [&](int i, std::size_t l) { dst_list[l] = index(i); });
    } else {
      std::uint64_t idx[I];
#pragma unroll
      for (int i = 0; i < I; ++i) {
        const std::size_t j = at + std::size_t(i) * 32 + lane;
        idx[i] = j < total ? (from_list ? src_list[j] : j) : ~std::uint64_t(0);
      }
#pragma unroll
      for (int i = 0; i < I; ++i)
        if (idx[i] != ~std::uint64_t(0)) key[i] = a.keys[idx[i]];
#pragma unroll
      for (int i = 0; i < I; ++i) {
        if (idx[i] == ~std::uint64_t(0)) continue;
        const std::uint64_t r = std::uint64_t(a.order.ordered(key[i]));
        if (!from_list && !above.matches(r, idx[i])) continue;
        const unsigned d = digit_of(f, r, idx[i]);
        if (d < bucket || (all_win && d == bucket)) win |= 1u << i;
        if (!all_win && d == bucket) {
          stay |= 1u << i;
          count_survivor(counts, a.digits, level, count_index, r, idx[i]);
        }
      }
      warp_append<I>(&a.state->winners, win, [&](int i, std::size_t w) { a.winners[w] = idx[i]; });
      if (to_list) warp_append<I>(dst_count, stay, [&](int i, std::size_t l) { dst_list[l] = idx[i]; });
    }
  }
  if (!count_rest) return;
  __syncthreads();
  count_t* h = hist_set(a.hists, s.hist_at ^ 1);
  for (int i = threadIdx.x; i < (digits - level - 1) * bins; i += T::filter_threads)
    if (counts[i]) atomicAdd(&h[(level + 1) * bins + i], count_t(counts[i]));
}

}  // namespace gpusort::detail::topk
