// Sample sort: the one temp block. The same code sizes it (temp ==
// nullptr) and carves it, with worst-case bounds for n keys:
//   segments per level   every oversized bucket holds > one merge tile of
//                        keys: cap_segs = n / (merge tile + 1) + 1 (level 1: 1)
//   tiles per level      sum of ceil(size / 8192) <= n / 8192 + segments
//   descs, ranges, splitters   per segment; map per tile
//   table, scan scratch  511 x cap_tiles size_t cells (scanned in place)
//   counters + oversized spans (<= cap_segs)
//   runs                 <= 5 n / merge tile + segments (bucket_sort.cuh: a
//                        run closed for lack of room and the next one hold
//                        > a tile; whole-tile copies, closes at oversized
//                        and at big equality buckets are <= n / tile each)
//   kbuf, vbuf           the ping-pong partner of the output
//   merge scratch        the fallback's merge::sort, for a bucket as large
//                        as n (adversarial input)
// So every level, however many segments it has, is one set of launches.
#pragma once

#include <gpusort/detail/core/context.hpp>
#include <gpusort/detail/core/payload.cuh>
#include <gpusort/detail/core/temp_layout.hpp>
#include <gpusort/detail/merge/merge_sort.cuh>
#include <gpusort/detail/merge/segment_sort.cuh>
#include "sample/segments.cuh"
#include "sample/tuning.cuh"

#include <gpusort/detail/key_traits.hpp>

#include <cub/device/device_scan.cuh>

#include <cstddef>
#include <cstdint>

namespace gpusort::detail::sample {

template <class K, class P> using merge_tune = merge::tuning<typename key_traits<K>::bits, P>;

template <class K, class P> struct plan {
  using U = typename key_traits<K>::bits;
  static constexpr int merge_tile = merge_tune<K, P>::tile;
  std::size_t cap_segs = 0, cap_tiles = 0, cap_runs = 0, scan_bytes = 0;
  segment_desc* descs = nullptr;
  unsigned* map = nullptr;
  U* splitters = nullptr;
  rank_range ranges{nullptr, nullptr};
  std::size_t* table = nullptr;  // counts, then (scanned in place) offsets
  void* scan_temp = nullptr;
  std::size_t* counters = nullptr;  // level_counters, then the oversized spans
  span* oversized = nullptr;
  merge::segment* runs = nullptr;
  K* kbuf = nullptr;
  P* vbuf = nullptr;
  void* merge_temp = nullptr;
  std::size_t bytes = 0;

  plan(const call_context& ctx, std::size_t n, void* temp) {
    temp_layout t(temp);
    if (n > tuning::direct_max) {
      cap_segs = n / (merge_tile + 1) + 1;
      cap_tiles = (n + tuning::tile - 1) / tuning::tile + cap_segs;
      cap_runs = 5 * (n / merge_tile + 1) + cap_segs;
      const std::size_t cells = std::size_t(tuning::buckets) * cap_tiles;
      ctx.check(cub::DeviceScan::ExclusiveSum(nullptr, scan_bytes, static_cast<std::size_t*>(nullptr),
                                              static_cast<std::size_t*>(nullptr), cells),
                "cub::DeviceScan::ExclusiveSum(size)");
      descs = t.take<segment_desc>(cap_segs);
      map = t.take<unsigned>(cap_tiles);
      splitters = t.take<U>(cap_segs * tuning::splitters);
      ranges = {t.take<unsigned long long>(cap_segs), t.take<unsigned long long>(cap_segs)};
      table = t.take<std::size_t>(cells);
      scan_temp = t.take<std::uint8_t>(scan_bytes);
      counters = t.take<std::size_t>(level_counters::words + 2 * cap_segs);
      oversized = counters ? reinterpret_cast<span*>(counters + level_counters::words) : nullptr;
      runs = t.take<merge::segment>(cap_runs);
      kbuf = t.take<K>(n);
      if constexpr (!is_no_value<P>) vbuf = t.take<P>(n);
    }
    merge_temp = t.take<std::uint8_t>(merge::sort_temp_bytes<merge_tune<K, P>, K, P>(n));
    bytes = t.bytes();
  }
};

}  // namespace gpusort::detail::sample
