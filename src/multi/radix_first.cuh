// One rank's part of the multi-GPU sort, radix first (options::how; the
// automatic choice where the top digit balances the ranks): partition first
// whose partition is an MSD radix sort's first level (Stehle & Jacobsen,
// SIGMOD 2017; digit_plan.hpp), so that the partition is one stable radix
// pass and what follows sorts only the lower bits.
//
//   estimate   (automatic only) the samples' weights by top digit, gathered:
//              the digit cut's balance before any key moves; over 2% off
//              n / p, the call sorts first instead (sort_first.cuh)
//   partition  the shard stably by its top 8 rank bits (the library's
//              onesweep over that bit range: a histogram and one pass),
//              into part; each digit's count by binary search
//              (digit_counts_kernel); every rank's counts gathered, read on
//              the host; the cuts (digit_plan.hpp). A cut over 5% off n / p
//              or over a capacity: the call sorts first instead
//   exchange   on a second stream, one group of sends and receives (rounds.cuh's
//              exchange_round, its alignment): rank q's digits of this rank
//              land in recv in rank order
//   sort       meanwhile the own digits, from part into their place in run;
//              after the exchange, every other rank's, from recv into theirs.
//              Keys of up to 4 bytes: one segmented sort (segments: the
//              digit buckets) by the bits below the top digit; 8-byte keys:
//              the library's sort of each rank's run by the bits below those
//              its digits share (radix_msd's digits count from the top of
//              that range, so its first level still makes 256 buckets)
//   merge      the p sorted runs (merge_sorted_runs: ties to the lower rank),
//              from run into the output
//   in rounds  (options::rounds = k > 1) each rank's digits cut again into k
//              groups; round j moves group j, and what lands (every rank's
//              keys of the group, in rank order) is sorted by one stable
//              sort of the bits below the rank's common prefix straight into
//              its place in the output while round j + 1 travels: no merge
//              (rounds.cuh's exchange_rounds)
// Every step is stable and every source rank's keys keep their input order,
// so the result is the stable global order's r-th range.
#pragma once

#include "multi/digit_plan.hpp"
#include "multi/rounds.cuh"

#include <cstdint>
#include <vector>

