// Sample sort (Sintorn & Assarsson 2008's bucket/merge hybrid;
// the lecture notes "MCMD L20: GPU Sorting"): the constants every stage shares.
//
// Buckets: S = 255 splitters per segment give B = 2S + 1 = 511 buckets, in
// key order:
//   2j      range bucket j:  s[j-1] < key < s[j]   (j = 0..S; open ends)
//   2j + 1  equality bucket: key == s[j]           (rank-equal under the order)
// A key equal to a splitter goes to that splitter's equality bucket, which
// needs no sorting, so all-equal, few-unique and zipf inputs cannot pile
// into one range bucket (equal splitters leave the range bucket between
// them empty and the first one's equality bucket takes every copy).
#pragma once

#include <cstddef>

namespace gpusort::detail::sample {

struct tuning {
  static constexpr int splitters = 255;              // S
  static constexpr int buckets = 2 * splitters + 1;  // B
  static constexpr int tree_levels = 8;              // splitters = 2^levels - 1 (search_tree.cuh)
  static constexpr int bucket_bits = 9;              // buckets < 2^bits: one radix digit (scatter)
  // sample: one block sorts a segment's sample with the block merge sort;
  // a segment of z keys draws clamp(z / sample_every, min_samples, 2048)
  static constexpr int sample_threads = 256;
  static constexpr int sample_items = 8;
  static constexpr int max_samples = sample_threads * sample_items;  // oversampling 8
  static constexpr int min_samples = splitters + 1;                  // one sample per splitter
  static constexpr int sample_every = 32;
  // count and scatter: one block per tile of 8192 keys of one segment (a
  // table cell per bucket and tile), walked in chunks of threads x items
  // keys: count_items keys in flight per thread; the scatter's chunk is
  // sized so its shared exchange (keys or values, plus 16-bit buckets)
  // stays within the static 48 KB (scatter_items)
  static constexpr int threads = 256;
  static constexpr int warps = threads / 32;
  static constexpr int tile = 8192;
  static constexpr int count_items = 16;
  static constexpr int max_scatter_items = 16;
  static constexpr int exchange_bytes = 32 * 1024;
  // refine: levels of distribution before the fallback. Sampled pivots
  // split an oversized range bucket about 256 ways a level, so n keys take
  // levels_for(n): the L levels that 256^L >= n / merge tile needs, and one
  // more where the last of them leaves buckets of more than half a tile
  // on average (stragglers of the sample's spread then overflow a tile);
  // interpolated pivots on skewed 64-bit keys may need max_levels. Every
  // level is launched (an empty one costs its launches only), so the count
  // is fixed on the host; what is still oversized after the last goes to
  // the fallback's merge sort (adversarial input).
  static constexpr int max_levels = 6;
  // a level's segment list counts (segments << tile_bits) | tiles
  // (core/work_queue.cuh's packed lists)
  static constexpr int tile_bits = 40;
  // the table scan: a fixed grid, each block a slice of the cells, in
  // chunks of scan_threads x scan_items (scan.cuh)
  static constexpr int scan_blocks = 1024;
  static constexpr int scan_threads = 256;
  static constexpr int scan_items = 8;
  // pack: one block per segment, one thread per bucket
  static constexpr int pack_threads = 512;
  // Inputs this small go straight to the merge sort: the fixed costs
  // (the levels' launches, the 511-bucket table) would dominate.
  static constexpr std::size_t direct_max = std::size_t(1) << 14;
};

static_assert(tuning::max_samples >= tuning::min_samples);
static_assert(tuning::buckets < (1 << tuning::bucket_bits) && tuning::pack_threads > tuning::buckets);
static_assert(tuning::tile % (tuning::threads * tuning::count_items) == 0);

// Levels launched for n keys split around sampled pivots, with buckets
// sorted in merge tiles of `merge_tile` keys (u32: 1 level up to 2^19
// keys, 2 from 2^20 to 2^27, 3 at 2^28; 2^20 and 2^28 take the straggler
// level).
inline int levels_for(std::size_t n, int merge_tile) {
  int levels = 0;
  double reach = 1;
  for (; reach * merge_tile < double(n); reach *= tuning::splitters + 1) ++levels;
  if (levels > 0 && 2 * double(n) > reach * merge_tile) ++levels;  // average bucket > half a tile
  return levels < tuning::max_levels ? levels : tuning::max_levels;
}

// Samples drawn from a segment of `size` keys.
__host__ __device__ constexpr int sample_count(std::size_t size) {
  const std::size_t m = size / tuning::sample_every;
  return m < std::size_t(tuning::min_samples)   ? tuning::min_samples
         : m > std::size_t(tuning::max_samples) ? tuning::max_samples
                                                : int(m);
}

}  // namespace gpusort::detail::sample
