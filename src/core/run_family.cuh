// One family's side of a device sort call: how values travel, how partial
// bit ranges reach comparison sorts, and the scratch of both. Included only
// by the generated instance translation units (one per algorithm and key
// type, from families.def), so editing a family rebuilds its own units.
//
//   values of width 1, 2, 4, 8 or 16 bytes, aligned to that width, travel
//   as an opaque payload of the width (payload.cuh) when the family carries
//   that width (F::value_widths); any other value (3 or 12 bytes, a
//   misaligned array, a width the family does not carry) travels as its
//   index: the family sorts (key, index) pairs, then a gather moves the values
//
//   partial bit ranges (and NaNs largest for the unstable families), for
//   comparison families: the family sorts (rank,
//   index) pairs, the rank being the selected bits of the ordered key as
//   an unsigned integer of the key's width, under the full ascending order;
//   then keys and values are gathered by index. Ties in rank keep index
//   order, so stable families stay stable, and their kernels are compiled
//   for full_order alone.
#pragma once

#include "core/device_call.hpp"
#include "core/gather.hpp"
#include "core/problem.cuh"
#include "core/rows.hpp"

#include <gpusort/detail/core/launch.cuh>
#include <gpusort/detail/core/temp_layout.hpp>

#include <cstdint>
#include <string>

