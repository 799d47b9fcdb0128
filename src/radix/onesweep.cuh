// radix_onesweep: the production LSD radix sort (Adinets & Merrill 2022,
// "Onesweep: A Faster Least Significant Digit Radix Sort for GPUs",
// arXiv:2206.01784; CUB's DeviceRadixSort onesweep path). 8-bit digits of
// the order's bits [begin_bit, end_bit): ceil((end - begin) / 8) passes.
//
//   n <= small::tile   one block sorts everything in shared memory, one launch
//                      (4-byte keys alone: small_sort.cuh's counter sort, 128,
//                      256 or 256 x 16 threads x items by n; others: 256
//                      threads up to half that tile, else 512)
//   otherwise          1. memset: histograms, tile counters, first look-back table
//                      (the first histogram also finds sorted input, whose
//                      passes are all skipped, and input that never
//                      rises, in short runs of equal keys, which one
//                      launch reverses: key_span, onesweep_reverse.cuh)
//                      2. histogram of every pass in one read + scan + plan
//                         (one launch for n <= fused_max, else two; integer
//                         orders over every bit add the offset histogram
//                         and scan, which leave at once unless sorting by
//                         ordered - least skips more passes: radix::pass_key)
//                      3. the presorted launches: the counting pass of
//                         keys of few values (found by the scan from a
//                         sample: onesweep_values.cuh), then a copy of
//                         input that needs no pass, or the reversal; else
//                         nothing (onesweep_presorted.cuh)
//                      4. one launch per pass and portion (onesweep_pass.cuh)
// Portions of less than 2^30 keys (as few as that allows, of equal size) keep
// look-back counts in 30 bits; positions are 64-bit, so any n works.
// Passes whose digit is constant are skipped on
// the device (onesweep_histogram.cuh), and buffers ping-pong so that the
// last pass writes the output: no final copy unless no pass is left, or the
// sort is in place with an odd number of passes. Two look-back tables
// alternate between launches; each launch zeroes the next one's, so the
// passes need no memsets. Stable; bit-identical to cub::DeviceRadixSort.
#pragma once

#include <gpusort/detail/core/launch.cuh>
#include "core/problem.cuh"
#include <gpusort/detail/core/temp_layout.hpp>
#include "radix/block_sort.cuh"
#include "radix/digit.cuh"
#include "radix/onesweep_histogram.cuh"
#include "radix/onesweep_pass.cuh"
#include "radix/onesweep_presorted.cuh"
#include "radix/onesweep_tuning.cuh"

#include <cstddef>
#include <cstdint>
#include <type_traits>

