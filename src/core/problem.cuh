// What every algorithm family receives: one sort call, resolved.
//
// Keys arrive as the caller's type K and are carried as twiddled bits
// (key_traits<K>::bits) inside kernels. Values are carried as an opaque
// payload P of the value's width (see payload.cuh); P = no_value for keys.
#pragma once

#include "context.hpp"
#include "payload.cuh"

#include <gpusort/detail/key_traits.hpp>
#include <gpusort/gpusort.hpp>

#include <cuda_runtime_api.h>

#include <cstddef>

namespace gpusort::detail {

template <class K, class P> struct sort_problem {
  using key_type = K;
  using bits = typename key_traits<K>::bits;
  using payload = P;
  static constexpr bool has_values = !is_no_value<P>;

  const K* keys_in = nullptr;
  K* keys_out = nullptr;
  const P* vals_in = nullptr;
  P* vals_out = nullptr;
  std::size_t n = 0;
  key_order<K> ord{};
  cudaStream_t stream = nullptr;
  const call_context* ctx = nullptr;
  pivot_rule pivots = pivot_rule::sampled;
};

// Runs f(order) with the fastest order object equivalent to `ord`: a sort
// over all bits compares carried bits directly (full_order).
template <class K, class F> void with_order(const key_order<K>& ord, F&& f) {
  if (ord.full_range()) f(full_order<K>(ord));
  else f(ord);
}

}  // namespace gpusort::detail
