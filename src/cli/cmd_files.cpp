// gen, verify and sort: the commands that work on raw key files.
#include "args.hpp"
#include "commands.hpp"
#include "file_io.hpp"
#include "key_file.hpp"
#include "npy.hpp"
#include "dists.hpp"
#include "keys.hpp"
#include "bench/methods.hpp"

#include "harness/harness.hpp"

#include <gpusort/gpusort.hpp>

#include <chrono>
#include <cstdio>
#include <cstdint>
#include <cstring>
#include <optional>
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
    "usage: gpusort sort [--key K] [--descending] [--algo A] [--pivots P]\n"
    "                    [--values VALS --values-out VALS_OUT] IN OUT\n"
    "\n"
    "Sorts the keys in IN through gpusort::sort (on the GPU when one is present,\n"
    "else the parallel CPU sort), prints the backend that ran, and writes OUT\n"
    "(complete or not at all). IN is raw keys of type K (--key required), or a\n"
    "one-dimensional .npy array (little-endian, C order; its dtype gives the key\n"
    "type, and --key, if given, must agree), and then OUT is .npy too.\n"
    "  --values   values that move with the keys (stable): raw, each value\n"
    "             size/n bytes (1, 2, 4, 8 or 16), or .npy; written to VALS_OUT\n"
    "  --algo A   GPU algorithm: automatic (default) or one of: %s\n"
    "  --pivots P sample sort's pivots: sampled (default, from a random sample)\n"
    "             or interpolated (evenly spaced over the keys' [min, max])\n";

const char* argsort_usage =
    "usage: gpusort argsort [--key K] [--descending] [--index u32|u64] [--algo A] IN OUT\n"
    "\n"
    "Writes the stable sorting permutation of the keys in IN (raw keys of type\n"
    "K, or a .npy array as for sort): OUT[i] is the position in IN of the i-th\n"
    "smallest key. Indices are u32 (u64 beyond 2^32 - 1 keys, or --index u64),\n"
    "raw, or .npy when IN is .npy.\n"
    "  --algo A   GPU algorithm: automatic (default) or one of: %s\n";

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

namespace {

// Values of `width` bytes as a type: f.template operator()<V>().
struct value16 {
  std::uint64_t lo, hi;
};
template <class F> void with_value_width(std::size_t width, F&& f) {
  switch (width) {
    case 1: return f.template operator()<std::uint8_t>();
    case 2: return f.template operator()<std::uint16_t>();
    case 4: return f.template operator()<std::uint32_t>();
    case 8: return f.template operator()<std::uint64_t>();
    default: return f.template operator()<value16>();
  }
}

// The options sort and argsort share: order, algorithm, pivots.
options sort_options(const parsed_args& a, std::string& algo) {
  options opt = order_options(a);
  algo = a.value_or("algo", "automatic");
  if (algo == "auto" || algo == "automatic")
    opt.algo = algorithm::automatic;
  else if (!parse_algorithm(algo, opt.algo))
    throw usage_error("unknown algorithm '" + algo + "' (known: automatic " + bench::our_algorithm_names() +
                      ")");
  opt.pivots = parse_pivots(a.value_or("pivots", "sampled"));
  return opt;
}

// What sort and argsort share: order, algorithm and pivots, IN and OUT;
// `extra`: the command's own options. nullopt once --help is printed.
struct sort_call {
  parsed_args a;
  std::string algo;
  options opt;
  std::string in, out;
};
std::optional<sort_call> parse_sort_call(int argc, char** argv, std::vector<option_spec> extra, const char* name,
                                         const char* usage) {
  std::vector<option_spec> spec = {{"key", true}, {"descending", false}, {"algo", true}, {"pivots", true}};
  spec.insert(spec.end(), extra.begin(), extra.end());
  parsed_args a(argc, argv, 2, std::move(spec), name);
  if (a.flag("help")) {
    std::printf(usage, bench::our_algorithm_names().c_str());
    return std::nullopt;
  }
  a.expect_positionals(2, 2, "an input and an output file");
  sort_call c{a, "", {}, a.positionals()[0], a.positionals()[1]};
  c.opt = sort_options(a, c.algo);
  return c;
}

template <class T> std::vector<T> elements_of(array_file& f) {
  std::vector<T> v(f.count);
  if (!v.empty()) std::memcpy(v.data(), f.data(), v.size() * sizeof(T));
  std::vector<unsigned char>().swap(f.bytes);  // the file's copy freed before the sort
  return v;
}

// Writes `n` elements of `width` bytes (a .npy array of `key` when npy);
// the caller commits.
void write_elements(atomic_file& out, bool npy, const std::string& key, const void* data, std::size_t n,
                    std::size_t width) {
  if (npy) {
    const std::string header = npy_header(key, n);
    out.write(header.data(), header.size());
  }
  out.write(data, n * width);
}

void report(backend b, std::size_t n, const std::string& key, const options& opt, const std::string& algo,
            double ms, const char* what) {
  std::printf("backend: %s\n", std::string(to_string(b)).c_str());
  std::printf("sorted %zu %s keys%s (%s, algo %s) in %.3f ms (including transfers)\n", n, key.c_str(), what,
              opt.direction == order::descending ? "descending" : "ascending", algo.c_str(), ms);
}

double ms_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
}

}  // namespace

