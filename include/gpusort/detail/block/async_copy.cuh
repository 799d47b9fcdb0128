// Global -> shared memory copies that keep every load of a tile in flight:
// cp.async (LDGSTS, sm_80 and later) moves words of 4, 8 or 16 bytes
// straight into shared memory without passing through registers, so a thread can issue
// all of its tile's copies before waiting once. A plain `s[i] = g[i]` loop
// with a run-time bound waits for each load before the next (one load in
// flight per thread: ~8 KB per SM, far below the ~30 KB per SM that
// Little's law asks for at 4 TB/s and ~1 us of latency).
// Elements whose size or alignment is not a multiple of 4 bytes, or builds
// for older GPUs, copy through registers.
#pragma once

#include <cstddef>
#include <cstdint>

namespace gpusort::detail::block {

// The cp.async width for T: the largest of 16, 8, 4 bytes that divides
// both its size and its alignment (a struct of a u32 and a float moves as
// two 4-byte copies); 0 when none does.
template <class T> __host__ __device__ constexpr int async_word() {
  int w = 16;
  while (w >= 4 && (sizeof(T) % w != 0 || alignof(T) < std::size_t(w))) w /= 2;
  return w >= 4 && sizeof(T) <= 16 ? w : 0;
}
template <class T> inline constexpr bool async_copyable = async_word<T>() != 0;

// Asks L2 for the 128-byte lines of [first, first + bytes), one line a
// thread, block-strided (prefetch.global.L2): a block that knows its next
// piece of work starts that work's reads while it computes on the current
// one. A hint: no result, no ordering, and the memory system may drop it.
template <int THREADS> __device__ __forceinline__ void prefetch_l2(const void* first, std::size_t bytes) {
  const std::uintptr_t at = reinterpret_cast<std::uintptr_t>(first);
  const std::uintptr_t end = at + bytes;
  for (std::uintptr_t line = (at & ~std::uintptr_t(127)) + std::uintptr_t(threadIdx.x) * 128; line < end;
       line += std::uintptr_t(THREADS) * 128)
    asm volatile("prefetch.global.L2 [%0];\n" ::"l"(line));
}

// Starts copying *g to *s (shared memory). Both aligned as T.
template <class T> __device__ __forceinline__ void copy_async(T* s, const T* g) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  if constexpr (async_copyable<T>) {
    constexpr int w = async_word<T>();
    const unsigned at = unsigned(__cvta_generic_to_shared(s));
    const char* from = reinterpret_cast<const char*>(g);
#pragma unroll
    for (int b = 0; b < int(sizeof(T)); b += w) {
      if constexpr (w == 16)
        asm volatile("cp.async.cg.shared.global [%0], [%1], 16;\n" ::"r"(at + b), "l"(from + b) : "memory");
      else
        asm volatile("cp.async.ca.shared.global [%0], [%1], %2;\n" ::"r"(at + b), "l"(from + b), "n"(w) : "memory");
    }
    return;
  }
#endif
  *s = *g;
}

// Closes the group of this thread's copies started since the last commit
// (a pipeline stage); copy_async_wait_prior<N> waits until at most N of
// its newest groups are still in flight.
__device__ __forceinline__ void copy_async_commit() {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  asm volatile("cp.async.commit_group;\n" ::: "memory");
#endif
}
template <int N> __device__ __forceinline__ void copy_async_wait_prior() {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  asm volatile("cp.async.wait_group %0;\n" ::"n"(N) : "memory");
#endif
}

// Waits until this thread's copies have landed (visible to this thread;
// __syncthreads() then publishes them to the block).
__device__ __forceinline__ void copy_async_wait() {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  asm volatile("cp.async.wait_all;\n" ::: "memory");
#endif
}

}  // namespace gpusort::detail::block
