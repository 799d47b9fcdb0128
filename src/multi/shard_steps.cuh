// The steps both forms of one rank's multi-GPU sort share (shard_sort.cuh
// runs them partition first, sort_first.cuh sort first):
//   scratch    shard_layout: one allocation, sized (base null) and carved
//              by the same code (temp_layout)
//   splitters  find_cuts: tagged samples of an array of this rank's keys
//              (partition.cuh's sample_kernel), gathered from every rank,
//              sorted, weighed; each splitter as this rank's cut (plan.hpp)
//   counts     gather_counts: every rank's counts (and capacity) gathered
//              and read on the host: the exchange's sizes must be known
//              there (NCCL takes host counts), so this synchronises the
//              stream (radix first's digit counts and its automatic
//              estimate do too: radix_first.cuh), and the call cannot be
//              captured in a CUDA graph; check_capacities: every rank
//              checks every rank's, so all of them stop together
//   exchange   exchange_buckets: on a second stream, one group of sends and
//              receives: rank q's bucket r lands at rank r in rank order
//              (partition first's merged form; in rounds: rounds.cuh)
//
// Buffers: part (this rank's keys in bucket order: partitioned, or sorted),
// recv (what arrives, <= capacity), run (sorted runs, or a merge round's
// output), the local sort's scratch, the merges' split points.
#pragma once

#include "core/gather.hpp"
#include "host/merge_window.hpp"
#include "multi/digit_plan.hpp"
#include "multi/exchange_plan.hpp"
#include "multi/partition.cuh"
#include "multi/shard_sort.hpp"

#include <gpusort/detail/core/launch.cuh>
#include <gpusort/detail/core/payload.cuh>
#include <gpusort/detail/core/temp_layout.hpp>
#include <gpusort/gpusort.hpp>

#include <cub/device/device_scan.cuh>

#include <algorithm>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace gpusort::detail::multi {

// Values that cannot travel as a payload (a width with no payload type, or
// arrays not aligned to it: payload.cuh's rule) are partitioned as their
// positions, then gathered.
template <class C> bool moves_by_index(const shard_call<C>& c) {
  return c.val_size != 0 && !travels_as_payload(c.val_size, c.vals_in, c.vals_out);
}

// One sort after the exchange instead of sorts and merges: what the merges'
// full-range order cannot do (a partial bit range) or cannot move (values
// that move by index). The own bucket is copied into its place between
// the lower and the higher ranks' keys while they arrive, and the library's
// stable sort of the whole keeps every source rank's keys in input order.
template <class C> bool one_sort(const shard_call<C>& c) { return !c.ord.full_range() || moves_by_index(c); }

// The exchange's rounds (rounds.cuh): sort first's as asked; partition
// first's as asked too (its pieces: p k buckets, each sorted as it lands),
// as many as the partition's buckets allow (max_ranks)
template <class C> bool sorts_first(const shard_call<C>& c) { return c.how != form::partition_first && !one_sort(c); }
// Whether radix first (radix_first.cuh) may run: asked for, or automatic in
// one round; over several ranks, an order of every bit and values that
// travel as a payload. It falls back to sort first, whose rounds it takes.
template <class C> bool tries_radix(const shard_call<C>& c) {
  return c.tx->size() > 1 && !one_sort(c) &&
         (c.how == form::radix_first || (c.how == form::automatic && c.rounds == 1));
}
template <class C> int rounds_of(const shard_call<C>& c) {
  return sorts_first(c) ? c.rounds : std::max(1, std::min(c.rounds, max_ranks / c.tx->size()));
}

