// The exchange in rounds, shared by both forms of one rank's multi-GPU
// sort once its keys lie in part in share order (share q k + j: rank q's
// round j), sorted (sort first, sort_first.cuh) or partitioned (partition
// first, shard_sort.cuh):
//   exchange   on a second stream, round j is one group of sends and
//              receives: this rank's share for round j of every other rank,
//              and every rank's share of this rank's round j, landing in
//              rank order in round j's part of recv
//   finish     on the caller's stream, the own share copied into its slot
//              in recv while round j travels, then round j into its place
//              in the output while round j + 1 travels: the p sorted runs
//              merged pairwise (ties: the lower rank's run first), or the
//              unsorted piece sorted by the library's stable local sort
//              (every rank's keys in rank order, each in input order: the
//              stable global order)
// In every round, the first run of each rank's receipts is aligned at both
// ends (exchange_plan.hpp's alignment_plan; with two ranks in one round,
// every run).
#pragma once

#include "multi/shard_steps.cuh"

#include <cstdint>
#include <deque>
#include <vector>

namespace gpusort::detail::multi {

// Copies m keys (and values) between buffers on the stream.
template <class C>
void copy_items(const call_context& ctx, const C* kin, C* kout, const std::uint8_t* vin, std::uint8_t* vout,
                std::size_t vs, std::size_t m, cudaStream_t st) {
  if (m == 0) return;
  ctx.check(cudaMemcpyAsync(kout, kin, m * sizeof(C), cudaMemcpyDeviceToDevice, st), "cudaMemcpyAsync(run keys)");
  if (vs) ctx.check(cudaMemcpyAsync(vout, vin, m * vs, cudaMemcpyDeviceToDevice, st), "cudaMemcpyAsync(run values)");
}

// Two buffers of keys and values: the runs' (src) and a merge round's
// output (dst).
template <class C> struct run_pair {
  C* src_k;
  std::uint8_t* src_v;
  C* dst_k;
  std::uint8_t* dst_v;
};

// merge: the runs of `len` keys (rank order, back to back in b.src from
// `at0`) merged pairwise into the output from `out0`; rounds alternate
// between b.src and b.dst (from `at0` too). Empty runs drop out first (the
// rest stay back to back); a single run is copied.
template <class C>
void merge_sorted_runs(const shard_call<C>& c, const shard_layout<C>& L, const std::vector<std::size_t>& len,
                       std::size_t at0, std::size_t out0, const run_pair<C>& b) {
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
  C *src_k = b.src_k + at0, *dst_k = b.dst_k + at0;
  std::uint8_t *src_v = b.src_v + at0 * vs, *dst_v = b.dst_v + at0 * vs;
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

// exchange and finish: every round (t's k) of this rank's keys in part, in
// share order. `runs_sorted`: merge each round's runs, else sort the round.
// xs waits for `part` (the counts are known); `exchanged` marks the
// exchange's end on xs, and the caller's stream waits for it at the end
template <class C, class LocalSort>
void exchange_rounds(const shard_call<C>& c, const shard_layout<C>& L, const traffic& t, bool runs_sorted,
                     LocalSort& local_sort, cudaEvent_t part, cudaEvent_t exchanged) {
  const call_context& ctx = *c.ctx;
  const int p = t.p, k = t.k, r = c.tx->rank();
  const std::size_t vs = c.val_size;
  cudaStream_t st = c.stream;
  const std::vector<std::size_t> from = share_starts(t, r);  // share u's first key in part
  const std::size_t A = align_items(sizeof(C), vs);
  const std::vector<std::size_t> region = round_starts(r, A, t);  // round j's part of recv
  C* const out_k = c.keys_out;
  std::uint8_t* const out_v = static_cast<std::uint8_t*>(c.vals_out);

  // ---- exchange: every round on `xs`, each marked by its event --------------------
  owned_stream xs(ctx);
  std::deque<owned_event> arrived;  // each round's arrival
  for (int j = 0; j < k; ++j) arrived.emplace_back(ctx, false);
  ctx.check(cudaStreamWaitEvent(xs.s, part, 0), "cudaStreamWaitEvent");
  std::vector<std::size_t> base(std::size_t(k) + 1, 0);  // round j's keys at [base[j], base[j + 1]) of out
  std::vector<std::size_t> in_at(static_cast<std::size_t>(k));  // and at in_at[j] of recv
  std::vector<std::size_t> below_r(static_cast<std::size_t>(k));  // the lower ranks' keys of round j
  for (int j = 0; j < k; ++j) {
    const alignment_plan al = plan_alignment(r, A, t, j);
    in_at[std::size_t(j)] = region[std::size_t(j)] + al.pad;
    std::size_t below = 0, m = 0;
    for (int q = 0; q < p; ++q) {
      m += t.sends(q, r, j);
      if (q < r) below += t.sends(q, r, j);
    }
    base[std::size_t(j) + 1] = base[std::size_t(j)] + m;
    below_r[std::size_t(j)] = below;
    exchange_round(c, L, t, j, from, in_at[std::size_t(j)], al, xs.s);
    ctx.check(cudaEventRecord(arrived[std::size_t(j)].e, xs.s), "cudaEventRecord");
  }
  ctx.check(cudaEventRecord(exchanged, xs.s), "cudaEventRecord");

  // ---- finish: round j as it lands ---------------------------------------------------
  for (int j = 0; j < k; ++j) {
    const std::size_t at = base[std::size_t(j)], m = base[std::size_t(j) + 1] - at, own = t.sends(r, r, j);
    const std::size_t mine = from[std::size_t(r * k + j)];
    const C* src_k = L.recv_k + in_at[std::size_t(j)];
    const std::uint8_t* src_v = L.recv_v + in_at[std::size_t(j)] * vs;
    if (own == m) {  // nothing arrives: the own share is the round
      src_k = L.part_k + mine;
      src_v = L.part_v + mine * vs;
    } else {  // the own share joins the receipts (while they travel), in rank order
      const std::size_t to = in_at[std::size_t(j)] + below_r[std::size_t(j)];
      copy_items(ctx, L.part_k + mine, L.recv_k + to, L.part_v + mine * vs, L.recv_v + to * vs, vs, own, st);
      ctx.check(cudaStreamWaitEvent(st, arrived[std::size_t(j)].e, 0), "cudaStreamWaitEvent");
    }
    if (!runs_sorted) local_sort(src_k, out_k + at, src_v, out_v + at * vs, m);
    else if (own == m) copy_items(ctx, src_k, out_k + at, src_v, out_v + at * vs, vs, m, st);
    else {
      std::vector<std::size_t> len(static_cast<std::size_t>(p));
      for (int q = 0; q < p; ++q) len[std::size_t(q)] = t.sends(q, r, j);
      merge_sorted_runs(c, L, len, in_at[std::size_t(j)], at, run_pair<C>{L.recv_k, L.recv_v, L.run_k, L.run_v});
    }
  }
  // the sends read part until the last round ends
  ctx.check(cudaStreamWaitEvent(st, exchanged, 0), "cudaStreamWaitEvent");
}

}  // namespace gpusort::detail::multi
