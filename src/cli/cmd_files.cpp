// gen, verify and sort: the commands that work on raw key files.
#include "args.hpp"
#include "commands.hpp"
#include "file_io.hpp"
#include "dists.hpp"
#include "keys.hpp"
#include "bench/methods.hpp"

#include "harness/harness.hpp"

#include <gpusort/gpusort.hpp>

#include <chrono>
#include <cstdio>
#include <span>
#include <string>

namespace gpusort::cli {

namespace {

const char* gen_usage =
    "usage: gpusort gen --key K --n N [--dist D] [--seed S] OUT\n"
    "\n"
    "Writes N keys of type K to OUT (raw, native little-endian, no header).\n"
    "  --key K    u8 u16 u32 u64 i8 i16 i32 i64 f16 bf16 f32 f64\n"
    "  --n N      number of keys (1048576, 2^20 or 1<<20)\n"
    "  --dist D   input distribution (default uniform): %s\n"
    "  --seed S   generator seed (default 1); same (key, n, dist, seed), same file\n";

const char* verify_usage =
    "usage: gpusort verify --key K [--descending] FILE\n"
    "\n"
    "Exits 0 if FILE (raw keys of type K) is sorted in gpusort's (CUB's) order,\n"
    "ascending unless --descending; otherwise prints the first position out of\n"
    "order and exits 1.\n";

const char* sort_usage =
    "usage: gpusort sort --key K [--descending] [--algo A] [--pivots P] IN OUT\n"
    "\n"
    "Sorts the raw keys of type K in IN through gpusort::sort (on the GPU when\n"
    "one is present, else the parallel CPU sort), prints the backend that ran,\n"
    "and writes OUT (complete or not at all).\n"
    "  --algo A   GPU algorithm: automatic (default) or one of: %s\n"
    "  --pivots P sample sort's pivots: sampled (default, from a random sample)\n"
    "             or interpolated (evenly spaced over the keys' [min, max])\n";

// The key option, checked against the 12 names before anything else runs.
std::string key_option(const parsed_args& a) {
  std::string key = a.required("key");
  if (!with_key(key, []<class K>() {}))
    throw usage_error("unknown key type '" + key + "' (known: " + key_name_list() + ")");
  return key;
}

options order_options(const parsed_args& a) {
  options opt;
  opt.direction = a.flag("descending") ? order::descending : order::ascending;
  return opt;
}

}  // namespace

int cmd_gen(int argc, char** argv) {
  parsed_args a(argc, argv, 2, {{"key", true}, {"n", true}, {"dist", true}, {"seed", true}},
                "gen");
  if (a.flag("help")) {
    std::printf(gen_usage, dist_name_list().c_str());
    return exit_ok;
  }
  a.expect_positionals(1, 1, "one output file");
  const std::string key = key_option(a);
  const std::uint64_t n = parse_count(a.required("n"), "--n");
  const std::uint64_t seed = parse_count(a.value_or("seed", "1"), "--seed");
  harness::dist d{};
  const std::string dist_name = a.value_or("dist", "uniform");
  if (!harness::parse_dist(dist_name, d))
    throw usage_error("unknown distribution '" + dist_name + "' (known: " + dist_name_list() + ")");
  const std::string& out = a.positionals()[0];

  with_key(key, [&]<class K>() {
    atomic_file output(out);
    std::vector<K> keys = harness::generate<K>(d, n, seed);
    output.write(keys.data(), keys.size() * sizeof(K));
    output.commit();
  });
  std::printf("wrote %llu %s keys (%s, seed %llu) to %s\n", (unsigned long long)n, key.c_str(),
              dist_name.c_str(), (unsigned long long)seed, out.c_str());
  return exit_ok;
}

int cmd_verify(int argc, char** argv) {
  parsed_args a(argc, argv, 2, {{"key", true}, {"descending", false}}, "verify");
  if (a.flag("help")) {
    std::fputs(verify_usage, stdout);
    return exit_ok;
  }
  a.expect_positionals(1, 1, "one input file");
  const std::string key = key_option(a);
  const std::string& path = a.positionals()[0];
  const options opt = order_options(a);
  int rc = exit_ok;
  with_key(key, [&]<class K>() {
    const std::vector<K> keys = bytes_to_keys<K>(read_raw(path, sizeof(K), key));
    harness::check c = harness::verify_sorted<K>(keys.data(), keys.size(), opt);
    if (c) {
      std::printf("%s: sorted (%zu %s keys, %s)\n", path.c_str(), keys.size(), key.c_str(),
                  a.flag("descending") ? "descending" : "ascending");
    } else {
      std::printf("%s: NOT sorted: %s\n", path.c_str(), c.message.c_str());
      rc = exit_failure;
    }
  });
  return rc;
}

int cmd_sort(int argc, char** argv) {
  parsed_args a(argc, argv, 2, {{"key", true}, {"descending", false}, {"algo", true}, {"pivots", true}},
                "sort");
  if (a.flag("help")) {
    std::printf(sort_usage, bench::our_algorithm_names().c_str());
    return exit_ok;
  }
  a.expect_positionals(2, 2, "an input and an output file");
  const std::string key = key_option(a);
  options opt = order_options(a);
  const std::string algo = a.value_or("algo", "automatic");
  if (algo == "auto" || algo == "automatic")
    opt.algo = algorithm::automatic;
  else if (!parse_algorithm(algo, opt.algo))
    throw usage_error("unknown algorithm '" + algo + "' (known: automatic " + bench::our_algorithm_names() +
                      ")");
  opt.pivots = parse_pivots(a.value_or("pivots", "sampled"));
  const std::string& in = a.positionals()[0];
  const std::string& out = a.positionals()[1];

  with_key(key, [&]<class K>() {
    std::vector<K> keys = bytes_to_keys<K>(read_raw(in, sizeof(K), key));
    atomic_file output(out);  // fails now, before sorting, if OUT cannot be written
    const auto t0 = std::chrono::steady_clock::now();
    const backend b = sort<K>(std::span<K>(keys), opt);
    const double ms =
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    std::printf("backend: %s\n", std::string(to_string(b)).c_str());
    std::printf("sorted %zu %s keys (%s, algo %s) in %.3f ms (including transfers)\n",
                keys.size(), key.c_str(),
                opt.direction == order::descending ? "descending" : "ascending", algo.c_str(), ms);
    output.write(keys.data(), keys.size() * sizeof(K));
    output.commit();
    std::printf("wrote %s\n", out.c_str());
  });
  return exit_ok;
}

}  // namespace gpusort::cli
