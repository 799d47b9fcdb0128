// Peer: thrust::sort (keys) and thrust::sort_by_key (pairs) on raw device
// pointers, in place. For every key type here Thrust dispatches to CUB's
// radix sort, whose order is ours.
//
// Thrust has no two-phase API: it allocates its scratch inside each call.
// To keep allocation out of the timing, the calls run with a caching
// allocator: the untimed warm-up runs cudaMalloc the blocks Thrust asks
// for, and later runs are handed the same blocks back.
#pragma once

#include "bench/cuda_check.hpp"
#include "bench/device_sorter.hpp"

#include <thrust/execution_policy.h>
#include <thrust/sort.h>

#include <cstddef>
#include <cstdio>
#include <vector>

namespace gpusort::cli::bench {

// Blocks handed to Thrust and kept for the next call (freed with the pool).
class block_pool {
 public:
  block_pool() = default;
  block_pool(const block_pool&) = delete;
  block_pool& operator=(const block_pool&) = delete;
  ~block_pool() {
    for (auto& b : blocks_) cuda_warn(cudaFree(b.ptr), "cudaFree(thrust scratch)");
  }
  char* take(std::size_t bytes) {
    for (auto& b : blocks_)
      if (!b.used && b.size >= bytes) {
        b.used = true;
        return b.ptr;
      }
    void* p = nullptr;
    cuda_check(cudaMalloc(&p, bytes), "cudaMalloc(" + std::to_string(bytes) + " bytes of thrust scratch)");
    blocks_.push_back({static_cast<char*>(p), bytes, true});
    return static_cast<char*>(p);
  }
  void give(char* p) {
    for (auto& b : blocks_)
      if (b.ptr == p) b.used = false;
  }

 private:
  struct block {
    char* ptr;
    std::size_t size;
    bool used;
  };
  std::vector<block> blocks_;
};

// The allocator interface Thrust expects; a handle on a block_pool.
struct pool_allocator {
  using value_type = char;
  block_pool* pool;
  char* allocate(std::ptrdiff_t bytes) { return pool->take(std::size_t(bytes)); }
  void deallocate(char* p, std::size_t) { pool->give(p); }
};

template <class K, class V> class thrust_sorter final : public device_sorter<K, V> {
 public:
  std::size_t scratch_bytes(K*, K*, V*, V*, std::size_t) override { return 0; }
  // Thrust's radix sort keeps a second copy of keys and values, plus CUB's
  // small scratch.
  std::size_t own_bytes(std::size_t n, bool pairs) override {
    return n * (sizeof(K) + (pairs ? sizeof(V) : 0)) + (std::size_t(64) << 20);
  }
  bool in_place(bool) const override { return true; }
  void sort(void*, std::size_t, K* keys_in, K*, V* vals_in, V*, std::size_t n,
            cudaStream_t stream) override {
    pool_allocator alloc{&pool_};
    // par_nosync: no synchronisation inside the call; the bench syncs on
    // its stop event. Thrust reports failures as thrust::system_error
    // (a std::runtime_error), which the bench catches like ours.
    auto policy = thrust::cuda::par_nosync(alloc).on(stream);
    if (vals_in)
      thrust::sort_by_key(policy, keys_in, keys_in + n, vals_in);
    else
      thrust::sort(policy, keys_in, keys_in + n);
    cuda_check(cudaGetLastError(), "thrust::sort");
  }

 private:
  block_pool pool_;
};

template <class K, class V> std::unique_ptr<device_sorter<K, V>> make_thrust() {
  return std::make_unique<thrust_sorter<K, V>>();
}

}  // namespace gpusort::cli::bench

#define GPUSORT_CLI_INSTANTIATE_thrust(K, V) \
  template std::unique_ptr<gpusort::cli::bench::device_sorter<K, V>> gpusort::cli::bench::make_thrust<K, V>();
