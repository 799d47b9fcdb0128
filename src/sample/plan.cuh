// Sample sort: the one temp block. The same code sizes it (temp ==
// nullptr) and carves it, with worst-case bounds for n keys:
//   segments per level   every oversized bucket holds > one merge tile of
//                        keys: cap_segs = n / (merge tile + 1) + 1 (level 1: 1)
//   tiles per level      sum of ceil(size / 8192) <= n / 8192 + segments
//   segment lists        two (by level parity), cap_segs descriptors each,
//                        counted with their tiles (segments.cuh)
//   ranges, splitters    per segment; map per tile
//   table                511 x cap_tiles size_t cells (scanned in place),
//                        and the scan's per-block sums (scan.cuh)
//   runs                 <= 5 n / merge tile + segments (bucket_sort.cuh: a
//                        run closed for lack of room and the next one hold
//                        > a tile; whole-tile copies, closes at oversized
//                        and at big equality buckets are <= n / tile each)
//   counters             the two segment lists' and the run list's (the
//                        root and setup kernels zero them: no memset)
//   kbuf, vbuf           the ping-pong partner of the output (and of the
//                        fallback's merges)
//   fallback             the lists of the merge sort of the buckets still
//                        oversized after the last level (partition/fallback.cuh)
// So every level, however many segments it has, is one set of launches.
// n <= tuning::direct_max: merge::sort's scratch only.
#pragma once

#include <gpusort/detail/core/payload.cuh>
#include <gpusort/detail/core/temp_layout.hpp>
#include <gpusort/detail/core/work_queue.cuh>
#include <gpusort/detail/merge/merge_sort.cuh>
#include <gpusort/detail/merge/segment_sort.cuh>
#include "partition/fallback.cuh"
#include "sample/segments.cuh"
#include "sample/tuning.cuh"

#include <gpusort/detail/key_traits.hpp>

#include <cstddef>
#include <cstdint>

namespace gpusort::detail::sample {

template <class K, class P> using merge_tune = merge::tuning<typename key_traits<K>::bits, P>;

template <class K, class P> struct plan {
  using U = typename key_traits<K>::bits;
  static constexpr int merge_tile = merge_tune<K, P>::tile;
  std::size_t cap_segs = 0, cap_tiles = 0, cap_runs = 0;
  segment_lists lists{};
  unsigned* map = nullptr;
  U* splitters = nullptr;
  rank_range ranges{nullptr, nullptr};
  std::size_t* table = nullptr;  // counts, then (scanned in place) offsets
  std::size_t* sums = nullptr;   // the table scan's, one per block
  work_list<merge::segment> runs{};
  K* kbuf = nullptr;
  P* vbuf = nullptr;
  partition::fallback_scratch<merge_tune<K, P>> fallback;
  void* merge_temp = nullptr;  // n <= direct_max
  std::size_t bytes = 0;

  plan(std::size_t n, void* temp) {
    temp_layout t(temp);
    if (n <= tuning::direct_max) {
      merge_temp = t.take<std::uint8_t>(merge::sort_temp_bytes<merge_tune<K, P>, K, P>(n));
      bytes = t.bytes();
      return;
    }
    cap_segs = n / (merge_tile + 1) + 1;
    cap_tiles = (n + tuning::tile - 1) / tuning::tile + cap_segs;
    cap_runs = 5 * (n / merge_tile + 1) + cap_segs;
    for (auto& l : lists.list) l = {t.take<segment_desc>(cap_segs), nullptr, cap_segs};
    map = t.take<unsigned>(cap_tiles);
    splitters = t.take<U>(cap_segs * tuning::splitters);
    ranges = {t.take<unsigned long long>(cap_segs), t.take<unsigned long long>(cap_segs)};
    table = t.take<std::size_t>(std::size_t(tuning::buckets) * cap_tiles);
    sums = t.take<std::size_t>(tuning::scan_blocks);
    runs = {t.take<merge::segment>(cap_runs), nullptr, cap_runs};
    queue_counter* counters = t.take<queue_counter>(3);
    if (counters) {
      lists.list[0].count = counters;
      lists.list[1].count = counters + 1;
      runs.count = counters + 2;
    }
    kbuf = t.take<K>(n);
    if constexpr (!is_no_value<P>) vbuf = t.take<P>(n);
    fallback = partition::fallback_scratch<merge_tune<K, P>>(t, n, cap_segs);
    bytes = t.bytes();
  }
};

}  // namespace gpusort::detail::sample
