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
#include "radix/onesweep_values.cuh"

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

// Rows a chunk may hold for key_watch's one vote a chunk (a bit a row).
constexpr int watch_rows = 30;

// What the first histogram learns besides the counts, per thread: the
// ordered keys' span (integers; as maxima of ~ordered and ordered), whether
// a key ranks below the one before it or above it, and whether a 32-aligned
// row of 32 keys ranks alike.
// With `classes` (shared counters, radix_msd's class map of doubles): each
// key's class, its top class_bits ordered bits, counted too (a warp's equal
// classes in one atomic: skewed classes would serialise).
template <class U> struct key_watch {
  U not_lo = 0, hi = 0;
  // some key ranks below the one before it; above it; a row of 32 keys
  // (32-aligned) that rank alike (partial chunks test its first and last
  // key, the same in keys that never rise), so runs of equal keys may
  // exceed reverse_run_max
  bool unsorted = false, rises = false, long_runs = false;
  // whether the order's flags can still change a plan: until the keys
  // have both fallen and risen (random keys: within their first chunk)
  __device__ __forceinline__ bool live() const { return !unsorted || !rises; }
  __device__ __forceinline__ void note(unsigned seen) {
    unsorted = unsorted || (seen & 1u);
    rises = rises || (seen & 2u);
    long_runs = long_runs || (seen & 4u);
  }
  // A warp's rows of one chunk, one vote for all of them: bit `row` (below
  // watch_rows) says that some lane's key and the next key of the row rank
  // apart; fell and rose are the order flags.
  static constexpr unsigned fell = 1u << 30, rose = 1u << 31;
  __device__ __forceinline__ static unsigned order_bits(U r, U next, unsigned lane, int row) {
    return (next < r ? fell : 0u) | (r < next ? rose : 0u) | (lane != 31u && r != next ? 1u << row : 0u);
  }
  // `rows` rows voted: a row with no bit is 32 equal keys
  __device__ __forceinline__ void note_rows(unsigned seen, int rows) {
    const unsigned all = (1u << rows) - 1u;
    unsorted = unsorted || (seen & fell);
    rises = rises || (seen & rose);
    long_runs = long_runs || (seen & all) != all;
  }
  unsigned* classes = nullptr;
  static constexpr int class_bits = 12;
};

