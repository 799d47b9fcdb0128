// Device-side work queues: the one scheduling mechanism of the level-by-
// level algorithms (radix_msd's buckets, sample sort's oversized buckets,
// quicksort's segments), so that none of them reads a count back to the
// host and every call can be captured in a CUDA graph.
//
//   work_list   an array and a counter in device memory. Producers append
//               with one atomicAdd a block or a warp (reserve) or an item
//               (push); the array is sized on the host for the most items
//               the algorithm can make (a host-known bound), so appends
//               never check.
//   consumers   kernels launched with a grid sized from that host-known
//               bound, or the resident grid, loop over the list: blocks
//               past the device-side count leave at once. A level with no
//               work costs its launches and nothing else.
//   levels      level_lists: two lists used by level parity; level L reads
//               list L % 2 and fills list (L + 1) % 2, which the level's
//               first kernel cleared (clear_next).
//   packed      a list with ITEM_BITS > 0 also counts its entries' work
//               items (a segment's tiles or chunks) in the counter's low
//               ITEM_BITS bits: one atomicAdd gives new entries both their
//               index and their first work item, in the same order, so
//               consumers find an item's entry through a map the entry
//               writes, without a scan (quicksort's segments and chunks,
//               sample sort's segments and tiles).
// Counters are zeroed by the call that owns them (one memset or the
// producing level's first kernel), never by the host between levels.
#pragma once

#include <cstddef>

namespace gpusort::detail {

using queue_counter = unsigned long long;

template <class T, int ITEM_BITS = 0> struct work_list {
  static_assert(ITEM_BITS >= 0 && ITEM_BITS < 64, "the entries need some of the counter's bits");
  static constexpr int item_bits = ITEM_BITS;
  static constexpr queue_counter item_mask = (queue_counter(1) << ITEM_BITS) - 1;

  T* items = nullptr;
  queue_counter* count = nullptr;
  std::size_t capacity = 0;  // host-known bound on the items

  // The counter's value for `entries` entries with `work` work items.
  __host__ __device__ static constexpr queue_counter packed(std::size_t entries, std::size_t work) {
    return (queue_counter(entries) << ITEM_BITS) | queue_counter(work);
  }

#ifdef __CUDACC__
  __device__ __forceinline__ std::size_t size() const { return std::size_t(*count >> ITEM_BITS); }
  // k consecutive slots; returns the first
  __device__ __forceinline__ std::size_t reserve(std::size_t k) const {
    static_assert(ITEM_BITS == 0, "a packed list reserves entries with their work items");
    return std::size_t(atomicAdd(count, queue_counter(k)));
  }
  __device__ __forceinline__ void push(const T& item) const { items[reserve(1)] = item; }
  __device__ __forceinline__ T& operator[](std::size_t i) const { return items[i]; }

  // Packed lists: k consecutive entries holding `work` work items in all;
  // returns the first entry and the first work item.
  struct place {
    std::size_t entry, item;
  };
  __device__ __forceinline__ place reserve(std::size_t k, std::size_t work) const {
    static_assert(ITEM_BITS > 0, "only a packed list counts work items");
    const queue_counter old = atomicAdd(count, packed(k, work));
    return {std::size_t(old >> ITEM_BITS), std::size_t(old & item_mask)};
  }
  // Packed lists: the work items of the entries there are now.
  __device__ __forceinline__ std::size_t work_items() const {
    static_assert(ITEM_BITS > 0, "only a packed list counts work items");
    return std::size_t(*count & item_mask);
  }
  // Block-stride loop over the items there are now: f(index, item).
  template <class F> __device__ __forceinline__ void for_each_block(F&& f) const {
    const std::size_t n = size();
    for (std::size_t i = blockIdx.x; i < n; i += gridDim.x) f(i, items[i]);
  }
  // Thread-stride loop (grid-wide) over the items there are now.
  template <class F> __device__ __forceinline__ void for_each_thread(F&& f) const {
    const std::size_t n = size(), stride = std::size_t(gridDim.x) * blockDim.x;
    for (std::size_t i = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += stride) f(i, items[i]);
  }
#endif
};

// Two lists that levels use by parity.
template <class T, int ITEM_BITS = 0> struct level_lists {
  work_list<T, ITEM_BITS> list[2];
  __host__ __device__ const work_list<T, ITEM_BITS>& at(int level) const { return level % 2 ? list[1] : list[0]; }
  __host__ __device__ const work_list<T, ITEM_BITS>& next(int level) const { return level % 2 ? list[0] : list[1]; }
#ifdef __CUDACC__
  // Called by one thread of the level's first kernel: the next level's
  // list starts empty (nothing reads it before this level's filing).
  __device__ __forceinline__ void clear_next(int level) const { *next(level).count = 0; }
#endif
};

}  // namespace gpusort::detail
