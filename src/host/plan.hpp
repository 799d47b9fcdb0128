// How one sort of host memory (sort(std::span)) is cut up. Host code only: the
// pipeline (in_core.cpp, out_of_core.cpp) reads it, and tests/host_plan_test.cpp
// checks it on the host.
//
// In core (the array and a second copy fit the device budget):
//   chunks   the array is copied in chunk by chunk; each chunk is sorted as
//            soon as it lands, while the next one is copied in;
//   levels   two sorted runs are merged (merge path) as soon as both exist,
//            so by the last chunk only the merges along the right edge of the
//            merge tree remain;
//   windows  the last merge runs window by window, and each window is copied
//            out while the next is merged.
// Out of core (it does not fit): runs of `slot` items are sorted one by one,
// three in flight (in, sort, out); then the runs are merged: each output
// piece of `slot` items gathers its share of every run (found on the host by
// a k-way co-rank search), sorts it on the device and lands in free host
// blocks, which a final permutation puts in order (blocks.hpp). Runs are
// contiguous, or dealt block by block when ties cannot be told apart
// (run_layout.hpp): then the output's blocks find their homes free.
#pragma once

#include <gpusort/detail/core/bit_width.hpp>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <functional>

namespace gpusort::detail::host {

// Device scratch of a sort_device call of n items (its query phase).
using temp_query = std::function<std::size_t(std::size_t)>;

inline std::size_t round_up(std::size_t x, std::size_t m) { return (x + m - 1) / m * m; }
inline std::size_t ceil_div(std::size_t x, std::size_t m) { return (x + m - 1) / m; }

struct in_core_plan {
  std::size_t chunk = 0;   // items per chunk (a multiple of the merge tile when merging)
  std::size_t chunks = 0;  // ceil(n / chunk)
  int levels = 0;          // merge levels: ceil(log2(chunks)); the last one is streamed
  std::size_t window = 0;  // items per streamed window of the last level
  std::size_t tile = 0;    // the merge tile (0: no merging)
  std::size_t device_bytes = 0;
};

// tile: the merge tile, 0 when the values cannot be merged (then one chunk).
// At most `max_chunks` chunks of at least `min_chunk` items.
inline in_core_plan plan_in_core(std::size_t n, std::size_t key_bytes, std::size_t val_bytes, std::size_t tile,
                                 const temp_query& sort_temp, std::size_t max_chunks = 16,
                                 std::size_t min_chunk = std::size_t(1) << 22) {
  constexpr std::size_t align = 256;  // temp_layout's
  in_core_plan p;
  p.tile = tile;
  if (tile == 0 || n < 2 * min_chunk) {
    p.chunk = n;
  } else {
    p.chunk = round_up(std::max(ceil_div(n, max_chunks), min_chunk), tile);
  }
  p.chunks = n == 0 ? 0 : ceil_div(n, p.chunk);
  p.levels = ceil_log2(p.chunks);
  if (p.levels > 0) p.window = std::min(round_up(std::max(ceil_div(n, 32), min_chunk), tile), round_up(n, tile));
  const std::size_t copies = p.levels > 0 ? 2 : 1;
  p.device_bytes = copies * (round_up(n * key_bytes, align) + round_up(n * val_bytes, align)) +
                   round_up(sort_temp(p.chunk), align) +
                   (p.levels > 0 ? round_up((ceil_div(n, tile) + 2) * sizeof(std::size_t), align) : 0);
  return p;
}

struct out_of_core_plan {
  std::size_t slot = 0;          // items per run and per merge piece: a multiple of block
  std::size_t runs = 0;          // ceil(n / slot)
  std::size_t block = 0;         // host block of the merge's output (items)
  std::size_t extra_blocks = 0;  // host blocks taken beyond the caller's array
  std::size_t device_bytes = 0;  // three slots and one sort's scratch
  bool dealt = false;            // runs dealt block by block (run_layout.hpp)
  bool ok = false;               // false: the budget cannot hold a useful slot
};

// dealt: the caller's ties are indistinguishable, so runs may be dealt.
inline out_of_core_plan plan_out_of_core(std::size_t n, std::size_t key_bytes, std::size_t val_bytes,
                                         std::size_t budget, const temp_query& sort_temp, bool dealt = false,
                                         std::size_t min_slot = 1024) {
  constexpr std::size_t align = 256;
  out_of_core_plan p;
  const std::size_t element = key_bytes + val_bytes;
  auto bytes = [&](std::size_t s) {
    return 3 * (round_up(s * key_bytes, align) + round_up(s * val_bytes, align)) + round_up(sort_temp(s), align);
  };
  std::size_t s = budget / (4 * element);
  while (s >= min_slot && bytes(s) > budget) s -= s / 16 + 1;
  if (s < min_slot || n == 0) return p;
  // At least 16 blocks a slot, and as many as there are runs (up to 256), so
  // that dealt runs' output finds its homes free one piece behind the reads.
  const std::size_t per_slot = std::clamp<std::size_t>(ceil_div(n, s), 16, 256);
  std::size_t block = 1;
  while (block * 2 <= s / per_slot) block *= 2;
  p.block = block;
  p.dealt = dealt;
  p.slot = s / block * block;
  p.runs = ceil_div(n, p.slot);
  p.extra_blocks = p.runs;
  p.device_bytes = bytes(p.slot);
  p.ok = true;
  return p;
}

}  // namespace gpusort::detail::host
