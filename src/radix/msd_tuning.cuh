// radix_msd's one tuning struct, read by kernels and host alike.
//   pass    the MSD passes are onesweep passes (radix_onesweep::tuning):
//           the same tiles, 8-bit digits, look-back
//   local   the local sort: one block sorts a run of up to `local` keys in
//           shared memory (radix/block_sort.cuh, LSD over the run's
//           remaining digits). 512 threads; the tile is what two blocks an
//           SM hold with their values: 6144 keys of 8 bytes (48 KB, 96 KB
//           with 8-byte values), so that after two MSD passes the buckets of
//           2^28 uniform keys (4096 +- 64 keys each) all fit one block;
//           runs of up to half that (local_short) take half the tile.
#pragma once

#include <gpusort/detail/core/payload.cuh>
#include "radix/block_sort.cuh"
#include "radix/onesweep_tuning.cuh"

#include <cstddef>

namespace gpusort::detail::radix_msd {

template <class U, class P> struct tuning {
  using pass = radix_onesweep::tuning<U, P>;
  static constexpr int radix_bits = pass::radix_bits;
  static constexpr int bins = pass::bins;
  static constexpr int max_levels = pass::max_passes;

  static constexpr int element = int(sizeof(U)) + (is_no_value<P> ? 0 : int(sizeof(P)));
  static constexpr int local_threads = 512;
  // Two blocks an SM (64 registers, a few bytes spilled) but for 8-byte
  // values, whose local sort spills too much at 64 (u64 + u64 at 2^28:
  // 17.4 ms at one block an SM, 20.7 at two).
  static constexpr int local_min_blocks = !is_no_value<P> && sizeof(P) >= 8 ? 1 : 2;
  static constexpr int local_items = element <= 8 ? 12 : element <= 16 ? 12 : 6;
  using local = radix::block_sort_config<local_threads, local_items, radix_bits, U, P>;
  static constexpr std::size_t local_keys = std::size_t(local::tile);
  // Runs of at most half the tile take a tile of half the items (every
  // pass ranks all slots of a tile, pads included). Children of more than
  // alone_keys are runs alone: a run of several children must sort by its
  // parent's digit too, and with that digit on top the split path's 16-bit
  // prefixes group about child / 256 keys each, every key counting its
  // group (2^27 uniform u64 pairs: children of ~2048, three a run, groups
  // of ~7). A child alone is ordered by its own two top digits (groups of
  // ~1) in at most 2 slots a key of the short tile. Smaller children are
  // packed into runs of up to the tile, as before (2^30 pairs: ~64 each).
  using local_short = radix::block_sort_config<local_threads, local_items / 2, radix_bits, U, P>;
  static constexpr std::size_t alone_keys = std::size_t(local_short::tile) / 2;
  // The local kernel asks its next run into L2 while it sorts this one
  // (msd_local.cuh local_kernel).
  static constexpr bool local_prefetch = true;
  // The counting path (msd_count.cuh): a prefix of count_bits bits, taken
  // while no prefix holds more than count_most keys.
  static constexpr int count_bits = 12;
  static constexpr unsigned count_most = 32;

  // The plan's choice between the MSD levels and plain LSD passes (the
  // same pass kernel over one bucket, the whole array), from the first
  // histogram, in units of one LSD pass over the keys (docs/perf/radix.md).
  // LSD costs one unit a digit that varies; MSD one for its first level,
  // msd_level for each later level times the share of keys still in
  // buckets over a local sort, and msd_local for the local sort. msd_local
  // was 4 while the local sort took 8.5 ms for 2^28 u64 keys against 1.95
  // for a pass (H100); with the counting path it takes 2.4 ms for 2^27
  // against about 1.04, and of 4.0, 2.5 and 1.5 the last chose best (u32 +
  // u32 pairs at 2^28: the levels, 8.86 ms, where the others took LSD mode,
  // 10.4; no other row moved). LSD mode only for n <= lsd_max_keys (one
  // bucket's look-back counts in 30 bits).
  // With the third level's share in the plan (msd_levels.cuh), 8-byte keys
  // without values took the levels where they lose: unit doubles 8.58 ->
  // 9.33 ms, integers in doubles 8.37 -> 9.57, i64 timestamps 6.58 -> 7.25
  // (2^27, H100), while normal doubles gain a little (8.57 -> 8.29) and
  // every pairs row gains (f64 normal + u32 13.13 -> 10.09). Their levels
  // cost more than those of pairs: the local sort of normal doubles' runs
  // took 3.56 ms, 3.3 LSD passes of theirs. So keys of 8 bytes alone count
  // 1.6 a level and 2.2 for the local sort, which keeps the three above in
  // LSD mode and normal doubles (cost 6.5 against 8) and uniform keys (4.8)
  // in the levels.
  static constexpr bool wide_keys_alone = sizeof(U) == 8 && is_no_value<P>;
  static constexpr float msd_level = wide_keys_alone ? 1.6f : 1.2f;
  static constexpr float msd_local = wide_keys_alone ? 2.2f : 1.5f;
  // Keys of one value (few unique keys, the heavy keys of a Zipf law) fill
  // buckets alone after a level or two, which are copied, not sorted on:
  // digits taken as independent do not show it, so the plan also sorts a
  // sample of the keys (sample_keys at even strides) and takes each run of
  // at least sample_run equal keys (a value of about sample_run / sample_keys
  // of the keys or more) as alone once the levels have split it from its
  // sorted neighbours. Such a bucket costs the next level's histogram and a
  // copy (msd_copy) instead of more levels and the local sort. The sample
  // (about 15 us: a read of sample_keys keys and a bitonic sort in one block)
  // is taken only where the histograms alone would choose the LSD passes.
  // Its counts of values seen once and twice also estimate how many values
  // the keys hold (msd_plan.hpp levels_to_one_value): where each fills more
  // than a local sort, no bucket is big once the levels have split them.
  static constexpr int sample_keys = 1024;
  static constexpr int sample_run = 4;
  static constexpr float msd_copy = 1.25f;
  static constexpr std::size_t lsd_max_keys = std::size_t(1) << 28;
  // LSD passes over ordered - least (radix::pass_key) first read the keys
  // once more for the offset digits' histogram: about a quarter of a pass
  // (one read of the keys against a pass's read and write plus ranking).
  static constexpr float offset_histogram = 0.25f;

  // list, triage and file kernels: one warp a bucket
  static constexpr int list_threads = 256;
  // the histogram of a level's buckets: onesweep's histogram shape
  static constexpr int hist_threads = pass::hist_threads;
  static constexpr int hist_items = pass::hist_items;
  static constexpr int hist_blocks_per_sm = pass::hist_blocks_per_sm;
};

}  // namespace gpusort::detail::radix_msd
