// Segmented sort: the one tuning struct, read by kernels and host alike.
// Every segment falls into one size class (bins.cuh), and each class has
// the sorter that wastes at most 2x of its capacity on it:
//
//   class  sizes          sorter (every one stable: (rank, index) order)
//   copy   1              one key (and value) moved
//   group  2 .. 256       G lanes x ITEMS elements (a power of two >= the
//                         size; 1 to 32 lanes, 4 elements a lane, 2 for
//                         size 2 and 8 for sizes above 128)
//                         (group.cuh: bitonic network in registers)
//   block  257 .. 4096    one block: 128 x 4, 256 x 4, 256 x 8, 512 x 8
//                         (block.cuh: block merge sort in shared memory)
//   large  4097 ..        tiles of the merge family's block sort, then
//                         merge-path passes within each segment, every
//                         tile a block (large.cuh)
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

  // block classes: (threads, items a thread) for capacities 2^9 .. 2^12
  static constexpr int block_classes = 4;
  static constexpr int block_threads[block_classes] = {128, 256, 256, 512};
  static constexpr int block_items[block_classes] = {4, 4, 8, 8};
  static constexpr int block_max = 4096;

  // class ids: copy, group 0..7, block 0..3, large
  static constexpr int copy_class = 0;
  static constexpr int first_group = 1;
  static constexpr int first_block = first_group + group_classes;
  static constexpr int large_class = first_block + block_classes;
  static constexpr int classes = large_class + 1;

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
    return large_class;
  }

  // The large class: the merge family's shapes for (rank or key, index)
  // elements of T.
  template <class T, class P> using large = merge::tuning<T, P>;
};

}  // namespace gpusort::detail::segmented
