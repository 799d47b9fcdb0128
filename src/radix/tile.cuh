// radix_tile: tile radix sort plus merging (Cozzi, "Parallel Algorithms Continued" (CIS 565, 2012), "Parallel Radix Sort":
// 1. break the input into tiles that fit in shared memory, 2. sort each tile
// with radix sort, 3. merge the sorted tiles).
//   1+2  block_sort.cuh: one block per tile, LSD radix sort of 8-bit digits
//        in shared memory (several bits per pass, warp multi-split ranking)
//   3    tile_merge.cuh: log2(tiles) levels of pairwise merge-path merges
//        (the merge family's passes), ping-ponging between the output and
//        a scratch buffer
// The tile sort writes to whichever buffer makes the last merge land in the
// output, so nothing is copied at the end. Stable (stable tile sort, stable
// merges). Keys and pairs, every key type, any order and bit range.
#pragma once

#include <gpusort/detail/core/launch.cuh>
#include "core/problem.cuh"
#include <gpusort/detail/core/temp_layout.hpp>
#include "radix/block_sort.cuh"
#include "radix/tile_merge.cuh"

#include <cstddef>

namespace gpusort::detail::radix_tile {

template <class U, class P> struct tuning {
  static constexpr int element = element_bytes<U, P>;
  static constexpr int threads = 512;
  static constexpr int items = element <= 8 ? 16 : (element <= 16 ? 8 : 6);  // 8192, 4096 or 3072 keys a tile
  static constexpr int radix_bits = 8;
  using sort = radix::block_sort_config<threads, items, radix_bits, U, P>;
  using merge = radix::merge_config<U, P>;
  // A merge tile must not straddle two runs (tile_merge.cuh).
  static_assert((2 * sort::tile) % merge::tile == 0, "merge tiles must divide a pair of sorted tiles");
};

template <class K, class P> struct buffers {
  K* keys_alt;
  P* vals_alt;
  std::size_t* splits;
};

template <class K, class P> buffers<K, P> carve(temp_layout& t, const sort_problem<K, P>& p) {
  using T = tuning<typename key_traits<K>::bits, P>;
  buffers<K, P> b{};
  if (p.n <= std::size_t(T::sort::tile)) return b;  // one tile: no merge
  b.keys_alt = t.take<K>(p.n);
  b.vals_alt = is_no_value<P> ? nullptr : t.take<P>(p.n);
  b.splits = t.take<std::size_t>(T::merge::splits(p.n));
  return b;
}

struct family {
  static constexpr algorithm id = algorithm::radix_tile;
  static constexpr bool compares = true;
  static constexpr unsigned value_widths = all_value_widths;

  template <class K, class P> static std::size_t temp_bytes(const sort_problem<K, P>& p) {
    temp_layout t;
    carve(t, p);
    return t.bytes();
  }

  template <class K, class P> static void sort(const sort_problem<K, P>& p, void* temp) {
    using U = typename key_traits<K>::bits;
    using T = tuning<U, P>;
    if (p.n == 0) return;
    temp_layout t(temp);
    const buffers<K, P> b = carve(t, p);
    const std::size_t tiles = (p.n + T::sort::tile - 1) / T::sort::tile;
    const int levels = ceil_log2(tiles);
    const int passes = radix::pass_count(p.ord, T::radix_bits);

    // The tile sort writes where an even number of merges away is the output.
    K* kbuf[2] = {p.keys_out, b.keys_alt};
    P* vbuf[2] = {p.vals_out, b.vals_alt};
    int at = levels % 2;
    radix::block_sort<typename T::sort>(p, p.keys_in, kbuf[at], p.vals_in, vbuf[at], passes, grid_for(tiles, 1),
                                        "radix tile sort");
    const full_order<K> ord(p.ord);
    std::size_t run = T::sort::tile;
    for (int level = 0; level < levels; ++level, run *= 2, at ^= 1)
      radix::merge_level<typename T::merge>(p, ord, kbuf[at], kbuf[at ^ 1], vbuf[at], vbuf[at ^ 1], run, b.splits);
  }
};

}  // namespace gpusort::detail::radix_tile
