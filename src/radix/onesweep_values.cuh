// radix_onesweep's plan for keys of few values: a counting sort in one pass.
//
// Keys that take few distinct values (status codes, flags, categories: the
// bench's few_unique holds 16 random 32-bit values) still vary in every
// digit, so the LSD plan makes a pass per digit: 4 passes of 4-byte keys,
// 68 bytes a pair. But their stable sort is one counting sort by each key's
// place among the values: the histogram's read and one pass, 4 + 16 = 20
// bytes a pair.
//
//   scan   (scan_kernel, one block) samples value_samples keys across the
//          input and gathers their ranks (key_order::rank: what the sort
//          compares) in a hash set. Where they are at most value_claims
//          values, and one digit p of the plan tells them (and the pads'
//          rank) apart, the first histogram's counts of digit p are the
//          values' counts; where those sum to n, every key's digit p is one
//          of the values'. Then each value's place (ranks ascending), each
//          place's first output, and the table digit p -> place; the plan
//          is the counting pass (make_values_plan).
//   pass   (values_kernel, onesweep_presorted.cuh) one onesweep pass whose
//          digit is the key's place, by the table (values_key), over tiles
//          taken by a persistent grid. A key whose rank is not its place's
//          value (a value the sample missed, whose digit p is a sampled
//          value's) is a miss: the pass's last block then rewrites the plan
//          to the LSD passes over the input, which the pass launches run.
// Equal ranks share a place, so the pass (stable) gives CUB's order bit for
// bit, floats' -0.0 and NaN folds, bit ranges and descending order included.
// One portion only (n < 2^30): the look-back's counts stay in their field.
//
// The sample's set: open addressing with linear probes over value_slots
// words, Fibonacci hashing (Knuth, TAOCP vol. 3, 6.4). A word of 0 is
// empty, so the rank 0 has a slot of its own. A thread reserves a word
// (used < value_claims) before it claims one with a compare-and-swap, so the
// set is never more than half full and every probe ends.
#pragma once

#include <gpusort/detail/block/scan.cuh>
#include <gpusort/detail/key_traits.hpp>
#include "radix/digit.cuh"

#include <cstddef>
#include <cstdint>
#include <type_traits>

