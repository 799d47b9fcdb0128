// The device entry point behind every public sort_keys / sort_pairs call:
// validate, choose the algorithm, size or carve the one scratch allocation,
// and pick how values travel.
//
// Values of width 1, 2, 4, 8 or 16 bytes whose arrays are aligned to that
// width travel as an opaque payload of the width. Any other value (3, 12
// bytes..., or a misaligned array) travels as its index: the sort carries
// u32/u64 indices, then one gather kernel moves the values.
#pragma once

#include "core/families.cuh"
#include "core/launch.cuh"
#include "core/temp_layout.hpp"
#include "core/validate.hpp"

#include <gpusort/gpusort.hpp>

#include <cstdint>
#include <string>

namespace gpusort::detail {

template <class I> __global__ void iota_kernel(I* out, std::size_t n) {
  for (std::size_t i = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += std::size_t(gridDim.x) * blockDim.x)
    out[i] = I(i);
}

template <class I>
__global__ void gather_kernel(const std::uint8_t* src, std::uint8_t* dst, const I* idx, std::size_t n, std::size_t width) {
  for (std::size_t i = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += std::size_t(gridDim.x) * blockDim.x) {
    const std::uint8_t* from = src + std::size_t(idx[i]) * width;
    std::uint8_t* to = dst + i * width;
    for (std::size_t b = 0; b < width; ++b) to[b] = from[b];
  }
}

// Sizes (temp == nullptr) or runs one sort whose values travel as payload P.
template <class K, class P>
void run_native(algorithm algo, sort_problem<K, P> p, void* temp, std::size_t* temp_bytes) {
  temp_layout plan(temp);
  void* family = plan.take<std::uint8_t>(family_temp_bytes(algo, p));
  if (!temp) {
    *temp_bytes = plan.bytes() ? plan.bytes() : 1;
    return;
  }
  if (*temp_bytes < plan.bytes())
    p.ctx->fail(errc::invalid_argument, "temp_bytes smaller than the query returned (" + std::to_string(plan.bytes()) + ")");
  family_sort(algo, p, family);
}

// Values of any width: sort (key, index) pairs, then gather the values.
template <class K, class I>
void run_indexed(algorithm algo, sort_problem<K, I> p, const void* vin, void* vout, std::size_t width, void* temp,
                 std::size_t* temp_bytes) {
  const call_context& ctx = *p.ctx;
  temp_layout plan(temp);
  I* idx_in = plan.take<I>(p.n);
  I* idx_out = plan.take<I>(p.n);
  std::uint8_t* copy = vin == vout ? plan.take<std::uint8_t>(p.n * width) : nullptr;
  void* family = plan.take<std::uint8_t>(family_temp_bytes(algo, p));
  if (!temp) {
    *temp_bytes = plan.bytes() ? plan.bytes() : 1;
    return;
  }
  if (*temp_bytes < plan.bytes())
    ctx.fail(errc::invalid_argument, "temp_bytes smaller than the query returned (" + std::to_string(plan.bytes()) + ")");
  if (p.n == 0) return;
  const std::uint8_t* src = static_cast<const std::uint8_t*>(vin);
  if (copy) {
    ctx.check(cudaMemcpyAsync(copy, vin, p.n * width, cudaMemcpyDeviceToDevice, p.stream), "cudaMemcpyAsync(values)");
    src = copy;
  }
  iota_kernel<<<grid_for(p.n, 256), 256, 0, p.stream>>>(idx_in, p.n);
  ctx.check_launch("iota");
  p.vals_in = idx_in;
  p.vals_out = idx_out;
  family_sort(algo, p, family);
  gather_kernel<<<grid_for(p.n, 256), 256, 0, p.stream>>>(src, static_cast<std::uint8_t*>(vout), idx_out, p.n, width);
  ctx.check_launch("value gather");
}

template <class K, int W>
bool try_native(algorithm algo, const sort_problem<K, no_value>& base, const void* vin, void* vout,
                std::size_t width, void* temp, std::size_t* temp_bytes) {
  using P = typename payload_of<W>::type;
  if (width != W) return false;
  if (reinterpret_cast<std::uintptr_t>(vin) % alignof(P) || reinterpret_cast<std::uintptr_t>(vout) % alignof(P))
    return false;
  sort_problem<K, P> p{base.keys_in, base.keys_out, static_cast<const P*>(vin), static_cast<P*>(vout),
                       base.n, base.ord, base.stream, base.ctx, base.pivots};
  run_native(algo, p, temp, temp_bytes);
  return true;
}

template <class K>
void sort_device(void* temp, std::size_t* temp_bytes, const K* keys_in, K* keys_out, const void* vals_in,
                 void* vals_out, std::size_t val_size, std::size_t n, const options& opt, const char* op) {
  call_context ctx;
  ctx.op = op;
  ctx.key = key_info<K>::name;
  ctx.n = n;
  ctx.temp_bytes = temp_bytes ? *temp_bytes : 0;
  const algorithm algo = resolve(opt.algo);
  std::string_view name = to_string(algo);
  ctx.algo = name.empty() ? "?" : name.data();
  // arguments
  if (!temp_bytes) ctx.fail(errc::invalid_argument, "temp_bytes is null");
  if (name.empty()) ctx.fail(errc::invalid_argument, "unknown algorithm " + std::to_string(int(opt.algo)));
  if (n > 0 && (!keys_in || !keys_out)) ctx.fail(errc::invalid_argument, "null key pointer with n > 0");
  if (val_size > 0 && n > 0 && (!vals_in || !vals_out)) ctx.fail(errc::invalid_argument, "null value pointer with n > 0");
  if (val_size > 16) ctx.fail(errc::invalid_argument, "values wider than 16 bytes");
  sort_problem<K, no_value> p{keys_in, keys_out, nullptr, nullptr, n, checked_order<K>(opt, ctx), opt.stream, &ctx,
                              opt.pivots};
  if (val_size == 0) return run_native(algo, p, temp, temp_bytes);
  if (try_native<K, 1>(algo, p, vals_in, vals_out, val_size, temp, temp_bytes) ||
      try_native<K, 2>(algo, p, vals_in, vals_out, val_size, temp, temp_bytes) ||
      try_native<K, 4>(algo, p, vals_in, vals_out, val_size, temp, temp_bytes) ||
      try_native<K, 8>(algo, p, vals_in, vals_out, val_size, temp, temp_bytes) ||
      try_native<K, 16>(algo, p, vals_in, vals_out, val_size, temp, temp_bytes))
    return;
  if (n <= 0xFFFFFFFFull) {
    sort_problem<K, std::uint32_t> q{keys_in, keys_out, nullptr, nullptr, n, p.ord, opt.stream, &ctx, p.pivots};
    run_indexed(algo, q, vals_in, vals_out, val_size, temp, temp_bytes);
  } else {
    sort_problem<K, std::uint64_t> q{keys_in, keys_out, nullptr, nullptr, n, p.ord, opt.stream, &ctx, p.pivots};
    run_indexed(algo, q, vals_in, vals_out, val_size, temp, temp_bytes);
  }
}

template <class K>
void sort_device_alloc(const K* keys_in, K* keys_out, const void* vals_in, void* vals_out, std::size_t val_size,
                       std::size_t n, const options& opt, const char* op) {
  std::size_t bytes = 0;
  sort_device<K>(nullptr, &bytes, keys_in, keys_out, vals_in, vals_out, val_size, n, opt, op);
  call_context ctx;
  ctx.op = op;
  ctx.key = key_info<K>::name;
  ctx.algo = to_string(resolve(opt.algo)).data();
  ctx.n = n;
  ctx.temp_bytes = bytes;
  void* temp = nullptr;
  // Nothing has touched the input yet: an allocation failure leaves it intact.
  ctx.check(cudaMallocAsync(&temp, bytes, opt.stream), ("cudaMallocAsync(" + std::to_string(bytes) + " bytes)").c_str());
  try {
    sort_device<K>(temp, &bytes, keys_in, keys_out, vals_in, vals_out, val_size, n, opt, op);
  } catch (...) {
    cudaFreeAsync(temp, opt.stream);
    throw;
  }
  ctx.check(cudaFreeAsync(temp, opt.stream), "cudaFreeAsync");
}

}  // namespace gpusort::detail

#define GPUSORT_INSTANTIATE_DEVICE(K)                                                                          \
  template void gpusort::detail::sort_device<K>(void*, std::size_t*, const K*, K*, const void*, void*,         \
                                                std::size_t, std::size_t, const gpusort::options&, const char*); \
  template void gpusort::detail::sort_device_alloc<K>(const K*, K*, const void*, void*, std::size_t,           \
                                                      std::size_t, const gpusort::options&, const char*);
