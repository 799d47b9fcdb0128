// Timing the host-memory rows (sort(std::span)) with std::chrono: the calls
// are synchronous, and their copies are part of what is measured. The host
// input is restored from the pristine copy before each run (not timed);
// warm-up runs first, median of the timed runs reported.
//   host_pinned / host_pageable: gpusort::sort(std::span) of keys in pinned
//     (cudaHostAlloc) / pageable memory: the host pipeline.
//   host_naive_pinned / host_naive_pageable: cudaMemcpy in, CUB's radix sort
//     (the cub_radix sorter, each offset width timed; device buffers and
//     scratch allocated outside the timing), cudaMemcpy out: `naive`.
#pragma once

#include "cuda_check.hpp"
#include "methods.hpp"

#include <gpusort/gpusort.hpp>

#include <cuda_runtime_api.h>

#include <algorithm>
#include <chrono>
#include <cstring>
#include <functional>
#include <memory>
#include <span>
#include <vector>

namespace gpusort::cli::bench {

// n items of T in pinned memory for one point, freed after it.
template <class T> struct pinned_array {
  T* p = nullptr;
  explicit pinned_array(std::size_t n) {
    cuda_check(cudaHostAlloc(reinterpret_cast<void**>(&p), (n ? n : 1) * sizeof(T), cudaHostAllocDefault),
               "cudaHostAlloc(bench input)");
  }
  ~pinned_array() { cuda_warn(cudaFreeHost(p), "cudaFreeHost"); }
  pinned_array(const pinned_array&) = delete;
  pinned_array& operator=(const pinned_array&) = delete;
};

// The naive rows' sort of host keys (and values) in place: copy in, sort, copy out.
template <class K, class V> using naive_sort = std::function<void(K*, V*)>;

template <class K, class V>
double time_host_sort(const method& m, const std::vector<K>& keys, const std::vector<V>* vals, int warmup,
                      int reps, std::vector<K>& out_keys, std::vector<V>& out_vals, const naive_sort<K, V>& naive) {
  const std::size_t n = keys.size();
  const bool pinned = m.which == peer::host_pinned || m.which == peer::host_naive_pinned;
  std::unique_ptr<pinned_array<K>> pk;
  std::unique_ptr<pinned_array<V>> pv;
  out_keys.resize(n);
  if (vals) out_vals.resize(n);
  if (pinned) {
    pk = std::make_unique<pinned_array<K>>(n);
    if (vals) pv = std::make_unique<pinned_array<V>>(n);
  }
  K* k = pinned ? pk->p : out_keys.data();
  V* v = vals ? (pinned ? pv->p : out_vals.data()) : nullptr;
  std::vector<double> times;
  for (int r = 0; r < warmup + reps; ++r) {
    std::memcpy(k, keys.data(), n * sizeof(K));
    if (vals) std::memcpy(v, vals->data(), n * sizeof(V));
    const auto t0 = std::chrono::steady_clock::now();
    if (naive) naive(k, v);
    else if (vals) sort<K, V>(std::span<K>(k, n), std::span<V>(v, n));
    else sort<K>(std::span<K>(k, n));
    const auto t1 = std::chrono::steady_clock::now();
    if (r >= warmup) times.push_back(std::chrono::duration<double, std::milli>(t1 - t0).count());
  }
  if (pinned) {
    std::memcpy(out_keys.data(), k, n * sizeof(K));
    if (vals) std::memcpy(out_vals.data(), v, n * sizeof(V));
  }
  std::sort(times.begin(), times.end());
  return times[times.size() / 2];
}

}  // namespace gpusort::cli::bench
