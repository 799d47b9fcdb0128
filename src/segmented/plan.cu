// Segmented sort: binning and the large segments' run and tile lists
// (plan.hpp). Independent of the key type: compiled once.
#include "segmented/plan.hpp"

#include <gpusort/detail/core/launch.cuh>

#include <cub/device/device_scan.cuh>

namespace gpusort::detail::segmented {
namespace {

// ---- binning (bins.cuh) ----

__global__ void __launch_bounds__(tuning::bin_threads)
count_kernel(offsets off, std::size_t segments, bins b) {
  __shared__ unsigned local[tuning::classes];
  for (int c = threadIdx.x; c < tuning::classes; c += tuning::bin_threads) local[c] = 0;
  __syncthreads();
  for (std::size_t i = std::size_t(blockIdx.x) * tuning::bin_threads + threadIdx.x; i < segments;
       i += std::size_t(gridDim.x) * tuning::bin_threads) {
    std::size_t first, last;
    off.span(i, first, last);
    const int c = tuning::class_of(last - first);
    if (c >= 0) atomicAdd(&local[c], 1u);
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

__global__ void __launch_bounds__(tuning::bin_threads)
file_kernel(offsets off, std::size_t segments, bins b) {
  const std::size_t stride = std::size_t(gridDim.x) * tuning::bin_threads;
  // whole warps run every round, so the match and the shuffle see all lanes
  const std::size_t rounds_end = (segments + 31) / 32 * 32;
  const unsigned lane = threadIdx.x & 31u;
  for (std::size_t i = std::size_t(blockIdx.x) * tuning::bin_threads + threadIdx.x; i < rounds_end; i += stride) {
    int c = -1;
    if (i < segments) {
      std::size_t first, last;
      off.span(i, first, last);
      c = tuning::class_of(last - first);
    }
    const unsigned peers = __match_any_sync(0xFFFFFFFFu, c);
    const int leader = __ffs(peers) - 1;
    unsigned at = 0;
    if (c >= 0 && int(lane) == leader) at = atomicAdd(&b.cursors[c], unsigned(__popc(peers)));
    at = __shfl_sync(0xFFFFFFFFu, at, leader);
    if (c >= 0) b.list[at + unsigned(__popc(peers & ((1u << lane) - 1u)))] = unsigned(i);
  }
}

// ---- the large list (large.cuh) ----


// Large segment q: where it is, and its runs and tiles (0 past the count).
__global__ void __launch_bounds__(256)
large_sizes_kernel(offsets off, bins b, large_list l, unsigned long long* run_counts,
                   unsigned long long* tile_counts, std::size_t run, std::size_t tile) {
  const unsigned first = b.firsts[tuning::large_class];
  const unsigned count = b.firsts[tuning::large_class + 1] - first;
  for (std::size_t q = std::size_t(blockIdx.x) * 256 + threadIdx.x; q <= l.bound; q += std::size_t(gridDim.x) * 256) {
    unsigned long long runs = 0, tiles = 0;
    if (q < count) {
      std::size_t s0, s1;
      off.span(b.list[first + q], s0, s1);
      l.begin[q] = s0;
      l.size[q] = s1 - s0;
      runs = (s1 - s0 + run - 1) / run;
      tiles = (s1 - s0 + tile - 1) / tile;
      atomicMax(l.max_size, (unsigned long long)(s1 - s0));
    }
    run_counts[q] = runs;
    tile_counts[q] = tiles;
  }
}

// One warp a large segment: its entries of the run and tile lists.
__global__ void __launch_bounds__(256) large_fill_kernel(large_list l) {
  const std::size_t warps = std::size_t(gridDim.x) * 8;
  const unsigned lane = threadIdx.x & 31u;
  for (std::size_t q = std::size_t(blockIdx.x) * 8 + threadIdx.x / 32; q < l.bound; q += warps) {
    const unsigned long long r0 = l.first_run[q], r1 = l.first_run[q + 1];
    for (unsigned long long r = r0 + lane; r < r1; r += 32) l.run_seg[r] = unsigned(q);
    const unsigned long long t0 = l.first_tile[q], t1 = l.first_tile[q + 1];
    for (unsigned long long t = t0 + lane; t < t1; t += 32) l.tile_seg[t] = unsigned(q);
  }
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
  return b;
}

void bin_segments(const call_context& ctx, const offsets& off, std::size_t segments, const bins& b,
                  cudaStream_t stream) {
  ctx.check(cudaMemsetAsync(b.counts, 0, tuning::classes * sizeof(unsigned), stream),
            "cudaMemsetAsync(segment class counts)");
  const unsigned grid = grid_for(segments, tuning::bin_threads, 4096);
  count_kernel<<<grid, tuning::bin_threads, 0, stream>>>(off, segments, b);
  ctx.check_launch("segmented count");
  scan_kernel<<<1, 32, 0, stream>>>(b);
  ctx.check_launch("segmented class scan");
  file_kernel<<<grid, tuning::bin_threads, 0, stream>>>(off, segments, b);
  ctx.check_launch("segmented file");
}

large_scratch take_large(temp_layout& t, std::size_t bound, std::size_t n, std::size_t run, std::size_t tile) {
  large_scratch s{};
  s.list.bound = bound;
  s.list.begin = t.take<std::size_t>(bound);
  s.list.size = t.take<std::size_t>(bound);
  s.list.first_run = t.take<unsigned long long>(bound + 1);
  s.list.first_tile = t.take<unsigned long long>(bound + 1);
  s.list.run_seg = t.take<unsigned>(n / run + bound);
  s.list.tile_seg = t.take<unsigned>(n / tile + bound);
  s.list.max_size = t.take<unsigned long long>(1);
  s.run_counts = t.take<unsigned long long>(bound + 1);
  s.tile_counts = t.take<unsigned long long>(bound + 1);
  s.scan_bytes = scan_bytes(bound + 1);
  s.scan = t.take<std::uint8_t>(s.scan_bytes);
  return s;
}

void plan_large(const call_context& ctx, const offsets& off, const bins& b, const large_scratch& l, std::size_t run,
                std::size_t tile, cudaStream_t stream) {
  const std::size_t bound = l.list.bound;
  ctx.check(cudaMemsetAsync(l.list.max_size, 0, sizeof(unsigned long long), stream),
            "cudaMemsetAsync(segment max size)");
  large_sizes_kernel<<<grid_for(bound + 1, 256, 4096), 256, 0, stream>>>(off, b, l.list, l.run_counts,
                                                                         l.tile_counts, run, tile);
  ctx.check_launch("segmented large sizes");
  std::size_t bytes = l.scan_bytes;
  ctx.check(cub::DeviceScan::ExclusiveSum(l.scan, bytes, l.run_counts, l.list.first_run, bound + 1, stream),
            "cub::DeviceScan::ExclusiveSum(segment runs)");
  bytes = l.scan_bytes;
  ctx.check(cub::DeviceScan::ExclusiveSum(l.scan, bytes, l.tile_counts, l.list.first_tile, bound + 1, stream),
            "cub::DeviceScan::ExclusiveSum(segment tiles)");
  large_fill_kernel<<<grid_for(bound, 8, 4096), 256, 0, stream>>>(l.list);
  ctx.check_launch("segmented large lists");
}

}  // namespace gpusort::detail::segmented
