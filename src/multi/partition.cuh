// The multi-GPU sort's device steps before the exchange (plan.hpp's steps 1
// to 3), for one rank:
//   sample     sample_kernel: s tagged samples of the unsorted shard
//   (gather)   the transport's all-gather of every rank's samples
//   order      sample_keys_kernel: the gathered samples' keys and indices,
//              sorted stably by key (the library's radix sort), which is
//              their tag order; weights_kernel: their weights in that order,
//              summed inclusively (cub::DeviceScan)
//   splitters  cuts_kernel: splitter t is the first sample whose cumulative
//              weight reaches t n / p (t n / (p k) for sort first's k
//              rounds), as this rank's cut
//   partition  the shared distribution kernels (partition/count.cuh,
//              partition/scatter.cuh) under shard_policy: one bucket per
//              destination rank, classified by tag (plan.hpp's bucket_of),
//              scattered stably; a table cell per (bucket, tile), scanned
//   counts     counts_kernel: how many keys go to each rank
#pragma once

#include "multi/plan.hpp"
#include "multi/tuning.hpp"
#include "partition/policy.cuh"

#include <gpusort/detail/block/rank.cuh>
#include <gpusort/detail/core/payload.cuh>

#include <cstddef>
#include <cstdint>

namespace gpusort::detail::multi {

// sample
template <class C, class Ord, class U>
__global__ void sample_kernel(const C* keys, std::uint64_t n_r, std::uint32_t rank, int s, Ord ord, sample<U>* out) {
  const int j = int(blockIdx.x * blockDim.x + threadIdx.x);
  if (j >= s) return;
  out[j] = sample_of<U>([&](std::uint64_t i) { return ord.rank(ord.encode(keys[i])); }, n_r, rank, s, std::uint64_t(j));
}

// order: the keys to sort and their indices in the gathered array
template <class U>
__global__ void sample_keys_kernel(const sample<U>* all, std::size_t count, U* keys, std::uint32_t* idx) {
  for (std::size_t j = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x; j < count;
       j += std::size_t(gridDim.x) * blockDim.x) {
    keys[j] = all[j].key;
    idx[j] = std::uint32_t(j);
  }
}

template <class U>
__global__ void weights_kernel(const sample<U>* all, const std::uint32_t* idx, std::size_t count, std::uint64_t* w) {
  for (std::size_t j = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x; j < count;
       j += std::size_t(gridDim.x) * blockDim.x)
    w[j] = all[idx[j]].weight;
}

// splitters: one thread per cut between `buckets` equal shares (the ranks,
// or sort first's rounds of every rank: cut t * rounds is rank t's, as
// share_end(n, p * k, t * k) = share_end(n, p, t)); n is the last
// cumulative weight
template <class U>
__global__ void cuts_kernel(const sample<U>* all, const std::uint32_t* idx, const std::uint64_t* cumulative,
                            std::size_t count, int buckets, std::uint32_t rank, cut<U>* cuts) {
  const int t = int(blockIdx.x * blockDim.x + threadIdx.x) + 1;
  if (t >= buckets) return;
  const std::uint64_t n = count ? cumulative[count - 1] : 0;
  const std::size_t j = splitter_index(cumulative, count, share_end(n, buckets, t));
  cuts[t - 1] = j < count ? cut_for(all[idx[j]], rank) : cut_after_all<U>();
}

// partition: work item w is tile w of the shard
struct shard_tile {
  unsigned seg;
  std::size_t t;      // tile
  std::size_t first;  // its first key
  int valid;          // keys in it
};

// U: the rank bits; P: the payload (no_value for the count).
template <class U, class P> struct shard_policy {
  static constexpr int threads = tuning::threads;
  static constexpr int count_items = tuning::count_items;
  static constexpr int scatter_items =
      partition::scatter_items_for<tuning::threads, tuning::exchange_bytes, tuning::max_scatter_items, U, P>;
  static constexpr int bits = tuning::bucket_bits;
  static constexpr int buckets = max_ranks;
  static constexpr int tree_levels = 1;  // unused: the policy classifies
  static constexpr int count_blocks = 1, scatter_blocks = 3;
  static constexpr bool stable = true, values_early = false, reserve_early = false, one_chunk = false;
  static constexpr bool classifies = true;
  static constexpr int owned = block::block_rank<threads, scatter_items, bits>::bins_per_thread;
  static_assert(tuning::tile % (threads * scatter_items) == 0, "whole chunks");
  static_assert(tuning::tile % (threads * count_items) == 0, "whole chunks");

  const cut<U>* cuts;  // ranks - 1 cuts, by splitter tag
  int ranks;
  std::size_t n;       // keys of the shard
  std::size_t tiles;
  std::size_t* table;  // counts [bucket][tile], then (scanned) offsets

  struct cursor {
    std::size_t next[owned];
  };

  __device__ std::size_t items() const { return tiles; }
  __device__ shard_tile item(std::size_t w) const {
    const std::size_t first = w * tuning::tile, left = n - first;
    return {0u, w, first, int(left < std::size_t(tuning::tile) ? left : std::size_t(tuning::tile))};
  }
  __device__ const U* splitters(unsigned) const { return nullptr; }
  template <class Ord> __device__ unsigned bucket(const Ord& ord, U k, std::size_t index) const {
    return bucket_of(cuts, ranks - 1, ord.rank(k), index);
  }
  __device__ void publish(const shard_tile& v, int b, unsigned count) const {
    if (b < ranks) table[std::size_t(b) * tiles + v.t] = count;
  }
  __device__ cursor begin(const shard_tile& v) const {
    cursor c;
#pragma unroll
    for (int u = 0; u < owned; ++u) {
      const int b = int(threadIdx.x) * owned + u;
      c.next[u] = b < ranks ? table[std::size_t(b) * tiles + v.t] : 0;
    }
    return c;
  }
  __device__ std::size_t base(cursor& c, const shard_tile&, int, int u, unsigned count) const {
    const std::size_t at = c.next[u];
    c.next[u] += count;
    return at;
  }
};

// counts: rank b's keys are [table[b * tiles], table[(b + 1) * tiles]) of
// the scanned table (the shard's end after the last bucket); entry `ranks`
// is this rank's capacity, gathered with the counts
// (a template, so that every unit including it may hold a copy)
template <class Offset>
__global__ void counts_kernel(const Offset* table, std::size_t tiles, int ranks, std::size_t n, std::size_t capacity,
                              std::uint64_t* counts) {
  const int b = int(blockIdx.x * blockDim.x + threadIdx.x);
  if (b > ranks) return;
  if (b == ranks) counts[b] = capacity;
  else if (tiles == 0) counts[b] = 0;
  else {
    const std::size_t begin = table[std::size_t(b) * tiles];
    const std::size_t end = b + 1 < ranks ? table[std::size_t(b + 1) * tiles] : n;
    counts[b] = end - begin;
  }
}

}  // namespace gpusort::detail::multi
