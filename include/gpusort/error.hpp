// gpusort: the one error type every call raises.
//
// Every failure (bad arguments, a CUDA error, an allocation that does not fit,
// a malformed file) is reported as gpusort::error. Its message names the
// operation, the CUDA error (if any) and the sizes involved, e.g.
//   gpusort::sort_keys<u32>(bitonic): cudaMallocAsync(8388608 bytes) failed:
//   cudaErrorMemoryAllocation (out of memory) [n=2097152]
#pragma once

#include <cuda_runtime_api.h>

#include <cstddef>
#include <stdexcept>
#include <string>

namespace gpusort {

enum class errc {
  invalid_argument,  // null pointer with n > 0, bad bit range, unknown option
  unsupported,       // an option this algorithm does not offer
  cuda,              // a CUDA call or kernel launch failed
  out_of_memory,     // device (or host) memory could not be allocated
  io,                // a file could not be read or written, or is malformed
};

class error : public std::runtime_error {
 public:
  error(errc code, const std::string& what, cudaError_t cuda = cudaSuccess)
      : std::runtime_error(what), code_(code), cuda_(cuda) {}
  errc code() const noexcept { return code_; }
  // cudaSuccess unless a CUDA call failed.
  cudaError_t cuda_error() const noexcept { return cuda_; }

 private:
  errc code_;
  cudaError_t cuda_;
};

}  // namespace gpusort
