// Segmented sort: the one tuning struct, read by kernels and host alike.
// Every segment falls into one size class (bins.cuh), and each class has
// the sorter that wastes at most 2x of its capacity on it:
//
//   class  sizes          sorter (every one stable)
//   copy   1              one key (and value) moved
//   group  2 .. 256       G lanes x ITEMS elements (a power of two >= the
//                         size; 1 to 32 lanes, 4 elements a lane, 2 for
//                         size 2 and 8 for sizes above 128): bitonic network
//                         in registers (block/group_bitonic.cuh) of (rank,
//                         index) elements, keys and values gathered
//   block  257 .. 4096    one block. Keys of up to 4 bytes: the radix
//                         family's block radix sort (radix/block_sort.cuh,
//                         sort_tile) of the keys' bits with their 16-bit
//                         positions. 8-byte keys (8 digit passes): the
//                         block merge sort of (rank, index) pairs
//                         (block/merge_sort.cuh), which measured faster
//   large  4097 .. 2^28   the radix family's onesweep passes over the
//                         segments' tiles, each segment a look-back chain
//                         of its own, every tile a block (large.cuh)
//   huge   2^28 + 1 ..    tiles of the merge family's block sort, then
//                         merge-path passes within each segment (huge.cuh):
//                         onesweep's look-back counts hold 30 bits
// Empty segments (end <= begin) take no class.
#pragma once

#include <gpusort/detail/merge/merge_sort.cuh>

#include <cstddef>

namespace gpusort::detail::segmented {

struct tuning {
  // group classes: (lanes, items a lane) for capacities 2^1 .. 2^8. Four
  // items a lane where the capacity allows: a warp then holds 32, 16, 8 ...
  // segments, so each round trip to memory serves four times the keys of
  // one item a lane (which measured latency-bound: 56 Gkeys/s at 16 keys).
  static constexpr int group_classes = 8;
  static constexpr int group_lanes[group_classes] = {1, 1, 2, 4, 8, 16, 32, 32};
  static constexpr int group_items[group_classes] = {2, 4, 4, 4, 4, 4, 4, 8};
  static constexpr int group_threads = 256;  // a block of group kernels: 8 warps
  static constexpr int group_max = 256;

  // block classes: (threads, items a thread) for capacities 2^9 .. 2^12.
  // The radix sort (keys up to 4 bytes, 8-bit digits) at 256 x 16 for 4096
  // keys: two 512-thread blocks fit an SM at 64 registers, four of 256
  // (seg4096 41 -> 48 Gkeys/s). The merge sort: the shapes of v1.
  static constexpr int block_classes = 4;
  static constexpr int block_radix_threads[block_classes] = {128, 256, 256, 256};
  static constexpr int block_radix_items[block_classes] = {4, 4, 8, 16};
  static constexpr int block_merge_threads[block_classes] = {128, 256, 256, 512};
  static constexpr int block_merge_items[block_classes] = {4, 4, 8, 8};
  static constexpr int block_max = 4096;
  static constexpr int block_radix_bits = 8;
  template <class U> static constexpr bool block_radix = sizeof(U) <= 4;

  // the large class: onesweep's portion bound (look-back counts in 30 bits)
  static constexpr std::size_t large_max = std::size_t(1) << 28;

  // class ids: copy, group 0..7, block 0..3, large, huge
  static constexpr int copy_class = 0;
  static constexpr int first_group = 1;
  static constexpr int first_block = first_group + group_classes;
  static constexpr int large_class = first_block + block_classes;
  static constexpr int huge_class = large_class + 1;
  static constexpr int classes = huge_class + 1;

  // binning: segments a thread classifies
  static constexpr int bin_threads = 256;

  // Blocks per SM a class kernel's grid-stride loop runs with: its grid is
  // the resident grid, whatever the (device-side) number of segments.
  static constexpr int waves = 1;

  __host__ __device__ static int class_of(std::size_t size) {
    if (size == 0) return -1;
    if (size == 1) return copy_class;
    if (size <= std::size_t(group_max)) {
      int c = 0;
      while ((std::size_t(2) << c) < size) ++c;  // capacity 2^(c+1) >= size
      return first_group + c;
    }
    if (size <= std::size_t(block_max)) {
      int c = 0;
      while ((std::size_t(512) << c) < size) ++c;
      return first_block + c;
    }
    return size <= large_max ? large_class : huge_class;
  }

  // The huge class: the merge family's shapes for (rank, index) elements.
  template <class T, class P> using huge = merge::tuning<T, P>;
};

}  // namespace gpusort::detail::segmented
