// radix_msd's plan kernel (msd_levels.cuh's first step, run once before the
// levels): from the first histogram and a sample of the keys, the skipped
// digits, the choice between the MSD levels and LSD mode, and the chosen
// one's plan.
#pragma once

#include "radix/msd_classes.hpp"
#include "radix/msd_levels.cuh"
#include "radix/msd_plan.hpp"
#include "radix/msd_tuning.cuh"
#include "radix/onesweep_histogram.cuh"
#include "radix/onesweep_plan.hpp"

#include <gpusort/detail/block/scan.cuh>
#include <gpusort/detail/core/bit_width.hpp>
#include <gpusort/detail/block/shared_bitonic.cuh>

#include <cstddef>
#include <cstdint>

namespace gpusort::detail::radix_msd {

// LSD mode's device side (msd.cuh): onesweep's passes over the whole array
// (one portion), digit by digit from the lowest.
struct lsd_state {
  slot_plan* plan;          // [levels + 1]: onesweep's launch plan (onesweep_plan.hpp)
  unsigned long long* base; // [pass][digit]: exclusive scan of the first histogram
  bool allowed;             // n small enough (tuning::lsd_max_keys)
  bool in_place;
  // the first histogram's watch: whether the keys are sorted (then every
  // digit is skipped), and for integer orders over every bit (offsets) their
  // span (radix::pass_key). When the plan takes LSD passes over
  // ordered - least, it sets span->use and span->base, and the offset
  // histogram and scan make the passes' bases and plan.
  radix_onesweep::key_span* span;
  bool offsets;
};

// Sum of one float a thread over a block of `bins` threads (thread 0 gets it).
template <int BINS> __device__ __forceinline__ float block_sum(float x, float* warp_sums) {
#pragma unroll
  for (int d = 16; d > 0; d >>= 1) x += __shfl_xor_sync(0xFFFFFFFFu, x, d);
  if ((threadIdx.x & 31u) == 0) warp_sums[threadIdx.x / 32] = x;
  __syncthreads();
  float all = 0;
  if (threadIdx.x == 0)
    for (int w = 0; w < BINS / 32; ++w) all += warp_sums[w];
  __syncthreads();
  return all;
}

// The sample's runs of one value (msd_tuning.cuh): alone[k] counts the
// sampled keys in runs of at least sample_run equal keys that k sorting
// levels split from both sorted neighbours (a run at an end of the sample
// counts from its one neighbour); runs[0..2]: the runs (distinct values),
// those of one key and those of two (levels_to_one_value). skip[j]: level
// j's digit is every key's. One block of T::bins threads; `sample` is
// shared memory.
template <class T, class K, class Digits>
__device__ void sample_alone(const typename key_traits<K>::bits* keys, std::size_t n, const Digits& digits,
                             const int* skip, int levels, typename key_traits<K>::bits* sample, unsigned* alone,
                             unsigned* runs, const level_state& s) {
  using U = typename key_traits<K>::bits;
  constexpr int S = T::sample_keys;
  static_assert((S & (S - 1)) == 0 && S % (2 * T::bins) == 0, "a power of two, whole rounds of the block");
  const std::size_t stride = n / S;
  const bool mapped = s.classes && *s.classes_ok;  // doubles: the levels split the mapped keys
  const int_map im = s.ints ? *s.ints : int_map{};  // 64-bit integers: c (c = o where not taken)
  for (int i = threadIdx.x; i < S; i += T::bins) {
    const U r = digits.rank_of(digits.pass[0].ordered(keys[std::size_t(i) * stride + stride / 2]));
    sample[i] = mapped ? U(class_key(std::uint64_t(r), s.classes)) : s.ints ? U(int_mapped(std::uint64_t(r), im)) : r;
  }
  __syncthreads();
  block::shared_bitonic_sort<T::bins, S>(sample);
  // the sorting levels after which two different ranks lie in different buckets
  const auto split_after = [&](U x, U y) {
    const int h = bit_width64(x ^ y) - 1;
    int pass = levels - 1;
    while (pass > 0 && radix::digit_low(digits.ord, T::radix_bits, pass) > h) --pass;
    int k = 0;
    for (int j = 0; j <= levels - 1 - pass; ++j) k += !skip[j];
    return k;
  };
  for (int i = threadIdx.x; i < S; i += T::bins) {
    if (i > 0 && sample[i] == sample[i - 1]) continue;  // inside a run
    int end = i + 1;
    while (end < S && sample[end] == sample[i]) ++end;
    atomicAdd(&runs[0], 1u);
    if (end - i <= 2) atomicAdd(&runs[end - i], 1u);
    if (end - i < T::sample_run) continue;
    int k = 1;
    if (i > 0) k = max(k, split_after(sample[i - 1], sample[i]));
    if (end < S) k = max(k, split_after(sample[end - 1], sample[end]));
    atomicAdd(&alone[k], unsigned(end - i));
  }
  __syncthreads();
}

// One block of T::bins threads: skipped digits, the choice between the MSD
// levels and LSD passes, and the chosen one's plan: each MSD level's (and
// level 0's one bucket), or the LSD passes' (every slot skipped in MSD mode).
//
// The choice, from the first histogram (every digit's counts over all keys),
// treating digits as independent: the share of keys still in buckets over
// a local sort after the first sorting level, F1 = sum of p1(d) over the
// digits d with n p1(d) > local, after the second, F2 (over digit pairs),
// and after the third, F3 (over triples); later levels continue the ratio
// F3 / F2 (msd_plan.hpp big_shares). F3 matters where the top digits are
// skewed and the lower ones spread (normal doubles: sign and exponent
// first; a CPU simulation of 2^27 of them leaves 100%, 99.8%, 10% and 0% of
// the keys in big buckets after levels 1 to 4, where the ratio F2 / F1
// predicted 100% for all seven). A sample of the keys
// shows the keys whose buckets hold one value after k levels (sample_alone):
// those are copied, not sorted on. MSD costs msd_plan.hpp's msd_cost, LSD
// one pass a varying digit (tuning: msd_tuning.cuh). Skewed keys
// (entropy-reduced, a few varying digits: small integers in u64) go LSD,
// uniform wide keys and few distinct values MSD.
// With a span, LSD over the offset digits costs one a digit the span
// leaves varying plus offset_histogram, and is taken when cheapest (small
// signed integers: 4 passes instead of 8).
template <class T, class K, class Digits>
__global__ void __launch_bounds__(T::bins)
plan_kernel(level_state s, segment_list level0, std::size_t n, slot_plan* plan, lsd_state lsd,
            const typename key_traits<K>::bits* keys, Digits digits) {
  using U = typename key_traits<K>::bits;
  __shared__ int skip[T::max_levels];
  __shared__ int lsd_skip[T::max_levels];  // of the ordered bits (skip[] is the levels', of the mapped keys for doubles)
  __shared__ int order[T::max_levels];  // the varying digits' passes, top first
  __shared__ float warp_sums[T::bins / 32];
  __shared__ unsigned long long scan_sums[T::bins / 32];
  __shared__ unsigned alone[T::max_levels + 1];
  __shared__ unsigned runs[3];
  __shared__ U sample[T::sample_keys];
  const int b = threadIdx.x;
  if (b <= T::max_levels) alone[b] = 0;
  if (b < 3) runs[b] = 0;
  const bool sorted = lsd.span && !lsd.span->unsorted;  // the identity: a copy run
  // doubles: the mapped histogram counts the top three digits alone (the
  // shares and level 0's counts), and where the map is taken the ordered
  // bits' digits were never counted: LSD mode is out. Without the map (the
  // gate's choice, more than 256 classes, or dropped by class_drop_kernel)
  // the levels take the ordered bits' histogram
  const bool classes_mapped = s.classes && *s.classes_ok != 0;  // block-uniform
  if (s.classes && !classes_mapped) {
    for (int i = b; i < s.levels * T::bins; i += T::bins) s.mapped_hist[i] = s.lsd_hist[i];
    __syncthreads();
  }
  // whether LSD mode may be chosen (its launches are made either way while
  // lsd.allowed, and find their slots skipped)
  const bool lsd_choice = lsd.allowed && !classes_mapped;
  // 64-bit integers: the map's histogram where it was taken (its digits
  // above c's top are every key's 0, so no check as the class map's), else
  // the ordered bits'
  if (s.ints && !s.ints->ok) {  // block-uniform
    for (int i = b; i < s.levels * T::bins; i += T::bins) s.mapped_hist[i] = s.lsd_hist[i];
    __syncthreads();
  }
  for (int j = 0; j < s.levels; ++j) {
    const int pass = s.levels - 1 - j;
    const int constant = __syncthreads_or(s.first_hist[pass * T::bins + b] == n);
    const int lsd_constant = __syncthreads_or(s.lsd_hist[pass * T::bins + b] == n);
    if (b == 0) {
      skip[j] = constant || sorted;
      lsd_skip[j] = lsd_constant || sorted;
    }
  }
  // LSD mode's bases: every pass's exclusive scan (used only in LSD mode;
  // above lsd_max_keys LSD mode has no buffers)
  for (int pass = 0; lsd.allowed && pass < s.levels; ++pass) {
    lsd.base[pass * T::bins + b] =
        block::block_exclusive_sum<T::bins>((unsigned long long)s.lsd_hist[pass * T::bins + b], scan_sums);
    __syncthreads();  // scan_sums is reused by the next pass's scan
  }
  __syncthreads();
  int m = 0;
  for (int j = 0; j < s.levels; ++j)
    if (!skip[j]) {
      if (b == 0) order[m] = s.levels - 1 - j;
      ++m;
    }
  __syncthreads();
  // the shares F1, F2 (see the header)
  const float total = float(n), local = float(s.local);
  float f1 = 0, f2 = 0;
  __shared__ unsigned second[T::bins];  // the second digit's counts, read by every thread
  if (m >= 2) second[b] = s.first_hist[order[1] * T::bins + b];
  __syncthreads();
  if (m >= 1) {
    const float p1 = float(s.first_hist[order[0] * T::bins + b]) / total;
    if (total * p1 > local) {
      f1 = p1;
      if (m >= 2)
        for (int d = 0; d < T::bins; ++d) {
          const float p12 = p1 * float(second[d]) / total;
          if (total * p12 > local) f2 += p12;
        }
    }
  }
  const float F1 = block_sum<T::bins>(f1, warp_sums);
  const float F2 = block_sum<T::bins>(f2, warp_sums);
  // F3, over digit triples: for each pair (d1, d2) over a local sort, the
  // share of its keys in children over one (msd_plan.hpp triple_share, one
  // walk over the first and third digits' sorted shares). Thread b takes the
  // pairs of second digit b, so that the work spreads over the block when
  // one first digit holds the keys (unit doubles)
  float f3 = 0;
  if (m >= 3 && __syncthreads_or(f2 > 0)) {  // block-uniform (F2 is thread 0's alone)
    __shared__ float third[T::bins], tail[T::bins + 1], first[T::bins];
    third[b] = float(s.first_hist[order[2] * T::bins + b]) / total;
    first[b] = float(s.first_hist[order[0] * T::bins + b]) / total;
    __syncthreads();
    block::shared_bitonic_sort<T::bins, T::bins>(third);
    block::shared_bitonic_sort<T::bins, T::bins>(first);
    const float x = third[T::bins - 1 - b];
    tail[T::bins - 1 - b] = block::block_exclusive_sum<T::bins>(x, warp_sums) + x;
    if (b == 0) tail[T::bins] = 0.0f;
    __syncthreads();
    const float p2 = float(s.first_hist[order[1] * T::bins + b]) / total;
    if (total * p2 > local)  // else no pair with it is over a local sort
      f3 = triple_share(first, p2, third, tail, T::bins, total, local);
  }
  const float F3 = block_sum<T::bins>(f3, warp_sums);
  // thread 0: the histograms' shares, the cost of each choice without the
  // sample, and whether to take it (it can only make the levels cheaper, so
  // only where the LSD passes would win without it)
  constexpr msd_costs costs{T::msd_level, T::msd_local, T::msd_copy};
  __shared__ int ask_sample;
  float big[T::max_levels + 1] = {}, alone_share[T::max_levels + 1] = {};
  int lsd_m = 0;  // LSD mode's passes: the ordered bits' varying digits
  for (int j = 0; j < s.levels; ++j) lsd_m += !lsd_skip[j];
  float lsd_cost = float(lsd_m), offset_cost = float(lsd_m) + 1.0f;
  unsigned long long lo = 0;
  if (b == 0) {
    big_shares(F1, F2, F3, m, big);
    if (lsd_choice && lsd.offsets) {
      constexpr unsigned long long width = ~0ull >> (64 - T::max_levels * T::radix_bits);
      lo = ~lsd.span->not_lo & width;
      const int varying = radix_onesweep::span_passes(lo, lsd.span->hi, T::radix_bits);
      if (varying < lsd_m) offset_cost = float(varying) + T::offset_histogram;
    }
    const float cheapest_lsd = offset_cost < lsd_cost ? offset_cost : lsd_cost;
    ask_sample = lsd_choice && m >= 1 && !sorted && cheapest_lsd < msd_cost(big, alone_share, m, costs);
  }
  __syncthreads();
  if (ask_sample) sample_alone<T, K>(keys, n, digits, skip, s.levels, sample, alone, runs, s);
  if (b != 0) return;
  bool use_lsd = false;
  if (lsd_choice && m >= 1) {
    unsigned sampled = 0;
    for (int k = 1; k <= m; ++k) {
      sampled += alone[k];
      alone_share[k] = float(sampled) / float(T::sample_keys);
    }
    // few values (a Zipf law's keys): after `split` levels every bucket
    // holds one value; those of values the sample saw more than once are
    // copied, the others (counted as a local sort's) may be smaller
    const int split = ask_sample ? levels_to_one_value(runs[0], runs[1], runs[2], double(n), double(s.local),
                                                       T::radix_bits, m)
                                 : 0;
    if (split > 0) {
      const float repeated = 1.0f - float(runs[1]) / float(T::sample_keys);
      for (int k = split; k <= m; ++k) {
        big[k] = 0.0f;
        if (alone_share[k] < repeated) alone_share[k] = repeated;
      }
    }
    const float msd = msd_cost(big, alone_share, m, costs);
    use_lsd = lsd_cost < msd;
    if (offset_cost < (use_lsd ? lsd_cost : msd)) {
      lsd.span->base = lo;
      lsd.span->use = 1;
    }
  }
  const bool offset = lsd.offsets && lsd.span->use;
  if (use_lsd || offset) {
    if (!offset) {  // else the offset scan plans
      int skip_lsd[T::max_levels + 1];
      for (int pass = 0; pass < s.levels; ++pass) skip_lsd[pass] = lsd_skip[s.levels - 1 - pass];
      radix_onesweep::make_plan(skip_lsd, s.levels, s.levels + 1, lsd.in_place, lsd.plan);
    }
    *s.first_level = s.levels;  // the MSD levels find no bucket
    for (int j = 0; j < s.levels; ++j) plan[j] = {radix_onesweep::slot_skip, 0, 0};
    return;
  }
  if (lsd.allowed)  // LSD mode's launches find every slot skipped
    for (int slot = 0; slot <= s.levels; ++slot) lsd.plan[slot] = {radix_onesweep::slot_skip, 0, 0};
  make_levels(skip, s.levels, plan);
  int first = 0;
  while (first < s.levels && skip[first]) ++first;
  *s.first_level = first;
  if (first == s.levels) {  // every key equal in the order's bits: sorted
    push_copy(s.runs, 0, n, radix_onesweep::buf_in);
    return;
  }
  level0.begin[0] = 0;
  level0.size[0] = n;
  s.listed[0] = 1;
}

}  // namespace gpusort::detail::radix_msd
