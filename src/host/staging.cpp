// The host pipeline's copies (staging.hpp): pinned slots cached between calls,
// the parallel memcpy, and the two directions of the mover.
#include "host/staging.hpp"

#include <omp.h>

#include <algorithm>
#include <cstring>
#include <mutex>
#include <string>
#include <vector>

namespace gpusort::detail::host {

bool is_pinned(const void* p) {
  cudaPointerAttributes a{};
  if (cudaPointerGetAttributes(&a, p) != cudaSuccess) {
    cudaGetLastError();
    return false;
  }
  return a.type == cudaMemoryTypeHost;
}

bool is_device(const void* p) {
  cudaPointerAttributes a{};
  if (cudaPointerGetAttributes(&a, p) != cudaSuccess) {
    cudaGetLastError();
    return false;
  }
  return a.type == cudaMemoryTypeDevice || a.type == cudaMemoryTypeManaged;
}

void parallel_copy(void* dst, const void* src, std::size_t bytes) {
  constexpr std::size_t piece = std::size_t(2) << 20;
  const std::size_t pieces = (bytes + piece - 1) / piece;
  if (pieces <= 1) {
    std::memcpy(dst, src, bytes);
    return;
  }
  auto* d = static_cast<unsigned char*>(dst);
  const auto* s = static_cast<const unsigned char*>(src);
#pragma omp parallel for schedule(static)
  for (std::ptrdiff_t i = 0; i < std::ptrdiff_t(pieces); ++i) {
    const std::size_t at = std::size_t(i) * piece;
    std::memcpy(d + at, s + at, std::min(piece, bytes - at));
  }
}

// A ring per direction: slots of `slot_bytes`, each with the event of its
// last DMA and, for downloads, where its bytes must land.
constexpr std::size_t slot_bytes = std::size_t(32) << 20;
constexpr std::size_t slots = 4;

struct stage_set {
  struct slot {
    void* pinned = nullptr;
    cudaEvent_t done = nullptr;
    bool busy = false;         // a DMA was issued since the last wait
    void* land_at = nullptr;   // downloads: the caller's bytes to write
    std::size_t land_bytes = 0;
  };
  slot up[slots], down[slots];
  bool ok = true;
  int device = -1;  // the events' device: a set serves calls on it only
  stage_set() {
    ok = cudaGetDevice(&device) == cudaSuccess;
    for (slot* ring : {up, down})
      for (std::size_t i = 0; i < slots; ++i) {
        ok = ok && cudaHostAlloc(&ring[i].pinned, slot_bytes, cudaHostAllocDefault) == cudaSuccess &&
             cudaEventCreateWithFlags(&ring[i].done, cudaEventDisableTiming) == cudaSuccess;
      }
    if (!ok) cudaGetLastError();
  }
  ~stage_set() {
    for (slot* ring : {up, down})
      for (std::size_t i = 0; i < slots; ++i) {
        if (ring[i].pinned) cudaFreeHost(ring[i].pinned);
        if (ring[i].done) cudaEventDestroy(ring[i].done);
      }
  }
};

namespace {
// Pinning memory costs far more than copying it, so sets outlive calls;
// concurrent calls take different sets, and a call takes a set made on its
// own device (its events can be recorded on that device's streams only:
// the multi-GPU convenience call runs a thread per GPU).
struct stage_cache {
  std::mutex m;
  std::vector<std::unique_ptr<stage_set>> idle;
};
stage_cache& cache() {
  static stage_cache* c = new stage_cache;  // never destroyed: the runtime may be gone at exit
  return *c;
}
}  // namespace

mover::mover(const call_context& ctx, cudaStream_t up_stream, cudaStream_t down_stream)
    : ctx_(ctx), up_(up_stream), down_(down_stream) {}

mover::~mover() {
  if (!set_) return;
  for (auto* ring : {set_->up, set_->down})
    for (std::size_t i = 0; i < slots; ++i) {
      if (ring[i].busy) cudaEventSynchronize(ring[i].done);
      ring[i].busy = false;
      ring[i].land_at = nullptr;
    }
  std::lock_guard<std::mutex> lock(cache().m);
  cache().idle.emplace_back(set_);
}

void mover::acquire() {
  if (set_) return;
  int device = -1;
  ctx_.check(cudaGetDevice(&device), "cudaGetDevice");
  {
    std::lock_guard<std::mutex> lock(cache().m);
    auto& idle = cache().idle;
    for (auto it = idle.end(); it != idle.begin();) {
      --it;
      if ((*it)->device != device) continue;
      set_ = it->release();
      idle.erase(it);
      return;
    }
  }
  auto fresh = std::make_unique<stage_set>();
  if (!fresh->ok) ctx_.fail(errc::out_of_memory, "cudaHostAlloc of the staging slots failed");
  set_ = fresh.release();
}

void mover::up(void* dst, const void* src, std::size_t bytes, bool pinned) {
  if (bytes == 0) return;
  if (pinned) {
    ctx_.check(cudaMemcpyAsync(dst, src, bytes, cudaMemcpyHostToDevice, up_), "cudaMemcpyAsync(to device)");
    return;
  }
  acquire();
  auto* d = static_cast<unsigned char*>(dst);
  const auto* s = static_cast<const unsigned char*>(src);
  for (std::size_t at = 0; at < bytes; at += slot_bytes) {
    stage_set::slot& sl = set_->up[next_up_++ % slots];
    const std::size_t len = std::min(slot_bytes, bytes - at);
    if (sl.busy) ctx_.check(cudaEventSynchronize(sl.done), "cudaEventSynchronize(staging slot)");
    parallel_copy(sl.pinned, s + at, len);
    ctx_.check(cudaMemcpyAsync(d + at, sl.pinned, len, cudaMemcpyHostToDevice, up_), "cudaMemcpyAsync(to device)");
    ctx_.check(cudaEventRecord(sl.done, up_), "cudaEventRecord");
    sl.busy = true;
  }
}

void mover::land(std::size_t i) {
  stage_set::slot& sl = set_->down[i];
  if (!sl.busy) return;
  ctx_.check(cudaEventSynchronize(sl.done), "cudaEventSynchronize(staging slot)");
  sl.busy = false;
  if (sl.land_at) parallel_copy(sl.land_at, sl.pinned, sl.land_bytes);
  sl.land_at = nullptr;
}

void mover::down(void* dst, const void* src, std::size_t bytes, bool pinned) {
  if (bytes == 0) return;
  if (pinned) {
    ctx_.check(cudaMemcpyAsync(dst, src, bytes, cudaMemcpyDeviceToHost, down_), "cudaMemcpyAsync(to host)");
    return;
  }
  acquire();
  auto* d = static_cast<unsigned char*>(dst);
  const auto* s = static_cast<const unsigned char*>(src);
  for (std::size_t at = 0; at < bytes; at += slot_bytes) {
    const std::size_t i = next_down_++ % slots;
    land(i);
    stage_set::slot& sl = set_->down[i];
    const std::size_t len = std::min(slot_bytes, bytes - at);
    ctx_.check(cudaMemcpyAsync(sl.pinned, s + at, len, cudaMemcpyDeviceToHost, down_), "cudaMemcpyAsync(to host)");
    ctx_.check(cudaEventRecord(sl.done, down_), "cudaEventRecord");
    sl.busy = true;
    sl.land_at = d + at;
    sl.land_bytes = len;
  }
}

void mover::drain() {
  if (!set_) return;
  // in issue order, so later copies to the same bytes win
  for (std::size_t k = 0; k < slots; ++k) land((next_down_ + k) % slots);
}

}  // namespace gpusort::detail::host
