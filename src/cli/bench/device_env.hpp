// What the benchmark runs on: the GPU (if any), its copy bandwidth (the
// roofline the table compares against), free memory, and an owning device
// buffer type.
#pragma once

#include <cuda_runtime_api.h>

#include <cstddef>
#include <string>

namespace gpusort::cli::bench {

struct environment {
  bool gpu = false;
  std::string no_gpu_reason;     // why not, when !gpu
  std::string device_name = "cpu";
  std::string runtime_version = "none";  // CUDA runtime, "13.0"
  std::string driver_version = "none";   // newest CUDA the driver supports
  double copy_gbps = 0;          // device-to-device copy, bytes read + written per s
  int cpu_threads = 1;
  // Host <-> device copies (measured for the host rows only; 0 otherwise):
  // pinned 1 GiB copies each way alone and both at once (GB/s each way),
  // and a 1 GiB memcpy between pageable buffers on every thread.
  double h2d_gbps = 0, d2h_gbps = 0, duplex_h2d_gbps = 0, duplex_d2h_gbps = 0, host_memcpy_gbps = 0;
};

// Looks for device 0; with a GPU and `measure`, times copy bandwidth.
environment probe_environment(bool measure);
// Fills env's host copy rates.
void measure_host_copies(environment& env);
// "NVIDIA H200" -> "nvidia-h200" (file name for the CSV).
std::string device_slug(const std::string& name);
// Free device memory now (cudaMemGetInfo).
std::size_t device_free_bytes();

// cudaMalloc'd memory, freed on destruction; throws gpusort::error (naming
// `what` and the size) when it cannot be allocated.
class device_buffer {
 public:
  device_buffer() = default;
  device_buffer(std::size_t bytes, const char* what);
  ~device_buffer();
  device_buffer(device_buffer&& o) noexcept : p_(o.p_), bytes_(o.bytes_) { o.p_ = nullptr, o.bytes_ = 0; }
  device_buffer& operator=(device_buffer&& o) noexcept;
  device_buffer(const device_buffer&) = delete;
  device_buffer& operator=(const device_buffer&) = delete;
  void* get() const { return p_; }
  template <class T> T* as() const { return static_cast<T*>(p_); }
  std::size_t bytes() const { return bytes_; }

 private:
  void* p_ = nullptr;
  std::size_t bytes_ = 0;
};

}  // namespace gpusort::cli::bench
