// One rank's part of the multi-GPU sort, sort first (options::how; the
// automatic choice for two ranks): the P2P form of Maltenberger et al.,
// "Evaluating Multi-GPU Sorting with Modern Interconnects" (SIGMOD 2022),
// with the sample sort's tagged splitters (plan.hpp) instead of their
// pairwise pivot search, so any p and skewed keys balance the same way.
//
//   sort       the whole shard, the library's stable local sort, into part
//   partition  splitters from samples of the sorted shard (positions in the
//              sorted shard order equal keys as their input positions do,
//              the sort being stable, so the tags' order is the same);
//              split_kernel: each cut's split point by binary search (no
//              pass over the keys); every rank's counts read on the host
//   exchange   the shard's contiguous ranges, one group of sends and
//              receives: the runs land in rank order, the own run copied
//              into its slot meanwhile
//   merge      the p sorted runs, pairwise, log2 p rounds (ties: the lower
//              rank's run first), the last round into the output
//
// Against partition first it saves the partition's pass over the keys (a
// read to count, a read and a write to scatter) and sorts n / p keys in one
// call, but nothing overlaps the exchange, and p runs take log2 p merges
// (docs/perf/multi_gpu.md).
#pragma once

#include "multi/shard_steps.cuh"

#include <cstdint>
#include <vector>

