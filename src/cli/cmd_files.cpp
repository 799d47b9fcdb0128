// gen, verify and sort: the commands that work on raw key files.
#include "args.hpp"
#include "commands.hpp"
#include "file_io.hpp"
#include "key_file.hpp"
#include "output_file.hpp"
#include "progress.hpp"
#include "records.hpp"
#include "sort_job.hpp"
#include "dists.hpp"
#include "keys.hpp"
#include "bench/methods.hpp"

#include "harness/harness.hpp"

#include <gpusort/gpusort.hpp>

#include <cstdio>
#include <cstdint>
#include <optional>
#include <string>

namespace gpusort::cli {

namespace {

const char* gen_usage =
    "usage: gpusort gen --key K --n N [--dist D] [--seed S] [--quiet] OUT\n"
    "\n"
    "Writes N keys of type K to OUT (raw, native little-endian, no header);\n"
    "OUT as for sort ('-': standard output).\n"
    "  --key K    u8 u16 u32 u64 i8 i16 i32 i64 f16 bf16 f32 f64\n"
    "  --n N      number of keys (1048576, 1e9, 2^20 or 1<<20)\n"
    "  --dist D   input distribution (default uniform): %s\n"
    "  --seed S   generator seed (default 1); same (key, n, dist, seed), same file\n"
    "  --quiet    nothing on stdout or stderr but errors\n";

const char* verify_usage =
    "usage: gpusort verify --key K [--descending] [--nan bits|largest] FILE\n"
    "\n"
    "Exits 0 if FILE (raw keys of type K; '-': standard input) is sorted in\n"
    "gpusort's (CUB's) order, ascending unless --descending; otherwise prints\n"
    "the first position out of order and exits 1.\n";

const char* sort_usage =
    "usage: gpusort sort [--key K] [--descending] [--nan bits|largest] [--algo A]\n"
    "                    [--pivots P] [--values VALS --values-out VALS_OUT]\n"
    "                    [--by FIELD,-FIELD...]\n"
    "                    [--max-memory BYTES]\n"
    "                    [--quiet] IN OUT\n"
    "\n"
    "Sorts the keys in IN through gpusort::sort (on the GPU when one is present,\n"
    "else the parallel CPU sort), prints the backend that ran, and writes OUT.\n"
    "IN is raw keys of type K (--key required), or a one-dimensional .npy array\n"
    "(little-endian, C order; its dtype gives the key type, and --key, if given,\n"
    "must agree), and then OUT is .npy too.\n"
    "%s"
    "  --values   values that move with the keys (stable): raw, each value\n"
    "             size/n bytes (1, 2, 4, 8 or 16), or .npy; written to VALS_OUT\n"
    "             (as OUT is). A stream of values must be .npy, and the keys\n"
    "             a file or .npy\n"
    "  --by F,-G  IN is a record .npy array (a structured dtype): sort its\n"
    "             records by field F, ties by G descending (a '-' before a\n"
    "             name), and so on, stable (little-endian integer, float, bool,\n"
    "             datetime64 and timedelta64 fields; --nan applies to floats);\n"
    "             every record moves whole. Read and sorted in memory\n"
    "  --algo A   GPU algorithm: automatic (default) or one of: %s\n"
    "  --pivots P sample sort's pivots: sampled (default, from a random sample)\n"
    "             or interpolated (evenly spaced over the keys' [min, max])\n"
    "%s";

const char* argsort_usage =
    "usage: gpusort argsort [--key K] [--descending] [--nan bits|largest]\n"
    "                       [--index u32|u64] [--algo A] [--max-memory BYTES]\n"
    "                       [--quiet] IN OUT\n"
    "\n"
    "Writes the stable sorting permutation of the keys in IN (raw keys of type\n"
    "K, or a .npy array as for sort): OUT[i] is the position in IN of the i-th\n"
    "smallest key. Indices are u32 (u64 beyond 2^32 - 1 keys, or --index u64;\n"
    "a raw stream, its length unknown, gets u32 unless --index u64), raw, or\n"
    ".npy when IN is .npy.\n"
    "%s"
    "  --algo A   GPU algorithm: automatic (default) or one of: %s\n"
    "%s";

// What sort and argsort say of IN and OUT, after their first lines.
const char* files_usage =
    "\n"
    "IN may be '-' (standard input), a pipe or a FIFO: a raw stream is read\n"
    "until it ends, in memory up to --max-memory, then by the external sort.\n"
    "A regular OUT (or a new one) is written complete or not at all: to a\n"
    "temporary file beside it, renamed over it at the end; through a symbolic\n"
    "link, to the link's target. OUT '-' (standard output; the lines printed\n"
    "there otherwise go to stderr), a character device, a FIFO or a socket is\n"
    "written directly, as a stream. OUT may be IN itself, named by the\n"
    "identical path: the sort is then in place (IN is replaced once OUT is\n"
    "complete). IN under another name (a link) is refused, as is a directory.\n"
    "  --nan N    where float NaNs go: bits (CUB's order, the default: by their\n"
    "             bit pattern, negative NaNs first) or largest (NumPy's order:\n"
    "             every NaN after +inf, or first with --descending)\n"
    "\n";

// The options of sort and argsort both, after their own.
const char* memory_usage =
    "  --max-memory BYTES  host memory for the data (K, M, G suffixes; at least\n"
    "             64K; default: half the available memory). Larger inputs are\n"
    "             sorted externally: sorted runs in a temporary file in OUT's\n"
    "             folder ($TMPDIR or /tmp when OUT is a stream), then a k-way\n"
    "             merge into OUT\n"
    "  --quiet    nothing on stdout or stderr but errors: no lines, no progress\n"
    "             bar on a terminal, no summary line (printed on stderr at the\n"
    "             end when stderr is not a terminal)\n";

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
  const std::string nan = a.value_or("nan", "bits");
  if (nan == "largest") opt.nans = nan_order::largest;
  else if (nan != "bits") throw usage_error("--nan must be 'bits' or 'largest', not '" + nan + "'");
  return opt;
}

}  // namespace

