// Built by .ci/run against the installed gpusort: the library API and the
// header-only comparator API compile and link from the public headers
// alone. Run with a GPU, it sorts a few keys both ways and checks them.
#include <gpusort/gpusort.hpp>
#include <gpusort/merge_sort.cuh>

#include <cuda_runtime.h>

#include <algorithm>
#include <cstdio>
#include <vector>

struct by_value {
  __device__ bool operator()(float a, float b) const { return a < b; }
};

int main() {
  if (!gpusort::gpu_available()) {
    std::printf("consumer: built; no GPU, nothing run\n");
    return 0;
  }
  std::vector<float> h = {3.5f, -1.0f, 2.0f, 0.0f, -7.25f};
  const std::size_t n = h.size();
  float* d = nullptr;
  float* e = nullptr;
  cudaMalloc(&d, n * sizeof(float));
  cudaMalloc(&e, n * sizeof(float));
  cudaMemcpy(d, h.data(), n * sizeof(float), cudaMemcpyHostToDevice);
  gpusort::sort_keys(d, n);
  gpusort::merge_sort_keys(d, e, n, by_value{});
  std::vector<float> a(n), b(n);
  cudaMemcpy(a.data(), d, n * sizeof(float), cudaMemcpyDeviceToHost);
  cudaMemcpy(b.data(), e, n * sizeof(float), cudaMemcpyDeviceToHost);
  std::sort(h.begin(), h.end());
  cudaFree(d);
  cudaFree(e);
  const bool ok = a == h && b == h;
  std::printf("consumer: %s\n", ok ? "sorted" : "WRONG");
  return ok ? 0 : 1;
}
