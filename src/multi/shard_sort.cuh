// One rank's part of the multi-GPU sort (shard_sort.hpp). Partition first
// (this file), sort first (sort_first.cuh) or radix first (radix_first.cuh),
// as options::how asks; the steps they share are in shard_steps.cuh. Included and instantiated only in the
// generated multi_<kind>.cu units.
//
//   partition  splitters from samples of the unsorted shard, the stable
//              partition of the shard by destination rank and round
//              (partition.cuh; bucket q k + j is rank q's round j, k =
//              options::rounds), counts; every rank's counts read on the host
// In one round (k = 1), merged:
//   exchange   on a second stream, one group of sends and receives: rank q's
//              bucket r lands at rank r, ranks below r first, then those
//              above, in rank order (B keys from below, A from above)
//   sort       meanwhile the rank's own bucket (O keys) is sorted on the
//              caller's stream; after the exchange, the keys from above and
//              those from below (the library's stable local sort)
//   merge      own and above merged (ties: own first), then below and that
//              (ties: below first); every source rank's keys stay in input
//              order, so the result is the stable global order's r-th range
// In k > 1 rounds, sorted (rounds.cuh): round j's buckets travel while round
// j - 1's piece (every rank's keys of it, in rank order) is sorted into its
// place in the output: no merge, and only round 0's exchange is exposed.
// A partial bit range, or values of a width with no payload type, take the
// rounds' form whatever k (one stable sort a round).
//
// Buffers: part (the partitioned shard), recv (B + O + A <= capacity: below
// at [0, B), above at [B, B + A) as received, later own-and-above merged at
// [B, B + O + A); in rounds, round after round), run (own sorted at
// [B, B + O), above sorted at [B + O, ...)).
#pragma once

#include "multi/radix_first.cuh"
#include "multi/rounds.cuh"
#include "multi/shard_steps.cuh"
#include "multi/sort_first.cuh"
#include "partition/count.cuh"
#include "partition/scatter.cuh"

#include <cub/device/device_scan.cuh>

#include <cstdint>
#include <string>
#include <vector>