namespace gpusort::detail::radix_onesweep {

// Portions: as few as the 2^30-key cap allows (T::portion), of equal sizes in
// whole tiles; the last one takes the rest (never empty: with m tiles a cap,
// count = ceil(tiles / m) gives tiles > (count - 1) * m >= (count - 1) * per).
// Equal sizes matter: each launch zeroes the next launch's look-back table
// with its own blocks, so a tiny launch (n = 2^28 used to leave a 4096-key
// second portion: one block) would zero a 36 MB table on one SM.
template <class T> struct portion_split {
  std::size_t count = 0;  // portions
  std::size_t keys = 0;   // keys of every portion but the last (a whole number of tiles)
  static portion_split of(std::size_t n) {
    portion_split s;
    s.count = (n + T::portion - 1) / T::portion;
    const std::size_t tiles = (n + T::tile - 1) / T::tile;
    s.keys = (tiles + s.count - 1) / s.count * std::size_t(T::tile);
    return s;
  }
  std::size_t start(std::size_t q) const { return q * keys; }
  std::size_t size(std::size_t q, std::size_t n) const { return n - start(q) < keys ? n - start(q) : keys; }
};

template <class K, class P> struct buffers {
  using T = tuning<typename key_traits<K>::bits, P>;
  int passes = 0, slots = 0;  // slots: passes, plus one for an in-place copy
  std::size_t portions = 0, max_tiles = 0;
  unsigned* hist = nullptr;  // [pass][portion][digit]
  unsigned* counters = nullptr;  // [slot][portion]
  unsigned* hist2 = nullptr;  // [pass][portion][digit] of the offset digits
  key_span* span = nullptr;
  // the counting pass of few values (onesweep_values.cuh): one portion,
  // and at least two passes to save
  value_table<value_word<typename key_traits<K>::bits>>* values = nullptr;
  unsigned* lookback[2] = {nullptr, nullptr};  // [tile][digit], alternating between launches
  unsigned long long* base = nullptr;  // [pass][portion][digit]: portion 0 from the scan, the rest chained
  slot_plan* plan = nullptr;  // [slot]
  K* keys_alt = nullptr;
  P* vals_alt = nullptr;
  std::size_t zero_bytes = 0;  // hist .. lookback[0], zeroed at the start

  buffers(temp_layout& t, const sort_problem<K, P>& p) {
    if (p.n <= std::size_t(T::small::tile)) return;
    passes = radix::pass_count(p.ord, T::radix_bits);
    slots = passes + 1;
    const auto split = portion_split<T>::of(p.n);
    portions = split.count;
    max_tiles = (split.size(0, p.n) + T::tile - 1) / T::tile;  // portion 0 is the biggest
    hist = t.take<unsigned>(std::size_t(passes) * portions * T::bins);
    counters = t.take<unsigned>(std::size_t(slots) * portions);
    if (p.n > T::fused_max) span = t.take<key_span>(1);
    if (p.n > T::fused_max && portions == 1 && passes >= 2)
      values = t.take<value_table<value_word<typename key_traits<K>::bits>>>(1);
    if (radix::pass_key<K>::offsets_for(p.ord) && p.n > T::fused_max)
      hist2 = t.take<unsigned>(std::size_t(passes) * portions * T::bins);
    lookback[0] = t.take<unsigned>(max_tiles * T::bins);
    zero_bytes = t.bytes();
    lookback[1] = t.take<unsigned>(max_tiles * T::bins);
    base = t.take<unsigned long long>(std::size_t(passes) * portions * T::bins);
    plan = t.take<slot_plan>(std::size_t(slots) + 1);  // and the presorted launch's
    keys_alt = t.take<K>(p.n);
    vals_alt = is_no_value<P> ? nullptr : t.take<P>(p.n);
  }
};

struct family {
  static constexpr algorithm id = algorithm::radix_onesweep;
  static constexpr bool compares = false;
  static constexpr unsigned value_widths = all_value_widths;

  // argsort's form (core/device_call.hpp) is folded into the passes: the
  // first sorting launch makes the indices from the keys' places, the last
  // one skips the keys and widens the indices. Its one-block sizes take it
  // made around them (run_family.cuh).
  template <class K> static bool takes_form(std::size_t n, std::size_t val_size) {
    using U = typename key_traits<K>::bits;
    if (val_size == 4) return n > std::size_t(tuning<U, std::uint32_t>::small::tile);
    if (val_size == 8) return n > std::size_t(tuning<U, std::uint64_t>::small::tile);
    return false;
  }

  template <class K, class P> static std::size_t temp_bytes(const sort_problem<K, P>& p) {
    temp_layout t;
    buffers<K, P> b(t, p);
    return t.bytes();
  }

