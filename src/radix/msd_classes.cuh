// radix_msd's class map for doubles, the device side (msd_classes.hpp has
// the map and the reference for its table). Before the plan, over a sort
// of doubles in the order's full range:
//   gate    one block: whether a sample's first level gains from the map
//           (class_gate); `ok` says so, and the next steps' map work is
//           skipped where not
//   count   every key's class (the top 12 ordered bits), counted by a
//           first histogram of the classes alone (onesweep_histogram.cuh:
//           class_pass::alone), with the sorted-input watch
//   table   one block: the codes by water-filling (a search of the
//           threshold, one probe a warp), or none (more than 256 classes):
//           `ok` cleared
//   hist    the top three digits' counts of the mapped key c, in one read:
//           the levels' first histogram, from which the plan takes their
//           skips, shares and level 0's counts
//   drop    one block: the map is dropped where one of those digits is
//           every key's
// Where the map is not taken (the gate's choice, more than 256 classes, or
// dropped), the ordered bits' first histogram runs then (class_pass::
// unless_mapped), and the plan takes it, LSD mode included; where it is
// taken, the ordered bits' digits are never counted and LSD mode is out.
// Then the levels' histogram and pass kernels take the digits of c
// (class_pass_key: on level 0 by the table, below it by the bucket's lift,
// a shift); the local sort stays on the ordered bits: the map is
// increasing, and a run's remaining digits cover every ordered bit that
// varies in it (docs/perf/radix.md).
#pragma once

#include "radix/digit.cuh"
#include "radix/msd_classes.hpp"
#include "radix/msd_top_digits.cuh"

#include <gpusort/detail/block/scan.cuh>

#include <cstddef>
#include <cstdint>

