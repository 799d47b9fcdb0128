// Compare-exchange of two carried elements (twiddled key bits plus an
// optional payload): the one primitive every sorting network here is made of.
#pragma once

#include <gpusort/detail/core/payload.cuh>

#include <gpusort/detail/key_traits.hpp>

namespace gpusort::detail::block {

template <class T> __device__ __forceinline__ void swap_values(T& a, T& b) {
  T t = a;
  a = b;
  b = t;
}

// Leaves the lower-ranked element in (a, va). Swaps only when b ranks
// strictly below a, so equal keys never move past each other: networks of
// adjacent compare-exchanges built from it are stable.
// `less` is any strict weak order on U (a key_order<K>, or a user comparator).
template <class Less, class U, class P>
__device__ __forceinline__ void compare_exchange(const Less& less, U& a, U& b, P& va, P& vb) {
  if (less(b, a)) {
    swap_values(a, b);
    if constexpr (!is_no_value<P>) swap_values(va, vb);
  }
}

}  // namespace gpusort::detail::block
