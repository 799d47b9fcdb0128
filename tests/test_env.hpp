// What the test process knows about its environment: whether a CUDA device
// is present. Queried once (cudaGetDeviceCount) and shared by main(), which
// reports it, and by the GPU suites, which skip themselves without one.
#pragma once

#include <cuda_runtime_api.h>

#include <string>

namespace gpusort_test {

struct cuda_environment {
  int device_count = 0;
  cudaError_t status = cudaSuccess;  // what cudaGetDeviceCount returned
  std::string device_name;           // device 0, when there is one
};

const cuda_environment& cuda_env();
bool has_gpu();
// "no CUDA device: GPU tests will be skipped (cudaGetDeviceCount returned ...)".
std::string no_gpu_reason();
// One line for the start of the run: the device, or no_gpu_reason().
std::string describe_env();

}  // namespace gpusort_test
