// The CPU backend's MSD-hybrid radix sort: one parallel MSD pass, then every
// bucket finished by one thread in its core's cache (the hybrid of Stehle &
// Jacobsen, SIGMOD 2017, "A Memory Bandwidth-Efficient Hybrid Radix Sort on
// GPUs", and of Polychroniou & Ross 2014, on the cores of one machine):
//   MSD pass   the 11 rank bits just below the highest varying one (so the
//              buckets are as many as the keys allow): cpu_radix.hpp's
//              counted, scanned, write-combined scatter from the input into
//              the scratch; its gate stops it, before anything moves, when
//              a bucket holds more than local_max keys (skewed keys: the
//              caller takes the LSD sort or IPS4o)
//   buckets    threads take buckets in turn (dynamic schedule); each
//              counts every lower varying digit of its bucket in one read
//              (counts do not change as the keys move), skips the digits
//              its keys share, and runs stable LSD passes between the
//              bucket's place in the scratch, a buffer of its own and the
//              bucket's place in the input, ordered so that the last lands
//              in the input; tiny buckets take an insertion sort
// Main-memory traffic: one read to find the varying digits (the caller's),
// one to count, one read and write to scatter, one read and write to finish
// the buckets in cache: 5 passes' worth against the LSD sort's 3 (count,
// read, write) a digit, plus a copy back when the digits are odd. Stable.
// Plain C++ with OpenMP.
#pragma once

#include "host/cpu_radix.hpp"

#include <algorithm>
#include <cstddef>
#include <cstring>
#include <memory>
#include <vector>

