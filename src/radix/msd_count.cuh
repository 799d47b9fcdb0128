// radix_msd's local sort, the counting path: one run of keys placed by one
// counting sort of the top `count_bits` bits in which its keys differ, then
// the few keys that share such a prefix ordered among themselves.
//
// After the MSD levels a run holds a few thousand keys whose remaining bits
// are spread (uniform keys, normal doubles below their exponent): the 12
// bits under the highest bit in which the run's keys differ give 4096
// counters for up to 6144 keys, so a prefix's group is a key or two. One
// counting sort (Seward's counting sort, as in the LSD passes' scatter, but
// on a 12-bit prefix in shared memory) then puts every key within a few
// places of its own, and the rest is a comparison inside each group:
//   count    every key adds one to its prefix's counter (shared atomics)
//   scan     exclusive sums over the counters (the groups' first slots);
//            a group larger than `most` keys leaves this path here, before
//            anything is written (block-uniform), for the groups of equal
//            keys below, or the caller's paths
//   scatter  every key takes the next slot of its group (an atomic add on
//            the counter, which leaves each counter at its group's end);
//            the slot within the group is arrival order, not input order
//   place    each key's place is its group's first slot plus the keys of the
//            group that order before it: smaller rank, or equal rank and an
//            earlier input slot. So the result is stable.
// Two shared atomics a key and one scan, against the split path's two
// ranking passes (each a warp-level multi-split of the tile, pads
// included) and its placement; the keys are read and written once.
//
// Groups of equal keys. Runs of keys with many duplicates (Zipf: even the
// rarest of 2^16 values comes about 170 times in 2^27 keys) have groups far
// over `most`, and fell through to the split path and then to one LSD pass
// a remaining digit (six for 64-bit keys). Where some group is over `most`
// but the run has at most 255 groups, the groups are numbered in prefix
// order and one stable ranking pass by that number (the LSD passes' warp
// multi-split) orders the tile by prefix with each group in input order. A
// group of equal keys is then in place as it stands; a group of mixed keys
// is placed by comparison as above when it holds at most `most` keys, and
// otherwise the path gives up (nothing written) and the caller goes on.
#pragma once

#include <gpusort/detail/block/rank.cuh>
#include <gpusort/detail/block/scan.cuh>
#include <gpusort/detail/core/bit_width.hpp>
#include <gpusort/detail/core/payload.cuh>
#include <gpusort/detail/key_traits.hpp>

#include <cstddef>
#include <cstdint>

