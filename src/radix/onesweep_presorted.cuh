// radix_onesweep's presorted launch (plan[slots], onesweep_plan.hpp): made
// before the passes, it moves input that needs no pass (sorted keys, or
// every digit constant) to the output, or writes the reversal of input that
// never rises (onesweep_reverse.cuh); for any other input its blocks leave
// at once. Its own kernel: compiled into the pass kernel, these moves cost
// every sort 1.3% of its time (the pass kernel's ranking was scheduled
// worse; docs/perf/radix.md). A grid over the whole array in the passes'
// tiles, presorted_batch loads in flight a thread (block::move_striped).
#pragma once

#include <gpusort/detail/block/striped_move.cuh>
#include <gpusort/detail/core/launch.cuh>
#include "radix/onesweep_pass.cuh"
#include "radix/onesweep_reverse.cuh"

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
