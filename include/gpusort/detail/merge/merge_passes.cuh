// Stage 3 of CUDA lecture 6, "Understanding parallel thinking from the parallel sort method"'s merge sort, "few huge tasks": merging sorted runs
// of `width` items pairwise over the whole array, with every output tile
// given to one block (Green, McColl & Bader 2012, merge path). However few
// and large the merges, every SM gets equal work.
//   partition  one thread per output-tile boundary finds, by merge path
//              on the global arrays, how many items of run A precede it
//   merge      each block loads its A and B slices into shared memory
//              (every copy in flight: tile_load.cuh),
//              every thread merge-paths its ITEMS outputs there and merges
//              them serially; the tile is stored coalesced
// radix_tile merges its radix-sorted tiles with the same two kernels
// (radix/tile_merge.cuh).
// Keys live in global memory as the caller's type K and are carried as
// Ord::carried: Ord (key_order, full_order or custom_order) encodes, decodes
// and compares them (twiddled bits for library keys; the caller's type and
// comparator for custom keys).
#pragma once

#include <gpusort/detail/core/payload.cuh>
#include <gpusort/detail/block/merge_sort.cuh>
#include <gpusort/detail/block/merge_path.cuh>
#include <gpusort/detail/block/tile.cuh>

#include <cstddef>

