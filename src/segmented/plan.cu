// Segmented sort: binning, the large and huge segments' run and tile
// lists, and the large class's bases (plan.hpp). Independent of the key
// type: compiled once.
#include "segmented/plan.hpp"

#include <gpusort/detail/core/launch.cuh>

#include <gpusort/detail/block/scan.cuh>
#include <gpusort/detail/block/warp.cuh>

#include <cub/device/device_scan.cuh>

namespace gpusort::detail::segmented {
namespace {

// ---- binning (bins.cuh) ----

// Binning reads the offsets a chunk at a time: bin_threads x bin_items
// segments a block, every load of a thread issued before any class is
// taken (one segment a loop round left each warp waiting on its loads).
constexpr int bin_items = 8;
constexpr std::size_t bin_chunk = std::size_t(tuning::bin_threads) * bin_items;

// The classes of this thread's segments of the chunk at c0 (-1: none).
__device__ __forceinline__ void classify(const offsets& off, std::size_t segments, std::size_t c0,
                                         int (&cls)[bin_items]) {
  std::size_t first[bin_items], last[bin_items];
  off.with_type([&](auto type) {
    using T = decltype(type);
#pragma unroll
    for (int it = 0; it < bin_items; ++it) {
      const std::size_t i = c0 + std::size_t(it) * tuning::bin_threads + threadIdx.x;
      first[it] = last[it] = 0;
      if (i < segments) off.span_as<T>(i, first[it], last[it]);
    }
  });
#pragma unroll
  for (int it = 0; it < bin_items; ++it) cls[it] = tuning::class_of(last[it] - first[it]);
}

// Lanes of the warp whose class (-1 .. classes - 1) is mine: the whole warp
// when all lanes agree (segments of one size: one shuffle and one vote),
// else a ballot per bit (block/warp.cuh). __match_any_sync, twice a
// segment, held count and file at about 30 us each for 4M segments.
__device__ __forceinline__ unsigned peers_of(int cls) {
  static_assert(tuning::classes < 16, "class + 1 fits 4 bits");
  if (__all_sync(0xFFFFFFFFu, cls == __shfl_sync(0xFFFFFFFFu, cls, 0))) return 0xFFFFFFFFu;
  return block::match_digit<4>(unsigned(cls + 1));
}

// A warp's lanes of one class add to its counter once (all segments alike
// is the common case: one shared counter a lane would serialise 32 ways).
__global__ void __launch_bounds__(tuning::bin_threads)
count_kernel(offsets off, std::size_t segments, bins b) {
  __shared__ unsigned local[tuning::classes];
  for (int c = threadIdx.x; c < tuning::classes; c += tuning::bin_threads) local[c] = 0;
  __syncthreads();
  const unsigned lane = threadIdx.x & 31u;
  for (std::size_t c0 = std::size_t(blockIdx.x) * bin_chunk; c0 < segments; c0 += std::size_t(gridDim.x) * bin_chunk) {
    int cls[bin_items];
    classify(off, segments, c0, cls);
#pragma unroll
    for (int it = 0; it < bin_items; ++it) {
      const std::size_t i = c0 + std::size_t(it) * tuning::bin_threads + threadIdx.x;
      if (i < segments) b.of[i] = std::int8_t(cls[it]);
      const unsigned peers = peers_of(cls[it]);
      if (cls[it] >= 0 && int(lane) == __ffs(peers) - 1) atomicAdd(&local[cls[it]], unsigned(__popc(peers)));
    }
  }
  __syncthreads();
  for (int c = threadIdx.x; c < tuning::classes; c += tuning::bin_threads)
    if (local[c]) atomicAdd(&b.counts[c], local[c]);
}

__global__ void scan_kernel(bins b) {
  static_assert(tuning::classes <= 32, "one warp scans the classes");
  const int c = int(threadIdx.x);
  const unsigned mine = c < tuning::classes ? b.counts[c] : 0u;
  unsigned incl = mine;
#pragma unroll
  for (int d = 1; d < 32; d <<= 1) {
    const unsigned up = __shfl_up_sync(0xFFFFFFFFu, incl, d);
    if (c >= d) incl += up;
  }
  if (c < tuning::classes) {
    b.firsts[c] = incl - mine;
    b.cursors[c] = incl - mine;
  }
  if (c == tuning::classes - 1) b.firsts[tuning::classes] = incl;
}

// A block files a chunk at a time: slots within the chunk from shared
// counters (one atomic a class and warp), then one global atomic a class
// and chunk. (One global cursor taken by every warp serialised the call:
// 108 us for 4M 16-key segments.) A warp's 32 segments of one class get 32
// consecutive slots from 32-aligned counters, so a class of equal segments
// lists them in runs of 32 in segment order (the thread classes read such
// a run as one range of keys).
__global__ void __launch_bounds__(tuning::bin_threads)
file_kernel(std::size_t segments, bins b) {
  __shared__ unsigned local[tuning::classes];
  __shared__ unsigned base[tuning::classes];
  const unsigned lane = threadIdx.x & 31u;
  for (std::size_t c0 = std::size_t(blockIdx.x) * bin_chunk; c0 < segments; c0 += std::size_t(gridDim.x) * bin_chunk) {
    for (int c = threadIdx.x; c < tuning::classes; c += tuning::bin_threads) local[c] = 0;
    __syncthreads();
    int cls[bin_items];
    unsigned slot[bin_items];
#pragma unroll
    for (int it = 0; it < bin_items; ++it) {
      const std::size_t i = c0 + std::size_t(it) * tuning::bin_threads + threadIdx.x;
      cls[it] = i < segments ? int(b.of[i]) : -1;
    }
#pragma unroll
    for (int it = 0; it < bin_items; ++it) {
      const int c = cls[it];
      const unsigned peers = peers_of(c);
      const int leader = __ffs(peers) - 1;
      unsigned at = 0;
      if (c >= 0 && int(lane) == leader) at = atomicAdd(&local[c], unsigned(__popc(peers)));
      at = __shfl_sync(0xFFFFFFFFu, at, leader);
      slot[it] = at + unsigned(__popc(peers & ((1u << lane) - 1u)));
    }
    __syncthreads();
    for (int c = threadIdx.x; c < tuning::classes; c += tuning::bin_threads)
      base[c] = local[c] ? atomicAdd(&b.cursors[c], local[c]) : 0u;
    __syncthreads();
#pragma unroll
    for (int it = 0; it < bin_items; ++it)
      if (cls[it] >= 0) b.list[base[cls[it]] + slot[it]] = unsigned(c0 + std::size_t(it) * tuning::bin_threads + threadIdx.x);
    __syncthreads();  // the next chunk resets the counters
  }
}

// ---- the class lists (lists.cuh) ----

// Entry q of a class list of `count` listed segments (b.list from first):
// its begin and size, emptied past the count up to the bound; returns the
// size (0 past the count).
__device__ __forceinline__ std::size_t list_entry(const offsets& off, const bins& b, unsigned first, std::size_t count,
                                                  const segment_list& l, std::size_t q) {
  if (q < count) {
    std::size_t s0, s1;
    off.span(b.list[first + q], s0, s1);
    l.begin[q] = s0;
    l.size[q] = s1 - s0;
    return s1 - s0;
  }
  if (q < l.bound) l.begin[q] = l.size[q] = 0;
  return 0;
}

// Where a list's entries come from: count() is how many are listed on the
// device; size(l, q, count) is entry q's size, after writing it (binned: one
// size class of the bins) or as the caller wrote it (counted: radix_msd's
// buckets, the first *listed entries). Past the count, binned lists are
// emptied up to the bound; counted lists (totals_only) only within the
// count's last chunk, then the totals are written alone.
struct binned_entries {
  static constexpr bool totals_only = false;  // the segmented sort's classes read every entry
  offsets off;
  bins b;
  int cls;
  __device__ __forceinline__ std::size_t count() const { return b.firsts[cls + 1] - b.firsts[cls]; }
  __device__ __forceinline__ std::size_t size(const segment_list& l, std::size_t q, std::size_t count) const {
    return list_entry(off, b, b.firsts[cls], count, l, q);
  }
};
// radix_msd's bucket lists: every reader stops at the count (triage, file,
// the clears) or goes through the tile list and the total (first_tile[bound]:
// the histograms, the passes, the look-back clear), so past the count the
// block writes the totals alone. Most of these lists are empty (every level
// is launched whether or not it lists a bucket) and their bound is large
// (about 21,800 entries at 2^27 keys): writing every entry took 11 us a
// launch, 16 launches a sort.
struct counted_entries {
  static constexpr bool totals_only = true;
  const unsigned long long* listed;
  __device__ __forceinline__ std::size_t count() const { return std::size_t(*listed); }
  __device__ __forceinline__ std::size_t size(const segment_list& l, std::size_t q, std::size_t count) const {
    if (q < count) return l.size[q];
    if (q < l.bound) l.begin[q] = l.size[q] = 0;
    return 0;
  }
};

// Listed segment q: where it is, and its runs and tiles (0 past the count).
__global__ void __launch_bounds__(256)
list_sizes_kernel(offsets off, bins b, int cls, segment_list l, unsigned long long* run_counts,
                  unsigned long long* tile_counts, std::size_t run, std::size_t tile) {
  const unsigned first = b.firsts[cls];
  const unsigned count = b.firsts[cls + 1] - first;
  for (std::size_t q = std::size_t(blockIdx.x) * 256 + threadIdx.x; q <= l.bound; q += std::size_t(gridDim.x) * 256) {
    const std::size_t size = list_entry(off, b, first, count, l, q);
    if (size) atomicMax(l.max_size, (unsigned long long)size);
    run_counts[q] = (size + run - 1) / run;
    tile_counts[q] = (size + tile - 1) / tile;
  }
}

// Listed segment q of a list whose first *count entries the caller wrote
// (radix_msd's buckets): its tiles; entries past the count are emptied.
__global__ void __launch_bounds__(256)
counted_sizes_kernel(const unsigned long long* count, segment_list l, unsigned long long* tile_counts,
                     std::size_t tile) {
  const counted_entries e{count};
  const std::size_t listed = e.count();
  for (std::size_t q = std::size_t(blockIdx.x) * 256 + threadIdx.x; q <= l.bound; q += std::size_t(gridDim.x) * 256)
    tile_counts[q] = (e.size(l, q, listed) + tile - 1) / tile;
}

// One warp a listed segment: its entries of the run and tile lists.
__global__ void __launch_bounds__(256) list_fill_kernel(segment_list l) {
  const std::size_t warps = std::size_t(gridDim.x) * 8;
  const unsigned lane = threadIdx.x & 31u;
  for (std::size_t q = std::size_t(blockIdx.x) * 8 + threadIdx.x / 32; q < l.bound; q += warps) {
    const unsigned long long r0 = l.first_run[q], r1 = l.first_run[q + 1];
    if (l.run_seg != l.tile_seg)  // else the tile list below is the run list too
      for (unsigned long long r = r0 + lane; r < r1; r += 32) l.run_seg[r] = unsigned(q);
    const unsigned long long t0 = l.first_tile[q], t1 = l.first_tile[q + 1];
    for (unsigned long long t = t0 + lane; t < t1; t += 32) l.tile_seg[t] = unsigned(q);
  }
}

// The same three steps (sizes, scans, fill) in one block, for a list whose
// host bound is small: one launch instead of five (a memset, the sizes,
// CUB's scan in two launches, the fill), which cost about 18 us under ncu
// at 2^26 keys with no segment of the class there: the common case of a
// call on small segments whose longest segment the caller does not bound.
// radix_msd's bucket lists (two a level, every level launched whether or
// not it lists a bucket) take it too, with counted entries.
// The block walks the entries 1024 at a time (entry q = chunk + thread):
// a chunk with listed segments scans their counts in the block and keeps
// each one's first tile and run in shared memory for the fill; the entries
// past the device-side count take the running totals, stores alone. (A
// first version in which each thread scanned 16 consecutive entries from
// global memory, and each warp filled every 32nd entry reading its bounds
// back, was a chain of dependent loads: 0.17 ms.)
constexpr int list_block_threads = 1024;
constexpr std::size_t list_block_bound = std::size_t(1) << 16;  // entries (bound + 1) at most

template <class Entries>
__global__ void __launch_bounds__(list_block_threads)
list_block_kernel(Entries e, segment_list l, std::size_t run, std::size_t tile) {
  wait_for_prior_grids();  // radix_msd launches it as a dependent launch
  allow_dependents();
  constexpr unsigned warps = list_block_threads / 32;
  __shared__ unsigned long long sums[warps];
  __shared__ unsigned long long longest_of[warps];
  __shared__ unsigned long long first_tile[list_block_threads], first_run[list_block_threads];
  __shared__ unsigned tiles_of[list_block_threads], runs_of[list_block_threads];
  const std::size_t count = e.count();
  const bool runs_are_tiles = l.first_run == l.first_tile;
  const unsigned lane = threadIdx.x & 31u, warp = threadIdx.x / 32;
  unsigned long long tiles_before = 0, runs_before = 0, longest = 0;
  for (std::size_t c = 0; c <= l.bound; c += list_block_threads) {
    const std::size_t q = c + threadIdx.x;
    if (c >= count && Entries::totals_only) {  // past the count only the totals are read
      if (threadIdx.x == 0) {
        l.first_tile[l.bound] = tiles_before;
        if (!runs_are_tiles) l.first_run[l.bound] = runs_before;
      }
      break;
    }
    if (c >= count) {  // no listed segment in this chunk: uniform across the block
      if (q < l.bound) l.begin[q] = l.size[q] = 0;
      if (q <= l.bound) {
        l.first_tile[q] = tiles_before;
        if (!runs_are_tiles) l.first_run[q] = runs_before;
      }
      continue;
    }
    const std::size_t size = e.size(l, q, count);
    const unsigned long long r = (size + run - 1) / run, t = (size + tile - 1) / tile;
    longest = longest > size ? longest : size;
    unsigned long long chunk_tiles, chunk_runs = 0;
    const unsigned long long at_tile = tiles_before + block::block_exclusive_sum<list_block_threads>(t, sums, chunk_tiles);
    __syncthreads();  // sums again
    unsigned long long at_run = at_tile;
    if (!runs_are_tiles) {
      at_run = runs_before + block::block_exclusive_sum<list_block_threads>(r, sums, chunk_runs);
      __syncthreads();
    }
    if (q <= l.bound) {
      l.first_tile[q] = at_tile;
      if (!runs_are_tiles) l.first_run[q] = at_run;
    }
    first_tile[threadIdx.x] = at_tile;
    first_run[threadIdx.x] = at_run;
    tiles_of[threadIdx.x] = unsigned(t);
    runs_of[threadIdx.x] = unsigned(r);
    __syncthreads();
    // the fill: a warp for each of the chunk's listed segments in turn
    for (unsigned j = warp; j < list_block_threads && c + j < count; j += warps) {
      if (!runs_are_tiles)
        for (unsigned k = lane; k < runs_of[j]; k += 32) l.run_seg[first_run[j] + k] = unsigned(c + j);
      for (unsigned k = lane; k < tiles_of[j]; k += 32) l.tile_seg[first_tile[j] + k] = unsigned(c + j);
    }
    __syncthreads();  // the shared entries are reused
    tiles_before += chunk_tiles;
    runs_before += chunk_runs;
  }
  // the largest listed segment
  longest = block::warp_max(longest);
  if (lane == 0) longest_of[warp] = longest;
  __syncthreads();
  if (warp == 0) {
    longest = block::warp_max(lane < warps ? longest_of[lane] : 0ull);
    if (lane == 0) *l.max_size = longest;
  }
}

// ---- the large class's bases (large.cuh) ----

constexpr int max_chain_passes = 8;  // 8-bit digits of 64-bit keys

// One warp per listed segment, 8 digits a lane (grid-stride over the
// list's host bound: past the device-side count the sizes are 0, and a
// warp moves on after one load; one block a segment cost 13 us of empty
// blocks at 2^26 keys).
__global__ void __launch_bounds__(256)
chain_scan_kernel(segment_list l, const unsigned* hist, unsigned long long* base, int passes,
                  radix_onesweep::slot_plan* plan, int slots) {
  if (blockIdx.x == 0 && threadIdx.x == 0) {
    const int sorts[max_chain_passes] = {};  // no pass is skipped
    radix_onesweep::make_plan(sorts, passes, slots, false, plan);
  }
  const unsigned lane = threadIdx.x & 31u;
  for (std::size_t q = std::size_t(blockIdx.x) * 8 + threadIdx.x / 32; q < l.bound; q += std::size_t(gridDim.x) * 8) {
    if (l.size[q] == 0) continue;
    const unsigned long long first = l.begin[q];
    for (int p = 0; p < passes; ++p) {
      const std::size_t at = (std::size_t(p) * l.bound + q) * 256 + lane * 8;
      unsigned d[8];
      unsigned sum = 0;
#pragma unroll
      for (int i = 0; i < 8; ++i) {
        d[i] = hist[at + i];
        sum += d[i];
      }
      unsigned long long run = first + (block::warp_inclusive_sum(sum) - sum);
#pragma unroll
      for (int i = 0; i < 8; ++i) {
        base[at + i] = run;
        run += d[i];
      }
    }
  }
}

// pairs: output slot i of each large tile takes the value at the position
// the passes carried to slot i.
__global__ void __launch_bounds__(256) chain_gather_kernel(value_mover vals, segment_list l, std::size_t tile,
                                                           const std::uint32_t* position) {
  const unsigned tiles = unsigned(l.first_tile[l.bound]);
  for (unsigned t = blockIdx.x; t < tiles; t += gridDim.x) {
    const unsigned q = l.tile_seg[t];
    const std::size_t from = std::size_t(t - unsigned(l.first_tile[q])) * tile;
    const std::size_t left = l.size[q] - from;
    const std::size_t first = l.begin[q] + from;
    const unsigned valid = left < tile ? unsigned(left) : unsigned(tile);
    for (unsigned j = threadIdx.x; j < valid; j += 256) vals.move(first + j, l.begin[q] + position[first + j]);
  }
}

// The listed segments' histogram rows, the tile counters and the first
// look-back table's listed tiles, zeroed. One warp a listed segment, as in
// chain_scan_kernel.
__global__ void __launch_bounds__(256) clear_chains_kernel(segment_list l, unsigned* hist, int passes,
                                                           unsigned* counters, int slots, unsigned* lookback) {
  const std::size_t stride = std::size_t(gridDim.x) * 256, at = std::size_t(blockIdx.x) * 256 + threadIdx.x;
  const std::size_t words = std::size_t(l.first_tile[l.bound]) * 256;
  for (std::size_t w = at; w < words; w += stride) lookback[w] = 0;
  const unsigned lane = threadIdx.x & 31u;
  for (std::size_t q = std::size_t(blockIdx.x) * 8 + threadIdx.x / 32; q < l.bound; q += std::size_t(gridDim.x) * 8) {
    if (l.size[q] == 0) continue;
    for (int p = 0; p < passes; ++p)
#pragma unroll
      for (int i = 0; i < 8; ++i) hist[(std::size_t(p) * l.bound + q) * 256 + i * 32 + lane] = 0;
  }
  if (at < std::size_t(slots)) counters[at] = 0;
}

std::size_t scan_bytes(std::size_t items) {
  std::size_t bytes = 0;
  cub::DeviceScan::ExclusiveSum(nullptr, bytes, static_cast<const unsigned long long*>(nullptr),
                                static_cast<unsigned long long*>(nullptr), items);
  return bytes;
}

}  // namespace

bins take_bins(temp_layout& t, std::size_t segments) {
  bins b;
  b.counts = t.take<unsigned>(tuning::classes * 2);
  b.cursors = b.counts + tuning::classes;
  b.firsts = t.take<unsigned>(tuning::classes + 1);
  b.list = t.take<unsigned>(segments);
  b.of = t.take<std::int8_t>(segments);
  return b;
}

void bin_segments(const call_context& ctx, const offsets& off, std::size_t segments, const bins& b,
                  cudaStream_t stream) {
  ctx.check(cudaMemsetAsync(b.counts, 0, tuning::classes * sizeof(unsigned), stream),
            "cudaMemsetAsync(segment class counts)");
  const unsigned grid = grid_for(segments, bin_chunk, 4096);
  count_kernel<<<grid, tuning::bin_threads, 0, stream>>>(off, segments, b);
  ctx.check_launch("segmented count");
  scan_kernel<<<1, 32, 0, stream>>>(b);
  ctx.check_launch("segmented class scan");
  file_kernel<<<grid, tuning::bin_threads, 0, stream>>>(segments, b);
  ctx.check_launch("segmented file");
}

list_scratch take_list(temp_layout& t, std::size_t bound, std::size_t n, std::size_t run, std::size_t tile) {
  list_scratch s{};
  s.list.bound = bound;
  s.list.begin = t.take<std::size_t>(bound);
  s.list.size = t.take<std::size_t>(bound);
  // runs of a tile (the large class) are the tiles: one list serves both
  const bool runs_are_tiles = run == tile;
  s.list.first_tile = t.take<unsigned long long>(bound + 1);
  s.list.first_run = runs_are_tiles ? s.list.first_tile : t.take<unsigned long long>(bound + 1);
  s.list.tile_seg = t.take<unsigned>(n / tile + bound);
  s.list.run_seg = runs_are_tiles ? s.list.tile_seg : t.take<unsigned>(n / run + bound);
  s.list.max_size = t.take<unsigned long long>(1);
  s.tile_counts = t.take<unsigned long long>(bound + 1);
  s.run_counts = runs_are_tiles ? s.tile_counts : t.take<unsigned long long>(bound + 1);
  s.scan_bytes = scan_bytes(bound + 1);
  s.scan = t.take<std::uint8_t>(s.scan_bytes);
  return s;
}

void plan_list(const call_context& ctx, const offsets& off, const bins& b, int cls, const list_scratch& l,
               std::size_t run, std::size_t tile, cudaStream_t stream) {
  const std::size_t bound = l.list.bound;
  if (bound + 1 <= list_block_bound) {
    list_block_kernel<<<1, list_block_threads, 0, stream>>>(binned_entries{off, b, cls}, l.list, run, tile);
    ctx.check_launch("segmented lists");
    return;
  }
  ctx.check(cudaMemsetAsync(l.list.max_size, 0, sizeof(unsigned long long), stream),
            "cudaMemsetAsync(segment max size)");
  list_sizes_kernel<<<grid_for(bound + 1, 256, 4096), 256, 0, stream>>>(off, b, cls, l.list, l.run_counts,
                                                                        l.tile_counts, run, tile);
  ctx.check_launch("segmented list sizes");
  std::size_t bytes = l.scan_bytes;
  if (run != tile)
    ctx.check(cub::DeviceScan::ExclusiveSum(l.scan, bytes, l.run_counts, l.list.first_run, bound + 1, stream),
              "cub::DeviceScan::ExclusiveSum(segment runs)");
  bytes = l.scan_bytes;
  ctx.check(cub::DeviceScan::ExclusiveSum(l.scan, bytes, l.tile_counts, l.list.first_tile, bound + 1, stream),
            "cub::DeviceScan::ExclusiveSum(segment tiles)");
  list_fill_kernel<<<grid_for(bound, 8, 4096), 256, 0, stream>>>(l.list);
  ctx.check_launch("segmented lists");
}

void plan_counted_list(const call_context& ctx, const unsigned long long* count, const list_scratch& l,
                       std::size_t tile, cudaStream_t stream, bool dependent) {
  const std::size_t bound = l.list.bound;
  // a counted list's runs are its tiles (take_list with run == tile)
  if (bound + 1 <= list_block_bound)
    return launch_dependent(ctx, dependent, list_block_kernel<counted_entries>, 1, list_block_threads, 0, stream,
                            "launch of list tiles", counted_entries{count}, l.list, tile, tile);
  counted_sizes_kernel<<<grid_for(bound + 1, 256, 4096), 256, 0, stream>>>(count, l.list, l.tile_counts, tile);
  ctx.check_launch("list sizes");
  std::size_t bytes = l.scan_bytes;
  ctx.check(cub::DeviceScan::ExclusiveSum(l.scan, bytes, l.tile_counts, l.list.first_tile, bound + 1, stream),
            "cub::DeviceScan::ExclusiveSum(list tiles)");
  list_fill_kernel<<<grid_for(bound, 8, 4096), 256, 0, stream>>>(l.list);
  ctx.check_launch("list tiles");
}

void clear_chains(const call_context& ctx, const segment_list& l, unsigned* hist, int passes, unsigned* counters,
                  int slots, unsigned* lookback, cudaStream_t stream) {
  clear_chains_kernel<<<grid_for(l.bound + 1, 8, std::size_t(sm_count(ctx)) * 8), 256, 0,
                        stream>>>(l, hist, passes, counters, slots, lookback);
  ctx.check_launch("segmented large clear");
}

void gather_chains(const call_context& ctx, const value_mover& vals, const segment_list& l, std::size_t tile,
                   std::size_t tile_bound, const std::uint32_t* position, cudaStream_t stream) {
  chain_gather_kernel<<<grid_for(tile_bound, 1, std::size_t(sm_count(ctx)) * 8), 256, 0, stream>>>(vals, l, tile,
                                                                                                  position);
  ctx.check_launch("segmented large gather");
}

void scan_chains(const call_context& ctx, const segment_list& l, const unsigned* hist, unsigned long long* base,
                 int passes, radix_onesweep::slot_plan* plan, int slots, cudaStream_t stream) {
  if (passes > max_chain_passes) ctx.fail(errc::invalid_argument, "segmented large class: more than 8 digit passes");
  chain_scan_kernel<<<grid_for(l.bound, 8, std::size_t(sm_count(ctx)) * 8), 256, 0, stream>>>(l, hist, base, passes,
                                                                                              plan, slots);
  ctx.check_launch("segmented large bases");
}

}  // namespace gpusort::detail::segmented
