// Segmented sort, phase 1: binning on the device (the kernels: plan.cu,
// compiled once). Every segment is read
// once to count the classes, once more to file its index in its class's
// part of one list (class order, then arrival order within a class):
//
//   count    each segment's class (tuning::class_of its clamped size),
//            counted in shared memory, one global atomicAdd per class and
//            block
//   scan     one warp: the classes' first list entries (exclusive scan)
//            and their cursors
//   file     each segment's index to list[cursor of its class], one atomic
//            a class per warp (__match_any_sync groups the lanes)
//
// The counts stay on the device: each class kernel reads its range of the
// list there, so the call never waits for the host (graph capture works).
// Offsets are any of int32, uint32, int64 or uint64 (read through a
// run-time width), and a segment is clamped to [0, n): a bad offset
// empties a segment instead of reaching outside the arrays.
#pragma once

#include "segmented/tuning.cuh"

#include <cstddef>
#include <cstdint>

namespace gpusort::detail::segmented {

// The caller's offsets: segment i is [begin[i], end[i]).
struct offsets {
  const void* begin;
  const void* end;
  int bytes;  // 4 or 8; negative for signed types
  std::size_t n;

  __device__ __forceinline__ std::size_t read(const void* p, std::size_t i) const {
    long long v;
    switch (bytes) {
      case -4: v = static_cast<const std::int32_t*>(p)[i]; break;
      case 4: v = static_cast<long long>(static_cast<const std::uint32_t*>(p)[i]); break;
      case -8: v = static_cast<const std::int64_t*>(p)[i]; break;
      default: {
        const std::uint64_t u = static_cast<const std::uint64_t*>(p)[i];
        return u > n ? n : std::size_t(u);
      }
    }
    if (v < 0) return 0;
    return std::size_t(v) > n ? n : std::size_t(v);
  }
  // [first, last) of segment i, clamped; empty when last <= first
  __device__ __forceinline__ void span(std::size_t i, std::size_t& first, std::size_t& last) const {
    first = read(begin, i);
    last = read(end, i);
    if (last < first) last = first;
  }
};

// The list of segment indices by class, and where each class's part starts.
struct bins {
  unsigned* counts;   // [classes]: segments of each class
  unsigned* firsts;   // [classes + 1]: first list entry of each class
  unsigned* cursors;  // [classes]: filing cursors
  unsigned* list;     // [segments]
};

}  // namespace gpusort::detail::segmented