namespace gpusort::detail::merge {

// Custom key types: carried as themselves, compared by the caller's functor.
template <class K, class Less> struct custom_order {
  using carried = K;
  Less less;
  __device__ __forceinline__ K encode(const K& k) const { return k; }
  __device__ __forceinline__ K decode(const K& k) const { return k; }
  __device__ __forceinline__ bool operator()(const K& a, const K& b) const { return less(a, b); }
  // Carried as themselves, so tile loads never need an encoding pass.
  __device__ __forceinline__ bool encodes_as_is() const { return true; }
};

// Bounds of the merge pair that output position `pos` belongs to.
struct pair_bounds {
  std::size_t a0, a1, b1;  // A = [a0, a1), B = [a1, b1)
  pair_bounds() = default;
  __host__ __device__ pair_bounds(std::size_t pos, std::size_t width, std::size_t n) {
    a0 = pos / (2 * width) * (2 * width);
    a1 = a0 + width < n ? a0 + width : n;
    b1 = a0 + 2 * width < n ? a0 + 2 * width : n;
  }
};

template <class Ord, class K> struct global_run {
  const K* base;
  Ord ord;
  __device__ __forceinline__ typename Ord::carried operator[](std::size_t i) const { return ord.encode(base[i]); }
};

// Where a pass's output tiles lie (tiles(width): how many, none when no
// array needs a merge at this width). Tile t of a pass covers positions
// [pos, pos + tile) of an array of n items at offset `base` of the
// buffers; an inactive tile belongs to an array that needs no merge at
// this width. The geometries:
//   flat_tiles      one array of n items (merge::sort, radix_tile)
//   window_tiles    some of those tiles (the host pipeline), or the one merge
//                   of two runs of any lengths (the multi-GPU sort)
//   segmented sort  the tiles of many segments, each merged on its own
//                   (segmented/large.cuh)
struct tile_span {
  std::size_t base, n, pos;
  bool active;
};

struct flat_tiles {
  std::size_t n;
  std::size_t tile;
  // boundaries: every tile's first position, and n
  __host__ __device__ __forceinline__ std::size_t boundaries(std::size_t) const { return (n + tile - 1) / tile + 1; }
  __host__ __device__ __forceinline__ std::size_t tiles(std::size_t) const { return (n + tile - 1) / tile; }
  __device__ __forceinline__ tile_span at(std::size_t t, std::size_t) const {
    return {0, n, t * tile < n ? t * tile : n, true};
  }
};

// flat_tiles' tiles [first, min(last, all tiles)) only: the host pipeline
// merges one pair of chunks at a time and streams its last pass out window
// by window (src/host/in_core.cpp). A type of its own, so merge::sort's
// kernels keep flat_tiles' simpler index arithmetic.
// With `split` set (0 < split < n), the window is instead the one merge of
// two runs of any lengths, [0, split) and [split, n) (the multi-GPU sort's
// receipts): the same kernels, no other instantiation.
struct window_tiles {
  std::size_t n;
  std::size_t tile;
  std::size_t first, last;
  std::size_t split = 0;
  __host__ __device__ __forceinline__ std::size_t tiles(std::size_t) const {
    const std::size_t all = (n + tile - 1) / tile;
    return (last < all ? last : all) - first;
  }
  // boundaries: every tile's first position, and the window's end
  __host__ __device__ __forceinline__ std::size_t boundaries(std::size_t w) const { return tiles(w) + 1; }
  __device__ __forceinline__ tile_span at(std::size_t t, std::size_t) const {
    const std::size_t pos = (first + t) * tile;
    return {0, n, pos < n ? pos : n, true};
  }
  __device__ __forceinline__ pair_bounds pair(std::size_t pos, std::size_t width, std::size_t total) const {
    if (split == 0) return pair_bounds(pos, width, total);
    pair_bounds b;
    b.a0 = 0;
    b.a1 = split;
    b.b1 = total;
    return b;
  }
};

// The pair of output position `pos` of a tile span: the geometry's own
// choice when it makes one (window_tiles), else pairs of `width`-item runs.
template <class Tiles>
__device__ __forceinline__ pair_bounds pair_of(const Tiles& tiles, std::size_t pos, std::size_t width, std::size_t n) {
  if constexpr (requires { tiles.pair(pos, width, n); }) return tiles.pair(pos, width, n);
  else return pair_bounds(pos, width, n);
}

// splits[j] = number of A items among the outputs of its pair before
// boundary j (the first position of tile j). One thread per boundary: a
// binary search in global memory (a warp-wide 32-ary search was tried: 6
// dependent steps instead of 27, but 64 scattered sectors a step made the
// launch 2.7x slower at 2^26, docs/perf/merge.md).
template <class K, class Ord, class Tiles>
__global__ void partition_kernel(const K* keys, std::size_t width, Tiles tiles, std::size_t* splits, Ord ord) {
  const std::size_t boundaries = tiles.boundaries(width);
  for (std::size_t j = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x; j < boundaries;
       j += std::size_t(gridDim.x) * blockDim.x) {
    const tile_span t = tiles.at(j, width);
    if (!t.active) continue;
    const pair_bounds pb = pair_of(tiles, t.pos, width, t.n);
    global_run<Ord, K> a{keys + t.base + pb.a0, ord}, b{keys + t.base + pb.a1, ord};
    splits[j] = block::merge_path(a, pb.a1 - pb.a0, b, pb.b1 - pb.a1, t.pos - pb.a0, ord);
  }
}

// One block per output tile of THREADS x ITEMS; a tile must lie inside one
// pair of runs, so 2 * width must be a multiple of the tile. A tile that
// does not end its pair reads the next boundary's split: the next tile of
// the same array.
template <int THREADS, int ITEMS, int MIN_BLOCKS = 1, class K, class P, class Ord, class Tiles>
__global__ void __launch_bounds__(THREADS, MIN_BLOCKS)
merge_kernel(const K* kin, K* kout, const P* vin, P* vout, std::size_t width, Tiles tiles,
             const std::size_t* splits, Ord ord) {
  using T = typename Ord::carried;
  constexpr int TILE = THREADS * ITEMS;
  __shared__ block::tile_storage<T, P, TILE> s;
  const std::size_t count = tiles.tiles(width);
  for (std::size_t tile = blockIdx.x; tile < count; tile += gridDim.x) {
    const tile_span t = tiles.at(tile, width);
    if (!t.active) continue;  // block-uniform
    const std::size_t pos0 = t.pos;
    const std::size_t pos1 = pos0 + TILE < t.n ? pos0 + TILE : t.n;
    const pair_bounds pb = pair_of(tiles, pos0, width, t.n);
    std::size_t na = pb.a1 - pb.a0;
    // A items before each end of this output tile
    std::size_t da0 = splits[tile];
    std::size_t da1 = pos1 - pb.a0 == na + (pb.b1 - pb.a1) ? na : splits[tile + 1];
    std::size_t db0 = (pos0 - pb.a0) - da0, db1 = (pos1 - pb.a0) - da1;
    unsigned la = unsigned(da1 - da0), lb = unsigned(db1 - db0);
    // load the A slice then the B slice
    const std::size_t at_a = t.base + pb.a0 + da0, at_b = t.base + pb.a1 + db0;
    block::load_slices<THREADS, ITEMS>(ord, s, kin + at_a, is_no_value<P> ? vin : vin + at_a, la, kin + at_b,
                                       is_no_value<P> ? vin : vin + at_b, lb);
    T k[ITEMS];
    P v[ITEMS];
    unsigned diag = threadIdx.x * ITEMS;
    int produced = block::merge_slice<ITEMS>(ord, s.keys, s.vals, la, lb, diag, k, v);
    __syncthreads();
    block::put_items(s, diag, k, v, produced);
    __syncthreads();
    const std::size_t out = t.base + pos0;
    block::store_slice<THREADS, ITEMS>(ord, s, kout + out, is_no_value<P> ? vout : vout + out, la + lb);
    __syncthreads();
  }
}

}  // namespace gpusort::detail::merge
