// Global merge of sorted runs with merge path (Green, McColl & Bader 2012;
// Odeh et al. 2012; merge/merge_path.cuh), one level per launch pair:
//   partition  one thread per output chunk finds, by binary search in global
//              memory, how many items of the left run precede the chunk
//   merge      one block per chunk loads its slices of both runs into shared
//              memory, each thread merges ITEMS outputs (merge path again,
//              inside the tile), and the block stores the chunk coalesced
// Runs of length `run` are merged pairwise into runs of 2 * run. Chunks never
// straddle two pairs. Ties go to the left run, so the merge is stable.
#pragma once

#include "core/launch.cuh"
#include "core/problem.cuh"
#include "merge/merge_in_tile.cuh"
#include "merge/merge_path.cuh"
#include "network/tile_memory.cuh"
#include "radix/merge_chunk.hpp"

#include <cstddef>

namespace gpusort::detail::radix {

template <class U, class P> struct merge_config {
  static constexpr int threads = 256;
  static constexpr int items = element_bytes<U, P> <= 8 ? 16 : 8;  // outputs per thread
  static constexpr int chunk = threads * items;                      // outputs per block
  static constexpr std::size_t shared_bytes = shared_tile<U, P>::bytes(chunk);
};

// Keys in global memory seen through their rank (merge_path's accessor).
template <class K> struct rank_view {
  const K* keys;
  key_order<K> ord;
  __device__ __forceinline__ typename key_traits<K>::bits operator[](std::size_t i) const {
    return ord.key_rank(keys[i]);
  }
};

// parts[c]: items of chunk c's left run that precede its first output.
template <class K>
__global__ void merge_partition_kernel(const K* keys, std::size_t n, key_order<K> ord, std::size_t run,
                                       std::size_t chunk, std::size_t chunks, std::size_t* parts) {
  using U = typename key_traits<K>::bits;
  const std::size_t stride = std::size_t(gridDim.x) * blockDim.x;
  for (std::size_t c = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x; c < chunks; c += stride) {
    const merge_chunk m = merge_chunk::at(c, n, run, chunk);
    if (m.diag >= m.na + m.nb) continue;  // past the end of a short last pair
    const rank_view<K> a{keys + m.a0, ord}, b{keys + m.b0, ord};
    parts[c] = merge_path(a, m.na, b, m.nb, m.diag, [](U x, U y) { return x < y; });
  }
}

// Merges chunk by chunk from src into dst.
template <class C, class K, class P>
__global__ void __launch_bounds__(C::threads)
merge_kernel(const K* ksrc, K* kdst, const P* vsrc, P* vdst, std::size_t n, key_order<K> ord, std::size_t run,
             std::size_t chunks, const std::size_t* parts) {
  using U = typename key_traits<K>::bits;
  using traits = key_traits<K>;
  constexpr int OUT = C::items;
  extern __shared__ uint4 smem[];
  auto t = shared_tile<U, P>::carve(smem, C::chunk);
  auto less = [&](U x, U y) { return ord.less(x, y); };
  for (std::size_t c = blockIdx.x; c < chunks; c += gridDim.x) {
    const merge_chunk m = merge_chunk::at(c, n, run, C::chunk);
    if (m.diag >= m.na + m.nb) continue;  // past the end of a short last pair (uniform)
    const std::size_t a_lo = parts[c];
    const std::size_t a_hi = m.last_of_pair ? m.na : parts[c + 1];
    const std::size_t b_lo = m.diag - a_lo;
    const int na = int(a_hi - a_lo), total = int(m.diag_end - m.diag);
    // load both slices: A at [0, na), B at [na, total)
    for (int i = threadIdx.x; i < total; i += C::threads) {
      const std::size_t from = i < na ? m.a0 + a_lo + i : m.b0 + b_lo + (i - na);
      P v{};
      if constexpr (!is_no_value<P>) v = vsrc[from];
      t.store(unsigned(i), traits::to_bits(ksrc[from]), v);
    }
    __syncthreads();
    merge_in_tile<OUT>(t, unsigned(na), unsigned(total), less);
    store_tile<C::threads>(t, total, kdst, vdst, m.a0 + m.diag);
    __syncthreads();
  }
}

// One merge level: runs of `run` in (ksrc, vsrc) -> runs of 2 * run in (kdst, vdst).
template <class C, class K, class P>
void merge_level(const sort_problem<K, P>& p, const K* ksrc, K* kdst, const P* vsrc, P* vdst, std::size_t run,
                 std::size_t* parts) {
  const call_context& ctx = *p.ctx;
  const std::size_t chunks = merge_chunks(p.n, run, C::chunk);
  merge_partition_kernel<<<grid_for(chunks, 128), 128, 0, p.stream>>>(ksrc, p.n, p.ord, run, std::size_t(C::chunk),
                                                                       chunks, parts);
  ctx.check_launch("radix tile merge partition");
  auto merge = merge_kernel<C, K, P>;
  allow_shared_memory(ctx, merge, C::shared_bytes, "cudaFuncSetAttribute(radix tile merge)");
  merge<<<grid_for(chunks, 1), C::threads, C::shared_bytes, p.stream>>>(ksrc, kdst, vsrc, vdst, p.n, p.ord, run,
                                                                       chunks, parts);
  ctx.check_launch("radix tile merge");
}

}  // namespace gpusort::detail::radix
