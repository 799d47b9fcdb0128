// The algorithm table: one line per family maps gpusort::algorithm to its
// temp_bytes() and sort(). A new family adds its include and two lines.
#pragma once

#include "core/problem.cuh"
#include "merge/family.cuh"
#include "network/bitonic.cuh"
#include "radix/onesweep.cuh"
#include "radix/split.cuh"
#include "radix/tile.cuh"
#include "sample/family.cuh"
#include "network/odd_even.cuh"
#include "quick/family.cuh"

#include <gpusort/gpusort.hpp>

namespace gpusort::detail {

// What `automatic` runs: the fastest family measured so far (H200,
// bench/results/nvidia-h200.csv): onesweep radix sort, for every key type.
inline algorithm resolve(algorithm a) { return a == algorithm::automatic ? algorithm::radix_onesweep : a; }

template <class K, class P> std::size_t family_temp_bytes(algorithm a, const sort_problem<K, P>& p) {
  switch (a) {
    case algorithm::odd_even: return odd_even::temp_bytes(p);
    case algorithm::bitonic: return bitonic::temp_bytes(p);
    case algorithm::merge_recursive: return merge::recursive_family::temp_bytes(p);
    case algorithm::merge_bottom_up: return merge::bottom_up_family::temp_bytes(p);
    case algorithm::merge_path: return merge::path_family::temp_bytes(p);
    case algorithm::radix_split: return radix_split::temp_bytes(p);
    case algorithm::radix_tile: return radix_tile::temp_bytes(p);
    case algorithm::radix_onesweep: return radix_onesweep::temp_bytes(p);
    case algorithm::sample: return sample::family::temp_bytes(p);
    case algorithm::quick: return quick::family::temp_bytes(p);
    default: p.ctx->fail(errc::invalid_argument, "unknown algorithm");
  }
}

template <class K, class P> void family_sort(algorithm a, const sort_problem<K, P>& p, void* temp) {
  switch (a) {
    case algorithm::odd_even: return odd_even::sort(p, temp);
    case algorithm::bitonic: return bitonic::sort(p, temp);
    case algorithm::merge_recursive: return merge::recursive_family::sort(p, temp);
    case algorithm::merge_bottom_up: return merge::bottom_up_family::sort(p, temp);
    case algorithm::merge_path: return merge::path_family::sort(p, temp);
    case algorithm::radix_split: return radix_split::sort(p, temp);
    case algorithm::radix_tile: return radix_tile::sort(p, temp);
    case algorithm::radix_onesweep: return radix_onesweep::sort(p, temp);
    case algorithm::sample: return sample::family::sort(p, temp);
    case algorithm::quick: return quick::family::sort(p, temp);
    default: p.ctx->fail(errc::invalid_argument, "unknown algorithm");
  }
}

}  // namespace gpusort::detail