namespace gpusort::detail::radix_msd {

// Whether some digit of the block's counts (c: this thread's bins) holds
// more than `most` keys, the pads (all in pad_bin) not counted. Every
// thread of the block calls it.
template <class ranker>
__device__ __forceinline__ bool any_over(const unsigned (&c)[ranker::bins_per_thread], unsigned pad_bin,
                                         unsigned pads, unsigned most) {
  bool mine = false;
#pragma unroll
  for (int u = 0; u < ranker::bins_per_thread; ++u) {
    const int b = ranker::thread_bin(u);
    mine |= b < ranker::bins && c[u] - (unsigned(b) == pad_bin ? pads : 0u) > most;
  }
  return __syncthreads_or(mine) != 0;
}

// One stable pass of the tile in registers by the digit digit_of(i) of item
// i (as block_sort.cuh's sort_tile): rank, exchange through shared memory.
// With `keep` the tile stays in shared memory in rank order (keys at smem,
// values after C::keys_bytes) and the registers are not reloaded. Returns whether some
// digit holds more than `most` keys (pads, which rank last, not counted).
template <class C, class K, class P, class DigitOf>
__device__ __forceinline__ bool rank_pass(typename key_traits<K>::bits (&key)[C::items], P (&val)[C::items],
                                          DigitOf digit_of, unsigned pad_bin, unsigned pads, unsigned most, bool keep,
                                          void* smem) {
  using U = typename key_traits<K>::bits;
  using ranker = typename C::ranker;
  constexpr int I = C::items;
  auto& store = *reinterpret_cast<typename ranker::storage*>(smem);
  unsigned ranks[I], counts[ranker::bins_per_thread], starts[ranker::bins_per_thread];
  bool big = false;
  ranker::rank(
      store, digit_of, ranks, counts, starts,
      [&](const unsigned(&c)[ranker::bins_per_thread]) {
        big = any_over<ranker>(c, pad_bin, pads, most);
        return false;
      });
  __syncthreads();  // every rank is known: the exchange may overwrite the histograms
  U* s_keys = reinterpret_cast<U*>(smem);
  P* s_vals = reinterpret_cast<P*>(reinterpret_cast<std::uint8_t*>(smem) + C::keys_bytes);
#pragma unroll
  for (int i = 0; i < I; ++i) {
    s_keys[ranks[i]] = key[i];
    if constexpr (!is_no_value<P>) s_vals[ranks[i]] = val[i];
  }
  __syncthreads();
  if (!keep) {
#pragma unroll
    for (int i = 0; i < I; ++i) {
      key[i] = s_keys[ranker::slot(i)];
      if constexpr (!is_no_value<P>) val[i] = s_vals[ranker::slot(i)];
    }
    __syncthreads();  // the next pass's histograms overwrite the exchange
  }
  return big;
}


// The counting path's shared memory for a tile of C (C::tile keys of U,
// values P): the keys in prefix order, their input slots, the counters and
// the values parked by input slot.
template <class C, class U, class P, int COUNT_BITS> struct count_layout {
  static constexpr int bins = 1 << COUNT_BITS;
  static_assert(bins % C::threads == 0, "every thread owns whole counters");
  static_assert(C::tile <= 65536, "input slots fit 16 bits");
  static constexpr int bins_per_thread = bins / C::threads;
  static constexpr std::size_t keys_at = 0;
  static constexpr std::size_t slots_at = align16(std::size_t(C::tile) * sizeof(U));
  static constexpr std::size_t counters_at = slots_at + align16(std::size_t(C::tile) * sizeof(std::uint16_t));
  static constexpr std::size_t sums_at = counters_at + std::size_t(bins) * sizeof(unsigned);
  static constexpr std::size_t values_at = sums_at + align16(std::size_t(C::threads / 32) * sizeof(unsigned));
  // groups of equal keys: past the ranking pass's exchange, each prefix's
  // group number (a byte) and each group's first slot and size (16 bits each)
  static constexpr int max_groups = 255;  // numbers 0 .. 254; the pads rank as 255
  static constexpr std::size_t numbers_at = align16(C::shared_bytes);
  static constexpr std::size_t groups_at = numbers_at + align16(std::size_t(bins));
  static constexpr std::size_t groups_end = groups_at + std::size_t(max_groups) * sizeof(unsigned);
  static constexpr std::size_t counting_end = values_at + (is_no_value<P> ? 0 : align16(std::size_t(C::tile) * sizeof(P)));
  static constexpr std::size_t shared_bytes = counting_end > groups_end ? counting_end : groups_end;
  static_assert(C::tile < 65536, "a slot and a count share one 32-bit scan");
};

// count_and_place's groups of equal keys, after its count and scan (c: this
// thread's counters, from first_bin; at and number: the first slot and the
// group number of its first used counter). Block-uniform result; the
// registers are left as they came.
template <class C, class K, class P, class L, class Prefix, class Form, class Emit>
__device__ __forceinline__ bool equal_groups(typename key_traits<K>::bits (&key)[C::items], P (&val)[C::items],
                                             const key_order<K>& ord, Prefix prefix,
                                             const unsigned (&c)[L::bins_per_thread], int first_bin, unsigned at,
                                             unsigned number, unsigned valid, unsigned most, void* smem,
                                             typename key_traits<K>::bits* out, const Form& form, Emit emit) {
  using U = typename key_traits<K>::bits;
  constexpr int I = C::items;
  auto* base = reinterpret_cast<std::uint8_t*>(smem);
  std::uint8_t* numbers = base + L::numbers_at;
  auto* groups = reinterpret_cast<unsigned*>(base + L::groups_at);
  // the scan's barrier is behind every read of the counters, which the
  // tables may overlay
#pragma unroll
  for (int u = 0; u < L::bins_per_thread; ++u) {
    if (c[u] != 0) {
      numbers[first_bin + u] = std::uint8_t(number);
      groups[number++] = at | (c[u] << 16);
    }
    at += c[u];
  }
  __syncthreads();
  constexpr unsigned pad_number = L::max_groups;  // above every group's
  unsigned packed[(I + 3) / 4] = {};
#pragma unroll
  for (int i = 0; i < I; ++i) {
    const unsigned g = C::ranker::slot(i) < valid ? numbers[prefix(key[i])] : pad_number;
    packed[i / 4] |= g << (8 * (i % 4));
  }
  rank_pass<C, K, P>(
      key, val, [&](int i) { return (packed[i / 4] >> (8 * (i % 4))) & 0xFFu; }, pad_number,
      unsigned(C::tile) - valid, ~0u, true, smem);
  // the tile is in group order, each group in input order
  const U* s_keys = reinterpret_cast<const U*>(smem);
  const P* s_vals = reinterpret_cast<const P*>(base + C::keys_bytes);
  auto rank_of = [&](U k) { return ord.rank(key_traits<K>::twiddle(k)); };
  auto group_of = [&](U k) { return groups[numbers[prefix(k)]]; };
  bool mixed = false;  // a group over `most` whose keys differ
  for (unsigned p = threadIdx.x + 1; p < valid; p += C::threads) {
    const U k = s_keys[p], before = s_keys[p - 1];
    const unsigned g = group_of(k);
    if (rank_of(k) != rank_of(before) && g == group_of(before) && (g >> 16) > most) mixed = true;
  }
  if (__syncthreads_or(mixed)) return false;  // the caller's next path starts from the registers
  for (unsigned p = threadIdx.x; p < valid; p += C::threads) {
    const U k = s_keys[p];
    const unsigned g = group_of(k), first = g & 0xFFFFu, size = g >> 16;
    unsigned to = p;
    if (size > 1 && size <= most) {
      const U r = rank_of(k);
      to = first;
      for (unsigned q = first; q < first + size; ++q) {
        const U rq = rank_of(s_keys[q]);
        to += rq < r || (rq == r && q < p);
      }
    }
    out[to] = form.uncarry(k);
    if constexpr (!is_no_value<P>) emit(to, s_vals[p]);
  }
  __syncthreads();  // shared memory is read: the next run may count
  return true;
}

// Places one run's tile (key[i], val[i]: the warp-striped tile of C, slots
// below `valid` live) into out[0, valid) in order, if no group of equal
// prefixes holds more than `most` keys, or, failing that, if the groups
// number at most count_layout::max_groups and each over `most` holds equal
// keys; returns whether it did (block-uniform; the registers are left as
// they came either way). `differ`: the OR over the run of each key's rank xor the first
// key's (the bits in which the keys differ, within the order's range; not
// zero). emit(at, v) stores the value of the key placed at `at`, and the
// key is stored as form.uncarry gives it back (msd_ints.cuh). Every
// thread of the block calls it; it ends with a barrier.
template <class C, int COUNT_BITS, class K, class P, class Form, class Emit>
__device__ __forceinline__ bool count_and_place(typename key_traits<K>::bits (&key)[C::items],
                                                P (&val)[C::items], const key_order<K>& ord,
                                                typename key_traits<K>::bits differ, unsigned valid, unsigned most,
                                                void* smem, typename key_traits<K>::bits* out, const Form& form,
                                                Emit emit) {
  using U = typename key_traits<K>::bits;
  using L = count_layout<C, U, P, COUNT_BITS>;
  constexpr int I = C::items;
  auto* base = reinterpret_cast<std::uint8_t*>(smem);
  U* s_keys = reinterpret_cast<U*>(base + L::keys_at);
  auto* s_slots = reinterpret_cast<std::uint16_t*>(base + L::slots_at);
  unsigned* counter = reinterpret_cast<unsigned*>(base + L::counters_at);
  unsigned* sums = reinterpret_cast<unsigned*>(base + L::sums_at);
  P* parked = reinterpret_cast<P*>(base + L::values_at);

  // the prefix: the COUNT_BITS bits from the highest bit that differs down
  // (the bits above it are the run's common prefix)
  const int high = bit_width64(differ) - 1;
  const int shift = high >= COUNT_BITS - 1 ? high - (COUNT_BITS - 1) : 0;
  auto rank_of = [&](U k) { return ord.rank(key_traits<K>::twiddle(k)); };
  auto prefix = [&](U k) { return unsigned(rank_of(k) >> shift) & unsigned(L::bins - 1); };

  for (int b = int(threadIdx.x); b < L::bins; b += C::threads) counter[b] = 0;
  __syncthreads();
#pragma unroll
  for (int i = 0; i < I; ++i)
    if (C::ranker::slot(i) < valid) atomicAdd(&counter[prefix(key[i])], 1u);
  __syncthreads();

  // scan: thread t owns counters [t * bins_per_thread, ...); one scan
  // gives each group's first slot (low 16 bits) and number (high 16)
  unsigned c[L::bins_per_thread], sum = 0, largest = 0, used = 0;
  const int first_bin = int(threadIdx.x) * L::bins_per_thread;
#pragma unroll
  for (int u = 0; u < L::bins_per_thread; ++u) {
    c[u] = counter[first_bin + u];
    sum += c[u];
    used += c[u] != 0;
    largest = c[u] > largest ? c[u] : largest;
  }
  const unsigned scanned = block::block_exclusive_sum<C::threads>(sum | (used << 16), sums);
  unsigned at = scanned & 0xFFFFu;
  if (__syncthreads_or(largest > most)) {  // the counters are only read: nothing to undo
    unsigned number = scanned >> 16;
    if (__syncthreads_or(number + used > unsigned(L::max_groups))) return false;
    return equal_groups<C, K, P, L>(key, val, ord, prefix, c, first_bin, at, number, valid, most, smem, out, form,
                                    emit);
  }
#pragma unroll
  for (int u = 0; u < L::bins_per_thread; ++u) {
    counter[first_bin + u] = at;
    at += c[u];
  }
  __syncthreads();

#pragma unroll
  for (int i = 0; i < I; ++i) {
    const unsigned slot = C::ranker::slot(i);
    if (slot < valid) {
      const unsigned to = atomicAdd(&counter[prefix(key[i])], 1u);
      s_keys[to] = key[i];
      s_slots[to] = std::uint16_t(slot);
      if constexpr (!is_no_value<P>) parked[slot] = val[i];
    }
  }
  __syncthreads();

  // counter[b] is now group b's end, and group b - 1's end its first slot
  for (unsigned p = threadIdx.x; p < valid; p += C::threads) {
    const U k = s_keys[p];
    const unsigned b = prefix(k);
    const unsigned first = b == 0 ? 0u : counter[b - 1], last = counter[b];
    unsigned to = first;
    if (last - first == 1) {
      to = p;
    } else {
      const U r = rank_of(k);
      const unsigned mine = s_slots[p];
      for (unsigned q = first; q < last; ++q) {
        const U rq = rank_of(s_keys[q]);
        to += rq < r || (rq == r && s_slots[q] < mine);
      }
    }
    out[to] = form.uncarry(k);
    if constexpr (!is_no_value<P>) emit(to, parked[s_slots[p]]);
  }
  __syncthreads();  // shared memory is read: the next run may count
  return true;
}

}  // namespace gpusort::detail::radix_msd
