// Timing the CPU baselines with std::chrono: the input is restored from a
// host copy before each run (not timed), then the sort alone is timed;
// warm-up runs first, median of the timed runs reported.
//   std_sort:     std::sort, one thread, comparing key_order ranks (so its
//                 order is ours); pairs are sorted as (key, value) records
//                 zipped and unzipped outside the timing.
//   cpu_parallel: gpusort::sort_cpu (the library's parallel CPU backend).
//   gnu_parallel: libstdc++'s parallel mode, __gnu_parallel::stable_sort
//                 (multiway mergesort over OpenMP; the backend before
//                 IPS4o), on keys or on the same records.
//   ips4o:        IPS4o's own ips4o::parallel::sort with the same order, on
//                 keys or on the same records: the library the CPU backend
//                 is built on, as its authors ship it (not stable).
//   cpu_merge_recursive / cpu_merge_iterative: "Merge sort on CUDA" (Russian, "Сортировка слиянием на CUDA")'s CPU merge sorts
//                 (one thread, stable), on keys or on the same records.
#pragma once

#include "bench/cpu_merge.hpp"
#include "methods.hpp"

#include <gpusort/gpusort.hpp>

#include <ips4o/ips4o.hpp>
#include <parallel/algorithm>

#include <algorithm>
#include <chrono>
#include <span>
#include <vector>

namespace gpusort::cli::bench {

// The suite calls it with V = std::uint32_t only: each V is another set of
// record sorts (IPS4o, parallel mode, ...) to compile, so the CPU baselines
// are skipped for u64 values.
template <class K, class V>
double time_cpu_sort(const method& m, const std::vector<K>& keys, const std::vector<V>* vals,
                     int warmup, int reps, std::vector<K>& out_keys, std::vector<V>& out_vals) {
  const std::size_t n = keys.size();
  const detail::key_order<K> ord{};
  auto less = [ord](const K& a, const K& b) { return ord.key_rank(a) < ord.key_rank(b); };
  struct record {
    K key;
    V val;
  };
  std::vector<record> records;

  // Sets up the input (untimed) and returns the timed sort.
  // these sort pairs as (key, value) records, zipped and unzipped untimed
  const bool on_records = m.which == peer::std_sort || m.which == peer::cpu_merge_recursive ||
                          m.which == peer::cpu_merge_iterative || m.which == peer::gnu_parallel ||
                          m.which == peer::ips4o;
  auto by_key = [&](const record& a, const record& b) { return less(a.key, b.key); };
  auto restore = [&] {
    if (on_records && vals) {
      records.resize(n);
      for (std::size_t i = 0; i < n; ++i) records[i] = {keys[i], (*vals)[i]};
    } else {
      out_keys = keys;
      if (vals) out_vals = *vals;
    }
  };
  auto run = [&] {
    if (m.which == peer::cpu_merge_recursive) {
      if (vals) detail::cpu_merge::sort_recursive(records.data(), n, by_key);
      else detail::cpu_merge::sort_recursive(out_keys.data(), n, less);
    } else if (m.which == peer::cpu_merge_iterative) {
      if (vals) detail::cpu_merge::sort_iterative(records.data(), n, by_key);
      else detail::cpu_merge::sort_iterative(out_keys.data(), n, less);
    } else if (m.which == peer::gnu_parallel) {
      if (vals) __gnu_parallel::stable_sort(records.begin(), records.end(), by_key);
      else __gnu_parallel::stable_sort(out_keys.begin(), out_keys.end(), less);
    } else if (m.which == peer::ips4o) {
      if (vals) ips4o::parallel::sort(records.begin(), records.end(), by_key);
      else ips4o::parallel::sort(out_keys.begin(), out_keys.end(), less);
    } else if (m.which == peer::std_sort) {
      if (vals)
        std::sort(records.begin(), records.end(),
                  [&](const record& a, const record& b) { return less(a.key, b.key); });
      else
        std::sort(out_keys.begin(), out_keys.end(), less);
    } else if (vals) {
      sort_cpu<K, V>(std::span<K>(out_keys), std::span<V>(out_vals));
    } else {
      sort_cpu<K>(std::span<K>(out_keys));
    }
  };

  std::vector<double> times;
  for (int r = 0; r < warmup + reps; ++r) {
    restore();
    const auto t0 = std::chrono::steady_clock::now();
    run();
    const auto t1 = std::chrono::steady_clock::now();
    if (r >= warmup) times.push_back(std::chrono::duration<double, std::milli>(t1 - t0).count());
  }
  if (on_records && vals) {
    out_keys.resize(n);
    out_vals.resize(n);
    for (std::size_t i = 0; i < n; ++i) out_keys[i] = records[i].key, out_vals[i] = records[i].val;
  }
  std::sort(times.begin(), times.end());
  return times[times.size() / 2];
}

}  // namespace gpusort::cli::bench
