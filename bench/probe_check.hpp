// The probes' one error check (bench/p2p_probe.cu, bench/nccl_ce_probe.cu):
// a failed CUDA (or NCCL) call prints what failed and where, and exits.
#pragma once

#include <cuda_runtime.h>

#include <cstdio>
#include <cstdlib>

inline void probe_check(bool ok, const char* call, const char* error, int line) {
  if (ok) return;
  std::fprintf(stderr, "%s failed: %s (line %d)\n", call, error, line);
  std::exit(1);
}

#define CHECK(x)                                                          \
  do {                                                                    \
    const cudaError_t e_ = (x);                                           \
    probe_check(e_ == cudaSuccess, #x, cudaGetErrorString(e_), __LINE__); \
  } while (0)
