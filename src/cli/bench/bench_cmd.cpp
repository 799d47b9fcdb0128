// `gpusort bench`: option parsing, the suite's defaults, and the run.
#include "args.hpp"
#include "build_info.hpp"
#include "commands.hpp"
#include "keys.hpp"

#include "bench/built_keys.hpp"
#include "bench/device_env.hpp"
#include "bench/gpu_timing.hpp"
#include "bench/methods.hpp"
#include "bench/peers/cub_offsets.hpp"
#include "bench/report.hpp"
#include "bench/segments.hpp"
#include "bench/struct_key.hpp"
#include "bench/suite.hpp"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <memory>
#include <string>
#include <string_view>

namespace gpusort::cli {

namespace {

const char* bench_usage =
    "usage: gpusort bench [--algo A[,B...]] [--key K[,K...]] [--pairs] [--value V[,V...]]\n"
    "                     [--n N[,N...]] [--dist D[,D...]] [--reps R] [--warmup W] [--seed S]\n"
    "                     [--pivots P] [--csv PATH] [--smoke] [--no-caps]\n"
    "\n"
    "Times sorts of generated inputs, verifies every output, prints a table and\n"
    "writes a CSV. Defaults: every algorithm (that runs on the distributions), u32\n"
    "keys only, uniform, n = 2^10 to 2^28 in steps of x4, 2 warm-up and 10 timed\n"
    "runs (median reported).\n"
    "  --algo     ours: %s\n"
    "             (auto: the library's automatic choice; segmented:\n"
    "             gpusort::segmented_sort_keys/_pairs, int32 offsets where n allows)\n"
    "             peers (GPU): cub_radix cub_merge cub_segmented (%s) and\n"
    "             the same with _cuda (%s), thrust;\n"
    "             cub_segmented is built for %s keys;\n"
    "             peers (CPU): std_sort cpu_parallel gnu_parallel ips4o;\n"
    "             CPU baselines: cpu_merge_recursive cpu_merge_iterative\n"
    "  --key      u8 u16 u32 u64 i8 i16 i32 i64 f16 bf16 f32 f64 (default u32), or\n"
    "             u32f32: struct {u32 major; f32 minor} ordered by (major, minor):\n"
    "             through a device comparator (merge_path, cub_merge(_cuda), keys\n"
    "             only) or by radix through a decomposer (auto, cub_radix(_cuda),\n"
    "             keys or pairs); i64f64: struct {i64 id; f64 score} by (id\n"
    "             ascending, score descending) (auto; cub_radix(_cuda) by a\n"
    "             decomposer sorts both ascending); u128, i128: 128-bit\n"
    "             integers (auto, cub_radix(_cuda)); keys or pairs\n"
    "  --pairs    sort (key, value) pairs, value = original index (u32 unless --value)\n"
    "  --value    the values' type: u32 (default) or u64, or a list such as\n"
    "             none,u32 (each key runs with each; none: keys only); implies\n"
    "             --pairs where it names a type. u64 values are built for the keys\n"
    "             %s only (GPUSORT_CLI_U64_VALUE_KEYS; other keys are\n"
    "             skipped, saying so) and run our sorts, cub_radix, cub_merge and\n"
    "             the host rows; thrust, cub_segmented and the CPU baselines take\n"
    "             u32 values only and are skipped. The CSV's value column: u32,\n"
    "             u64, or - (keys only)\n"
    "  --n        sizes: 1048576, 1e9, 2^20 or 1<<20, comma separated\n"
    "  --dist     %s\n"
    "             bits20: uniform in [0, 2^20) (small integers in wide keys: a u64's\n"
    "             high 44 bits zero; floats hold the integers; u8/u16/i8/i16/f16/bf16\n"
    "             uniform over the key)\n"
    "             the values real data holds (per key type: src/harness/harness.hpp):\n"
    "             normal (torch.randn), grid (normal measurements in steps of 0.01),\n"
    "             small_signed (i64 in [-2^31, 2^31), i32 in [-2^15, 2^15)), ids (in\n"
    "             [0, 50000)), timestamps (ns: 1.7e18 + [0, 1e13)), nearly_sorted (1%%\n"
    "             of the positions of a sorted input swapped); unit: torch.rand\n"
    "             segN: segments of N keys each; segpowN: power-law segment sizes\n"
    "             of mean N (N as for --n: seg256, segpow2^10; uniform keys);\n"
    "             segN:DIST, segpowN:DIST the same segments over keys of DIST\n"
    "             (seg64:normal, segpow256:zipf). The segmented sorts (segmented,\n"
    "             cub_segmented) run on these only, the others never; the offsets\n"
    "             are copied to the device outside the timing\n"
    "  --reps     timed runs per point (default 10); --warmup untimed runs (default 2)\n"
    "  --pivots   sample sort's pivots: sampled (default) or interpolated over\n"
    "             [min, max]; the CSV still names the algorithm `sample`\n"
    "  --csv      output (default bench/results/<device>.csv, e.g. nvidia-h200.csv)\n"
    "  --smoke    n = 2^10 to 2^20, 1 warm-up and 3 timed runs (a smoke test);\n"
    "             without --dist, uniform and seg256\n"
    "  --no-caps  run every size, even O(n^2) sorts at large n (slow!)\n"
    "Caps (lifted by --no-caps):\n"
    "%s"
    "GPU times: CUDA events around the sort call only (input restored from a\n"
    "device copy and scratch allocated outside the timing). GB/s counts one read\n"
    "and one write of keys and values; %%copy compares it with a device-to-device\n"
    "cudaMemcpy; vs_cub is Gkeys/s over cub_radix's at the same point\n"
    "(cub_segmented's on segN/segpowN; the _cuda row's where that did not run).\n"
    "The CUB peers (cub_radix, cub_merge, cub_segmented: there the segment\n"
    "offsets' width; and their _cuda twins) are timed with 32-bit (when\n"
    "n <= 2^31-1) and 64-bit offsets, the faster median reported; the CUB\n"
    "version and both widths show after the row and on a '# peer' line before it\n"
    "in the CSV (for cub_segmented with the entry point: StableSortKeys or\n"
    "StableSortPairs, CUB's fastest, as its unstable SortKeys/SortPairs run the\n"
    "same code).\n"
    "Exit status 1 if any output fails verification or any run fails.\n";

std::vector<std::uint64_t> pow4_sizes(int from_log2, int to_log2) {
  std::vector<std::uint64_t> v;
  for (int k = from_log2; k <= to_log2; k += 2) v.push_back(std::uint64_t(1) << k);
  return v;
}

// with_key, plus the bench-only keys u32f32, i64f64, u128 and i128.
template <class F> bool with_bench_key(std::string_view name, F&& f) {
  if (name == bench::struct_key_name) {
    f.template operator()<bench::u32f32>();
    return true;
  }
  if (name == "i64f64") {
    f.template operator()<bench::i64f64>();
    return true;
  }
  if (name == "u128") {
    f.template operator()<bench::u128>();
    return true;
  }
  if (name == "i128") {
    f.template operator()<bench::i128>();
    return true;
  }
  return with_key(name, f);
}

std::string join(const std::vector<std::string>& v) {
  std::string s;
  for (const auto& x : v) append_item(s, x, ',');
  return s;
}

}  // namespace

int cmd_bench(int argc, char** argv) {
  using namespace bench;
  parsed_args a(argc, argv, 2,
                {{"algo", true}, {"key", true}, {"pairs", false}, {"value", true}, {"n", true},
                 {"dist", true}, {"reps", true}, {"warmup", true}, {"seed", true}, {"pivots", true},
                 {"csv", true}, {"smoke", false}, {"no-caps", false}},
                "bench");
  if (a.flag("help")) {
    const std::string latest = has_cub_latest ? "CUB " + std::string(cub_version(cub_build::latest))
                                              : std::string("the newest CUB: not built, see scripts/setup.sh");
    const std::string cuda = "the toolkit's CUB " + std::string(cub_version(cub_build::cuda));
    std::printf(bench_usage, our_algorithm_names().c_str(), latest.c_str(), cuda.c_str(),
                std::string(cub_segmented_keys).c_str(),
                std::string(u64_value_keys).c_str(), bench_dist_names().c_str(), caps_summary().c_str());
    return exit_ok;
  }
  a.expect_positionals(0, 0, "no positional arguments");

  // ---- the suite, from the options ------------------------------------------
  const bool smoke = a.flag("smoke");
  suite_config cfg;
  // Value widths, each a run of every key: 0 for keys only.
  std::vector<int> value_bits;
  if (auto vs = a.value("value")) {
    for (const auto& v : split_list(*vs)) {
      if (v != "u32" && v != "u64" && v != "none")
        throw usage_error("--value must be none, u32 or u64, not '" + v + "'");
      const int bits = v == "none" ? 0 : v == "u32" ? 32 : 64;
      if (std::find(value_bits.begin(), value_bits.end(), bits) == value_bits.end())
        value_bits.push_back(bits);
    }
    if (value_bits.empty()) throw usage_error("--value names no value type");
  } else {
    value_bits.push_back(a.flag("pairs") ? 32 : 0);
  }
  cfg.pairs = value_bits.front() != 0;
  cfg.caps = !a.flag("no-caps");
  cfg.reps = int(parse_count(a.value_or("reps", smoke ? "3" : "10"), "--reps"));
  cfg.warmup = int(parse_count(a.value_or("warmup", smoke ? "1" : "2"), "--warmup"));
  cfg.seed = parse_count(a.value_or("seed", "1"), "--seed");
  cfg.pivots = parse_pivots(a.value_or("pivots", "sampled"));
  if (cfg.reps < 1 || cfg.reps > 100000) throw usage_error("--reps must be 1 to 100000");
  if (cfg.warmup > 100000) throw usage_error("--warmup must be at most 100000");

  // Distributions first: they decide which methods run by default.
  const auto dist_arg = a.value("dist");
  for (const auto& s : split_list(dist_arg ? *dist_arg : std::string(smoke ? "uniform,seg256" : "uniform"))) {
    bench_dist d;
    if (!parse_bench_dist(s, d))
      throw usage_error("unknown distribution '" + s + "' (known: " + bench_dist_names() + ")");
    cfg.dists.push_back(d);
  }
  if (cfg.dists.empty()) throw usage_error("--dist names no distribution");
  bool plain_dist = false, segmented_dist = false;
  for (const auto& d : cfg.dists) (d.segmented() ? segmented_dist : plain_dist) = true;
  // Segmented sorts run on segmented distributions only, the others never.
  auto runs_here = [&](const method& m) { return m.segmented ? segmented_dist : plain_dist; };
  std::string notes;  // printed with the suite

  if (auto algos = a.value("algo")) {
    for (const auto& name : split_list(*algos)) {
      const method* m = find_method(name);
      if (!m)
        throw usage_error("unknown algorithm '" + name + "' (known: " + all_method_names() + ")");
      if (runs_here(*m))
        cfg.methods.push_back(m);
      else
        notes += "skipping " + m->name + ": it runs on " +
                 (m->segmented ? "segmented distributions (segN, segpowN)" : "unsegmented distributions") +
                 " only, and --dist names none\n";
    }
    if (cfg.methods.empty())
      throw usage_error("no algorithm of --algo runs on the distributions of --dist (segmented and "
                        "cub_segmented run on segN/segpowN only, the others never)");
  } else {
    for (const auto& m : all_methods())
      if (runs_here(m)) cfg.methods.push_back(&m);
  }
  // Run in the table's order (cub_radix first, for the ratio column).
  std::vector<const method*> ordered;
  for (const auto& m : all_methods())
    for (const method* s : cfg.methods)
      if (s == &m) {
        ordered.push_back(s);
        break;
      }
  cfg.methods = ordered;
  // Distributions no selected method runs on (said when --dist named them).
  {
    bool any_plain = false, any_segmented = false;
    for (const method* m : cfg.methods) (m->segmented ? any_segmented : any_plain) = true;
    std::vector<bench_dist> kept;
    for (const auto& d : cfg.dists)
      if (d.segmented() ? any_segmented : any_plain)
        kept.push_back(d);
      else if (dist_arg)
        notes += "skipping distribution " + d.name() + ": no algorithm of --algo runs on it\n";
    cfg.dists = kept;
  }

  std::vector<std::string> keys = split_list(a.value_or("key", "u32"));
  if (keys.empty()) throw usage_error("--key names no key type");
  for (const auto& k : keys)
    if (!with_bench_key(k, []<class K>() {}))
      throw usage_error("unknown key type '" + k + "' (known: " + key_name_list() + " " +
                        std::string(struct_key_name) + " i64f64 u128 i128)");

  if (auto ns = a.value("n")) {
    for (const auto& s : split_list(*ns)) cfg.sizes.push_back(parse_count(s, "--n"));
    if (cfg.sizes.empty()) throw usage_error("--n names no size");
  } else {
    cfg.sizes = smoke ? pow4_sizes(10, 20) : pow4_sizes(10, 28);
  }
  for (auto n : cfg.sizes) {
    if (n == 0) throw usage_error("--n: sizes must be at least 1");
    if (n > (std::uint64_t(1) << 32) && std::find(value_bits.begin(), value_bits.end(), 32) != value_bits.end())
      throw usage_error("--pairs: n must be at most 2^32 for u32 values (indices; --value u64 "
                        "lifts it)");
  }

  // ---- the machine ------------------------------------------------------------
  const auto t0 = std::chrono::steady_clock::now();
  std::printf("gpusort bench (commit %s)\n", commit_hash());
  std::fflush(stdout);
  environment env = probe_environment(true);
  std::unique_ptr<gpu_timer> timer;
  gpu_timer* gpu = nullptr;
  if (env.gpu) {
    timer = std::make_unique<gpu_timer>();
    gpu = timer.get();
    std::printf("device: %s, CUDA runtime %s, driver %s\n", env.device_name.c_str(),
                env.runtime_version.c_str(), env.driver_version.c_str());
    std::printf("device-to-device copy bandwidth: %.1f GB/s (read + write)\n", env.copy_gbps);
    if (std::any_of(cfg.methods.begin(), cfg.methods.end(), [](const method* m) { return m->kind == method_kind::host; })) {
      measure_host_copies(env);
      std::printf("host copies (pinned, 1 GiB): to device %.1f GB/s, to host %.1f GB/s, both at once %.1f + %.1f GB/s; "
                  "pageable memcpy on %d threads %.1f GB/s\n",
                  env.h2d_gbps, env.d2h_gbps, env.duplex_h2d_gbps, env.duplex_d2h_gbps, env.cpu_threads,
                  env.host_memcpy_gbps);
    }
  } else {
    std::printf("no CUDA device: running CPU baselines only (%s)\n", env.no_gpu_reason.c_str());
    std::vector<const method*> cpu_only;
    std::string skipped;
    for (const method* m : cfg.methods)
      if (m->gpu())
        append_item(skipped, m->name, ',');
      else
        cpu_only.push_back(m);
    if (!skipped.empty()) std::printf("skipping (need a GPU): %s\n", skipped.c_str());
    cfg.methods = cpu_only;
  }
  std::printf("CPU threads: %d\n", env.cpu_threads);
  std::string names;
  for (const method* m : cfg.methods) append_item(names, m->name, ',');
  std::string sizes;
  for (auto n : cfg.sizes) append_item(sizes, format_n(n), ',');
  std::string dists;
  for (const auto& d : cfg.dists) append_item(dists, d.name(), ',');
  std::string values;
  for (int bits : value_bits) append_item(values, bits == 0 ? "no" : bits == 32 ? "u32" : "u64", ',');
  std::printf("suite: algo=%s key=%s pairs=%s n=%s dist=%s warmup=%d reps=%d pivots=%s%s\n",
              names.c_str(), join(keys).c_str(), values.c_str(), sizes.c_str(),
              dists.c_str(), cfg.warmup, cfg.reps, std::string(to_string(cfg.pivots)).c_str(),
              cfg.caps ? "" : " (no caps)");
  std::printf("%.*s\n%s\n", int(cub_offsets_policy.size()), cub_offsets_policy.data(), cub_builds_line().c_str());
  std::fputs(notes.c_str(), stdout);

  const std::string csv =
      a.value_or("csv", "bench/results/" + (env.gpu ? device_slug(env.device_name) : "cpu") + ".csv");
  reporter rep(env, csv);
  std::printf("writing %s\n", csv.c_str());
  std::fflush(stdout);

  // ---- the runs ------------------------------------------------------------
  for (const auto& k : keys)
    for (int bits : value_bits) {
      cfg.pairs = bits != 0;
      cfg.value_bits = bits ? bits : 32;
      with_bench_key(k, [&]<class K>() { run_suite<K>(cfg, gpu, rep); });
    }

  const double secs =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  std::printf("\n%d result(s) in %.1f s, written to %s\n", rep.rows(), secs,
              rep.csv_path().c_str());
  if (rep.failures() > 0) {
    std::printf("!!! %d run(s) FAILED or produced wrong output (see above)\n", rep.failures());
    std::fflush(stdout);
    return exit_failure;
  }
  return exit_ok;
}

}  // namespace gpusort::cli
