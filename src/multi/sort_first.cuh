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
//   exchange   round j, one group of sends and receives: every rank's
//              contiguous range for round j of every other rank; the runs
//              land in rank order in round j's part of recv, the own run
//              copied into its slot meanwhile. In one round, the first run
//              of each rank's receipts is aligned (alignment below)
//   merge      round j's p sorted runs, pairwise, log2 p rounds (ties: the
//              lower rank's run first), into round j's place in the output,
//              while round j + 1 travels: only the last round's merge
//              follows the exchange
//
// Against partition first it saves the partition's pass over the keys (a
// read to count, a read and a write to scatter) and sorts n / p keys in one
// call; the sort does not overlap the exchange, the merges do
// (docs/perf/multi_gpu.md).
#pragma once

#include "multi/shard_steps.cuh"

#include <cstdint>
#include <deque>
#include <vector>

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

// Copies m keys (and values) between buffers on the stream.
template <class C>
void copy_items(const call_context& ctx, const C* kin, C* kout, const std::uint8_t* vin, std::uint8_t* vout,
                std::size_t vs, std::size_t m, cudaStream_t st) {
  if (m == 0) return;
  ctx.check(cudaMemcpyAsync(kout, kin, m * sizeof(C), cudaMemcpyDeviceToDevice, st), "cudaMemcpyAsync(run keys)");
  if (vs) ctx.check(cudaMemcpyAsync(vout, vin, m * vs, cudaMemcpyDeviceToDevice, st), "cudaMemcpyAsync(run values)");
}