// The scratch of one rank's call; sized (base null) and carved by the same code.
template <class C> struct shard_layout {
  using U = typename key_traits<C>::bits;
  sample<U>* mine;
  sample<U>* all;
  U* skeys[2];
  std::uint32_t* sidx[2];
  void* order_temp;
  std::size_t order_bytes = 0;
  std::uint64_t* weights;
  std::uint64_t* cumulative;
  void* scan_temp;
  std::size_t scan_bytes = 0;
  cut<U>* cuts;               // ranks x rounds - 1
  std::uint64_t* split_at;    // sort first: the cuts' split points, 0 and n around them
  std::size_t* table;
  std::size_t* offsets;
  void* table_temp;
  std::size_t table_bytes = 0;
  std::uint64_t* counts;      // counts [rank][round], then the capacity
  std::uint64_t* all_counts;  // every rank's
  C* part_k;
  std::uint8_t* part_v;
  C* recv_k;
  std::uint8_t* recv_v;
  C* run_k;
  std::uint8_t* run_v;
  std::uint64_t* index[2];     // odd value widths: positions, partitioned (then values gathered)
  void* local_temp;
  std::size_t local_bytes = 0;
  std::size_t* splits;
  std::uint64_t* digit_counts;  // radix first: this rank's count of every top digit, then its capacity
  std::uint64_t* all_digits;    // every rank's
  std::uint64_t* segments;      // radix first: the lower bits' segments, begins then ends
  std::size_t bytes = 0;

  shard_layout(const shard_call<C>& c, void* base) {
    const int p = c.tx->size(), s = samples_per_rank(p), k = rounds_of(c);
    const std::size_t buckets = std::size_t(p) * std::size_t(k);
    const std::size_t S = std::size_t(p) * std::size_t(s), n = c.n, cap = c.capacity, vs = c.val_size;
    const std::size_t tiles = (n + tuning::tile - 1) / tuning::tile, cells = buckets * tiles;
    // the sizes of the sub-calls' scratch
    options order_opt;
    order_opt.stream = c.stream;
    sort_device<U>(nullptr, &order_bytes, stand_in<U>(0), stand_in<U>(1), stand_in<std::uint32_t>(2),
                   stand_in<std::uint32_t>(3), sizeof(std::uint32_t), S, order_opt, "multi sample order");
    c.ctx->check(cub::DeviceScan::InclusiveSum(nullptr, scan_bytes, stand_in<std::uint64_t>(0),
                                               stand_in<std::uint64_t>(0), std::int64_t(S), c.stream),
                 "cub::DeviceScan::InclusiveSum (sizing)");
    c.ctx->check(cub::DeviceScan::ExclusiveSum(nullptr, table_bytes, stand_in<std::size_t>(0),
                                               stand_in<std::size_t>(0), std::int64_t(cells), c.stream),
                 "cub::DeviceScan::ExclusiveSum (sizing)");
    // the local sorts take up to `cap` keys; the algorithm `automatic` picks
    // may change with n, so every size class up to cap is asked
    auto local = [&](std::size_t m) {
      for (int in_place = 0; in_place < 2; ++in_place) {
        std::size_t b = 0;
        (*c.local_sort)(nullptr, &b, stand_in<C>(0), stand_in<C>(in_place ? 0 : 1),
                        vs ? stand_in<std::uint8_t>(2) : nullptr, vs ? stand_in<std::uint8_t>(in_place ? 2 : 3) : nullptr,
                        m);
        local_bytes = std::max(local_bytes, b);
      }
    };
    if (p == 1) {  // one rank: its sort is the whole sort
      local(n);
      temp_layout plan(base);
      local_temp = plan.take<std::uint8_t>(local_bytes);
      bytes = plan.bytes();
      return;
    }
    local(cap);
    if (sorts_first(c)) local(n);  // sort first: the whole shard
    const bool radix = tries_radix(c);
    const std::size_t segment_bound = std::size_t(p) * std::size_t(top_digits);
    if (radix) {  // radix first: the partition, and the lower bits' segmented sorts
      constexpr int W = int(sizeof(C)) * 8;
      std::size_t b = 0;
      (*c.range_sort)(nullptr, &b, stand_in<C>(0), stand_in<C>(1), vs ? stand_in<std::uint8_t>(2) : nullptr,
                      vs ? stand_in<std::uint8_t>(3) : nullptr, n, W - top_bits, W);
      local_bytes = std::max(local_bytes, b);
      // 8-byte keys, and every width in rounds: the parts' (the rounds')
      // sorts below their constant top bits (0 to 8 of them), up to cap
      // keys (every size class, as the local sorts)
      auto part = [&](std::size_t m) {
        for (int common = 0; common <= top_bits; ++common) {
          if (W - common <= 0) continue;  // 1-byte keys of one digit: copied, not sorted
          std::size_t pb = 0;
          (*c.range_sort)(nullptr, &pb, stand_in<C>(0), stand_in<C>(1), vs ? stand_in<std::uint8_t>(2) : nullptr,
                          vs ? stand_in<std::uint8_t>(3) : nullptr, m, 0, W - common);
          local_bytes = std::max(local_bytes, pb);
        }
      };
      if (sizeof(C) == 8 || rounds_of(c) > 1) {
        part(cap);
        for (std::size_t m = 1; m <= cap && m != 0; m *= 2) part(m);
      }
      if (sizeof(C) > 1 && sizeof(C) <= 4) {
        b = 0;
        (*c.rest_sort)(nullptr, &b, stand_in<C>(0), stand_in<C>(1), vs ? stand_in<std::uint8_t>(2) : nullptr,
                       vs ? stand_in<std::uint8_t>(3) : nullptr, cap + align_room(1), segment_bound,
                       stand_in<std::uint64_t>(4), stand_in<std::uint64_t>(5));
        local_bytes = std::max(local_bytes, b);
      }
    }
    for (std::size_t m = 1; m <= cap && m != 0; m *= 2) {
      local(m);
      local(m - 1 ? m - 1 : 1);
    }
    // carve
    temp_layout plan(base);
    mine = plan.take<sample<U>>(std::size_t(s));
    all = plan.take<sample<U>>(S);
    for (int i = 0; i < 2; ++i) {
      skeys[i] = plan.take<U>(S);
      sidx[i] = plan.take<std::uint32_t>(S);
    }
    order_temp = plan.take<std::uint8_t>(order_bytes);
    weights = plan.take<std::uint64_t>(S);
    cumulative = plan.take<std::uint64_t>(S);
    scan_temp = plan.take<std::uint8_t>(scan_bytes);
    cuts = plan.take<cut<U>>(buckets);
    split_at = plan.take<std::uint64_t>(buckets + 1);
    table = plan.take<std::size_t>(cells);
    offsets = plan.take<std::size_t>(cells);
    table_temp = plan.take<std::uint8_t>(table_bytes);
    counts = plan.take<std::uint64_t>(buckets + 1);
    all_counts = plan.take<std::uint64_t>(std::size_t(p) * (buckets + 1));
    // recv and run: room for the rounds' alignment (exchange_plan.hpp).
    // Sort first shares two pairs of them (its footprint: about 3 capacities
    // beside the caller's input, against 5 without): its one local sort ends
    // before anything arrives, so recv lies in the local sort's scratch; and
    // in one round, the merge rounds' run starts once the exchange has read
    // the sorted shard, so run is part.
    const std::size_t rc = cap + align_room(k);
    const bool shares = sorts_first(c) && !radix, run_in_part = shares && k == 1;
    const std::size_t pn = run_in_part ? std::max(n, rc) : n;
    part_k = plan.take<C>(pn);
    part_v = plan.take<std::uint8_t>(pn * vs);
    if (run_in_part) {
      run_k = part_k;
      run_v = part_v;
    }
    if (shares) {
      const std::size_t recv_bytes = temp_layout::round_up(rc * sizeof(C)) + temp_layout::round_up(rc * vs);
      std::uint8_t* const shared = plan.take<std::uint8_t>(std::max(local_bytes, recv_bytes));
      local_temp = shared;
      temp_layout inner(shared);
      recv_k = inner.take<C>(rc);
      recv_v = inner.take<std::uint8_t>(rc * vs);
    } else {
      recv_k = plan.take<C>(rc);
      recv_v = plan.take<std::uint8_t>(rc * vs);
      local_temp = plan.take<std::uint8_t>(local_bytes);
    }
    if (!run_in_part) {
      run_k = plan.take<C>(rc);
      run_v = plan.take<std::uint8_t>(rc * vs);
    }
    for (auto& x : index) x = plan.take<std::uint64_t>(moves_by_index(c) ? n : 0);
    splits = plan.take<std::size_t>(host::merge_runs_splits<C>(cap, vs));
    digit_counts = plan.take<std::uint64_t>(radix ? digit_row : 0);
    all_digits = plan.take<std::uint64_t>(radix ? std::size_t(p) * digit_row : 0);
    segments = plan.take<std::uint64_t>(radix ? 2 * segment_bound : 0);
    bytes = plan.bytes();
  }
};

