// One rank's part of the multi-GPU sort (shard_sort.hpp): partition first,
// then exchange, then sort and merge what arrived. Included and instantiated
// only in the generated multi_<kind>.cu units.
//
//   partition  sample, gather, splitters, stable partition of the shard by
//              destination rank, counts (partition.cuh); every rank's counts
//              (and capacity) gathered and read on the host: the exchange's
//              sizes must be known there (NCCL takes host counts), so this
//              call synchronises its stream once and cannot be captured in a
//              CUDA graph
//   exchange   on a second stream, one group of sends and receives: rank q's
//              bucket r lands at rank r, ranks below r first, then those
//              above, in rank order (B keys from below, A from above)
//   sort       meanwhile the rank's own bucket (O keys) is sorted on the
//              caller's stream; after the exchange, the keys from above and
//              those from below (the library's stable local sort)
//   merge      own and above merged (ties: own first), then below and that
//              (ties: below first); every source rank's keys stay in input
//              order, so the result is the stable global order's r-th range
//
// A partial bit range, or values of a width with no payload type, take one
// stable sort of everything after the exchange instead (one_sort below).
//
// Buffers (one scratch allocation, temp_layout): part (the partitioned
// shard), recv (B + O + A <= capacity: below at [0, B), above at [B, B + A)
// as received, later own-and-above merged at [B, B + O + A)), run (own
// sorted at [B, B + O), above sorted at [B + O, ...)).
#pragma once

#include "core/gather.hpp"
#include "host/merge_window.hpp"
#include "multi/partition.cuh"
#include "multi/shard_sort.hpp"
#include "partition/count.cuh"
#include "partition/scatter.cuh"

#include <gpusort/detail/core/launch.cuh>
#include <gpusort/detail/core/payload.cuh>
#include <gpusort/detail/core/temp_layout.hpp>
#include <gpusort/gpusort.hpp>

#include <cub/device/device_scan.cuh>

