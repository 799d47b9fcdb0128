// radix_onesweep's one tuning struct, read by kernels and host alike.
// Sizes follow CUB's sm_90 onesweep policy (tuning_radix_sort.cuh): 384
// threads and 8-bit digits; 20 items for 4-byte keys, 15 for 8-byte keys,
// 12 for 8-byte pairs, fewer for 16-byte values. 4-byte pairs hold their
// values in registers from the load until they are ranked; with full tiles
// loading unguarded, up to 24 items fit the 80-register cap without spills
// (25 spill). H200, u32 pairs at 2^28: 22 items 7.43 ms, 23 7.37, 24 7.26
// (CUB, 23 items: 7.44; docs/perf/radix.md, round 4).
#pragma once

#include "core/payload.cuh"
#include "radix/block_sort.cuh"
#include "radix/small_sort.cuh"

#include <cstddef>

namespace gpusort::detail::radix_onesweep {

template <class U, class P> struct tuning {
  static constexpr int key_bytes = int(sizeof(U));
  static constexpr int value_bytes = is_no_value<P> ? 0 : int(sizeof(P));
  static constexpr int dominant = key_bytes > value_bytes ? key_bytes : value_bytes;

  // digit passes
  static constexpr int radix_bits = 8;
  static constexpr int bins = 1 << radix_bits;
  static constexpr int max_passes = (key_bytes * 8 + radix_bits - 1) / radix_bits;
  static constexpr int threads = 384;
  static constexpr int items = value_bytes == 0 ? (key_bytes <= 4 ? 20 : 15)
                               : dominant <= 4  ? 24
                               : dominant <= 8  ? (key_bytes == 8 && value_bytes == 8 ? 12 : 15)
                                                : 7;
  static constexpr int tile = threads * items;
  // Blocks per SM the registers must allow: 3 x 384 threads (<= 56
  // registers) for 4-byte keys alone (possible because no rank is held: each
  // key is stored to the exchange as soon as it is ranked), else 2 x 384
  // (<= 80 registers). Shared memory: 3 x 45 KB for u32 keys, 2 x 84 KB for
  // u32 pairs.
  static constexpr int min_blocks = value_bytes == 0 && key_bytes <= 4 ? 3 : 2;
  // Each onesweep launch covers one portion of at most 2^28 keys (a whole
  // number of tiles): look-back counts then fit their 30-bit field.
  static constexpr std::size_t portion = ((std::size_t(1) << 28) / tile) * tile;

  // histogram kernel: every pass's digit counts in one read
  static constexpr int hist_threads = 128;
  static constexpr int hist_items = 16;
  static constexpr int hist_blocks_per_sm = 16;  // full occupancy: 4 left it at 24% warps active, 217 us at 2^26

  // small n: one block sorts everything in one launch
  static constexpr int small_items = dominant <= 4 ? 8 : (dominant <= 8 ? 6 : 4);
  using small = radix::block_sort_config<512, small_items, radix_bits, U, P>;
  // up to half that tile: half the threads. Each pass scans the digit counts
  // of every warp serially, so 8 warps beat 16 (H200, u32: n = 1024 in
  // 13.3 us instead of 17.9; 2048 in 13.8 instead of 18.1)
  using small_half = radix::block_sort_config<256, small_items, radix_bits, U, P>;
  // 4-byte keys alone: the single-block counter sort (small_sort.cuh), at
  // most 5-bit digits (7 passes for 32 random bits). H200, u32, back-to-back
  // launches (empty launch 3.2-4.4 us): n = 4096 11.2 us (512x8 above 11.6,
  // CUB 11.2); 2048 8.3 (256x8 above 8.5, CUB 10.4); 1024 6.1 (8.0, CUB 10.0).
  static constexpr bool small_counters = value_bytes == 0 && key_bytes == 4;
  using small_counter = radix::small_sort_config<256, 16, 5, U, P>;
  using small_counter_half = radix::small_sort_config<256, 8, 5, U, P>;
  using small_counter_quarter = radix::small_sort_config<128, 8, 5, U, P, true>;
  static_assert(!small_counters || small_counter::tile == small::tile, "the same small-n bound");
  // few tiles: one block computes the histograms and the scan in one launch
  static constexpr std::size_t fused_max = std::size_t(1) << 15;
};

}  // namespace gpusort::detail::radix_onesweep
