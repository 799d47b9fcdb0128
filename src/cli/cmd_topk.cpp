// gpusort topk: the k largest (or smallest) keys of a key file, with their
// indices on request. On the GPU: gpusort::topk_indices on the file's keys
// copied to the device. Without one: the same selection on the CPU
// (std::partial_sort of the indices under the library's order, with the
// same tie rule: lower index first). Outputs are written as sort writes
// them (output_file.hpp), raw or .npy like the input.
#include "args.hpp"
#include "commands.hpp"
#include "file_io.hpp"
#include "key_file.hpp"
#include "keys.hpp"
#include "npy.hpp"
#include "output_file.hpp"
#include "progress.hpp"

#include <gpusort/gpusort.hpp>
#include <gpusort/topk.hpp>

#include <cuda_runtime_api.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <numeric>
#include <optional>
#include <string>
#include <vector>

namespace gpusort::cli {
namespace {

const char* topk_usage =
    "usage: gpusort topk --k K [--key T] [--smallest] [--unsorted] [--nan bits|largest]\n"
    "                   [--indices FILE] [--quiet] IN OUT\n"
    "  writes the K largest keys of IN (the K smallest with --smallest) to OUT,\n"
    "  best first (in input order with --unsorted); ties go to the lower index.\n"
    "  IN: raw keys of type --key, or a 1-D .npy array (its dtype the key type);\n"
    "  OUT (and --indices, u64 positions in IN) are written as IN is: raw or .npy.\n"
    "  IN and OUT may be streams, '-' included, as for sort (see 'gpusort sort --help').\n"
    "  --nan largest: NaNs are the largest keys (torch.topk's order); bits (the\n"
    "  default): CUB's order, by their bit pattern.\n"
    "  --quiet: nothing on stdout or stderr but errors.\n"
    "  Keys: %s\n";

struct selection {
  std::vector<std::uint8_t> keys;   // k keys
  std::vector<std::uint64_t> index; // k indices
  const char* backend = "gpu";
  double ms = 0;
};

template <class K> void check_cuda(cudaError_t e, const char* what) {
  if (e != cudaSuccess)
    throw error(errc::cuda, std::string("gpusort topk: ") + what + ": " + cudaGetErrorString(e), e);
}

template <class K> selection select_on_gpu(const std::vector<K>& keys, std::size_t k, const topk_options& opt) {
  selection s;
  const std::size_t n = keys.size();
  K *din = nullptr, *dout = nullptr;
  std::uint64_t* didx = nullptr;
  const auto t0 = std::chrono::steady_clock::now();
  check_cuda<K>(cudaMalloc(reinterpret_cast<void**>(&din), (n ? n : 1) * sizeof(K)), "cudaMalloc(keys)");
  check_cuda<K>(cudaMalloc(reinterpret_cast<void**>(&dout), (k ? k : 1) * sizeof(K)), "cudaMalloc(selected keys)");
  check_cuda<K>(cudaMalloc(reinterpret_cast<void**>(&didx), (k ? k : 1) * sizeof(std::uint64_t)), "cudaMalloc(indices)");
  try {
    check_cuda<K>(cudaMemcpy(din, keys.data(), n * sizeof(K), cudaMemcpyHostToDevice), "copy in");
    topk_indices(din, dout, didx, n, k, opt);
    s.keys.resize(k * sizeof(K));
    s.index.resize(k);
    check_cuda<K>(cudaMemcpy(s.keys.data(), dout, k * sizeof(K), cudaMemcpyDeviceToHost), "copy out");
    check_cuda<K>(cudaMemcpy(s.index.data(), didx, k * sizeof(std::uint64_t), cudaMemcpyDeviceToHost), "copy out");
  } catch (...) {
    cudaFree(din), cudaFree(dout), cudaFree(didx);
    throw;
  }
  cudaFree(din), cudaFree(dout), cudaFree(didx);
  s.ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
  return s;
}

template <class K> selection select_on_cpu(const std::vector<K>& keys, std::size_t k, const topk_options& opt) {
  selection s;
  s.backend = "cpu";
  const auto t0 = std::chrono::steady_clock::now();
  const detail::key_order<K> ord(opt.largest, 0, int(sizeof(K)) * 8, opt.nans == nan_order::largest);
  std::vector<std::uint64_t> idx(keys.size());
  std::iota(idx.begin(), idx.end(), std::uint64_t(0));
  auto rank = [&](std::uint64_t i) { return ord.key_rank(keys[i]); };
  auto better = [&](std::uint64_t a, std::uint64_t b) {
    const auto ra = rank(a), rb = rank(b);
    return ra != rb ? ra < rb : a < b;
  };
  std::partial_sort(idx.begin(), idx.begin() + std::ptrdiff_t(k), idx.end(), better);
  idx.resize(k);
  if (!opt.sorted) std::sort(idx.begin(), idx.end());
  s.keys.resize(k * sizeof(K));
  for (std::size_t j = 0; j < k; ++j) std::memcpy(s.keys.data() + j * sizeof(K), &keys[idx[j]], sizeof(K));
  s.index = std::move(idx);
  s.ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
  return s;
}

void write_array(output_file& f, bool npy, const std::string& type, const void* data, std::size_t count,
                 std::size_t width) {
  if (npy) {
    const std::string h = npy_header(type, count);
    f.write(h.data(), h.size());
  }
  f.write(data, count * width);
}

}  // namespace

int cmd_topk(int argc, char** argv) {
  parsed_args a(argc, argv, 2,
                {{"k", true}, {"key", true}, {"smallest", false}, {"unsorted", false}, {"nan", true}, {"indices", true},
                 {"quiet", false}},
                "topk");
  if (a.flag("help")) {
    std::printf(topk_usage, key_name_list().c_str());
    return exit_ok;
  }
  a.expect_positionals(2, 2, "an input and an output file");
  const std::string in = a.positionals()[0], out = a.positionals()[1];
  const std::size_t k = std::size_t(parse_count(a.required("k"), "--k"));
  array_file keys_file = open_keys(in, a.value_or("key", ""));
  auto check_k = [&] {
    if (k > keys_file.count)
      throw usage_error("--k " + std::to_string(k) + " is more than the " + std::to_string(keys_file.count) +
                        " keys of " + keys_file.file.name());
  };
  if (keys_file.counted) check_k();
  output_file output(out, {&keys_file.file});  // fails now, before the work, if OUT cannot be written
  std::optional<output_file> index_output;
  if (a.value("indices")) {
    index_output.emplace(*a.value("indices"), std::vector<const input_file*>{&keys_file.file});
    check_distinct(output, *index_output);
  }
  if (!keys_file.counted) {
    keys_file.look_ahead(~std::size_t(0));  // a raw stream: read to its end to count it
    check_k();
  }
  topk_options opt;
  opt.largest = !a.flag("smallest");
  opt.sorted = !a.flag("unsorted");
  const std::string nan = a.value_or("nan", "bits");
  if (nan == "largest") opt.nans = nan_order::largest;
  else if (nan != "bits") throw usage_error("--nan must be 'bits' or 'largest', not '" + nan + "'");
  selection s;
  with_key(keys_file.key, [&]<class K>() {
    std::vector<K> keys(keys_file.count);
    keys_file.read(keys.data(), keys_file.bytes());
    s = gpu_available() ? select_on_gpu(keys, k, opt) : select_on_cpu(keys, k, opt);
  });
  write_array(output, keys_file.npy, keys_file.key, s.keys.data(), k, keys_file.width);
  if (index_output) write_array(*index_output, keys_file.npy, "u64", s.index.data(), k, sizeof(std::uint64_t));
  output.commit();  // both written in full before either appears
  if (index_output) index_output->commit();
  info_lines(a.flag("quiet"), output.to_stdout() || (index_output && index_output->to_stdout()))
      .print("gpusort topk: the %zu %s of %zu %s keys (%s) in %.3f ms on the %s; wrote %s%s%s\n", k,
             opt.largest ? "largest" : "smallest", keys_file.count, keys_file.key.c_str(),
             opt.sorted ? "sorted" : "in input order", s.ms, s.backend, out.c_str(), index_output ? " and " : "",
             index_output ? a.value("indices")->c_str() : "");
  return exit_ok;
}

}  // namespace gpusort::cli