int cmd_sort(int argc, char** argv) {
  const auto call = parse_sort_call(argc, argv, {{"values", true}, {"values-out", true}}, "sort", sort_usage);
  if (!call) return exit_ok;
  const auto& [a, algo, opt, in, out] = *call;
  if (a.value("values").has_value() != a.value("values-out").has_value())
    throw usage_error("--values and --values-out go together");

  array_file keys_file = read_keys(in, a.value_or("key", ""));
  const std::string key = keys_file.key;
  array_file vals_file;
  if (a.value("values")) vals_file = read_values(*a.value("values"), keys_file.count);

  with_key(key, [&]<class K>() {
    std::vector<K> keys = elements_of<K>(keys_file);
    atomic_file output(out);  // fails now, before sorting, if OUT cannot be written
    if (!a.value("values")) {
      const auto t0 = std::chrono::steady_clock::now();
      const backend b = sort<K>(std::span<K>(keys), opt);
      report(b, keys.size(), key, opt, algo, ms_since(t0), "");
      write_elements(output, keys_file.npy, key, keys.data(), keys.size(), sizeof(K));
      output.commit();
      std::printf("wrote %s%s\n", out.c_str(), keys_file.npy ? " (.npy)" : "");
      return;
    }
    atomic_file vals_output(*a.value("values-out"));
    with_value_width(vals_file.width, [&]<class V>() {
      std::vector<V> vals = elements_of<V>(vals_file);
      const auto t0 = std::chrono::steady_clock::now();
      const backend b = sort<K, V>(std::span<K>(keys), std::span<V>(vals), opt);
      report(b, keys.size(), key, opt, algo, ms_since(t0), " with their values");
      write_elements(output, keys_file.npy, key, keys.data(), keys.size(), sizeof(K));
      write_elements(vals_output, vals_file.npy, vals_file.key, vals.data(), vals.size(), sizeof(V));
      output.commit();  // both written in full before either appears
      vals_output.commit();
      std::printf("wrote %s and %s\n", out.c_str(), a.value("values-out")->c_str());
    });
  });
  return exit_ok;
}

int cmd_argsort(int argc, char** argv) {
  const auto call = parse_sort_call(argc, argv, {{"index", true}}, "argsort", argsort_usage);
  if (!call) return exit_ok;
  const auto& [a, algo, opt, in, out] = *call;
  array_file keys_file = read_keys(in, a.value_or("key", ""));
  const std::string key = keys_file.key;
  const std::string index = a.value_or("index", keys_file.count > 0xFFFFFFFFull ? "u64" : "u32");
  if (index != "u32" && index != "u64") throw usage_error("--index must be u32 or u64, not '" + index + "'");
  if (index == "u32" && keys_file.count > 0xFFFFFFFFull)
    throw usage_error(std::to_string(keys_file.count) + " keys need --index u64");

  with_key(key, [&]<class K>() {
    std::vector<K> keys = elements_of<K>(keys_file);
    atomic_file output(out);
    auto run = [&]<class I>() {
      std::vector<I> idx(keys.size());
      for (std::size_t i = 0; i < idx.size(); ++i) idx[i] = I(i);
      const auto t0 = std::chrono::steady_clock::now();
      const backend b = sort<K, I>(std::span<K>(keys), std::span<I>(idx), opt);
      report(b, keys.size(), key, opt, algo, ms_since(t0), " for their permutation");
      write_elements(output, keys_file.npy, index, idx.data(), idx.size(), sizeof(I));
      output.commit();
      std::printf("wrote %s (%s indices%s)\n", out.c_str(), index.c_str(), keys_file.npy ? ", .npy" : "");
    };
    if (index == "u64") run.template operator()<std::uint64_t>();
    else run.template operator()<std::uint32_t>();
  });
  return exit_ok;
}

}  // namespace gpusort::cli
