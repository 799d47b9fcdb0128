// radix_msd: the MSD-hybrid radix sort (Stehle & Jacobsen, SIGMOD 2017, "A
// Memory Bandwidth-Efficient Hybrid Radix Sort on GPUs"). An LSD sort of
// 64-bit keys makes 8 passes over them; this one makes as few as the keys
// need to fall into buckets that one block sorts on-chip:
//
//   1. first histogram   every digit's counts in one read (onesweep's
//                        histogram kernel): digits that all keys share are
//                        skipped (small integers in u64 start lower), and
//                        sorted input skips every digit (one copy run)
//   2. MSD levels        level j splits every bucket still larger than a
//                        local sort by digit D - 1 - j: histogram, triage,
//                        one onesweep pass over all of the level's buckets
//                        (each a look-back chain), file (msd_levels.cuh).
//                        All buckets of a level share its launches; every
//                        level is launched, and an empty one only runs its
//                        launches' blocks past the end of its lists
//   3. local sort        each run of small buckets is sorted by its
//                        remaining digits in one block (msd_local.cuh)
// LSD mode: when the first histogram says the MSD levels would not pay
// (few varying digits, as small integers in u64; skewed digits, as
// entropy-reduced keys: the plan kernel's cost model, msd_levels.cuh), the
// plan lists no MSD bucket and instead plans onesweep's passes over the
// whole array, one portion, by every varying digit from the lowest (a
// plain LSD radix sort, onesweep's launch plan and tiles). Both launch
// sequences are always made; the unchosen one's launches find no bucket
// or a skipped slot and leave.
// For 2^28 uniform u64 keys that is 2 MSD passes and the local sort:
// about 8 + 2 x (8 + 16) + 16 = 72 bytes a key against onesweep's 136.
// n <= one local sort: the local sort alone, one launch.
//
// Stable (every step is: the passes are onesweep's, the local sort LSD),
// so the result is bit for bit CUB's DeviceRadixSort. Keys and values move
// as the caller's bits. No host synchronisation: every list is on the
// device (core/work_queue.cuh's scheme), every grid is sized from n.
//
// Scratch (one temp_layout): the second key and value buffer, the first
// histogram and the counters (one memset), the level plan, the level's
// histogram rows, varying bits and bases, three bucket lists (two by level
// parity, one of the buckets a pass sorts) with their tile lists, one
// look-back table, the run list.
#pragma once

#include "core/problem.cuh"
#include "radix/msd_classes.cuh"
#include "radix/msd_ints.cuh"
#include "radix/msd_levels.cuh"
#include "radix/msd_plan_kernel.cuh"
#include "radix/msd_local.cuh"
#include "radix/msd_plan.hpp"
#include "radix/msd_tuning.cuh"
#include "radix/onesweep_histogram.cuh"
#include "radix/onesweep_pass.cuh"
#include "segmented/large.cuh"
#include "segmented/plan.hpp"

#include <gpusort/detail/core/launch.cuh>
#include <gpusort/detail/core/temp_layout.hpp>

#include <cstddef>
#include <cstdint>
#include <type_traits>

