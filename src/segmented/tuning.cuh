// Segmented sort: the one tuning struct, read by kernels and host alike.
// Every segment falls into one size class (bins.cuh), and each class has
// the sorter that wastes at most 2x of its capacity on it:
//
//   class  sizes          sorter (every one stable)
//   copy   1              one key (and value) moved
//   thread 2 .. 16        one lane a segment (capacity a power of two >=
//                         the size): Batcher's odd-even merge network in
//                         registers (block/thread_sort.cuh) of (rank,
//                         index) elements, or of the ranks alone for keys
//                         without values in an order of every bit; the
//                         warp's 32 segments (keys, and values of 4 or 8
//                         bytes) staged in shared memory so loads and
//                         stores coalesce (small.cuh)
//   group  17 .. 256      G lanes x ITEMS elements (32 lanes, 4 elements
//                         a lane, 8 above 128): bitonic network in
//                         registers (block/group_bitonic.cuh) of (rank,
//                         index) elements, keys gathered, values staged in
//                         shared memory (group.cuh). Up to 64 keys sort
//                         as thread classes instead, every key type and
//                         order (the group shapes of 8 and 16 lanes for
//                         those classes are not launched): keys alone in
//                         an order of every bit one lane a segment
//                         (wide_thread_kernel; up to 32 for 8-byte keys,
//                         then two lanes a segment: pair_kernel);
//                         otherwise one lane a segment up to 32 and two
//                         up to 64 (pair_kernel), of (rank, index) words:
//                         packed for keys of up to 4 bytes, a window of
//                         the segment's ranks for 8-byte keys (window.hpp)
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

#include <gpusort/detail/block/async_copy.cuh>
#include <gpusort/detail/core/bit_width.hpp>
#include <gpusort/detail/merge/merge_sort.cuh>

#include <cstddef>

