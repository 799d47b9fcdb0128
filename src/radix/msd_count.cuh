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
//            a group larger than `most` keys stops the path here, before
//            anything is written (block-uniform): the caller sorts digit by
//            digit instead
//   scatter  every key takes the next slot of its group (an atomic add on
//            the counter, which leaves each counter at its group's end);
//            the slot within the group is arrival order, not input order
//   place    each key's place is its group's first slot plus the keys of the
//            group that order before it: smaller rank, or equal rank and an
//            earlier input slot. So the result is stable.
// Two shared atomics a key and one scan, against the split path's two
// ranking passes (each a warp-level multi-split of the tile, pads
// included) and its placement; the keys are read and written once.
#pragma once

#include <gpusort/detail/block/scan.cuh>
#include <gpusort/detail/core/payload.cuh>
#include <gpusort/detail/key_traits.hpp>

#include <cstddef>
#include <cstdint>

namespace gpusort::detail::radix_msd {

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
  static constexpr std::size_t shared_bytes =
      values_at + (is_no_value<P> ? 0 : align16(std::size_t(C::tile) * sizeof(P)));
};

// Places one run's tile (key[i], val[i]: the warp-striped tile of C, slots
// below `valid` live) into out[0, valid) in order, if no group of equal
// prefixes holds more than `most` keys; returns whether it did (block-
// uniform). `differ`: the OR over the run of each key's rank xor the first
// key's (the bits in which the keys differ, within the order's range; not
// zero). emit(at, v) stores the value of the key placed at `at`, and the
// key is stored as form.uncarry gives it back (msd_ints.cuh). Every
// thread of the block calls it; it ends with a barrier.
template <class C, int COUNT_BITS, class K, class P, class Form, class Emit>
__device__ __forceinline__ bool count_and_place(const typename key_traits<K>::bits (&key)[C::items],
                                                const P (&val)[C::items], const key_order<K>& ord,
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
  const int high = 63 - __clzll(static_cast<unsigned long long>(differ));
  const int shift = high >= COUNT_BITS - 1 ? high - (COUNT_BITS - 1) : 0;
  auto rank_of = [&](U k) { return ord.rank(key_traits<K>::twiddle(k)); };
  auto prefix = [&](U k) { return unsigned(rank_of(k) >> shift) & unsigned(L::bins - 1); };

  for (int b = int(threadIdx.x); b < L::bins; b += C::threads) counter[b] = 0;
  __syncthreads();
#pragma unroll
  for (int i = 0; i < I; ++i)
    if (C::ranker::slot(i) < valid) atomicAdd(&counter[prefix(key[i])], 1u);
  __syncthreads();

  // scan: thread t owns counters [t * bins_per_thread, ...)
  unsigned c[L::bins_per_thread], sum = 0, largest = 0;
  const int first_bin = int(threadIdx.x) * L::bins_per_thread;
#pragma unroll
  for (int u = 0; u < L::bins_per_thread; ++u) {
    c[u] = counter[first_bin + u];
    sum += c[u];
    largest = c[u] > largest ? c[u] : largest;
  }
  unsigned at = block::block_exclusive_sum<C::threads>(sum, sums);
  if (__syncthreads_or(largest > most)) return false;  // the counters are only read: nothing to undo
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
