#include "segments.hpp"

#include "args.hpp"

#include <gpusort/detail/key_traits.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>

namespace gpusort::cli::bench {

namespace {

constexpr std::string_view fixed_prefix = "seg", power_prefix = "segpow";

// splitmix64: a deterministic random sequence.
struct rng {
  std::uint64_t s;
  std::uint64_t next() {
    std::uint64_t z = (s += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
  }
  double unit() { return double(next() >> 11) * 0x1.0p-53; }  // [0, 1)
};

std::string segment_name(const std::vector<std::int64_t>& offsets, std::int64_t s) {
  return "segment " + std::to_string(s) + " = [" + std::to_string(offsets[std::size_t(s)]) + ", " +
         std::to_string(offsets[std::size_t(s) + 1]) + ")";
}

harness::check check_offsets(const std::vector<std::int64_t>& offsets) {
  if (offsets.empty() || offsets.front() != 0) return {false, "the segment offsets do not start at 0"};
  for (std::size_t i = 1; i < offsets.size(); ++i)
    if (offsets[i] < offsets[i - 1]) return {false, "the segment offsets decrease at " + std::to_string(i)};
  return {};
}

// Runs check(s) -> "" or a message over every segment, in parallel; the
// message of the first failing segment, if any.
template <class F> harness::check over_segments(const std::vector<std::int64_t>& offsets, F check) {
  const std::int64_t num = std::int64_t(offsets.size()) - 1;
  std::int64_t first_bad = std::numeric_limits<std::int64_t>::max();
#pragma omp parallel for schedule(dynamic, 256) reduction(min : first_bad)
  for (std::int64_t s = 0; s < num; ++s)
    if (!check(s).empty()) first_bad = std::min(first_bad, s);
  if (first_bad == std::numeric_limits<std::int64_t>::max()) return {};
  return {false, segment_name(offsets, first_bad) + ": " + check(first_bad)};
}

inline std::uint64_t mix64(std::uint64_t z) {
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

}  // namespace

std::string bench_dist::name() const {
  const std::string of_keys = keys == harness::dist::uniform ? "" : ":" + std::string(harness::to_string(keys));
  switch (seg) {
    case layout::none: return std::string(harness::to_string(keys));
    case layout::fixed: return std::string(fixed_prefix) + std::to_string(seg_n) + of_keys;
    case layout::power: return std::string(power_prefix) + std::to_string(seg_n) + of_keys;
  }
  return "?";
}

bool parse_bench_dist(std::string_view text, bench_dist& out) {
  harness::dist d{};
  if (harness::parse_dist(text, d)) {
    out = bench_dist{};
    out.keys = d;
    return true;
  }
  bench_dist b;
  std::string_view count;
  // segN:DIST: the keys' distribution after the colon
  if (const auto colon = text.find(':'); colon != std::string_view::npos) {
    const std::string_view keys = text.substr(colon + 1);
    text = text.substr(0, colon);
    if (text.substr(0, fixed_prefix.size()) != fixed_prefix) return false;
    if (!harness::parse_dist(keys, b.keys))
      throw usage_error("--dist " + std::string(text) + ":" + std::string(keys) + ": unknown key distribution '" +
                        std::string(keys) + "' (one of: " + bench_dist_names() + ")");
  }
  if (text.substr(0, power_prefix.size()) == power_prefix) {
    b.seg = bench_dist::layout::power;
    count = text.substr(power_prefix.size());
  } else if (text.substr(0, fixed_prefix.size()) == fixed_prefix) {
    b.seg = bench_dist::layout::fixed;
    count = text.substr(fixed_prefix.size());
  } else {
    return false;
  }
  b.seg_n = parse_count(count, "segment size in --dist " + std::string(text));
  if (b.seg_n == 0) throw usage_error("--dist " + std::string(text) + ": segments need at least 1 key");
  out = b;
  return true;
}

std::string bench_dist_names() {
  std::string s;
  for (auto d : harness::all_dists()) append_item(s, harness::to_string(d));
  append_item(s, "segN segpowN segN:DIST segpowN:DIST");
  return s;
}

std::vector<std::int64_t> segment_offsets(const bench_dist& d, std::uint64_t n, std::uint64_t seed) {
  std::vector<std::int64_t> offsets{0};
  if (!d.segmented()) {
    offsets.push_back(std::int64_t(n));
    return offsets;
  }
  const std::uint64_t size = std::max<std::uint64_t>(d.seg_n, 1);
  std::uint64_t at = 0;
  if (d.seg == bench_dist::layout::fixed) {
    offsets.reserve(std::size_t(n / size + 2));
    while (at < n) {
      at = n - at > size ? at + size : n;
      offsets.push_back(std::int64_t(at));
    }
    return offsets;
  }
  // 1 + Lomax(alpha, lambda): mean 1 + lambda / (alpha - 1) - ~0.5 (the
  // floor), so lambda = (N - 0.5) * (alpha - 1) gives a mean of ~N.
  constexpr double alpha = 1.5;
  const double lambda = std::max(0.0, (double(size) - 0.5) * (alpha - 1));
  rng r{seed ^ mix64(0x5E6B0F5E6B0F5E6Bull + size)};
  offsets.reserve(std::size_t(n / size + 16));
  while (at < n) {
    const double x = lambda * (std::pow(1.0 - r.unit(), -1.0 / alpha) - 1.0);
    const std::uint64_t left = n - at;
    const std::uint64_t s = x >= double(left) ? left : std::min<std::uint64_t>(1 + std::uint64_t(x), left);
    at += s;
    offsets.push_back(std::int64_t(at));
  }
  return offsets;
}

std::string describe_segments(const std::vector<std::int64_t>& offsets) {
  const std::size_t num = offsets.size() - 1;
  std::int64_t largest = 0;
  for (std::size_t i = 0; i < num; ++i) largest = std::max(largest, offsets[i + 1] - offsets[i]);
  char buf[128];
  std::snprintf(buf, sizeof buf, "%zu segments, mean %.1f keys, largest %lld", num,
                num ? double(offsets.back()) / double(num) : 0.0, (long long)largest);
  return buf;
}

template <class K>
harness::check verify_segmented_keys(const K* in, const K* out, const std::vector<std::int64_t>& offsets) {
  if (auto c = check_offsets(offsets); !c) return c;
  using traits = detail::key_traits<K>;
  const detail::key_order<K> ord(false, 0, traits::width);
  return over_segments(offsets, [&](std::int64_t s) -> std::string {
    const std::size_t b = std::size_t(offsets[std::size_t(s)]), e = std::size_t(offsets[std::size_t(s) + 1]);
    std::uint64_t sum_in = 0, sum_out = 0, xor_in = 0, xor_out = 0;
    for (std::size_t i = b; i < e; ++i) {
      if (i > b && ord.key_rank(out[i]) < ord.key_rank(out[i - 1]))
        return "keys " + std::to_string(i - 1) + " and " + std::to_string(i) + " are out of order";
      const std::uint64_t hi = mix64(std::uint64_t(traits::raw(in[i])) + 0x1234567ull);
      const std::uint64_t ho = mix64(std::uint64_t(traits::raw(out[i])) + 0x1234567ull);
      sum_in += hi, sum_out += ho;
      xor_in ^= mix64(hi), xor_out ^= mix64(ho);
    }
    if (sum_in != sum_out || xor_in != xor_out) return "not a permutation of its input (the fingerprints differ)";
    return {};
  });
}

template <class K, class I>
harness::check verify_segmented_pairs(const K* in, const K* out, const I* idx,
                                      const std::vector<std::int64_t>& offsets, bool stable) {
  if (auto c = check_offsets(offsets); !c) return c;
  using traits = detail::key_traits<K>;
  const detail::key_order<K> ord(false, 0, traits::width);
  // A segment marks its own indices only, so the segments share it safely;
  // each check starts from clean marks (it runs again for the message).
  std::vector<unsigned char> seen(std::size_t(offsets.back()), 0);
  auto check = [&](std::int64_t s) -> std::string {
    const std::size_t b = std::size_t(offsets[std::size_t(s)]), e = std::size_t(offsets[std::size_t(s) + 1]);
    std::fill(seen.begin() + std::ptrdiff_t(b), seen.begin() + std::ptrdiff_t(e), 0);
    for (std::size_t i = b; i < e; ++i) {
      const std::size_t j = std::size_t(idx[i]);
      if (j < b || j >= e)
        return "value " + std::to_string(i) + " is " + std::to_string(j) + ", an index outside the segment";
      if (seen[j]) return "index " + std::to_string(j) + " appears twice";
      seen[j] = 1;
      if (traits::raw(out[i]) != traits::raw(in[j]))
        return "key " + std::to_string(i) + " is not the input key " + std::to_string(j) + " its value names";
      if (i > b) {
        const auto r0 = ord.key_rank(out[i - 1]), r1 = ord.key_rank(out[i]);
        if (r1 < r0) return "keys " + std::to_string(i - 1) + " and " + std::to_string(i) + " are out of order";
        if (stable && r1 == r0 && idx[i] < idx[i - 1])
          return "not stable: equal keys " + std::to_string(i - 1) + " and " + std::to_string(i) +
                 " hold indices " + std::to_string(idx[i - 1]) + " and " + std::to_string(idx[i]);
      }
    }
    return {};
  };
  return over_segments(offsets, check);
}

#define GPUSORT_CLI_SEGMENTS_PAIRS(K, I)                                             \
  template harness::check verify_segmented_pairs<K, I>(const K*, const K*, const I*, \
                                                       const std::vector<std::int64_t>&, bool);
#define GPUSORT_CLI_SEGMENTS(K)                                                                                \
  template harness::check verify_segmented_keys<K>(const K*, const K*, const std::vector<std::int64_t>&); \
  GPUSORT_CLI_SEGMENTS_PAIRS(K, std::uint32_t)                                                            \
  GPUSORT_CLI_SEGMENTS_PAIRS(K, std::uint64_t)
GPUSORT_FOR_EACH_KEY(GPUSORT_CLI_SEGMENTS)
#undef GPUSORT_CLI_SEGMENTS
#undef GPUSORT_CLI_SEGMENTS_PAIRS

}  // namespace gpusort::cli::bench