namespace gpusort::detail::multi {

// The split: key i of the sorted shard (rank bits k_i, position i) goes to
// the rank of the number of cuts at or above which it lies, a prefix of the
// cuts that grows along the shard; split point t + 1 is the first key at or
// above cut t (plan.hpp's split_point, a binary search a thread).
// counts[t] = keys for rank t, counts[p] = the capacity. One block of
// max_ranks + 1 threads.
template <class C, class Ord, class U>
__global__ void __launch_bounds__(max_ranks + 1)
split_kernel(const C* keys, std::size_t n, const cut<U>* cuts, int ranks, Ord ord, std::size_t capacity,
             std::uint64_t* counts) {
  __shared__ std::size_t at[max_ranks + 1];
  const int t = int(threadIdx.x);
  if (t + 1 < ranks)
    at[t + 1] = split_point(cuts[t], [&](std::uint64_t i) { return ord.rank(ord.encode(keys[i])); }, n);
  if (t == 0) {
    at[0] = 0;
    at[ranks] = n;
  }
  __syncthreads();
  if (t < ranks) counts[t] = at[t + 1] - at[t];
  else if (t == ranks) counts[t] = capacity;
}

// Copies m keys (and values) between buffers on the stream.
template <class C>
void copy_items(const call_context& ctx, const C* kin, C* kout, const std::uint8_t* vin, std::uint8_t* vout,
                std::size_t vs, std::size_t m, cudaStream_t st) {
  if (m == 0) return;
  ctx.check(cudaMemcpyAsync(kout, kin, m * sizeof(C), cudaMemcpyDeviceToDevice, st), "cudaMemcpyAsync(run keys)");
  if (vs) ctx.check(cudaMemcpyAsync(vout, vin, m * vs, cudaMemcpyDeviceToDevice, st), "cudaMemcpyAsync(run values)");
}

// merge: the runs of `len` keys (rank order, back to back in recv) merged
// pairwise into the output; rounds alternate between recv and run. Empty
// runs drop out first (the rest stay back to back); a single run is copied.
template <class C>
void merge_sorted_runs(const shard_call<C>& c, const shard_layout<C>& L, const std::vector<std::size_t>& len) {
  struct span_of {
    std::size_t at, n;
  };
  const call_context& ctx = *c.ctx;
  const std::size_t vs = c.val_size;
  cudaStream_t st = c.stream;
  std::vector<span_of> runs;
  std::size_t at = 0;
  for (std::size_t m : len) {
    if (m) runs.push_back({at, m});
    at += m;
  }
  C *src_k = L.recv_k, *dst_k = L.run_k;
  std::uint8_t *src_v = L.recv_v, *dst_v = L.run_v;
  C* const out_k = c.keys_out;
  std::uint8_t* const out_v = static_cast<std::uint8_t*>(c.vals_out);
  if (runs.size() == 1) copy_items(ctx, src_k + runs[0].at, out_k, src_v + runs[0].at * vs, out_v, vs, runs[0].n, st);
  while (runs.size() > 1) {
    const bool last = runs.size() == 2;
    C* const to_k = last ? out_k : dst_k;
    std::uint8_t* const to_v = last ? out_v : dst_v;
    std::vector<span_of> next;
    std::size_t w = 0;
    for (std::size_t i = 0; i < runs.size(); i += 2) {
      const span_of a = runs[i];
      if (i + 1 == runs.size()) {
        copy_items(ctx, src_k + a.at, to_k + w, src_v + a.at * vs, to_v + w * vs, vs, a.n, st);
        next.push_back({w, a.n});
        w += a.n;
        continue;
      }
      const std::size_t m = a.n + runs[i + 1].n;  // runs[i + 1] follows a
      host::merge_runs<C>(ctx, src_k + a.at, to_k + w, src_v + a.at * vs, to_v + w * vs, vs, m, a.n, L.splits,
                          c.ord, st);
      next.push_back({w, m});
      w += m;
    }
    runs.swap(next);
    std::swap(src_k, dst_k);
    std::swap(src_v, dst_v);
  }
}

template <class C, class LocalSort>
void sort_first_shard(const shard_call<C>& c, const shard_layout<C>& L, LocalSort& local_sort,
                      const shard_events& ev) {
  using U = typename key_traits<C>::bits;
  const call_context& ctx = *c.ctx;
  const int p = c.tx->size(), r = c.tx->rank();
  const std::size_t n = c.n, vs = c.val_size;
  cudaStream_t st = c.stream;

  // ---- sort ----------------------------------------------------------------------
  local_sort(c.keys_in, L.part_k, static_cast<const std::uint8_t*>(c.vals_in), L.part_v, n);
  if (c.timed) ctx.check(cudaEventRecord(ev.sorted, st), "cudaEventRecord");

  // ---- partition: splitters, split points, counts ----------------------------------
  find_cuts(c, L, L.part_k);
  split_kernel<C, key_order<C>, U><<<1, max_ranks + 1, 0, st>>>(L.part_k, n, L.cuts, p, c.ord, c.capacity, L.counts);
  ctx.check_launch("multi split");
  const traffic t = gather_counts(c, L, ev.part);
  const std::vector<std::size_t> totals = check_capacities(c, t);

  // ---- exchange: the runs in rank order, the own run's slot left for it ----------
  owned_stream xs(ctx);
  ctx.check(cudaStreamWaitEvent(xs.s, ev.part, 0), "cudaStreamWaitEvent");
  const receipts x = exchange_buckets(c, L, t, true, xs.s);
  ctx.check(cudaEventRecord(ev.x, xs.s), "cudaEventRecord");
  std::vector<std::size_t> len(static_cast<std::size_t>(p));
  for (int q = 0; q < p; ++q) len[std::size_t(q)] = t.sends(q, r);
  if (x.O == x.total()) {  // nothing arrives: the own run is the output
    copy_items(ctx, L.part_k + x.own_at, c.keys_out, L.part_v + x.own_at * vs,
               static_cast<std::uint8_t*>(c.vals_out), vs, x.O, st);
    ctx.check(cudaStreamWaitEvent(st, ev.x, 0), "cudaStreamWaitEvent");
  } else {
    copy_items(ctx, L.part_k + x.own_at, L.recv_k + x.B, L.part_v + x.own_at * vs, L.recv_v + x.B * vs, vs, x.O, st);
    ctx.check(cudaStreamWaitEvent(st, ev.x, 0), "cudaStreamWaitEvent");
    // ---- merge ---------------------------------------------------------------------
    merge_sorted_runs(c, L, len);
  }

  c.out->count = totals[std::size_t(r)];
  c.out->counts = totals;
  if (c.timed) finish_times(ctx, st, ev.end, *c.out, {ev.sorted, ev.part}, {ev.part, ev.x}, {ev.start, ev.sorted},
                           {ev.x, ev.end});
}

}  // namespace gpusort::detail::multi