namespace gpusort::detail::multi {

// partition: count, scan, scatter (keys and values of payload P)
template <class C, class P>
void partition_shard(const shard_call<C>& c, const shard_layout<C>& L, int buckets, std::size_t tiles,
                     const void* vin, void* vout) {
  using U = typename key_traits<C>::bits;
  const call_context& ctx = *c.ctx;
  const shard_policy<U, no_value> counting{L.cuts, buckets, c.n, tiles, L.table};
  partition::count_kernel<<<grid_for(tiles, 1), tuning::threads, 0, c.stream>>>(c.keys_in, c.ord, counting);
  ctx.check_launch("multi partition count");
  std::size_t scan_bytes = L.table_bytes;
  ctx.check(cub::DeviceScan::ExclusiveSum(L.table_temp, scan_bytes, L.table, L.offsets,
                                          std::int64_t(std::size_t(buckets) * tiles), c.stream),
            "cub::DeviceScan::ExclusiveSum (partition table)");
  const shard_policy<U, P> placing{L.cuts, buckets, c.n, tiles, L.offsets};
  partition::scatter_kernel<<<grid_for(tiles, 1), tuning::threads, 0, c.stream>>>(
      c.keys_in, static_cast<const P*>(vin), L.part_k, static_cast<P*>(vout), c.ord, placing);
  ctx.check_launch("multi partition scatter");
}

// partition: splitters, the stable partition of the unsorted shard by
// destination rank and round (bucket q k + j: rank q's round j), and every
// rank's counts on the host (`done` marks them)
template <class C> traffic partition_and_count(const shard_call<C>& c, const shard_layout<C>& L, cudaEvent_t done) {
  const call_context& ctx = *c.ctx;
  const int buckets = c.tx->size() * rounds_of(c);
  const std::size_t n = c.n, vs = c.val_size;
  cudaStream_t st = c.stream;
  const std::size_t tiles = (n + tuning::tile - 1) / tuning::tile;
  constexpr int ST = tuning::small_threads;
  find_cuts(c, L, c.keys_in, buckets);
  if (tiles > 0) {
    if (moves_by_index(c)) {  // positions move, then the values follow them
      launch_iota(ctx, L.index[0], true, n, st);
      partition_shard<C, std::uint64_t>(c, L, buckets, tiles, L.index[0], L.index[1]);
      launch_gather(ctx, c.vals_in, L.part_v, L.index[1], true, n, vs, st);
    } else {
      switch (vs) {
        case 0: partition_shard<C, no_value>(c, L, buckets, tiles, nullptr, nullptr); break;
        case 1: partition_shard<C, payload_of<1>::type>(c, L, buckets, tiles, c.vals_in, L.part_v); break;
        case 2: partition_shard<C, payload_of<2>::type>(c, L, buckets, tiles, c.vals_in, L.part_v); break;
        case 4: partition_shard<C, payload_of<4>::type>(c, L, buckets, tiles, c.vals_in, L.part_v); break;
        case 8: partition_shard<C, payload_of<8>::type>(c, L, buckets, tiles, c.vals_in, L.part_v); break;
        default: partition_shard<C, payload_of<16>::type>(c, L, buckets, tiles, c.vals_in, L.part_v); break;
      }
    }
  }
  counts_kernel<<<unsigned((buckets + 1 + ST - 1) / ST), ST, 0, st>>>(L.offsets, tiles, buckets, n, c.capacity,
                                                                     L.counts);
  ctx.check_launch("multi counts");
  return gather_counts(c, L, done);
}

// sort and merge (one round): the own bucket while the exchange runs
// (`arrived` marks its end), then the receipts; `sorted` marks the sorts'
// end when timed
template <class C, class LocalSort>
void sort_receipts(const shard_call<C>& c, const shard_layout<C>& L, const receipts& x, LocalSort& local_sort,
                   cudaEvent_t arrived, cudaEvent_t sorted) {
  const call_context& ctx = *c.ctx;
  cudaStream_t st = c.stream;
  const std::size_t vs = c.val_size, B = x.B, O = x.O, A = x.A, T = x.total(), own = x.own_at;
  C* const out_k = c.keys_out;
  std::uint8_t* const out_v = static_cast<std::uint8_t*>(c.vals_out);
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
    c.out->used = form::sort_first;
    if (c.timed) {
      ctx.check(cudaEventRecord(ev_end.e, st), "cudaEventRecord");
      ctx.check(cudaEventSynchronize(ev_end.e), "cudaEventSynchronize");
      ctx.check(cudaEventElapsedTime(&c.out->sort_ms, ev_start.e, ev_end.e), "cudaEventElapsedTime");
    }
    return;
  }

  const shard_events events{ev_start.e, ev_part.e, ev_x.e, ev_sorted.e, ev_end.e};
  if (tries_radix(c) && radix_first_shard(c, L, events)) return;
  if (sorts_first(c)) {
    sort_first_shard(c, L, local_sort, events);
    return;
  }
  c.out->used = form::partition_first;

  // ---- partition ---------------------------------------------------------------
  const traffic t = partition_and_count(c, L, ev_part.e);
  const std::vector<std::size_t> totals = check_capacities(c, t);

  c.out->count = totals[std::size_t(c.tx->rank())];
  c.out->counts = totals;

  // ---- in rounds: exchange, each round's piece sorted as it lands ------------------
  if (one_sort(c) || t.k > 1) {
    exchange_rounds(c, L, t, false, local_sort, ev_part.e, ev_x.e);
    if (c.timed)
      finish_times(ctx, st, ev_end.e, *c.out, {ev_start.e, ev_part.e}, {ev_part.e, ev_x.e}, {ev_part.e, ev_end.e},
                   {ev_end.e, ev_end.e});
    return;
  }

  // ---- in one round: exchange, then sort and merge --------------------------------
  owned_stream xs(ctx);
  ctx.check(cudaStreamWaitEvent(xs.s, ev_part.e, 0), "cudaStreamWaitEvent");
  const receipts x = exchange_buckets(c, L, t, xs.s);
  ctx.check(cudaEventRecord(ev_x.e, xs.s), "cudaEventRecord");
  sort_receipts(c, L, x, local_sort, ev_x.e, ev_sorted.e);

  if (c.timed)
    finish_times(ctx, st, ev_end.e, *c.out, {ev_start.e, ev_part.e}, {ev_part.e, ev_x.e}, {ev_part.e, ev_sorted.e},
                 {ev_sorted.e, ev_end.e});
}

}  // namespace gpusort::detail::multi
