// Segmented sort, phase 1: binning on the device (the kernels: plan.cu,
// compiled once). Every segment's offsets are read once, to count the
// classes; the file reads back the class byte the count wrote and files
// the segment's index in its class's part of one list (class order, then
// arrival order within a class):
//
//   count    each segment's class (tuning::class_of its clamped size),
//            written as a byte and counted in shared memory, one global
//            atomicAdd per class and block
//   scan     one warp: the classes' first list entries (exclusive scan)
//            and their cursors
//   file     each segment's index to list[cursor of its class]: slots from
//            shared counters (the lanes of one class found by a vote, or a
//            ballot a bit: block::match_digit), one global atomic a class
//            and chunk of segments
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
#include <type_traits>

namespace gpusort::detail::segmented {

// The caller's offsets: segment i is [begin[i], end[i]).
struct offsets {
  const void* begin;
  const void* end;
  int bytes;  // 4 or 8; negative for signed types
  std::size_t n;

  // f(type tag): the offsets' integer type as a value of that type, so a
  // caller branches on the width once, outside its loads (a switch at every
  // load keeps the loads of a loop from being issued together).
  template <class F> __device__ __forceinline__ void with_type(F&& f) const {
    switch (bytes) {
      case -4: return f(std::int32_t(0));
      case 4: return f(std::uint32_t(0));
      case -8: return f(std::int64_t(0));
      default: return f(std::uint64_t(0));
    }
  }
  // Offset i of array p, of type T, clamped to [0, n].
  template <class T> __device__ __forceinline__ std::size_t read_as(const void* p, std::size_t i) const {
    const T v = static_cast<const T*>(p)[i];
    if constexpr (std::is_signed_v<T>) {
      if (v < 0) return 0;
    }
    return std::size_t(v) > n ? n : std::size_t(v);
  }
  template <class T> __device__ __forceinline__ void span_as(std::size_t i, std::size_t& first, std::size_t& last) const {
    first = read_as<T>(begin, i);
    last = read_as<T>(end, i);
    if (last < first) last = first;
  }

  // [first, last) of segment i, clamped; empty when last <= first
  __device__ __forceinline__ void span(std::size_t i, std::size_t& first, std::size_t& last) const {
    with_type([&](auto type) { span_as<decltype(type)>(i, first, last); });
  }
};

// The list of segment indices by class, and where each class's part starts.
struct bins {
  unsigned* counts;   // [classes]: segments of each class
  unsigned* firsts;   // [classes + 1]: first list entry of each class
  unsigned* cursors;  // [classes]: filing cursors
  unsigned* list;     // [segments]
  std::int8_t* of;    // [segments]: each segment's class (-1: empty), from the count for the file
};

}  // namespace gpusort::detail::segmented
