// GPU quicksort: the device-side work lists that replace the article "GPU sorting" (2024)'s
// dynamic-parallelism recursion and ring-buffer stack (Cederman & Tsigas
// 2008 keep a similar list of sequences on the host; ours stays on the
// device). The lists are core/work_queue.cuh's: arrays of a host-known
// bound, counters in device memory, appended by atomicAdd, so a level
// never needs the host to know how many segments it has.
//
//   segment     one segment of a level: its range (the same in every
//               buffer), its sorted pivots, and per class the count and
//               the output cursor (64-bit: any n)
//   levels      level_lists by parity, packed: a level's counter holds
//               (segments << chunk_bits) | work items, so the file kernel's
//               one atomicAdd gives a child both its index and its first
//               work item; level L's first kernel clears level L + 1's
//               counter, the root kernel sets level 0's
//   chunk map   work item -> its chunk (source offset, key count, segment
//               index), one load per chunk
//   small lists finished children of <= one merge tile, and equal runs
//               left in the scratch buffer (merge::segment, to sort or to
//               copy), one list per buffer they lie in (scratch, output),
//               kept over all levels and handled after the last one; the
//               two share one array, filled from its two ends
//   fallback    children still large at the depth limit, a work_list of
//               ranges (partition/fallback.cuh sorts them)
// The root kernel zeroes every counter of the call: no memset.
#pragma once

#include <gpusort/detail/core/work_queue.cuh>
#include <gpusort/detail/merge/segment_sort.cuh>

#include <cstddef>

namespace gpusort::detail::quick {

using counter = queue_counter;

template <class U, int PIVOTS, int CLASSES> struct segment_of {
  std::size_t begin = 0, size = 0;
  counter first = 0;         // its first work item in the level's chunk map
  counter count[CLASSES];    // keys of each class (count kernel)
  counter cursor[CLASSES];   // where the class's next keys go (partition kernel)
  U pivot[PIVOTS];           // sorted
};

// One work item of a level: keys [at, at + size) of the level's source,
// all in segment `seg`.
struct work {
  std::size_t at = 0;
  unsigned seg = 0;
  int size = 0;
};

struct range {
  std::size_t begin = 0, size = 0;
};

// Everything the device side of the recursion shares, passed by value.
template <class Seg, int CHUNK_BITS> struct queues {
  using level_list = work_list<Seg, CHUNK_BITS>;
  level_lists<Seg, CHUNK_BITS> levels;  // a level's segments, counted with their work items
  work* map = nullptr;
  merge::segment* small = nullptr;  // both small lists: 0 from the front, 1 from the back
  std::size_t small_cap = 0;
  counter* small_count = nullptr;   // [2], one per small list
  work_list<range> fallback;
  int max_levels = 0;
  // Entry i of small list `b` (0: the scratch buffer, 1: the output).
  __device__ merge::segment& small_at(int b, counter i) const { return small[b ? small_cap - 1 - i : i]; }
};

// One small list as a segment list for merge::segment_sort_kernel (its
// count lives in device memory).
struct small_list {
  const merge::segment* items;
  std::size_t cap;
  const counter* n;
  bool from_back;
  __device__ std::size_t count() const { return std::size_t(*n); }
  __device__ merge::segment operator()(std::size_t i) const { return items[from_back ? cap - 1 - i : i]; }
};

}  // namespace gpusort::detail::quick
