// Error reporting for one sort call: every CUDA call and launch is checked
// through the call's context, which names the operation, the key type, the
// algorithm and the sizes in the gpusort::error it throws.
#pragma once

#include <gpusort/error.hpp>

#include <cuda_runtime_api.h>

#include <cstddef>
#include <string>

namespace gpusort::detail {

struct call_context {
  const char* op = "sort";    // "sort_keys", "sort_pairs", ...
  const char* key = "?";      // key type name, "u32"
  const char* algo = "?";     // algorithm name, "bitonic"
  std::size_t n = 0;
  std::size_t temp_bytes = 0;

  std::string prefix() const {
    return std::string("gpusort::") + op + "<" + key + ">(" + algo + ")";
  }
  std::string sizes() const {
    return " [n=" + std::to_string(n) + ", temp_bytes=" + std::to_string(temp_bytes) + "]";
  }
  [[noreturn]] void fail(errc code, const std::string& what, cudaError_t e = cudaSuccess) const {
    std::string msg = prefix() + ": " + what;
    if (e != cudaSuccess)
      msg += std::string(": ") + cudaGetErrorName(e) + " (" + cudaGetErrorString(e) + ")";
    throw error(code, msg + sizes(), e);
  }
  // Checks a CUDA call; `what` names it ("cudaMemcpyAsync(keys)").
  void check(cudaError_t e, const char* what) const {
    if (e == cudaSuccess) return;
    cudaGetLastError();  // clear the sticky-free error state
    fail(e == cudaErrorMemoryAllocation ? errc::out_of_memory : errc::cuda, std::string(what) + " failed", e);
  }
  // Checks the launch just made; `kernel` names it. The name is formatted
  // into "launch of <kernel>" only on failure: a successful launch costs one
  // cudaGetLastError and no allocation.
  void check_launch(const char* kernel) const {
    const cudaError_t e = cudaGetLastError();
    if (e == cudaSuccess) return;
    check(e, (std::string("launch of ") + kernel).c_str());
  }
};

// The one context factory: every entry point names its call this way.
inline call_context make_context(const char* op, const char* key, const char* algo, std::size_t n,
                                 std::size_t temp_bytes = 0) {
  call_context ctx;
  ctx.op = op;
  ctx.key = key;
  ctx.algo = algo;
  ctx.n = n;
  ctx.temp_bytes = temp_bytes;
  return ctx;
}

// The one allocating wrapper around a two-phase call: call(temp, bytes)
// with temp == nullptr sizes the scratch, then it runs on scratch taken with
// cudaMallocAsync on `stream` and freed after it. Nothing has touched the
// input when the allocation fails, so out of memory leaves it intact.
template <class Call> void allocating_call(call_context ctx, cudaStream_t stream, Call call) {
  std::size_t bytes = 0;
  call(nullptr, bytes);
  ctx.temp_bytes = bytes;
  void* temp = nullptr;
  ctx.check(cudaMallocAsync(&temp, bytes, stream), ("cudaMallocAsync(" + std::to_string(bytes) + " bytes)").c_str());
  try {
    call(temp, bytes);
  } catch (...) {
    cudaFreeAsync(temp, stream);
    throw;
  }
  ctx.check(cudaFreeAsync(temp, stream), "cudaFreeAsync");
}

}  // namespace gpusort::detail
