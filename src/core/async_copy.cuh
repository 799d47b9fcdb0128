// Global -> shared memory copies that keep every load of a tile in flight:
// cp.async (LDGSTS, sm_80 and later) moves 4, 8 or 16 bytes straight into
// shared memory without passing through registers, so a thread can issue
// all of its tile's copies before waiting once. A plain `s[i] = g[i]` loop
// with a run-time bound waits for each load before the next (one load in
// flight per thread: ~8 KB per SM, far below the ~30 KB per SM that
// Little's law asks for at 4 TB/s and ~1 us of latency).
// Elements of other sizes, or builds for older GPUs, copy through registers.
#pragma once

#include <cstdint>

namespace gpusort::detail {

template <class T>
inline constexpr bool async_copyable = (sizeof(T) == 4 || sizeof(T) == 8 || sizeof(T) == 16) && alignof(T) >= sizeof(T);

// Starts copying *g to *s (shared memory). Both naturally aligned.
template <class T> __device__ __forceinline__ void copy_async(T* s, const T* g) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  if constexpr (async_copyable<T>) {
    const unsigned at = unsigned(__cvta_generic_to_shared(s));
    if constexpr (sizeof(T) == 16)
      asm volatile("cp.async.cg.shared.global [%0], [%1], 16;\n" ::"r"(at), "l"(g) : "memory");
    else
      asm volatile("cp.async.ca.shared.global [%0], [%1], %2;\n" ::"r"(at), "l"(g), "n"(int(sizeof(T))) : "memory");
    return;
  }
#endif
  *s = *g;
}

// Waits until this thread's copies have landed (visible to this thread;
// __syncthreads() then publishes them to the block).
__device__ __forceinline__ void copy_async_wait() {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  asm volatile("cp.async.wait_all;\n" ::: "memory");
#endif
}

}  // namespace gpusort::detail
