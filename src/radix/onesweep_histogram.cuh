// radix_onesweep, before the passes (Adinets & Merrill 2022, section 3.1):
//   histogram  one read of the keys counts the digits of *every* pass, per
//              portion: hist[pass][portion][digit] (shared counters per
//              block, flushed with global atomics)
//   scan       one block: for every pass, the exclusive scan over digits of
//              the totals (64-bit: any n) gives each digit's first output
//              position, base[pass][0][digit]. Portion q + 1's bases are
//              written by the last tile of portion q's launch (its
//              inclusive look-back), since a pass reads the portions of the
//              previous pass's output, not of the input.
//   plan       pass skipping: a pass whose digit is the same for every key
//              (one bin holds all n) is the identity and is skipped. The
//              histograms live on the device, so the choice is made there,
//              with no copy back to the host (the call stays asynchronous
//              and capturable): the scan block writes one slot_plan per
//              launch (onesweep_plan.hpp), and every launch is made and
//              reads its entry: skip (all blocks return at once), sort one
//              digit src -> dst, or copy src -> dst.
//   offset     integer orders over every bit: the first histogram also
//              finds the keys' span (key_span, onesweep_plan.hpp); where
//              sorting by ordered - least leaves fewer varying digits, the
//              scan says so instead of planning, a second histogram counts
//              the offset digits and a second scan plans from them. Both
//              are launched every time and leave at once when the plain
//              digits are kept (about 2 x 2 us).
// For few keys, one block does the histogram and the scan in one launch.
#pragma once

#include <gpusort/detail/block/rank.cuh>
#include "radix/digit.cuh"
#include "radix/onesweep_plan.hpp"
#include "radix/onesweep_tuning.cuh"

#include <cstddef>

