// What two GPUs of one host can move between them, without NCCL: the
// measurements behind docs/perf/multi_gpu.md's floor for the exchange.
//   1. copy engines: cudaMemcpyPeerAsync, one direction, then both at once
//   2. SM pulls: a kernel on each GPU reads the peer's buffer through peer
//      access (NVLink) and writes its own memory, one and both directions
//   3. (1) and (2) again while each GPU also copies 8 GiB device to device
//      (a stand-in for the local sort or merge that an exchange would hide
//      under)
// Each figure is the median of 5 timed runs after a warm-up, in GB/s a
// direction (bytes moved over the slowest direction's time).
// Built with the CLI (target p2p_probe), or alone:
//   nvcc -O2 -std=c++17 -arch=sm_90 bench/p2p_probe.cu -o p2p_probe
// Run: p2p_probe [GiB per direction, default 2]
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <vector>

#include "probe_check.hpp"


// Streams 16-byte words from src (peer or local memory) to dst.
__global__ void pull_kernel(const uint4* __restrict__ src, uint4* __restrict__ dst, size_t words) {
  for (size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x; i < words; i += size_t(gridDim.x) * blockDim.x)
    dst[i] = src[i];
}

struct gpu {
  int id;
  cudaStream_t a, b;  // a: the transfer, b: the local load
  cudaEvent_t start, stop;
  char* send;         // what the peer reads or receives from
  char* recv;         // where the peer's data lands
  char* load_src;     // the local copy's buffers
  char* load_dst;
};

static double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

int main(int argc, char** argv) {
  const size_t bytes = size_t(argc > 1 ? std::atof(argv[1]) : 2.0) * (size_t(1) << 30);
  const size_t load_bytes = size_t(8) << 30;
  int count = 0;
  CHECK(cudaGetDeviceCount(&count));
  if (count < 2) {
    std::printf("needs two GPUs, found %d\n", count);
    return 0;
  }
  int can01 = 0, can10 = 0;
  CHECK(cudaDeviceCanAccessPeer(&can01, 0, 1));
  CHECK(cudaDeviceCanAccessPeer(&can10, 1, 0));
  std::printf("peer access 0->1 %d, 1->0 %d; %.2f GiB a direction\n", can01, can10, double(bytes) / (1 << 30));
  gpu g[2];
  for (int d = 0; d < 2; ++d) {
    g[d].id = d;
    CHECK(cudaSetDevice(d));
    if (can01 && can10) CHECK(cudaDeviceEnablePeerAccess(1 - d, 0));
    CHECK(cudaStreamCreateWithFlags(&g[d].a, cudaStreamNonBlocking));
    CHECK(cudaStreamCreateWithFlags(&g[d].b, cudaStreamNonBlocking));
    CHECK(cudaEventCreate(&g[d].start));
    CHECK(cudaEventCreate(&g[d].stop));
    CHECK(cudaMalloc(&g[d].send, bytes));
    CHECK(cudaMalloc(&g[d].recv, bytes));
    CHECK(cudaMalloc(&g[d].load_src, load_bytes));
    CHECK(cudaMalloc(&g[d].load_dst, load_bytes));
    CHECK(cudaMemset(g[d].send, d + 1, bytes));
    CHECK(cudaMemset(g[d].load_src, 7, load_bytes));
  }
  int sms = 0;
  CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));

  // One transfer into GPU `to` from its peer, on `to`'s stream a (copy
  // engines: the receiving device's stream; pulls: a kernel on `to`).
  auto copy_in = [&](int to) {
    const int from = 1 - to;
    CHECK(cudaSetDevice(to));
    CHECK(cudaMemcpyPeerAsync(g[to].recv, to, g[from].send, from, bytes, g[to].a));
  };
  auto pull_in = [&](int to) {
    const int from = 1 - to;
    CHECK(cudaSetDevice(to));
    pull_kernel<<<sms * 4, 512, 0, g[to].a>>>(reinterpret_cast<const uint4*>(g[from].send),
                                              reinterpret_cast<uint4*>(g[to].recv), bytes / 16);
    CHECK(cudaGetLastError());
  };
  auto local_load = [&](int d) {
    CHECK(cudaSetDevice(d));
    CHECK(cudaMemcpyAsync(g[d].load_dst, g[d].load_src, load_bytes, cudaMemcpyDeviceToDevice, g[d].b));
  };
  // Times `into` on the receiving GPUs: GB/s a direction (slowest direction).
  auto measure = [&](const char* what, const std::function<void(int)>& into, bool both, bool loaded) {
    std::vector<double> rates;
    for (int rep = 0; rep < 6; ++rep) {
      for (int d = 0; d < 2; ++d) {
        CHECK(cudaSetDevice(d));
        CHECK(cudaDeviceSynchronize());
      }
      const int first = both ? 0 : 1;
      for (int to = first; to < 2; ++to) {
        CHECK(cudaSetDevice(to));
        CHECK(cudaEventRecord(g[to].start, g[to].a));
      }
      for (int to = first; to < 2; ++to) {
        if (loaded) local_load(to);
        into(to);
      }
      for (int to = first; to < 2; ++to) {
        CHECK(cudaSetDevice(to));
        CHECK(cudaEventRecord(g[to].stop, g[to].a));
      }
      float worst = 0;
      for (int to = first; to < 2; ++to) {
        CHECK(cudaSetDevice(to));
        CHECK(cudaEventSynchronize(g[to].stop));
        float ms = 0;
        CHECK(cudaEventElapsedTime(&ms, g[to].start, g[to].stop));
        worst = std::max(worst, ms);
      }
      if (rep > 0) rates.push_back(double(bytes) / (worst * 1e-3) / 1e9);
    }
    std::printf("%-58s %8.1f GB/s a direction\n", what, median(rates));
  };
  measure("copy engines, one direction", copy_in, false, false);
  measure("copy engines, both directions", copy_in, true, false);
  measure("SM pull (peer loads), one direction", pull_in, false, false);
  measure("SM pull (peer loads), both directions", pull_in, true, false);
  measure("copy engines, both directions, beside an 8 GiB local copy", copy_in, true, true);
  measure("SM pull, both directions, beside an 8 GiB local copy", pull_in, true, true);
  // the local copy alone, for the slowdown it suffers
  {
    std::vector<double> rates;
    for (int rep = 0; rep < 6; ++rep) {
      CHECK(cudaSetDevice(0));
      CHECK(cudaDeviceSynchronize());
      CHECK(cudaEventRecord(g[0].start, g[0].b));
      local_load(0);
      CHECK(cudaEventRecord(g[0].stop, g[0].b));
      CHECK(cudaEventSynchronize(g[0].stop));
      float ms = 0;
      CHECK(cudaEventElapsedTime(&ms, g[0].start, g[0].stop));
      if (rep > 0) rates.push_back(2.0 * double(load_bytes) / (ms * 1e-3) / 1e9);
    }
    std::printf("%-58s %8.1f GB/s (read + write)\n", "the 8 GiB local copy alone", median(rates));
  }
  return 0;
}
