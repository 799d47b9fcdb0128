// GPU quicksort: the device-side work lists that replace seed 004's
// dynamic-parallelism recursion and ring-buffer stack (Cederman & Tsigas
// 2008 keep a similar list of sequences on the host; ours stays on the
// device). Every list is filled by atomicAdd on a per-level counter, so a
// level never needs the host to know how many segments it has.
//
//   segment     one segment of a level: its range in the level's source
//               buffer, pivot and the partition cursors
//               (<, ==, > keys placed so far; 64-bit, any n)
//   level_slot  the counters one level's scheduling fills; slot L + 1 is
//               written while level L's partitions are scheduled, slot 0
//               by the root. All slots are zeroed once per call.
//   chunk map   work item -> its chunk (source offset, key count, pivot,
//               segment index), one load that a partition block issues a
//               whole chunk ahead
//   small lists finished children of <= one merge tile (merge::segment),
//               one list per buffer they lie in (scratch, output), kept
//               over all levels and block-sorted after the last one
//   equal list  runs of keys equal to a pivot: side buffer -> output
//   fallback    children still large at the depth limit (merge::sort)
#pragma once

#include "merge/segment_sort.cuh"

#include <cstddef>

namespace gpusort::detail::quick {

using counter = unsigned long long;

template <class U> struct segment {
  std::size_t begin = 0, size = 0;
  counter lt = 0, eq = 0, gt = 0;  // cursors: keys of each class placed so far
  U pivot{};
};

// One work item of a partition level: keys [at, at + size) of the level's
// source, all in segment `seg`, whose pivot is `pivot`.
template <class U> struct work {
  std::size_t at = 0;
  unsigned seg = 0;
  int size = 0;
  U pivot{};
};

struct level_slot {
  counter next = 0;      // packed: (segments << chunk_bits) | work items
  counter equal = 0;     // equal-run pieces
  counter fallback = 0;  // children past the depth limit
};

// A run of equal keys (or part of one): side[from, from + size) goes to
// out[to, to + size).
struct piece {
  std::size_t from = 0, to = 0;
  int size = 0;
};

struct range {
  std::size_t begin = 0, size = 0;
};

// Everything the device side of the recursion shares, passed by value.
template <class U> struct queues {
  segment<U>* segs[2] = {nullptr, nullptr};  // level lists, by level parity
  work<U>* map = nullptr;
  merge::segment* small[2] = {nullptr, nullptr};  // by buffer: 0 scratch, 1 output
  counter* small_count = nullptr;                 // [2], one per small list
  piece* equal = nullptr;
  range* fallback = nullptr;
  level_slot* slots = nullptr;
  int max_levels = 0;
  // Level `level`'s list (a select, not an index: an indexed kernel
  // parameter array would be copied to the stack).
  __host__ __device__ segment<U>* list(int level) const { return level % 2 ? segs[1] : segs[0]; }
  // Small list `b` (0: the scratch buffer, 1: the output); a select too.
  __host__ __device__ merge::segment* smalls(int b) const { return b ? small[1] : small[0]; }
};

// One small list as a segment list for merge::segment_sort_kernel (its
// count lives in device memory).
struct small_list {
  const merge::segment* items;
  const counter* n;
  __device__ std::size_t count() const { return std::size_t(*n); }
  __device__ merge::segment operator()(std::size_t i) const { return items[i]; }
};

}  // namespace gpusort::detail::quick