namespace gpusort::detail::radix_msd {

template <class K, class P> struct buffers {
  using U = typename key_traits<K>::bits;
  using T = tuning<U, P>;
  int levels = 0;
  bounds bound;
  std::size_t tile_bound = 0;
  U* keys_alt = nullptr;
  P* vals_alt = nullptr;
  unsigned* first_hist = nullptr;      // [pass][digit]
  queue_counter* counters = nullptr;   // listed[levels + 1], live[levels], runs
  unsigned* tiles = nullptr;           // [level]: the passes' tile ids
  unsigned* lsd_tiles = nullptr;       // [slot]: LSD mode's passes' tile ids
  int* first_level = nullptr;
  unsigned* hist2 = nullptr;           // [pass][digit] of the offset digits (radix::pass_key)
  radix_onesweep::key_span* span = nullptr;
  std::size_t zero_bytes = 0;          // first_hist .. first_level, zeroed at the start
  slot_plan* plan = nullptr;           // [level]
  unsigned* hist = nullptr;            // [bucket][digit]
  unsigned long long* varying = nullptr;
  unsigned long long* same = nullptr;  // [bucket]: keys equal to the first (msd_plan.hpp one_value_child)
  unsigned long long* one = nullptr;   // [bucket of the pass]: the same, for the file kernel
  unsigned long long* base = nullptr;  // [bucket][digit]
  segmented::list_scratch lists[3];    // by level parity; the pass's
  unsigned* lookback = nullptr;        // [tile][digit]
  run* runs = nullptr;
  run* folded = nullptr;  // doubles: the run with a -0.0, left by the local sort's held form (zeroed)
  // doubles over the full range: the class map (msd_classes.cuh)
  unsigned long long* class_count = nullptr;  // [class_codes::classes] (zeroed)
  unsigned* level_hist = nullptr;             // [pass][digit] of the mapped keys (zeroed)
  unsigned* class_ok = nullptr;               // the table was made (zeroed)
  std::uint16_t* class_entry = nullptr;       // [class_codes::classes]
  // 64-bit integers over the full range: the affine map (msd_ints.cuh),
  // level_hist then the levels' first histogram of c
  int_map* ints = nullptr;                    // (zeroed)
  bool lsd_allowed = false;            // LSD mode may be chosen (n <= lsd_max_keys)
  slot_plan* lsd_plan = nullptr;       // [levels + 1]
  unsigned long long* lsd_base = nullptr;  // [pass][digit]

  // The class map's keys: doubles in the order's full range.
  static bool maps_classes(const key_order<K>& ord) {
    return key_traits<K>::is_float && sizeof(U) == 8 && ord.full_range();
  }
  // The affine map's keys: 64-bit integers in the order's full range.
  static bool maps_ints(const key_order<K>& ord) {
    return !key_traits<K>::is_float && sizeof(U) == 8 && ord.full_range();
  }

  buffers(temp_layout& t, const sort_problem<K, P>& p) {
    levels = radix::pass_count(p.ord, T::radix_bits);
    bound = bounds(p.n, T::local_keys, T::alone_keys, levels);
    if (p.n <= T::local_keys) {
      counters = t.take<queue_counter>(1);
      runs = t.take<run>(1);
      return;
    }
    keys_alt = t.take<U>(p.n);
    if constexpr (!is_no_value<P>) vals_alt = t.take<P>(p.n);
    const std::size_t zero_at = t.bytes();
    first_hist = t.take<unsigned>(std::size_t(levels) * T::bins);
    counters = t.take<queue_counter>(std::size_t(2 * levels + 2));
    tiles = t.take<unsigned>(std::size_t(levels));
    lsd_tiles = t.take<unsigned>(std::size_t(levels) + 1);
    first_level = t.take<int>(1);
    span = t.take<radix_onesweep::key_span>(1);
    if constexpr (key_traits<K>::is_float && sizeof(U) == 8) folded = t.take<run>(1);
    if (radix::pass_key<K>::offsets_for(p.ord) && p.n <= T::lsd_max_keys)
      hist2 = t.take<unsigned>(std::size_t(levels) * T::bins);
    if (maps_classes(p.ord)) {
      class_count = t.take<unsigned long long>(class_codes::classes);
      level_hist = t.take<unsigned>(std::size_t(levels) * T::bins);
      class_ok = t.take<unsigned>(1);
    }
    if (maps_ints(p.ord)) {
      level_hist = t.take<unsigned>(std::size_t(levels) * T::bins);
      ints = t.take<int_map>(1);
    }
    zero_bytes = t.bytes() - zero_at;
    if (maps_classes(p.ord)) class_entry = t.take<std::uint16_t>(class_codes::classes);
    plan = t.take<slot_plan>(std::size_t(levels));
    hist = t.take<unsigned>(bound.buckets * T::bins);
    varying = t.take<unsigned long long>(bound.buckets);
    same = t.take<unsigned long long>(bound.buckets);
    one = t.take<unsigned long long>(bound.buckets);
    base = t.take<unsigned long long>(bound.buckets * T::bins);
    for (auto& l : lists) l = segmented::take_list(t, bound.buckets, p.n, T::pass::tile, T::pass::tile);
    tile_bound = p.n / T::pass::tile + bound.buckets + 1;
    lookback = t.take<unsigned>(tile_bound * T::bins);
    runs = t.take<run>(bound.runs);
    lsd_allowed = p.n <= T::lsd_max_keys;
    if (lsd_allowed) {
      lsd_plan = t.take<slot_plan>(std::size_t(levels) + 1);
      lsd_base = t.take<unsigned long long>(std::size_t(levels) * T::bins);
    }
  }
  queue_counter* listed() const { return counters; }
  queue_counter* live() const { return counters + levels + 1; }
  work_list<run> run_list() const {
    return keys_alt ? work_list<run>{runs, counters + 2 * levels + 1, bound.runs} : work_list<run>{runs, counters, 1};
  }
};

// Resets the tile counter and the look-back words of the pass's listed tiles.
template <int BINS>
__global__ void __launch_bounds__(256) clear_lookback_kernel(segment_list l, unsigned* lookback, unsigned* tiles) {
  wait_for_prior_grids();
  allow_dependents();
  const std::size_t words = std::size_t(l.first_tile[l.bound]) * BINS;
  const std::size_t stride = std::size_t(gridDim.x) * 256;
  for (std::size_t w = std::size_t(blockIdx.x) * 256 + threadIdx.x; w < words; w += stride) lookback[w] = 0;
  if (blockIdx.x == 0 && threadIdx.x == 0) *tiles = 0;
}

// Zeroes LSD mode's look-back table (tiles x BINS words) for a pass that
// sorts (its plan slot).
template <int BINS>
__global__ void __launch_bounds__(256) clear_portion_kernel(const slot_plan* slot, unsigned* lookback,
                                                            std::size_t tiles) {
  wait_for_prior_grids();
  allow_dependents();
  if (slot->mode != radix_onesweep::slot_sort) return;
  const std::size_t words = tiles * BINS;
  const std::size_t stride = std::size_t(gridDim.x) * 256;
  for (std::size_t w = std::size_t(blockIdx.x) * 256 + threadIdx.x; w < words; w += stride) lookback[w] = 0;
}

template <int BINS> __global__ void seed_kernel(run* runs, queue_counter* count, run r) {
  runs[0] = r;
  *count = 1;
}

struct family {
  static constexpr algorithm id = algorithm::radix_msd;
  static constexpr bool compares = false;
  static constexpr unsigned value_widths = index_value_widths;

