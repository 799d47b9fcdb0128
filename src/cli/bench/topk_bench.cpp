// gpusort bench-topk: top-k (include/gpusort/topk.hpp) against a full CUB
// radix sort followed by a slice and against cub::DeviceTopK (torch.topk is
// timed by the Python bench). CUDA events around the call alone, 2 warm-ups,
// the median of --reps runs; the input is never written by the top-k calls,
// so no restore is needed between runs. Every result is verified on the
// host: ours against std::partial_sort of the indices with the same tie
// rule (lower index first), the peers' keys against ours as a multiset of
// ranks, and DeviceTopK's indices against the keys they name.
//   rows  topk_k<K> (value i64: with indices, best first),
//         topk_unsorted_k<K> (the same in input order),
//         cub_sort_slice_k<K> (value u32: the newest CUB built sorts (key,
//         index) pairs at its faster offset width),
//         cub_topk_k<K> (value i64: cub::DeviceTopK of the newest CUB,
//         unsorted and not deterministic, its only mode; faster width);
//         rows of a matrix (--rows R --cols C): topk_k<K> with
//         distribution rows<C>
#include "../args.hpp"
#include "../keys.hpp"
#include "built_keys.hpp"
#include "cuda_check.hpp"
#include "device_env.hpp"
#include "device_sorter.hpp"
#include "gpu_timing.hpp"
#include "report.hpp"
#include "topk_peer.hpp"
#include "harness/harness.hpp"

#include <gpusort/gpusort.hpp>
#include <gpusort/topk.hpp>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <functional>
#include <numeric>
#include <string>
#include <vector>

