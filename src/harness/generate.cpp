// Input generators for the tests and the benchmark: the synthetic shapes
// (uniform bits, sorted runs, adversaries, IEEE specials), and the names of
// every distribution. The values real data holds (normal, grid, ids, ...)
// are generate_real.cpp's; both build on random.hpp (counter-based random
// words, the code space).
//
// Sorted inputs are built directly in code space by stratified sampling
// (element i draws one point from the i-th of n equal slices), which is
// a sorted uniform sample in O(n) without sorting 2^28 keys.
#include "harness/harness.hpp"
#include "harness/random.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <stdexcept>
#include <type_traits>
#include <unordered_set>

namespace gpusort::harness {

// ---- names -------------------------------------------------------------------

namespace {
struct dist_name {
  dist d;
  std::string_view name;
};
constexpr dist_name dist_names[] = {
    {dist::uniform, "uniform"},
    {dist::sorted, "sorted"},
    {dist::reverse, "reverse"},
    {dist::equal, "equal"},
    {dist::few_unique, "few_unique"},
    {dist::zipf, "zipf"},
    {dist::entropy2, "entropy2"},
    {dist::entropy4, "entropy4"},
    {dist::organ_pipe, "organ_pipe"},
    {dist::median3_killer, "median3_killer"},
    {dist::sample_killer, "sample_killer"},
    {dist::float_special, "float_special"},
    {dist::bits20, "bits20"},
    {dist::unit, "unit"},
    {dist::normal, "normal"},
    {dist::grid, "grid"},
    {dist::small_signed, "small_signed"},
    {dist::ids, "ids"},
    {dist::timestamps, "timestamps"},
    {dist::nearly_sorted, "nearly_sorted"},
};
}  // namespace

std::string_view to_string(dist d) {
  for (const auto& e : dist_names)
    if (e.d == d) return e.name;
  return "?";
}

bool parse_dist(std::string_view name, dist& out) {
  for (const auto& e : dist_names)
    if (e.name == name) {
      out = e.d;
      return true;
    }
  return false;
}

const std::vector<dist>& all_dists() {
  static const std::vector<dist> all = [] {
    std::vector<dist> v;
    for (const auto& e : dist_names) v.push_back(e.d);
    return v;
  }();
  return all;
}

// ---- the distributions ------------------------------------------------------------

namespace {

using namespace gen;

// n distinct random codes (C >= n is the caller's business), deterministic.
template <class K> std::vector<u64> distinct_codes(std::size_t n, const stream& s) {
  std::vector<u64> out;
  std::unordered_set<u64> seen;
  for (u64 i = 0; out.size() < n; ++i) {
    u64 c = code_space<K>::scale(s(i));
    if (seen.insert(c).second) out.push_back(c);
  }
  return out;
}

template <class K> void fill_sorted(K* out, std::size_t n, const stream& s, bool descending) {
  parallel_fill(n, [&](std::size_t i) {
    u64 pos = descending ? n - 1 - i : i;
    out[i] = code_space<K>::key(code_space<K>::scale(stratified(pos, n, s(pos))));
  });
}

// A sorted sample with 1% of its positions moved: n / 200 disjoint pairs of
// random positions swap their keys, as a few late or corrected records
// would leave a sorted log. The positions are drawn one after another and a
// drawn position is never drawn again, so exactly 2 * (n / 200) positions
// change (fewer only where a pair holds equal keys).
template <class K> void fill_nearly_sorted(K* out, std::size_t n, const stream& s, const stream& picks) {
  fill_sorted(out, n, s, false);
  const std::size_t pairs = n / 200;
  std::vector<bool> taken(n);
  std::size_t first = 0;
  bool have_first = false;
  for (u64 i = 0, done = 0; done < pairs; ++i) {
    const std::size_t p = std::size_t(mulhi(picks(i), n));
    if (taken[p]) continue;
    taken[p] = true;
    if (!have_first) {
      first = p;
      have_first = true;
      continue;
    }
    std::swap(out[first], out[p]);
    have_first = false;
    ++done;
  }
}

// Zipf(1) over 2^16 ranks: rank k (0-based) has weight 1 / (k + 1). Ranks map
// to distinct random keys where the type has that many finite values; for
// narrower types (u8, f16, bf16) ranks wrap over a random permutation of all
// codes.
template <class K> void fill_zipf(K* out, std::size_t n, const stream& s) {
  constexpr std::size_t ranks = std::size_t(1) << 16;
  std::vector<double> cdf(ranks);
  double sum = 0;
  for (std::size_t k = 0; k < ranks; ++k) cdf[k] = (sum += 1.0 / double(k + 1));
  for (auto& c : cdf) c /= sum;

  std::vector<K> key_of_rank(ranks);
  constexpr u64 c = code_space<K>::count();
  const stream table_rng(s.key, dist::zipf, 1);
  if (c != 0 && c <= (u64(1) << 17)) {
    std::vector<u64> perm(c);
    for (u64 i = 0; i < c; ++i) perm[i] = i;
    for (u64 i = c - 1; i > 0; --i) std::swap(perm[i], perm[mulhi(table_rng(i), i + 1)]);
    for (std::size_t k = 0; k < ranks; ++k) key_of_rank[k] = code_space<K>::key(perm[k % c]);
  } else {
    auto codes = distinct_codes<K>(ranks, table_rng);
    for (std::size_t k = 0; k < ranks; ++k) key_of_rank[k] = code_space<K>::key(codes[k]);
  }
  // Inverse-CDF sampling. A guide table (the first rank of each of 2^16
  // equal slices of [0, 1)) narrows each binary search to a few ranks.
  constexpr std::size_t slices = std::size_t(1) << 16;
  std::vector<std::uint32_t> guide(slices + 1);
  for (std::size_t b = 0; b <= slices; ++b)
    guide[b] = std::uint32_t(std::lower_bound(cdf.begin(), cdf.end(), double(b) / slices) - cdf.begin());
  parallel_fill(n, [&](std::size_t i) {
    const double u = double(s(i) >> 11) * 0x1.0p-53;
    const std::size_t b = std::size_t(u * slices);
    const auto first = cdf.begin() + guide[b];
    const auto last = cdf.begin() + std::min<std::size_t>(guide[b + 1] + 1, ranks);
    const std::size_t k = std::size_t(std::lower_bound(first, last, u) - cdf.begin());
    out[i] = key_of_rank[std::min(k, ranks - 1)];
  });
}

// CUB's entropy reduction: the AND of `words` random bit patterns (each bit
// is set with probability 2^-words). Floats whose exponent comes out all
// ones (inf/NaN) lose the exponent's low bit, so they stay finite.
template <class K> void fill_entropy(K* out, std::size_t n, const stream& s, int words) {
  using traits = detail::key_traits<K>;
  using bits = typename traits::bits;
  parallel_fill(n, [&](std::size_t i) {
    u64 w = ~u64(0);
    for (int k = 0; k < words; ++k) w &= mix64(s(i) + u64(k) * golden);
    bits b = bits(w);
    if constexpr (traits::is_float) {
      constexpr int m = float_format<K>::man_bits;
      constexpr bits exp_mask = bits(((bits(1) << float_format<K>::exp_bits) - 1) << m);
      if ((b & exp_mask) == exp_mask) b = bits(b & ~(bits(1) << m));
    }
    out[i] = traits::from_raw(b);
  });
}

// Ascending first half, descending second half (two independent samples).
template <class K> void fill_organ_pipe(K* out, std::size_t n, const stream& up, const stream& down) {
  const u64 h = (n + 1) / 2, rest = n - h;
  parallel_fill(n, [&](std::size_t i) {
    if (i < h) {
      out[i] = code_space<K>::key(code_space<K>::scale(stratified(i, h, up(i))));
    } else {
      u64 pos = rest - 1 - (i - h);
      out[i] = code_space<K>::key(code_space<K>::scale(stratified(pos, rest, down(pos))));
    }
  });
}

// Musser's median-of-3 killer (Introspective Sorting and Selection
// Algorithms, 1997), for m = 2k, k even, values 1..m:
//   first half:  position i = 1..k holds i (i odd) or k + i - 1 (i even);
//   second half: position k + i holds 2i.
// e.g. m = 8: 1 5 3 7 2 4 6 8. Quicksort with median-of-3 pivots then peels
// two elements per partition step. m is the largest multiple of 4 <= n; the
// remaining positions hold m+1..n in order. Values (0-based) map
// monotonically onto the key space.
inline u64 median3_value(u64 pos, u64 n) {
  const u64 m = n / 4 * 4, k = m / 2;
  if (pos >= m) return pos;
  u64 v;
  if (pos < k) {
    u64 i = pos + 1;
    v = (i & 1) ? i : k + i - 1;
  } else {
    v = 2 * (pos - k + 1);
  }
  return v - 1;
}

// Adversarial to sample sort: splitters are drawn from regular positions
// (every n/s-th element, for whatever s), so the key X is placed at every
// multiple of 16 and in short runs around each of the R = min(1024, n/64)
// regular positions floor(j * n / R); the midpoint of each stride-16 gap
// holds X's neighbour Y. Every regular sample sees only X or Y, all
// splitters collapse, and one bucket receives everything. The remaining
// positions (at least 3/4 of them) hold a sorted sample of the whole range.
template <class K> void fill_sample_killer(K* out, std::size_t n, const stream& s) {
  using cs = code_space<K>;
  const u64 mid = cs::scale(u64(1) << 63);
  const K x = cs::key(mid), y = cs::key(mid + 1);
  const u64 regular = std::clamp<u64>(n / 64, 1, 1024), run = 2;
  parallel_fill(n, [&](std::size_t p) {
    u64 j = muldiv(p, regular, n);
    bool near_regular = false;
    for (u64 jj = j; jj <= j + 1 && jj <= regular; ++jj) {
      u64 q = muldiv(jj, n, regular);
      if ((p > q ? p - q : q - p) <= run) near_regular = true;
    }
    if (p % 16 == 0 || near_regular) out[p] = x;
    else if (p % 16 == 8) out[p] = y;
    else out[p] = cs::key(cs::scale(stratified(p, n, s(p))));
  });
}

// IEEE specials in a random mix: +-0, +-inf, quiet and signalling NaNs of
// both signs with random payloads, denormals of both signs, and (the
// remaining 3/8) uniform finite values.
template <class K> void fill_float_special(K* out, std::size_t n, const stream& s) {
  using traits = detail::key_traits<K>;
  using bits = typename traits::bits;
  constexpr int m = float_format<K>::man_bits;
  constexpr bits sign = traits::sign;
  constexpr bits exp_mask = bits(((bits(1) << float_format<K>::exp_bits) - 1) << m);
  constexpr bits man_mask = bits((bits(1) << m) - 1);
  constexpr bits quiet = bits(bits(1) << (m - 1));
  parallel_fill(n, [&](std::size_t i) {
    u64 r = s(i), r2 = mix64(r);
    bits payload = bits(r2) & man_mask;
    bits neg = (r2 >> 63) ? sign : bits(0);
    bits b;
    switch (r % 16) {
      case 0: b = 0; break;                  // +0
      case 1: b = sign; break;               // -0
      case 2: b = exp_mask; break;           // +inf
      case 3: b = bits(sign | exp_mask); break;  // -inf
      case 4: case 5:                        // quiet NaN, either sign, any payload
        b = bits(neg | exp_mask | quiet | payload);
        break;
      case 6: case 7: {                      // signalling NaN: quiet bit clear, payload != 0
        bits p = bits(payload & (quiet - 1));
        b = bits(neg | exp_mask | (p ? p : bits(1)));
        break;
      }
      case 8: case 9: {                      // denormal, either sign
        b = bits(neg | (payload ? payload : bits(1)));
        break;
      }
      default: b = traits::raw(code_space<K>::random(r2)); break;
    }
    out[i] = traits::from_raw(b);
  });
}

// Small integers held in wide keys: uniform over the values 0 .. 2^20 - 1,
// so a 64-bit key's high 44 bits are zero and a radix sort that skips
// constant digits has 20 of 64 bits to do. Floats hold the integers themselves
// (exact in f32 and f64), signed keys the non-negative ones. A key of fewer
// than 20 bits has no such range and is uniform over its codes instead.
template <class K> void fill_bits20(K* out, std::size_t n, const stream& s) {
  if constexpr (detail::key_traits<K>::width < 20)
    parallel_fill(n, [&](std::size_t i) { out[i] = code_space<K>::random(s(i)); });
  else
    parallel_fill(n, [&](std::size_t i) { out[i] = K(s(i) >> 44); });
}

// torch.rand's values: j * 2^-p for a random j in [0, 2^p), p = mantissa
// bits + 1, so every value is exact and below 1; the top digit of the
// order holds half the keys ([0.5, 1)). Integers: the top bit clear.
template <class K> void fill_unit(K* out, std::size_t n, const stream& s) {
  using traits = detail::key_traits<K>;
  if constexpr (traits::is_float) {
    constexpr int p = float_format<K>::man_bits + 1;
    parallel_fill(n, [&](std::size_t i) {
      out[i] = float_key<K>(std::ldexp(double(s(i) >> (64 - p)), -p));
    });
  } else {
    parallel_fill(n, [&](std::size_t i) { out[i] = K(s(i) >> (65 - traits::width)); });
  }
}

}  // namespace

template <class K> void generate(dist d, K* out, std::size_t n, std::uint64_t seed) {
  if (n == 0) return;
  if (!out) throw error(errc::invalid_argument, "harness::generate: null output");
  using cs = code_space<K>;
  const stream s(seed, d, 0);
  switch (d) {
    case dist::uniform:
      parallel_fill(n, [&](std::size_t i) { out[i] = cs::random(s(i)); });
      break;
    case dist::sorted: fill_sorted(out, n, s, false); break;
    case dist::reverse: fill_sorted(out, n, s, true); break;
    case dist::equal: {
      const K v = cs::random(s(0));
      parallel_fill(n, [&](std::size_t i) { out[i] = v; });
      break;
    }
    case dist::few_unique: {
      const auto codes = distinct_codes<K>(16, stream(seed, d, 1));
      parallel_fill(n, [&](std::size_t i) { out[i] = cs::key(codes[s(i) % 16]); });
      break;
    }
    case dist::zipf: fill_zipf(out, n, s); break;
    case dist::entropy2: fill_entropy(out, n, s, 2); break;
    case dist::entropy4: fill_entropy(out, n, s, 4); break;
    case dist::organ_pipe: fill_organ_pipe(out, n, s, stream(seed, d, 1)); break;
    case dist::median3_killer:
      parallel_fill(n, [&](std::size_t i) { out[i] = cs::spread(median3_value(i, n), n); });
      break;
    case dist::sample_killer: fill_sample_killer(out, n, s); break;
    case dist::float_special:
      if constexpr (detail::key_traits<K>::is_float) fill_float_special(out, n, s);
      else parallel_fill(n, [&](std::size_t i) { out[i] = cs::random(s(i)); });
      break;
    case dist::bits20: fill_bits20(out, n, s); break;
    case dist::unit: fill_unit(out, n, s); break;
    case dist::nearly_sorted: fill_nearly_sorted(out, n, s, stream(seed, d, 1)); break;
    case dist::normal:
    case dist::grid:
    case dist::small_signed:
    case dist::ids:
    case dist::timestamps: fill_real(d, out, n, seed); break;
    default: throw error(errc::invalid_argument, "harness::generate: unknown distribution");
  }
}

#define GPUSORT_HARNESS_GENERATE(K) \
  template void generate<K>(dist, K*, std::size_t, std::uint64_t);
GPUSORT_FOR_EACH_KEY(GPUSORT_HARNESS_GENERATE)
#undef GPUSORT_HARNESS_GENERATE

}  // namespace gpusort::harness
