// The benchmark loop for one key type: for each distribution and size,
// generate the input once, run every selected method on it (subject to the
// caps and to device memory), verify each output, and report the row.
// Segmented methods run on the segmented distributions (segN, segpowN), the
// others on the rest; a distribution no selected method runs on is passed
// over.
#pragma once

#include "device_env.hpp"
#include "methods.hpp"
#include "report.hpp"
#include "segments.hpp"

#include "harness/harness.hpp"

#include <cstdint>
#include <vector>

namespace gpusort::cli::bench {

class gpu_timer;

struct suite_config {
  std::vector<const method*> methods;  // in run order
  bool pairs = false;
  // Pairs' value (original index) width: 32 or 64. u64 values run for the
  // keys of GPUSORT_CLI_U64_VALUE_KEYS only (built_keys.hpp), and without
  // Thrust, cub_segmented and the CPU baselines, which are built for u32.
  int value_bits = 32;
  std::vector<std::uint64_t> sizes;
  std::vector<bench_dist> dists;
  int warmup = 2;
  int reps = 10;
  bool caps = true;  // apply max_n and the predicted-time limit
  std::uint64_t seed = 1;
  pivot_rule pivots = pivot_rule::sampled;  // for our sample sort
};

// `gpu` is null when there is no usable GPU (GPU methods are then skipped);
// it is cleared if the device fails beyond recovery mid-run. Explicitly
// instantiated for the 12 library keys, u32f32, i64f64, u128 and i128; the u64-value path
// only for the keys that have it.
template <class K>
void run_suite(const suite_config& cfg, gpu_timer*& gpu, reporter& rep);

}  // namespace gpusort::cli::bench
