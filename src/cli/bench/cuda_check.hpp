// Checking CUDA calls in the benchmark: a failed call throws gpusort::error
// naming the call, so the bench reports it like any library failure.
#pragma once

#include <gpusort/error.hpp>

#include <cuda_runtime_api.h>

#include <string>

namespace gpusort::cli::bench {

inline void cuda_check(cudaError_t e, const std::string& what) {
  if (e == cudaSuccess) return;
  throw error(e == cudaErrorMemoryAllocation ? errc::out_of_memory : errc::cuda,
              "bench: " + what + " failed: " + cudaGetErrorName(e) + " (" + cudaGetErrorString(e) +
                  ")",
              e);
}

// For destructors, which must not throw: report and carry on.
void cuda_warn(cudaError_t e, const char* what);

}  // namespace gpusort::cli::bench