// Shared counters of one block: [pass][digit] of ordered - base. Chunks of
// threads x I keys, strided over [begin, end); whole chunks load with no
// guard (a guard per item made ptxas keep a predicate per item, as in the
// pass kernel's load). With a watch (the first histogram): the span, and
// until the order's flags are settled, the order of each key against the
// next one of the n keys (a shuffle; the key after a warp's rows, and those
// of partial chunks, are loaded) and whether a 32-aligned row holds one
// value (one vote a warp a chunk).
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
    // the class map's top class_bits (radix_msd's doubles; keys narrower
    // than that never take it)
    if constexpr (WATCH && sizeof(U) * 8 >= key_watch<U>::class_bits)
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
    if (end - at >= chunk) {
      // warp-striped (block/striped.cuh; threads is the block's size): a
      // warp's item i is the row of 32 keys after its item i - 1, so the key
      // after a row's last lane is the next row's lane 0, one shuffle away
      U k[I];
#pragma unroll
      for (int i = 0; i < I; ++i) k[i] = keys[at + block::striped_slot<I>(i)];
      // The watch, until the warp has seen keys both fall and rise (random
      // keys: their first chunk), then never again; its flags are the
      // warp's, so the branch stays warp-uniform and the chunks after it
      // take the plain counting loop.
      bool watching = false;
      if constexpr (WATCH) watching = watch->live();
      if (watching) {
        static_assert(I <= watch_rows, "a bit a row");
        const unsigned lane = block::lane_id();
        // the key after the warp's last row: loaded with the chunk
        const std::size_t after = at + block::striped_slot<I>(I - 1) + 1;
        const bool has_after = lane == 31u && after < n;
        const U after_key = has_after ? keys[after] : U(0);
        U r_prev = 0, v_prev = 0;
        unsigned seen = 0;
#pragma unroll
        for (int i = 0; i < I; ++i) {
          const U r = d.rank_of(count(k[i]));
          const U v = U(__shfl_sync(0xFFFFFFFFu, W(r), (lane + 1u) & 31u));  // lane 31: the next row's lane 0
          if (i > 0) seen |= key_watch<U>::order_bits(r_prev, lane == 31u ? v : v_prev, lane, i - 1);
          r_prev = r;
          v_prev = v;
        }
        const U last_next = lane != 31u ? v_prev : has_after ? d.rank_of(d.pass[0].ordered(after_key)) : r_prev;
        seen |= key_watch<U>::order_bits(r_prev, last_next, lane, I - 1);
        watch->note_rows(__reduce_or_sync(0xFFFFFFFFu, seen), I);
      } else {
#pragma unroll
        for (int i = 0; i < I; ++i) count(k[i]);
      }
    } else {
      const U* from = keys + at + threadIdx.x;
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
// presorted: the host launches the presorted kernel before the passes
// (plan[slots]: onesweep_plan.hpp); the fused launch of few keys does not.
template <class T>
__device__ __forceinline__ void scan_and_plan(const unsigned* hist, unsigned long long* base, int passes,
                                              std::size_t portions, std::size_t n, slot_plan* plan, int slots,
                                              bool in_place, bool presorted, key_span* span = nullptr,
                                              bool offsets = false, bool few_values = false,
                                              int* skip_out = nullptr) {
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
    if (b == 0 && skip_out) skip_out[p] = constant;
  }
  __syncthreads();
  if (b == 0) {
    offset = 0;
    if (span && !span->unsorted)  // stable sort of sorted keys: the identity
      for (int p = 0; p < passes; ++p) skip[p] = 1;
    // keys that fall and never rise, in runs of equal keys no longer than
    // reverse_run_max: the reversal
    const bool reversed = span && span->unsorted && !span->rises && !span->long_runs;
    int varying = 0;  // the passes the digits' plan makes
    for (int p = 0; p < passes; ++p) varying += !skip[p];
    // not_lo holds ~least in the key's width
    const unsigned long long lo =
        span && offsets ? ~span->not_lo & (~0ull >> (64 - T::max_passes * T::radix_bits)) : 0;
    if (span && offsets && !reversed) {
      const int spanned = span_passes(lo, span->hi, T::radix_bits);
      offset = spanned < varying;
      if (offset) varying = spanned;
    }
    if (reversed) {
      make_reverse_plan(slots, in_place, plan);
    } else if (few_values && varying >= 2) {  // keys of few values: one counting pass
      make_values_plan(slots, in_place, plan);
    } else if (offset) {
      span->base = lo;
      span->use = 1;
    } else {
      make_plan(skip, passes, slots, in_place, plan);
      if (presorted) hoist_lone_copy(slots, plan);
    }
  }
}

// After histogram_kernel: one block of T::bins threads. span, offsets: as
// for scan_and_plan. values (one portion; else null): the plan of the
// counting pass of keys of few values, found from a sample of `keys` and
// the digits d (onesweep_values.cuh).
template <class T, class K>
__global__ void __launch_bounds__(T::bins)
scan_kernel(const unsigned* hist, unsigned long long* base, int passes, std::size_t portions, std::size_t n,
            slot_plan* plan, int slots, bool in_place, key_span* span, bool offsets,
            const typename key_traits<K>::bits* keys, pass_digits<K, T::max_passes> d,
            value_table<value_word<typename key_traits<K>::bits>>* values) {
  const bool few = values && place_values<T::bins, T, K>(keys, n, d, hist, values);  // block-uniform
  if (values && threadIdx.x == 0) {
    values->passes = passes;
    values->slots = slots;
    values->in_place = in_place;
  }
  scan_and_plan<T>(hist, base, passes, portions, n, plan, slots, in_place, true, span, offsets, few,
                   values ? values->skip : nullptr);
}

// After the offset histogram: the bases and plan of the offset digits, if
// the first scan chose them. presorted: as for scan_and_plan (radix_msd's
// LSD mode has no presorted launch).
template <class T>
__global__ void __launch_bounds__(T::bins)
offset_scan_kernel(const unsigned* hist, unsigned long long* base, int passes, std::size_t portions, std::size_t n,
                   slot_plan* plan, int slots, bool in_place, const key_span* span, bool presorted) {
  if (!span->use) return;
  scan_and_plan<T>(hist, base, passes, portions, n, plan, slots, in_place, presorted);
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
  scan_and_plan<T>(counts, base, d.passes, 1, n, plan, slots, in_place, false);
}

}  // namespace gpusort::detail::radix_onesweep