// merge: the runs of `len` keys (rank order, back to back in recv from
// `at0`) merged pairwise into the output from `out0`; rounds alternate
// between recv and run (from `at0` too). Empty runs drop out first (the
// rest stay back to back); a single run is copied.
template <class C>
void merge_sorted_runs(const shard_call<C>& c, const shard_layout<C>& L, const std::vector<std::size_t>& len,
                       std::size_t at0, std::size_t out0) {
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
  C *src_k = L.recv_k + at0, *dst_k = L.run_k + at0;
  std::uint8_t *src_v = L.recv_v + at0 * vs, *dst_v = L.run_v + at0 * vs;
  C* const out_k = c.keys_out + out0;
  std::uint8_t* const out_v = static_cast<std::uint8_t*>(c.vals_out) + out0 * vs;
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

// exchange: round j's group of sends and receives on `xs`: this rank's share
// (q, j) to every other rank q (at `from[q k + j]` of the sorted shard, with
// `al.lead[q]` keys before it), and from every rank q its share (r, j) into
// recv at `to` + the lower ranks' (the first run with its leading keys)
template <class C>
void exchange_round(const shard_call<C>& c, const shard_layout<C>& L, const traffic& t, int j,
                    const std::vector<std::size_t>& from, std::size_t to, const alignment_plan& al, cudaStream_t xs) {
  const int p = t.p, k = t.k, r = c.tx->rank();
  const std::size_t vs = c.val_size;
  std::vector<transport::part> out_parts, in_parts;
  bool first = true;
  for (int q = 0; q < p; ++q) {
    const std::size_t e = al.lead[std::size_t(q)];
    const std::size_t m = t.sends(r, q, j) + e, a = from[std::size_t(q * k + j)] - e;
    if (q != r && m > e) {
      out_parts.push_back({q, L.part_k + a, m * sizeof(C)});
      if (vs) out_parts.push_back({q, L.part_v + a * vs, m * vs});
    }
    const std::size_t got = t.sends(q, r, j);
    if (got > 0 && first) {
      first = false;
      if (q != r) {
        const std::size_t f = al.lead_in;
        in_parts.push_back({q, L.recv_k + to - f, (got + f) * sizeof(C)});
        if (vs) in_parts.push_back({q, L.recv_v + (to - f) * vs, (got + f) * vs});
        to += got;
        continue;
      }
    }
    if (q != r && got > 0) {
      in_parts.push_back({q, L.recv_k + to, got * sizeof(C)});
      if (vs) in_parts.push_back({q, L.recv_v + to * vs, got * vs});
    }
    to += got;
  }
  c.tx->exchange(out_parts, in_parts, xs);
}

template <class C, class LocalSort>
void sort_first_shard(const shard_call<C>& c, const shard_layout<C>& L, LocalSort& local_sort,
                      const shard_events& ev) {
  using U = typename key_traits<C>::bits;
  const call_context& ctx = *c.ctx;
  const int p = c.tx->size(), r = c.tx->rank(), k = rounds_of(c);
  const std::size_t n = c.n, vs = c.val_size;
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
  std::vector<std::size_t> from(std::size_t(p * k) + 1, 0);  // share u's first key in the sorted shard
  for (int u = 0; u < p * k; ++u) from[std::size_t(u) + 1] = from[std::size_t(u)] + t.sends(r, u / k, u % k);
  const alignment_plan al = plan_alignment(r, align_items(sizeof(C), vs), t);

  // ---- exchange: every round on `xs`, each marked by its event --------------------
  owned_stream xs(ctx);
  std::deque<owned_event> arrived;  // each round's arrival
  for (int j = 0; j < k; ++j) arrived.emplace_back(ctx, false);
  ctx.check(cudaStreamWaitEvent(xs.s, ev.part, 0), "cudaStreamWaitEvent");
  std::vector<std::size_t> base(std::size_t(k) + 1, 0);  // round j's keys at [base[j], base[j + 1]) of out, from pad in recv
  for (int j = 0; j < k; ++j) {
    std::size_t m = 0;
    for (int q = 0; q < p; ++q) m += t.sends(q, r, j);
    base[std::size_t(j) + 1] = base[std::size_t(j)] + m;
    exchange_round(c, L, t, j, from, al.pad + base[std::size_t(j)], al, xs.s);
    ctx.check(cudaEventRecord(arrived[std::size_t(j)].e, xs.s), "cudaEventRecord");
  }
  ctx.check(cudaEventRecord(ev.x, xs.s), "cudaEventRecord");

  // ---- merge: round j's runs as they land -------------------------------------------
  std::vector<std::size_t> len(static_cast<std::size_t>(p));
  for (int j = 0; j < k; ++j) {
    std::size_t below = 0;
    for (int q = 0; q < p; ++q) {
      len[std::size_t(q)] = t.sends(q, r, j);
      if (q < r) below += len[std::size_t(q)];
    }
    const std::size_t own = len[std::size_t(r)], at = base[std::size_t(j)], mine = from[std::size_t(r * k + j)];
    const std::size_t in_at = al.pad + at;  // round j's receipts in recv
    if (own == base[std::size_t(j) + 1] - at) {  // nothing arrives: the own run is round j's output
      copy_items(ctx, L.part_k + mine, c.keys_out + at, L.part_v + mine * vs,
                 static_cast<std::uint8_t*>(c.vals_out) + at * vs, vs, own, st);
      continue;
    }
    copy_items(ctx, L.part_k + mine, L.recv_k + in_at + below, L.part_v + mine * vs, L.recv_v + (in_at + below) * vs,
               vs, own, st);
    ctx.check(cudaStreamWaitEvent(st, arrived[std::size_t(j)].e, 0), "cudaStreamWaitEvent");
    merge_sorted_runs(c, L, len, in_at, at);
  }
  // the sends read part until the last round ends
  ctx.check(cudaStreamWaitEvent(st, ev.x, 0), "cudaStreamWaitEvent");

  c.out->count = totals[std::size_t(r)];
  c.out->counts = totals;
  if (c.timed) finish_times(ctx, st, ev.end, *c.out, {ev.sorted, ev.part}, {ev.part, ev.x}, {ev.start, ev.sorted},
                           {ev.x, ev.end});
}

}  // namespace gpusort::detail::multi
