#include "suite.hpp"

#include "cpu_timing.hpp"
#include "host_timing.hpp"
#include "gpu_timing.hpp"
#include "keys.hpp"
#include "segments.hpp"
#include "struct_key.hpp"

#include "bench/built_keys.hpp"

#include <algorithm>
#include <climits>
#include <cmath>
#include <cstdio>
#include <map>
#include <memory>
#include <new>
#include <numeric>
#include <set>
#include <string>
#include <type_traits>

namespace gpusort::cli::bench {

namespace {

// Kept free beyond what a run asks for: the CUDA context, kernels' stacks.
constexpr std::size_t memory_margin = std::size_t(256) << 20;

std::string gib(std::size_t bytes) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.2f GiB", double(bytes) / double(std::size_t(1) << 30));
  return buf;
}

// Values the CPU baselines, Thrust and cub_segmented are built for.
template <class V> constexpr bool narrow_values = std::is_same_v<V, std::uint32_t>;

// Why m is not built for K keys with V values (empty when it is). run()
// skips it with this reason; make_sorter() is never asked for it.
template <class K, class V> std::string not_built(const method& m, const std::string& key) {
  if (m.kind == method_kind::gpu_peer && m.which != peer::thrust && m.cub == cub_build::latest && !has_cub_latest)
    return "not built: the newest CCCL's headers were not found at configure time (scripts/setup.sh "
           "fetches them); " + m.name + "_cuda is the toolkit's CUB";
  if constexpr (!is_struct_key<K>)
    if (m.which == peer::cub_segmented && !has_cub_segmented<K>)
      return "not built for " + key + " keys (only " + std::string(cub_segmented_keys) +
             ": GPUSORT_CLI_CUB_SEGMENTED_KEYS in src/cli/CMakeLists.txt)";
  if (!narrow_values<V> && (m.kind == method_kind::cpu || m.which == peer::thrust ||
                            m.which == peer::cub_segmented))
    return "built for u32 values only (compile time; --value u64 runs ours, cub_radix, "
           "cub_merge and the host rows)";
  return {};
}

// make.template operator()<B>() for the CUB build of m; null for the newest
// CUB where it was not built (not_built() says so first).
template <class K, class V, class F> std::unique_ptr<device_sorter<K, V>> by_cub(const method& m, F&& make) {
  if (m.cub == cub_build::cuda) return make.template operator()<cub_build::cuda>();
  if constexpr (has_cub_latest) return make.template operator()<cub_build::latest>();
  return nullptr;
}

template <class K, class V>
std::unique_ptr<device_sorter<K, V>> make_sorter(const method& m, pivot_rule pivots) {
  if constexpr (is_struct_key<K>) {
    return make_struct_sorter<K>(m);
  } else {
    switch (m.which) {
      case peer::none:
        return m.segmented ? make_ours_segmented<K, V>() : make_ours<K, V>(m.algo, pivots);
      case peer::cub_radix: return by_cub<K, V>(m, [&]<cub_build B>() { return make_cub_radix<K, V, B>(); });
      case peer::cub_merge: return by_cub<K, V>(m, [&]<cub_build B>() { return make_cub_merge<K, V, B>(); });
      case peer::cub_segmented:
        if constexpr (has_cub_segmented<K> && narrow_values<V>)
          return by_cub<K, V>(m, [&]<cub_build B>() { return make_cub_segmented<K, V, B>(); });
        else
          return nullptr;  // not built: run() says so first
      case peer::thrust:
        if constexpr (narrow_values<V>)
          return make_thrust<K, V>();
        else
          return nullptr;
      case peer::host_naive_pinned:
      case peer::host_naive_pageable: return make_best_cub_radix<K, V>();
      default: return nullptr;
    }
  }
}

// After a failed GPU run: clears a recoverable error; returns false when the
// context is broken (a sticky error such as an illegal address), after
// which no GPU work can run in this process.
bool gpu_still_usable() {
  cudaGetLastError();
  cudaError_t e = cudaDeviceSynchronize();
  if (e == cudaSuccess) return true;
  std::printf("  GPU unusable after that failure (%s): skipping the remaining GPU runs\n",
              cudaGetErrorName(e));
  std::fflush(stdout);
  return false;
}

// A segmented point's offsets in device memory: int64, and int32 where n
// allows. Copied once, outside any timing.
struct device_offsets {
  device_offsets(const std::vector<std::int64_t>& offsets, std::size_t n) {
    const std::size_t count = offsets.size();
    off64 = device_buffer(count * sizeof(std::int64_t), "segment offsets (int64)");
    cuda_check(cudaMemcpy(off64.get(), offsets.data(), count * sizeof(std::int64_t), cudaMemcpyHostToDevice),
               "cudaMemcpy(segment offsets to device)");
    view.num_segments = count - 1;
    view.offsets64 = off64.as<std::int64_t>();
    if (n <= std::size_t(INT32_MAX)) {
      const std::vector<std::int32_t> narrow(offsets.begin(), offsets.end());
      off32 = device_buffer(count * sizeof(std::int32_t), "segment offsets (int32)");
      cuda_check(cudaMemcpy(off32.get(), narrow.data(), count * sizeof(std::int32_t), cudaMemcpyHostToDevice),
                 "cudaMemcpy(segment offsets to device)");
      view.offsets32 = off32.as<std::int32_t>();
    }
  }
  device_buffer off32, off64;
  device_segments view;
};

// The state of one benchmark point (a size n of one distribution); V is the
// pairs' value type (u32 for keys only).
template <class K, class V> struct point {
  const suite_config& cfg;
  gpu_timer*& gpu;
  reporter& rep;
  std::string key, value, dist;
  std::vector<K> keys;
  std::vector<V> vals;  // original indices, pairs only
  std::unique_ptr<device_data<K, V>> dev;  // allocated by the first GPU method
  std::string dev_skip;                    // why dev could not be allocated
  // Each method's output, overwritten by the next (host buffers reused).
  std::vector<K> out_keys;
  std::vector<V> out_vals;
  // struct keys: the reference permutation, made by the first check
  mutable std::vector<std::uint32_t> struct_order, peer_order;  // peer_order: checks_peer_order's methods

  std::size_t n() const { return keys.size(); }
  const std::vector<V>* vals_or_null() const { return cfg.pairs ? &vals : nullptr; }

  // Times one configuration of method m on this point's input: `sorter`
  // (variant selected) for a GPU method, null for a CPU one. Returns the
  // median ms, or a negative number when it was skipped (reported here
  // under `label`).
  double time(const method& m, device_sorter<K, V>* sorter, const std::string& label) {
    if constexpr (is_struct_key<K>) {
      if (m.kind == method_kind::host) {
        rep.skipped(label, n(), "the host rows sort library key types only");
        return -1;
      }
    } else {  // the bench-only keys run on the GPU only (struct_key_suite)
      if (!m.gpu()) {
        if constexpr (narrow_values<V>)
          return time_cpu_sort<K, V>(m, keys, vals_or_null(), cfg.warmup, cfg.reps, out_keys, out_vals);
        else
          return -1;  // not built (run() skips it first)
      }
      if (m.kind == method_kind::host && !sorter)  // ours: the library allocates what it needs
        return time_host_sort<K, V>(m, keys, vals_or_null(), cfg.warmup, cfg.reps, out_keys, out_vals, {});
    }
    if (!dev && dev_skip.empty()) {
      const std::size_t need = device_data<K, V>::bytes_needed(n(), cfg.pairs);
      const std::size_t free_b = device_free_bytes();
      if (need + memory_margin > free_b)
        dev_skip = "input and output buffers need " + gib(need) + ", " + gib(free_b) +
                   " of device memory free";
      else
        dev = std::make_unique<device_data<K, V>>(keys, vals_or_null(), *gpu);
    }
    if (!dev) {
      rep.skipped(label, n(), dev_skip);
      return -1;
    }
    V* vin = cfg.pairs ? dev->vals_in.template as<V>() : nullptr;
    V* vout = cfg.pairs ? dev->vals_out.template as<V>() : nullptr;
    const std::size_t scratch_bytes = sorter->scratch_bytes(
        dev->keys_in.template as<K>(), dev->keys_out.template as<K>(), vin, vout, n());
    const std::size_t need = scratch_bytes + sorter->own_bytes(n(), cfg.pairs);
    const std::size_t free_b = device_free_bytes();
    if (need + memory_margin > free_b) {
      rep.skipped(label, n(), "scratch needs " + gib(need) + ", " + gib(free_b) + " free");
      return -1;
    }
    device_buffer scratch(std::max<std::size_t>(scratch_bytes, 1), "sort scratch");
    if constexpr (!is_struct_key<K>)
      if (m.kind == method_kind::host) {  // the naive rows: copy in, CUB, copy out
        K* kin = dev->keys_in.template as<K>();
        K* kout = dev->keys_out.template as<K>();
        const bool in_place = sorter->in_place(cfg.pairs);
        const naive_sort<K, V> naive = [&](K* k, V* v) {
          const std::size_t kb = n() * sizeof(K), vb = n() * sizeof(V);
          cuda_check(cudaMemcpyAsync(kin, k, kb, cudaMemcpyHostToDevice, gpu->stream), "cudaMemcpyAsync(keys in)");
          if (v) cuda_check(cudaMemcpyAsync(vin, v, vb, cudaMemcpyHostToDevice, gpu->stream), "cudaMemcpyAsync(values in)");
          sorter->sort(scratch.get(), scratch_bytes, kin, kout, vin, vout, n(), gpu->stream);
          cuda_check(cudaMemcpyAsync(k, in_place ? kin : kout, kb, cudaMemcpyDeviceToHost, gpu->stream),
                     "cudaMemcpyAsync(keys out)");
          if (v)
            cuda_check(cudaMemcpyAsync(v, in_place ? vin : vout, vb, cudaMemcpyDeviceToHost, gpu->stream),
                       "cudaMemcpyAsync(values out)");
          cuda_check(cudaStreamSynchronize(gpu->stream), "cudaStreamSynchronize(naive host sort)");
        };
        return time_host_sort<K, V>(m, keys, vals_or_null(), cfg.warmup, cfg.reps, out_keys, out_vals, naive);
      }
    return time_device_sort<K, V>(*sorter, *dev, scratch, scratch_bytes, *gpu, cfg.warmup,
                                  cfg.reps, out_keys, out_vals);
  }

  enum class outcome { measured, skipped, failed };

  // time(), its errors reported under `label`: an unsupported input or a
  // lack of memory is a skip, anything else a failure.
  outcome attempt(const method& m, device_sorter<K, V>* sorter, const std::string& label,
                  double& ms) {
    try {
      ms = time(m, sorter, label);
      return ms < 0 ? outcome::skipped : outcome::measured;
    } catch (const error& e) {
      if (e.code() == errc::unsupported) {
        rep.skipped(label, n(), std::string("unsupported: ") + e.what());
        return outcome::skipped;
      }
      if (e.code() == errc::out_of_memory) {
        rep.skipped(label, n(), std::string("out of memory: ") + e.what());
        if (m.gpu() && gpu && !gpu_still_usable()) gpu = nullptr;
        return outcome::skipped;
      }
      rep.failed(label, n(), e.what());
    } catch (const std::bad_alloc&) {
      rep.skipped(label, n(), "out of host memory");
      return outcome::skipped;
    } catch (const std::exception& e) {
      rep.failed(label, n(), e.what());
    }
    if (m.gpu() && gpu && !gpu_still_usable()) gpu = nullptr;
    return outcome::failed;
  }

  harness::check verify(const method& m) const {
    const options asc{};
    if (out_keys.size() != n()) return {false, "output has the wrong length"};
    if constexpr (is_struct_key<K>) {
      const bool peer = checks_peer_order<K>(m);
      std::vector<std::uint32_t>& order = peer ? peer_order : struct_order;
      if (order.size() != n()) order = struct_key_order(keys, peer);
      if constexpr (std::is_same_v<V, std::uint32_t>)
        return verify_struct_keys(keys, order, out_keys, cfg.pairs ? &out_vals : nullptr);
      else
        return verify_struct_keys(keys, order, out_keys);
    } else {
      if (bdist->segmented()) {  // each segment on its own
        if (!cfg.pairs) return verify_segmented_keys<K>(keys.data(), out_keys.data(), offsets);
        if (out_vals.size() != n()) return {false, "value output has the wrong length"};
        return verify_segmented_pairs<K, V>(keys.data(), out_keys.data(), out_vals.data(), offsets,
                                            m.stable());
      }
      if (!cfg.pairs) return harness::verify_keys_fast<K>(keys.data(), out_keys.data(), n(), asc);
      if (out_vals.size() != n()) return {false, "value output has the wrong length"};
      return harness::verify_pairs_fast<K, V>(keys.data(), out_keys.data(), out_vals.data(), n(),
                                              asc, m.stable());
    }
  }

  // Runs, verifies and reports m; false if it failed (not merely skipped)
  // or was skipped for lack of memory, so larger sizes are not tried. A
  // sorter with variants (the CUB peers' offset widths) is timed and
  // verified in each, and the row reports the fastest; a variant that is
  // skipped leaves the others to report.
  bool run(const method& m) {
    if (const std::string why = not_built<K, V>(m, key); !why.empty()) {
      rep.skipped(m.name, n(), why);
      return false;
    }
    std::unique_ptr<device_sorter<K, V>> sorter;
    variant_list variants;
    if (m.gpu() && !(m.kind == method_kind::host && m.which != peer::host_naive_pinned &&
                     m.which != peer::host_naive_pageable)) {
      sorter = make_sorter<K, V>(m, cfg.pivots);
      if (!sorter) {
        rep.failed(m.name, n(), "no GPU sorter for " + key + " keys");
        return false;
      }
      if (m.segmented) {
        if (!segments_ready(m)) return false;
        sorter->set_segments(dev_offsets->view, cfg.pairs);
      }
      variants = sorter->variants(n());
    }
    std::vector<row_config> configs;  // as measured
    for (std::size_t i = 0; i < std::max<std::size_t>(variants.names.size(), 1); ++i) {
      std::string label = m.name;
      if (!variants.names.empty()) {
        sorter->select_variant(variants.names[i]);
        label += " (" + variants.what + " " + variants.names[i] + ")";
      }
      double ms = -1;
      const outcome o = attempt(m, sorter.get(), label, ms);
      if (o == outcome::failed) return false;
      if (o == outcome::skipped) {
        if (!dev || !gpu) return false;  // no variant can run
        continue;
      }
      harness::check c = verify(m);
      if (!c) {
        std::printf("  !!! output of %s for n=%zu (%s %s, values %s) is WRONG: %s\n",
                    label.c_str(), n(), dist.c_str(), key.c_str(), value.c_str(),
                    c.message.c_str());
        std::fprintf(stderr, "gpusort bench: VERIFICATION FAILED: %s n=%zu %s %s values %s: %s\n",
                     label.c_str(), n(), dist.c_str(), key.c_str(), value.c_str(),
                     c.message.c_str());
      }
      configs.push_back({variants.names.empty() ? std::string() : variants.names[i], ms, bool(c)});
    }
    if (configs.empty()) return false;
    // The fastest first (ties: the first timed).
    std::stable_sort(configs.begin(), configs.end(), [](const row_config& a, const row_config& b) {
      return a.median_ms < b.median_ms;
    });
    row r;
    r.algorithm = m.name, r.key = key, r.value = value, r.dist = dist;
    r.n = n(), r.median_ms = configs.front().median_ms;
    r.verified = std::all_of(configs.begin(), configs.end(),
                             [](const row_config& c) { return c.verified; });
    r.bytes_per_item = sizeof(K) + (cfg.pairs ? sizeof(V) : 0);
    if (!variants.names.empty()) r.config_what = variants.what, r.configs = configs;
    rep.add(r);
    last_ms = r.median_ms;
    return true;
  }
  double last_ms = 0;

  // Segmented points (segN, segpowN): the distribution, the offsets, and
  // their device copy, made by the first segmented method (outside any
  // timing); false, reported, when that cannot be.
  bool segments_ready(const method& m) {
    if (dev_offsets) return true;
    const std::size_t need = offsets.size() * (sizeof(std::int64_t) + sizeof(std::int32_t));
    const std::size_t free_b = device_free_bytes();
    if (need + memory_margin > free_b) {
      rep.skipped(m.name, n(), "segment offsets need " + gib(need) + ", " + gib(free_b) + " free");
      return false;
    }
    try {
      dev_offsets = std::make_unique<device_offsets>(offsets, n());
      return true;
    } catch (const std::exception& e) {
      rep.failed(m.name, n(), e.what());
      if (gpu && !gpu_still_usable()) gpu = nullptr;
      return false;
    }
  }
  const bench_dist* bdist = nullptr;
  std::vector<std::int64_t> offsets{};  // offsets[0..num_segments], segmented points only
  std::unique_ptr<device_offsets> dev_offsets{};
};

// The suite for K keys with V values (pairs) or none (keys only, V unused).
template <class K, class V> void run_points(const suite_config& cfg, gpu_timer*& gpu, reporter& rep) {
  const std::string key = bench_key_name<K>(), value = cfg.pairs ? key_name<V>() : "-";
  for (const bench_dist& d : cfg.dists) {
    // Segmented methods on segmented distributions, the others on the rest.
    std::vector<const method*> methods;
    for (const method* m : cfg.methods)
      if (m->segmented == d.segmented()) methods.push_back(m);
    if (methods.empty()) continue;
    const std::string dist = d.name();
    rep.group(key, value, dist);
    struct last_run {
      std::uint64_t n;
      double ms;
    };
    std::map<std::string, last_run> last;  // each method's previous size
    std::set<std::string> stopped;         // methods past a cap, or failed
    for (std::uint64_t n : cfg.sizes) {
      // The methods that run at this size; a cap is announced once.
      std::vector<const method*> todo;
      for (const method* m : methods) {
        if (stopped.count(m->name) || (m->gpu() && !gpu)) continue;
        std::string why;
        if (cfg.caps && m->max_n && n > m->max_n) {
          why = "cap n <= " + format_n(m->max_n) + " for " + m->name + " (--no-caps lifts it)";
        } else if (auto it = last.find(m->name); cfg.caps && it != last.end()) {
          const double predicted =
              it->second.ms * std::pow(double(n) / double(it->second.n), m->growth);
          if (predicted > m->max_run_ms)
            why = "one run would take ~" + std::to_string(long(predicted)) + " ms (limit " +
                  std::to_string(long(m->max_run_ms)) + " ms; --no-caps lifts it)";
        }
        if (!why.empty()) {
          rep.skipped(m->name, n, why + "; larger n skipped too");
          stopped.insert(m->name);
          continue;
        }
        todo.push_back(m);
      }
      if (todo.empty()) continue;

      point<K, V> p{cfg, gpu, rep, key, value, dist, {}, {}, nullptr, {}, {}, {}};
      p.bdist = &d;
      if constexpr (is_struct_key<K>)
        p.keys = generate_struct_keys<K>(d.keys, n, cfg.seed);
      else
        p.keys = harness::generate<K>(d.keys, n, cfg.seed);
      if (d.segmented()) {
        p.offsets = segment_offsets(d, n, cfg.seed);
        std::printf("  %s n=%s: %s\n", dist.c_str(), format_n(n).c_str(), describe_segments(p.offsets).c_str());
        std::fflush(stdout);
      }
      if (cfg.pairs) {
        p.vals.resize(n);
        std::iota(p.vals.begin(), p.vals.end(), V(0));
      }
      for (const method* m : todo) {
        if (m->gpu() && !gpu) continue;  // lost during this point
        if (p.run(*m))
          last[m->name] = {n, p.last_ms};
        else
          stopped.insert(m->name);
      }
    }
  }
}

}  // namespace

