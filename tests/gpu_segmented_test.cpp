// GPU suite: segmented sort (gpusort::segmented_sort_keys / _pairs), which
// sorts segment i = [begin[i], end[i]) of the keys (and values) on its own,
// stably, and leaves every element outside the segments untouched.
//
// Every case is checked from first principles against the oracle of
// oracle.hpp: a per-segment std::stable_sort under oracle_order (not the
// library's key_order), which with value = original index is the one stable
// answer, compared bit for bit over the whole output, gaps included (the
// output is prefilled with a sentinel pattern that must survive; in place,
// the gaps keep the input). Full-bit-range cases without NaNs are also
// compared bit for bit with cub::DeviceSegmentedSort's stable sort (its
// StableSortPairs, whose keys serve the keys-only cases too; CUB's small
// segments order by the native `<`, under which NaNs are unordered; CUB has
// no bit ranges). Every device array sits between guard zones that
// must come back untouched, the two-phase form gets exactly the scratch it
// asked for plus a guard zone, and inputs and offsets must come back
// unchanged.
//
// Typed over the 12 key types:
//   EqualSizes     all segments of 1, 2, 16, 31, 32, 33, 100, 256, 1000,
//                  4096, 4097, 20000, 70000 keys (~200K keys a case)
//   Mixes          power-law sizes, one segment of half the keys, many empty
//                  and 1-key segments, gaps between segments, segments in
//                  shuffled order with inverted (end < begin) empties
//   Distributions  uniform, few_unique, equal, sorted, reverse, float_special
//   BitRanges      [0, w/2) and [3, w-1) (the oracle only)
//   SmallSegments  the thread classes: sizes 1..17 mixed, equal sizes 3, 8,
//                  12, 5; ties, and floats with both zeros in a segment
// rotating over keys / pairs (u32 value = original index), both orders, the
// one-array (offsets[0..num]) and begin/end forms, int32 and int64 offsets,
// the two-phase and allocating calls, in place and not.
// GpuSegmentedApi: value widths (1, 2, 8, 12, 16 bytes), unsigned offsets,
// the size query, in place, empty inputs (n = 0, num_segments = 0, only
// empty segments), argument errors, a non-default stream, CUDA graph capture
// and more than 2^31 keys in one call. GpuSanitizeSegmented: small cases
// for compute-sanitizer (with the GpuSanitize suites).
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

// Stops the calling test body at the first fatal failure of a case.
#define GPUSORT_SEG_CASE(call)                      \
  do {                                              \
    call;                                           \
    if (::testing::Test::HasFatalFailure()) return; \
  } while (0)

