// Odd-even transposition sort (Habermann 1972; CUDA lecture 6, "Understanding parallel thinking from the parallel sort method", part I; the lecture notes "MCMD L20: GPU Sorting"),
// lifted from elements to sorted runs (Baudet & Stevenson 1978): with P
// sorted runs, P rounds of "merge-split" between neighbouring runs - even
// pairs (0,1)(2,3).., then odd pairs (1,2)(3,4).. - sort everything; the left
// run keeps the smaller half. Three levels, each this same algorithm:
//   thread  odd-even transposition of ITEMS keys in registers (thread_sort)
//   block   THREADS rounds of merge-split between threads' runs, in shared memory
//   global  one launch per round of merge-split between neighbouring tiles
// O(n^2 / tile) work: a teaching sort, capped in the benchmark. Stable:
// compare-exchanges swap only strictly smaller keys and merges take ties
// from the left run.
#pragma once

#include <gpusort/detail/core/launch.cuh>
#include "core/problem.cuh"
#include <gpusort/detail/block/merge.cuh>
#include <gpusort/detail/block/thread_sort.cuh>
#include <gpusort/detail/block/tile.cuh>
#include <gpusort/detail/block/tile_strided.cuh>

#include <cstddef>

namespace gpusort::detail::odd_even {

template <class U, class P> struct tuning {
  static constexpr int element = element_bytes<U, P>;
  static constexpr int items = element <= 8 ? 16 : 8;  // per thread
  static constexpr int threads = 256;
  static constexpr int tile = threads * items;
  static constexpr std::size_t block_shared_bytes = block::shared_tile<U, P>::bytes(tile);
  static constexpr std::size_t merge_shared_bytes = block::shared_tile<U, P>::bytes(2 * tile);
};

// Block level: sorts each tile of `valid` elements (padded to the tile with
// keys that rank last; the pads sit after every real key, so stability
// keeps them at the end).
template <class T, class K, class P, class Ord>
__global__ void __launch_bounds__(T::threads)
block_sort_kernel(const K* kin, K* kout, const P* vin, P* vout, std::size_t n, Ord ord) {
  using U = typename key_traits<K>::bits;
  constexpr int I = T::items;
  extern __shared__ uint4 smem[];
  auto t = block::shared_tile<U, P>::carve(smem, T::tile);
  const int me = threadIdx.x;
  for (std::size_t tile = blockIdx.x; tile * T::tile < n; tile += gridDim.x) {
    std::size_t base = tile * T::tile;
    int valid = int(n - base < std::size_t(T::tile) ? n - base : std::size_t(T::tile));
    block::load_strided<T::threads>(kin, vin, base, valid, t, ord);
    for (int i = valid + me; i < T::tile; i += T::threads) t.keys[t.slot(i)] = ord.pad();
    __syncthreads();
    // thread: sort my ITEMS in registers
    U k[I];
    P v[I];
#pragma unroll
    for (int r = 0; r < I; ++r) t.load(unsigned(me) * I + r, k[r], v[r]);
    block::thread_sort(ord, k, v);
    // block: THREADS rounds of merge-split between neighbouring runs
    for (int round = 0; round < T::threads; ++round) {
#pragma unroll
      for (int r = 0; r < I; ++r) t.store(unsigned(me) * I + r, k[r], v[r]);
      __syncthreads();
      int partner = (round & 1) == 0 ? (me ^ 1) : ((me & 1) ? me + 1 : me - 1);
      if (partner >= 0 && partner < T::threads) {
        unsigned mine = unsigned(me) * I, theirs = unsigned(partner) * I;
        if (me < partner) {  // keep the ITEMS smallest: merge from the front
          int ia = 0, ib = 0;
#pragma unroll
          for (int r = 0; r < I; ++r) {
            bool take_a = !ord.less(t.keys[t.slot(theirs + ib)], t.keys[t.slot(mine + ia)]);
            unsigned s = take_a ? mine + ia++ : theirs + ib++;
            t.load(s, k[r], v[r]);
          }
        } else {  // keep the ITEMS largest: merge from the back, ties to the right run (mine)
          int ia = I - 1, ib = I - 1;
#pragma unroll
          for (int r = I - 1; r >= 0; --r) {
            bool take_b = !ord.less(t.keys[t.slot(mine + ib)], t.keys[t.slot(theirs + ia)]);
            unsigned s = take_b ? mine + ib-- : theirs + ia--;
            t.load(s, k[r], v[r]);
          }
        }
      }
      __syncthreads();
    }
#pragma unroll
    for (int r = 0; r < I; ++r) t.store(unsigned(me) * I + r, k[r], v[r]);
    __syncthreads();
    block::store_strided<T::threads>(t, valid, kout, vout, base, ord);
    __syncthreads();
  }
}

// Global level: one round of merge-split between tiles (2i + parity, 2i + 1 +
// parity). The pair is merged in shared memory with merge path and written
// back in place: the left tile keeps the smaller tile-full.
template <class T, class K, class P, class Ord>
__global__ void __launch_bounds__(T::threads)
merge_split_kernel(K* keys, P* vals, std::size_t n, Ord ord, int parity, std::size_t pairs) {
  using U = typename key_traits<K>::bits;
  extern __shared__ uint4 smem[];
  auto t = block::shared_tile<U, P>::carve(smem, 2 * T::tile);
  for (std::size_t pair = blockIdx.x; pair < pairs; pair += gridDim.x) {
    std::size_t base = (2 * pair + parity) * T::tile;
    std::size_t na = T::tile;
    std::size_t nb = n - (base + na) < std::size_t(T::tile) ? n - (base + na) : std::size_t(T::tile);
    int total = int(na + nb);
    block::load_strided<T::threads>(keys, vals, base, total, t, ord);
    __syncthreads();
    block::merge_in_tile<2 * T::items>(t, unsigned(na), unsigned(total), ord);
    block::store_strided<T::threads>(t, total, keys, vals, base, ord);
    __syncthreads();
  }
}

template <class K, class P, order_for<K> Ord> void sort_with(const sort_problem<K, P>& p, const Ord& ord) {
  using U = typename key_traits<K>::bits;
  using T = tuning<U, P>;
  const call_context& ctx = *p.ctx;
  const std::size_t tiles = (p.n + T::tile - 1) / T::tile;

  auto block = block_sort_kernel<T, K, P, Ord>;
  allow_shared_memory(ctx, block, T::block_shared_bytes, "cudaFuncSetAttribute(odd-even block sort)");
  block<<<grid_for(tiles, 1), T::threads, T::block_shared_bytes, p.stream>>>(p.keys_in, p.keys_out, p.vals_in,
                                                                           p.vals_out, p.n, ord);
  ctx.check_launch("odd-even block sort");
  if (tiles == 1) return;

  auto merge = merge_split_kernel<T, K, P, Ord>;
  allow_shared_memory(ctx, merge, T::merge_shared_bytes, "cudaFuncSetAttribute(odd-even merge-split)");
  for (std::size_t round = 0; round < tiles; ++round) {
    int parity = int(round & 1);
    std::size_t pairs = (tiles - parity) / 2;
    if (pairs == 0) continue;
    merge<<<grid_for(pairs, 1), T::threads, T::merge_shared_bytes, p.stream>>>(p.keys_out, p.vals_out, p.n, ord,
                                                                              parity, pairs);
    ctx.check_launch("odd-even merge-split");
  }
}

struct family {
  static constexpr algorithm id = algorithm::odd_even;
  static constexpr bool compares = true;
  static constexpr unsigned value_widths = index_value_widths;
  template <class K, class P> static std::size_t temp_bytes(const sort_problem<K, P>&) { return 0; }
  template <class K, class P> static void sort(const sort_problem<K, P>& p, void* /*temp*/) {
    if (p.n == 0) return;
    sort_with(p, full_order<K>(p.ord));
  }
};

}  // namespace gpusort::detail::odd_even
