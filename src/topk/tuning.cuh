// Top-k's one tuning struct, read by kernels and host alike.
//   hist     the first read: onesweep's digit counting (every key digit in
//            one read), its block shape
//   filter   the filter passes: a resident grid of `filter_threads`, each
//            thread `filter_items` keys of the input (`list_items` of a
//            list) per step, and the next step's in flight
//   list     the candidate lists hold indices (u64); past list_capacity(n)
//            candidates a level keeps them implicit (the next pass reads the
//            input again and tests the prefix), so scratch stays ~n / 16
//            indices
//   block    rows and segments: one block of block_threads holds a segment
//            of up to block_tile keys in registers (block_items each) and
//            selects in shared memory; longer segments are sorted
#pragma once

#include "radix/onesweep_tuning.cuh"
#include "topk/plan.hpp"

#include <gpusort/detail/core/payload.cuh>

#include <cstddef>

namespace gpusort::detail::topk {

template <class U> struct tuning {
  using hist = radix_onesweep::tuning<U, no_value>;
  static constexpr int hist_threads = hist::hist_threads;
  static constexpr int hist_items = hist::hist_items;
  static constexpr int hist_blocks_per_sm = hist::hist_blocks_per_sm;

  static constexpr int filter_threads = 256;
  static constexpr int filter_items = 8;  // reading the input
  static constexpr int list_items = 4;    // reading a list (and the keys through it)
  static constexpr int filter_min_blocks = sizeof(U) <= 4 ? 4 : 3;  // resident blocks an SM (registers capped)

  static std::size_t list_capacity(std::size_t n) {
    const std::size_t c = n / 16 + 4096;
    return c < n ? c : n;
  }

  static constexpr int block_threads = 256;
  static constexpr int block_items = 16;
  static constexpr int block_tile = block_threads * block_items;
};

}  // namespace gpusort::detail::topk