namespace gpusort::detail::multi {

// The order of the top digit: the call's full-range order cut to its top
// 8 rank bits.
template <class C> key_order<C> top_order(const key_order<C>& o) {
  key_order<C> t = o;
  t.shift = unsigned(sizeof(C) * 8) - unsigned(top_bits);
  t.mask = typename key_traits<C>::bits(top_digits - 1);
  return t;
}

// counts[d]: the partitioned shard's keys of top digit d (the first key of
// each digit by binary search), counts[top_digits] the capacity. One block.
template <class C>
__global__ void __launch_bounds__(tuning::small_threads)
digit_counts_kernel(const C* keys, std::size_t n, key_order<C> top, std::uint64_t capacity, std::uint64_t* counts) {
  __shared__ std::uint64_t first[top_digits + 1];
  for (int d = int(threadIdx.x); d <= top_digits; d += int(blockDim.x)) {
    std::size_t lo = 0, hi = n;
    while (lo < hi) {
      const std::size_t mid = lo + (hi - lo) / 2;
      if (std::uint64_t(top.rank(top.encode(keys[mid]))) < std::uint64_t(d)) lo = mid + 1;
      else hi = mid;
    }
    first[d] = lo;
  }
  __syncthreads();
  for (int d = int(threadIdx.x); d <= top_digits; d += int(blockDim.x))
    counts[d] = d < top_digits ? first[d + 1] - first[d] : capacity;
}

// estimate: every rank's samples' weights by top digit; whether the digit
// cut would hold every rank within `tol` of n / p (one synchronisation)
template <class C> bool digits_look_balanced(const shard_call<C>& c, const shard_layout<C>& L, double tol) {
  using U = typename key_traits<C>::bits;
  const call_context& ctx = *c.ctx;
  const int p = c.tx->size(), s = samples_per_rank(p);
  const std::size_t S = std::size_t(p) * std::size_t(s);
  cudaStream_t st = c.stream;
  constexpr int ST = tuning::small_threads;
  sample_kernel<<<unsigned((s + ST - 1) / ST), ST, 0, st>>>(c.keys_in, c.n, std::uint32_t(c.tx->rank()), s, c.ord,
                                                            L.mine);
  ctx.check_launch("multi sample");
  c.tx->all_gather(L.mine, L.all, std::size_t(s) * sizeof(sample<U>), st);
  std::vector<sample<U>> all(S);
  ctx.check(cudaMemcpyAsync(all.data(), L.all, S * sizeof(sample<U>), cudaMemcpyDeviceToHost, st),
            "cudaMemcpyAsync(samples)");
  ctx.check(cudaStreamSynchronize(st), "cudaStreamSynchronize(samples)");
  std::vector<std::uint64_t> weight(std::size_t(top_digits), 0);
  constexpr int shift = int(sizeof(U) * 8) - top_bits;
  for (const sample<U>& x : all) weight[std::size_t(x.key >> shift)] += x.weight;
  return balanced(weight, digit_cuts(weight, p), p, tol);
}

// The segments of one rank's digits [d0, d1) whose keys start at `at`:
// appended to begin / end (offsets into the sort's arrays).
inline void digit_segments(const std::vector<std::uint64_t>& rows, int q, int d0, int d1, std::size_t at,
                           std::vector<std::uint64_t>& begin, std::vector<std::uint64_t>& end) {
  for (int d = d0; d < d1; ++d) {
    const std::uint64_t m = rows[std::size_t(q) * digit_row + std::size_t(d)];
    if (m == 0) continue;
    begin.push_back(at);
    end.push_back(at + m);
    at += m;
  }
}

// Radix first; false when the digit cut cannot balance the ranks (nothing
// has moved then, and the caller sorts first).
template <class C> bool radix_first_shard(const shard_call<C>& c, const shard_layout<C>& L, const shard_events& ev) {
  const call_context& ctx = *c.ctx;
  const int p = c.tx->size(), r = c.tx->rank();
  const std::size_t n = c.n, vs = c.val_size;
  cudaStream_t st = c.stream;
  constexpr bool by_segments = sizeof(C) <= 4;  // the lower bits in few passes; 8-byte keys: local sorts
  constexpr bool rest = sizeof(C) > 1;          // bits below the top digit
  if (c.how == form::automatic && !digits_look_balanced(c, L, radix_estimate_tol)) return false;

  // ---- partition: the shard by its top digit, every rank's digit counts --------------
  constexpr int W = int(sizeof(C)) * 8;
  auto range_sort = [&](const C* kin, C* kout, const std::uint8_t* vin, std::uint8_t* vout, std::size_t m, int lo,
                        int hi) {
    if (m == 0) return;
    std::size_t b = L.local_bytes;
    (*c.range_sort)(L.local_temp, &b, kin, kout, vs ? vin : nullptr, vs ? vout : nullptr, m, lo, hi);
  };
  range_sort(c.keys_in, L.part_k, static_cast<const std::uint8_t*>(c.vals_in), L.part_v, n, W - top_bits, W);
  digit_counts_kernel<C><<<1, tuning::small_threads, 0, st>>>(L.part_k, n, top_order(c.ord), c.capacity,
                                                              L.digit_counts);
  ctx.check_launch("multi digit counts");
  c.tx->all_gather(L.digit_counts, L.all_digits, digit_row * sizeof(std::uint64_t), st);
  std::vector<std::uint64_t> rows(std::size_t(p) * digit_row);
  ctx.check(cudaMemcpyAsync(rows.data(), L.all_digits, rows.size() * sizeof(std::uint64_t), cudaMemcpyDeviceToHost,
                            st),
            "cudaMemcpyAsync(digit counts)");
  ctx.check(cudaEventRecord(ev.part, st), "cudaEventRecord");
  ctx.check(cudaStreamSynchronize(st), "cudaStreamSynchronize(digit counts)");
  const std::vector<std::uint64_t> total = digit_totals(rows, p);
  const std::vector<int> cut = digit_cuts(total, p);
  if (!balanced(total, cut, p, radix_balance_tol)) return false;
  const traffic t = digit_traffic(rows, p, cut);
  std::vector<std::size_t> totals(std::size_t(p), 0);
  for (int q = 0; q < p; ++q) {
    for (int from = 0; from < p; ++from) totals[std::size_t(q)] += t.sends(from, q);
    if (totals[std::size_t(q)] > t.capacity(q)) return false;
  }
  c.out->count = totals[std::size_t(r)];
  c.out->counts = totals;
  c.out->used = form::radix_first;

  const int d0 = cut[std::size_t(r)], d1 = cut[std::size_t(r) + 1];
  // the top bits every key of these digits shares (the common prefix of the
  // first and the last digit) take no part in their sorts: 8-byte keys'
  // radix_msd then splits by the varying bits below them at its first level
  int common = top_bits;
  for (unsigned x = d1 > d0 ? unsigned(d0 ^ (d1 - 1)) : 0u; x != 0; x >>= 1) --common;
  auto sort_part = [&](const C* kin, C* kout, const std::uint8_t* vin, std::uint8_t* vout, std::size_t m) {
    if (W - common == 0) copy_items(ctx, kin, kout, vin, vout, vs, m, st);  // 1-byte keys of one digit
    else range_sort(kin, kout, vin, vout, m, 0, W - common);
  };

  // ---- in rounds: each group of digits sorted into its place as it lands ------------
  // rank q's digits cut again into k groups (digit_traffic_rounds); round j's
  // receipts (every rank's keys of group j, in rank order, each in input
  // order) are sorted by one stable sort into their place in the output
  // while round j + 1 travels (rounds.cuh). No merge.
  if (rounds_of(c) > 1) {
    const traffic tk = digit_traffic_rounds(rows, p, cut, rounds_of(c));
    exchange_rounds(c, L, tk, false, sort_part, ev.part, ev.x);
    if (c.timed) {
      ctx.check(cudaEventRecord(ev.sorted, st), "cudaEventRecord");
      finish_times(ctx, st, ev.end, *c.out, {ev.start, ev.part}, {ev.part, ev.x}, {ev.part, ev.sorted},
                   {ev.sorted, ev.end});
    }
    return true;
  }

  // ---- exchange, beside the own digits' sort -----------------------------------------
  const std::vector<std::size_t> from = share_starts(t, r);
  const alignment_plan al = plan_alignment(r, align_items(sizeof(C), vs), t, 0);
  const std::size_t in_at = al.pad;  // the receipts' first key in recv (and run)
  std::vector<std::size_t> run_at(std::size_t(p) + 1, in_at);  // rank q's run at [run_at[q], run_at[q + 1])
  for (int q = 0; q < p; ++q) run_at[std::size_t(q) + 1] = run_at[std::size_t(q)] + t.sends(q, r);
  owned_stream xs(ctx);
  ctx.check(cudaStreamWaitEvent(xs.s, ev.part, 0), "cudaStreamWaitEvent");
  exchange_round(c, L, t, 0, from, in_at, al, xs.s);
  ctx.check(cudaEventRecord(ev.x, xs.s), "cudaEventRecord");

  const std::size_t O = t.sends(r, r), mine = from[std::size_t(r)];
  C* const own_k = L.run_k + run_at[std::size_t(r)];
  std::uint8_t* const own_v = L.run_v + run_at[std::size_t(r)] * vs;
  // the segments: the own digits (from 0 of the own part), then every other
  // rank's (from 0 of recv), uploaded in one copy
  std::vector<std::uint64_t> begin, end;
  std::size_t own_segments = 0;
  if (by_segments && rest) {
    digit_segments(rows, r, d0, d1, 0, begin, end);
    own_segments = begin.size();
    for (int q = 0; q < p; ++q)
      if (q != r) digit_segments(rows, q, d0, d1, run_at[std::size_t(q)], begin, end);
    const std::size_t segs = begin.size();
    if (segs > 0) {
      ctx.check(cudaMemcpyAsync(L.segments, begin.data(), segs * sizeof(std::uint64_t), cudaMemcpyHostToDevice, st),
                "cudaMemcpyAsync(segment begins)");
      ctx.check(cudaMemcpyAsync(L.segments + segs, end.data(), segs * sizeof(std::uint64_t), cudaMemcpyHostToDevice,
                                st),
                "cudaMemcpyAsync(segment ends)");
    }
  }
  auto sort_segments = [&](const C* kin, C* kout, const std::uint8_t* vin, std::uint8_t* vout, std::size_t m,
                           std::size_t first, std::size_t count) {
    if (count == 0) return;
    std::size_t b = L.local_bytes;
    (*c.rest_sort)(L.local_temp, &b, kin, kout, vs ? vin : nullptr, vs ? vout : nullptr, m, count,
                   L.segments + first, L.segments + begin.size() + first);
  };

  // ---- sort: the own digits while the exchange runs, then the receipts -------------
  if (!rest) copy_items(ctx, L.part_k + mine, own_k, L.part_v + mine * vs, own_v, vs, O, st);
  else if (by_segments) sort_segments(L.part_k + mine, own_k, L.part_v + mine * vs, own_v, O, 0, own_segments);
  else sort_part(L.part_k + mine, own_k, L.part_v + mine * vs, own_v, O);
  ctx.check(cudaStreamWaitEvent(st, ev.x, 0), "cudaStreamWaitEvent");
  if (by_segments && rest) {
    sort_segments(L.recv_k, L.run_k, L.recv_v, L.run_v, run_at[std::size_t(p)], own_segments,
                  begin.size() - own_segments);
  } else {
    for (int q = 0; q < p; ++q) {
      const std::size_t a = run_at[std::size_t(q)], m = t.sends(q, r);
      if (q == r || m == 0) continue;
      if (!rest) copy_items(ctx, L.recv_k + a, L.run_k + a, L.recv_v + a * vs, L.run_v + a * vs, vs, m, st);
      else sort_part(L.recv_k + a, L.run_k + a, L.recv_v + a * vs, L.run_v + a * vs, m);
    }
  }
  if (c.timed) ctx.check(cudaEventRecord(ev.sorted, st), "cudaEventRecord");

  // ---- merge: the p runs, back to back in run, into the output ---------------------
  std::vector<std::size_t> len(static_cast<std::size_t>(p));
  for (int q = 0; q < p; ++q) len[std::size_t(q)] = t.sends(q, r);
  merge_sorted_runs(c, L, len, in_at, 0, run_pair<C>{L.run_k, L.run_v, L.recv_k, L.recv_v});
  if (c.timed)
    finish_times(ctx, st, ev.end, *c.out, {ev.start, ev.part}, {ev.part, ev.x}, {ev.part, ev.sorted},
                 {ev.sorted, ev.end});
  return true;
}

}  // namespace gpusort::detail::multi
