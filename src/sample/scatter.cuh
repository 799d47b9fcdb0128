// Sample sort, stage 3: the stable scatter into buckets, as one radix pass
// whose digit is the bucket (Sintorn & Assarsson 2008 step 2; the ranking
// is onesweep's warp multi-split, radix/block_rank.cuh, over 2^9 bins for
// the 511 buckets; src/radix/onesweep_pass.cuh is the model). Destinations
// come from the scanned count table (count.cuh) instead of a look-back.
// One block per tile of the level (tuning::tile keys of one segment):
//   tree     the segment's splitters (search_tree.cuh), when it changes
//   bases    thread t owns buckets 2t, 2t + 1 (the ranker's bins) and holds,
//            in registers, where the tile's next key of each goes: the
//            segment's begin + its scanned cell - the segment's first cell
// then chunks of threads x scatter_items keys, in order:
//   load     keys warp-striped (ranker::slot), bucket once per key; a
//            partial chunk pads with pad_bucket, above every bucket
//   rank     block_rank: each key's slot in the chunk stably sorted by
//            bucket, and each bucket's count and first slot in the chunk;
//            a bucket's chunk slot s goes to global[b] + s, global[b] =
//            base - first slot, and the base moves on by the count
//   exchange keys (and their buckets, 16 bits) to shared memory in rank
//            order, over the ranker's histograms
//   store    thread t stores slots t, t + threads, ...: consecutive threads
//            write consecutive addresses of a bucket's run; values take a
//            second trip through the same exchange
// Equal buckets keep tile order (chunks in order, the ranker stable within
// one), so the scatter is stable. Keys move as carried bits (encode on load,
// decode on store); values as payload P.
#pragma once

#include "core/payload.cuh"
#include "radix/block_rank.cuh"
#include "sample/count.cuh"
#include "sample/search_tree.cuh"
#include "sample/segments.cuh"
#include "sample/tuning.cuh"

#include <cstddef>
#include <cstdint>

namespace gpusort::detail::sample {

template <class Ord, class P> struct scatter_shared {
  using U = typename Ord::carried;
  static constexpr int items = scatter_items<U, P>, chunk = tuning::threads * items;
  using ranker = radix::block_rank<tuning::threads, items, tuning::bucket_bits>;
  static_assert(tuning::tile % chunk == 0 && chunk <= (1 << 16), "whole chunks; ranks fit 16 bits");

  splitter_tree<Ord> tree;
  std::size_t global[ranker::bins];  // output index of chunk slot 0 of each bucket's run
  union {
    typename ranker::storage rank;
    struct {
      union {
        U keys[chunk];
        P vals[chunk];
      };
      std::uint16_t buckets[chunk];
    } x;
  };
};

// scatter
template <class K, class P, class Ord>
__global__ void __launch_bounds__(tuning::threads)
scatter_kernel(const K* kin, const P* vin, K* kout, P* vout, const segment_desc* descs, const unsigned* map,
               std::size_t tiles, Ord ord, const typename Ord::carried* splitters, const std::size_t* offsets) {
  using U = typename Ord::carried;
  using shared = scatter_shared<Ord, P>;
  using ranker = typename shared::ranker;
  constexpr int T = tuning::threads, I = shared::items, BPT = ranker::bins_per_thread;
  constexpr bool pairs = !is_no_value<P>;
  __shared__ shared s;
  unsigned loaded = ~0u;
  for (std::size_t tile = blockIdx.x; tile < tiles; tile += gridDim.x) {
    const tile_view v = tile_at(descs, map, tile);
    load_tree(s.tree, ord, splitters, v.seg, loaded);
    // bases
    const std::size_t origin = v.d.begin - offsets[cell(v.d, 0, 0)];
    std::size_t next[BPT];
#pragma unroll
    for (int u = 0; u < BPT; ++u) {
      const int b = ranker::thread_bin(u);
      next[u] = b < tuning::buckets ? origin + offsets[cell(v.d, b, v.t)] : 0;
    }
    __syncthreads();
    for (int c = 0; c < v.valid; c += shared::chunk) {  // block-uniform
      const int valid = min(v.valid - c, shared::chunk);
      const bool full = valid == shared::chunk;
      const std::size_t first = v.first + std::size_t(c);
      // load: key i of this thread, and its bucket | rank << 16
      U key[I];
      unsigned br[I];
#pragma unroll
      for (int i = 0; i < I; ++i) {
        const int slot = int(ranker::slot(i));
        const bool live = full || slot < valid;
        key[i] = live ? ord.encode(kin[first + slot]) : U(0);
        br[i] = live ? s.tree.bucket(ord, key[i]) : pad_bucket;
      }
      // rank
      unsigned counts[BPT], starts[BPT];
      ranker::rank_each(
          s.rank, [&](int i) { return br[i] & 0xFFFFu; }, [&](int i, unsigned r) { br[i] |= r << 16; }, counts,
          starts, [](const unsigned(&)[BPT]) { return false; });
#pragma unroll
      for (int u = 0; u < BPT; ++u) {
        s.global[ranker::thread_bin(u)] = next[u] - starts[u];  // wraps; global + slot is exact
        next[u] += counts[u];
      }
      __syncthreads();  // every rank is known: the exchange may overwrite the histograms
      // exchange
#pragma unroll
      for (int i = 0; i < I; ++i) {
        s.x.keys[br[i] >> 16] = key[i];
        s.x.buckets[br[i] >> 16] = std::uint16_t(br[i]);
      }
      __syncthreads();
      // store
#pragma unroll
      for (int u = 0; u < I; ++u) {
        const int slot = int(threadIdx.x) + u * T;
        if (full || slot < valid) kout[s.global[s.x.buckets[slot]] + slot] = ord.decode(s.x.keys[slot]);
      }
      if constexpr (pairs) {
        __syncthreads();  // the keys are out: the values reuse the exchange
#pragma unroll
        for (int i = 0; i < I; ++i) {
          const int slot = int(ranker::slot(i));
          if (full || slot < valid) s.x.vals[br[i] >> 16] = vin[first + slot];
        }
        __syncthreads();
#pragma unroll
        for (int u = 0; u < I; ++u) {
          const int slot = int(threadIdx.x) + u * T;
          if (full || slot < valid) vout[s.global[s.x.buckets[slot]] + slot] = s.x.vals[slot];
        }
      }
      __syncthreads();  // the next chunk ranks over the exchange and rewrites global
    }
  }
}

}  // namespace gpusort::detail::sample
