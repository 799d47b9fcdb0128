// Shared pieces of the GPU suites: checked CUDA calls, RAII device buffers
// and streams, and the fixture that skips a test when no device is present.
#pragma once

#include "test_env.hpp"

#include <cuda_runtime.h>
#include <gtest/gtest.h>

#include <cstring>
#include <stdexcept>
#include <string>
#include <vector>

// Stops the calling test body at the first fatal failure of a case, so one
// bug does not print thousands of failures.
#define GPUSORT_CASE(call)                          \
  do {                                              \
    call;                                           \
    if (::testing::Test::HasFatalFailure()) return; \
  } while (0)

namespace gpusort_test {

// Throws on failure: GoogleTest reports the exception as the test's failure.
inline void cuda_check(cudaError_t e, const char* what, const char* file, int line) {
  if (e == cudaSuccess) return;
  throw std::runtime_error(std::string(file) + ":" + std::to_string(line) + ": " + what + ": " +
                           cudaGetErrorName(e) + " (" + cudaGetErrorString(e) + ")");
}
#define GPUSORT_CUDA(call) ::gpusort_test::cuda_check((call), #call, __FILE__, __LINE__)

// Waits for the whole device and surfaces any asynchronous error.
inline void device_sync() {
  GPUSORT_CUDA(cudaDeviceSynchronize());
  GPUSORT_CUDA(cudaGetLastError());
}

// n elements of T in device memory (at least one element is allocated, so
// the pointer is never null).
template <class T> class device_buffer {
 public:
  device_buffer() = default;
  explicit device_buffer(std::size_t n) : n_(n) {
    GPUSORT_CUDA(cudaMalloc(&p_, (n ? n : 1) * sizeof(T)));
  }
  explicit device_buffer(const std::vector<T>& host) : device_buffer(host.size()) { upload(host); }
  ~device_buffer() {
    if (p_) cudaFree(p_);
  }
  device_buffer(const device_buffer&) = delete;
  device_buffer& operator=(const device_buffer&) = delete;
  device_buffer(device_buffer&& o) noexcept : p_(o.p_), n_(o.n_) { o.p_ = nullptr, o.n_ = 0; }

  T* data() const { return p_; }
  std::size_t size() const { return n_; }
  std::size_t bytes() const { return n_ * sizeof(T); }

  void upload(const std::vector<T>& host) {
    if (host.size() != n_) throw std::logic_error("device_buffer::upload: size mismatch");
    if (n_) GPUSORT_CUDA(cudaMemcpy(p_, host.data(), bytes(), cudaMemcpyHostToDevice));
  }
  std::vector<T> download() const {
    std::vector<T> host(n_);
    if (n_) GPUSORT_CUDA(cudaMemcpy(host.data(), p_, bytes(), cudaMemcpyDeviceToHost));
    return host;
  }
  // Fills every byte, e.g. to poison an output before a sort. cudaMemset
  // runs on the legacy default stream and may return before it is done; a
  // non-blocking stream does not wait for it (the graph suite's replays
  // raced it: merge_bottom_up, whose passes ping-pong through the output,
  // lost keys to a late poison). So it is finished before it returns.
  void fill_bytes(int byte) {
    GPUSORT_CUDA(cudaMemset(p_, byte, (n_ ? n_ : 1) * sizeof(T)));
    GPUSORT_CUDA(cudaStreamSynchronize(nullptr));
  }

 private:
  T* p_ = nullptr;
  std::size_t n_ = 0;
};

class cuda_stream {
 public:
  explicit cuda_stream(unsigned flags = cudaStreamNonBlocking) {
    GPUSORT_CUDA(cudaStreamCreateWithFlags(&s_, flags));
  }
  ~cuda_stream() { cudaStreamDestroy(s_); }
  cuda_stream(const cuda_stream&) = delete;
  cuda_stream& operator=(const cuda_stream&) = delete;
  cudaStream_t get() const { return s_; }
  void sync() const { GPUSORT_CUDA(cudaStreamSynchronize(s_)); }

 private:
  cudaStream_t s_{};
};

// Pinned host memory, for copies that are truly asynchronous.
template <class T> class pinned_buffer {
 public:
  explicit pinned_buffer(std::size_t n) : n_(n) { GPUSORT_CUDA(cudaMallocHost(&p_, (n ? n : 1) * sizeof(T))); }
  ~pinned_buffer() { cudaFreeHost(p_); }
  pinned_buffer(const pinned_buffer&) = delete;
  pinned_buffer& operator=(const pinned_buffer&) = delete;
  T* data() const { return p_; }
  std::size_t size() const { return n_; }

 private:
  T* p_ = nullptr;
  std::size_t n_ = 0;
};

// Base fixture of every GPU test: skips without a device, and leaves no
// CUDA error behind.
class gpu_test : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!has_gpu()) GTEST_SKIP() << no_gpu_reason();
  }
  void TearDown() override {
    if (!has_gpu()) return;
    const cudaError_t e = cudaDeviceSynchronize();
    EXPECT_EQ(e, cudaSuccess) << "device error after the test: " << cudaGetErrorString(e);
    cudaGetLastError();
  }
};

}  // namespace gpusort_test
