// One rank's part of the multi-GPU sort, sort first (options::how; the
// automatic choice): the P2P form of Maltenberger et al.,
// "Evaluating Multi-GPU Sorting with Modern Interconnects" (SIGMOD 2022),
// with the sample sort's tagged splitters (plan.hpp) instead of their
// pairwise pivot search, so any p and skewed keys balance the same way, and
// the exchange cut into rounds whose merges hide behind the next round.
//
//   sort       the whole shard, the library's stable local sort, into part
//   partition  splitters from samples of the sorted shard (positions in the
//              sorted shard order equal keys as their input positions do,
//              the sort being stable, so the tags' order is the same):
//              p x k equal shares, so that rank t's range is cut into k
//              rounds (share t k + j is its round j); split_kernel: each
//              cut's split point by binary search (no pass over the keys);
//              every rank's counts read on the host
//   exchange   round j, one group of sends and receives of every rank's
//   and merge  contiguous range for round j of every other rank, and round
//              j's p sorted runs merged pairwise into its place in the
//              output while round j + 1 travels (rounds.cuh)
//
// Against partition first it saves the partition's pass over the keys (a
// read to count, a read and a write to scatter) and sorts n / p keys in one
// call; the sort does not overlap the exchange, the merges do
// (docs/perf/multi_gpu.md).
#pragma once

#include "multi/rounds.cuh"

#include <cstdint>

namespace gpusort::detail::multi {

// The split: key i of the sorted shard (rank bits k_i, position i) goes to
// the share of the number of cuts at or above which it lies, a prefix of
// the cuts that grows along the shard; at[u + 1] is the first key at or
// above cut u (plan.hpp's split_point, a binary search a thread), at[0] = 0
// and at[buckets] = n. counts[u] = keys of share u, counts[buckets] = the
// capacity. One block.
template <class C, class Ord, class U>
__global__ void __launch_bounds__(tuning::small_threads)
split_kernel(const C* keys, std::size_t n, const cut<U>* cuts, int buckets, Ord ord, std::size_t capacity,
             std::uint64_t* at, std::uint64_t* counts) {
  for (int t = int(threadIdx.x); t <= buckets; t += int(blockDim.x))
    at[t] = t == 0         ? 0
            : t == buckets ? n
                           : split_point(cuts[t - 1], [&](std::uint64_t i) { return ord.rank(ord.encode(keys[i])); }, n);
  __syncthreads();
  for (int t = int(threadIdx.x); t <= buckets; t += int(blockDim.x))
    counts[t] = t < buckets ? at[t + 1] - at[t] : capacity;
}

template <class C, class LocalSort>
void sort_first_shard(const shard_call<C>& c, const shard_layout<C>& L, LocalSort& local_sort,
                      const shard_events& ev) {
  using U = typename key_traits<C>::bits;
  const call_context& ctx = *c.ctx;
  const int p = c.tx->size(), r = c.tx->rank(), k = rounds_of(c);
  const std::size_t n = c.n;
  cudaStream_t st = c.stream;

  // ---- sort ----------------------------------------------------------------------
  local_sort(c.keys_in, L.part_k, static_cast<const std::uint8_t*>(c.vals_in), L.part_v, n);
  if (c.timed) ctx.check(cudaEventRecord(ev.sorted, st), "cudaEventRecord");

  // ---- partition: splitters, split points, counts ----------------------------------
  find_cuts(c, L, L.part_k, p * k);
  split_kernel<C, key_order<C>, U>
      <<<1, tuning::small_threads, 0, st>>>(L.part_k, n, L.cuts, p * k, c.ord, c.capacity, L.split_at, L.counts);
  ctx.check_launch("multi split");
  const traffic t = gather_counts(c, L, ev.part);
  const std::vector<std::size_t> totals = check_capacities(c, t);

  // ---- exchange and merge: round j's runs merged as they land ---------------------
  exchange_rounds(c, L, t, true, local_sort, ev.part, ev.x);

  c.out->count = totals[std::size_t(r)];
  c.out->counts = totals;
  c.out->used = form::sort_first;
  if (c.timed) finish_times(ctx, st, ev.end, *c.out, {ev.sorted, ev.part}, {ev.part, ev.x}, {ev.start, ev.sorted},
                           {ev.x, ev.end});
}

}  // namespace gpusort::detail::multi
