// radix_msd's one tuning struct, read by kernels and host alike.
//   pass    the MSD passes are onesweep passes (radix_onesweep::tuning):
//           the same tiles, 8-bit digits, look-back
//   local   the local sort: one block sorts a run of up to `local` keys in
//           shared memory (radix/block_sort.cuh, LSD over the run's
//           remaining digits). 512 threads; the tile is what two blocks an
//           SM hold with their values: 6144 keys of 8 bytes (48 KB, 96 KB
//           with 8-byte values), so that after two MSD passes the buckets of
//           2^28 uniform keys (4096 +- 64 keys each) all fit one block.
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
  static constexpr int local_items = element <= 8 ? 12 : element <= 16 ? 12 : 6;
  using local = radix::block_sort_config<local_threads, local_items, radix_bits, U, P>;
  static constexpr std::size_t local_keys = std::size_t(local::tile);

  // list, triage and file kernels: one warp a bucket
  static constexpr int list_threads = 256;
  // the histogram of a level's buckets: onesweep's histogram shape
  static constexpr int hist_threads = pass::hist_threads;
  static constexpr int hist_items = pass::hist_items;
  static constexpr int hist_blocks_per_sm = pass::hist_blocks_per_sm;
};

}  // namespace gpusort::detail::radix_msd