// A CUDA event (timing only when asked) and a stream, released on scope exit.
struct owned_event {
  cudaEvent_t e = nullptr;
  owned_event(const call_context& ctx, bool timing) {
    ctx.check(cudaEventCreateWithFlags(&e, timing ? cudaEventDefault : cudaEventDisableTiming), "cudaEventCreate");
  }
  ~owned_event() { cudaEventDestroy(e); }
  owned_event(const owned_event&) = delete;
  owned_event& operator=(const owned_event&) = delete;
};
struct owned_stream {
  cudaStream_t s = nullptr;
  explicit owned_stream(const call_context& ctx) {
    ctx.check(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking), "cudaStreamCreateWithFlags");
  }
  ~owned_stream() { cudaStreamDestroy(s); }
  owned_stream(const owned_stream&) = delete;
  owned_stream& operator=(const owned_stream&) = delete;
};

// The events of one call (timing only when asked).
struct shard_events {
  cudaEvent_t start, part, x, sorted, end;
};
using interval = std::pair<cudaEvent_t, cudaEvent_t>;

// Records `end`, waits for it, and fills the phase times from their intervals.
inline void finish_times(const call_context& ctx, cudaStream_t st, cudaEvent_t end, shard_result& out,
                         interval partition, interval exchange, interval sort, interval merge) {
  ctx.check(cudaEventRecord(end, st), "cudaEventRecord");
  ctx.check(cudaEventSynchronize(end), "cudaEventSynchronize");
  for (auto [ms, i] : {std::pair{&out.partition_ms, partition}, {&out.exchange_ms, exchange}, {&out.sort_ms, sort},
                       {&out.merge_ms, merge}})
    ctx.check(cudaEventElapsedTime(ms, i.first, i.second), "cudaEventElapsedTime");
}

