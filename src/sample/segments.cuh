// Sample sort: the segments one level splits (Sintorn & Assarsson 2008,
// the lecture notes "MCMD L20: GPU Sorting" step 1, refinement).
//
// A level splits a list of segments, each a contiguous range of the
// level's buffer: level 1 the whole input, level 2 the range buckets of
// level 1 that came out larger than one merge tile, and so on. One set of
// launches splits all of a level's segments, whatever their number:
//   setup    tile -> segment map, interpolation ranges and counters reset
//   splitters one block per segment (splitters.cuh, interpolate.cuh)
//   count / scan / scatter  over the level's tiles (count.cuh, scatter.cuh)
//   pack     bucket bounds -> final runs and next level's spans (bucket_sort.cuh)
// Every segment is cut into tiles of tuning::tile keys (the last partial);
// the level's count table is [segment][bucket][tile], so one exclusive scan
// gives each (segment, bucket, tile) its place among the level's keys.
#pragma once

#include "sample/tuning.cuh"

#include <cstddef>
#include <cstdint>
#include <vector>

namespace gpusort::detail::sample {

// A range of keys: a segment to split, or an oversized bucket (the next
// level's segment). Positions index the level's buffers.
struct span {
  std::size_t begin = 0, size = 0;
};

struct segment_desc {
  std::size_t begin = 0, size = 0;
  std::size_t tile_first = 0;  // its first tile among the level's tiles
  std::size_t tiles = 0;       // ceil(size / tuning::tile)
};

// Where (bucket b, the segment's tile t) counts in the level's table.
__host__ __device__ __forceinline__ std::size_t cell(const segment_desc& d, int b, std::size_t t) {
  return std::size_t(tuning::buckets) * d.tile_first + std::size_t(b) * d.tiles + t;
}

// Per-segment rank range for interpolated pivots (interpolate.cuh).
struct rank_range {
  unsigned long long* lo;
  unsigned long long* hi;
};

// Counters the pack kernel fills: final runs, oversized
// buckets of this level; the oversized spans follow them in memory, so one
// copy brings the counters and the first spans to the host.
struct level_counters {
  static constexpr int runs = 0, oversized = 1, words = 2;
};

// One tile of the level as a block sees it.
struct tile_view {
  segment_desc d;
  unsigned seg;
  std::size_t t;      // tile within the segment
  std::size_t first;  // index of its first key
  int valid;          // keys in it
};

__device__ __forceinline__ tile_view tile_at(const segment_desc* descs, const unsigned* map, std::size_t tile) {
  tile_view v;
  v.seg = map[tile];
  v.d = descs[v.seg];
  v.t = tile - v.d.tile_first;
  v.first = v.d.begin + v.t * tuning::tile;
  const std::size_t left = v.d.size - v.t * tuning::tile;
  v.valid = int(left < std::size_t(tuning::tile) ? left : std::size_t(tuning::tile));
  return v;
}

// setup: one block per segment writes the tile -> segment map and resets
// the segment's interpolation range (when asked); block 0 resets the
// counters.
template <class I>
__global__ void setup_kernel(const segment_desc* descs, std::size_t segs, unsigned* map, rank_range ranges,
                             I* counters) {
  if (blockIdx.x == 0 && threadIdx.x == 0)
    for (int i = 0; i < level_counters::words; ++i) counters[i] = 0;
  for (std::size_t s = blockIdx.x; s < segs; s += gridDim.x) {
    const segment_desc d = descs[s];
    for (std::size_t t = threadIdx.x; t < d.tiles; t += blockDim.x) map[d.tile_first + t] = unsigned(s);
    if (ranges.lo && threadIdx.x == 0) {
      ranges.lo[s] = ~0ull;
      ranges.hi[s] = 0;
    }
  }
}

// A level on the host: its segments' descriptors.
struct level_segments {
  std::vector<segment_desc> descs;
  std::size_t tiles = 0, keys = 0;

  explicit level_segments(const std::vector<span>& spans) {
    descs.reserve(spans.size());
    for (const span& s : spans) {
      const std::size_t t = (s.size + tuning::tile - 1) / tuning::tile;
      descs.push_back({s.begin, s.size, tiles, t});
      tiles += t;
      keys += s.size;
    }
  }
};

}  // namespace gpusort::detail::sample