namespace gpusort::detail {

template <algorithm A> struct family_of;  // the table: the instance units specialise it

// The two phases of a call over one plan: with temp == nullptr, stores the
// plan's size and returns false (nothing to run); else checks that the
// caller's scratch is large enough and returns true.
inline bool run_phase(const temp_layout& plan, void* temp, std::size_t* temp_bytes, const call_context& ctx) {
  if (!temp) {
    *temp_bytes = plan.bytes() ? plan.bytes() : 1;
    return false;
  }
  if (*temp_bytes < plan.bytes())
    ctx.fail(errc::invalid_argument, "temp_bytes smaller than the query returned (" + std::to_string(plan.bytes()) + ")");
  return true;
}

// Where an in-place call's input is read from: `copy` (scratch), filled
// from `src` first, or `src` itself when there is no copy.
inline const void* staged(const call_context& ctx, void* copy, const void* src, std::size_t bytes, cudaStream_t s,
                          const char* what) {
  if (!copy) return src;
  ctx.check(cudaMemcpyAsync(copy, src, bytes, cudaMemcpyDeviceToDevice, s), what);
  return copy;
}

// Sizes (temp == nullptr) or runs one sort whose values travel as payload P.
template <sort_family F, class K, class P>
void run_native(const sort_problem<K, P>& p, void* temp, std::size_t* temp_bytes) {
  temp_layout plan(temp);
  void* family = plan.take<std::uint8_t>(F::temp_bytes(p));
  if (run_phase(plan, temp, temp_bytes, *p.ctx)) F::sort(p, family);
}

// The (rank, index) sort of an unsigned key type U: instantiated once per
// family in U's own unit and shared by every key type of U's width.
template <sort_family F, class U> struct ranked_ops {
  template <class I> static sort_problem<U, I> problem(const U* rin, U* rout, const I* iin, I* iout, std::size_t n,
                                                       cudaStream_t s, const call_context* ctx, pivot_rule pivots) {
    return {rin, rout, iin, iout, n, key_order<U>(false, 0, key_traits<U>::width), s, ctx, pivots};
  }
  // Scratch of the family for n pairs, and the run; `wide` picks 64-bit indices.
  static std::size_t temp_bytes(std::size_t n, bool wide, const call_context* ctx, pivot_rule pivots) {
    if (wide) return F::temp_bytes(problem<std::uint64_t>(nullptr, nullptr, nullptr, nullptr, n, nullptr, ctx, pivots));
    return F::temp_bytes(problem<std::uint32_t>(nullptr, nullptr, nullptr, nullptr, n, nullptr, ctx, pivots));
  }
  static void sort(const U* rin, U* rout, void* iin, void* iout, std::size_t n, bool wide, cudaStream_t s,
                   const call_context* ctx, pivot_rule pivots, void* temp) {
    if (wide)
      F::sort(problem(rin, rout, static_cast<const std::uint64_t*>(iin), static_cast<std::uint64_t*>(iout), n, s, ctx,
                      pivots),
              temp);
    else
      F::sort(problem(rin, rout, static_cast<const std::uint32_t*>(iin), static_cast<std::uint32_t*>(iout), n, s, ctx,
                      pivots),
              temp);
  }
};

// With NaNs largest the rank all ones belongs to keys (ascending NaNs, the
// pad pattern descending); ~1 belongs to none (its patterns are NaNs that
// fold elsewhere), so those keys take ~1 and leave all ones to the pads of
// the (rank, index) sort: an unstable family cannot swap a pad in front.
template <class K, class U>
__global__ void rank_kernel(const K* keys, U* ranks, std::size_t n, key_order<K> ord) {
  const bool move_top = ord.nans_largest();
  for (std::size_t i = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += std::size_t(gridDim.x) * blockDim.x) {
    const U r = U(ord.key_rank(keys[i]));
    ranks[i] = move_top && r == U(~U(0)) ? U(~U(1)) : r;
  }
}

// Partial bit range through a comparison family.
template <sort_family F, class K> void run_ranked(const device_call<K>& c) {
  using U = typename key_traits<K>::bits;
  const call_context& ctx = *c.ctx;
  const bool wide = c.n > 0xFFFFFFFFull;
  const std::size_t iw = wide ? 8 : 4;
  temp_layout plan(c.temp);
  U* rin = plan.take<U>(c.n);
  U* rout = plan.take<U>(c.n);
  void* iin = plan.take<std::uint8_t>(c.n * iw);
  void* iout = plan.take<std::uint8_t>(c.n * iw);
  K* kcopy = c.keys_in == c.keys_out ? plan.take<K>(c.n) : nullptr;
  void* vcopy = c.val_size && c.vals_in == c.vals_out ? plan.take<std::uint8_t>(c.n * c.val_size) : nullptr;
  void* family = plan.take<std::uint8_t>(ranked_ops<F, U>::temp_bytes(c.n, wide, c.ctx, c.pivots));
  if (!run_phase(plan, c.temp, c.temp_bytes, ctx) || c.n == 0) return;
  const K* ksrc = static_cast<const K*>(staged(ctx, kcopy, c.keys_in, c.n * sizeof(K), c.stream, "cudaMemcpyAsync(keys)"));
  const void* vsrc = staged(ctx, vcopy, c.vals_in, c.n * c.val_size, c.stream, "cudaMemcpyAsync(values)");
  rank_kernel<<<grid_for(c.n, 256), 256, 0, c.stream>>>(ksrc, rin, c.n, c.ord);
  ctx.check_launch("rank");
  launch_iota(ctx, iin, wide, c.n, c.stream);
  ranked_ops<F, U>::sort(rin, rout, iin, iout, c.n, wide, c.stream, c.ctx, c.pivots, family);
  launch_gather(ctx, ksrc, c.keys_out, iout, wide, c.n, sizeof(K), c.stream);
  if (c.val_size) launch_gather(ctx, vsrc, c.vals_out, iout, wide, c.n, c.val_size, c.stream);
}

// Values of any width: sort (key, index) pairs, then gather the values.
template <sort_family F, class K, class I> void run_indexed(const device_call<K>& c) {
  const call_context& ctx = *c.ctx;
  temp_layout plan(c.temp);
  I* idx_in = plan.take<I>(c.n);
  I* idx_out = plan.take<I>(c.n);
  std::uint8_t* copy = c.vals_in == c.vals_out ? plan.take<std::uint8_t>(c.n * c.val_size) : nullptr;
  const sort_problem<K, I> p{c.keys_in, c.keys_out, idx_in, idx_out, c.n, c.ord, c.stream, c.ctx, c.pivots};
  void* family = plan.take<std::uint8_t>(F::temp_bytes(p));
  if (!run_phase(plan, c.temp, c.temp_bytes, ctx) || c.n == 0) return;
  const void* src = staged(ctx, copy, c.vals_in, c.n * c.val_size, c.stream, "cudaMemcpyAsync(values)");
  constexpr bool wide = sizeof(I) == 8;
  launch_iota(ctx, idx_in, wide, c.n, c.stream);
  F::sort(p, family);
  launch_gather(ctx, src, c.vals_out, idx_out, wide, c.n, c.val_size, c.stream);
}

template <sort_family F, class K, int W> bool try_native(const device_call<K>& c) {
  using P = typename payload_of<W>::type;
  if constexpr (!(F::value_widths & W)) {
    return false;
  } else {
    if (c.val_size != W) return false;
    if (reinterpret_cast<std::uintptr_t>(c.vals_in) % alignof(P) ||
        reinterpret_cast<std::uintptr_t>(c.vals_out) % alignof(P))
      return false;
    run_native<F>(sort_problem<K, P>{c.keys_in, c.keys_out, static_cast<const P*>(c.vals_in),
                                     static_cast<P*>(c.vals_out), c.n, c.ord, c.stream, c.ctx, c.pivots, c.form},
                  c.temp, c.temp_bytes);
    return true;
  }
}

// Whether family F folds argsort's form into its own kernels for this call
// (F::takes_form<K>(n, value bytes)); the others get it made around them.
template <sort_family F, class K> bool takes_form(const device_call<K>& c) {
  if constexpr (requires { F::template takes_form<K>(c.n, c.val_size); })
    return F::template takes_form<K>(c.n, c.val_size) && c.vals_in != c.vals_out;
  else
    return false;
}

template <sort_family F, class K> void run_family(const device_call<K>& c);

// argsort's form around a family that does not take it: the iota before the
// sort, the widening after it (what argsort launched itself before).
template <sort_family F, class K> void run_formed_around(const device_call<K>& c) {
  device_call<K> plain = c;
  plain.form = {};
  const bool runs = c.temp && c.n;
  if (runs && c.form.positions) launch_iota(*c.ctx, const_cast<void*>(c.vals_in), c.val_size == 8, c.n, c.stream);
  run_family<F>(plain);
  if (runs && c.form.wide_out) launch_widen(*c.ctx, c.vals_out, c.form.wide_out, c.n, c.stream);
}

template <sort_family F, class K> void run_family(const device_call<K>& c) {
  if (c.form.any() && !takes_form<F>(c)) return run_formed_around<F>(c);
  // Partial bit ranges, and unstable families under NaNs largest: every
  // NaN ties with the pad there (key_order::pad), and an unstable network
  // may swap a pad in front of a key it ties with; ranks leave the pad a
  // value of its own (rank_kernel).
  if constexpr (F::compares)
    if (!c.ord.full_range() || (c.ord.nans_largest() && !is_stable(F::id))) return run_ranked<F>(c);
  if (c.val_size == 0)
    return run_native<F>(sort_problem<K, no_value>{c.keys_in, c.keys_out, nullptr, nullptr, c.n, c.ord, c.stream, c.ctx,
                                                   c.pivots},
                         c.temp, c.temp_bytes);
  if (try_native<F, K, 1>(c) || try_native<F, K, 2>(c) || try_native<F, K, 4>(c) || try_native<F, K, 8>(c) ||
      try_native<F, K, 16>(c))
    return;
  if (c.n <= 0xFFFFFFFFull) run_indexed<F, K, std::uint32_t>(c);
  else run_indexed<F, K, std::uint64_t>(c);
}

template <algorithm A, class K> void run_algorithm(const device_call<K>& c) {
  run_family<typename family_of<A>::type>(c);
}

}  // namespace gpusort::detail
