// Sample sort: the segments one level splits (Sintorn & Assarsson 2008,
// the lecture notes "MCMD L20: GPU Sorting" step 1, refinement).
//
// A level splits a list of segments, each a contiguous range of the
// level's buffer: level 1 the whole input, level 2 the range buckets of
// level 1 that came out larger than one merge tile, and so on. One set of
// launches splits all of a level's segments, whatever their number:
//   setup    tile -> segment map, interpolation ranges, the counters the
//            level fills (its run list, the next level's segments) cleared
//   splitters one block per segment (splitters.cuh, interpolate.cuh)
//   count / scan / scatter  over the level's tiles (count.cuh, scan.cuh,
//            scatter.cuh)
//   pack     bucket bounds -> final runs and next level's segments (bucket_sort.cuh)
// Every segment is cut into tiles of tuning::tile keys (the last partial);
// the level's count table is [segment][bucket][tile], so one exclusive scan
// gives each (segment, bucket, tile) its place among the level's keys.
//
// The segments live on the device only: a packed work list
// (core/work_queue.cuh) per level parity, counting (segments << tile_bits)
// | tiles. The pack kernel of the level before appends a block's oversized
// buckets with one atomicAdd, which gives each its index and its first
// tile, so the descriptors and the tile numbering need neither the host
// nor a scan; level 1's one segment is written by root_kernel. Kernels
// read the counts there are now and loop over them (grids sized from
// host-known bounds, or resident); an empty level's blocks leave at once.
#pragma once

#include "sample/tuning.cuh"

#include <gpusort/detail/core/work_queue.cuh>

#include <cstddef>
#include <cstdint>

namespace gpusort::detail::sample {

// A segment of a level: a range of keys of the level's buffers (positions
// index them all), and its tiles among the level's.
struct segment_desc {
  std::size_t begin = 0, size = 0;
  std::size_t tile_first = 0;  // its first tile among the level's tiles
  std::size_t tiles = 0;       // ceil(size / tuning::tile)
};

// A level's segments, counted with their tiles; and the two levels' lists.
using segment_list = work_list<segment_desc, tuning::tile_bits>;
using segment_lists = level_lists<segment_desc, tuning::tile_bits>;

__host__ __device__ constexpr std::size_t tiles_of(std::size_t size) {
  return (size + tuning::tile - 1) / tuning::tile;
}

// Where (bucket b, the segment's tile t) counts in the level's table.
__host__ __device__ __forceinline__ std::size_t cell(const segment_desc& d, int b, std::size_t t) {
  return std::size_t(tuning::buckets) * d.tile_first + std::size_t(b) * d.tiles + t;
}

// Per-segment rank range for interpolated pivots (interpolate.cuh).
struct rank_range {
  unsigned long long* lo;
  unsigned long long* hi;
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

// Level 1: the whole input as its one segment. (The kernels here are
// templates: each key kind's unit instantiates its own.)
template <class Lists> __global__ void root_kernel(Lists lists, std::size_t n) {
  const auto& first = lists.at(1);
  first[0] = segment_desc{0, n, 0, tiles_of(n)};
  *first.count = first.packed(1, tiles_of(n));
}

// setup: one block per segment writes the tile -> segment map and resets
// the segment's interpolation range (when asked); block 0 clears the
// counters the level fills: its runs and the next level's segments.
template <class Lists>
__global__ void setup_kernel(Lists lists, int level, unsigned* map, rank_range ranges, queue_counter* runs) {
  const auto& list = lists.at(level);
  if (blockIdx.x == 0 && threadIdx.x == 0) {
    lists.clear_next(level);
    *runs = 0;
  }
  const std::size_t segs = list.size();
  for (std::size_t s = blockIdx.x; s < segs; s += gridDim.x) {
    const segment_desc d = list[s];
    for (std::size_t t = threadIdx.x; t < d.tiles; t += blockDim.x) map[d.tile_first + t] = unsigned(s);
    if (ranges.lo && threadIdx.x == 0) {
      ranges.lo[s] = ~0ull;
      ranges.hi[s] = 0;
    }
  }
}

}  // namespace gpusort::detail::sample