int cmd_gen(int argc, char** argv) {
  parsed_args a(argc, argv, 2, {{"key", true}, {"n", true}, {"dist", true}, {"seed", true}, {"quiet", false}},
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

  output_file output(out);
  with_key(key, [&]<class K>() {
    std::vector<K> keys = harness::generate<K>(d, n, seed);
    output.write(keys.data(), keys.size() * sizeof(K));
  });
  output.commit();
  info_lines(a.flag("quiet"), output.to_stdout())
      .print("wrote %llu %s keys (%s, seed %llu) to %s\n", (unsigned long long)n, key.c_str(), dist_name.c_str(),
             (unsigned long long)seed, out.c_str());
  return exit_ok;
}

int cmd_verify(int argc, char** argv) {
  parsed_args a(argc, argv, 2, {{"key", true}, {"descending", false}, {"nan", true}}, "verify");
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

// What sort and argsort share: order, algorithm and pivots, the memory
// budget, IN and OUT; `extra`: the command's own options. nullopt once
// --help is printed.
struct sort_call {
  parsed_args a;
  std::string algo;
  options opt;
  std::size_t budget;
  std::string in, out;
};
std::optional<sort_call> parse_sort_call(int argc, char** argv, std::vector<option_spec> extra, const char* name,
                                         const char* usage) {
  std::vector<option_spec> spec = {{"key", true},    {"descending", false}, {"nan", true},  {"algo", true},
                                   {"pivots", true}, {"max-memory", true},  {"quiet", false}};
  spec.insert(spec.end(), extra.begin(), extra.end());
  parsed_args a(argc, argv, 2, std::move(spec), name);
  if (a.flag("help")) {
    std::printf(usage, files_usage, bench::our_algorithm_names().c_str(), memory_usage);
    return std::nullopt;
  }
  a.expect_positionals(2, 2, "an input and an output file");
  sort_call c{a, "", {}, 0, a.positionals()[0], a.positionals()[1]};
  c.opt = sort_options(a, c.algo);
  c.budget = memory_budget(a.value("max-memory"));
  return c;
}

// The job's keys and options, its run files where `out` keeps them; the
// caller adds the values and outputs.
sort_job job_for(const sort_call& c, array_file& keys, const output_file& out) {
  sort_job job;
  job.keys = &keys;
  job.folder = out.scratch_folder();
  job.opt = c.opt;
  job.budget = c.budget;
  return job;
}

// "8 runs, 1 merge pass": how the external sort went.
std::string runs_text(const sort_outcome& o) {
  return std::to_string(o.runs) + " runs, " + std::to_string(o.passes) + " merge pass" + (o.passes == 1 ? "" : "es");
}

// Runs the job with progress on stderr (none with --quiet) and prints the
// backend and what was sorted; the caller commits the outputs, then calls
// progress::finish with summary().
sort_outcome run_and_report(const sort_call& c, const sort_job& job, progress& p, const info_lines& info,
                            const char* what) {
  const sort_outcome o = run_sort_job(job, p);
  p.clear();
  info.print("backend: %s\n", std::string(to_string(o.used)).c_str());
  const std::string how = o.runs ? "external: " + runs_text(o) + ", file reads and writes included"
                                 : "including transfers";
  info.print("sorted %zu %s keys%s (%s, algo %s) in %.3f ms (%s)\n", job.keys->count, job.keys->key.c_str(), what,
             c.opt.direction == order::descending ? "descending" : "ascending", c.algo.c_str(), o.sort_ms,
             how.c_str());
  return o;
}

// The line printed at the end off a terminal: what was sorted, n, bytes,
// seconds, rate, backend, in memory or external.
std::string summary(const char* command, const sort_job& job, const sort_outcome& o, double seconds,
                    const std::string& what) {
  const std::size_t bytes = job.keys->bytes() + (job.values ? job.values->bytes() : 0);
  const std::string where = o.runs ? "external (" + runs_text(o) + ")" : "in memory";
  char line[512];
  std::snprintf(line, sizeof line, "gpusort %s: %zu %s keys%s, %s in %.3f s (%s/s), backend %s, %s", command,
                job.keys->count, job.keys->key.c_str(), what.c_str(), human_bytes(double(bytes)).c_str(), seconds,
                human_bytes(seconds > 0 ? double(bytes) / seconds : 0.0).c_str(),
                std::string(to_string(o.used)).c_str(), where.c_str());
  return line;
}

}  // namespace

int cmd_sort(int argc, char** argv) {
  const auto call =
      parse_sort_call(argc, argv, {{"values", true}, {"values-out", true}, {"by", true}}, "sort", sort_usage);
  if (!call) return exit_ok;
  const parsed_args& a = call->a;
  if (a.value("by")) {
    if (a.value("values") || a.value("key") || a.value("algo") || a.flag("descending"))
      throw usage_error("--by sorts a record .npy by its fields: --values, --key, --algo and --descending do not "
                        "apply (a field named -f sorts descending)");
    return sort_records_npy(call->in, call->out, *a.value("by"), call->opt, a.flag("quiet"));
  }
  if (a.value("values").has_value() != a.value("values-out").has_value())
    throw usage_error("--values and --values-out go together");
  if (call->in == "-" && a.value("values") == "-") throw usage_error("the keys and the values cannot both be standard input");

  array_file keys_file = open_keys(call->in, a.value_or("key", ""));
  std::optional<array_file> vals_file;
  if (a.value("values")) {
    if (!keys_file.counted)
      throw usage_error(keys_file.file.name() + " is a raw stream, its length unknown: with --values, give the keys as a "
                        "file or as .npy");
    vals_file = open_values(*a.value("values"), keys_file.count);
  }
  std::vector<const input_file*> inputs = {&keys_file.file};
  if (vals_file) inputs.push_back(&vals_file->file);
  output_file output(call->out, inputs);  // fails now, before sorting, if OUT cannot be written
  std::optional<output_file> vals_output;
  if (vals_file) {
    vals_output.emplace(*a.value("values-out"), inputs);
    check_distinct(output, *vals_output);
  }

  sort_job job = job_for(*call, keys_file, output);
  job.keys_out = {&output, keys_file.npy, keys_file.key};
  if (vals_file) {
    job.values = &*vals_file;
    job.value_width = vals_file->width;
    job.values_out = {&*vals_output, vals_file->npy, vals_file->key};
  }
  const info_lines info(a.flag("quiet"), output.to_stdout() || (vals_output && vals_output->to_stdout()));
  progress p(a.flag("quiet"));
  const sort_outcome o = run_and_report(*call, job, p, info, vals_file ? " with their values" : "");
  output.commit();  // both written in full before either appears
  if (vals_output) {
    vals_output->commit();
    info.print("wrote %s and %s\n", call->out.c_str(), a.value("values-out")->c_str());
  } else {
    info.print("wrote %s%s\n", call->out.c_str(), keys_file.npy ? " (.npy)" : "");
  }
  p.finish(summary("sort", job, o, p.seconds(),
                   vals_file ? " with " + std::to_string(vals_file->width) + "-byte values" : ""));
  return exit_ok;
}

int cmd_argsort(int argc, char** argv) {
  const auto call = parse_sort_call(argc, argv, {{"index", true}}, "argsort", argsort_usage);
  if (!call) return exit_ok;
  const parsed_args& a = call->a;
  array_file keys_file = open_keys(call->in, a.value_or("key", ""));
  const bool many = keys_file.counted && keys_file.count > 0xFFFFFFFFull;
  const std::string index = a.value_or("index", many ? "u64" : "u32");
  if (index != "u32" && index != "u64") throw usage_error("--index must be u32 or u64, not '" + index + "'");
  if (index == "u32" && many) throw usage_error(std::to_string(keys_file.count) + " keys need --index u64");
  output_file output(call->out, {&keys_file.file});

  // The indices move with the keys as values; only they are written.
  sort_job job = job_for(*call, keys_file, output);
  job.value_width = index == "u64" ? 8 : 4;
  job.values_out = {&output, keys_file.npy, index};
  const info_lines info(a.flag("quiet"), output.to_stdout());
  progress p(a.flag("quiet"));
  const sort_outcome o = run_and_report(*call, job, p, info, " for their permutation");
  output.commit();
  info.print("wrote %s (%s indices%s)\n", call->out.c_str(), index.c_str(), keys_file.npy ? ", .npy" : "");
  p.finish(summary("argsort", job, o, p.seconds(), " to " + index + " indices"));
  return exit_ok;
}

}  // namespace gpusort::cli