  template <class K, class P> static std::size_t temp_bytes(const sort_problem<K, P>& p) {
    temp_layout t;
    buffers<K, P> b(t, p);
    return t.bytes();
  }

  template <class K, class P> static void sort(const sort_problem<K, P>& p, void* temp) {
    using U = typename key_traits<K>::bits;
    using T = tuning<U, P>;
    const call_context& ctx = *p.ctx;
    if (p.n == 0) return;
    temp_layout t(temp);
    const buffers<K, P> b(t, p);
    const key_buffers<U> keys{reinterpret_cast<const U*>(p.keys_in), reinterpret_cast<U*>(p.keys_out), b.keys_alt};
    const value_buffers<P> vals{p.vals_in, p.vals_out, b.vals_alt};
    const work_list<run> runs = b.run_list();
    const unsigned sms = sm_count(ctx);
    // the levels' and LSD mode's kernels (about 80 a sort, most of them
    // small) as programmatic dependent launches where the device takes them
    const bool dependent = dependent_launches(ctx);
    // integers: no NaN to fold; narrower floats spill little either way and
    // keep one instance (build time); doubles: the instance without the NaN
    // test (their spills: local_kernel), which holds the keys as ordered bits,
    // for CUB's order, and under NaNs largest for every run but the edge one,
    // where the NaNs lie; then the folding instance, in one launch, sorts the
    // edge run (run_share) and the run with a -0.0 the other left (folded)
    constexpr bool split_nans = key_traits<K>::is_float && sizeof(K) == 8;
    auto local = local_kernel<T, K, P, key_traits<K>::is_float && !split_nans>;
    auto edge_local = local;
    if constexpr (split_nans) edge_local = local_kernel<T, K, P, true, false, true>;
    const bool nan_edge = split_nans && p.ord.nans_largest();
    const run_share share{nan_edge, p.ord.flip != 0, p.n};
    constexpr std::size_t local_shared = local_shared_bytes<T, U, P>();
    static_assert(local_shared <= local_shared_max, "msd_plan.hpp's bound on the local sort's shared memory");
    allow_shared_memory(ctx, local, local_shared, "cudaFuncSetAttribute(radix msd local sort)");

    if (p.n <= T::local_keys) {  // one local sort: the one run is the edge run, doubles' folding instance sorts it
      seed_kernel<T::bins><<<1, 1, 0, p.stream>>>(b.runs, b.counters, run{0, p.n, b.levels, radix_onesweep::buf_in});
      ctx.check_launch("radix msd seed");
      if (split_nans) allow_shared_memory(ctx, edge_local, local_shared, "cudaFuncSetAttribute(radix msd local sort)");
      (split_nans ? edge_local : local)<<<1, T::local_threads, local_shared, p.stream>>>(
          keys, vals, runs, p.ord, nullptr, split_nans ? run_share{true, p.ord.flip != 0, p.n} : share, nullptr);
      return ctx.check_launch("radix msd local sort");
    }

    ctx.check(cudaMemsetAsync(b.first_hist, 0, b.zero_bytes, p.stream), "cudaMemsetAsync(radix msd counters)");
    // 1. first histogram, plan, level 0
    radix_onesweep::pass_digits<K, T::pass::max_passes> digits{};
    digits.passes = b.levels;
    digits.ord = p.ord;
    for (int i = 0; i < b.levels; ++i) digits.pass[i] = radix::digit_map<K>::of(p.ord, T::radix_bits, i);
    // the histograms' grid, onesweep's: its resident blocks once per hist_wave keys
    const std::size_t hist_waves = (p.n + T::pass::hist_wave - 1) / T::pass::hist_wave;
    const unsigned hist_grid = grid_for(p.n, std::size_t(T::hist_threads) * T::hist_items,
                                        std::size_t(sms) * T::hist_blocks_per_sm * hist_waves);
    // doubles: the class map (msd_classes.cuh): the gate on a sample first;
    // where it chose the map, the classes counted (with the sorted-input
    // watch, no digit), the table, the levels' first histogram of the mapped
    // keys and the drop check; then, only where the map is not taken, the
    // ordered bits' first histogram (LSD mode needs it)
    bool first_done = false;
    if constexpr (key_traits<K>::is_float && sizeof(U) == 8) if (b.class_count) {
      static_assert(radix_onesweep::key_watch<U>::class_bits == class_codes::class_bits,
                    "the first histogram counts the class map's classes");
      using radix_onesweep::class_pass;
      const U* in = reinterpret_cast<const U*>(p.keys_in);
      const unsigned wide = grid_for(p.n, 256, std::size_t(sms) * 8);
      class_gate_kernel<K><<<1, class_gate::threads, 0, p.stream>>>(in, p.n, digits.pass[0], b.class_ok);
      ctx.check_launch("radix msd class gate");
      radix_onesweep::histogram_kernel<typename T::pass, K, false, class_pass::alone>
          <<<dim3(hist_grid, 1), T::hist_threads, 0, p.stream>>>(p.keys_in, p.n, p.n, digits, b.first_hist, b.span,
                                                                 b.class_count, b.class_ok);
      ctx.check_launch("radix msd class count");
      class_table_kernel<256><<<1, 256, 0, p.stream>>>(b.class_count, b.class_entry, b.class_ok, nan_class(p.ord));
      ctx.check_launch("radix msd class table");
      class_hist_kernel<K><<<wide, 256, 0, p.stream>>>(in, p.n, digits.pass[0], b.class_entry, b.class_ok,
                                                        b.level_hist);
      ctx.check_launch("radix msd class histogram");
      class_drop_kernel<256><<<1, 256, 0, p.stream>>>(b.level_hist, p.n, b.levels, b.class_ok);
      ctx.check_launch("radix msd class drop");
      radix_onesweep::histogram_kernel<typename T::pass, K, false, class_pass::unless_mapped>
          <<<dim3(hist_grid, 1), T::hist_threads, 0, p.stream>>>(p.keys_in, p.n, p.n, digits, b.first_hist, b.span,
                                                                 nullptr, b.class_ok);
      ctx.check_launch("radix msd first histogram");
      first_done = true;
    }
    if (!first_done) {
      radix_onesweep::histogram_kernel<typename T::pass, K><<<dim3(hist_grid, 1), T::hist_threads, 0, p.stream>>>(
          p.keys_in, p.n, p.n, digits, b.first_hist, b.span);
      ctx.check_launch("radix msd first histogram");
    }
    // 64-bit integers: the affine map from the keys' span, and the levels'
    // first histogram of c where it is taken
    if constexpr (!key_traits<K>::is_float && sizeof(U) == 8) if (b.ints) {
      int_hist_kernel<K><<<grid_for(p.n, 256, std::size_t(sms) * 8), 256, 0, p.stream>>>(
          reinterpret_cast<const U*>(p.keys_in), p.n, digits.pass[0], b.span, b.ints, b.level_hist);
      ctx.check_launch("radix msd integer map");
    }
    level_state s{b.plan, b.level_hist ? b.level_hist : b.first_hist, b.first_hist, b.class_entry, b.class_ok,
                  b.ints, b.level_hist, b.first_level, b.hist, b.varying, b.same, b.one, b.base, b.listed(), b.live(), runs,
                  b.levels, T::local_keys, T::alone_keys};
    const bool in_place = p.keys_in == p.keys_out || (!is_no_value<P> && p.vals_in == p.vals_out);
    const lsd_state lsd{b.lsd_plan, b.lsd_base, b.lsd_allowed, in_place, b.span, b.hist2 != nullptr};
    plan_kernel<T, K><<<1, T::bins, 0, p.stream>>>(s, b.lists[0].list, p.n, b.plan, lsd,
                                                reinterpret_cast<const U*>(p.keys_in), digits);
    ctx.check_launch("radix msd plan");
    if (b.hist2) {  // LSD passes over the offset digits, if the plan chose them
      radix_onesweep::histogram_kernel<typename T::pass, K, true><<<dim3(hist_grid, 1), T::hist_threads, 0,
                                                                     p.stream>>>(
          p.keys_in, p.n, p.n, digits, b.hist2, b.span);
      ctx.check_launch("radix msd offset histogram");
      radix_onesweep::offset_scan_kernel<typename T::pass><<<1, T::bins, 0, p.stream>>>(
          b.hist2, b.lsd_base, b.levels, 1, p.n, b.lsd_plan, b.levels + 1, in_place, b.span, false);
      ctx.check_launch("radix msd offset scan");
    }

    // LSD mode (the plan chose it, or every slot of its plan skips): every
    // varying digit from the lowest over the whole array, onesweep's tiles
    // (one portion: lsd_max_keys keys fit the look-back's 30-bit counts)
    if (b.lsd_allowed) {
      const std::size_t tiles = (p.n + T::pass::tile - 1) / T::pass::tile;
      const unsigned wide = grid_for(tiles * T::bins, 256, std::size_t(sms) * 8);
      for (int slot = 0; slot <= b.levels; ++slot) {
        const int pass_of = slot < b.levels ? slot : b.levels - 1;  // the extra slot only copies
        launch_dependent(ctx, dependent, clear_portion_kernel<T::bins>, wide, 256, 0, p.stream,
                         "launch of radix msd look-back clear", b.lsd_plan + slot, b.lookback, tiles);
        lsd_pass(p, b, slot, pass_of, tiles, dependent);
      }
    }

    // 2. the levels
    for (int j = 0; j < b.levels; ++j) {
      segmented::list_scratch at = b.lists[j % 2], next = b.lists[(j + 1) % 2], sorting = b.lists[2];
      at.list.bound = b.bound.at_level(j);
      next.list.bound = b.bound.at_level(j + 1);
      sorting.list.bound = at.list.bound;
      const std::size_t tiles = p.n / T::pass::tile + at.list.bound + 1;
      const unsigned wide = grid_for(tiles, 1, std::size_t(sms) * 8);
      const unsigned warps = grid_for(at.list.bound, 8, std::size_t(sms) * 8);
      segmented::plan_counted_list(ctx, b.listed() + j, at, T::pass::tile, p.stream, dependent);
      launch_dependent(ctx, dependent, clear_kernel<T::bins>, grid_for(at.list.bound * 256, 256, std::size_t(sms) * 8),
                       256, 0, p.stream, "launch of radix msd clear", s, at.list, j);
      const auto digit = radix::digit_map<K>::of(p.ord, T::radix_bits, b.levels - 1 - j);
      auto level_hist = histogram_kernel<T, K>;
      if constexpr (key_traits<K>::is_float)
        if (!p.ord.nans_largest()) level_hist = histogram_kernel<T, K, false>;
      launch_dependent(ctx, dependent, level_hist,
                       grid_for(tiles, 1, std::size_t(sms) * T::hist_blocks_per_sm), T::hist_threads, 0, p.stream,
                       "launch of radix msd histogram", keys, s, at.list, j, digit);
      launch_dependent(ctx, dependent, triage_kernel<K>, warps, 256, 0, p.stream, "launch of radix msd triage", s,
                       at.list, next.list, sorting.list, j, p.ord);
      segmented::plan_counted_list(ctx, b.live() + j, sorting, T::pass::tile, p.stream, dependent);
      launch_dependent(ctx, dependent, clear_lookback_kernel<T::bins>, wide, 256, 0, p.stream,
                       "launch of radix msd look-back clear", sorting.list, b.lookback, b.tiles + j);
      // one block a tile while the level's bucket bound is small next to
      // its tiles; else the resident grid taking tiles
      if (at.list.bound * 4 <= p.n / T::pass::tile)
        pass<false>(p, b, sorting.list, b.plan, j, b.base, b.tiles + j, digit, tiles, dependent);
      else
        pass<true>(p, b, sorting.list, b.plan, j, b.base, b.tiles + j, digit, tiles, dependent);
      launch_dependent(ctx, dependent, file_kernel<T::bins>, warps, 256, 0, p.stream, "launch of radix msd file", s,
                       sorting.list, next.list, j);
    }

    // 3. local sorts and copies
    // (64-bit integers: two instances, the one for the map's choice sorts)
    const unsigned grid = grid_for(b.bound.runs, 1, std::size_t(sms) * 4);
    launch_dependent(ctx, dependent, local, grid, T::local_threads, local_shared, p.stream,
                     "launch of radix msd local sort", keys, vals, runs, p.ord, b.ints, share, b.folded);
    if (split_nans) {  // the edge run (the grid reads the run list once) and the folded run
      allow_shared_memory(ctx, edge_local, local_shared, "cudaFuncSetAttribute(radix msd local sort)");
      launch_dependent(ctx, dependent, edge_local,
                       nan_edge ? grid_for(b.bound.runs, T::local_threads, std::size_t(sms) * 4) : 1u,
                       T::local_threads, local_shared, p.stream, "launch of radix msd local sort (folding)", keys,
                       vals, runs, p.ord, b.ints, share, b.folded);
    }
    if constexpr (!key_traits<K>::is_float && sizeof(U) == 8)
      if (b.ints) {
        const auto mapped = local_kernel<T, K, P, false, true>;
        allow_shared_memory(ctx, mapped, local_shared, "cudaFuncSetAttribute(radix msd local sort)");
        launch_dependent(ctx, dependent, mapped, grid, T::local_threads, local_shared, p.stream,
                         "launch of radix msd local sort", keys, vals, runs, p.ord, b.ints, run_share{},
                         static_cast<run*>(nullptr));
      }
  }

