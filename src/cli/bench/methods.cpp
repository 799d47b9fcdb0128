#include "methods.hpp"

#include "args.hpp"

#include <cstdio>
#include <string>

namespace gpusort::cli::bench {

namespace {

// gpusort's algorithm families, by the name parse_algorithm takes, after
// "auto" (algorithm::automatic, the library's own choice). A new family is
// benchmarked once its name is added here (and, if it needs one, a cap
// below).
constexpr std::string_view our_names[] = {
    "auto",
    "odd_even",        "bitonic",         "radix_split", "radix_tile", "radix_onesweep",
    "radix_msd",       "merge_recursive", "merge_bottom_up", "merge_path", "sample", "quick",
};

// The caps, so the default suite (2^10..2^28, 12 runs a point) finishes in a
// few minutes on an H200: a size cap where the work or the launch count
// explodes, and a limit on the predicted time of one run, so no point costs
// more than ~12 s (2 warm-up + 10 timed runs).
struct cap {
  std::string_view name;
  std::uint64_t max_n;
  double growth;      // run time ~ n^growth, to predict the next size
  double max_run_ms;  // predicted time per run above which larger n are skipped
};
constexpr std::uint64_t pow2(int k) { return std::uint64_t(1) << k; }
constexpr cap caps[] = {
    {"odd_even", pow2(18), 2.0, 1000},         // O(n^2) work, n phases
    {"bitonic", 0, 1.2, 1000},                 // O(n log^2 n)
    {"merge_recursive", pow2(26), 1.1, 1000},  // ~2n/tile launches: launch-bound
    {"merge_bottom_up", pow2(24), 1.1, 1000},  // the last merge is one thread's O(n) loop
    {"cub_radix", 0, 1.0, 1000},
    {"cub_radix_cuda", 0, 1.0, 1000},
    {"cub_merge", 0, 1.1, 1000},
    {"cub_merge_cuda", 0, 1.1, 1000},
    {"cub_segmented", 0, 1.0, 1000},
    {"cub_segmented_cuda", 0, 1.0, 1000},
    {"segmented", 0, 1.0, 1000},
    {"thrust", 0, 1.0, 1000},
    {"std_sort", pow2(22), 1.1, 1000},         // one thread
    {"cpu_merge_recursive", pow2(22), 1.1, 1000},  // one thread
    {"cpu_merge_iterative", pow2(22), 1.1, 1000},  // one thread
    {"cpu_parallel", pow2(27), 1.1, 1000},  // the CPU table's 1e8 keys
    {"gnu_parallel", pow2(27), 1.1, 1000},
    {"ips4o", pow2(27), 1.1, 1000},
    // host memory: copies at ~55 GB/s each way; the host table's 1e9 u64 keys
    {"host_pinned", 0, 1.0, 4000},
    {"host_pageable", 0, 1.0, 4000},
    {"host_naive_pinned", 0, 1.0, 4000},
    {"host_naive_pageable", 0, 1.0, 4000},
};
// Our families not in the table: no size cap, O(n log n)-like growth.
constexpr cap default_cap = {"", 0, 1.1, 1000};

const cap& cap_of(std::string_view name) {
  for (const auto& c : caps)
    if (c.name == name) return c;
  return default_cap;
}

method make(std::string name, method_kind kind, algorithm algo, peer which, bool segmented = false,
            cub_build cub = cub_build::latest) {
  const cap& c = cap_of(name);
  method m;
  m.name = std::move(name);
  m.kind = kind;
  m.algo = algo;
  m.which = which;
  m.segmented = segmented;
  m.cub = cub;
  m.max_n = c.max_n;
  m.growth = c.growth;
  m.max_run_ms = c.max_run_ms;
  return m;
}

std::vector<method> build() {
  std::vector<method> v;
  // Each CUB peer twice: the newest CUB (the name) and the toolkit's (_cuda).
  auto cub_peer = [&](const std::string& name, peer which, bool segmented = false) {
    v.push_back(make(name, method_kind::gpu_peer, algorithm::automatic, which, segmented, cub_build::latest));
    v.push_back(make(name + "_cuda", method_kind::gpu_peer, algorithm::automatic, which, segmented, cub_build::cuda));
  };
  cub_peer("cub_radix", peer::cub_radix);
  cub_peer("cub_segmented", peer::cub_segmented, true);
  for (auto name : our_names) {
    algorithm a{};
    if (!parse_algorithm(name, a)) {
      std::fprintf(stderr, "gpusort bench: warning: the library does not know algorithm '%.*s'\n",
                   int(name.size()), name.data());
      continue;
    }
    v.push_back(make(std::string(to_string(a)), method_kind::ours, a, peer::none));
  }
  // gpusort::segmented_sort_keys / _pairs (no algorithm value: opt.algo is ignored)
  v.push_back(make("segmented", method_kind::ours, algorithm::automatic, peer::none, true));
  cub_peer("cub_merge", peer::cub_merge);
  v.push_back(make("thrust", method_kind::gpu_peer, algorithm::automatic, peer::thrust));
  v.push_back(make("std_sort", method_kind::cpu, algorithm::automatic, peer::std_sort));
  v.push_back(make("cpu_merge_recursive", method_kind::cpu, algorithm::automatic, peer::cpu_merge_recursive));
  v.push_back(make("cpu_merge_iterative", method_kind::cpu, algorithm::automatic, peer::cpu_merge_iterative));
  v.push_back(make("cpu_parallel", method_kind::cpu, algorithm::automatic, peer::cpu_parallel));
  v.push_back(make("gnu_parallel", method_kind::cpu, algorithm::automatic, peer::gnu_parallel));
  v.push_back(make("ips4o", method_kind::cpu, algorithm::automatic, peer::ips4o));
  v.push_back(make("host_pinned", method_kind::host, algorithm::automatic, peer::host_pinned));
  v.push_back(make("host_pageable", method_kind::host, algorithm::automatic, peer::host_pageable));
  v.push_back(make("host_naive_pinned", method_kind::host, algorithm::automatic, peer::host_naive_pinned));
  v.push_back(make("host_naive_pageable", method_kind::host, algorithm::automatic, peer::host_naive_pageable));
  return v;
}

}  // namespace

bool method::stable() const {
  switch (which) {
    case peer::none: return segmented || is_stable(algo);  // segmented sort is stable
    case peer::cub_radix: return true;      // LSD radix sort
    case peer::cub_merge: return true;      // the Stable* entry points
    case peer::cub_segmented: return true;  // StableSortKeys / StableSortPairs
    case peer::thrust: return false;        // sort/sort_by_key promise no stability
    case peer::std_sort: return false;
    case peer::cpu_merge_recursive: return true;  // ties from the left run
    case peer::cpu_merge_iterative: return true;
    case peer::cpu_parallel: return true;   // gpusort's CPU path is stable
    case peer::gnu_parallel: return true;   // __gnu_parallel::stable_sort
    case peer::ips4o: return false;         // ips4o::parallel::sort: not stable
    case peer::host_pinned:                 // the pipeline with onesweep chunks
    case peer::host_pageable:
    case peer::host_naive_pinned:           // CUB's radix sort
    case peer::host_naive_pageable: return true;
  }
  return false;
}

const std::vector<method>& all_methods() {
  static const std::vector<method> methods = build();
  return methods;
}

const method* find_method(std::string_view name) {
  for (const auto& m : all_methods())
    if (m.name == name) return &m;
  return nullptr;
}

std::string our_algorithm_names() {
  std::string s;
  for (const auto& m : all_methods())
    if (m.kind == method_kind::ours) append_item(s, m.name);
  return s;
}

std::string all_method_names() {
  std::string s;
  for (const auto& m : all_methods()) append_item(s, m.name);
  return s;
}

std::string caps_summary() {
  std::string s;
  for (const auto& m : all_methods()) {
    char line[160];
    std::string cap = m.max_n ? "n <= 2^" + std::to_string(__builtin_ctzll(m.max_n)) : "no size cap";
    std::snprintf(line, sizeof line, "    %-19s %-12s and no n predicted to need over %.0f ms a run\n",
                  m.name.c_str(), cap.c_str(), m.max_run_ms);
    s += line;
  }
  return s;
}

}  // namespace gpusort::cli::bench