namespace {

namespace t = gpusort_test;
namespace h = gpusort::harness;
using gpusort::order;

constexpr order both_orders[] = {order::ascending, order::descending};

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
layout back_to_back(std::string name, const std::vector<std::size_t>& sizes, std::size_t lead = 0,
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

layout equal_sizes(std::size_t size, std::size_t count, std::size_t lead, std::size_t trail) {
  return back_to_back(std::to_string(count) + " x " + std::to_string(size), std::vector<std::size_t>(count, size),
                      lead, trail);
}

// Segment sizes from a Lomax (shifted Pareto) law, alpha 1.5, mean ~`mean`:
// mostly small segments (empty ones too), a heavy tail of large ones, the
// last cut to fill exactly n keys.
std::vector<std::size_t> power_law_sizes(std::size_t n, double mean, std::uint64_t seed) {
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

layout power_law(std::size_t n, double mean, std::uint64_t seed) {
  return back_to_back("power-law mean " + std::to_string(long(mean)), power_law_sizes(n, mean, seed));
}

// One segment of n / 2 keys at a random place among segments of 0..300.
layout half_and_small(std::size_t n, std::uint64_t seed) {
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
layout empties_and_ones(std::size_t count, std::uint64_t seed) {
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
layout gapped(std::size_t approx_n, std::uint64_t seed) {
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
layout scattered(std::size_t approx_n, std::uint64_t seed) {
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
layout only_empty(std::size_t n, std::size_t count, std::uint64_t seed) {
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

std::string where(const layout& L, std::size_t i) {
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
};

template <class O> const char* offset_name() {
  return std::is_signed_v<O> ? (sizeof(O) == 4 ? "int32" : "int64") : (sizeof(O) == 4 ? "uint32" : "uint64");
}

template <class K, class O, class V>
std::string describe(const layout& L, const seg_case& c) {
  std::string s = std::string(gpusort::detail::key_info<K>::name) + " segmented " +
                  (c.pairs ? "pairs (value " + std::to_string(sizeof(V)) + " bytes)" : std::string("keys")) +
                  " layout=" + L.name + " n=" + std::to_string(L.n) + " segments=" + std::to_string(L.segments()) +
                  " dist=" + std::string(h::to_string(c.d)) + " " + t::name(c.dir) + " bits=[" +
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
  const auto in = h::generate<K>(c.d, n, c.seed);
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
seg_case rotated(std::size_t k, const layout& L, h::dist d, std::uint64_t seed) {
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
bool rotated_wide(std::size_t k) { return (k / 8) % 2 == 1; }

// ---- typed tests -----------------------------------------------------------------------------

template <class K> void test_equal_sizes() {
  constexpr std::size_t sizes[] = {1, 2, 16, 31, 32, 33, 100, 256, 1000, 4096, 4097, 20000, 70000};
  constexpr std::size_t target = 200000;  // keys a case
  std::size_t k = 0;
  for (std::size_t size : sizes)
    for (int twice = 0; twice < 2; ++twice, ++k) {
      // a gap before the segments on every third case, one after on the next
      const std::size_t lead = k % 3 == 1 ? 17 : 0, trail = k % 3 == 2 ? 33 : 0;
      const layout L = equal_sizes(size, std::max<std::size_t>(3, target / size), lead, trail);
      GPUSORT_SEG_CASE(run_width<K>(L, rotated(k, L, h::dist::uniform, 100 + size), rotated_wide(k)));
    }
}

const std::vector<layout>& mix_layouts() {
  static const std::vector<layout> v = {
      power_law(300000, 64, 11),   power_law(300000, 3000, 12), half_and_small(400000, 13),
      empties_and_ones(20000, 14), gapped(250000, 15),          scattered(250000, 16),
  };
  return v;
}

template <class K> void test_mixes() {
  std::size_t k = 0;
  for (const layout& L : mix_layouts())
    for (int i = 0; i < 3; ++i, ++k)
      GPUSORT_SEG_CASE(run_width<K>(L, rotated(k, L, h::dist::uniform, 200 + k), rotated_wide(k + 1)));
}

template <class K> void test_distributions() {
  static const layout L = power_law(100000, 300, 21);
  const h::dist dists[] = {h::dist::uniform, h::dist::few_unique, h::dist::equal,
                           h::dist::sorted,  h::dist::reverse,    h::dist::float_special};
  std::size_t k = 0;
  for (h::dist d : dists)
    for (auto dir : both_orders)
      for (bool pairs : {false, true}) {
        seg_case c = rotated(k, L, d, 300 + k);
        c.dir = dir, c.pairs = pairs;
        GPUSORT_SEG_CASE(run_width<K>(L, c, rotated_wide(k + 3)));
        ++k;
      }
}

template <class K> void test_bit_ranges() {
  static const layout L = power_law(60000, 500, 31);
  constexpr int w = t::width_of<K>;
  std::size_t k = 0;
  for (auto [b, e] : {std::pair{0, w / 2}, {3, w - 1}})
    for (h::dist d : {h::dist::uniform, h::dist::few_unique, h::dist::float_special})
      for (auto dir : both_orders) {
        seg_case c = rotated(k, L, d, 400 + k);
        c.dir = dir, c.begin_bit = b, c.end_bit = e;
        GPUSORT_SEG_CASE(run_width<K>(L, c, rotated_wide(k)));
        ++k;
      }
}

// The thread classes (2..16 keys, one lane a segment): sizes 1..17 in a
// cycle (a warp's segments of one class are not end to end), and equal
// sizes 3, 8, 12, 5 (they are); ties (few_unique, equal) and, for floats,
// both zeros in one segment (float_special: about 40% of 16-key segments),
// which sends a keys-only lane from its rank-only sort to an insertion.
template <class K> void test_small_segments() {
  std::vector<std::size_t> cycle;
  for (std::size_t i = 0; i < 12000; ++i) cycle.push_back(1 + (i * 7) % 17);
  static const layout mixed = back_to_back("sizes 1..17", cycle);
  // (6001 x 5: the last warp's range is 85 keys, not a whole number of
  // 16-byte vectors)
  static const layout equal[] = {equal_sizes(3, 20000, 5, 0), equal_sizes(8, 9000, 0, 7), equal_sizes(12, 7000, 0, 0),
                                 equal_sizes(5, 6001, 0, 0)};
  std::size_t k = 0;
  for (h::dist d : {h::dist::uniform, h::dist::few_unique, h::dist::equal, h::dist::float_special})
    for (auto dir : both_orders)
      for (bool pairs : {false, true})
        for (const layout* L : {&mixed, &equal[k % 4]}) {
          seg_case c = rotated(k, *L, d, 700 + k);
          c.dir = dir, c.pairs = pairs;
          GPUSORT_SEG_CASE(run_width<K>(*L, c, rotated_wide(k)));
          ++k;
        }
}

// The wide thread classes (17..64 keys one lane a segment, for keys of up
// to 4 bytes alone in an order of every bit; the group classes otherwise):
// sizes 15..66 in a cycle (a warp's segments of one class are not end to
// end), equal sizes 17, 32, 33, 50 and 64 (they are; a lead of one key
// leaves the 16-byte vectors unaligned); ties, and float specials under
// both NaN orders (a lane whose segment holds both zeros, or NaNs to fold,
// sorts it by insertion); values now and then, and a bit range.
template <class K> void test_wide_segments() {
  std::vector<std::size_t> cycle;
  for (std::size_t i = 0; i < 5000; ++i) cycle.push_back(15 + (i * 11) % 52);
  static const layout mixed = back_to_back("sizes 15..66", cycle);
  static const layout equal[] = {equal_sizes(17, 3000, 0, 0), equal_sizes(32, 2500, 1, 0), equal_sizes(33, 2001, 0, 3),
                                 equal_sizes(50, 1500, 0, 0), equal_sizes(64, 1601, 1, 1)};
  std::size_t k = 0;
  for (h::dist d : {h::dist::uniform, h::dist::few_unique, h::dist::equal, h::dist::float_special})
    for (auto dir : both_orders)
      for (auto nans : {gpusort::nan_order::bits, gpusort::nan_order::largest})
        for (const layout* L : {&mixed, &equal[k % 5]}) {
          seg_case c = rotated(k, *L, d, 1000 + k);
          c.dir = dir, c.nans = nans, c.pairs = k % 8 == 7;
          GPUSORT_SEG_CASE(run_width<K>(*L, c, rotated_wide(k)));
          ++k;
        }
  seg_case c = rotated(k, mixed, h::dist::uniform, 1100);
  c.pairs = false, c.begin_bit = 2, c.end_bit = t::width_of<K> - 1;
  GPUSORT_SEG_CASE(run_width<K>(mixed, c, rotated_wide(k)));
}

// NaNs largest (the frameworks' order) on float specials: the thread
// classes (a lane whose segment holds a NaN sorts by insertion), the warp and
// block sizes of power_law, and a bit range.
template <class K> void test_nans_largest() {
  std::vector<std::size_t> cycle;
  for (std::size_t i = 0; i < 6000; ++i) cycle.push_back(1 + (i * 7) % 17);
  static const layout small = back_to_back("sizes 1..17", cycle);
  static const layout mixed = power_law(100000, 300, 51);
  std::size_t k = 0;
  for (const layout* L : {&small, &mixed})
    for (auto dir : both_orders)
      for (bool pairs : {false, true}) {
        seg_case c = rotated(k, *L, h::dist::float_special, 800 + k);
        c.dir = dir, c.pairs = pairs, c.nans = gpusort::nan_order::largest;
        GPUSORT_SEG_CASE(run_width<K>(*L, c, rotated_wide(k)));
        ++k;
      }
  seg_case c = rotated(k, mixed, h::dist::float_special, 900);
  c.begin_bit = 3, c.end_bit = t::width_of<K> - 1, c.nans = gpusort::nan_order::largest;
  GPUSORT_SEG_CASE(run_width<K>(mixed, c, rotated_wide(k)));
}

template <class K> class GpuSegmented : public t::gpu_test {};
TYPED_TEST_SUITE(GpuSegmented, t::key_types, t::key_name);
TYPED_TEST(GpuSegmented, EqualSizes) { test_equal_sizes<TypeParam>(); }
TYPED_TEST(GpuSegmented, Mixes) { test_mixes<TypeParam>(); }
TYPED_TEST(GpuSegmented, Distributions) { test_distributions<TypeParam>(); }
TYPED_TEST(GpuSegmented, BitRanges) { test_bit_ranges<TypeParam>(); }
TYPED_TEST(GpuSegmented, SmallSegments) { test_small_segments<TypeParam>(); }
TYPED_TEST(GpuSegmented, NansLargest) { test_nans_largest<TypeParam>(); }
TYPED_TEST(GpuSegmented, WideSegments) { test_wide_segments<TypeParam>(); }

// ---- API tests -------------------------------------------------------------------------------

class GpuSegmentedApi : public t::gpu_test {};

// Values of 1, 2, 8, 12 and 16 bytes (make_value bytes), checked exactly
// through the oracle's permutation; on back-to-back and gapped segments.
template <class K, class V> void value_case(std::size_t k) {
  static const layout back = power_law(120000, 150, 41), gaps = gapped(120000, 42);
  const layout& L = k % 2 ? gaps : back;
  seg_case c = rotated(k, L, k % 3 ? h::dist::uniform : h::dist::few_unique, 500 + k);
  c.pairs = true;
  run_width<K, V>(L, c, k % 4 >= 2);
}

// More large segments than the one-block list walks at once (1,024), and
// more than one chunk of them with empty entries after: the large class's
// list made in one block (plan.cu), its scans carried from chunk to chunk.
TEST_F(GpuSegmentedApi, ManyLargeSegments) {
  std::vector<std::size_t> sizes(2100);  // 1,400 large
  for (std::size_t i = 0; i < sizes.size(); ++i) sizes[i] = i % 3 == 0 ? 5 + i % 200 : 4097 + (i * 37) % 6000;
  const layout L = back_to_back("2,100 segments, two thirds large", sizes);
  for (int k = 0; k < 2; ++k) {
    seg_case c = rotated(std::size_t(k), L, h::dist::uniform, 1200 + std::uint64_t(k));
    GPUSORT_SEG_CASE(run_width<std::uint32_t>(L, c, false));
  }
}

TEST_F(GpuSegmentedApi, ValueWidths) {
  for (std::size_t k = 0; k < 4; ++k) {
    GPUSORT_SEG_CASE((value_case<std::uint32_t, std::uint8_t>(k)));
    GPUSORT_SEG_CASE((value_case<std::uint32_t, std::uint16_t>(k)));
    GPUSORT_SEG_CASE((value_case<std::uint32_t, std::uint64_t>(k)));
    GPUSORT_SEG_CASE((value_case<std::uint32_t, t::value12>(k)));
    GPUSORT_SEG_CASE((value_case<std::uint32_t, t::value16>(k)));
  }
  GPUSORT_SEG_CASE((value_case<double, t::value12>(1)));
  GPUSORT_SEG_CASE((value_case<std::uint8_t, t::value16>(2)));
  GPUSORT_SEG_CASE((value_case<__half, std::uint8_t>(3)));
  GPUSORT_SEG_CASE((value_case<std::int64_t, t::value3>(0)));
}

// uint32 and uint64 offsets, both forms.
TEST_F(GpuSegmentedApi, UnsignedOffsets) {
  const layout back = power_law(100000, 250, 43), gaps = scattered(100000, 44);
  for (std::size_t k = 0; k < 4; ++k) {
    const layout& L = k % 2 ? gaps : back;
    const seg_case c = rotated(k, L, h::dist::uniform, 600 + k);
    GPUSORT_SEG_CASE((run_case<std::uint32_t, std::uint32_t>(L, c)));
    GPUSORT_SEG_CASE((run_case<float, std::uint64_t>(L, c)));
  }
}

// The size query is deterministic and touches neither input nor output;
// the sort then runs with exactly that scratch (every two-phase case also
// checks a guard zone after it).
TEST_F(GpuSegmentedApi, TwoPhase) {
  const layout L = gapped(80000, 45);
  const auto in = h::generate<std::uint32_t>(h::dist::uniform, L.n, 7);
  const auto poison = patterns<std::uint32_t>(L.n, 23);
  t::device_buffer<std::uint32_t> d_in(in), d_out(poison), d_vin(in), d_vout(poison);
  t::device_buffer<std::int64_t> d_b(L.begin), d_e(L.end);
  const auto opt = t::make_options(order::descending);
  std::size_t keys_bytes = 12345, again = 0, pairs_bytes = 0, in_place_bytes = 0;
  gpusort::segmented_sort_keys(nullptr, keys_bytes, d_in.data(), d_out.data(), L.n, L.segments(), d_b.data(),
                               d_e.data(), opt);
  gpusort::segmented_sort_keys(nullptr, again, d_in.data(), d_out.data(), L.n, L.segments(), d_b.data(), d_e.data(),
                               opt);
  EXPECT_EQ(keys_bytes, again) << "the size query is not deterministic";
  gpusort::segmented_sort_pairs(nullptr, pairs_bytes, d_in.data(), d_out.data(), d_vin.data(), d_vout.data(), L.n,
                                L.segments(), d_b.data(), d_e.data(), opt);
  gpusort::segmented_sort_keys(nullptr, in_place_bytes, d_in.data(), d_in.data(), L.n, L.segments(), d_b.data(),
                               d_e.data(), opt);
  t::device_sync();
  ASSERT_EQ(d_out.download(), poison) << "the size query wrote the output";
  ASSERT_EQ(d_vout.download(), poison) << "the size query wrote the output values";
  ASSERT_EQ(d_in.download(), in) << "the size query wrote the input";
  ASSERT_EQ(d_vin.download(), in) << "the size query wrote the input values";
  std::printf("[segmented] scratch for %zu u32 keys in %zu segments: keys %zu B, pairs %zu B, keys in place %zu B\n",
              L.n, L.segments(), keys_bytes, pairs_bytes, in_place_bytes);

  t::device_buffer<unsigned char> temp(keys_bytes);
  gpusort::segmented_sort_keys(temp.data(), keys_bytes, d_in.data(), d_out.data(), L.n, L.segments(), d_b.data(),
                               d_e.data(), opt);
  t::device_sync();
  const auto perm = oracle_permutation(in, L, opt);
  ASSERT_TRUE(same_output(d_out.download(), apply(perm, in, poison), L));
}

// In place, keys and pairs, both calls: the gaps keep the input.
TEST_F(GpuSegmentedApi, InPlace) {
  const layout gaps = gapped(150000, 46), back = power_law(150000, 1000, 47);
  std::size_t k = 0;
  for (const layout* L : {&gaps, &back})
    for (bool pairs : {false, true})
      for (api call : {api::two_phase, api::allocating}) {
        seg_case c;
        c.d = h::dist::float_special;
        c.seed = 700 + k;
        c.dir = both_orders[k % 2];
        c.pairs = pairs;
        c.call = call;
        c.in_place = true;
        c.one_array = L->contiguous() && k % 3 != 0;
        GPUSORT_SEG_CASE((run_width<float>(*L, c, k % 2 == 0)));
        GPUSORT_SEG_CASE((run_width<std::uint16_t>(*L, c, k % 2 == 1)));
        ++k;
      }
}

// n = 0, num_segments = 0 and only empty segments: valid, and nothing
// changes (run_case checks that the output is still the sentinel).
TEST_F(GpuSegmentedApi, EmptyInputs) {
  // n = 0 and no segments: null pointers everywhere are fine.
  const auto opt = t::make_options(order::ascending);
  std::uint32_t* null = nullptr;
  const std::int32_t* no_offsets = nullptr;
  std::size_t bytes = 0;
  EXPECT_NO_THROW(gpusort::segmented_sort_keys(nullptr, bytes, null, null, 0, 0, no_offsets, no_offsets, opt));
  EXPECT_NO_THROW(gpusort::segmented_sort_keys(null, null, 0, 0, no_offsets, no_offsets, opt));
  EXPECT_NO_THROW(gpusort::segmented_sort_keys(null, null, 0, 0, no_offsets, opt));
  EXPECT_NO_THROW(gpusort::segmented_sort_pairs(nullptr, bytes, null, null, null, null, 0, 0, no_offsets, opt));
  EXPECT_NO_THROW(gpusort::segmented_sort_pairs(null, null, null, null, 0, 0, no_offsets, no_offsets, opt));
  t::device_sync();

  layout none_;  // no segments over 1000 keys
  none_.name = "no segments";
  none_.n = 1000;
  const layout& none = none_;
  const layout zero_n = only_empty(0, 5, 48);  // n = 0, empty segments at 0
  const layout empties = only_empty(5000, 300, 49);
  std::size_t k = 0;
  for (const layout* L : {&none, &zero_n, &empties})
    for (bool pairs : {false, true})
      for (api call : {api::two_phase, api::allocating}) {
        seg_case c;
        c.seed = 800 + k;
        c.pairs = pairs;
        c.call = call;
        c.dir = both_orders[k % 2];
        c.one_array = L->contiguous() && k % 2 == 0;
        c.in_place = k % 3 == 2;
        GPUSORT_SEG_CASE((run_width<std::uint64_t>(*L, c, k % 4 < 2)));
        ++k;
      }
}


// Null data pointers with n > 0, null offsets with segments to sort, and
// bad bit ranges: errc::invalid_argument, and nothing is written.
TEST_F(GpuSegmentedApi, ArgumentErrors) {
  using gpusort::errc;
  using gpusort::segmented_sort_keys;
  using gpusort::segmented_sort_pairs;
  using u32 = std::uint32_t;
  using i32 = std::int32_t;
  constexpr std::size_t n = 64, num = 4;
  const auto in = h::generate<u32>(h::dist::uniform, n, 9);
  t::device_buffer<u32> k(in), o(n), v(in), vo(n);
  t::device_buffer<i32> offs(std::vector<i32>{0, 16, 32, 48, 64});
  const u32* null_c = nullptr;
  u32* null_m = nullptr;
  const i32* null_o = nullptr;
  const i32* b = offs.data();
  const i32* e = offs.data() + 1;
  std::size_t bytes = 0;
  segmented_sort_pairs(nullptr, bytes, k.data(), o.data(), v.data(), vo.data(), n, num, b, e);
  t::device_buffer<unsigned char> temp(bytes + 256);
  bytes += 256;
  void* tp = temp.data();
  o.fill_bytes(0xA5);
  const auto poisoned = o.download();

  // keys: two-phase (run phase) and allocating, both forms
  EXPECT_GPUSORT_ERROR(segmented_sort_keys(tp, bytes, null_c, o.data(), n, num, b, e), errc::invalid_argument);
  EXPECT_GPUSORT_ERROR(segmented_sort_keys(tp, bytes, k.data(), null_m, n, num, b, e), errc::invalid_argument);
  EXPECT_GPUSORT_ERROR(segmented_sort_keys(tp, bytes, null_c, null_m, n, num, b), errc::invalid_argument);
  EXPECT_GPUSORT_ERROR(segmented_sort_keys(null_c, o.data(), n, num, b, e), errc::invalid_argument);
  EXPECT_GPUSORT_ERROR(segmented_sort_keys(k.data(), null_m, n, num, b), errc::invalid_argument);
  // pairs: each pointer
  EXPECT_GPUSORT_ERROR(segmented_sort_pairs(tp, bytes, null_c, o.data(), v.data(), vo.data(), n, num, b, e),
                   errc::invalid_argument);
  EXPECT_GPUSORT_ERROR(segmented_sort_pairs(tp, bytes, k.data(), null_m, v.data(), vo.data(), n, num, b, e),
                   errc::invalid_argument);
  EXPECT_GPUSORT_ERROR(segmented_sort_pairs(tp, bytes, k.data(), o.data(), null_c, vo.data(), n, num, b, e),
                   errc::invalid_argument);
  EXPECT_GPUSORT_ERROR(segmented_sort_pairs(tp, bytes, k.data(), o.data(), v.data(), null_m, n, num, b),
                   errc::invalid_argument);
  EXPECT_GPUSORT_ERROR(segmented_sort_pairs(k.data(), o.data(), null_c, vo.data(), n, num, b, e), errc::invalid_argument);
  EXPECT_GPUSORT_ERROR(segmented_sort_pairs(k.data(), o.data(), v.data(), null_m, n, num, b), errc::invalid_argument);
  // null offsets with segments to sort
  EXPECT_GPUSORT_ERROR(segmented_sort_keys(tp, bytes, k.data(), o.data(), n, num, null_o, e), errc::invalid_argument);
  EXPECT_GPUSORT_ERROR(segmented_sort_keys(tp, bytes, k.data(), o.data(), n, num, b, null_o), errc::invalid_argument);
  EXPECT_GPUSORT_ERROR(segmented_sort_keys(tp, bytes, k.data(), o.data(), n, num, null_o), errc::invalid_argument);
  EXPECT_GPUSORT_ERROR(segmented_sort_keys(k.data(), o.data(), n, num, null_o, e), errc::invalid_argument);
  EXPECT_GPUSORT_ERROR(segmented_sort_pairs(k.data(), o.data(), v.data(), vo.data(), n, num, b, null_o),
                   errc::invalid_argument);
  // bad bit ranges, as for sort_keys
  for (auto [bb, eb] : {std::pair{-1, 32}, {0, 33}, {8, 8}, {31, 2}}) {
    SCOPED_TRACE("bits [" + std::to_string(bb) + "," + std::to_string(eb) + ")");
    const auto opt = t::make_options(order::ascending, bb, eb);
    EXPECT_GPUSORT_ERROR(segmented_sort_keys(tp, bytes, k.data(), o.data(), n, num, b, e, opt), errc::invalid_argument);
    EXPECT_GPUSORT_ERROR(segmented_sort_keys(k.data(), o.data(), n, num, b, opt), errc::invalid_argument);
    EXPECT_GPUSORT_ERROR(segmented_sort_pairs(k.data(), o.data(), v.data(), vo.data(), n, num, b, e, opt),
                     errc::invalid_argument);
  }
  t::device_sync();
  EXPECT_EQ(o.download(), poisoned) << "a rejected call wrote the output";
  EXPECT_EQ(k.download(), in) << "a rejected call wrote the input";
  // The device is still usable.
  segmented_sort_keys(k.data(), o.data(), n, num, b);
  t::device_sync();
  auto want = in;
  for (std::size_t s = 0; s < num; ++s) std::sort(want.begin() + 16 * s, want.begin() + 16 * (s + 1));
  EXPECT_EQ(o.download(), want) << "after the rejected calls";
}

// Everything queued on a non-blocking stream (async copies around the
// sort), and only that stream waited for.
TEST_F(GpuSegmentedApi, NonDefaultStream) {
  const layout L = power_law(200000, 700, 50);
  t::cuda_stream stream;
  auto opt = t::make_options(order::descending);
  opt.stream = stream.get();
  const auto in = h::generate<std::uint64_t>(h::dist::uniform, L.n, 51);
  t::pinned_buffer<std::uint64_t> host_in(L.n), host_out(L.n);
  std::copy(in.begin(), in.end(), host_in.data());
  std::vector<std::int32_t> offs(L.begin.begin(), L.begin.end());
  offs.push_back(std::int32_t(L.n));
  t::device_buffer<std::int32_t> d_offs(offs);
  t::device_buffer<std::uint64_t> d_in(L.n), d_out(L.n);
  for (int round = 0; round < 2; ++round) {
    GPUSORT_CUDA(cudaMemcpyAsync(d_in.data(), host_in.data(), L.n * 8, cudaMemcpyHostToDevice, stream.get()));
    if (round == 0) {
      gpusort::segmented_sort_keys(d_in.data(), d_out.data(), L.n, L.segments(), d_offs.data(), opt);
    } else {
      std::size_t bytes = 0;
      gpusort::segmented_sort_keys(nullptr, bytes, d_in.data(), d_out.data(), L.n, L.segments(), d_offs.data(), opt);
      void* temp = nullptr;
      GPUSORT_CUDA(cudaMallocAsync(&temp, bytes ? bytes : 1, stream.get()));
      gpusort::segmented_sort_keys(temp, bytes, d_in.data(), d_out.data(), L.n, L.segments(), d_offs.data(), opt);
      GPUSORT_CUDA(cudaFreeAsync(temp, stream.get()));
    }
    GPUSORT_CUDA(cudaMemcpyAsync(host_out.data(), d_out.data(), L.n * 8, cudaMemcpyDeviceToHost, stream.get()));
    GPUSORT_CUDA(cudaMemsetAsync(d_out.data(), 0, L.n * 8, stream.get()));
    stream.sync();
    const std::vector<std::uint64_t> out(host_out.data(), host_out.data() + L.n);
    ASSERT_TRUE(same_output(out, apply(oracle_permutation(in, L, opt), in, in), L)) << "round " << round;
  }
}

// A CUDA graph: two two-phase calls (keys out of place with begin/end
// int32 offsets; pairs in place with one-array int64 offsets) captured on a
// non-default stream in global capture mode (any synchronising or
// allocating call would break the capture), scratch allocated before, the
// graph launched twice with the input restored and the output re-poisoned
// in between.
class graph_holder {
 public:
  ~graph_holder() {
    if (exec) cudaGraphExecDestroy(exec);
    if (graph) cudaGraphDestroy(graph);
  }
  cudaGraph_t graph = nullptr;
  cudaGraphExec_t exec = nullptr;
};

TEST_F(GpuSegmentedApi, GraphCapture) {
  t::cuda_stream stream;
  // L2 holds one segment of n / 2 keys: the large class (onesweep passes
  // over segment chains) is captured too
  const layout L1 = gapped(150000, 52), L2 = half_and_small(120000, 53);
  auto opt1 = t::make_options(order::ascending), opt2 = t::make_options(order::descending);
  opt1.stream = opt2.stream = stream.get();

  const auto in1 = h::generate<std::uint32_t>(h::dist::uniform, L1.n, 54);
  const auto poison1 = patterns<std::uint32_t>(L1.n, 24);
  std::vector<std::int32_t> b1(L1.begin.begin(), L1.begin.end()), e1(L1.end.begin(), L1.end.end());
  t::device_buffer<std::uint32_t> d_in1(in1), d_out1(poison1), d_poison1(poison1);
  t::device_buffer<std::int32_t> d_b1(b1), d_e1(e1);

  const auto keys2 = h::generate<float>(h::dist::float_special, L2.n, 55);
  std::vector<std::uint32_t> vals2(L2.n);
  std::iota(vals2.begin(), vals2.end(), 0u);
  std::vector<std::int64_t> offs2(L2.begin);
  offs2.push_back(std::int64_t(L2.n));
  t::device_buffer<float> d_k2(keys2), d_k2_pristine(keys2);
  t::device_buffer<std::uint32_t> d_v2(vals2), d_v2_pristine(vals2);
  t::device_buffer<std::int64_t> d_offs2(offs2);

  std::size_t bytes1 = 0, bytes2 = 0;
  gpusort::segmented_sort_keys(nullptr, bytes1, d_in1.data(), d_out1.data(), L1.n, L1.segments(), d_b1.data(),
                               d_e1.data(), opt1);
  gpusort::segmented_sort_pairs(nullptr, bytes2, d_k2.data(), d_k2.data(), d_v2.data(), d_v2.data(), L2.n,
                                L2.segments(), d_offs2.data(), opt2);
  t::device_buffer<unsigned char> temp1(bytes1), temp2(bytes2);
  t::device_sync();

  graph_holder g;
  GPUSORT_CUDA(cudaStreamBeginCapture(stream.get(), cudaStreamCaptureModeGlobal));
  try {
    gpusort::segmented_sort_keys(temp1.data(), bytes1, d_in1.data(), d_out1.data(), L1.n, L1.segments(), d_b1.data(),
                                 d_e1.data(), opt1);
    gpusort::segmented_sort_pairs(temp2.data(), bytes2, d_k2.data(), d_k2.data(), d_v2.data(), d_v2.data(), L2.n,
                                  L2.segments(), d_offs2.data(), opt2);
  } catch (...) {
    cudaStreamEndCapture(stream.get(), &g.graph);
    cudaGetLastError();
    throw;
  }
  GPUSORT_CUDA(cudaStreamEndCapture(stream.get(), &g.graph));
  GPUSORT_CUDA(cudaGraphInstantiate(&g.exec, g.graph, 0));

  const auto want1 = apply(oracle_permutation(in1, L1, opt1), in1, poison1);
  const auto perm2 = oracle_permutation(keys2, L2, opt2);
  const auto want_k2 = apply(perm2, keys2, keys2);
  const auto want_v2 = apply(perm2, vals2, vals2);
  for (int launch = 0; launch < 2; ++launch) {
    if (launch > 0) {
      GPUSORT_CUDA(cudaMemcpyAsync(d_k2.data(), d_k2_pristine.data(), L2.n * sizeof(float), cudaMemcpyDeviceToDevice,
                                   stream.get()));
      GPUSORT_CUDA(cudaMemcpyAsync(d_v2.data(), d_v2_pristine.data(), L2.n * 4, cudaMemcpyDeviceToDevice,
                                   stream.get()));
      GPUSORT_CUDA(cudaMemcpyAsync(d_out1.data(), d_poison1.data(), L1.n * 4, cudaMemcpyDeviceToDevice, stream.get()));
    }
    GPUSORT_CUDA(cudaGraphLaunch(g.exec, stream.get()));
    stream.sync();
    t::device_sync();
    ASSERT_TRUE(same_output(d_out1.download(), want1, L1)) << "launch " << launch << ": u32 keys, begin/end offsets";
    ASSERT_TRUE(same_output(d_k2.download(), want_k2, L2)) << "launch " << launch << ": f32 keys in place";
    ASSERT_TRUE(same_output(d_v2.download(), want_v2, L2)) << "launch " << launch << ": values in place";
    ASSERT_EQ(d_in1.download(), in1) << "launch " << launch << ": the input was modified";
  }
}

// More than 2^31 keys in one call: u8 keys in segments of 1..2000 keys and
// a last segment of 300M keys that crosses index 2^31, int64 offsets.
// Checked per segment by counting (u8 keys: the sorted segment is fixed by
// its key counts).
TEST_F(GpuSegmentedApi, MoreThan2To31Keys) {
  using u8 = std::uint8_t;
  const std::size_t n = (std::size_t(1) << 31) + 1000, big = 300000000;
  std::vector<std::int64_t> offs{0};
  rng r{56};
  while (std::size_t(offs.back()) < n - big)
    offs.push_back(std::min<std::int64_t>(offs.back() + 1 + std::int64_t(r.below(2000)), std::int64_t(n - big)));
  offs.push_back(std::int64_t(n));
  const std::size_t num = offs.size() - 1;

  std::size_t free_b = 0, total_b = 0;
  GPUSORT_CUDA(cudaMemGetInfo(&free_b, &total_b));
  const std::size_t margin = std::size_t(1) << 30;
  const std::size_t data_bytes = 2 * n + offs.size() * 8;
  if (free_b < data_bytes + margin)
    GTEST_SKIP() << "needs " << (data_bytes + margin) / (1u << 20) << " MiB of device memory for its data, "
                 << free_b / (1u << 20) << " MiB free";
  const auto opt = t::make_options(order::ascending);
  const auto in = h::generate<u8>(h::dist::uniform, n, 57);
  t::device_buffer<u8> d_in(in), d_out(n);
  t::device_buffer<std::int64_t> d_offs(offs);
  std::size_t bytes = 0;
  gpusort::segmented_sort_keys(nullptr, bytes, d_in.data(), d_out.data(), n, num, d_offs.data(), opt);
  GPUSORT_CUDA(cudaMemGetInfo(&free_b, &total_b));
  if (free_b < bytes + margin)
    GTEST_SKIP() << "the sort asks for " << bytes / (1u << 20) << " MiB of scratch, " << free_b / (1u << 20)
                 << " MiB free";
  {
    t::device_buffer<unsigned char> temp(bytes);
    gpusort::segmented_sort_keys(temp.data(), bytes, d_in.data(), d_out.data(), n, num, d_offs.data(), opt);
    t::device_sync();
  }
  const auto out = d_out.download();
  ASSERT_TRUE(same_bytes(d_in.download(), in)) << "the input was modified";
  // The first index (of any segment) where out is not the sorted segment.
  std::int64_t bad = -1;
#pragma omp parallel for schedule(dynamic, 64)
  for (std::int64_t s = 0; s < std::int64_t(num); ++s) {
    const std::size_t b = std::size_t(offs[std::size_t(s)]), e = std::size_t(offs[std::size_t(s) + 1]);
    std::size_t count[256] = {};
    for (std::size_t i = b; i < e; ++i) ++count[in[i]];
    std::size_t i = b;
    for (int key = 0; key < 256 && i < e; ++key) {
      const std::size_t run_end = i + count[key];
      while (i < run_end && out[i] == u8(key)) ++i;
      if (i < run_end) break;
    }
    if (i < e) {
#pragma omp critical
      if (bad < 0 || std::int64_t(i) < bad) bad = std::int64_t(i);
    }
  }
  ASSERT_LT(bad, 0) << "n=" << n << " in " << num << " segments: the output differs from the sorted segment at index "
                    << bad << " (got " << int(out[std::size_t(bad)]) << ")";
}

// Small segmented cases for compute-sanitizer (memcheck, racecheck), picked
// up by `gpusort_tests --gtest_filter='GpuSanitize*'` with the others;
// GPUSORT_SANITIZE_ALGOS, when set, must name `segmented` for them to run.
class GpuSanitizeSegmented : public t::gpu_test {};

bool sanitize_selected() {
  const char* env = std::getenv("GPUSORT_SANITIZE_ALGOS");
  return !env || !*env || (std::string(",") + env + ",").find(",segmented,") != std::string::npos;
}

template <class K> void sanitize_cases() {
  const layout layouts[] = {power_law(20001, 100, 61), gapped(6000, 62), equal_sizes(4097, 3, 5, 7),
                            equal_sizes(33, 100, 0, 0), half_and_small(30000, 63), equal_sizes(16, 301, 0, 0),
                            equal_sizes(64, 70, 1, 0)};
  std::size_t k = 0;
  for (const layout& L : layouts)
    for (int i = 0; i < 4; ++i, ++k) {
      seg_case c = rotated(k, L, h::dist::uniform, 900 + k);
      if (i == 3) c.begin_bit = 3, c.end_bit = t::width_of<K> - 2;  // a partial bit range
      GPUSORT_SEG_CASE(run_width<K>(L, c, k % 2 == 0));
    }
}

TEST_F(GpuSanitizeSegmented, U32) {
  if (!sanitize_selected()) GTEST_SKIP() << "GPUSORT_SANITIZE_ALGOS does not name segmented";
  sanitize_cases<std::uint32_t>();
}
TEST_F(GpuSanitizeSegmented, F64) {
  if (!sanitize_selected()) GTEST_SKIP() << "GPUSORT_SANITIZE_ALGOS does not name segmented";
  sanitize_cases<double>();
}
// the wide classes' insertion (both zeros and NaNs in 64-key segments)
TEST_F(GpuSanitizeSegmented, F32Specials) {
  if (!sanitize_selected()) GTEST_SKIP() << "GPUSORT_SANITIZE_ALGOS does not name segmented";
  const layout L = equal_sizes(64, 70, 0, 0);
  for (auto nans : {gpusort::nan_order::bits, gpusort::nan_order::largest}) {
    seg_case c = rotated(0, L, h::dist::float_special, 950);
    c.pairs = false, c.nans = nans;
    GPUSORT_SEG_CASE(run_width<float>(L, c, false));
  }
}
TEST_F(GpuSanitizeSegmented, U8) {
  if (!sanitize_selected()) GTEST_SKIP() << "GPUSORT_SANITIZE_ALGOS does not name segmented";
  sanitize_cases<std::uint8_t>();
}

}  // namespace
