// Launch helpers shared by every family.
#pragma once

#include <gpusort/detail/core/bit_width.hpp>  // ceil_log2, for the sorts that size their levels
#include <gpusort/detail/core/context.hpp>

#include <cuda_runtime.h>

#include <compare>
#include <cstddef>
#include <map>
#include <mutex>
#include <utility>

namespace gpusort::detail {

// Lets `kernel` use `bytes` of dynamic shared memory: a block's static and
// dynamic shared memory together above 48 KB needs the opt-in.
template <class Kernel>
void allow_shared_memory(const call_context& ctx, Kernel kernel, std::size_t bytes, const char* name) {
  cudaFuncAttributes attr{};
  ctx.check(cudaFuncGetAttributes(&attr, kernel), name);
  if (attr.sharedSizeBytes + bytes <= 48 * 1024) return;
  ctx.check(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, int(bytes)), name);
}

// Blocks for `work` items at `per_block` items each, capped for grid-stride
// loops (kernels loop when the cap bites, so any size_t count works).
inline unsigned grid_for(std::size_t work, std::size_t per_block, std::size_t cap = std::size_t(1) << 20) {
  std::size_t blocks = (work + per_block - 1) / per_block;
  if (blocks == 0) blocks = 1;
  return unsigned(blocks < cap ? blocks : cap);
}

// Programmatic dependent launch (compute capability 9.0 and later): a
// kernel launched by launch_dependent may be scheduled while the stream's
// previous kernel is still finishing, so its launch latency hides behind
// that kernel's last blocks instead of following them. Such a kernel calls
// wait_for_prior_grids() before anything else: it returns once the previous
// grid has completed and its writes are visible, so the kernel means what a
// plain launch means (and on a plain launch it returns at once). A kernel
// calls allow_dependents() where the next kernel may be scheduled: at its
// start for the small kernels, whose blocks all fit at once. For chains of
// many small kernels: radix_msd launches about 80 a sort.
__device__ __forceinline__ void wait_for_prior_grids() {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  asm volatile("griddepcontrol.wait;" ::: "memory");
#endif
}
__device__ __forceinline__ void allow_dependents() {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  asm volatile("griddepcontrol.launch_dependents;" ::: "memory");
#endif
}

// Whether the current device takes programmatic dependent launches.
inline bool dependent_launches(const call_context& ctx) {
  int dev = 0, major = 0;
  ctx.check(cudaGetDevice(&dev), "cudaGetDevice");
  ctx.check(cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, dev), "cudaDeviceGetAttribute");
  return major >= 9;
}

// kernel<<<grid, block, smem, s>>>(args...), as a programmatic dependent
// launch where `dependent` (dependent_launches()): the kernel must begin
// with wait_for_prior_grids().
template <class... Params, class... Args>
void launch_dependent(const call_context& ctx, bool dependent, void (*kernel)(Params...), unsigned grid,
                      unsigned block, std::size_t smem, cudaStream_t s, const char* what, Args&&... args) {
  cudaLaunchConfig_t cfg{};
  cfg.gridDim = dim3(grid);
  cfg.blockDim = dim3(block);
  cfg.dynamicSmemBytes = smem;
  cfg.stream = s;
  cudaLaunchAttribute attr{};
  attr.id = cudaLaunchAttributeProgrammaticStreamSerialization;
  attr.val.programmaticStreamSerializationAllowed = 1;
  cfg.attrs = &attr;
  cfg.numAttrs = dependent ? 1 : 0;
  ctx.check(cudaLaunchKernelEx(&cfg, kernel, std::forward<Args>(args)...), what);
}

// Multiprocessors of the current device.
inline unsigned sm_count(const call_context& ctx) {
  int dev = 0, sms = 0;
  ctx.check(cudaGetDevice(&dev), "cudaGetDevice");
  ctx.check(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev), "cudaDeviceGetAttribute");
  return unsigned(sms > 0 ? sms : 1);
}

// Blocks of a kernel that fit on the current device at once (threads a
// block, shared_bytes of dynamic shared memory a block): a persistent grid.
// Asked of the runtime once per kernel, device and shape: a call launches up
// to ~20 kernels, and an occupancy query before each launch left the GPU
// waiting on the host.
struct grid_shape {
  const void* kernel;
  int device, threads;
  std::size_t shared_bytes;
  auto operator<=>(const grid_shape&) const = default;
};
struct grid_cache {
  std::mutex lock;
  std::map<grid_shape, unsigned> grids;
  static grid_cache& get() {
    static grid_cache c;
    return c;
  }
  unsigned find(const grid_shape& s) {  // 0: not asked yet
    std::lock_guard<std::mutex> hold(lock);
    const auto it = grids.find(s);
    return it == grids.end() ? 0u : it->second;
  }
  void keep(const grid_shape& s, unsigned grid) {
    std::lock_guard<std::mutex> hold(lock);
    grids[s] = grid;
  }
};
template <class Kernel>
unsigned resident_grid(const call_context& ctx, Kernel kernel, int threads, std::size_t shared_bytes = 0) {
  int dev = 0;
  ctx.check(cudaGetDevice(&dev), "cudaGetDevice");
  const grid_shape shape{reinterpret_cast<const void*>(kernel), dev, threads, shared_bytes};
  if (const unsigned known = grid_cache::get().find(shape)) return known;
  int per_sm = 0;
  ctx.check(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, threads, shared_bytes),
            "cudaOccupancyMaxActiveBlocksPerMultiprocessor");
  const unsigned grid = sm_count(ctx) * unsigned(per_sm > 0 ? per_sm : 1);
  grid_cache::get().keep(shape, grid);
  return grid;
}

// Copies keys (and values) to the output arrays when the sort is not in
// place: network sorts then run in place on the output.
template <class K, class P>
void copy_to_output(const call_context& ctx, const K* kin, K* kout, const P* vin, P* vout, std::size_t n,
                    cudaStream_t s) {
  if (kin != kout) ctx.check(cudaMemcpyAsync(kout, kin, n * sizeof(K), cudaMemcpyDeviceToDevice, s), "cudaMemcpyAsync(keys)");
  if (vin && vin != vout) ctx.check(cudaMemcpyAsync(vout, vin, n * sizeof(P), cudaMemcpyDeviceToDevice, s), "cudaMemcpyAsync(values)");
}

}  // namespace gpusort::detail