#include <algorithm>
#include <cstdint>
#include <string>
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
  cut<U>* cuts;
  std::size_t* table;
  std::size_t* offsets;
  void* table_temp;
  std::size_t table_bytes = 0;
  std::uint64_t* counts;      // ranks counts + the capacity
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
  std::size_t bytes = 0;

  shard_layout(const shard_call<C>& c, void* base) {
    const int p = c.tx->size(), s = samples_per_rank(p);
    const std::size_t S = std::size_t(p) * std::size_t(s), n = c.n, cap = c.capacity, vs = c.val_size;
    const std::size_t tiles = (n + tuning::tile - 1) / tuning::tile, cells = std::size_t(p) * tiles;
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
    cuts = plan.take<cut<U>>(std::size_t(p));
    table = plan.take<std::size_t>(cells);
    offsets = plan.take<std::size_t>(cells);
    table_temp = plan.take<std::uint8_t>(table_bytes);
    counts = plan.take<std::uint64_t>(std::size_t(p) + 1);
    all_counts = plan.take<std::uint64_t>(std::size_t(p) * (std::size_t(p) + 1));
    part_k = plan.take<C>(n);
    part_v = plan.take<std::uint8_t>(n * vs);
    recv_k = plan.take<C>(cap);
    recv_v = plan.take<std::uint8_t>(cap * vs);
    run_k = plan.take<C>(cap);
    run_v = plan.take<std::uint8_t>(cap * vs);
    for (auto& x : index) x = plan.take<std::uint64_t>(moves_by_index(c) ? n : 0);
    local_temp = plan.take<std::uint8_t>(local_bytes);
    splits = plan.take<std::size_t>(host::merge_runs_splits<C>(cap, vs));
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
// The exchange's stream has the device's highest priority: its copy blocks
// take SMs before the own bucket's sort, which would otherwise fill them
// and leave NVLink idle.
struct owned_stream {
  cudaStream_t s = nullptr;
  explicit owned_stream(const call_context& ctx) {
    int least = 0, greatest = 0;
    ctx.check(cudaDeviceGetStreamPriorityRange(&least, &greatest), "cudaDeviceGetStreamPriorityRange");
    ctx.check(cudaStreamCreateWithPriority(&s, cudaStreamNonBlocking, greatest), "cudaStreamCreateWithPriority");
  }
  ~owned_stream() { cudaStreamDestroy(s); }
  owned_stream(const owned_stream&) = delete;
  owned_stream& operator=(const owned_stream&) = delete;
};

// partition: count, scan, scatter (keys and values of payload P)
template <class C, class P>
void partition_shard(const shard_call<C>& c, const shard_layout<C>& L, std::size_t tiles, const void* vin,
                     void* vout) {
  using U = typename key_traits<C>::bits;
  const call_context& ctx = *c.ctx;
  const int p = c.tx->size();
  const shard_policy<U, no_value> counting{L.cuts, p, c.n, tiles, L.table};
  partition::count_kernel<<<grid_for(tiles, 1), tuning::threads, 0, c.stream>>>(c.keys_in, c.ord, counting);
  ctx.check_launch("multi partition count");
  std::size_t scan_bytes = L.table_bytes;
  ctx.check(cub::DeviceScan::ExclusiveSum(L.table_temp, scan_bytes, L.table, L.offsets,
                                          std::int64_t(std::size_t(p) * tiles), c.stream),
            "cub::DeviceScan::ExclusiveSum (partition table)");
  const shard_policy<U, P> placing{L.cuts, p, c.n, tiles, L.offsets};
  partition::scatter_kernel<<<grid_for(tiles, 1), tuning::threads, 0, c.stream>>>(
      c.keys_in, static_cast<const P*>(vin), L.part_k, static_cast<P*>(vout), c.ord, placing);
  ctx.check_launch("multi partition scatter");
}

// What every rank sends every rank, read on the host: h[from][to], and each
// rank's capacity at h[from][p].
struct traffic {
  int p = 0;
  std::vector<std::uint64_t> h;
  std::size_t sends(int from, int to) const { return std::size_t(h[std::size_t(from) * (p + 1) + std::size_t(to)]); }
  std::size_t capacity(int q) const { return sends(q, p); }
};

// partition: sample, splitters, the stable partition by destination, and
// every rank's counts on the host (the call's one synchronisation; `done`
// marks it on the stream)
template <class C> traffic partition_and_count(const shard_call<C>& c, const shard_layout<C>& L, cudaEvent_t done) {
  using U = typename key_traits<C>::bits;
  const call_context& ctx = *c.ctx;
  transport& tx = *c.tx;
  const int p = tx.size();
  const std::uint32_t r = std::uint32_t(tx.rank());
  const std::size_t n = c.n, vs = c.val_size;
  cudaStream_t st = c.stream;
  const int s = samples_per_rank(p);
  const std::size_t S = std::size_t(p) * std::size_t(s);
  const std::size_t tiles = (n + tuning::tile - 1) / tuning::tile;
  constexpr int ST = tuning::small_threads;
  sample_kernel<<<unsigned((s + ST - 1) / ST), ST, 0, st>>>(c.keys_in, n, r, s, c.ord, L.mine);
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
  cuts_kernel<<<unsigned((p + ST - 1) / ST), ST, 0, st>>>(L.all, L.sidx[1], L.cumulative, S, p, r, L.cuts);
  ctx.check_launch("multi cuts");
  if (tiles > 0) {
    if (moves_by_index(c)) {  // positions move, then the values follow them
      launch_iota(ctx, L.index[0], true, n, st);
      partition_shard<C, std::uint64_t>(c, L, tiles, L.index[0], L.index[1]);
      launch_gather(ctx, c.vals_in, L.part_v, L.index[1], true, n, vs, st);
    } else {
      switch (vs) {
        case 0: partition_shard<C, no_value>(c, L, tiles, nullptr, nullptr); break;
        case 1: partition_shard<C, payload_of<1>::type>(c, L, tiles, c.vals_in, L.part_v); break;
        case 2: partition_shard<C, payload_of<2>::type>(c, L, tiles, c.vals_in, L.part_v); break;
        case 4: partition_shard<C, payload_of<4>::type>(c, L, tiles, c.vals_in, L.part_v); break;
        case 8: partition_shard<C, payload_of<8>::type>(c, L, tiles, c.vals_in, L.part_v); break;
        default: partition_shard<C, payload_of<16>::type>(c, L, tiles, c.vals_in, L.part_v); break;
      }
    }
  }
  counts_kernel<<<unsigned((p + 1 + ST - 1) / ST), ST, 0, st>>>(L.offsets, tiles, p, n, c.capacity, L.counts);
  ctx.check_launch("multi counts");
  const std::size_t row = std::size_t(p) + 1;
  tx.all_gather(L.counts, L.all_counts, row * sizeof(std::uint64_t), st);
  traffic t;
  t.p = p;
  t.h.resize(std::size_t(p) * row);
  ctx.check(cudaMemcpyAsync(t.h.data(), L.all_counts, t.h.size() * sizeof(std::uint64_t), cudaMemcpyDeviceToHost, st),
            "cudaMemcpyAsync(counts)");
  ctx.check(cudaEventRecord(done, st), "cudaEventRecord");
  ctx.check(cudaStreamSynchronize(st), "cudaStreamSynchronize(counts)");
  return t;
}

// This rank's receipts: B keys from lower ranks, O of its own, A from higher.
struct receipts {
  std::size_t B = 0, O = 0, A = 0;
  std::size_t own_at = 0;  // the own bucket's first key in the partitioned shard
  std::size_t total() const { return B + O + A; }
};

// exchange: one group of sends and receives on `xs`. Lower ranks' keys land
// at [0, B), in rank order; higher ranks' after them, at B (or at B + O when
// the own bucket joins them for one sort).
template <class C>
receipts exchange_buckets(const shard_call<C>& c, const shard_layout<C>& L, const traffic& t, bool single, cudaStream_t xs) {
  const int p = t.p, r = c.tx->rank();
  const std::size_t vs = c.val_size;
  receipts x;
  for (int q = 0; q < p; ++q)
    if (q < r) x.B += t.sends(q, r);
    else if (q > r) x.A += t.sends(q, r);
  x.O = t.sends(r, r);
  std::vector<transport::part> out_parts, in_parts;
  std::size_t at = 0, below = 0, above = single ? x.B + x.O : x.B;
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

// sort and merge: the own bucket while the exchange runs (`arrived` marks
// its end), then the receipts; `sorted` marks the sorts' end when timed
template <class C, class LocalSort>
void sort_receipts(const shard_call<C>& c, const shard_layout<C>& L, const receipts& x, bool single,
                   LocalSort& local_sort, cudaEvent_t arrived, cudaEvent_t sorted) {
  const call_context& ctx = *c.ctx;
  cudaStream_t st = c.stream;
  const std::size_t vs = c.val_size, B = x.B, O = x.O, A = x.A, T = x.total(), own = x.own_at;
  C* const out_k = c.keys_out;
  std::uint8_t* const out_v = static_cast<std::uint8_t*>(c.vals_out);
  if (single) {  // below, own, above in rank order in recv, then one stable sort
    ctx.check(cudaMemcpyAsync(L.recv_k + B, L.part_k + own, O * sizeof(C), cudaMemcpyDeviceToDevice, st),
              "cudaMemcpyAsync(own bucket)");
    if (vs)
      ctx.check(cudaMemcpyAsync(L.recv_v + B * vs, L.part_v + own * vs, O * vs, cudaMemcpyDeviceToDevice, st),
                "cudaMemcpyAsync(own values)");
    ctx.check(cudaStreamWaitEvent(st, arrived, 0), "cudaStreamWaitEvent");
    local_sort(L.recv_k, out_k, L.recv_v, out_v, T);
    if (c.timed) ctx.check(cudaEventRecord(sorted, st), "cudaEventRecord");
    return;
  }
  // own and above end up at `upper`: the output itself when nothing comes from below
  C* const upper_k = B > 0 ? L.recv_k + B : out_k;
  std::uint8_t* const upper_v = B > 0 ? L.recv_v + B * vs : out_v;
  const bool merge_upper = O > 0 && A > 0, merge_lower = B > 0 && O + A > 0;
  if (merge_upper) local_sort(L.part_k + own, L.run_k + B, L.part_v + own * vs, L.run_v + B * vs, O);
  else local_sort(L.part_k + own, upper_k, L.part_v + own * vs, upper_v, O);
  ctx.check(cudaStreamWaitEvent(st, arrived, 0), "cudaStreamWaitEvent");
  if (merge_upper) local_sort(L.recv_k + B, L.run_k + B + O, L.recv_v + B * vs, L.run_v + (B + O) * vs, A);
  else if (A > 0) local_sort(L.recv_k + B, upper_k, L.recv_v + B * vs, upper_v, A);
  if (merge_lower) local_sort(L.recv_k, L.recv_k, L.recv_v, L.recv_v, B);
  else if (B > 0) local_sort(L.recv_k, out_k, L.recv_v, out_v, B);
  if (c.timed) ctx.check(cudaEventRecord(sorted, st), "cudaEventRecord");
  // merge: own and above (ties: own first), then below and that (ties: below first)
  if (merge_upper)
    host::merge_runs<C>(ctx, L.run_k + B, upper_k, L.run_v + B * vs, upper_v, vs, O + A, O, L.splits, c.ord, st);
  if (merge_lower) host::merge_runs<C>(ctx, L.recv_k, out_k, L.recv_v, out_v, vs, T, B, L.splits, c.ord, st);
}

template <class C> void sort_shard(const shard_call<C>& c) {
  const call_context& ctx = *c.ctx;
  const int p = c.tx->size();
  const std::size_t n = c.n, vs = c.val_size;
  const shard_layout<C> L(c, c.temp);
  if (!c.temp) {
    *c.temp_bytes = L.bytes;
    return;
  }
  if (*c.temp_bytes < L.bytes)
    ctx.fail(errc::invalid_argument, "temp_bytes " + std::to_string(*c.temp_bytes) + " is below the " +
                                         std::to_string(L.bytes) + " bytes this call needs");
  cudaStream_t st = c.stream;
  auto local_sort = [&](const C* kin, C* kout, const std::uint8_t* vin, std::uint8_t* vout, std::size_t m) {
    if (m == 0) return;
    std::size_t b = L.local_bytes;
    (*c.local_sort)(L.local_temp, &b, kin, kout, vs ? vin : nullptr, vs ? vout : nullptr, m);
  };
  owned_event ev_start(ctx, c.timed), ev_part(ctx, c.timed), ev_x(ctx, c.timed), ev_sorted(ctx, c.timed),
      ev_end(ctx, c.timed);
  if (c.timed) ctx.check(cudaEventRecord(ev_start.e, st), "cudaEventRecord");
  if (p == 1) {  // one rank: the local sort is the whole sort
    if (n > c.capacity)
      ctx.fail(errc::invalid_argument, "rank 0 receives " + std::to_string(n) + " keys, over its capacity of " +
                                           std::to_string(c.capacity));
    local_sort(c.keys_in, c.keys_out, static_cast<const std::uint8_t*>(c.vals_in),
               static_cast<std::uint8_t*>(c.vals_out), n);
    c.out->count = n;
    c.out->counts.assign(1, n);
    if (c.timed) {
      ctx.check(cudaEventRecord(ev_end.e, st), "cudaEventRecord");
      ctx.check(cudaEventSynchronize(ev_end.e), "cudaEventSynchronize");
      ctx.check(cudaEventElapsedTime(&c.out->sort_ms, ev_start.e, ev_end.e), "cudaEventElapsedTime");
    }
    return;
  }

  // ---- partition ---------------------------------------------------------------
  const traffic t = partition_and_count(c, L, ev_part.e);
  // every rank checks every rank's capacity, so all of them stop together
  std::vector<std::size_t> totals(std::size_t(p), 0);
  for (int q = 0; q < p; ++q) {
    for (int from = 0; from < p; ++from) totals[std::size_t(q)] += t.sends(from, q);
    if (totals[std::size_t(q)] > t.capacity(q))
      ctx.fail(errc::invalid_argument, "rank " + std::to_string(q) + " receives " +
                                           std::to_string(totals[std::size_t(q)]) + " keys, over its capacity of " +
                                           std::to_string(t.capacity(q)) + " (see multi::output_capacity)");
  }

  // ---- exchange, then sort and merge -----------------------------------------------
  const bool single = one_sort(c);
  owned_stream xs(ctx);
  ctx.check(cudaStreamWaitEvent(xs.s, ev_part.e, 0), "cudaStreamWaitEvent");
  const receipts x = exchange_buckets(c, L, t, single, xs.s);
  ctx.check(cudaEventRecord(ev_x.e, xs.s), "cudaEventRecord");
  sort_receipts(c, L, x, single, local_sort, ev_x.e, ev_sorted.e);

  c.out->count = totals[std::size_t(c.tx->rank())];
  c.out->counts = totals;
  if (c.timed) {
    ctx.check(cudaEventRecord(ev_end.e, st), "cudaEventRecord");
    ctx.check(cudaEventSynchronize(ev_end.e), "cudaEventSynchronize");
    ctx.check(cudaEventElapsedTime(&c.out->partition_ms, ev_start.e, ev_part.e), "cudaEventElapsedTime");
    ctx.check(cudaEventElapsedTime(&c.out->exchange_ms, ev_part.e, ev_x.e), "cudaEventElapsedTime");
    ctx.check(cudaEventElapsedTime(&c.out->sort_ms, ev_part.e, ev_sorted.e), "cudaEventElapsedTime");
    ctx.check(cudaEventElapsedTime(&c.out->merge_ms, ev_sorted.e, ev_end.e), "cudaEventElapsedTime");
  }
}

}  // namespace gpusort::detail::multi