namespace gpusort::detail::cpu {

// Keys a bucket may hold to be finished in one core's cache (the bucket,
// its buffer and the values: a few MB at most), and below which the hybrid
// is not worth its MSD pass.
constexpr std::size_t local_max = std::size_t(1) << 18;
constexpr std::size_t hybrid_min_keys = std::size_t(1) << 16;
constexpr std::size_t insertion_max = 32;
constexpr int max_local_digits = 6;

// Finishes one bucket of m keys (the MSD digit and every higher bit shared):
// from a (the scratch) into b (its place in the input), with c (local_max
// keys) as a buffer; `shifts` are the lower digits to sort by.
template <class K, class VS, bool PAIRS, class Ord>
void finish_bucket(const K* a_k, const VS* a_v, K* b_k, VS* b_v, K* c_k, VS* c_v, std::size_t m, const Ord& ord,
                   const int* shifts, int count, std::size_t* hist) {
  auto digit = [&](K k, int shift) { return std::size_t((ord.key_rank(k) >> shift) & (radix_bins - 1)); };
  if (m <= insertion_max) {  // stable insertion sort by rank, in place in b
    std::memcpy(b_k, a_k, m * sizeof(K));
    if constexpr (PAIRS) std::memcpy(b_v, a_v, m * sizeof(VS));
    for (std::size_t i = 1; i < m; ++i) {
      const K k = b_k[i];
      VS v{};
      if constexpr (PAIRS) v = b_v[i];
      const auto r = ord.key_rank(k);
      std::size_t j = i;
      for (; j > 0 && r < ord.key_rank(b_k[j - 1]); --j) {
        b_k[j] = b_k[j - 1];
        if constexpr (PAIRS) b_v[j] = b_v[j - 1];
      }
      b_k[j] = k;
      if constexpr (PAIRS) b_v[j] = v;
    }
    return;
  }
  // every digit's counts in one read; the digits the bucket's keys share drop out
  std::fill(hist, hist + std::size_t(count) * radix_bins, std::size_t(0));
  for (std::size_t i = 0; i < m; ++i) {
    const K k = a_k[i];
    for (int d = 0; d < count; ++d) ++hist[std::size_t(d) * radix_bins + digit(k, shifts[d])];
  }
  int live[max_local_digits], passes = 0;
  for (int d = 0; d < count; ++d) {
    const std::size_t* h = hist + std::size_t(d) * radix_bins;
    if (std::find(h, h + radix_bins, m) == h + radix_bins) live[passes++] = d;
  }
  if (passes == 0) {
    std::memcpy(b_k, a_k, m * sizeof(K));
    if constexpr (PAIRS) std::memcpy(b_v, a_v, m * sizeof(VS));
    return;
  }
  // a -> (b or c) -> ... -> b: the first pass goes to b when the count is odd
  const K* src_k = a_k;
  const VS* src_v = a_v;
  for (int p = 0; p < passes; ++p) {
    const bool to_b = (passes - p) % 2 == 1;
    K* dst_k = to_b ? b_k : c_k;
    VS* dst_v = to_b ? b_v : c_v;
    std::size_t* h = hist + std::size_t(live[p]) * radix_bins;
    std::size_t at = 0;
    for (int b = 0; b < radix_bins; ++b) {
      const std::size_t c = h[b];
      h[b] = at;
      at += c;
    }
    const int shift = shifts[live[p]];
    for (std::size_t i = 0; i < m; ++i) {
      const K k = src_k[i];
      const std::size_t to = h[digit(k, shift)]++;
      dst_k[to] = k;
      if constexpr (PAIRS) dst_v[to] = src_v[i];
    }
    src_k = dst_k;
    src_v = dst_v;
  }
}

// Sorts keys (and vals, when V is not void) whose ranks vary in the digits
// marked in `varying` (digits of radix_bits, lowest first) and at most in
// bits [0, top_bit]; the result lands back in keys/vals. Returns false,
// having moved nothing, when a bucket of the MSD pass would exceed
// local_max keys.
template <class K, class V, class Ord>
bool hybrid_sort(K* keys, V* vals, std::size_t n, const Ord& ord, int digits, const bool* varying, int top_bit,
                 int threads) {
  constexpr bool pairs = !std::is_void_v<V>;
  using VS = moved_value<V>;
  using wc = combiner<K, VS, pairs>;
  const int msd_shift = std::max(0, top_bit + 1 - radix_bits);
  int shifts[max_local_digits], count = 0;
  for (int d = 0; d < digits && d * radix_bits < msd_shift; ++d)
    if (varying[d] && count < max_local_digits) shifts[count++] = d * radix_bits;
  const scratch<K> tmp_k(n);
  const scratch<VS> tmp_v(pairs ? n : 0);
  VS* const in_v = static_cast<VS*>(static_cast<void*>(vals));
  std::vector<std::size_t> offsets(std::size_t(threads) * radix_bins), starts(radix_bins + 1);
  std::vector<std::unique_ptr<wc>> combiners(static_cast<std::size_t>(threads));
  // ---- MSD pass: input -> scratch, unless a bucket is too large ------------------
  const bool fits = scatter_pass(keys, in_v, tmp_k.get(), tmp_v.get(), n, ord, msd_shift, threads, offsets.data(),
                                 combiners, starts.data(), [](const std::size_t* totals) {
                                   return *std::max_element(totals, totals + radix_bins) <= local_max;
                                 });
  if (!fits) return false;
  combiners.clear();
  // ---- buckets: each finished in cache, scratch -> input --------------------------
#pragma omp parallel num_threads(threads)
  {
    const auto buf_k = std::make_unique_for_overwrite<K[]>(local_max);
    const auto buf_v = std::make_unique_for_overwrite<VS[]>(pairs ? local_max : 1);
    const auto hist = std::make_unique_for_overwrite<std::size_t[]>(std::size_t(max_local_digits) * radix_bins);
#pragma omp for schedule(dynamic, 4)
    for (int b = 0; b < radix_bins; ++b) {
      const std::size_t at = starts[std::size_t(b)], m = starts[std::size_t(b) + 1] - at;
      if (m == 0) continue;
      finish_bucket<K, VS, pairs>(tmp_k.get() + at, tmp_v.get() + (pairs ? at : 0), keys + at,
                                  in_v + (pairs ? at : 0), buf_k.get(), buf_v.get(), m, ord, shifts, count,
                                  hist.get());
    }
  }
  return true;
}

}  // namespace gpusort::detail::cpu
