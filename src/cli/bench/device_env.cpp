#include "device_env.hpp"

#include "cuda_check.hpp"

#include <algorithm>
#include <chrono>
#include <cstring>
#include <cctype>
#include <cstdio>
#include <vector>

#include <omp.h>

namespace gpusort::cli::bench {

void cuda_warn(cudaError_t e, const char* what) {
  if (e != cudaSuccess)
    std::fprintf(stderr, "gpusort bench: warning: %s failed: %s\n", what, cudaGetErrorString(e));
}

device_buffer::device_buffer(std::size_t bytes, const char* what) : bytes_(bytes) {
  cuda_check(cudaMalloc(&p_, std::max<std::size_t>(bytes, 1)),
             std::string("cudaMalloc(") + std::to_string(bytes) + " bytes for " + what + ")");
}

device_buffer::~device_buffer() {
  if (p_) cuda_warn(cudaFree(p_), "cudaFree");
}

device_buffer& device_buffer::operator=(device_buffer&& o) noexcept {
  if (this != &o) {
    if (p_) cuda_warn(cudaFree(p_), "cudaFree");
    p_ = o.p_, bytes_ = o.bytes_;
    o.p_ = nullptr, o.bytes_ = 0;
  }
  return *this;
}

std::size_t device_free_bytes() {
  std::size_t free_b = 0, total_b = 0;
  cuda_check(cudaMemGetInfo(&free_b, &total_b), "cudaMemGetInfo");
  return free_b;
}

std::string device_slug(const std::string& name) {
  std::string s;
  for (char c : name) {
    unsigned char u = static_cast<unsigned char>(c);
    if (std::isalnum(u) || c == '-' || c == '_' || c == '.')
      s += char(std::tolower(u));
    else if (!s.empty() && s.back() != '-')
      s += '-';
  }
  while (!s.empty() && s.back() == '-') s.pop_back();
  return s.empty() ? "unknown-device" : s;
}

namespace {

std::string cuda_version_text(int v) {
  return std::to_string(v / 1000) + "." + std::to_string((v % 1000) / 10);
}

// Median time of device-to-device copies of the largest buffer (up to
// 2 GiB) that fits twice, as (bytes read + bytes written) / time. This is
// the memory roofline a sort that reads and writes its data once reaches.
double measure_copy_gbps() {
  std::size_t bytes = std::size_t(2) << 30;
  const std::size_t free_b = device_free_bytes();
  while (bytes > (std::size_t(64) << 20) && 2 * bytes + (std::size_t(256) << 20) > free_b)
    bytes /= 2;
  device_buffer src(bytes, "copy bandwidth source"), dst(bytes, "copy bandwidth target");
  cuda_check(cudaMemset(src.get(), 0x5a, bytes), "cudaMemset");
  cudaEvent_t start{}, stop{};
  cuda_check(cudaEventCreate(&start), "cudaEventCreate");
  cuda_check(cudaEventCreate(&stop), "cudaEventCreate");
  std::vector<float> ms;
  for (int r = 0; r < 7; ++r) {
    cuda_check(cudaEventRecord(start), "cudaEventRecord");
    cuda_check(cudaMemcpyAsync(dst.get(), src.get(), bytes, cudaMemcpyDeviceToDevice),
               "cudaMemcpyAsync(device to device)");
    cuda_check(cudaEventRecord(stop), "cudaEventRecord");
    cuda_check(cudaEventSynchronize(stop), "cudaEventSynchronize");
    float t = 0;
    cuda_check(cudaEventElapsedTime(&t, start, stop), "cudaEventElapsedTime");
    if (r > 0) ms.push_back(t);  // the first copy warms up
  }
  cuda_warn(cudaEventDestroy(start), "cudaEventDestroy");
  cuda_warn(cudaEventDestroy(stop), "cudaEventDestroy");
  std::sort(ms.begin(), ms.end());
  const double median_s = ms[ms.size() / 2] * 1e-3;
  return 2.0 * double(bytes) / median_s / 1e9;
}

}  // namespace

environment probe_environment(bool measure) {
  environment env;
  env.cpu_threads = omp_get_max_threads();
  int v = 0;
  if (cudaRuntimeGetVersion(&v) == cudaSuccess) env.runtime_version = cuda_version_text(v);
  if (cudaDriverGetVersion(&v) == cudaSuccess && v > 0) env.driver_version = cuda_version_text(v);
  int count = 0;
  cudaError_t e = cudaGetDeviceCount(&count);
  if (e != cudaSuccess) {
    env.no_gpu_reason = std::string(cudaGetErrorName(e)) + ": " + cudaGetErrorString(e);
    cudaGetLastError();  // clear it
    return env;
  }
  if (count == 0) {
    env.no_gpu_reason = "no devices found";
    return env;
  }
  cudaDeviceProp prop{};
  e = cudaSetDevice(0);
  if (e == cudaSuccess) e = cudaGetDeviceProperties(&prop, 0);
  if (e == cudaSuccess) e = cudaFree(nullptr);  // create the context now, not in a timing
  if (e != cudaSuccess) {
    env.no_gpu_reason = std::string("device 0: ") + cudaGetErrorName(e) + ": " + cudaGetErrorString(e);
    cudaGetLastError();
    return env;
  }
  env.gpu = true;
  env.device_name = prop.name;
  if (measure) env.copy_gbps = measure_copy_gbps();
  return env;
}

void measure_host_copies(environment& env) {
  constexpr std::size_t bytes = std::size_t(1) << 30;
  void *pin_in = nullptr, *pin_out = nullptr;
  cuda_check(cudaHostAlloc(&pin_in, bytes, cudaHostAllocDefault), "cudaHostAlloc");
  cuda_check(cudaHostAlloc(&pin_out, bytes, cudaHostAllocDefault), "cudaHostAlloc");
  std::memset(pin_in, 0x5a, bytes);
  device_buffer a(bytes, "host copy rate source"), b(bytes, "host copy rate target");
  cudaStream_t up{}, down{};
  cuda_check(cudaStreamCreateWithFlags(&up, cudaStreamNonBlocking), "cudaStreamCreate");
  cuda_check(cudaStreamCreateWithFlags(&down, cudaStreamNonBlocking), "cudaStreamCreate");
  auto seconds = [](auto&& run) {
    std::vector<double> t;
    for (int r = 0; r < 6; ++r) {
      const auto t0 = std::chrono::steady_clock::now();
      run();
      if (r > 0) t.push_back(std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
    }
    std::sort(t.begin(), t.end());
    return t[t.size() / 2];
  };
  const double gb = double(bytes) / 1e9;
  env.h2d_gbps = gb / seconds([&] {
    cuda_check(cudaMemcpyAsync(a.get(), pin_in, bytes, cudaMemcpyHostToDevice, up), "cudaMemcpyAsync");
    cuda_check(cudaStreamSynchronize(up), "cudaStreamSynchronize");
  });
  env.d2h_gbps = gb / seconds([&] {
    cuda_check(cudaMemcpyAsync(pin_out, b.get(), bytes, cudaMemcpyDeviceToHost, down), "cudaMemcpyAsync");
    cuda_check(cudaStreamSynchronize(down), "cudaStreamSynchronize");
  });
  cudaEvent_t in_done{}, out_done{};
  cuda_check(cudaEventCreate(&in_done), "cudaEventCreate");
  cuda_check(cudaEventCreate(&out_done), "cudaEventCreate");
  double in_s = 0, out_s = 0;
  seconds([&] {
    const auto t0 = std::chrono::steady_clock::now();
    cuda_check(cudaMemcpyAsync(a.get(), pin_in, bytes, cudaMemcpyHostToDevice, up), "cudaMemcpyAsync");
    cuda_check(cudaMemcpyAsync(pin_out, b.get(), bytes, cudaMemcpyDeviceToHost, down), "cudaMemcpyAsync");
    cuda_check(cudaEventRecord(in_done, up), "cudaEventRecord");
    cuda_check(cudaEventRecord(out_done, down), "cudaEventRecord");
    cuda_check(cudaEventSynchronize(in_done), "cudaEventSynchronize");
    in_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    cuda_check(cudaEventSynchronize(out_done), "cudaEventSynchronize");
    out_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  });
  env.duplex_h2d_gbps = gb / in_s;
  env.duplex_d2h_gbps = gb / out_s;
  std::vector<unsigned char> src(bytes, 1), dst(bytes, 2);
  env.host_memcpy_gbps = gb / seconds([&] {
    constexpr std::size_t piece = std::size_t(2) << 20;
#pragma omp parallel for schedule(static)
    for (std::ptrdiff_t i = 0; i < std::ptrdiff_t(bytes / piece); ++i)
      std::memcpy(dst.data() + i * piece, src.data() + i * piece, piece);
  });
  cuda_warn(cudaEventDestroy(in_done), "cudaEventDestroy");
  cuda_warn(cudaEventDestroy(out_done), "cudaEventDestroy");
  cuda_warn(cudaStreamDestroy(up), "cudaStreamDestroy");
  cuda_warn(cudaStreamDestroy(down), "cudaStreamDestroy");
  cuda_warn(cudaFreeHost(pin_in), "cudaFreeHost");
  cuda_warn(cudaFreeHost(pin_out), "cudaFreeHost");
}

}  // namespace gpusort::cli::bench