// splitters: samples of `keys` (this rank's n keys: the unsorted shard, or
// the sorted one, whose positions give the same tag order, the local sort
// being stable), gathered, sorted, weighed; L.cuts gets this rank's cuts
// between `buckets` equal shares
template <class C> void find_cuts(const shard_call<C>& c, const shard_layout<C>& L, const C* keys, int buckets) {
  using U = typename key_traits<C>::bits;
  const call_context& ctx = *c.ctx;
  transport& tx = *c.tx;
  const int p = tx.size();
  const std::uint32_t r = std::uint32_t(tx.rank());
  cudaStream_t st = c.stream;
  const int s = samples_per_rank(p);
  const std::size_t S = std::size_t(p) * std::size_t(s);
  constexpr int ST = tuning::small_threads;
  sample_kernel<<<unsigned((s + ST - 1) / ST), ST, 0, st>>>(keys, c.n, r, s, c.ord, L.mine);
  ctx.check_launch("multi sample");
  tx.all_gather(L.mine, L.all, std::size_t(s) * sizeof(sample<U>), st);
  sample_keys_kernel<<<grid_for(S, ST), ST, 0, st>>>(L.all, S, L.skeys[0], L.sidx[0]);
  ctx.check_launch("multi sample keys");
  {
    options order_opt;
    order_opt.stream = st;
    std::size_t b = L.order_bytes;
    sort_device<U>(L.order_temp, &b, L.skeys[0], L.skeys[1], L.sidx[0], L.sidx[1], sizeof(std::uint32_t), S,
                   order_opt, "multi sample order");
  }
  weights_kernel<<<grid_for(S, ST), ST, 0, st>>>(L.all, L.sidx[1], S, L.weights);
  ctx.check_launch("multi sample weights");
  std::size_t scan_bytes = L.scan_bytes;
  ctx.check(cub::DeviceScan::InclusiveSum(L.scan_temp, scan_bytes, L.weights, L.cumulative, std::int64_t(S), st),
            "cub::DeviceScan::InclusiveSum (sample weights)");
  cuts_kernel<<<unsigned((buckets + ST - 1) / ST), ST, 0, st>>>(L.all, L.sidx[1], L.cumulative, S, buckets, r, L.cuts);
  ctx.check_launch("multi cuts");
}

