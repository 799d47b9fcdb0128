// The shared scatter kernel (policy.cuh): one radix-style pass whose digit
// is the key's bucket (the shape of onesweep's digit pass, radix/
// onesweep_pass.cuh), with destinations from the policy instead of a
// look-back. Per work item, in chunks of threads x scatter_items keys:
//   load      keys warp-striped (block::load_striped's layout), all in
//             flight; values too when the policy holds them in registers
//   tree      the segment's splitters when the segment changes, and the
//             policy's cursor for the item
//   classify  each key's bucket; lanes past the item's end take the pad
//             bucket, above every real one
//   rank      each key's slot in the chunk sorted by bucket: stably by warp
//             multi-split (block_rank::rank_each) or by one shared atomic a
//             key (rank_unstable); as soon as the counts are known, the
//             policy says where each bucket's run of the chunk goes
//   exchange  keys and their buckets to shared memory in rank order
//   store     thread t stores slots t, t + threads, ...: consecutive threads
//             write consecutive addresses of a bucket's run; values take a
//             second trip through the same exchange
// With the stable ranker and chunks in order, equal buckets keep input
// order, so the scatter is stable. Keys move as carried bits (encode on
// load, decode on store); values as payload P.
#pragma once

#include "partition/policy.cuh"

#include <gpusort/detail/block/rank.cuh>
#include <gpusort/detail/block/striped.cuh>
#include <gpusort/detail/core/payload.cuh>

#include <cstddef>
#include <cstdint>
#include <type_traits>

namespace gpusort::detail::partition {

template <class Policy, class Ord, class P> struct scatter_shared {
  using U = typename Ord::carried;
  static constexpr int chunk = Policy::threads * Policy::scatter_items;
  using ranker = block::block_rank<Policy::threads, Policy::scatter_items, Policy::bits>;
  using bin_t = std::conditional_t<(Policy::bits <= 8), std::uint8_t, std::uint16_t>;
  static_assert(chunk <= (1 << 16), "ranks fit 16 bits");

  block::splitter_tree<Ord, Policy::tree_levels> tree;
  std::size_t global[ranker::bins];  // output index of chunk slot 0 of each bucket's run
  union {
    typename ranker::storage rank;
    struct {
      union {
        U keys[chunk];
        P vals[chunk];
      };
      bin_t bins[chunk];
    } x;
  };
};

template <class Policy, class K, class P, class Ord>
__global__ void __launch_bounds__(Policy::threads, Policy::scatter_blocks)
scatter_kernel(const K* kin, const P* vin, K* kout, P* vout, Ord ord, Policy pol) {
  using U = typename Ord::carried;
  using shared = scatter_shared<Policy, Ord, P>;
  using ranker = typename shared::ranker;
  using bin_t = typename shared::bin_t;
  constexpr int T = Policy::threads, I = Policy::scatter_items, BPT = ranker::bins_per_thread;
  constexpr bool pairs = !is_no_value<P>;
  constexpr bool early = pairs && Policy::values_early;
  __shared__ shared s;
  unsigned loaded = ~0u;
  const std::size_t items = pol.items();
  for (std::size_t w = blockIdx.x; w < items; w += gridDim.x) {
    const auto it = pol.item(w);
    typename Policy::cursor cur;
    for (int c = 0; c < it.valid; c += shared::chunk) {  // block-uniform
      // one_chunk: the item is the chunk, and nothing of the loop stays live
      const int valid = Policy::one_chunk ? it.valid : min(it.valid - c, shared::chunk);
      const bool full = valid == shared::chunk;
      const std::size_t first = Policy::one_chunk ? it.first : it.first + std::size_t(c);
      // load
      U key[I];
      P val[early ? I : 1];
      unsigned br[I];  // bucket | rank << 16
      block::for_striped<false, I>(full ? shared::chunk : valid, [&](int i, unsigned slot, bool live) {
        key[i] = live ? ord.encode(kin[first + slot]) : U(0);
        if constexpr (early)
          if (live) val[i] = vin[first + slot];
      });
      if (Policy::one_chunk || c == 0) {
        use_segment(s.tree, ord, pol, it.seg, loaded);
        cur = pol.begin(it);
        __syncthreads();  // the tree is there; the last chunk's exchange has been read
      }
      // classify
#pragma unroll
      for (int i = 0; i < I; ++i) {
        const bool live = full || int(ranker::slot(i)) < valid;
        br[i] = classify<false>(s.tree, ord, pol, key[i], first + ranker::slot(i), live);
      }
      // rank; each bucket's run of the chunk is placed as soon as the counts
      // are known (reserve_early: atomics that overlap the ranking) or after
      // the ranking (no base held in registers while it runs)
      unsigned counts[BPT], starts[BPT];
      std::size_t at[BPT];
      auto place = [&](const unsigned(&n)[BPT]) {
#pragma unroll
        for (int u = 0; u < BPT; ++u) at[u] = pol.base(cur, it, ranker::thread_bin(u), u, n[u]);
      };
      auto on_counts = [&](const unsigned(&n)[BPT]) {
        if constexpr (Policy::reserve_early) place(n);
        return false;
      };
      if constexpr (Policy::stable)
        ranker::rank_each(
            s.rank, [&](int i) { return br[i] & 0xFFFFu; }, [&](int i, unsigned r) { br[i] |= r << 16; }, counts,
            starts, on_counts);
      else
        ranker::rank_unstable(s.rank, br, counts, starts, on_counts);
      if constexpr (!Policy::reserve_early) place(counts);
#pragma unroll
      for (int u = 0; u < BPT; ++u)
        if (ranker::thread_bin(u) < ranker::bins) s.global[ranker::thread_bin(u)] = at[u] - starts[u];  // wraps; + slot is exact
      __syncthreads();  // every rank is known: the exchange may overwrite the histograms
      // exchange
#pragma unroll
      for (int i = 0; i < I; ++i) {
        s.x.keys[br[i] >> 16] = key[i];
        s.x.bins[br[i] >> 16] = bin_t(br[i]);
      }
      __syncthreads();
      // store
#pragma unroll
      for (int u = 0; u < I; ++u) {
        const int slot = int(threadIdx.x) + u * T;
        if (full || slot < valid) kout[s.global[s.x.bins[slot]] + slot] = ord.decode(s.x.keys[slot]);
      }
      if constexpr (pairs) {
        __syncthreads();  // the keys are out: the values reuse the exchange
#pragma unroll
        for (int i = 0; i < I; ++i) {
          const int slot = int(ranker::slot(i));
          if (full || slot < valid) {
            if constexpr (early) s.x.vals[br[i] >> 16] = val[i];
            else s.x.vals[br[i] >> 16] = vin[first + slot];
          }
        }
        __syncthreads();
#pragma unroll
        for (int u = 0; u < I; ++u) {
          const int slot = int(threadIdx.x) + u * T;
          if (full || slot < valid) vout[s.global[s.x.bins[slot]] + slot] = s.x.vals[slot];
        }
      }
      __syncthreads();  // the next chunk ranks over the exchange and may reload the tree
      if constexpr (Policy::one_chunk) break;
    }
  }
}

}  // namespace gpusort::detail::partition