namespace gpusort::detail::radix_msd {

// The class map's flag (ok[0]): 0 not taken, 1 taken, class_nan_free
// taken and, under NaNs largest, no key a NaN. Every reader but the passes'
// choice of instance tests it against 0.
constexpr unsigned class_nan_free = 2;

// radix::pass_key's interface for the levels' passes over doubles: keys
// carried twiddled (so stored as they came), each digit taken from the
// mapped key of the folded, flipped bits: by the table on the first level
// (the code), by the tile's lift below it (for_tile).
// NanFold: false where the order ranks NaNs by their bits (CUB's): the fold
// is then the -0.0 one alone, as radix::pass_key's.
template <class K, bool NanFold> struct class_pass_key {
  using traits = key_traits<K>;
  using bits = typename traits::bits;
  static_assert(sizeof(bits) == 8 && traits::is_float, "the class map is for doubles");
  const radix::digit_map<K>& digit;  // c's digit: shift and mask on c; the fold and the flip
  const std::uint16_t* entry;
  bool ok;
  bool table;         // ok, and the digit is the code: by the table
  unsigned lift = 0;  // else the digit is ((o << lift) >> shift)'s: 0 where the map is not taken
  static constexpr bool dear_digit = true;  // the pass makes each key's digit once (onesweep_pass.cuh)

  __device__ static bits carry(bits raw) { return radix::digit_map<K>::carry(raw); }
  __device__ static bits uncarry(bits c) { return radix::digit_map<K>::uncarry(c); }
  __device__ unsigned of_carried(bits c) const {
    const std::uint64_t o = std::uint64_t(digit.template ordered_carried<NanFold>(c));
    if (table) return unsigned(class_key(o, entry) >> digit.shift) & digit.mask;
    return unsigned((o << lift) >> digit.shift) & digit.mask;
  }
  // The form for one tile, whose first key is `raw`: below the first level
  // (the digit under the code) a tile lies in one bucket, so one class,
  // and takes its lift.
  __device__ class_pass_key for_tile(bits raw) const {
    class_pass_key f = *this;
    if (ok && !table) f.lift = class_lift(std::uint64_t(digit.template ordered_carried<NanFold>(carry(raw))), entry);
    return f;
  }
  __device__ static bits carried_pad(bits pad) { return radix::digit_map<K>::carry(pad); }
  // the form of a pass's arguments (radix_onesweep::pass_args: key_table)
  template <class Args> __device__ static class_pass_key of(const Args& a) {
    const bool ok = *a.key_table_ok != 0;
    const bool code = a.digit.shift + class_codes::code_bits > class_codes::mantissa_bits + 4;
    return {a.digit, static_cast<const std::uint16_t*>(a.key_table), ok, ok && code};
  }
  // Under NaNs largest both instances are launched for a pass and one
  // leaves at once (grid-uniform): the table's flag is class_nan_free where
  // the map is taken and no key folds as a NaN (class_table_kernel); then
  // the fold changes no digit and the instance without it sorts. Under
  // CUB's order the instance without the fold is launched alone.
  template <class Args> __device__ static bool leaves(const Args& a) {
    if constexpr (NanFold) return *a.key_table_ok == class_nan_free;
    else return a.digit.nan_span != bits(~bits(0)) && *a.key_table_ok != class_nan_free;
  }
};

// make_class_codes's result from one block of THREADS: c[classes] in shared
// memory, thread t owning classes / THREADS consecutive classes. The
// occupied classes' counts are first gathered into one list (at most 256),
// then the smallest fitting threshold is searched for with one probe a warp
// at a time: each round splits (lo, hi] into warps + 1 parts, a warp sums
// the codes at its probe over the list (8 classes a lane, no block sum), and
// one barrier later every thread takes the first probe that fits as hi and
// the one before it as lo. The predicate (codes at t <= 256) only turns true
// as t grows, so this finds the bisection's threshold in log base 9 of n
// rounds instead of log base 2 of n block sums over every class (2^27 keys:
// 9 rounds against 27; the table kernel took 94 us, the gate 84, on an
// H200). False (block-uniform) where no table is made.
template <int THREADS>
__device__ bool block_class_codes(const unsigned long long* c, std::uint16_t* entry, unsigned long long* sums) {
  using C = class_codes;
  constexpr int mine = C::classes / THREADS;
  constexpr int warps = THREADS / 32;
  static_assert(C::classes % THREADS == 0, "whole classes a thread");
  __shared__ unsigned long long list[C::codes];  // the occupied classes' counts, 0 past them
  __shared__ bool fits[warps];
  const int first = int(threadIdx.x) * mine;
  const unsigned lane = threadIdx.x & 31u, w = threadIdx.x / 32;
  unsigned long long keys = 0, n = 0, occupied = 0;
  for (int i = 0; i < mine; ++i) {
    keys += c[first + i];
    occupied += c[first + i] != 0;
  }
  block::block_exclusive_sum<THREADS>(keys, sums, n);
  __syncthreads();
  unsigned long long classes = 0;
  unsigned long long slot = block::block_exclusive_sum<THREADS>(occupied, sums, classes);
  __syncthreads();
  if (classes == 0 || classes > unsigned(C::codes)) return false;
  for (int i = 0; i < mine; ++i)
    if (c[first + i] != 0) list[slot++] = c[first + i];
  for (int k = int(classes) + int(threadIdx.x); k < C::codes; k += THREADS) list[k] = 0;
  __syncthreads();
  // probe j (1 .. warps) of (lo, hi]: lo + ceil(j (hi - lo) / (warps + 1)),
  // in (lo, hi] and increasing in j
  const auto probe = [](unsigned long long lo, unsigned long long hi, unsigned j) {
    return lo + ((hi - lo) * j + warps) / (warps + 1);
  };
  unsigned long long lo = 0, hi = n;  // block-uniform; codes at hi fit, at lo not (or lo = 0)
  while (hi - lo > 1) {
    const unsigned long long t = probe(lo, hi, w + 1);
    unsigned codes = 0;
    for (int k = int(lane); k < C::codes; k += 32)
      if (list[k] != 0) codes += 1u << class_code_bits(list[k], t);
    codes = block::warp_sum(codes);  // at most 256 classes of 256 codes
    if (lane == 0) fits[w] = codes <= unsigned(C::codes);
    __syncthreads();
    unsigned long long below = lo, above = hi;
    for (unsigned j = 0; j < unsigned(warps); ++j) {
      const unsigned long long p = probe(lo, hi, j + 1);
      if (fits[j]) {
        above = p;
        break;
      }
      below = p;
    }
    lo = below;
    hi = above;
    __syncthreads();  // the next round's flags
  }
  unsigned long long own = 0;
  for (int i = 0; i < mine; ++i)
    if (c[first + i] != 0) own += 1ull << class_code_bits(c[first + i], hi);
  unsigned long long base = block::block_exclusive_sum<THREADS>(own, sums);
  for (int i = 0; i < mine; ++i) {
    const unsigned b = c[first + i] != 0 ? class_code_bits(c[first + i], hi) : 0u;
    const unsigned at = base < unsigned(C::codes) ? unsigned(base) : unsigned(C::codes - 1);
    entry[first + i] = std::uint16_t(at << 4 | b);
    if (c[first + i] != 0) base += 1ull << b;
  }
  // pads (ordered all ones, the last class) rank above every key
  if (first + mine == C::classes && c[C::classes - 1] == 0) entry[C::classes - 1] = std::uint16_t((C::codes - 1) << 4);
  return true;
}

// The gate: whether the map is worth its work (a read of the keys for the
// class count, the table, and a read for the mapped histogram: about 1.2 ms
// for 2^27 doubles on an H100; the ordered bits' first histogram is then not
// made). One block maps a sample
// of class_gate::sample keys by the codes of the sample's own classes and
// compares the largest bucket of the first level, mapped and not: the map
// pays where the ordered bits' top digit is skewed (normal, [0, 1),
// integers and grid values held in doubles: a few buckets hold most keys)
// and the mapped one is not; it does not where the keys take many classes
// (random bits: no table) or few values (each value is one code's keys, so
// mapping splits nothing). Sets ok[0] (the later kernels' flag) where it
// pays.
struct class_gate {
  static constexpr int sample = 4096;
  static constexpr int threads = 256;
  static constexpr unsigned ratio = 4;  // mapped largest bucket x ratio <= the ordered bits' largest
};

template <class K>
__global__ void __launch_bounds__(class_gate::threads)
class_gate_kernel(const typename key_traits<K>::bits* keys, std::size_t n, radix::digit_map<K> digit, unsigned* ok) {
  using C = class_codes;
  using G = class_gate;
  __shared__ unsigned long long c[C::classes];
  __shared__ std::uint16_t entry[C::classes];
  __shared__ unsigned long long sums[G::threads / 32];
  __shared__ unsigned top[2][256];
  __shared__ unsigned largest[2];
  for (int i = threadIdx.x; i < C::classes; i += G::threads) c[i] = 0;
  for (int i = threadIdx.x; i < 2 * 256; i += G::threads) top[i / 256][i % 256] = 0;
  if (threadIdx.x < 2) largest[threadIdx.x] = 0;
  __syncthreads();
  const std::size_t taken = n < std::size_t(G::sample) ? n : std::size_t(G::sample);
  const std::size_t stride = n / taken;
  // a thread's sampled keys, all loaded before any is counted (one DRAM
  // latency, not one a key), held for both counts
  constexpr int mine = G::sample / G::threads;
  static_assert(G::sample % G::threads == 0, "whole samples a thread");
  std::uint64_t o[mine];
#pragma unroll
  for (int j = 0; j < mine; ++j) {
    const std::size_t i = threadIdx.x + std::size_t(j) * G::threads;
    o[j] = i < taken ? std::uint64_t(digit.ordered(keys[i * stride + stride / 2])) : 0;
  }
#pragma unroll
  for (int j = 0; j < mine; ++j)
    if (threadIdx.x + std::size_t(j) * G::threads < taken) atomicAdd(&c[unsigned(o[j] >> C::mantissa_bits)], 1ull);
  __syncthreads();
  if (!block_class_codes<G::threads>(c, entry, sums)) return;  // ok stays 0 (zeroed by the caller)
  __syncthreads();
#pragma unroll
  for (int j = 0; j < mine; ++j)
    if (threadIdx.x + std::size_t(j) * G::threads < taken) {
      atomicAdd(&top[0][unsigned(o[j] >> 56)], 1u);
      atomicAdd(&top[1][unsigned(class_key(o[j], entry) >> 56)], 1u);
    }
  __syncthreads();
  for (int i = threadIdx.x; i < 2 * 256; i += G::threads) atomicMax(&largest[i / 256], top[i / 256][i % 256]);
  __syncthreads();
  if (threadIdx.x == 0) *ok = largest[1] * G::ratio <= largest[0] ? 1u : 0u;
}

// One block of THREADS: the table from every key's count, where the gate
// chose the map; ok[0] is cleared where it cannot be made (more than 256
// classes occupied, which the sample missed). nan_class: msd_classes.hpp's
// (under NaNs largest the class every NaN folds into; `classes` otherwise):
// where it holds no key, ok[0] becomes class_nan_free, and the passes take
// the instance without the fold (class_pass_key::leaves).
template <int THREADS>
__global__ void __launch_bounds__(THREADS)
class_table_kernel(const unsigned long long* count, std::uint16_t* entry, unsigned* ok, unsigned nan_class) {
  using C = class_codes;
  if (*ok == 0) return;  // block-uniform: read before any thread writes it
  __shared__ unsigned long long c[C::classes];
  __shared__ unsigned long long sums[THREADS / 32];
  for (int i = threadIdx.x; i < C::classes; i += THREADS) c[i] = count[i];
  __syncthreads();
  const bool made = block_class_codes<THREADS>(c, entry, sums);
  if (threadIdx.x == 0) {
    if (!made) *ok = 0;
    else if (nan_class < unsigned(C::classes) && c[nan_class] == 0) *ok = class_nan_free;
  }
}

// One block of THREADS (at least 256): the map is dropped (ok cleared)
// where one of the mapped keys' three counted digits is every key's (keys in
// a sliver of one class: the map splits nothing there), before the ordered
// bits' histogram, which runs only where the map is not taken.
template <int THREADS>
__global__ void __launch_bounds__(THREADS)
class_drop_kernel(const unsigned* hist, std::size_t n, int passes, unsigned* ok) {
  static_assert(THREADS >= 256, "a thread a digit");
  if (*ok == 0) return;  // block-uniform
  bool all = false;
  for (int j = 0; j < 3 && j < passes; ++j)
    all |= threadIdx.x < 256 && hist[(passes - 1 - j) * 256 + threadIdx.x] == n;
  if (__syncthreads_or(all) && threadIdx.x == 0) *ok = 0;
}

// The levels' first histogram of the mapped keys (msd_top_digits.cuh: the
// top three digits; the drop kernel above reads them), where the map is
// taken; hist zeroed by the caller.
template <class K>
__global__ void __launch_bounds__(256)
class_hist_kernel(const typename key_traits<K>::bits* keys, std::size_t n, radix::digit_map<K> digit,
                  const std::uint16_t* entry, const unsigned* ok, unsigned* hist) {
  __shared__ std::uint16_t table[class_codes::classes];
  if (*ok == 0) return;  // grid-uniform: the plan takes the ordered bits' histogram
  for (int i = threadIdx.x; i < class_codes::classes; i += 256) table[i] = entry[i];
  __syncthreads();
  count_top_digits(keys, n, 7,
                   [&](typename key_traits<K>::bits k) { return class_key(std::uint64_t(digit.ordered(k)), table); },
                   hist);
}

}  // namespace gpusort::detail::radix_msd
