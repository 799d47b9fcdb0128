// The host-memory API: gpusort::sort(std::span<K>[, std::span<V>]).
//
// With a CUDA device present the data goes through the host pipeline: in
// core when the array fits the device twice over (in_core.cpp), else out of
// core (out_of_core.cpp), under opt.max_device_bytes; opt.algo sorts the
// chunks. When the device cannot hold even the out-of-core slots the call
// falls back to the CPU. Without a device, or when the caller asks for the
// CPU, the parallel CPU sort runs. Returns the backend and the path that ran.
#include "host/cpu_sort.hpp"
#include "host/pipeline.hpp"

#include "core/validate.hpp"

#include <gpusort/gpusort.hpp>

#include <cuda_runtime_api.h>

#include <algorithm>
#include <string>
#include <type_traits>

namespace gpusort {

bool gpu_available() {
  static const bool present = [] {
    int count = 0;
    cudaError_t e = cudaGetDeviceCount(&count);
    if (e != cudaSuccess) {
      cudaGetLastError();
      return false;
    }
    return count > 0;
  }();
  return present;
}

namespace detail {
namespace {

// One device allocation for the whole call; freed (after the streams are
// drained by ~links) when the call ends.
struct device_block {
  void* ptr = nullptr;
  cudaError_t alloc(std::size_t bytes) { return cudaMalloc(&ptr, bytes ? bytes : 1); }
  ~device_block() {
    if (ptr) cudaFree(ptr);
  }
};

// Keys (and values) already on the device: sorted in place there.
template <class K>
void sort_resident(K* keys, void* vals, std::size_t val_size, std::size_t n, const options& opt,
                   const call_context& ctx) {
  sort_device_alloc<K>(keys, keys, vals, vals, val_size, n, opt, ctx.op);
  ctx.check(cudaStreamSynchronize(opt.stream), "cudaStreamSynchronize");
}

// The pipelined GPU sort of host memory (src/host/plan.hpp). Returns the
// path it took, or host_path::cpu, the input untouched, when the device
// cannot hold even the out-of-core pipeline's slots.
template <class K>
host_path gpu_sort(K* keys, void* vals, std::size_t val_size, std::size_t n, const options& opt, const call_context& ctx) {
  if (host::is_device(keys) && (!vals || host::is_device(vals))) {
    sort_resident(keys, vals, val_size, n, opt, ctx);
    return host_path::device_resident;
  }
  const host::host_call<K> c{keys, vals, val_size, n, opt, &ctx, host::is_pinned(keys), vals && host::is_pinned(vals)};
  std::size_t free_bytes = 0, total = 0;
  ctx.check(cudaMemGetInfo(&free_bytes, &total), "cudaMemGetInfo");
  // leave room for the runtime, the caller's other streams and the pool
  std::size_t budget = free_bytes - std::min(free_bytes, std::max<std::size_t>(free_bytes / 20, std::size_t(256) << 20));
  if (opt.max_device_bytes) budget = std::min(budget, opt.max_device_bytes);
  const auto temp = [&](std::size_t m) { return host::sort_temp(c, m); };
  const host::in_core_plan in = host::plan_in_core(n, sizeof(K), val_size, host::merge_tile_for(c), temp);
  device_block dev;
  if (in.device_bytes <= budget && dev.alloc(in.device_bytes) == cudaSuccess) {
    host::links l(ctx, opt.stream);
    host::mover m(ctx, l.up, l.down);
    host::sort_in_core(c, in, dev.ptr, l, m);
    return host_path::device_in_core;
  }
  cudaGetLastError();
  // Equal integer keys over all their bits, without values, cannot be told
  // apart: their runs may be dealt (run_layout.hpp).
  const bool whole_keys = opt.begin_bit == 0 && (opt.end_bit < 0 || opt.end_bit == int(sizeof(K) * 8));
  const bool dealt = std::is_integral_v<K> && val_size == 0 && whole_keys;
  const host::out_of_core_plan out = host::plan_out_of_core(n, sizeof(K), val_size, budget, temp, dealt);
  if (!out.ok || dev.alloc(out.device_bytes) != cudaSuccess) {
    cudaGetLastError();
    return host_path::cpu;
  }
  host::links l(ctx, opt.stream);
  host::mover m(ctx, l.up, l.down);
  host::sort_out_of_core(c, out, dev.ptr, l, m);
  return host_path::device_out_of_core;
}

}  // namespace

template <class K>
sort_result sort_host(K* keys, void* vals, std::size_t val_size, std::size_t n, const options& opt, bool force_cpu) {
  call_context ctx;
  ctx.op = vals ? "sort(pairs)" : "sort";
  ctx.key = key_info<K>::name;
  ctx.algo = "host";
  ctx.n = n;
  if (n > 0 && !keys) ctx.fail(errc::invalid_argument, "null key pointer with n > 0");
  if (val_size > 0 && n > 0 && !vals) ctx.fail(errc::invalid_argument, "null value pointer with n > 0");
  checked_order<K>(opt, ctx);
  if (!force_cpu && gpu_available() && n > 0) {
    const host_path path = gpu_sort(keys, vals, val_size, n, opt, ctx);
    if (path != host_path::cpu) return {backend::gpu, path};
  }
  ctx.algo = "cpu_parallel";
  cpu_sort(keys, vals, val_size, n, opt, ctx);
  return {backend::cpu_parallel, host_path::cpu};
}

#define GPUSORT_INSTANTIATE_HOST(K) \
  template sort_result sort_host<K>(K*, void*, std::size_t, std::size_t, const options&, bool);
GPUSORT_FOR_EACH_KEY(GPUSORT_INSTANTIATE_HOST)

}  // namespace detail
}  // namespace gpusort