  // A pass's arguments: onesweep's pass kernel over geometry geo, by
  // plan[slot], sorting by digit (offset: the base radix::pass_key
  // subtracts, or null).
  template <class Geo, class K, class P>
  static radix_onesweep::pass_args<K, P, Geo> args(const sort_problem<K, P>& p, const buffers<K, P>& b,
                                                   const slot_plan* plan, int slot, const Geo& geo, unsigned* counter,
                                                   const radix::digit_map<K>& digit,
                                                   const unsigned long long* offset) {
    using U = typename key_traits<K>::bits;
    radix_onesweep::pass_args<K, P, Geo> a{};
    a.keys_in = reinterpret_cast<const U*>(p.keys_in);
    a.keys_out = reinterpret_cast<U*>(p.keys_out);
    a.keys_alt = b.keys_alt;
    a.vals_in = p.vals_in;
    a.vals_out = p.vals_out;
    a.vals_alt = b.vals_alt;
    a.plan = plan;
    a.slot = slot;
    a.geo = geo;
    a.next_base = nullptr;
    a.lookback = b.lookback;
    a.counter = counter;
    a.next_lookback = b.lookback;
    a.next_words = 0;
    a.digit = digit;
    a.pad = radix::pad_bits(p.ord);
    a.offset = offset;
    return a;
  }