namespace gpusort::detail::radix_onesweep {

constexpr int values_max = 256;      // places: one pass of 8-bit digits
constexpr int value_slots = 512;     // the set's words; the rank 0 is counted at [value_slots]
// claimed words: with the rank 0, at most values_max - 1 values, so the last
// place is free for the pads of a partial tile
constexpr int value_claims = values_max - 2;
constexpr int value_samples = 4096;  // keys the scan samples
constexpr int value_digits_max = 8;  // passes of 8-byte keys

// The word a rank is hashed as (keys of 1 to 4 bytes: 32 bits).
template <class U> using value_word = std::conditional_t<sizeof(U) <= 4, unsigned, unsigned long long>;

template <class W> GPUSORT_HD unsigned value_hash(W r) {
  if constexpr (sizeof(W) == 8) return unsigned((r * 0x9E3779B97F4A7C15ull) >> 55);
  else return unsigned(r * 0x9E3779B9u) >> 23;
}

// The plan of the counting pass (scratch, zeroed with the histograms).
template <class W> struct value_table {
  W value[values_max];                   // each place's rank; the last: the pads'
  unsigned long long base[values_max];   // first output of each place
  unsigned char place[values_max];       // [digit] -> place (the last where no value has it)
  unsigned shift, mask;                  // the digit of a rank: (rank >> shift) & mask
  // the LSD plan, for a miss: each pass's digit constant, the plan's shape
  int skip[value_digits_max];
  int passes, slots, in_place;
  unsigned miss;  // (the pass) a key whose rank is no value
  unsigned done;  // (the pass) its blocks that have finished
};

// Counts c keys of rank r at (key, count, used, closed) in shared memory.
// False where the set is closed, or closes now. Every access to the words
// and the flags is atomic: threads probe while others claim.
template <class W>
__device__ __forceinline__ bool count_value(W* key, unsigned* count, unsigned* used, unsigned* closed, W r,
                                            unsigned c) {
  unsigned h = value_slots;
  if (r != 0) {
    h = value_hash(r);
    for (;;) {
      W k = atomicAdd(&key[h], W(0));
      if (k == 0) {
        if (atomicAdd(closed, 0u)) return false;
        if (atomicAdd(used, 1u) >= unsigned(value_claims)) {
          atomicExch(closed, 1u);
          return false;
        }
        k = atomicCAS(&key[h], W(0), r);
        if (k != 0) atomicSub(used, 1u);  // another thread claimed the word first
      }
      if (k == 0 || k == r) break;
      h = (h + 1) & (value_slots - 1);
    }
  }
  atomicAdd(&count[h], c);
  return true;
}

// The sample's set, in shared memory.
template <class W> struct value_set {
  W key[value_slots];
  unsigned count[value_slots + 1];
  unsigned used, closed;
};

// The scan's part (one block of THREADS, after the first histogram): the
// sample, the digit, the places and bases (see the header). hist: the
// first histogram's counts, [pass][digit] (one portion); d: the passes'
// digits and the order (pass_digits). Returns, block-uniformly, whether the
// counting pass can be the plan.
template <int THREADS, class T, class K, class D>
__device__ bool place_values(const typename key_traits<K>::bits* keys, std::size_t n, const D& d,
                             const unsigned* hist, value_table<value_word<typename key_traits<K>::bits>>* t) {
  using W = value_word<typename key_traits<K>::bits>;
  constexpr int warps = THREADS / 32, per = (value_slots + 1 + THREADS - 1) / THREADS;
  static_assert(THREADS >= values_max && per <= 3 && value_samples % THREADS == 0, "a value a thread");
  static_assert(T::max_passes <= value_digits_max && T::bins == values_max, "8-bit digits");
  __shared__ value_set<W> set;
  __shared__ W value[values_max];  // the values, then the pads' rank
  __shared__ unsigned long long sums[warps];
  __shared__ unsigned bits[warps][values_max / 32];
  __shared__ int digit;
  for (int i = threadIdx.x; i < value_slots; i += THREADS) set.key[i] = 0;
  for (int i = threadIdx.x; i <= value_slots; i += THREADS) set.count[i] = 0;
  if (threadIdx.x == 0) {
    set.used = set.closed = 0;
    digit = T::max_passes;
  }
  __syncthreads();
  for (int i = 0; i < value_samples / THREADS; ++i) {
    const std::size_t j = std::size_t(i * THREADS + int(threadIdx.x));
    const std::size_t at = j * n / value_samples;  // n < 2^30: no overflow
    if (!count_value(set.key, set.count, &set.used, &set.closed, W(d.rank_of(d.pass[0].ordered(keys[at]))), 1u)) break;
  }
  __syncthreads();
  if (set.closed) return false;  // block-uniform
  // the values, in a list
  unsigned mine = 0;
  for (int j = 0; j < per; ++j) {
    const int i = int(threadIdx.x) * per + j;
    mine += i <= value_slots && set.count[i] != 0;
  }
  unsigned long long m = 0;
  unsigned at = unsigned(block::block_exclusive_sum<THREADS>((unsigned long long)mine, sums, m));
  if (m < 2) return false;  // block-uniform
  for (int j = 0; j < per; ++j) {
    const int i = int(threadIdx.x) * per + j;
    if (i <= value_slots && set.count[i] != 0) value[at++] = i == value_slots ? W(0) : set.key[i];
  }
  const W pad = W(d.ord.mask);
  __syncthreads();
  // a digit in which the values and the pads' rank all differ: warp w tries digit w
  const int v = int(threadIdx.x);
  const unsigned w = threadIdx.x / 32, lane = threadIdx.x & 31u;
  if (int(w) < d.passes) {
    const unsigned shift = d.pass[w].shift - d.ord.shift, mask = d.pass[w].mask;
    for (int i = int(lane); i < values_max / 32; i += 32) bits[w][i] = 0;
    __syncwarp();
    bool clash = false, pad_is_value = false;
    for (int i = int(lane); i < int(m); i += 32) {
      const unsigned f = unsigned(value[i] >> shift) & mask;
      clash = clash || (atomicOr(&bits[w][f / 32], 1u << (f % 32)) >> (f % 32) & 1u);
      pad_is_value = pad_is_value || value[i] == pad;
    }
    __syncwarp();
    pad_is_value = __any_sync(~0u, pad_is_value);
    const unsigned f = unsigned(pad >> shift) & mask;
    if (!pad_is_value && lane == 0) clash = clash || (bits[w][f / 32] >> (f % 32) & 1u);
    if (!__any_sync(~0u, clash) && lane == 0) atomicMin(&digit, int(w));
  }
  __syncthreads();
  if (digit >= d.passes) return false;  // block-uniform
  const unsigned shift = d.pass[digit].shift - d.ord.shift, mask = d.pass[digit].mask;
  // each value's count is its digit's; they must account for every key
  const unsigned* h = hist + std::size_t(digit) * T::bins;
  const unsigned long long c = v < int(m) ? h[unsigned(value[v] >> shift) & mask] : 0u;
  unsigned long long all = 0;
  block::block_exclusive_sum<THREADS>(c, sums, all);
  if (all != n) return false;  // block-uniform
  // places: how many values rank below each (all differ); the bases by place
  unsigned place = 0;
  if (v < int(m))
    for (int u = 0; u < int(m); ++u) place += value[u] < value[v];
  __syncthreads();
  unsigned long long* count = reinterpret_cast<unsigned long long*>(set.key);  // the set is spent
  static_assert(sizeof(set.key) >= values_max * sizeof(unsigned long long), "room for the counts");
  if (v < int(m)) {
    count[place] = c;
    t->value[place] = value[v];
  }
  if (v < values_max) t->place[v] = static_cast<unsigned char>(values_max - 1);
  __syncthreads();
  if (v < int(m)) t->place[unsigned(value[v] >> shift) & mask] = static_cast<unsigned char>(place);
  if (v == values_max - 1) t->value[v] = pad;  // the pads' place (no value's: at most values_max - 1)
  const unsigned long long first = block::block_exclusive_sum<THREADS>(v < int(m) ? count[v] : 0ull, sums, all);
  if (v < values_max) t->base[v] = first;
  if (threadIdx.x == 0) {
    t->shift = shift;
    t->mask = mask;
  }
  return true;
}

// The table as the counting pass holds it in shared memory: after the pass
// kernel's own, at a constant offset from the dynamic shared memory, so
// that a key's lookup needs no register for where it is.
template <class W> struct value_lookup {
  unsigned char place[values_max];  // [digit]
  W value[values_max];              // [place]
  unsigned shift, mask;
  unsigned miss;
};

// radix::pass_key's interface for the counting pass: keys carried as the
// passes carry them; the digit is the key's place, by the table (a
// value_lookup at `at` bytes of the dynamic shared memory). A key whose
// rank is not its place's value sets miss. The pads of a partial tile take
// the last place, whose value is their rank: they sort behind every real
// key.
template <class K, std::size_t at> struct values_key {
  using traits = key_traits<K>;
  using bits = typename traits::bits;
  using W = value_word<bits>;
  const key_order<K>& ord;
  // the pass makes each key's digit once, four to a register (onesweep_pass.cuh):
  // measured 6% faster than a lookup each time the ranking reads a digit
  static constexpr bool dear_digit = true;

  __device__ static value_lookup<W>& lookup() {
    extern __shared__ uint4 smem[];
    return *reinterpret_cast<value_lookup<W>*>(reinterpret_cast<unsigned char*>(smem) + at);
  }
  __device__ static bits carry(bits raw) { return radix::digit_map<K>::carry(raw); }
  __device__ static bits uncarry(bits c) { return radix::digit_map<K>::uncarry(c); }
  __device__ static bits carried_pad(bits pad) { return radix::digit_map<K>::carry(pad); }
  __device__ unsigned of_carried(bits c) const {
    value_lookup<W>& t = lookup();
    const W r = W(ord.rank(traits::is_float ? c : traits::twiddle(c)));  // floats carry twiddled bits
    const unsigned p = t.place[unsigned(r >> t.shift) & t.mask];
    if (t.value[p] != r) atomicOr(&t.miss, 1u);  // rare: an atomic, so no thread races another
    return p;
  }
};

}  // namespace gpusort::detail::radix_onesweep
