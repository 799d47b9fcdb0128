// The CPU backend's radix sort: a parallel LSD radix sort over OpenMP
// threads (11-bit digits of the key's rank under the call's order: three
// passes for 32-bit keys; Satish et al. 2010, "Fast sort on CPUs and GPUs",
// and Polychroniou & Ross 2014, "A comprehensive study of main-memory
// partitioning and its application to large-scale comparison- and
// radix-sort", describe the same histogram / offsets / scatter scheme per
// pass on many cores):
//   histograms  one read counts every digit of every key per thread: digits
//               that all keys share are skipped, and the caller learns how
//               many passes are left (it takes IPS4o for keys that need
//               many: cpu_sort.cpp)
//   each pass   each thread counts its slice's digit (a read), the offsets
//               are scanned digit by digit then thread by thread (so equal
//               digits keep slice order: stable), and each thread scatters
//               its slice's keys, and values with them, to the other buffer
//               through write-combining buffers (a cache line a digit)
// Keys and values move as their raw bits; digits come from key_order's rank
// (twiddle, -0.0 folded into +0.0, descending flip, bit range), so the
// result is the stable sort under CUB's order with no pass before or after.
// Plain C++ with OpenMP.
#pragma once

#include <gpusort/detail/key_traits.hpp>

#include <emmintrin.h>
#include <omp.h>
#include <sys/mman.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>
#include <new>
#include <type_traits>
#include <vector>
#include <cstdlib>

