// The segmented sort's GPU suites (gpu_segmented_test.cpp, gpu_segmented_api_test.cpp):
// segment layouts, guarded device buffers, the oracle's permutation and one
// checked call (run_case), shared by both files.
#pragma once

#include "cub_reference.hpp"
#include "expect_error.hpp"
#include "gpu_util.hpp"
#include "harness/harness.hpp"
#include "key_types.hpp"
#include "oracle.hpp"
#include "values.hpp"

#include <gpusort/gpusort.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <numeric>
#include <string>
#include <type_traits>
#include <vector>

namespace gpusort_test::segmented {

namespace t = gpusort_test;
namespace h = gpusort::harness;
using gpusort::order;

inline constexpr order both_orders[] = {order::ascending, order::descending};

// ---- segment layouts ------------------------------------------------------------

// A deterministic random sequence (splitmix64).
struct rng {
  std::uint64_t s;
  std::uint64_t next() { return t::value_hash(s += 0x9E3779B97F4A7C15ull); }
  std::uint64_t below(std::uint64_t m) { return m ? next() % m : 0; }
  double unit() { return double(next() >> 11) * 0x1.0p-53; }  // [0, 1)
};

// n keys and the segments over them, as begin/end offsets.
struct layout {
  std::string name;
  std::size_t n = 0;
  std::vector<std::int64_t> begin, end;