namespace gpusort::detail::segmented {

struct tuning {
  // thread classes, capacities 2^1 .. 2^4: one lane a segment, Batcher's
  // network in registers (thread_kernel). The bitonic group of 4 lanes x 4
  // items it replaced at 16 keys issued 630 instructions for a warp's 128
  // keys (two-word shuffles of 64-bit elements): 88 Gkeys/s, compute-bound.
  static constexpr int thread_classes = 4;
  static constexpr int thread_max = 16;
  // group classes, capacities 2^5 .. 2^8: (lanes, items a lane). Four items
  // a lane where the capacity allows: a warp then holds 4, 2 or 1 segments,
  // so each round trip to memory serves four times the keys of one item a
  // lane (which measured latency-bound).
  static constexpr int group_classes = 4;
  static constexpr int group_lanes[group_classes] = {8, 16, 32, 32};
  static constexpr int group_items[group_classes] = {4, 4, 4, 8};
  static constexpr int group_threads = 256;  // a block of thread or group kernels: 8 warps
  // Blocks an SM the thread and group kernels are compiled for, from the
  // bytes of (rank, index) elements a lane holds. Without the hint ptxas
  // kept them at 32 to 40 registers and spilled (up to 330 bytes of spill
  // loads a thread). The thread kernel holds its elements and then the
  // sorted keys: 4 blocks (64 registers) below 64 bytes, 3 (80) up to 128
  // (16 u32 keys), 2 beyond; LEAN (keys sorted as their ranks, no index,
  // no gather) 4 blocks up to 64 bytes. The group kernel also holds
  // a shuffled partner's copy: 4 blocks up to 32 bytes, 2 beyond.
  template <int BYTES, bool LEAN>
  static constexpr int thread_blocks = BYTES < 64 || (LEAN && BYTES == 64) ? 4 : BYTES <= 128 ? 3 : 2;
  template <int BYTES> static constexpr int group_blocks = BYTES <= 32 ? 4 : 2;
  static constexpr int group_max = 256;
  // The thread classes' areas a warp, for keys alone (BARE): two (the next
  // segments' keys copied by cp.async during the sort) for keys of 4 bytes;
  // one for keys without cp.async (1 and 2 bytes), and for 8-byte keys,
  // whose two areas would pass the 48 KB of static shared memory a block.
  // With values, or a bit range (the indexed sort, 80 registers), one: two
  // cost u32 + u32 pairs at 16 keys 13% (1.008 -> 1.137 ms, H100).
  template <class U> static constexpr int thread_areas = block::async_copyable<U> && sizeof(U) <= 4 ? 2 : 1;
  // Threads a block of the thread classes: with values staged beside the
  // keys (values.cuh, 8 bytes a place), 128, so that the keys, the staged
  // values and the source places stay within 48 KB of static shared memory
  // (u64 keys: 38 KB); the blocks an SM double, so the warps an SM stay.
  template <bool STAGED> static constexpr int thread_threads = STAGED ? group_threads / 2 : group_threads;
  // wide thread classes: the group classes of capacity 32 and 64 (keys of
  // up to 4 bytes), or 32 (8-byte keys), sorted one lane a segment
  // (wide_thread_kernel) when keys sort alone in an order of every bit. A
  // lane holds 64 u32 or 32 u64 ranks (128 registers with its addresses;
  // 64 u64 ranks would not fit). Two areas of 33 x 64 u32 (33 x 32 u64)
  // keys a warp: 64-thread blocks (34 KB), 6 an SM by shared memory; one
  // area (1- and 2-byte keys): 128-thread blocks, 3 an SM (170 registers:
  // at 128 the 2-byte keys spilled 288 bytes).
  template <class U> static constexpr int wide_max = sizeof(U) <= 4 ? 64 : 32;
  template <class U> static constexpr int wide_classes = sizeof(U) <= 4 ? 2 : 1;  // group classes taken
  template <class U> static constexpr int wide_areas = block::async_copyable<U> ? 2 : 1;
  template <class U> static constexpr int wide_threads = wide_areas<U> == 2 ? 64 : 128;
  template <class U> static constexpr int wide_blocks = wide_areas<U> == 2 ? 6 : 3;
  // lane pairs: the group class of 33 to 64 keys as two lanes a segment, 32
  // elements each (block::lane_pair_sort), where the elements are words of
  // up to 8 bytes: the ranks of 8-byte keys alone in an order of every bit
  // (smaller keys alone take the wide thread classes), or, for every other
  // sort, (rank, index) words: packed for keys of up to 4 bytes, the rank's
  // place in the segment's window for 8-byte keys (window.hpp). Those also
  // take the class of 17 to 32 keys, one lane a segment of 32: pair_first
  // is the first group class pair_kernel takes. A lane's 32 words and its
  // addresses: 170 registers, six 64-thread blocks an SM; the keys, source
  // places and staged values of two warps take up to 38 KB (8-byte keys
  // with values: five blocks an SM by shared memory). (As 16-byte (rank,
  // index) elements, 8-byte keys with values needed 255 registers, four
  // blocks an SM, and were slower than the group network: see
  // docs/perf/segmented.md.)
  template <class U, bool BARE> static constexpr bool pair_lanes = !BARE || sizeof(U) == 8;
  template <class U, bool BARE> static constexpr int pair_first = BARE ? 1 : 0;
  static constexpr int pair_threads = 64;
  static constexpr int pair_blocks = 6;

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

  // class ids: copy, thread 0..3, group 0..3, block 0..3, large, huge
  static constexpr int copy_class = 0;
  static constexpr int first_thread = 1;
  static constexpr int first_group = first_thread + thread_classes;
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
    // capacity 2^(c+1) >= size: the thread classes, then the group classes
    if (size <= std::size_t(group_max)) return first_thread + ceil_log2(size) - 1;
    if (size <= std::size_t(block_max)) return first_block + ceil_log2(size) - 9;  // capacity 2^(c+9)
    return size <= large_max ? large_class : huge_class;
  }

  // The huge class: the merge family's shapes for (rank, index) elements.
  template <class T, class P> using huge = merge::tuning<T, P>;
};

}  // namespace gpusort::detail::segmented