  // One level's pass: onesweep's pass kernel over the listed buckets, by
  // plan[slot], bases base[bucket][digit].
  template <bool PERSISTENT, class K, class P>
  static void pass(const sort_problem<K, P>& p, const buffers<K, P>& b, const segment_list& l, const slot_plan* plan,
                   int slot, unsigned long long* base, unsigned* counter, const radix::digit_map<K>& digit,
                   std::size_t tiles, bool dependent) {
    using U = typename key_traits<K>::bits;
    using T = tuning<U, P>;
    using Geo = segmented::segment_chains<PERSISTENT>;
    const call_context& ctx = *p.ctx;
    // floats under CUB's order: the instance without the NaN fold's test
    // (pass_kernel_for), as LSD mode's passes; doubles under the class map:
    // the digits of the mapped keys (class_pass_key), without the fold; under
    // NaNs largest the folding instance is launched first, and of the two the
    // one the class count chose sorts (class_pass_key::leaves)
    auto kernel = radix_onesweep::pass_kernel_for<typename T::pass, K, P, Geo>(p.ord);
    auto folding = kernel;
    bool both = false;
    if constexpr (key_traits<K>::is_float && sizeof(U) == 8)
      if (b.class_entry) {
        kernel = radix_onesweep::onesweep_pass_kernel<typename T::pass, K, P, Geo, true, class_pass_key<K, false>>;
        folding = radix_onesweep::onesweep_pass_kernel<typename T::pass, K, P, Geo, true, class_pass_key<K, true>>;
        both = p.ord.nans_largest();
      }
    // 64-bit integers: the digits of c (int_pass_key; c = o where the map
    // is not taken)
    if constexpr (!key_traits<K>::is_float && sizeof(U) == 8)
      if (b.ints) kernel = radix_onesweep::onesweep_pass_kernel<typename T::pass, K, P, Geo, false, int_pass_key<K>>;
    constexpr std::size_t shared_bytes = radix_onesweep::pass_shared<typename T::pass, U, P>::bytes;
    allow_shared_memory(ctx, kernel, shared_bytes, "cudaFuncSetAttribute(radix msd pass)");
    const unsigned grid =
        PERSISTENT ? grid_for(tiles, 1, std::size_t(sm_count(ctx)) * T::pass::min_blocks) : unsigned(tiles);
    auto a = args(p, b, plan, slot, Geo{l, base}, counter, digit, nullptr);
    a.key_table = b.ints ? static_cast<const void*>(b.ints) : static_cast<const void*>(b.class_entry);
    a.key_table_ok = b.class_ok;
    if (both) {
      allow_shared_memory(ctx, folding, shared_bytes, "cudaFuncSetAttribute(radix msd pass)");
      launch_dependent(ctx, dependent, folding, grid, T::pass::threads, shared_bytes, p.stream,
                       "launch of radix msd pass", a);
    }
    launch_dependent(ctx, dependent, kernel, grid, T::pass::threads, shared_bytes, p.stream, "launch of radix msd pass",
                     a);
  }