template <class K>
void run_suite(const suite_config& given, gpu_timer*& gpu, reporter& rep) {
  const suite_config cfg = is_struct_key<K> ? struct_key_suite<K>(given) : given;
  if (!cfg.pairs || cfg.value_bits == 32) return run_points<K, std::uint32_t>(cfg, gpu, rep);
  // u64 values: only the keys built for them, so that the other keys
  // compile no second copy of the suite.
  if constexpr (!is_struct_key<K>) {
    if constexpr (has_u64_values<K>)
      return run_points<K, std::uint64_t>(cfg, gpu, rep);
    std::printf("\n%s keys, values u64: skipping every method (u64 values are built for %s keys "
                "only: GPUSORT_CLI_U64_VALUE_KEYS in src/cli/CMakeLists.txt)\n",
                bench_key_name<K>().c_str(), std::string(u64_value_keys).c_str());
  }
}

#define GPUSORT_CLI_SUITE(K) \
  template void run_suite<K>(const suite_config&, gpu_timer*&, reporter&);
GPUSORT_FOR_EACH_KEY(GPUSORT_CLI_SUITE)
GPUSORT_CLI_SUITE(u32f32)
GPUSORT_CLI_SUITE(i64f64)
GPUSORT_CLI_SUITE(u128)
GPUSORT_CLI_SUITE(i128)
#undef GPUSORT_CLI_SUITE

}  // namespace gpusort::cli::bench
