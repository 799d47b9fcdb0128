// radix_split: LSD radix sort built from a split, one bit per pass (Cozzi, "Parallel Algorithms Continued" (CIS 565, 2012),
// "Implement split"; Blelloch 1990; GPU Gems 3, ch. 39). For bit b of the
// order, from the least significant:
//   e[i] = 1 if key i has bit b clear (a "false")
//   f    = exclusive scan of e           (cub::DeviceScan, in place)
//   totalFalses = e[n-1] + f[n-1]
//   t[i] = i - f[i] + totalFalses        (where the trues go)
//   d[i] = b[i] ? t[i] : f[i]            (scatter address)
// and the keys (and values) are scattered to d. Falses keep their order and
// so do trues: the split is stable, and so is the sort. The f array is the
// only per-item scratch besides the ping-pong buffers; t and d are computed
// in the scatter. A teaching sort: (end_bit - begin_bit) passes over memory.
#pragma once

#include <gpusort/detail/core/launch.cuh>
#include "core/problem.cuh"
#include <gpusort/detail/core/temp_layout.hpp>
#include "radix/digit.cuh"

#include <cub/device/device_scan.cuh>

#include <cstddef>
#include <cstdint>

namespace gpusort::detail::radix_split {

struct tuning {
  static constexpr int threads = 256;
};

// e[i]: 1 where bit `digit` of key i is clear.
template <class K, class C>
__global__ void __launch_bounds__(tuning::threads)
flag_kernel(const K* keys, std::size_t n, radix::digit_map<K> bit, C* e) {
  using U = typename key_traits<K>::bits;
  const U* in = reinterpret_cast<const U*>(keys);
  const std::size_t stride = std::size_t(gridDim.x) * tuning::threads;
  for (std::size_t i = std::size_t(blockIdx.x) * tuning::threads + threadIdx.x; i < n; i += stride)
    e[i] = C(bit(in[i]) ^ 1u);
}

// Scatters key i (and value i) to d[i]; f holds the exclusive scan of e.
template <class K, class P, class C>
__global__ void __launch_bounds__(tuning::threads)
scatter_kernel(const K* kin, K* kout, const P* vin, P* vout, std::size_t n, radix::digit_map<K> bit, const C* f) {
  using U = typename key_traits<K>::bits;
  const U* in = reinterpret_cast<const U*>(kin);
  U* out = reinterpret_cast<U*>(kout);
  const std::size_t total_falses = std::size_t(f[n - 1]) + (bit(in[n - 1]) ^ 1u);
  const std::size_t stride = std::size_t(gridDim.x) * tuning::threads;
  for (std::size_t i = std::size_t(blockIdx.x) * tuning::threads + threadIdx.x; i < n; i += stride) {
    const U k = in[i];
    const std::size_t fi = f[i];
    const std::size_t d = bit(k) ? i - fi + total_falses : fi;  // t[i] for trues, f[i] for falses
    out[d] = k;
    if constexpr (!is_no_value<P>) vout[d] = vin[i];
  }
}

// Counts fit 32 bits below 2^32 items; past that they take 64.
template <class C, class K, class P> struct plan {
  K* keys_alt = nullptr;
  P* vals_alt = nullptr;
  C* f = nullptr;
  void* scan_temp = nullptr;
  std::size_t scan_bytes = 0;

  plan(temp_layout& t, const sort_problem<K, P>& p) {
    p.ctx->check(cub::DeviceScan::ExclusiveSum(nullptr, scan_bytes, static_cast<C*>(nullptr),
                                               static_cast<C*>(nullptr), p.n, p.stream),
                 "cub::DeviceScan::ExclusiveSum(size)");
    keys_alt = t.take<K>(p.n);
    vals_alt = is_no_value<P> ? nullptr : t.take<P>(p.n);
    f = t.take<C>(p.n);
    scan_temp = t.take<std::uint8_t>(scan_bytes);
  }
};

template <class C, class K, class P> void run(const sort_problem<K, P>& p, void* temp) {
  const call_context& ctx = *p.ctx;
  temp_layout t(temp);
  plan<C, K, P> b(t, p);
  const int bits = radix::range_bits(p.ord);
  const unsigned grid = grid_for(p.n, tuning::threads, 1u << 16);
  // Ping-pong so that the last pass writes the output: pass j (1-based)
  // writes the output when bits - j is even. In place with an odd number of
  // passes, the input moves to the scratch buffer first.
  const K* src = p.keys_in;
  const P* vsrc = p.vals_in;
  const bool in_place = p.keys_in == p.keys_out || (!is_no_value<P> && p.vals_in == p.vals_out);
  if (in_place && bits % 2 == 1) {
    copy_to_output(ctx, p.keys_in, b.keys_alt, p.vals_in, b.vals_alt, p.n, p.stream);
    src = b.keys_alt;
    vsrc = b.vals_alt;
  }
  for (int j = 1; j <= bits; ++j) {
    const bool to_out = (bits - j) % 2 == 0;
    K* dst = to_out ? p.keys_out : b.keys_alt;
    P* vdst = to_out ? p.vals_out : b.vals_alt;
    const auto bit = radix::digit_map<K>::of(p.ord, 1, j - 1);
    flag_kernel<<<grid, tuning::threads, 0, p.stream>>>(src, p.n, bit, b.f);
    ctx.check_launch("radix split flags");
    std::size_t bytes = b.scan_bytes;
    ctx.check(cub::DeviceScan::ExclusiveSum(b.scan_temp, bytes, b.f, b.f, p.n, p.stream),
              "cub::DeviceScan::ExclusiveSum");
    scatter_kernel<<<grid, tuning::threads, 0, p.stream>>>(src, dst, vsrc, vdst, p.n, bit, b.f);
    ctx.check_launch("radix split scatter");
    src = dst;
    vsrc = vdst;
  }
}

struct family {
  static constexpr algorithm id = algorithm::radix_split;
  static constexpr bool compares = false;
  static constexpr unsigned value_widths = index_value_widths;

  template <class K, class P> static std::size_t temp_bytes(const sort_problem<K, P>& p) {
    if (p.n == 0) return 0;
    temp_layout t;
    if (p.n <= 0xFFFFFFFFull) plan<std::uint32_t, K, P>(t, p);
    else plan<std::uint64_t, K, P>(t, p);
    return t.bytes();
  }

  template <class K, class P> static void sort(const sort_problem<K, P>& p, void* temp) {
    if (p.n == 0) return;
    if (p.n <= 0xFFFFFFFFull) run<std::uint32_t>(p, temp);
    else run<std::uint64_t>(p, temp);
  }
};

}  // namespace gpusort::detail::radix_split