namespace gpusort::detail::cpu {

constexpr int radix_bits = 11;
constexpr int radix_bins = 1 << radix_bits;

// Threads for n keys: one per 2^16 keys, at most the OpenMP maximum.
inline int radix_threads(std::size_t n) {
  const std::size_t most = std::size_t(omp_get_max_threads() > 0 ? omp_get_max_threads() : 1);
  const std::size_t want = n / (std::size_t(1) << 16) + 1;
  return int(want < most ? want : most);
}

// Which digits of the ranks vary: one read that ORs every rank's difference
// from the first key's (a digit varies exactly when some key differs from
// the first in it). varying[d] for d < digits; returns how many vary;
// *top_bit gets the highest rank bit that varies (-1: none).
template <class K, class Ord>
int varying_digits(const K* keys, std::size_t n, const Ord& ord, int digits, int threads, bool* varying,
                   int* top_bit) {
  using R = decltype(ord.key_rank(keys[0]));
  const R first = ord.key_rank(keys[0]);
  R differ = 0;
#pragma omp parallel for num_threads(threads) schedule(static) reduction(| : differ)
  for (std::int64_t i = 0; i < std::int64_t(n); ++i) differ |= R(ord.key_rank(keys[i]) ^ first);
  int count = 0;
  *top_bit = -1;
  for (int d = 0; d < digits; ++d) {
    varying[d] = ((differ >> (d * radix_bits)) & R(radix_bins - 1)) != 0;
    count += varying[d];
  }
  for (int bit = int(sizeof(R)) * 8 - 1; bit >= 0; --bit)
    if ((differ >> bit) & R(1)) {
      *top_bit = bit;
      break;
    }
  return count;
}

// The second buffer of the passes: huge pages where the kernel gives them
// (madvise), since first touching a fresh buffer 4 KB at a time costs about
// as much as a pass in a VM (docs/perf/host.md).
template <class T> class scratch {
 public:
  explicit scratch(std::size_t n) {
    constexpr std::size_t huge = std::size_t(2) << 20;
    bytes_ = (std::max<std::size_t>(n, 1) * sizeof(T) + huge - 1) / huge * huge;
    p_ = static_cast<T*>(std::aligned_alloc(huge, bytes_));
    if (!p_) throw std::bad_alloc();
    madvise(p_, bytes_, MADV_HUGEPAGE);
  }
  ~scratch() { std::free(p_); }
  scratch(const scratch&) = delete;
  scratch& operator=(const scratch&) = delete;
  T* get() const { return p_; }

 private:
  T* p_ = nullptr;
  std::size_t bytes_ = 0;
};

// Write-combining buffers of one thread's scatter (Satish et al. 2010,
// "Fast sort on CPUs and GPUs: a case for bandwidth oblivious SIMD sort";
// Polychroniou & Ross 2014): each digit's keys gather in a cache line's
// worth of slots, and go out a whole line at a time, with non-temporal
// stores where the line is aligned (no read for ownership of the target).
// A digit's first flush stops at the next 64-byte boundary of the keys, so
// every later one is aligned. Values ride in parallel slots.
template <class K, class VS, bool PAIRS> struct combiner {
  static constexpr int slots = 64 / int(sizeof(K)) > 0 ? 64 / int(sizeof(K)) : 1;
  alignas(64) K keys[radix_bins][slots];
  VS vals[PAIRS ? radix_bins : 1][slots];
  unsigned fill[radix_bins];
  unsigned room[radix_bins];  // slots before the flush (the first one aligns)

  void start(const K* dst, const std::size_t* pos) {
    for (int b = 0; b < radix_bins; ++b) {
      fill[b] = 0;
      const std::size_t mis = (reinterpret_cast<std::uintptr_t>(dst + pos[b]) % 64) / sizeof(K);
      room[b] = unsigned(slots) - unsigned(mis);
    }
  }
  static void put_line(K* to, const K* from) {
    if (reinterpret_cast<std::uintptr_t>(to) % 16 == 0) {
      for (std::size_t at = 0; at < 64; at += 16)
        _mm_stream_si128(reinterpret_cast<__m128i*>(reinterpret_cast<char*>(to) + at),
                         _mm_load_si128(reinterpret_cast<const __m128i*>(reinterpret_cast<const char*>(from) + at)));
    } else {
      std::memcpy(to, from, 64);
    }
  }
  void flush(int b, K* dst_k, VS* dst_v, std::size_t& pos) {
    const unsigned m = fill[b];
    if (m == unsigned(slots)) put_line(dst_k + pos, keys[b]);
    else std::memcpy(dst_k + pos, keys[b], m * sizeof(K));
    if constexpr (PAIRS) std::memcpy(dst_v + pos, vals[b], m * sizeof(VS));
    pos += m;
    fill[b] = 0;
    room[b] = unsigned(slots);
  }
};

// One pass: each thread counts its slice's digit (at `shift`, radix_bits
// wide), `gate` sees the totals (radix_bins of them) and may stop the pass
// before anything moves (returns false), the offsets are scanned digit by
// digit then thread by thread (so equal digits keep slice order: stable),
// `starts` (when not null) gets each digit's first position, and each
// thread scatters its slice's keys, and values with them, through its
// write-combining buffers. offsets: threads x radix_bins.
template <class K, class VS, bool PAIRS, class Ord, class Gate>
bool scatter_pass(const K* src_k, const VS* src_v, K* dst_k, VS* dst_v, std::size_t n, const Ord& ord, int shift,
                  int threads, std::size_t* offsets, std::vector<std::unique_ptr<combiner<K, VS, PAIRS>>>& combiners,
                  std::size_t* starts, Gate gate) {
  using wc = combiner<K, VS, PAIRS>;
  bool go = true;
#pragma omp parallel num_threads(threads)
  {
    const int t = omp_get_thread_num(), nt = omp_get_num_threads();
    const std::size_t lo = n * std::size_t(t) / std::size_t(nt), hi = n * std::size_t(t + 1) / std::size_t(nt);
    // count this slice's digits
    std::size_t* mine = offsets + std::size_t(t) * radix_bins;
    std::fill(mine, mine + radix_bins, std::size_t(0));
    for (std::size_t i = lo; i < hi; ++i) ++mine[(ord.key_rank(src_k[i]) >> shift) & (radix_bins - 1)];
    if (!combiners[std::size_t(t)]) combiners[std::size_t(t)] = std::make_unique<wc>();
#pragma omp barrier
#pragma omp single
    {
      std::vector<std::size_t> totals(radix_bins, 0);
      for (int u = 0; u < nt; ++u)
        for (int b = 0; b < radix_bins; ++b) totals[std::size_t(b)] += offsets[std::size_t(u) * radix_bins + std::size_t(b)];
      go = gate(totals.data());
      // offsets: digit by digit, then thread by thread within a digit
      std::size_t at = 0;
      for (int b = 0; b < radix_bins; ++b) {
        if (starts) starts[b] = at;
        for (int u = 0; u < nt; ++u) {
          std::size_t& c = offsets[std::size_t(u) * radix_bins + std::size_t(b)];
          const std::size_t count = c;
          c = at;
          at += count;
        }
      }
      if (starts) starts[radix_bins] = at;
    }
    // scatter through the combining buffers (the single's implied barrier:
    // every offset is known)
    if (go) {
      wc& w = *combiners[std::size_t(t)];
      w.start(dst_k, mine);
      for (std::size_t i = lo; i < hi; ++i) {
        const K k = src_k[i];
        const int b = int((ord.key_rank(k) >> shift) & (radix_bins - 1));
        const unsigned f = w.fill[b]++;
        w.keys[b][f] = k;
        if constexpr (PAIRS) w.vals[b][f] = src_v[i];
        if (f + 1 == w.room[b]) w.flush(b, dst_k, dst_v, mine[b]);
      }
      for (int b = 0; b < radix_bins; ++b)
        if (w.fill[b]) w.flush(b, dst_k, dst_v, mine[b]);
      _mm_sfence();  // the streamed lines are visible before the next pass reads them
    }
  }
  return go;
}

// The value type a sort moves: V, or a one-byte stand-in for keys alone.
template <class V> using moved_value = std::conditional_t<std::is_void_v<V>, unsigned char, V>;

// Sorts keys (and vals, when V is not void) by the digits marked in
// `varying`, lowest first; the result lands back in keys/vals.
template <class K, class V, class Ord>
void radix_sort(K* keys, V* vals, std::size_t n, const Ord& ord, int digits, const bool* varying, int threads) {
  constexpr bool pairs = !std::is_void_v<V>;
  using VS = moved_value<V>;
  using wc = combiner<K, VS, pairs>;
  const scratch<K> tmp_k(n);
  const scratch<VS> tmp_v(pairs ? n : 0);
  K* src_k = keys;
  K* dst_k = tmp_k.get();
  VS* src_v = static_cast<VS*>(static_cast<void*>(vals));
  VS* dst_v = tmp_v.get();
  std::vector<std::size_t> offsets(std::size_t(threads) * radix_bins);
  std::vector<std::unique_ptr<wc>> combiners(static_cast<std::size_t>(threads));
  for (int d = 0; d < digits; ++d) {
    if (!varying[d]) continue;
    scatter_pass(src_k, src_v, dst_k, dst_v, n, ord, d * radix_bits, threads, offsets.data(), combiners, nullptr,
                 [](const std::size_t*) { return true; });
    std::swap(src_k, dst_k);
    std::swap(src_v, dst_v);
  }
  if (src_k != keys) {  // an odd number of passes: the result is in the scratch
#pragma omp parallel for num_threads(threads) schedule(static)
    for (std::int64_t i = 0; i < std::int64_t(n); ++i) {
      keys[i] = src_k[i];
      if constexpr (pairs) static_cast<VS*>(static_cast<void*>(vals))[i] = src_v[i];
    }
  }
}

}  // namespace gpusort::detail::cpu
