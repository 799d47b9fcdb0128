// What every algorithm family receives: one sort call, resolved.
//
// Keys arrive as the caller's type K and are carried as twiddled bits
// (key_traits<K>::bits) inside kernels. Values are carried as an opaque
// payload P of the value's width (see payload.cuh); P = no_value for keys.
#pragma once

#include "core/device_call.hpp"

#include <gpusort/detail/core/context.hpp>
#include <gpusort/detail/core/payload.cuh>

#include <gpusort/detail/key_traits.hpp>
#include <gpusort/gpusort.hpp>

#include <cuda_runtime_api.h>

#include <concepts>
#include <cstddef>
#include <cstdint>

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
  // argsort's request (device_call.hpp); only a family with F::takes_form
  // receives one, and only where that said yes
  argsort_form form{};
};

// The value widths a family carries as payloads, as a set of bits: bit W
// set for W-byte values (W = 1, 2, 4, 8, 16). Values of other widths travel
// as their 4- or 8-byte index and are gathered after the sort
// (run_family.cuh), which halves the kernels a family compiles.
inline constexpr unsigned all_value_widths = 1 | 2 | 4 | 8 | 16;
inline constexpr unsigned index_value_widths = 4 | 8;

// What a family is: an algorithm id, whether it compares keys, the value
// widths it carries (production families: all; the teaching sorts:
// index_value_widths), and the two-phase pair every family provides for
// every key and payload type:
//   temp_bytes(p)  the scratch one sort of problem p needs (no CUDA call)
//   sort(p, temp)  launches it on p.stream, no host synchronisation
// A comparison family (compares = true) receives full-range problems only:
// partial bit ranges reach it as (rank, index) pairs (run_family.cuh), so
// its kernels are compiled for one order type, full_order.
template <class F>
concept sort_family = requires(const sort_problem<std::uint32_t, no_value>& p, void* temp) {
  { F::id } -> std::convertible_to<algorithm>;
  { F::compares } -> std::convertible_to<bool>;
  { F::value_widths } -> std::convertible_to<unsigned>;
  { F::temp_bytes(p) } -> std::same_as<std::size_t>;
  { F::sort(p, temp) } -> std::same_as<void>;
};

}  // namespace gpusort::detail