namespace gpusort::detail::radix_onesweep {

// The digits of every pass of one sort call, and its order (the ranks the
// first histogram compares to find sorted input).
template <class K, int MAX_PASSES> struct pass_digits {
  radix::digit_map<K> pass[MAX_PASSES];
  int passes;
  key_order<K> ord;
  // the rank of ordered bits (digit_map::ordered): the order's bit range
  GPUSORT_HD typename key_traits<K>::bits rank_of(typename key_traits<K>::bits o) const {
    return typename key_traits<K>::bits(typename key_traits<K>::bits(o >> ord.shift) & ord.mask);
  }
};

// What the first histogram learns besides the counts, per thread: the
// ordered keys' span (integers; as maxima of ~ordered and ordered), whether
// a key ranks below the one before it or above it, and whether a 32-aligned
// row of 32 keys ranks alike at both ends.
// With `classes` (shared counters, radix_msd's class map of doubles): each
// key's class, its top class_bits ordered bits, counted too (a warp's equal
// classes in one atomic: skewed classes would serialise).
template <class U> struct key_watch {
  U not_lo = 0, hi = 0;
  // some key ranks below the one before it; above it; a row of 32 keys
  // (32-aligned) whose first and last rank alike (in keys that never rise:
  // 32 equal keys, so runs of equal keys may exceed reverse_run_max)
  bool unsorted = false, rises = false, long_runs = false;
  // whether the order's flags can still change a plan: until the keys
  // have both fallen and risen (random keys: within their first row)
  __device__ __forceinline__ bool live() const { return !unsorted || !rises; }
  __device__ __forceinline__ void note(unsigned seen) {
    unsorted = unsorted || (seen & 1u);
    rises = rises || (seen & 2u);
    long_runs = long_runs || (seen & 4u);
  }
  unsigned* classes = nullptr;
  static constexpr int class_bits = 12;
};

// Shared counters of one block: [pass][digit] of ordered - base. Chunks of
// threads x I keys, strided over [begin, end); whole chunks load with no
// guard (a guard per item made ptxas keep a predicate per item, as in the
// pass kernel's load). With a watch (the first histogram): the span and
// the order of each key against the next one of the n keys (the next lane's,
// by a shuffle; a warp's last lane and partial chunks load it), and of each
// 32-aligned row's first key against its last (one vote a row).
// DIGITS false: the watch alone (radix_msd's class count, class_pass::alone).
// BYTES: every digit d.pass[p] is byte p of ordered - base (whole keys, the
// common case), so the digits are taken with constant shifts.
template <class T, class K, bool WATCH = false, bool DIGITS = true, bool BYTES = false>
__device__ __forceinline__ void count_digits(const typename key_traits<K>::bits* keys, std::size_t begin,
                                             std::size_t end, std::size_t stride,
                                             const pass_digits<K, T::max_passes>& d, unsigned* counts,
                                             int threads, typename key_traits<K>::bits base = 0,
                                             key_watch<typename key_traits<K>::bits>* watch = nullptr,
                                             std::size_t n = 0) {
  using U = typename key_traits<K>::bits;
  using W = std::conditional_t<sizeof(U) == 8, unsigned long long, unsigned>;  // shuffled width
  constexpr int I = T::hist_items;
  auto count = [&](U key) {
    const U o = d.pass[0].ordered(key);
    if constexpr (WATCH && radix::pass_key<K>::offsets) {
      const U not_o = U(~o);
      if (not_o > watch->not_lo) watch->not_lo = not_o;
      if (o > watch->hi) watch->hi = o;
    }
    if constexpr (WATCH)
      if (watch->classes) {  // block-uniform
        const unsigned e = unsigned(o >> (sizeof(U) * 8 - key_watch<U>::class_bits));
        const unsigned peers = __match_any_sync(__activemask(), e);
        if ((threadIdx.x & 31u) == unsigned(__ffs(peers) - 1)) atomicAdd(&watch->classes[e], unsigned(__popc(peers)));
      }
    if constexpr (DIGITS) {
      const U t = U(o - base);
      if constexpr (BYTES) {
        static_assert(T::radix_bits == 8 && T::max_passes == int(sizeof(U)), "a digit a byte");
#pragma unroll
        for (int p = 0; p < T::max_passes; ++p) atomicAdd(&counts[p * T::bins + (unsigned(t >> (8 * p)) & 0xFFu)], 1u);
      } else {
#pragma unroll
        for (int p = 0; p < T::max_passes; ++p)
          if (p < d.passes) atomicAdd(&counts[p * T::bins + d.pass[p].from_ordered(t)], 1u);
      }
    }
    return o;
  };
  auto rank_at = [&](std::size_t g) { return d.rank_of(d.pass[0].ordered(keys[g])); };
  const std::size_t chunk = std::size_t(I) * threads;
  for (std::size_t at = begin; at < end; at += stride) {
    const U* from = keys + at + threadIdx.x;
    if (end - at >= chunk) {
      U k[I];
#pragma unroll
      for (int i = 0; i < I; ++i) k[i] = from[std::size_t(i) * threads];
#pragma unroll
      for (int i = 0; i < I; ++i) {
        const U o = count(k[i]);
        // until the warp sees keys both fall and rise (random keys: within
        // their first row), then never again: the flags are the warp's
        // vote, so the branch and the shuffles stay warp-uniform. A row
        // (item i of the warp's lanes) is 32 consecutive, 32-aligned keys.
        if constexpr (WATCH)
          if (watch->live()) {
            const unsigned lane = threadIdx.x & 31u;
            const U r = d.rank_of(o);
            U next = U(__shfl_down_sync(0xFFFFFFFFu, W(r), 1));
            const U row_last = U(__shfl_sync(0xFFFFFFFFu, W(r), 31));
            const std::size_t g = at + threadIdx.x + std::size_t(i) * threads;
            bool has_next = true;  // the n-th key has none
            if (lane == 31u) {
              has_next = g + 1 < n;
              next = has_next ? rank_at(g + 1) : r;
            }
            const unsigned seen = unsigned(next < r) | unsigned(has_next && r < next) << 1 |
                                  unsigned(lane == 0u && row_last == r) << 2;
            watch->note(__reduce_or_sync(0xFFFFFFFFu, seen));
          }
      }
    } else {
      const unsigned left = unsigned(end - at);
#pragma unroll
      for (int i = 0; i < I; ++i)
        if (unsigned(i * threads) + threadIdx.x < left) {
          const U o = count(from[std::size_t(i) * threads]);
          if constexpr (WATCH) {
            const std::size_t g = at + threadIdx.x + std::size_t(i) * threads;
            if (watch->live()) {
              const U r = d.rank_of(o);
              unsigned seen = 0;
              if (g + 1 < n) {
                const U next = rank_at(g + 1);
                seen = unsigned(next < r) | unsigned(r < next) << 1;
              }
              if ((g & 31u) == 0 && g + 31 < n && rank_at(g + 31) == r) seen |= 4u;
              watch->note(seen);
            }
          }
        }
    }
  }
}

// Whether digit p of every pass is byte p of the ordered bits (an order over
// whole keys): count_digits' BYTES.
template <class T, class K> __device__ __forceinline__ bool whole_bytes(const pass_digits<K, T::max_passes>& d) {
  if constexpr (T::radix_bits != 8 || T::max_passes != int(sizeof(typename key_traits<K>::bits))) return false;
  bool whole = d.passes == T::max_passes;
#pragma unroll
  for (int p = 0; p < T::max_passes; ++p) whole = whole && d.pass[p].shift == unsigned(8 * p) && d.pass[p].mask == 0xFFu;
  return whole;
}

// What the first histogram of radix_msd's doubles counts, by the class
// map's flag *want (msd_classes.cuh): nothing of the classes (none); every
// key's class too where *want (with_digits); where *want, the classes and
// the watch alone, no digit, else nothing (alone: the levels then take the
// mapped keys' histogram, and LSD mode is ruled out); where not *want, the
// digits and the watch, else nothing (unless_mapped: the fallback after
// `alone`, for the ordered bits' plan).
enum class class_pass { none, with_digits, alone, unless_mapped };

// grid (blocks per portion, portions of portion_keys keys, the last one
// shorter): hist[pass][portion][digit] += counts. span: null, or (SECOND
// false) the first histogram's watch: also find the keys' span (integers)
// and whether they are sorted; or (SECOND) the offset histogram: the digits
// of ordered - span->base, every block leaving at once unless span->use.
// CLASSES (the first histogram of radix_msd's doubles, class_pass above):
// the classes go into class_count[4096] (zeroed by the caller).
template <class T, class K, bool SECOND = false, class_pass CLASSES = class_pass::none>
__global__ void __launch_bounds__(T::hist_threads)
histogram_kernel(const K* keys, std::size_t n, std::size_t portion_keys, pass_digits<K, T::max_passes> d,
                 unsigned* hist, key_span* span = nullptr, unsigned long long* class_count = nullptr,
                 const unsigned* want = nullptr) {
  using U = typename key_traits<K>::bits;
  constexpr bool counts_classes = CLASSES == class_pass::with_digits || CLASSES == class_pass::alone;
  static_assert(CLASSES == class_pass::none || !SECOND, "the classes are counted by the first histogram");
  constexpr int classes = 1 << key_watch<U>::class_bits;
  __shared__ unsigned counts[T::max_passes * T::bins];
  __shared__ unsigned long long block_span[2];
  __shared__ unsigned class_counts[counts_classes ? classes : 1];
  bool by_class = false;
  if constexpr (CLASSES == class_pass::alone) {
    if (*want == 0) return;  // grid-uniform
    d.passes = 0;            // no digit: the classes and the watch
  }
  if constexpr (CLASSES == class_pass::unless_mapped)
    if (*want != 0) return;  // grid-uniform
  if constexpr (counts_classes) {
    by_class = *want != 0;  // block-uniform
    if (by_class)
      for (int i = threadIdx.x; i < classes; i += T::hist_threads) class_counts[i] = 0;
  }
  U base = 0;
  if constexpr (SECOND) {
    if (!span->use) return;
    base = U(span->base);
  }
  const int words = d.passes * T::bins;
  for (int i = threadIdx.x; i < words; i += T::hist_threads) counts[i] = 0;
  if (threadIdx.x < 2) block_span[threadIdx.x] = 0;
  __syncthreads();
  const std::size_t portion = blockIdx.y, portions = gridDim.y;
  const std::size_t begin = portion * portion_keys;
  const std::size_t end = n - begin < portion_keys ? n : begin + portion_keys;
  constexpr std::size_t per_block = std::size_t(T::hist_threads) * T::hist_items;
  const U* from = reinterpret_cast<const U*>(keys);
  const std::size_t at = begin + blockIdx.x * per_block, stride = per_block * gridDim.x;
  bool unsorted = false, rises = false, long_runs = false;
  const bool bytes = whole_bytes<T>(d);  // grid-uniform
  if (!SECOND && span) {
    key_watch<U> w;
    if (by_class) w.classes = class_counts;
    constexpr bool digits = CLASSES != class_pass::alone;
    if (bytes) count_digits<T, K, true, digits, true>(from, at, end, stride, d, counts, T::hist_threads, 0, &w, n);
    else count_digits<T, K, true, digits>(from, at, end, stride, d, counts, T::hist_threads, 0, &w, n);
    if constexpr (radix::pass_key<K>::offsets) {
      atomicMax(&block_span[0], (unsigned long long)w.not_lo);
      atomicMax(&block_span[1], (unsigned long long)w.hi);
    }
    unsorted = w.unsorted;
    rises = w.rises;
    long_runs = w.long_runs;
  } else if (bytes) {
    count_digits<T, K, false, true, true>(from, at, end, stride, d, counts, T::hist_threads, base);
  } else {
    count_digits<T, K>(from, at, end, stride, d, counts, T::hist_threads, base);
  }
  unsorted = __syncthreads_or(unsorted) != 0;
  rises = __syncthreads_or(rises) != 0;
  long_runs = __syncthreads_or(long_runs) != 0;
  if (!SECOND && span) {
    if (radix::pass_key<K>::offsets && threadIdx.x < 2) {
      const unsigned long long v = block_span[threadIdx.x];
      if (v) atomicMax(threadIdx.x == 0 ? &span->not_lo : &span->hi, v);
    }
    if (threadIdx.x == 0 && unsorted) atomicOr(&span->unsorted, 1u);
    if (threadIdx.x == 0 && rises) atomicOr(&span->rises, 1u);
    if (threadIdx.x == 0 && long_runs) atomicOr(&span->long_runs, 1u);
  }
  if constexpr (counts_classes)
    if (by_class)
      for (int i = threadIdx.x; i < classes; i += T::hist_threads)
        if (class_counts[i]) atomicAdd(&class_count[i], static_cast<unsigned long long>(class_counts[i]));
  for (int i = threadIdx.x; i < words; i += T::hist_threads) {
    const int p = i / T::bins, b = i % T::bins;
    if (counts[i]) atomicAdd(&hist[(p * portions + portion) * T::bins + b], counts[i]);
  }
}

// One block of T::bins threads: bases and the launch plan (see the header).
// hist may be in global or shared memory.
// With span (the first histogram's watch): sorted input skips every pass
// (a copy, or nothing in place), non-increasing input with short runs of
// equal keys is reversed;
// otherwise, for an offset-capable order
// (offsets), the plan is made only if the offset does not pay, else
// span->use and span->base are set and the offset scan plans.
template <class T>
__device__ __forceinline__ void scan_and_plan(const unsigned* hist, unsigned long long* base, int passes,
                                              std::size_t portions, std::size_t n, slot_plan* plan, int slots,
                                              bool in_place, key_span* span = nullptr, bool offsets = false) {
  __shared__ unsigned long long warp_sums[T::bins / 32];
  __shared__ int skip[T::max_passes];
  __shared__ int offset;
  const int b = threadIdx.x;
  for (int p = 0; p < passes; ++p) {
    const unsigned* h = hist + std::size_t(p) * portions * T::bins + b;
    unsigned long long total = 0;
    for (std::size_t q = 0; q < portions; ++q) total += h[q * T::bins];
    base[std::size_t(p) * portions * T::bins + b] = block::block_exclusive_sum<T::bins>(total, warp_sums);
    const int constant = __syncthreads_or(total == n);
    if (b == 0) skip[p] = constant;
  }
  __syncthreads();
  if (b == 0) {
    offset = 0;
    if (span && !span->unsorted)  // stable sort of sorted keys: the identity
      for (int p = 0; p < passes; ++p) skip[p] = 1;
    // keys that fall and never rise, in runs of equal keys no longer than
    // reverse_run_max: the reversal
    const bool reversed = span && span->unsorted && !span->rises && !span->long_runs;
    if (span && offsets && !reversed) {
      int varying = 0;
      for (int p = 0; p < passes; ++p) varying += !skip[p];
      // not_lo holds ~least in the key's width
      const unsigned long long lo = ~span->not_lo & (~0ull >> (64 - T::max_passes * T::radix_bits));
      offset = span_passes(lo, span->hi, T::radix_bits) < varying;
      if (offset) {
        span->base = lo;
        span->use = 1;
      }
    }
    if (reversed) make_reverse_plan(slots, in_place, plan);
    else if (!offset) make_plan(skip, passes, slots, in_place, plan);
  }
}

// After histogram_kernel: one block of T::bins threads. span, offsets: as
// for scan_and_plan.
template <class T>
__global__ void __launch_bounds__(T::bins)
scan_kernel(const unsigned* hist, unsigned long long* base, int passes, std::size_t portions, std::size_t n,
            slot_plan* plan, int slots, bool in_place, key_span* span = nullptr, bool offsets = false) {
  scan_and_plan<T>(hist, base, passes, portions, n, plan, slots, in_place, span, offsets);
}

// After the offset histogram: the bases and plan of the offset digits, if
// the first scan chose them.
template <class T>
__global__ void __launch_bounds__(T::bins)
offset_scan_kernel(const unsigned* hist, unsigned long long* base, int passes, std::size_t portions, std::size_t n,
                   slot_plan* plan, int slots, bool in_place, const key_span* span) {
  if (!span->use) return;
  scan_and_plan<T>(hist, base, passes, portions, n, plan, slots, in_place);
}

// Few keys (one portion): histogram and scan in one block, one launch.
template <class T, class K>
__global__ void __launch_bounds__(T::bins)
histogram_scan_kernel(const K* keys, std::size_t n, pass_digits<K, T::max_passes> d, unsigned long long* base,
                      slot_plan* plan, int slots, bool in_place) {
  __shared__ unsigned counts[T::max_passes * T::bins];
  const int words = d.passes * T::bins;
  for (int i = threadIdx.x; i < words; i += T::bins) counts[i] = 0;
  __syncthreads();
  constexpr std::size_t per_iter = std::size_t(T::bins) * T::hist_items;
  count_digits<T, K>(reinterpret_cast<const typename key_traits<K>::bits*>(keys), 0, n, per_iter, d, counts,
                     T::bins);
  __syncthreads();
  scan_and_plan<T>(counts, base, d.passes, 1, n, plan, slots, in_place);
}

}  // namespace gpusort::detail::radix_onesweep