  template <class K, class P> static void sort(const sort_problem<K, P>& p, void* temp) {
    using U = typename key_traits<K>::bits;
    using T = tuning<U, P>;
    const call_context& ctx = *p.ctx;
    if (p.n == 0) return;
    const int passes = radix::pass_count(p.ord, T::radix_bits);

    // small n: one block, one launch
    if constexpr (T::small_counters) {
      if (p.n <= std::size_t(T::small_counter_quarter::tile)) {
        radix::small_sort<typename T::small_counter_quarter>(p, "radix onesweep small sort");
        return;
      }
      if (p.n <= std::size_t(T::small_counter_half::tile)) {
        radix::small_sort<typename T::small_counter_half>(p, "radix onesweep small sort");
        return;
      }
      if (p.n <= std::size_t(T::small_counter::tile)) {
        radix::small_sort<typename T::small_counter>(p, "radix onesweep small sort");
        return;
      }
    }
    if (p.n <= std::size_t(T::small_half::tile)) {
      radix::block_sort<typename T::small_half>(p, p.keys_in, p.keys_out, p.vals_in, p.vals_out, passes, 1,
                                                "radix onesweep small sort");
      return;
    }
    if (p.n <= std::size_t(T::small::tile)) {
      radix::block_sort<typename T::small>(p, p.keys_in, p.keys_out, p.vals_in, p.vals_out, passes, 1,
                                           "radix onesweep small sort");
      return;
    }

    temp_layout t(temp);
    const buffers<K, P> b(t, p);
    const auto split = portion_split<T>::of(p.n);
    const bool in_place = p.keys_in == p.keys_out || (!is_no_value<P> && p.vals_in == p.vals_out);
    const int slots = passes + (in_place && passes % 2 == 1 ? 1 : 0);
    ctx.check(cudaMemsetAsync(b.hist, 0, b.zero_bytes, p.stream), "cudaMemsetAsync(radix onesweep counters)");

    // histograms, scan, plan
    pass_digits<K, T::max_passes> digits{};
    digits.passes = passes;
    digits.ord = p.ord;
    for (int i = 0; i < passes; ++i) digits.pass[i] = radix::digit_map<K>::of(p.ord, T::radix_bits, i);
    if (p.n <= T::fused_max) {
      histogram_scan_kernel<T, K><<<1, T::bins, 0, p.stream>>>(p.keys_in, p.n, digits, b.base, b.plan, slots, in_place);
      ctx.check_launch("radix onesweep histogram+scan");
    } else {
      const std::size_t per_block = std::size_t(T::hist_threads) * T::hist_items;
      const std::size_t wanted = (b.max_tiles * T::tile + per_block - 1) / per_block;
      const std::size_t waves = (p.n + T::hist_wave - 1) / T::hist_wave;
      const std::size_t most = (std::size_t(sm_count(ctx)) * T::hist_blocks_per_sm * waves + b.portions - 1) / b.portions;
      const dim3 grid(unsigned(wanted < most ? wanted : most), unsigned(b.portions));
      histogram_kernel<T, K><<<grid, T::hist_threads, 0, p.stream>>>(p.keys_in, p.n, split.keys, digits, b.hist,
                                                                     b.span);
      ctx.check_launch("radix onesweep histogram");
      scan_kernel<T, K><<<1, T::bins, 0, p.stream>>>(b.hist, b.base, passes, b.portions, p.n, b.plan, slots,
                                                     in_place, b.span, b.hist2 != nullptr,
                                                     reinterpret_cast<const U*>(p.keys_in), digits, b.values);
      ctx.check_launch("radix onesweep scan");
      if (b.hist2) {
        histogram_kernel<T, K, true><<<grid, T::hist_threads, 0, p.stream>>>(p.keys_in, p.n, split.keys, digits,
                                                                           b.hist2, b.span);
        ctx.check_launch("radix onesweep offset histogram");
        offset_scan_kernel<T><<<1, T::bins, 0, p.stream>>>(b.hist2, b.base, passes, b.portions, p.n, b.plan, slots,
                                                           in_place, b.span, true);
        ctx.check_launch("radix onesweep offset scan");
      }
    }

    // the launches' common arguments
    pass_args<K, P> common{};
    common.keys_in = reinterpret_cast<const U*>(p.keys_in);
    common.keys_out = reinterpret_cast<U*>(p.keys_out);
    common.keys_alt = reinterpret_cast<U*>(b.keys_alt);
    common.vals_in = p.vals_in;
    common.vals_out = p.vals_out;
    common.vals_alt = b.vals_alt;
    common.plan = b.plan;
    common.pad = radix::pad_bits(p.ord);
    common.offset = b.hist2 ? &b.span->base : nullptr;
    common.positions = p.form.positions;
    common.keys_dropped = p.form.keys_dropped;
    common.wide_out = p.form.wide_out;
    common.slots = slots;
    common.total = p.n;
    common.ord = p.ord;
    constexpr bool formable = std::is_same_v<P, std::uint32_t> || std::is_same_v<P, std::uint64_t>;

    constexpr std::size_t shared_bytes = pass_shared<T, U, P>::bytes;
    // the counting pass of few values (plan[slots]: slot_values): the first
    // pass launch's tiles, its counter and look-back table
    if (b.values) {
      auto values = values_kernel<T, K, P>;
      if constexpr (formable)
        if (p.form.any()) values = values_kernel<T, K, P, true>;
      constexpr std::size_t values_bytes = values_shared<T, K, P>::bytes;
      allow_shared_memory(ctx, values, values_bytes, "cudaFuncSetAttribute(radix onesweep values)");
      pass_args<K, P> a = common;
      a.slot = slots;
      a.key_table = b.values;
      a.lookback = b.lookback[0];
      a.counter = b.counters;
      const std::size_t tiles = (p.n + T::tile - 1) / T::tile;
      const std::size_t resident = resident_grid(ctx, values, T::threads, values_bytes);
      values<<<unsigned(tiles < resident ? tiles : resident), T::threads, values_bytes, p.stream>>>(a);
      ctx.check_launch("radix onesweep values");
    }

    // the presorted launch (plan[slots]: a lone copy, or the reversal),
    // which the fused plan of few keys never makes
    if (p.n > T::fused_max) {
      auto presorted = presorted_kernel<T, K, P>;
      if constexpr (formable)
        if (p.form.any()) presorted = presorted_kernel<T, K, P, true>;
      pass_args<K, P> a = common;
      a.slot = slots;
      const std::size_t tiles = (p.n + T::tile - 1) / T::tile;
      const std::size_t resident = resident_grid(ctx, presorted, T::threads);
      presorted<<<unsigned(tiles < resident ? tiles : resident), T::threads, 0, p.stream>>>(a);
      ctx.check_launch("radix onesweep presorted");
    }

    // one launch per slot and portion
    auto kernel = pass_kernel_for<T, K, P, portion_tiles>(p.ord);
    if constexpr (formable)
      if (p.form.any()) kernel = pass_kernel_for<T, K, P, portion_tiles, true>(p.ord);
    allow_shared_memory(ctx, kernel, shared_bytes, "cudaFuncSetAttribute(radix onesweep pass)");
    auto tiles_of = [&](std::size_t q) { return (split.size(q, p.n) + T::tile - 1) / T::tile; };
    const std::size_t launches = std::size_t(slots) * b.portions;
    for (std::size_t e = 0; e < launches; ++e) {
      const int slot = int(e / b.portions);
      const std::size_t q = e % b.portions;
      const int pass = slot < passes ? slot : passes - 1;  // the extra slot only copies
      pass_args<K, P> a = common;
      a.slot = slot;
      a.geo = {split.start(q), unsigned(split.size(q, p.n)), b.base + (std::size_t(pass) * b.portions + q) * T::bins};
      a.next_base = q + 1 < b.portions ? b.base + (std::size_t(pass) * b.portions + q + 1) * T::bins : nullptr;
      a.lookback = b.lookback[e % 2];
      a.counter = b.counters + e;
      a.next_lookback = b.lookback[(e + 1) % 2];
      a.next_words = e + 1 < launches ? tiles_of((q + 1) % b.portions) * T::bins : 0;
      a.digit = digits.pass[pass];
      kernel<<<unsigned(tiles_of(q)), T::threads, shared_bytes, p.stream>>>(a);
      ctx.check_launch("radix onesweep pass");
    }
  }
};

}  // namespace gpusort::detail::radix_onesweep
