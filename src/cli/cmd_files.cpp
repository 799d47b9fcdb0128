// gen, verify and sort: the commands that work on raw key files.
#include "args.hpp"
#include "commands.hpp"
#include "file_io.hpp"
#include "npy.hpp"
#include "dists.hpp"
#include "keys.hpp"
#include "bench/methods.hpp"

#include "harness/harness.hpp"

#include <gpusort/gpusort.hpp>

#include <chrono>
#include <cstdio>
#include <cstring>
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
    "usage: gpusort sort [--key K] [--descending] [--algo A] [--pivots P] IN OUT\n"
    "\n"
    "Sorts the keys in IN through gpusort::sort (on the GPU when one is present,\n"
    "else the parallel CPU sort), prints the backend that ran, and writes OUT\n"
    "(complete or not at all). IN is raw keys of type K (--key required), or a\n"
    "one-dimensional .npy array (little-endian, C order; its dtype gives the key\n"
    "type, and --key, if given, must agree), and then OUT is .npy too.\n"
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

  // A .npy input names its key type (a --key must agree) and gives a .npy
  // output; a raw one needs --key.
  std::string key = a.value("key") ? key_option(a) : std::string();
  std::vector<unsigned char> bytes = read_raw(in, 1, "byte");
  const bool npy = is_npy(bytes.data(), bytes.size());
  std::size_t offset = 0;
  if (npy) {
    const npy_array arr = parse_npy(bytes.data(), bytes.size(), in);
    if (key.empty()) key = arr.key;
    if (key != arr.key)
      throw usage_error("--key " + key + " does not match '" + in + "', a .npy file of " + arr.key + " keys");
    offset = arr.offset;
  } else if (key.empty()) {
    key = key_option(a);  // says that --key is required
  }

  with_key(key, [&]<class K>() {
    if (!npy && bytes.size() % sizeof(K) != 0)
      throw usage_error("'" + in + "' is " + std::to_string(bytes.size()) + " bytes, not a multiple of the " + key +
                        " key size (" + std::to_string(sizeof(K)) + " bytes)");
    std::vector<K> keys((bytes.size() - offset) / sizeof(K));
    if (!keys.empty()) std::memcpy(keys.data(), bytes.data() + offset, keys.size() * sizeof(K));
    std::vector<unsigned char>().swap(bytes);  // the input's copy freed before the sort
    atomic_file output(out);  // fails now, before sorting, if OUT cannot be written
    const auto t0 = std::chrono::steady_clock::now();
    const backend b = sort<K>(std::span<K>(keys), opt);
    const double ms =
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    std::printf("backend: %s\n", std::string(to_string(b)).c_str());
    std::printf("sorted %zu %s keys (%s, algo %s) in %.3f ms (including transfers)\n",
                keys.size(), key.c_str(),
                opt.direction == order::descending ? "descending" : "ascending", algo.c_str(), ms);
    if (npy) {
      const std::string header = npy_header(key, keys.size());
      output.write(header.data(), header.size());
    }
    output.write(keys.data(), keys.size() * sizeof(K));
    output.commit();
    std::printf("wrote %s%s\n", out.c_str(), npy ? " (.npy)" : "");
  });
  return exit_ok;
}

}  // namespace gpusort::cli
