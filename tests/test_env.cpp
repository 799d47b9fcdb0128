#include "test_env.hpp"

namespace gpusort_test {

const cuda_environment& cuda_env() {
  static const cuda_environment env = [] {
    cuda_environment e;
    e.status = cudaGetDeviceCount(&e.device_count);
    if (e.status != cudaSuccess) {
      e.device_count = 0;
      cudaGetLastError();  // leave no error behind for the suites
    } else if (e.device_count > 0) {
      cudaDeviceProp prop{};
      if (cudaGetDeviceProperties(&prop, 0) == cudaSuccess) e.device_name = prop.name;
    }
    return e;
  }();
  return env;
}

bool has_gpu() { return cuda_env().device_count > 0; }

std::string no_gpu_reason() {
  const auto& e = cuda_env();
  std::string why = e.status == cudaSuccess
                        ? std::string("cudaSuccess, 0 devices")
                        : std::string(cudaGetErrorName(e.status)) + ": " + cudaGetErrorString(e.status);
  return "no CUDA device: GPU tests will be skipped (cudaGetDeviceCount returned " + why + ")";
}

std::string describe_env() {
  const auto& e = cuda_env();
  if (e.device_count == 0) return no_gpu_reason();
  return "CUDA device 0: " + e.device_name + " (" + std::to_string(e.device_count) +
         " device(s)); GPU tests will run";
}

}  // namespace gpusort_test
