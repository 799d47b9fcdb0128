// What `gpusort bench` can run: gpusort's GPU algorithms (and its
// segmented sort), the GPU peers (CUB radix, CUB merge, CUB segmented, each
// against the newest CUB and the toolkit's; Thrust) and the CPU baselines, with the caps that keep the default suite
// within a few minutes. The one place that lists our algorithm names and the
// one table of caps.
#pragma once

#include "bench/peers/cub_build.hpp"

#include <gpusort/gpusort.hpp>

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace gpusort::cli::bench {

// host: a sort of host memory through the GPU (copies included).
enum class method_kind { ours, gpu_peer, cpu, host };
enum class peer { none, cub_radix, cub_merge, cub_segmented, thrust, std_sort, cpu_parallel, gnu_parallel, ips4o, cpu_merge_recursive, cpu_merge_iterative,
                  host_pinned, host_pageable, host_naive_pinned, host_naive_pageable };

struct method {
  std::string name;  // as in the table and CSV: "bitonic", "cub_radix", ...
  method_kind kind;
  algorithm algo = algorithm::automatic;  // ours only
  peer which = peer::none;
  // The CUB peers: the CUB they are built against (peers/cub_build.hpp);
  // "cub_radix" is the newest's, "cub_radix_cuda" the toolkit's.
  cub_build cub = cub_build::latest;
  // A segmented sort (ours "segmented", cub_segmented): runs on the
  // segmented distributions (segN, segpowN) only, the others on the rest.
  bool segmented = false;
  // Largest n run (0: none), unless --no-caps.
  std::uint64_t max_n = 0;
  // A larger n is skipped when one run of it is predicted (from this
  // method's last run, scaling time as n^growth) to take over max_run_ms.
  double growth = 1.1;
  double max_run_ms = 1000;

  bool gpu() const { return kind != method_kind::cpu; }
  // Whether equal keys keep their input order (checked for pairs).
  bool stable() const;
};

// Every method, in run order: cub_radix and cub_segmented first (the
// others' ratios refer to them; cub_radix_cuda and cub_segmented_cuda, the
// toolkit's CUB, follow each), then ours ("auto", the library's automatic
// choice, then the algorithms of the name list that the library's
// parse_algorithm knows, then "segmented"), the other peers, the CPU
// baselines, the host-memory rows (ours, then the naive copy + CUB + copy
// they are measured against).
const std::vector<method>& all_methods();
const method* find_method(std::string_view name);
// Our algorithm names, space separated ("odd_even bitonic").
std::string our_algorithm_names();
std::string all_method_names();
// The caps table for --help, one line per method.
std::string caps_summary();

}  // namespace gpusort::cli::bench
