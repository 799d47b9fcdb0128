// merge_window's definition (declared in merge_window.hpp): the value width
// picks the payload, and one merge::merge_pass runs the window. Included and
// instantiated (GPUSORT_MERGE_WINDOW(K)) only in the generated
// merge_sort_<kind> units, beside merge::sort: the same kernel templates over
// merge::window_tiles.
#pragma once

#include "host/merge_window.hpp"

#include <gpusort/detail/core/payload.cuh>
#include <gpusort/detail/merge/merge_sort.cuh>

namespace gpusort::detail::host {

template <class C> std::size_t merge_tile(std::size_t val_size) {
  using U = typename key_traits<C>::bits;
  switch (val_size) {
    case 0: return merge::tuning<U, no_value>::tile;
    case 1: return merge::tuning<U, payload_of<1>::type>::tile;
    case 2: return merge::tuning<U, payload_of<2>::type>::tile;
    case 4: return merge::tuning<U, payload_of<4>::type>::tile;
    case 8: return merge::tuning<U, payload_of<8>::type>::tile;
    case 16: return merge::tuning<U, payload_of<16>::type>::tile;
    default: return 0;
  }
}

// Runs `pass` with the payload type of `val_size`-byte values.
template <class Pass> void with_payload(const call_context& ctx, std::size_t val_size, Pass pass) {
  switch (val_size) {
    case 0: return pass(static_cast<no_value*>(nullptr));
    case 1: return pass(static_cast<payload_of<1>::type*>(nullptr));
    case 2: return pass(static_cast<payload_of<2>::type*>(nullptr));
    case 4: return pass(static_cast<payload_of<4>::type*>(nullptr));
    case 8: return pass(static_cast<payload_of<8>::type*>(nullptr));
    case 16: return pass(static_cast<payload_of<16>::type*>(nullptr));
    default: ctx.fail(errc::invalid_argument, "merge: no payload of " + std::to_string(val_size) + " bytes");
  }
}

template <class C>
void merge_window(const call_context& ctx, const C* kin, C* kout, const void* vin, void* vout,
                  std::size_t val_size, std::size_t n, std::size_t width, std::size_t first, std::size_t last,
                  std::size_t* splits, const key_order<C>& ord, cudaStream_t stream) {
  using U = typename key_traits<C>::bits;
  const full_order<C> full(ord);
  with_payload(ctx, val_size, [&]<class P>(P*) {
    using Tune = merge::tuning<U, P>;
    merge::merge_pass<Tune>(ctx, kin, kout, static_cast<const P*>(vin), static_cast<P*>(vout),
                            merge::window_tiles{n, std::size_t(Tune::tile), first, last}, width, splits, full, stream);
  });
}

template <class C> std::size_t merge_runs_splits(std::size_t n, std::size_t val_size) {
  const std::size_t tile = merge_tile<C>(val_size);
  return tile ? (n + tile - 1) / tile + 1 : 0;
}

template <class C>
void merge_runs(const call_context& ctx, const C* kin, C* kout, const void* vin, void* vout, std::size_t val_size,
                std::size_t n, std::size_t a, std::size_t* splits, const key_order<C>& ord, cudaStream_t stream) {
  using U = typename key_traits<C>::bits;
  const full_order<C> full(ord);
  with_payload(ctx, val_size, [&]<class P>(P*) {
    using Tune = merge::tuning<U, P>;
    const std::size_t all = (n + Tune::tile - 1) / Tune::tile;
    merge::merge_pass<Tune>(ctx, kin, kout, static_cast<const P*>(vin), static_cast<P*>(vout),
                            merge::window_tiles{n, std::size_t(Tune::tile), 0, all, a}, n, splits, full, stream);
  });
}

}  // namespace gpusort::detail::host

#define GPUSORT_MERGE_WINDOW(K)                                                                          \
  template std::size_t gpusort::detail::host::merge_tile<K>(std::size_t);                               \
  template void gpusort::detail::host::merge_window<K>(                                                 \
      const gpusort::detail::call_context&, const K*, K*, const void*, void*, std::size_t, std::size_t, \
      std::size_t, std::size_t, std::size_t, std::size_t*, const gpusort::detail::key_order<K>&, cudaStream_t); \
  template std::size_t gpusort::detail::host::merge_runs_splits<K>(std::size_t, std::size_t);            \
  template void gpusort::detail::host::merge_runs<K>(const gpusort::detail::call_context&, const K*, K*, \
                                                     const void*, void*, std::size_t, std::size_t,      \
                                                     std::size_t, std::size_t*,                          \
                                                     const gpusort::detail::key_order<K>&, cudaStream_t);