  // One of LSD mode's passes, by lsd_plan[slot]: onesweep's pass over the
  // whole array as one portion, digit pass_of, by a persistent grid (in MSD
  // mode its few blocks read a skip and leave).
  template <class K, class P>
  static void lsd_pass(const sort_problem<K, P>& p, const buffers<K, P>& b, int slot, int pass_of,
                       std::size_t tiles, bool dependent) {
    using U = typename key_traits<K>::bits;
    using T = tuning<U, P>;
    using Geo = radix_onesweep::persistent_portion;
    const call_context& ctx = *p.ctx;
    const auto kernel = radix_onesweep::pass_kernel_for<typename T::pass, K, P, Geo>(p.ord);
    constexpr std::size_t shared_bytes = radix_onesweep::pass_shared<typename T::pass, U, P>::bytes;
    allow_shared_memory(ctx, kernel, shared_bytes, "cudaFuncSetAttribute(radix msd LSD pass)");
    Geo whole{};
    whole.start = 0;
    whole.n = unsigned(p.n);
    whole.base = b.lsd_base + std::size_t(pass_of) * T::bins;
    const unsigned grid = grid_for(tiles, 1, std::size_t(sm_count(ctx)) * T::pass::min_blocks);
    launch_dependent(ctx, dependent, kernel, grid, T::pass::threads, shared_bytes, p.stream,
                     "launch of radix msd LSD pass",
                     args(p, b, b.lsd_plan, slot, whole, b.lsd_tiles + slot,
                          radix::digit_map<K>::of(p.ord, T::radix_bits, pass_of), b.hist2 ? &b.span->base : nullptr));
  }
};

}  // namespace gpusort::detail::radix_msd
