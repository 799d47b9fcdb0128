// The algorithm table: one line per family maps gpusort::algorithm to its
// temp_bytes() and sort(). A new family adds its include and two lines.
#pragma once

#include "core/problem.cuh"
#include "network/bitonic.cuh"
#include "network/odd_even.cuh"

#include <gpusort/gpusort.hpp>

namespace gpusort::detail {

// What `automatic` runs: the fastest family measured so far for the call.
inline algorithm resolve(algorithm a) { return a == algorithm::automatic ? algorithm::bitonic : a; }

template <class K, class P> std::size_t family_temp_bytes(algorithm a, const sort_problem<K, P>& p) {
  switch (a) {
    case algorithm::odd_even: return odd_even::temp_bytes(p);
    case algorithm::bitonic: return bitonic::temp_bytes(p);
    default: p.ctx->fail(errc::invalid_argument, "unknown algorithm");
  }
}

template <class K, class P> void family_sort(algorithm a, const sort_problem<K, P>& p, void* temp) {
  switch (a) {
    case algorithm::odd_even: return odd_even::sort(p, temp);
    case algorithm::bitonic: return bitonic::sort(p, temp);
    default: p.ctx->fail(errc::invalid_argument, "unknown algorithm");
  }
}

}  // namespace gpusort::detail
