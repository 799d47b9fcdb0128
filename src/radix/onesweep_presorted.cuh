// radix_onesweep's presorted launches (plan[slots], onesweep_plan.hpp),
// made before the passes. The presorted launch moves input that needs no
// pass (sorted keys, or every digit constant) to the output, or writes the
// reversal of input that never rises (onesweep_reverse.cuh); the values
// launch before it sorts keys of few values by one counting pass
// (onesweep_values.cuh). For any other input their blocks leave at once.
// Kernels of their own: compiled into the pass kernel, the moves cost every
// sort 1.3% of its time (the pass kernel's ranking was scheduled worse;
// docs/perf/radix.md). The presorted launch: a grid over the whole array
// in the passes' tiles, presorted_batch loads in flight a thread
// (block::move_striped).
#pragma once

#include <gpusort/detail/block/striped_move.cuh>
#include <gpusort/detail/core/launch.cuh>
#include "radix/onesweep_pass.cuh"
#include "radix/onesweep_reverse.cuh"
#include "radix/onesweep_values.cuh"

#include <cstddef>

namespace gpusort::detail::radix_onesweep {

// a: the pass launches' arguments with slot = slots (the presorted entry)
// and total = n.
template <class T, class K, class P, bool Formed = false>
__global__ void __launch_bounds__(T::threads) presorted_kernel(const pass_args<K, P> a) {
  const slot_plan plan = a.plan[a.slot];
  if (plan.mode != slot_copy && plan.mode != slot_reverse) return;  // grid-uniform
  using io_t = slot_io<K, P, Formed>;
  using element = typename io_t::element;
  const io_t io = io_t::of(a, plan, 0);  // every pass launch runs after this one
  const auto fetch = [&](std::size_t at) { return io.fetch(at); };
  const auto store = [&](std::size_t to, const element& x) { io.store(to, x); };
  const auto rank = [&](std::size_t j) { return a.ord.rank(key_traits<K>::twiddle(io.src[j])); };
  constexpr int items = T::items, tile = T::tile;
  __shared__ unsigned words[(tile + 2 * reverse_reach) / 32 + 2];  // the reversal's run starts
  const std::size_t tiles = (a.total + tile - 1) / tile;
  for (std::size_t t = blockIdx.x; t < tiles; t += gridDim.x) {
    const std::size_t first = t * tile;
    const unsigned valid = unsigned(a.total - first < std::size_t(tile) ? a.total - first : tile);
    if (plan.mode == slot_copy)
      block::move_striped<items, presorted_batch>(
          int(valid), [&](unsigned k) { return fetch(first + k); },
          [&](unsigned k, const element& x) { store(first + k, x); });
    else
      reverse_tile<T::threads, items>(first, valid, a.total, words, rank, fetch, store);
  }
}

}  // namespace gpusort::detail::radix_onesweep

namespace gpusort::detail::radix_onesweep {

// The counting pass of keys of few values (plan[slots] is slot_values:
// onesweep_values.cuh), launched before the presorted launch; for any other
// plan its blocks leave at once. A persistent grid takes tiles from the
// first pass launch's counter (a block waits in its look-back only on lower
// tile ids, held by running blocks) and uses that launch's look-back table;
// the plan then skips or copies in that launch. Each tile is one onesweep
// pass tile whose digit is the key's place (values_key). Where a key was no
// value (a miss), the last block to finish rewrites the plan to the LSD
// passes over the input, which the pass launches then run.
// a: the pass launches' arguments with slot = slots, total = n, that
// counter and table, and the values' table (key_table).
template <class T, class K, class P> struct values_shared {
  using U = typename key_traits<K>::bits;
  static constexpr std::size_t lookup_at = pass_shared<T, U, P>::bytes;  // after the pass's
  static constexpr std::size_t bytes = lookup_at + align16(sizeof(value_lookup<value_word<U>>));
};

template <class T, class K, class P, bool Formed = false>
__global__ void __launch_bounds__(T::threads, T::min_blocks) values_kernel(const pass_args<K, P> a) {
  slot_plan* plan = const_cast<slot_plan*>(a.plan);  // the scratch's; the pass launches follow this one
  if (plan[a.slot].mode != slot_values) return;      // grid-uniform
  using U = typename key_traits<K>::bits;
  using W = value_word<U>;
  using shared = pass_shared<T, U, P>;
  using form_t = values_key<K, values_shared<T, K, P>::lookup_at>;
  auto* table = static_cast<value_table<W>*>(const_cast<void*>(a.key_table));
  value_lookup<W>& lookup = form_t::lookup();
  for (int i = threadIdx.x; i < values_max; i += T::threads) {
    lookup.place[i] = table->place[i];
    lookup.value[i] = table->value[i];
  }
  if (threadIdx.x == 0) {
    lookup.shift = table->shift;
    lookup.mask = table->mask;
    lookup.miss = 0;
  }
  extern __shared__ uint4 smem[];
  const shared s = shared::carve(smem);
  const auto io = slot_io<K, P, Formed>::of(a, plan[a.slot], 0);
  // the whole input, one chain (a.next_base is null: the pass writes no
  // next portion's bases)
  const portion_tiles geo{0, unsigned(a.total), table->base};
  const form_t form{a.ord};
  const unsigned tiles = geo.template tiles<T::tile>();
  for (;;) {
    if (threadIdx.x == 0) *s.tile = atomicAdd(a.counter, 1u);
    __syncthreads();  // the tile id; the table's copy
    const unsigned tile = *s.tile;
    if (tile >= tiles) break;  // block-uniform
    pass_tile<T, Formed>(a, form, s, io.src, io.dst, io.vsrc, io.vdst, tile, geo.template at<T::tile>(tile), io.f);
    __syncthreads();  // the next tile reuses shared memory
  }
  // The last block out, on a miss: the LSD plan (make_plan) over the input,
  // whose first launch finds its counter and look-back table as the memset
  // left them (zeroed here: a rare path, one block).
  __shared__ bool redo;
  if (threadIdx.x == 0) {
    if (lookup.miss) atomicOr(&table->miss, 1u);
    __threadfence();
    redo = atomicAdd(&table->done, 1u) == gridDim.x - 1 && atomicOr(&table->miss, 0u) != 0;
  }
  __syncthreads();
  if (!redo) return;  // block-uniform
  for (std::size_t i = threadIdx.x; i < std::size_t(tiles) * T::bins; i += T::threads) a.lookback[i] = 0;
  if (threadIdx.x == 0) {
    *a.counter = 0;
    make_plan(table->skip, table->passes, table->slots, table->in_place != 0, plan);
    plan[a.slot] = {slot_skip, 0, 0};
  }
}

}  // namespace gpusort::detail::radix_onesweep
