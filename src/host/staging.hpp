// Copies between the caller's host memory and the device for the host
// pipeline (sort(std::span)). Page-locked (pinned) host memory is copied by
// DMA straight from and to the caller's array. Pageable memory is never
// pinned or registered: it passes through a small ring of pinned slots in
// each direction. The caller's thread fills a slot with every core (OpenMP)
// while the DMA of the previous slot runs; a download lands in a slot and is
// copied out when the slot is needed again, or at drain().
#pragma once

#include <gpusort/detail/core/context.hpp>

#include <cuda_runtime_api.h>

#include <cstddef>
#include <memory>

namespace gpusort::detail::host {

// Whether p is page-locked host memory (cudaHostAlloc or registered).
bool is_pinned(const void* p);
// Whether p is device or managed memory (sorted in place on the device).
bool is_device(const void* p);

// memcpy with every OpenMP thread (pieces of a few MiB each).
void parallel_copy(void* dst, const void* src, std::size_t bytes);

struct stage_set;  // pinned slots and their events, cached between calls

class mover {
 public:
  mover(const call_context& ctx, cudaStream_t up_stream, cudaStream_t down_stream);
  ~mover();
  mover(const mover&) = delete;
  mover& operator=(const mover&) = delete;

  // Host to device on the up stream. Pageable sources are staged: on return
  // `src` may change. `pinned` says how src was allocated.
  void up(void* dst, const void* src, std::size_t bytes, bool pinned);
  // Device to host on the down stream. A pageable destination is written
  // only when its slot is reused or at drain().
  void down(void* dst, const void* src, std::size_t bytes, bool pinned);
  // Waits for every download and lands the staged ones.
  void drain();

 private:
  const call_context& ctx_;
  cudaStream_t up_, down_;
  stage_set* set_ = nullptr;
  std::size_t next_up_ = 0, next_down_ = 0;
  void acquire();
  void land(std::size_t slot);
};

}  // namespace gpusort::detail::host
