// gpusort bench-multi (and `gpusort bench --gpus N`): the multi-GPU sort
// (include/gpusort/multi.hpp) over N GPUs of this process, a thread per GPU
// on ncclCommInitAll's communicators, against gpusort's own one-GPU sort of
// the same n in the same run.
//   nccl_sample_xN            the call on device-resident shards (n / N keys
//                             a GPU): a barrier, then CUDA events around the
//                             call on every rank; a run's time is the
//                             slowest rank's; the median of --reps runs after
//                             2 warm-ups (the call never writes its input,
//                             so nothing is restored)
//   nccl_sample_xN_partition, _exchange, _sort, _merge
//                             where the time goes (options::timed, the
//                             slowest rank's, median)
//   sort_x1                   gpusort::sort_keys / sort_pairs (automatic) of
//                             all n keys on GPU 0, when they fit
//   nccl_partfirst_xN, nccl_sortfirst_xN, nccl_radixfirst_xN (and phases)
//                             with --strategy partition_first,sort_first,radix_first:
//                             each form asked for (multi::strategy), beside
//                             nccl_sample_xN (auto, the default); with
//                             --rounds k,..: each form at each
//                             multi::options::rounds (rows _r<k>_xN)
//   nccl_sample_xN_host       with --host: gpusort::multi::sort of a pinned
//                             host array, host to host (wall clock; the
//                             array restored from a pristine copy before each
//                             run, outside the timing)
// Every output is verified on the host (order, multiset; pairs: the stable
// permutation of the original indices).
#include "../commands.hpp"
#include "../args.hpp"

#include <cstdio>

#ifdef GPUSORT_HAS_MULTI
#include "../args.hpp"
#include "../keys.hpp"
#include "cuda_check.hpp"
#include "device_env.hpp"
#include "gpu_timing.hpp"
#include "report.hpp"
#include "harness/harness.hpp"

#include <gpusort/gpusort.hpp>
#include <gpusort/multi.hpp>

#include <algorithm>
#include <barrier>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <numeric>
#include <string>
#include <thread>
#include <vector>

