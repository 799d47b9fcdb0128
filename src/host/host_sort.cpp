// The host-memory API: gpusort::sort(std::span<K>[, std::span<V>]).
//
// With a CUDA device present the data is copied to the device, sorted there
// with opt.algo and copied back; if the device cannot hold it (allocation
// fails) the call falls back to the CPU. Without a device, or when the
// caller asks for the CPU, the parallel CPU sort runs. Returns the backend
// that ran.
#include "host/cpu_sort.hpp"

#include "core/validate.hpp"

#include <gpusort/gpusort.hpp>

#include <cuda_runtime_api.h>

#include <string>

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

// Device buffer owned for the duration of one host call.
struct device_buffer {
  void* ptr = nullptr;
  cudaError_t alloc(std::size_t bytes) { return cudaMalloc(&ptr, bytes ? bytes : 1); }
  ~device_buffer() {
    if (ptr) cudaFree(ptr);
  }
};

// Sorts on the GPU; returns false (input untouched) when device memory is short.
template <class K>
bool gpu_sort(K* keys, void* vals, std::size_t val_size, std::size_t n, const options& opt, const call_context& ctx) {
  device_buffer dk, dv, temp;
  std::size_t bytes = 0;
  if (dk.alloc(n * sizeof(K)) != cudaSuccess || (vals && dv.alloc(n * val_size) != cudaSuccess)) {
    cudaGetLastError();
    return false;
  }
  K* d_keys = static_cast<K*>(dk.ptr);
  sort_device<K>(nullptr, &bytes, d_keys, d_keys, dv.ptr, dv.ptr, vals ? val_size : 0, n, opt, ctx.op);
  if (temp.alloc(bytes) != cudaSuccess) {
    cudaGetLastError();
    return false;
  }
  cudaStream_t s = opt.stream;
  ctx.check(cudaMemcpyAsync(d_keys, keys, n * sizeof(K), cudaMemcpyHostToDevice, s), "cudaMemcpyAsync(keys to device)");
  if (vals) ctx.check(cudaMemcpyAsync(dv.ptr, vals, n * val_size, cudaMemcpyHostToDevice, s), "cudaMemcpyAsync(values to device)");
  sort_device<K>(temp.ptr, &bytes, d_keys, d_keys, dv.ptr, dv.ptr, vals ? val_size : 0, n, opt, ctx.op);
  ctx.check(cudaMemcpyAsync(keys, d_keys, n * sizeof(K), cudaMemcpyDeviceToHost, s), "cudaMemcpyAsync(keys to host)");
  if (vals) ctx.check(cudaMemcpyAsync(vals, dv.ptr, n * val_size, cudaMemcpyDeviceToHost, s), "cudaMemcpyAsync(values to host)");
  ctx.check(cudaStreamSynchronize(s), "cudaStreamSynchronize");
  return true;
}

}  // namespace

template <class K>
backend sort_host(K* keys, void* vals, std::size_t val_size, std::size_t n, const options& opt, bool force_cpu) {
  call_context ctx;
  ctx.op = vals ? "sort(pairs)" : "sort";
  ctx.key = key_info<K>::name;
  ctx.algo = "host";
  ctx.n = n;
  if (n > 0 && !keys) ctx.fail(errc::invalid_argument, "null key pointer with n > 0");
  if (val_size > 0 && n > 0 && !vals) ctx.fail(errc::invalid_argument, "null value pointer with n > 0");
  checked_order<K>(opt, ctx);
  if (!force_cpu && gpu_available() && n > 0) {
    if (gpu_sort(keys, vals, val_size, n, opt, ctx)) return backend::gpu;
  }
  ctx.algo = "cpu_parallel";
  cpu_sort(keys, vals, val_size, n, opt, ctx);
  return backend::cpu_parallel;
}

#define GPUSORT_INSTANTIATE_HOST(K) \
  template backend sort_host<K>(K*, void*, std::size_t, std::size_t, const options&, bool);
GPUSORT_FOR_EACH_KEY(GPUSORT_INSTANTIATE_HOST)

}  // namespace detail
}  // namespace gpusort