  std::size_t segments() const { return begin.size(); }
  // Whether the one-array form can say it: segment i + 1 starts where i ends.
  bool contiguous() const {
    for (std::size_t i = 0; i + 1 < begin.size(); ++i)
      if (begin[i + 1] != end[i]) return false;
    return true;
  }
  void add(std::int64_t b, std::int64_t e) { begin.push_back(b), end.push_back(e); }
};

// Segments of the given sizes back to back after `lead` keys, then `trail`
// keys outside every segment.
inline layout back_to_back(std::string name, const std::vector<std::size_t>& sizes, std::size_t lead = 0,
                    std::size_t trail = 0) {
  layout L;
  L.name = std::move(name);
  std::int64_t at = std::int64_t(lead);
  for (std::size_t s : sizes) {
    L.add(at, at + std::int64_t(s));
    at += std::int64_t(s);
  }
  L.n = std::size_t(at) + trail;
  if (lead || trail) L.name += " lead=" + std::to_string(lead) + " trail=" + std::to_string(trail);
  return L;
}

inline layout equal_sizes(std::size_t size, std::size_t count, std::size_t lead, std::size_t trail) {
  return back_to_back(std::to_string(count) + " x " + std::to_string(size), std::vector<std::size_t>(count, size),
                      lead, trail);
}

// Segment sizes from a Lomax (shifted Pareto) law, alpha 1.5, mean ~`mean`:
// mostly small segments (empty ones too), a heavy tail of large ones, the
// last cut to fill exactly n keys.
inline std::vector<std::size_t> power_law_sizes(std::size_t n, double mean, std::uint64_t seed) {
  constexpr double alpha = 1.5;
  const double lambda = mean * (alpha - 1);
  rng r{seed};
  std::vector<std::size_t> sizes;
  std::size_t total = 0;
  while (total < n) {
    const double x = lambda * (std::pow(1.0 - r.unit(), -1.0 / alpha) - 1.0);
    const std::size_t left = n - total;
    const std::size_t s = x >= double(left) ? left : std::size_t(x);
    sizes.push_back(s);
    total += s;
  }
  return sizes;
}

inline layout power_law(std::size_t n, double mean, std::uint64_t seed) {
  return back_to_back("power-law mean " + std::to_string(long(mean)), power_law_sizes(n, mean, seed));
}

// One segment of n / 2 keys at a random place among segments of 0..300.
inline layout half_and_small(std::size_t n, std::uint64_t seed) {
  rng r{seed};
  const std::size_t big = n / 2;
  std::vector<std::size_t> sizes;
  std::size_t total = 0;
  while (total < n - big) {
    const std::size_t s = std::min<std::size_t>(r.below(301), n - big - total);
    sizes.push_back(s);
    total += s;
  }
  sizes.insert(sizes.begin() + std::ptrdiff_t(r.below(sizes.size() + 1)), big);
  return back_to_back("one segment of n/2", sizes);
}

// Mostly empty and 1-key segments, some of 2..40 keys, a few of 100..3000.
inline layout empties_and_ones(std::size_t count, std::uint64_t seed) {
  rng r{seed};
  std::vector<std::size_t> sizes(count);
  for (auto& s : sizes) {
    const std::uint64_t x = r.below(1000);
    s = x < 450 ? 0 : x < 900 ? 1 : x < 995 ? 2 + r.below(39) : 100 + r.below(2901);
  }
  return back_to_back("empties and ones", sizes, 0, 0);
}

// Segments with gaps before, between (0..64 keys, often none) and after
// them; begin/end form only.
inline layout gapped(std::size_t approx_n, std::uint64_t seed) {
  rng r{seed};
  layout L;
  L.name = "gapped";
  std::int64_t at = 1 + std::int64_t(r.below(64));
  for (std::size_t s : power_law_sizes(approx_n, 200, seed ^ 0x5EED)) {
    L.add(at, at + std::int64_t(s));
    at += std::int64_t(s);
    if (r.below(3) != 0) at += 1 + std::int64_t(r.below(64));
  }
  L.n = std::size_t(at) + 1 + r.below(64);
  return L;
}

// gapped(), its segments listed in shuffled order, plus empty segments
// whose end is below their begin (both within [0, n]).
inline layout scattered(std::size_t approx_n, std::uint64_t seed) {
  layout g = gapped(approx_n, seed);
  rng r{seed ^ 0xABCD};
  const std::size_t inverted = g.segments() / 20 + 1;
  for (std::size_t i = 0; i < inverted; ++i) {
    const std::int64_t b = 1 + std::int64_t(r.below(g.n));
    g.add(b, b - 1 - std::int64_t(r.below(std::uint64_t(b))));
  }
  std::vector<std::size_t> shuffled(g.segments());
  std::iota(shuffled.begin(), shuffled.end(), std::size_t(0));
  for (std::size_t i = shuffled.size(); i > 1; --i) std::swap(shuffled[i - 1], shuffled[r.below(i)]);
  layout L;
  L.name = "scattered (shuffled order, inverted empties)";
  L.n = g.n;
  for (std::size_t i : shuffled) L.add(g.begin[i], g.end[i]);
  return L;
}

// Only empty segments (begin == end, or end < begin) over n keys.
inline layout only_empty(std::size_t n, std::size_t count, std::uint64_t seed) {
  rng r{seed};
  layout L;
  L.name = "only empty segments";
  L.n = n;
  for (std::size_t i = 0; i < count; ++i) {
    const std::int64_t b = std::int64_t(r.below(n + 1));
    L.add(b, i % 2 ? b : b - std::int64_t(r.below(std::uint64_t(b) + 1)));
  }
  return L;
}

// ---- buffers -----------------------------------------------------------------------

// sizeof(T) bytes of a hash of (index, salt): sentinels and guard fillers.
template <class T> T pattern(std::uint64_t index, std::uint64_t salt) {
  unsigned char bytes[sizeof(T)];
  for (std::size_t j = 0; j < sizeof(T); j += 8) {
    const std::uint64_t x = t::value_hash((index << 2 | (j / 8)) ^ (salt * 0x9E3779B97F4A7C15ull));
    for (std::size_t b = j; b < sizeof(T) && b < j + 8; ++b) bytes[b] = static_cast<unsigned char>(x >> (8 * (b - j)));
  }
  T v;
  std::memcpy(&v, bytes, sizeof(T));
  return v;
}
template <class T> std::vector<T> patterns(std::size_t n, std::uint64_t salt) {
  std::vector<T> v(n);
  for (std::size_t i = 0; i < n; ++i) v[i] = pattern<T>(i, salt);
  return v;
}

template <class T> bool same_bytes(const T& a, const T& b) { return std::memcmp(&a, &b, sizeof(T)) == 0; }
template <class T> bool same_bytes(const std::vector<T>& a, const std::vector<T>& b) {
  return a.size() == b.size() && (a.empty() || std::memcmp(a.data(), b.data(), a.size() * sizeof(T)) == 0);
}

template <class T> std::string show(const T& v) {
  if constexpr (gpusort::detail::is_key<T>::value) {
    return t::hex(v);
  } else {
    unsigned char bytes[sizeof(T)];
    std::memcpy(bytes, &v, sizeof(T));
    std::string s = "0x";
    char buf[4];
    for (std::size_t i = sizeof(T); i-- > 0;) {
      std::snprintf(buf, sizeof buf, "%02x", unsigned(bytes[i]));
      s += buf;
    }
    return s;
  }
}

// n elements of T in device memory between two guard zones of `guard`
// elements, all filled from host data; the guards must survive.
template <class T> class guarded {
 public:
  static constexpr std::size_t guard = 256;  // elements: data stays 256-byte aligned

  guarded(const std::vector<T>& init, std::uint64_t salt)
      : n_(init.size()), buf_(init.size() + 2 * guard), salt_(salt) {
    std::vector<T> image = patterns<T>(n_ + 2 * guard, salt);
    std::copy(init.begin(), init.end(), image.begin() + guard);
    buf_.upload(image);
  }
  T* data() const { return buf_.data() + guard; }
  std::size_t size() const { return n_; }
  std::vector<T> download() const {
    std::vector<T> v(n_);
    if (n_) GPUSORT_CUDA(cudaMemcpy(v.data(), data(), n_ * sizeof(T), cudaMemcpyDeviceToHost));
    return v;
  }
  ::testing::AssertionResult guards_intact() const {
    std::vector<T> g(guard);
    for (int side = 0; side < 2; ++side) {
      const std::size_t at = side ? guard + n_ : 0;
      GPUSORT_CUDA(cudaMemcpy(g.data(), buf_.data() + at, guard * sizeof(T), cudaMemcpyDeviceToHost));
      for (std::size_t i = 0; i < guard; ++i)
        if (!same_bytes(g[i], pattern<T>(at + i, salt_)))
          return ::testing::AssertionFailure()
                 << "the guard zone " << (side ? "after" : "before") << " the array was overwritten at "
                 << (side ? "+" : "-") << (side ? i : guard - i) << " elements";
    }
    return ::testing::AssertionSuccess();
  }

 private:
  std::size_t n_;
  t::device_buffer<T> buf_;
  std::uint64_t salt_;
};

// ---- the oracle ------------------------------------------------------------------------

// perm[i] = the input index whose element belongs at i: std::stable_sort of
// each segment's indices under the oracle order; -1 outside every segment.
template <class K>
std::vector<std::int64_t> oracle_permutation(const std::vector<K>& in, const layout& L, const gpusort::options& opt) {
  std::vector<std::int64_t> perm(L.n, -1);
  const t::oracle_order<K> ord(opt);
  const std::int64_t segments = std::int64_t(L.segments());
#pragma omp parallel for schedule(dynamic, 16)
  for (std::int64_t s = 0; s < segments; ++s) {
    const std::int64_t b = L.begin[std::size_t(s)], e = L.end[std::size_t(s)];
    if (e <= b) continue;
    const auto first = perm.begin() + b, last = perm.begin() + e;
    std::iota(first, last, b);
    std::stable_sort(first, last, [&](std::int64_t x, std::int64_t y) {
      return ord.less(in[std::size_t(x)], in[std::size_t(y)]);
    });
  }
  return perm;
}

// `init` with perm applied to `in` where perm says so.
template <class T>
std::vector<T> apply(const std::vector<std::int64_t>& perm, const std::vector<T>& in, std::vector<T> init) {
  for (std::size_t i = 0; i < perm.size(); ++i)
    if (perm[i] >= 0) init[i] = in[std::size_t(perm[i])];
  return init;
}

inline std::string where(const layout& L, std::size_t i) {
  for (std::size_t s = 0; s < L.segments(); ++s)
    if (std::int64_t(i) >= L.begin[s] && std::int64_t(i) < L.end[s])
      return "segment " + std::to_string(s) + " = [" + std::to_string(L.begin[s]) + ", " +
             std::to_string(L.end[s]) + ")";
  return "outside every segment";
}

// got == want bit for bit; else names the first difference and its segment.
template <class T>
::testing::AssertionResult same_output(const std::vector<T>& got, const std::vector<T>& want, const layout& L) {
  if (got.size() != want.size())
    return ::testing::AssertionFailure() << "sizes differ: " << got.size() << " vs " << want.size();
  for (std::size_t i = 0; i < got.size(); ++i)
    if (!same_bytes(got[i], want[i]))
      return ::testing::AssertionFailure() << "first difference at index " << i << " (" << where(L, i)
                                           << "): got " << show(got[i]) << ", expected " << show(want[i]);
  return ::testing::AssertionSuccess();
}

template <class K> bool has_nan(const std::vector<K>& v) {
  if constexpr (t::traits<K>::is_float) {
    for (const K& k : v)
      if (t::nan_side(k) != 0) return true;
  }
  return false;
}

// ---- one case ------------------------------------------------------------------------------

enum class api { two_phase, allocating };

struct seg_case {
  h::dist d = h::dist::uniform;
  order dir = order::ascending;
  int begin_bit = 0, end_bit = -1;
  std::uint64_t seed = 1;
  bool pairs = false;
  bool one_array = false;  // offsets[0..num] rather than begin/end arrays
  bool in_place = false;
  api call = api::two_phase;
  gpusort::nan_order nans = gpusort::nan_order::bits;
  std::vector<std::uint64_t> raw;  // when not empty, the keys' bits (the low bytes for narrower keys), not d's
};

// Keys of the given bits, each cut to the key's width.
template <class K> std::vector<K> keys_of_bits(const std::vector<std::uint64_t>& raw) {
  std::vector<K> v(raw.size());
  for (std::size_t i = 0; i < raw.size(); ++i) std::memcpy(&v[i], &raw[i], sizeof(K));  // little endian
  return v;
}

template <class O> const char* offset_name() {
  return std::is_signed_v<O> ? (sizeof(O) == 4 ? "int32" : "int64") : (sizeof(O) == 4 ? "uint32" : "uint64");
}

template <class K, class O, class V>
std::string describe(const layout& L, const seg_case& c) {
  std::string s = std::string(gpusort::detail::key_info<K>::name) + " segmented " +
                  (c.pairs ? "pairs (value " + std::to_string(sizeof(V)) + " bytes)" : std::string("keys")) +
                  " layout=" + L.name + " n=" + std::to_string(L.n) + " segments=" + std::to_string(L.segments()) +
                  " dist=" + (c.raw.empty() ? std::string(h::to_string(c.d)) : std::string("given bits")) + " " + t::name(c.dir) + " bits=[" +
                  std::to_string(c.begin_bit) + "," + std::to_string(c.end_bit) + ") " +
                  (c.one_array ? "one-array " : "begin/end ") + offset_name<O>() + " offsets, " +
                  (c.call == api::two_phase ? "two-phase" : "allocating") + (c.in_place ? ", in place" : "") +
                  " seed=" + std::to_string(c.seed) + (c.nans == gpusort::nan_order::largest ? " nans=largest" : "");
  return s;
}

template <class V> V value_for(std::uint64_t i) {
  if constexpr (std::is_same_v<V, std::uint32_t>) return std::uint32_t(i);
  else return t::make_value<V>(i);
}

// The library's call for case c. Two-phase: the size query, then the sort
// with exactly that scratch plus a guard zone, which must come back intact
// (returns a message if not, else "").
template <class K, class V, class O>
std::string sort_segments(const seg_case& c, const K* kin, K* kout, const V* vin, V* vout, std::size_t n,
                          std::size_t num, const O* begin, const O* end, const gpusort::options& opt) {
  if (c.call == api::allocating) {
    if (c.pairs) {
      if (c.one_array) gpusort::segmented_sort_pairs<K, V, O>(kin, kout, vin, vout, n, num, begin, opt);
      else gpusort::segmented_sort_pairs<K, V, O>(kin, kout, vin, vout, n, num, begin, end, opt);
    } else {
      if (c.one_array) gpusort::segmented_sort_keys<K, O>(kin, kout, n, num, begin, opt);
      else gpusort::segmented_sort_keys<K, O>(kin, kout, n, num, begin, end, opt);
    }
    t::device_sync();
    return "";
  }
  auto call = [&](void* temp, std::size_t& bytes) {
    if (c.pairs) {
      if (c.one_array) gpusort::segmented_sort_pairs<K, V, O>(temp, bytes, kin, kout, vin, vout, n, num, begin, opt);
      else gpusort::segmented_sort_pairs<K, V, O>(temp, bytes, kin, kout, vin, vout, n, num, begin, end, opt);
    } else {
      if (c.one_array) gpusort::segmented_sort_keys<K, O>(temp, bytes, kin, kout, n, num, begin, opt);
      else gpusort::segmented_sort_keys<K, O>(temp, bytes, kin, kout, n, num, begin, end, opt);
    }
  };
  constexpr std::size_t guard = 4096;
  std::size_t bytes = 0;
  call(nullptr, bytes);
  t::device_buffer<unsigned char> temp(bytes + guard);
  temp.fill_bytes(0x5A);
  call(temp.data(), bytes);
  t::device_sync();
  std::vector<unsigned char> tail(guard);
  GPUSORT_CUDA(cudaMemcpy(tail.data(), temp.data() + bytes, guard, cudaMemcpyDeviceToHost));
  for (std::size_t i = 0; i < guard; ++i)
    if (tail[i] != 0x5A)
      return "wrote past its " + std::to_string(bytes) + " scratch bytes (at +" + std::to_string(i) + ")";
  return "";
}

// Sorts layout L's segments of generated keys (and values: original index
// for u32, make_value otherwise) as case c says, and checks everything.
template <class K, class O, class V = std::uint32_t> void run_case(const layout& L, const seg_case& c) {
  const std::string what = describe<K, O, V>(L, c);
  const std::size_t n = L.n, num = L.segments();
  auto opt = t::make_options(c.dir, c.begin_bit, c.end_bit);
  opt.nans = c.nans;
  const auto in = c.raw.empty() ? h::generate<K>(c.d, n, c.seed) : keys_of_bits<K>(c.raw);
  std::vector<V> vals;
  if (c.pairs) {
    vals.resize(n);
    for (std::size_t i = 0; i < n; ++i) vals[i] = value_for<V>(i);
  }

  // Offsets: begin/end, or offsets[0..num] (offsets[0] = begin[0] may leave
  // a gap before the segments, offsets[num] one after them).
  std::vector<O> h_begin, h_end;
  if (c.one_array) {
    ASSERT_TRUE(L.contiguous()) << what << ": the one-array form needs back-to-back segments";
    for (std::size_t s = 0; s < num; ++s) h_begin.push_back(O(L.begin[s]));
    h_begin.push_back(num ? O(L.end[num - 1]) : O(0));
  } else {
    for (std::size_t s = 0; s < num; ++s) h_begin.push_back(O(L.begin[s])), h_end.push_back(O(L.end[s]));
  }
  guarded<O> d_begin(h_begin, 11), d_end(h_end, 12);

  // Out of place, the output starts as a sentinel pattern, which must
  // survive outside the segments; in place, the gaps keep the input.
  const std::vector<K> k_init = c.in_place ? in : patterns<K>(n, 21);
  const std::vector<V> v_init = c.in_place ? vals : patterns<V>(c.pairs ? n : 0, 22);
  guarded<K> d_kin(in, 13), d_kout(c.in_place ? std::vector<K>() : k_init, 14);
  guarded<V> d_vin(vals, 15), d_vout(c.in_place ? std::vector<V>() : v_init, 16);
  K* kout = c.in_place ? d_kin.data() : d_kout.data();
  V* vout = c.in_place ? d_vin.data() : d_vout.data();

  const std::string scratch = sort_segments<K, V, O>(c, d_kin.data(), kout, c.pairs ? d_vin.data() : nullptr,
                                                      c.pairs ? vout : nullptr, n, num, d_begin.data(),
                                                      c.one_array ? nullptr : d_end.data(), opt);
  ASSERT_EQ(scratch, "") << what;
  ASSERT_TRUE(d_kin.guards_intact()) << what << ": input keys";
  ASSERT_TRUE(d_kout.guards_intact()) << what << ": output keys";
  ASSERT_TRUE(d_vin.guards_intact()) << what << ": input values";
  ASSERT_TRUE(d_vout.guards_intact()) << what << ": output values";
  ASSERT_TRUE(d_begin.guards_intact()) << what << ": offsets";
  ASSERT_TRUE(d_end.guards_intact()) << what << ": end offsets";
  ASSERT_TRUE(same_bytes(d_begin.download(), h_begin)) << what << ": the offsets were modified";
  ASSERT_TRUE(same_bytes(d_end.download(), h_end)) << what << ": the end offsets were modified";
  if (!c.in_place) {
    ASSERT_TRUE(same_bytes(d_kin.download(), in)) << what << ": the input keys were modified";
    ASSERT_TRUE(same_bytes(d_vin.download(), vals)) << what << ": the input values were modified";
  }
  const auto keys = c.in_place ? d_kin.download() : d_kout.download();
  const auto out_vals = c.pairs ? (c.in_place ? d_vin.download() : d_vout.download()) : std::vector<V>();

  const auto perm = oracle_permutation(in, L, opt);
  ASSERT_TRUE(same_output(keys, apply(perm, in, k_init), L))
      << what << ": keys differ from the per-segment std::stable_sort";
  if (c.pairs) {
    ASSERT_TRUE(same_output(out_vals, apply(perm, vals, v_init), L))
        << what << ": values differ from the per-segment std::stable_sort";
  }

  // CUB, from the same input into the same initial output (its pairs
  // sort, values = original index; keys-only cases compare its keys).
  const bool full = c.begin_bit == 0 && (c.end_bit < 0 || c.end_bit == t::width_of<K>);
  if constexpr (std::is_same_v<V, std::uint32_t> && t::has_cub_segmented<K>) {
    if (!full || has_nan(in)) return;
    const bool desc = c.dir == order::descending;
    std::vector<std::uint32_t> idx(n);
    std::iota(idx.begin(), idx.end(), 0u);
    t::device_buffer<std::int64_t> rb(L.begin), re(L.end);
    t::device_buffer<K> rin(in), rk(k_init);
    t::device_buffer<std::uint32_t> rvin(idx), rv(c.pairs ? v_init : patterns<std::uint32_t>(n, 22));
    t::cub_segmented_sort_pairs(rin.data(), rk.data(), rvin.data(), rv.data(), n, num, rb.data(), re.data(), desc);
    const char* cub = desc ? "cub::DeviceSegmentedSort::StableSortPairsDescending" : "cub::DeviceSegmentedSort::StableSortPairs";
    ASSERT_TRUE(same_output(keys, rk.download(), L)) << what << ": keys differ from " << cub;
    if (c.pairs) {
      ASSERT_TRUE(same_output(out_vals, rv.download(), L)) << what << ": values differ from " << cub;
    }
  }
}

// Offsets as int32 or int64.
template <class K, class V = std::uint32_t> void run_width(const layout& L, const seg_case& c, bool wide) {
  if (wide) run_case<K, std::int64_t, V>(L, c);
  else run_case<K, std::int32_t, V>(L, c);
}

// The rotation of a case's kind by its step k: keys/pairs, order, form,
// offset width, call and in place take turns, so that neighbouring cases
// differ and every combination comes up.
inline seg_case rotated(std::size_t k, const layout& L, h::dist d, std::uint64_t seed) {
  seg_case c;
  c.d = d;
  c.seed = seed;
  c.pairs = k % 2 == 1;
  c.dir = both_orders[(k + k / 2) % 2];
  c.one_array = (k / 4) % 2 == 0 && L.contiguous();
  c.call = k % 3 == 2 ? api::allocating : api::two_phase;
  c.in_place = k % 5 == 4;
  return c;
}
inline bool rotated_wide(std::size_t k) { return (k / 8) % 2 == 1; }

}  // namespace gpusort_test::segmented