namespace gpusort::cli {
namespace {

using namespace bench;

const char* usage =
    "usage: gpusort bench-multi [--gpus N] [--key K] [--value -|u32|u64] [--n N] [--dist D,..]\n"
    "                           [--reps R] [--host] [--csv PATH] [--strategy S,..]\n"
    "                           [--rounds K,..] [--ctas C]\n"
    "  times the multi-GPU sort over N GPUs (nccl_sample_xN, with its phases) and\n"
    "  gpusort's one-GPU sort of the same n (sort_x1); --host adds the host-to-host\n"
    "  convenience call (nccl_sample_xN_host). Defaults: every visible GPU,\n"
    "  --key u32 --value - --n 2^31 --dist uniform --reps 10. --strategy: auto\n"
    "  (nccl_sample_xN), partition_first (nccl_partfirst_xN), sort_first\n"
    "  (nccl_sortfirst_xN), radix_first (nccl_radixfirst_xN), each asked for run\n"
    "  on the same input. --rounds: the\n"
    "  exchange's rounds (0: the default), each a row (_r<k>) of every form.\n"
    "  --ctas: the communicators' NCCL maxCTAs (default multi::comm_ctas_for(N)).\n";

struct no_value {};

row make_row(const std::string& algo, const std::string& key, const std::string& value, const std::string& dist,
             std::size_t n, double ms, std::size_t item_bytes, bool ok) {
  row r;
  r.algorithm = algo;
  r.key = key;
  r.value = value;
  r.dist = dist;
  r.n = n;
  r.median_ms = ms;
  r.bytes_per_item = item_bytes;
  r.verified = ok;
  return r;
}

template <class K, class V>
harness::check verify(const std::vector<K>& in, const std::vector<K>& out, const std::vector<V>& vals) {
  options o;
  if constexpr (std::is_same_v<V, no_value>) return harness::verify_keys_fast(in.data(), out.data(), in.size(), o);
  else return harness::verify_pairs_fast(in.data(), out.data(), vals.data(), in.size(), o, true);
}

// The forms the bench runs: the strategy, the exchange's rounds (0: the
// default) and the rows' name.
struct form {
  multi::strategy how;
  int rounds;
  std::string name;
};
using form_list = std::vector<form>;

// The pristine input copied back before a run, by every OpenMP thread (tens
// of GB for the host-to-host rows).
template <class K> void restore(K* to, const K* from, std::size_t n) {
  constexpr std::size_t piece = std::size_t(1) << 20;
#pragma omp parallel for schedule(static)
  for (std::ptrdiff_t i = 0; i < std::ptrdiff_t((n + piece - 1) / piece); ++i) {
    const std::size_t at = std::size_t(i) * piece;
    std::memcpy(to + at, from + at, std::min(piece, n - at) * sizeof(K));
  }
}

template <class K, class V>
void run_point(reporter& rep, int g, std::vector<ncclComm_t>& comms, harness::dist d, std::size_t n, int reps,
               bool host, std::uint64_t seed, const std::string& vname, const form_list& forms) {
  constexpr bool pairs = !std::is_same_v<V, no_value>;
  using VT = std::conditional_t<pairs, V, std::uint32_t>;
  const std::string key = detail::key_info<K>::name, dist = std::string(harness::to_string(d));
  const std::size_t item = sizeof(K) + (pairs ? sizeof(V) : 0);
  const auto keys = harness::generate<K>(d, n, seed);
  rep.group(key, vname, dist);
  const std::string auto_name = "nccl_sample_x" + std::to_string(g);  // the automatic form's rows
  std::vector<std::pair<std::string, double>> timed_forms;
  const std::size_t cap = multi::output_capacity(n, g);

  // ---- the multi-GPU call on device-resident shards, in each form ----
  for (const auto& [how, rounds, form_name] : forms) {
    const std::string& name = form_name;
    const std::size_t ranks = static_cast<std::size_t>(g);
    std::vector<std::vector<double>> total(ranks), part(ranks), xch(ranks), srt(ranks), mrg(ranks);
    std::vector<std::vector<K>> out_k(ranks);
    std::vector<std::vector<VT>> out_v(ranks);
    std::vector<multi::strategy> used(ranks, multi::strategy::automatic);
    std::barrier<> bar(g);
    auto rank_main = [&](int q) {
      try {
        cuda_check(cudaSetDevice(q), "cudaSetDevice");
        gpu_timer s;
        const std::size_t lo = n * std::size_t(q) / std::size_t(g), hi = n * std::size_t(q + 1) / std::size_t(g);
        const std::size_t m = hi - lo;
        device_buffer in(std::max<std::size_t>(m, 1) * sizeof(K), "shard"), out(cap * sizeof(K), "output");
        device_buffer vin(pairs ? std::max<std::size_t>(m, 1) * sizeof(VT) : 1, "values"),
            vout(pairs ? cap * sizeof(VT) : 1, "output values");
        cuda_check(cudaMemcpy(in.get(), keys.data() + lo, m * sizeof(K), cudaMemcpyHostToDevice), "upload");
        if constexpr (pairs) {
          std::vector<VT> idx(m);
          std::iota(idx.begin(), idx.end(), VT(lo));
          cuda_check(cudaMemcpy(vin.get(), idx.data(), m * sizeof(VT), cudaMemcpyHostToDevice), "upload values");
        }
        multi::options o;
        o.stream = s.stream;
        o.how = how;
        o.rounds = rounds;
        std::size_t bytes = 0;
        auto call = [&](void* temp) {
          if constexpr (pairs)
            return multi::sort_pairs(temp, bytes, in.as<K>(), out.as<K>(), vin.as<VT>(), vout.as<VT>(), m, cap,
                                     comms[std::size_t(q)], o);
          else return multi::sort_keys(temp, bytes, in.as<K>(), out.as<K>(), m, cap, comms[std::size_t(q)], o);
        };
        call(nullptr);
        device_buffer temp(bytes ? bytes : 1, "scratch");
        multi::result res;
        for (int r = 0; r < reps + 2; ++r) {
          bar.arrive_and_wait();
          cuda_check(cudaEventRecord(s.start, s.stream), "cudaEventRecord");
          res = call(temp.get());
          cuda_check(cudaEventRecord(s.stop, s.stream), "cudaEventRecord");
          cuda_check(cudaEventSynchronize(s.stop), "cudaEventSynchronize");
          float t = 0;
          cuda_check(cudaEventElapsedTime(&t, s.start, s.stop), "cudaEventElapsedTime");
          if (r >= 2) total[std::size_t(q)].push_back(t);
        }
        o.timed = true;
        for (int r = 0; r < reps; ++r) {
          bar.arrive_and_wait();
          res = call(temp.get());
          part[std::size_t(q)].push_back(res.partition_ms);
          xch[std::size_t(q)].push_back(res.exchange_ms);
          srt[std::size_t(q)].push_back(res.sort_ms);
          mrg[std::size_t(q)].push_back(res.merge_ms);
        }
        used[std::size_t(q)] = res.used;
        out_k[std::size_t(q)].resize(res.count);
        cuda_check(cudaMemcpy(out_k[std::size_t(q)].data(), out.get(), res.count * sizeof(K), cudaMemcpyDeviceToHost),
                   "download");
        if constexpr (pairs) {
          out_v[std::size_t(q)].resize(res.count);
          cuda_check(
              cudaMemcpy(out_v[std::size_t(q)].data(), vout.get(), res.count * sizeof(VT), cudaMemcpyDeviceToHost),
              "download values");
        }
      } catch (const std::exception& e) {
        // the other ranks wait on this one inside NCCL and cannot be joined
        std::fflush(stdout);
        std::fprintf(stderr, "gpusort bench: rank %d failed: %s; stopping (its peers wait on it in NCCL)\n", q, e.what());
        std::_Exit(exit_failure);
      }
    };
    {
      std::vector<std::thread> threads;
      for (int q = 0; q < g; ++q) threads.emplace_back(rank_main, q);
      for (auto& t : threads) t.join();
    }
    // a run's time is its slowest rank's
    auto slowest = [&](const std::vector<std::vector<double>>& per) {
      std::vector<double> runs(per[0].size(), 0.0);
      for (const auto& v : per)
        for (std::size_t r = 0; r < v.size() && r < runs.size(); ++r) runs[r] = std::max(runs[r], v[r]);
      return median_of(runs);
    };
    std::vector<K> all_k;
    std::vector<VT> all_v;
    for (int q = 0; q < g; ++q) {
      all_k.insert(all_k.end(), out_k[std::size_t(q)].begin(), out_k[std::size_t(q)].end());
      all_v.insert(all_v.end(), out_v[std::size_t(q)].begin(), out_v[std::size_t(q)].end());
      const multi::strategy u = used[std::size_t(q)];
      std::printf("  rank %d: %zu keys (%.2f%% of n / p), %s\n", q, out_k[std::size_t(q)].size(),
                  100.0 * double(out_k[std::size_t(q)].size()) * g / double(n ? n : 1),
                  u == multi::strategy::radix_first       ? "radix first"
                  : u == multi::strategy::sort_first      ? "sort first"
                  : u == multi::strategy::partition_first ? "partition first"
                                                          : "?");
    }
    bool ok = all_k.size() == n;
    if (ok) {
      harness::check c;
      if constexpr (pairs) c = verify<K, VT>(keys, all_k, all_v);
      else c = verify<K, no_value>(keys, all_k, {});
      ok = bool(c);
      if (!ok) std::printf("  %s: %s\n", name.c_str(), c.message.c_str());
    }
    const double ms = slowest(total);
    rep.add(make_row(name, key, vname, dist, n, ms, item, ok));
    if (g > 1)  // one GPU sorts directly: no phases
      for (auto [suffix, per] : {std::pair{"_partition", &part}, {"_exchange", &xch}, {"_sort", &srt}, {"_merge", &mrg}})
        rep.add(make_row(name + suffix, key, vname, dist, n, slowest(*per), item, ok));
  
  timed_forms.emplace_back(name, ms);
  }

  // ---- one GPU, the same n ----
  cuda_check(cudaSetDevice(0), "cudaSetDevice");
  std::size_t free_b = 0, total_b = 0;
  cuda_check(cudaMemGetInfo(&free_b, &total_b), "cudaMemGetInfo");
  // input, output and the sort's alternate buffers: about three times the
  // data (an allocation that fails still skips the row)
  std::string why = "does not fit one GPU";
  if (free_b > 3 * n * item + (std::size_t(1) << 30)) try {
    gpu_timer s;
    device_buffer in(n * sizeof(K), "keys"), out(n * sizeof(K), "output"), vin(pairs ? n * sizeof(VT) : 1, "v"),
        vout(pairs ? n * sizeof(VT) : 1, "v out");
    cuda_check(cudaMemcpy(in.get(), keys.data(), n * sizeof(K), cudaMemcpyHostToDevice), "upload");
    if constexpr (pairs) {
      std::vector<VT> idx(n);
      std::iota(idx.begin(), idx.end(), VT(0));
      cuda_check(cudaMemcpy(vin.get(), idx.data(), n * sizeof(VT), cudaMemcpyHostToDevice), "upload values");
    }
    options o;
    o.stream = s.stream;
    std::size_t bytes = 0;
    auto call = [&](void* temp) {
      if constexpr (pairs) sort_pairs(temp, bytes, in.as<K>(), out.as<K>(), vin.as<VT>(), vout.as<VT>(), n, o);
      else sort_keys(temp, bytes, in.as<K>(), out.as<K>(), n, o);
    };
    call(nullptr);
    device_buffer temp(bytes ? bytes : 1, "scratch");
    std::vector<double> runs;
    for (int r = 0; r < reps + 2; ++r) {
      cuda_check(cudaEventRecord(s.start, s.stream), "cudaEventRecord");
      call(temp.get());
      cuda_check(cudaEventRecord(s.stop, s.stream), "cudaEventRecord");
      cuda_check(cudaEventSynchronize(s.stop), "cudaEventSynchronize");
      float t = 0;
      cuda_check(cudaEventElapsedTime(&t, s.start, s.stop), "cudaEventElapsedTime");
      if (r >= 2) runs.push_back(t);
    }
    std::vector<K> got(n);
    std::vector<VT> gv(pairs ? n : 0);
    cuda_check(cudaMemcpy(got.data(), out.get(), n * sizeof(K), cudaMemcpyDeviceToHost), "download");
    if constexpr (pairs) cuda_check(cudaMemcpy(gv.data(), vout.get(), n * sizeof(VT), cudaMemcpyDeviceToHost), "dl");
    bool ok1;
    if constexpr (pairs) ok1 = bool(verify<K, VT>(keys, got, gv));
    else ok1 = bool(verify<K, no_value>(keys, got, {}));
    const double one = median_of(runs);
    rep.add(make_row("sort_x1", key, vname, dist, n, one, item, ok1));
    for (const auto& [form, ms] : timed_forms)
      std::printf("  %s: %.3f ms against one GPU's %.3f ms: %.2fx\n", form.c_str(), ms, one, one / ms);
    why.clear();
  } catch (const std::exception& e) {
    cudaGetLastError();  // an allocation's failure is not sticky: clear it
    why = std::string("does not fit one GPU: ") + e.what();
  }
  if (!why.empty()) rep.skipped("sort_x1", n, why);

  // ---- host to host ----
  if (host && !pairs) {
    K* buf = nullptr;
    cuda_check(cudaMallocHost(reinterpret_cast<void**>(&buf), std::max<std::size_t>(n, 1) * sizeof(K)),
               "cudaMallocHost");
    std::vector<double> runs;
    multi::options o;
    std::string failed;
    try {
      for (int r = 0; r < reps + 2; ++r) {
        restore(buf, keys.data(), n);
        const auto t0 = std::chrono::steady_clock::now();
        multi::sort(std::span<K>(buf, n), g, o);
        const auto t1 = std::chrono::steady_clock::now();
        if (r >= 2) runs.push_back(std::chrono::duration<double, std::milli>(t1 - t0).count());
      }
    } catch (const std::exception& e) {  // e.g. shards that do not fit these GPUs
      failed = e.what();
    }
    if (failed.empty()) {
      const bool okh = bool(harness::verify_keys_fast(keys.data(), buf, n, options{}));
      rep.add(make_row(auto_name + "_host", key, vname, dist, n, median_of(runs), item, okh));
    } else {
      rep.skipped(auto_name + "_host", n, failed);
    }
    cudaFreeHost(buf);
    multi::release_cache();
  }
}

}  // namespace

int cmd_bench_multi(int argc, char** argv) {
  parsed_args a(argc, argv, 2,
                {{"gpus", true}, {"key", true}, {"value", true}, {"n", true}, {"dist", true}, {"reps", true},
                 {"host", false}, {"seed", true}, {"csv", true}, {"strategy", true}, {"rounds", true}, {"ctas", true}},
                "bench-multi");
  if (a.flag("help")) {
    std::printf("%s", usage);
    return exit_ok;
  }
  a.expect_positionals(0, 0, "no positional arguments");
  const int reps = int(parse_count(a.value_or("reps", "10"), "--reps"));
  const std::uint64_t seed = parse_count(a.value_or("seed", "1"), "--seed");
  environment env = probe_environment(true);
  if (!env.gpu) {
    std::printf("bench-multi: no GPU (%s)\n", env.no_gpu_reason.c_str());
    return exit_ok;
  }
  int devices = 0;
  cuda_check(cudaGetDeviceCount(&devices), "cudaGetDeviceCount");
  const int g = a.value("gpus") ? int(parse_count(*a.value("gpus"), "--gpus")) : devices;
  if (g < 1 || g > devices)
    throw usage_error("--gpus " + std::to_string(g) + ": " + std::to_string(devices) + " GPUs are visible");
  // gpusort's communicator configuration, or --ctas
  ncclConfig_t config = multi::comm_config(g);
  std::string nccl_note = "nccl: multi::comm_config(" + std::to_string(g) + ")";
#if NCCL_VERSION_CODE >= NCCL_VERSION(2, 17, 0)
  if (a.value("ctas")) config.maxCTAs = int(parse_count(*a.value("ctas"), "--ctas"));
  nccl_note += config.maxCTAs == NCCL_CONFIG_UNDEF_INT ? ": NCCL's default CTAs"
                                                       : ": maxCTAs " + std::to_string(config.maxCTAs);
#endif
  std::vector<ncclComm_t> comms = multi::init_comms(g, config);
  reporter rep(env, a.value_or("csv", "bench/results/" + device_slug(env.device_name) + "-multi.csv"));
  const std::string vname = a.value_or("value", "-");
  const std::size_t n = std::size_t(parse_count(a.value_or("n", "2^31"), "--n"));
  const bool host = a.flag("host");
  // every strategy at every --rounds (named _r<k> when rounds are asked for)
  std::vector<int> rounds;
  for (const auto& r : split_list(a.value_or("rounds", "0"))) {
    const auto k = parse_count(r, "--rounds");
    if (k > std::uint64_t(multi::max_rounds)) throw usage_error("--rounds: 0 to " + std::to_string(multi::max_rounds));
    rounds.push_back(int(k));
  }
  const bool named_rounds = a.value("rounds").has_value();
  form_list forms;
  for (const auto& f : split_list(a.value_or("strategy", "auto"))) {
    const std::string x = "_x" + std::to_string(g);
    multi::strategy how;
    std::string name;
    if (f == "auto") how = multi::strategy::automatic, name = "nccl_sample";
    else if (f == "partition_first") how = multi::strategy::partition_first, name = "nccl_partfirst";
    else if (f == "sort_first") how = multi::strategy::sort_first, name = "nccl_sortfirst";
    else if (f == "radix_first") how = multi::strategy::radix_first, name = "nccl_radixfirst";
    else throw usage_error("--strategy: auto, partition_first, sort_first or radix_first (a comma list)");
    for (int k : rounds) forms.push_back({how, k, name + (named_rounds ? "_r" + std::to_string(k) : "") + x});
  }
  for (const auto& dn : split_list(a.value_or("dist", "uniform"))) {
    harness::dist d;
    if (!harness::parse_dist(dn, d)) throw usage_error("unknown distribution '" + dn + "'");
    rep.comment(nccl_note);  // the communicators the next rows ran over
    const bool known = with_key(a.value_or("key", "u32"), [&]<class K>() {
      if (vname == "-") run_point<K, no_value>(rep, g, comms, d, n, reps, host, seed, vname, forms);
      else if (vname == "u32") run_point<K, std::uint32_t>(rep, g, comms, d, n, reps, host, seed, vname, forms);
      else if (vname == "u64") run_point<K, std::uint64_t>(rep, g, comms, d, n, reps, host, seed, vname, forms);
      else throw usage_error("--value: -, u32 or u64");
    });
    if (!known) throw usage_error("unknown key type '" + a.value_or("key", "u32") + "'");
  }
  for (ncclComm_t c : comms) ncclCommDestroy(c);
  return rep.failures() ? exit_failure : exit_ok;
}

}  // namespace gpusort::cli
#else
namespace gpusort::cli {
int cmd_bench_multi(int, char**) {
  std::printf("bench-multi: this build has no multi-GPU sort (CMake did not find NCCL)\n");
  return exit_usage;
}
}  // namespace gpusort::cli
#endif
