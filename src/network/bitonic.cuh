// Bitonic sort for any n (Batcher 1968; the lecture notes "MCMD L20: GPU Sorting" and the article "GPU sorting" (2024); the three-kernel
// structure of NVIDIA's sortingNetworks sample). See bitonic_steps.cuh for
// the network, the virtual padding and the fused multi-stride passes.
//
//   1. block sort   each tile of 2^tile_log2 elements is sorted in shared
//                   memory: 2^M contiguous elements per thread in registers
//                   (stages 1..M), then fused passes for stages M+1..tile.
//   2. per stage ks above the tile:
//      global pass  strides >= tile, up to M of them per pass over memory
//      tile merge   strides < tile, all in one shared-memory kernel
// Passes over global memory: the block sort, then for each stage above the
// tile about (ks - tile_log2) / M global passes plus one merge.
// Not stable. Keys and pairs, every key type, any order and bit range.
#pragma once

#include <gpusort/detail/core/launch.cuh>
#include "core/problem.cuh"
#include "network/bitonic_steps.cuh"
#include <gpusort/detail/block/tile.cuh>
#include <gpusort/detail/block/tile_strided.cuh>

#include <cstddef>

namespace gpusort::detail::bitonic {

// One tuning struct for the family, read by kernels and host alike.
template <class U, class P> struct tuning {
  static constexpr int element = element_bytes<U, P>;
  static constexpr int items_log2 = element <= 8 ? 4 : 3;  // M: registers per work item = 2^M
  static constexpr int tile_log2 = element <= 8 ? 13 : 12;
  static constexpr int tile = 1 << tile_log2;
  static constexpr int block_threads = tile >> items_log2;
  // blocks per SM the register budget must allow: two for 4-byte keys (a
  // barrier then never idles a whole SM), one where pairs need the registers
  static constexpr int block_min_blocks = element <= 4 ? 2 : 1;
  static constexpr int global_threads = 256;
  static constexpr int global_min_blocks = element <= 4 ? 4 : 2;  // per SM: loads in flight
  static constexpr std::size_t shared_bytes = block::shared_tile<U, P>::bytes(tile);
};

// Stages 1..M on the 2^M contiguous elements of one thread, in registers.
template <int M, class Ord, class U, class P>
__device__ __forceinline__ void sort_registers(const Ord& ord, U (&k)[1 << M], P (&v)[1 << M]) {
  constexpr int R = 1 << M;
  auto cx = [&](int lower, int higher) { block::compare_exchange(ord, k[lower], k[higher], v[lower], v[higher]); };
#pragma unroll
  for (int ks = 1; ks <= M; ++ks) {
#pragma unroll
    for (int r = 0; r < R; ++r) {
      int mirror = r ^ ((1 << ks) - 1);
      if (r < mirror) cx(r, mirror);
    }
#pragma unroll
    for (int s = ks - 2; s >= 0; --s) {
#pragma unroll
      for (int r = 0; r < R; ++r)
        if (!(r & (1 << s))) cx(r, r | (1 << s));
    }
  }
}

// Runs the fused passes of stages [ks_begin, ks_end) over stride bits
// >= lo_end (first = include each stage's mirror step) on a shared tile of
// `valid` elements, whose network spans 2^log_net.
template <class T, class Ord, class U, class P>
__device__ __forceinline__ void tile_passes(const Ord& ord, const block::shared_tile<U, P>& t, int valid,
                                            int log_net, int ks, bool first) {
  int bit = ks - 1;
  while (bit >= 0) {
    pass p = plan_next(ks, bit, 0, T::items_log2, first);
    unsigned items = unsigned(pass_items(log_net, p.m));
    with_pass<T::items_log2>(p, [&]<int M, shape S>() {
      for (unsigned w = threadIdx.x; w < items; w += T::block_threads) run_item<M, S>(ord, t, p.lo, w, unsigned(valid));
    });
    __syncthreads();
    bit = p.lo - 1;
    first = false;
  }
}

// 1. Sorts each tile of src into dst; log_net = log2 of the tile's network.
template <class T, class K, class P, class Ord>
__global__ void __launch_bounds__(T::block_threads, T::block_min_blocks)
block_sort_kernel(const K* kin, K* kout, const P* vin, P* vout, std::size_t n, Ord ord, int log_net) {
  using U = typename key_traits<K>::bits;
  constexpr int M = T::items_log2;
  extern __shared__ uint4 smem[];
  auto t = block::shared_tile<U, P>::carve(smem, T::tile);
  for (std::size_t tile = blockIdx.x; tile * T::tile < n; tile += gridDim.x) {
    std::size_t base = tile * T::tile;
    int valid = int(n - base < std::size_t(T::tile) ? n - base : std::size_t(T::tile));
    block::load_strided<T::block_threads>(kin, vin, base, valid, t, ord);
    __syncthreads();
    // registers: stages 1..M on each thread's contiguous 2^M elements
    {
      unsigned first = threadIdx.x << M;
      if (first < unsigned(valid)) {
        U k[1 << M];
        P v[1 << M];
#pragma unroll
        for (int r = 0; r < (1 << M); ++r) {
          if (first + r < unsigned(valid)) t.load(first + r, k[r], v[r]);
          else k[r] = ord.pad();
        }
        sort_registers<M>(ord, k, v);
#pragma unroll
        for (int r = 0; r < (1 << M); ++r)
          if (first + r < unsigned(valid)) t.store(first + r, k[r], v[r]);
      }
    }
    __syncthreads();
    // shared memory: the remaining stages of the tile
    for (int ks = M + 1; ks <= log_net; ++ks) tile_passes<T>(ord, t, valid, log_net, ks, true);
    block::store_strided<T::block_threads>(t, valid, kout, vout, base, ord);
    __syncthreads();
  }
}

// 2a. Up to M strides >= tile of one stage, in place in global memory.
template <class T, int M, shape S, class K, class P, class Ord>
__global__ void __launch_bounds__(T::global_threads, T::global_min_blocks)
global_pass_kernel(K* keys, P* vals, std::size_t n, Ord ord, int lo, std::size_t items) {
  block::global_array<K, P, Ord> mem{keys, vals, ord};
  std::size_t stride = std::size_t(gridDim.x) * T::global_threads;
  for (std::size_t w = std::size_t(blockIdx.x) * T::global_threads + threadIdx.x; w < items; w += stride)
    run_item<M, S>(ord, mem, lo, w, n);
}

// 2b. The strides < tile of one stage (its half steps), per tile.
template <class T, class K, class P, class Ord>
__global__ void __launch_bounds__(T::block_threads, T::block_min_blocks)
tile_merge_kernel(K* keys, P* vals, std::size_t n, Ord ord) {
  using U = typename key_traits<K>::bits;
  extern __shared__ uint4 smem[];
  auto t = block::shared_tile<U, P>::carve(smem, T::tile);
  for (std::size_t tile = blockIdx.x; tile * T::tile < n; tile += gridDim.x) {
    std::size_t base = tile * T::tile;
    int valid = int(n - base < std::size_t(T::tile) ? n - base : std::size_t(T::tile));
    block::load_strided<T::block_threads>(keys, vals, base, valid, t, ord);
    __syncthreads();
    tile_passes<T>(ord, t, valid, T::tile_log2, T::tile_log2, false);  // half steps, bits tile_log2-1..0
    block::store_strided<T::block_threads>(t, valid, keys, vals, base, ord);
    __syncthreads();
  }
}

template <class K, class P, order_for<K> Ord> void sort_with(const sort_problem<K, P>& p, const Ord& ord) {
  using U = typename key_traits<K>::bits;
  using T = tuning<U, P>;
  const call_context& ctx = *p.ctx;
  const int log_n2 = ceil_log2(p.n);
  const int log_net = log_n2 < T::tile_log2 ? (log_n2 > T::items_log2 ? log_n2 : T::items_log2) : T::tile_log2;
  const std::size_t tiles = (p.n + T::tile - 1) / T::tile;
  const unsigned grid = grid_for(tiles, 1);

  auto block = block_sort_kernel<T, K, P, Ord>;
  allow_shared_memory(ctx, block, T::shared_bytes, "cudaFuncSetAttribute(bitonic block sort)");
  block<<<grid, T::block_threads, T::shared_bytes, p.stream>>>(p.keys_in, p.keys_out, p.vals_in, p.vals_out,
                                                               p.n, ord, log_net);
  ctx.check_launch("bitonic block sort");
  if (log_n2 <= T::tile_log2) return;

  auto merge = tile_merge_kernel<T, K, P, Ord>;
  allow_shared_memory(ctx, merge, T::shared_bytes, "cudaFuncSetAttribute(bitonic tile merge)");
  for (int ks = T::tile_log2 + 1; ks <= log_n2; ++ks) {
    bool first = true;
    for (int bit = ks - 1; bit >= T::tile_log2;) {
      pass ps = plan_next(ks, bit, T::tile_log2, T::items_log2, first);
      std::size_t items = pass_items(log_n2, ps.m);
      with_pass<T::items_log2>(ps, [&]<int M, shape S>() {
        global_pass_kernel<T, M, S><<<grid_for(items, T::global_threads), T::global_threads, 0, p.stream>>>(
            p.keys_out, p.vals_out, p.n, ord, ps.lo, items);
      });
      ctx.check_launch("bitonic global pass");
      bit = ps.lo - 1;
      first = false;
    }
    merge<<<grid, T::block_threads, T::shared_bytes, p.stream>>>(p.keys_out, p.vals_out, p.n, ord);
    ctx.check_launch("bitonic tile merge");
  }
}

struct family {
  static constexpr algorithm id = algorithm::bitonic;
  static constexpr bool compares = true;
  static constexpr unsigned value_widths = index_value_widths;
  template <class K, class P> static std::size_t temp_bytes(const sort_problem<K, P>&) { return 0; }
  template <class K, class P> static void sort(const sort_problem<K, P>& p, void* /*temp*/) {
    if (p.n == 0) return;
    if (p.n == 1) return copy_to_output(*p.ctx, p.keys_in, p.keys_out, p.vals_in, p.vals_out, p.n, p.stream);
    sort_with(p, full_order<K>(p.ord));
  }
};

}  // namespace gpusort::detail::bitonic