// counts: L.counts (this rank's p x k counts and its capacity) from every
// rank, on the host; `done` marks the end on the stream, which is synchronised
template <class C> traffic gather_counts(const shard_call<C>& c, const shard_layout<C>& L, cudaEvent_t done) {
  const call_context& ctx = *c.ctx;
  cudaStream_t st = c.stream;
  traffic t;
  t.p = c.tx->size();
  t.k = rounds_of(c);
  c.tx->all_gather(L.counts, L.all_counts, t.row() * sizeof(std::uint64_t), st);
  t.h.resize(std::size_t(t.p) * t.row());
  ctx.check(cudaMemcpyAsync(t.h.data(), L.all_counts, t.h.size() * sizeof(std::uint64_t), cudaMemcpyDeviceToHost, st),
            "cudaMemcpyAsync(counts)");
  ctx.check(cudaEventRecord(done, st), "cudaEventRecord");
  ctx.check(cudaStreamSynchronize(st), "cudaStreamSynchronize(counts)");
  return t;
}

// Every rank's total receipts; every rank checks every capacity, so all of
// them throw the same error before anything is exchanged.
template <class C> std::vector<std::size_t> check_capacities(const shard_call<C>& c, const traffic& t) {
  const int p = t.p;
  std::vector<std::size_t> totals(std::size_t(p), 0);
  for (int q = 0; q < p; ++q) {
    for (int from = 0; from < p; ++from) totals[std::size_t(q)] += t.sends(from, q);
    if (totals[std::size_t(q)] > t.capacity(q))
      c.ctx->fail(errc::invalid_argument, "rank " + std::to_string(q) + " receives " +
                                              std::to_string(totals[std::size_t(q)]) + " keys, over its capacity of " +
                                              std::to_string(t.capacity(q)) + " (see multi::output_capacity)");
  }
  return totals;
}

// This rank's receipts: B keys from lower ranks, O of its own, A from higher.
struct receipts {
  std::size_t B = 0, O = 0, A = 0;
  std::size_t own_at = 0;  // the own bucket's first key in the partitioned shard
  std::size_t total() const { return B + O + A; }
};

// exchange (partition first in one round, merged): one group of sends and
// receives on `xs`. Lower ranks' keys land at [0, B), in rank order; higher
// ranks' after them, at B.
template <class C>
receipts exchange_buckets(const shard_call<C>& c, const shard_layout<C>& L, const traffic& t, cudaStream_t xs) {
  const int p = t.p, r = c.tx->rank();
  const std::size_t vs = c.val_size;
  receipts x;
  for (int q = 0; q < p; ++q)
    if (q < r) x.B += t.sends(q, r);
    else if (q > r) x.A += t.sends(q, r);
  x.O = t.sends(r, r);
  std::vector<transport::part> out_parts, in_parts;
  std::size_t at = 0, below = 0, above = x.B;
  for (int q = 0; q < p; ++q) {
    const std::size_t m = t.sends(r, q);
    if (q == r) x.own_at = at;
    else if (m > 0) {
      out_parts.push_back({q, L.part_k + at, m * sizeof(C)});
      if (vs) out_parts.push_back({q, L.part_v + at * vs, m * vs});
    }
    at += m;
    const std::size_t k = t.sends(q, r);
    if (q == r || k == 0) continue;
    std::size_t& to = q < r ? below : above;
    in_parts.push_back({q, L.recv_k + to, k * sizeof(C)});
    if (vs) in_parts.push_back({q, L.recv_v + to * vs, k * vs});
    to += k;
  }
  c.tx->exchange(out_parts, in_parts, xs);
  return x;
}

}  // namespace gpusort::detail::multi
