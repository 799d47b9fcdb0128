// radix_onesweep's one tuning struct, read by kernels and host alike.
// Sizes started from CUB's sm_90 onesweep policy (tuning_radix_sort.cuh):
// 384 threads and 8-bit digits; 15 items for 8-byte keys, 12 for 8-byte
// pairs, fewer for 16-byte values. 4-byte keys alone take 22 items (8448-key
// tiles, still 56 registers with no spill, so 3 blocks an SM): 4.4% faster
// than CUB's 20 on the H200 (docs/perf/radix.md). 4-byte pairs hold their
// values in registers from the load until they are ranked; with full tiles
// loading unguarded, up to 24 items fit the 80-register cap without spills
// (the sweep is in docs/perf/radix.md).
#pragma once

#include <gpusort/detail/core/payload.cuh>
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
  static constexpr int items = value_bytes == 0 ? (key_bytes <= 4 ? 22 : 15)
                               : dominant <= 4  ? 24
                               : dominant <= 8  ? (key_bytes == 8 && value_bytes == 8 ? 12 : 15)
                                                : 7;
  static constexpr int tile = threads * items;
  // Blocks per SM the registers must allow: 3 x 384 threads (<= 56
  // registers) for 4-byte keys alone (possible because no rank is held: each
  // key is stored to the exchange as soon as it is ranked), else 2 x 384
  // (<= 80 registers). Shared memory: 3 x 49 KB for u32 keys (22 items), 2 x 84 KB for
  // u32 pairs.
  static constexpr int min_blocks = value_bytes == 0 && key_bytes <= 4 ? 3 : 2;
  // Each onesweep launch covers one portion of less than 2^30 keys (a whole
  // number of tiles): look-back counts then fit their 30-bit field. (CUB
  // caps its portions at 2^28; so did this until the H200 showed 2^28 u32
  // keys, two launches a digit: docs/perf/radix.md.)
  static constexpr std::size_t portion = (((std::size_t(1) << 30) - 1) / tile) * tile;

  // histogram kernel: every pass's digit counts in one read
  static constexpr int hist_threads = 128;
  static constexpr int hist_items = 16;
  static constexpr int hist_blocks_per_sm = 16;  // full occupancy
  // its grid: the resident blocks once per hist_wave keys (2^28 u64 keys:
  // 4224 blocks; half that took 0.07 ms longer). The old portion size, so
  // the grids are those measured before portions grew to 2^30.
  static constexpr std::size_t hist_wave = ((std::size_t(1) << 28) / tile) * tile;

  // small n: one block sorts everything in one launch
  static constexpr int small_items = dominant <= 4 ? 8 : (dominant <= 8 ? 6 : 4);
  using small = radix::block_sort_config<512, small_items, radix_bits, U, P>;
  // up to half that tile: half the threads. Each pass scans the digit counts
  // of every warp serially, so 8 warps beat 16
  using small_half = radix::block_sort_config<256, small_items, radix_bits, U, P>;
  // 4-byte keys alone: the single-block counter sort (small_sort.cuh), at
  // most 5-bit digits (7 passes for 32 random bits)
  static constexpr bool small_counters = value_bytes == 0 && key_bytes == 4;
  using small_counter = radix::small_sort_config<256, 16, 5, U, P>;
  using small_counter_half = radix::small_sort_config<256, 8, 5, U, P>;
  using small_counter_quarter = radix::small_sort_config<128, 8, 5, U, P, true>;
  static_assert(!small_counters || small_counter::tile == small::tile, "the same small-n bound");
  // few tiles: one block computes the histograms and the scan in one launch
  static constexpr std::size_t fused_max = std::size_t(1) << 15;
};

}  // namespace gpusort::detail::radix_onesweep