namespace gpusort::cli {
namespace {

using namespace bench;

const char* usage =
    "usage: gpusort bench-topk [--key K,..] [--n N] [--k K,..] [--dist D,..] [--rows R --cols C]\n"
    "                          [--smallest] [--reps R] [--csv PATH]\n"
    "  times gpusort's top-k (rows topk_k<K>; topk_unsorted_k<K> in input order), a\n"
    "  full CUB radix sort of (key, index) pairs followed by a slice\n"
    "  (cub_sort_slice_k<K>) and cub::DeviceTopK (cub_topk_k<K>, unordered output)\n"
    "  on the same keys; with --rows/--cols, the k best of every row (distribution\n"
    "  rows<C>).\n"
    "  Defaults: --key f32 --n 2^28 --k 1024 --dist uniform --reps 10.\n";

// Times f (enqueued on s.stream) warmup + reps times; the median in ms.
double time_runs(gpu_timer& s, int reps, const std::function<void()>& f) {
  std::vector<double> ms;
  for (int r = 0; r < reps + 2; ++r) {
    cuda_check(cudaEventRecord(s.start, s.stream), "cudaEventRecord");
    f();
    cuda_check(cudaEventRecord(s.stop, s.stream), "cudaEventRecord");
    cuda_check(cudaEventSynchronize(s.stop), "cudaEventSynchronize");
    float t = 0;
    cuda_check(cudaEventElapsedTime(&t, s.start, s.stop), "cudaEventElapsedTime");
    if (r >= 2) ms.push_back(t);
  }
  return median_of(ms);
}

// Our row: topk_k<k>, with int64 indices.
row topk_row(std::size_t k, const std::string& key, const std::string& dist, std::size_t n, double ms,
             std::size_t key_bytes, bool ok) {
  row r;
  r.algorithm = "topk_k" + std::to_string(k);
  r.key = key;
  r.value = "i64";
  r.dist = dist;
  r.n = n;
  r.median_ms = ms;
  r.bytes_per_item = key_bytes;
  r.verified = ok;
  return r;
}

template <class K> struct host_oracle {
  detail::key_order<K> ord;
  explicit host_oracle(bool largest) : ord(largest, 0, int(sizeof(K)) * 8) {}
  std::vector<std::uint64_t> winners(const K* keys, std::size_t n, std::size_t k) const {
    std::vector<std::uint64_t> idx(n);
    std::iota(idx.begin(), idx.end(), std::uint64_t(0));
    std::partial_sort(idx.begin(), idx.begin() + std::ptrdiff_t(k), idx.end(), [&](std::uint64_t a, std::uint64_t b) {
      const auto ra = ord.key_rank(keys[a]), rb = ord.key_rank(keys[b]);
      return ra != rb ? ra < rb : a < b;
    });
    idx.resize(k);
    return idx;
  }
};

template <class T> std::vector<T> download(const void* p, std::size_t n) {
  std::vector<T> v(n);
  if (n) cuda_check(cudaMemcpy(v.data(), p, n * sizeof(T), cudaMemcpyDeviceToHost), "cudaMemcpy(result)");
  return v;
}

// Whether a and b hold the same ranks as multisets: how a peer whose order
// and tie rule differ from ours is checked against our keys.
template <class K> bool same_ranks(std::vector<K> a, std::vector<K> b, const host_oracle<K>& oracle) {
  if (a.size() != b.size()) return false;
  auto by_rank = [&](const K& x, const K& y) { return oracle.ord.key_rank(x) < oracle.ord.key_rank(y); };
  std::sort(a.begin(), a.end(), by_rank);
  std::sort(b.begin(), b.end(), by_rank);
  for (std::size_t j = 0; j < a.size(); ++j)
    if (oracle.ord.key_rank(a[j]) != oracle.ord.key_rank(b[j])) return false;
  return true;
}

// Indices that are distinct, within [0, n), and name their keys bit for bit.
template <class K>
bool indices_name_keys(const std::vector<std::int64_t>& idx, const std::vector<K>& top, const std::vector<K>& keys) {
  std::vector<std::int64_t> seen(idx);
  std::sort(seen.begin(), seen.end());
  if (std::adjacent_find(seen.begin(), seen.end()) != seen.end()) return false;
  for (std::size_t j = 0; j < idx.size(); ++j)
    if (idx[j] < 0 || std::size_t(idx[j]) >= keys.size() || std::memcmp(&top[j], &keys[std::size_t(idx[j])], sizeof(K)) != 0)
      return false;
  return true;
}

// A peer's row: each variant timed (the fastest reported), each verified.
template <class Variants, class Run>
row peer_row(const row& ours, const std::string& name, const std::string& value, const Variants& variants, Run run) {
  row p = ours;
  p.algorithm = name;
  p.value = value;
  p.verified = true;
  p.config_what = variants.what;
  for (const auto& v : variants.names.empty() ? std::vector<std::string>{""} : variants.names) {
    bool ok = false;
    const double ms = run(v, ok);
    p.configs.push_back({v.empty() ? "default" : v, ms, ok});
    p.verified = p.verified && ok;
  }
  std::sort(p.configs.begin(), p.configs.end(),
            [](const row_config& x, const row_config& y) { return x.median_ms < y.median_ms; });
  p.median_ms = p.configs.front().median_ms;
  return p;
}

// Rows at one k: ours best first (topk_k<k>) and in input order
// (topk_unsorted_k<k>), CUB's sort and slice, and cub::DeviceTopK where built.
template <class K>
void one_k(reporter& rep, gpu_timer& s, const std::vector<K>& keys, const device_buffer& in, std::size_t k,
           const std::string& key, const std::string& dist, bool largest, int reps) {
  const std::size_t n = keys.size();
  const host_oracle<K> oracle(largest);
  const auto want = oracle.winners(keys.data(), n, k);
  device_buffer top(k * sizeof(K), "top keys"), idx(k * 8, "top indices");
  topk_options opt;
  opt.largest = largest;
  opt.stream = s.stream;
  std::vector<K> ours_k;
  row ours;
  for (bool sorted : {true, false}) {
    opt.sorted = sorted;
    std::size_t bytes = 0;
    topk_indices(nullptr, bytes, in.as<K>(), top.as<K>(), idx.as<std::int64_t>(), n, k, opt);
    device_buffer temp(bytes ? bytes : 1, "top-k scratch");
    const double ms = time_runs(s, reps, [&] {
      topk_indices(temp.get(), bytes, in.as<K>(), top.as<K>(), idx.as<std::int64_t>(), n, k, opt);
    });
    const auto got_k = download<K>(top.get(), k);
    auto got_i = download<std::int64_t>(idx.get(), k);
    // best first: exactly the oracle's; in input order: its indices ascending
    std::vector<std::uint64_t> expect = want;
    if (!sorted) std::sort(expect.begin(), expect.end());
    bool ok = true;
    for (std::size_t j = 0; j < k && ok; ++j)
      ok = got_i[j] == std::int64_t(expect[j]) && std::memcmp(&got_k[j], &keys[expect[j]], sizeof(K)) == 0;
    row r = topk_row(k, key, dist, n, ms, sizeof(K), ok);
    if (!sorted) r.algorithm = "topk_unsorted_k" + std::to_string(k);
    rep.add(r);
    if (sorted) ours = r, ours_k = got_k;
  }

  // CUB: a full radix sort of (key, u32 index) pairs, then the k at the end
  {
    std::vector<std::uint32_t> iota(n);
    std::iota(iota.begin(), iota.end(), 0u);
    device_buffer vin(n * 4, "indices"), vout(n * 4, "sorted indices"), out(n * sizeof(K), "sorted keys");
    device_buffer kin(n * sizeof(K), "CUB input keys");
    cuda_check(cudaMemcpy(vin.get(), iota.data(), n * 4, cudaMemcpyHostToDevice), "cudaMemcpy(indices)");
    auto cub = make_best_cub_radix<K, std::uint32_t>();
    rep.add(peer_row(ours, "cub_sort_slice_k" + std::to_string(k), "u32", cub->variants(n),
                     [&](const std::string& v, bool& ok) {
                       if (!v.empty()) cub->select_variant(v);
                       const std::size_t cb = cub->scratch_bytes(kin.as<K>(), out.as<K>(), vin.as<std::uint32_t>(),
                                                                 vout.as<std::uint32_t>(), n);
                       device_buffer ct(cb ? cb : 1, "CUB scratch");
                       const double ms = time_runs(s, reps, [&] {
                         cuda_check(cudaMemcpyAsync(kin.get(), in.get(), n * sizeof(K), cudaMemcpyDeviceToDevice,
                                                    s.stream),
                                    "copy");
                         cuda_check(cudaEventRecord(s.start, s.stream), "cudaEventRecord");  // restart after the restore
                         cub->sort(ct.get(), cb, kin.as<K>(), out.as<K>(), vin.as<std::uint32_t>(),
                                   vout.as<std::uint32_t>(), n, s.stream);
                       });
                       // the slice: the k largest are the last k of the ascending sort
                       ok = same_ranks(download<K>(out.as<K>() + (largest ? n - k : 0), k), ours_k, oracle);
                       return ms;
                     }));
  }

  // cub::DeviceTopK (unordered output), the newest CUB only
  if constexpr (has_cub_latest && has_cub_topk<K>) {
    auto cub = make_cub_topk<K, cub_build::latest>();
    rep.add(peer_row(ours, "cub_topk_k" + std::to_string(k), "i64", cub->variants(n),
                     [&](const std::string& v, bool& ok) {
                       cub->select_variant(v);
                       std::size_t cb = 0;
                       cub->select(nullptr, cb, in.as<K>(), top.as<K>(), idx.as<std::int64_t>(), n, k, largest,
                                   s.stream);
                       device_buffer ct(cb ? cb : 1, "CUB top-k scratch");
                       const double ms = time_runs(s, reps, [&] {
                         cub->select(ct.get(), cb, in.as<K>(), top.as<K>(), idx.as<std::int64_t>(), n, k, largest,
                                     s.stream);
                       });
                       const auto got_k = download<K>(top.get(), k);
                       ok = same_ranks(got_k, ours_k, oracle) &&
                            indices_name_keys(download<std::int64_t>(idx.get(), k), got_k, keys);
                       return ms;
                     }));
  } else {
    rep.skipped("cub_topk_k" + std::to_string(k), n,
                has_cub_latest ? "cub::DeviceTopK is built for " + std::string(cub_topk_keys) +
                                     " keys only (GPUSORT_CLI_CUB_TOPK_KEYS)"
                               : std::string("cub::DeviceTopK needs the newest CCCL's headers (scripts/setup.sh)"));
  }
}

template <class K>
void one_array(reporter& rep, gpu_timer& s, harness::dist d, std::size_t n, const std::vector<std::size_t>& ks,
               bool largest, int reps, std::uint64_t seed) {
  const auto keys = harness::generate<K>(d, n, seed);
  device_buffer in(n * sizeof(K), "keys");
  cuda_check(cudaMemcpy(in.get(), keys.data(), n * sizeof(K), cudaMemcpyHostToDevice), "cudaMemcpy(keys)");
  const std::string key = detail::key_info<K>::name, dist = std::string(harness::to_string(d));
  rep.group(key, "i64", dist);
  for (std::size_t k : ks)
    if (k <= n) one_k<K>(rep, s, keys, in, k, key, dist, largest, reps);
}

template <class K>
void rows_run(reporter& rep, gpu_timer& s, std::size_t rows, std::size_t cols, const std::vector<std::size_t>& ks,
              bool largest, int reps, std::uint64_t seed) {
  const std::size_t n = rows * cols;
  const auto keys = harness::generate<K>(harness::dist::uniform, n, seed);
  device_buffer in(n * sizeof(K), "keys");
  cuda_check(cudaMemcpy(in.get(), keys.data(), n * sizeof(K), cudaMemcpyHostToDevice), "cudaMemcpy(keys)");
  const std::string key = detail::key_info<K>::name, dist = "rows" + std::to_string(cols);
  rep.group(key, "i64", dist);
  topk_options opt;
  opt.largest = largest;
  opt.stream = s.stream;
  const host_oracle<K> oracle(largest);
  for (std::size_t k : ks) {
    if (k > cols) continue;
    device_buffer top(rows * k * sizeof(K), "top keys"), idx(rows * k * 8, "top indices");
    std::size_t bytes = 0;
    topk_rows(nullptr, bytes, in.as<K>(), top.as<K>(), idx.as<std::int64_t>(), rows, cols, k, opt);
    device_buffer temp(bytes ? bytes : 1, "top-k scratch");
    const double ms = time_runs(s, reps, [&] {
      topk_rows(temp.get(), bytes, in.as<K>(), top.as<K>(), idx.as<std::int64_t>(), rows, cols, k, opt);
    });
    const auto got_i = download<std::int64_t>(idx.get(), rows * k);
    bool ok = true;
    for (std::size_t r = 0; r < rows && ok; r += std::max<std::size_t>(1, rows / 97)) {
      const auto want = oracle.winners(keys.data() + r * cols, cols, k);
      for (std::size_t j = 0; j < k && ok; ++j) ok = got_i[r * k + j] == std::int64_t(want[j]);
    }
    rep.add(topk_row(k, key, dist, n, ms, sizeof(K), ok));
  }
}

}  // namespace

int cmd_bench_topk(int argc, char** argv) {
  parsed_args a(argc, argv, 2,
                {{"key", true}, {"n", true}, {"k", true}, {"dist", true}, {"rows", true}, {"cols", true},
                 {"smallest", false}, {"reps", true}, {"seed", true}, {"csv", true}},
                "bench-topk");
  if (a.flag("help")) {
    std::printf("%s", usage);
    return exit_ok;
  }
  a.expect_positionals(0, 0, "no positional arguments");
  const int reps = int(parse_count(a.value_or("reps", "10"), "--reps"));
  const std::uint64_t seed = parse_count(a.value_or("seed", "1"), "--seed");
  const bool largest = !a.flag("smallest");
  std::vector<std::size_t> ks;
  for (const auto& s : split_list(a.value_or("k", "1024"))) ks.push_back(std::size_t(parse_count(s, "--k")));
  environment env = probe_environment(true);
  if (!env.gpu) {
    std::printf("bench-topk: no GPU (%s)\n", env.no_gpu_reason.c_str());
    return exit_ok;
  }
  gpu_timer timer;
  reporter rep(env, a.value_or("csv", "bench/results/" + device_slug(env.device_name) + "-topk.csv"));
  const bool rows = a.value("rows").has_value();
  for (const auto& key : split_list(a.value_or("key", "f32"))) {
    const bool known = with_key(key, [&]<class K>() {
      if (rows) {
        rows_run<K>(rep, timer, std::size_t(parse_count(a.required("rows"), "--rows")),
                    std::size_t(parse_count(a.required("cols"), "--cols")), ks, largest, reps, seed);
        return;
      }
      const std::size_t n = std::size_t(parse_count(a.value_or("n", "2^28"), "--n"));
      for (const auto& dn : split_list(a.value_or("dist", "uniform"))) {
        harness::dist d;
        if (!harness::parse_dist(dn, d)) throw usage_error("unknown distribution '" + dn + "'");
        one_array<K>(rep, timer, d, n, ks, largest, reps, seed);
      }
    });
    if (!known) throw usage_error("unknown key type '" + key + "'");
  }
  return rep.failures() ? exit_failure : exit_ok;
}

}  // namespace gpusort::cli
