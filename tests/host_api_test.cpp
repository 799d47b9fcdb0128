// Host suite: the host-memory API on the CPU path (gpusort::sort_cpu),
// which is stable, so every result must equal std::stable_sort under an
// order written in tests/oracle.hpp (oracle_order, not the library's key_order,
// which sort_cpu itself sorts by) bit for bit; gpusort::sort's choice
// of backend; and the scratch that runtime.hpp's argsort asks for (a query
// made on the host).
#include "harness/harness.hpp"
#include "host_checks.hpp"
#include "key_types.hpp"
#include "oracle.hpp"
#include "values.hpp"

#include <gpusort/runtime.hpp>

#include <gtest/gtest.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <numeric>
#include <span>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

namespace {

using namespace gpusort_test;
using gpusort::harness::dist;
namespace h = gpusort::harness;

template <class K> class HostCpuSort : public ::testing::Test {};
TYPED_TEST_SUITE(HostCpuSort, key_types, key_name);

const dist cpu_dists[] = {dist::uniform,  dist::sorted,     dist::reverse,    dist::equal,
                          dist::few_unique, dist::zipf,     dist::organ_pipe, dist::sample_killer,
                          dist::float_special};
const std::size_t cpu_sizes[] = {0, 1, 2, 3, 1000, 4097, 100003};

std::string label(dist d, std::size_t n, const gpusort::options& o) {
  return std::string(h::to_string(d)) + " n=" + std::to_string(n) + " " + name(o.direction) + " bits [" +
         std::to_string(o.begin_bit) + "," + std::to_string(o.end_bit) + ")";
}

// Every (dist, size, direction) with all bits, and the partial bit ranges
// on a few of them.
template <class K, class F> void for_cpu_cases(F run) {
  for (dist d : cpu_dists)
    for (std::size_t n : cpu_sizes)
      for (auto dir : {gpusort::order::ascending, gpusort::order::descending})
        for (auto [b, e] : bit_ranges<K>()) {
          const bool partial = !(b == 0 && e == -1);
          if (partial && !(d == dist::uniform || d == dist::float_special || d == dist::few_unique)) continue;
          if (partial && (n == 4097 || n == 3)) continue;
          run(d, n, make_options(dir, b, e));
        }
}

TYPED_TEST(HostCpuSort, KeysMatchStableReference) {
  using K = TypeParam;
  for_cpu_cases<K>([](dist d, std::size_t n, const gpusort::options& opt) {
    const auto in = h::generate<K>(d, n, 77 + n);
    auto out = in;
    EXPECT_EQ(gpusort::sort_cpu(std::span<K>(out), opt), gpusort::backend::cpu_parallel);
    ASSERT_TRUE(sorted_keys_of(in, out, opt, true)) << label(d, n, opt);  // bit for bit the stable oracle
  });
}

template <class K, class I> void check_cpu_pairs(dist d, std::size_t n, const gpusort::options& opt) {
  const auto in = h::generate<K>(d, n, 99 + n);
  auto keys = in;
  std::vector<I> idx(n);
  std::iota(idx.begin(), idx.end(), I(0));
  EXPECT_EQ(gpusort::sort_cpu(std::span<K>(keys), std::span<I>(idx), opt), gpusort::backend::cpu_parallel);
  ASSERT_TRUE(sorted_pairs_of(in, keys, idx, opt, true)) << label(d, n, opt);
  const stable_oracle<K> want(in, opt);
  ASSERT_TRUE(same_bits(keys, want.keys)) << label(d, n, opt);
  ASSERT_TRUE(std::equal(idx.begin(), idx.end(), want.idx.begin(), want.idx.end())) << label(d, n, opt);
  const auto c = h::verify_pairs(in.data(), keys.data(), idx.data(), n, opt, true);
  ASSERT_TRUE(c.ok) << label(d, n, opt) << ": " << c.message;
}

TYPED_TEST(HostCpuSort, PairsMatchStableReference) {
  using K = TypeParam;
  for_cpu_cases<K>([](dist d, std::size_t n, const gpusort::options& opt) {
    check_cpu_pairs<K, std::uint32_t>(d, n, opt);
    if (n == 1000) check_cpu_pairs<K, std::uint64_t>(d, n, opt);
  });
}

// NaNs largest (the frameworks' order) through the CPU backend's paths:
// float specials (NaNs of both signs and several payloads), keys and pairs,
// both directions, all bits and a bit range, against the oracle's stable
// result bit for bit.
TYPED_TEST(HostCpuSort, NansLargest) {
  using K = TypeParam;
  for (std::size_t n : {std::size_t(2), std::size_t(1000), std::size_t(100003)})
    for (auto dir : {gpusort::order::ascending, gpusort::order::descending})
      for (auto [b, e] : {std::pair{0, -1}, {3, width_of<K> - 1}}) {
        auto opt = make_options(dir, b, e);
        opt.nans = gpusort::nan_order::largest;
        const auto in = h::generate<K>(dist::float_special, n, 55 + n);
        auto out = in;
        EXPECT_EQ(gpusort::sort_cpu(std::span<K>(out), opt), gpusort::backend::cpu_parallel);
        ASSERT_TRUE(sorted_keys_of(in, out, opt, true)) << label(dist::float_special, n, opt) << " nans=largest";
        check_cpu_pairs<K, std::uint32_t>(dist::float_special, n, opt);
        if (::testing::Test::HasFatalFailure()) return;
      }
}

// The CPU backend's three paths at sizes that reach them (cpu_sort.cpp):
// the hybrid with buckets of every size (tiny ones take the insertion
// sort), and keys skewed so that one MSD bucket overflows a core's cache,
// which sends 4-byte keys to the LSD sort and 8-byte keys to IPS4o.
template <class K> std::vector<K> half_one_key(std::size_t n, std::uint64_t seed) {
  auto keys = h::generate<K>(dist::uniform, n, seed);
  for (std::size_t i = 0; i < n; i += 3) keys[i] = keys[1];
  for (std::size_t i = 1; i < n; i += 3) keys[i] = keys[1];
  return keys;
}
template <class K> void check_cpu_path(const std::vector<K>& in, const std::string& what) {
  for (auto dir : {gpusort::order::ascending, gpusort::order::descending}) {
    const auto opt = make_options(dir);
    auto keys = in;
    EXPECT_EQ(gpusort::sort_cpu(std::span<K>(keys), opt), gpusort::backend::cpu_parallel);
    ASSERT_TRUE(sorted_keys_of(in, keys, opt, true)) << what << " keys " << name(dir);
    keys = in;
    std::vector<std::uint32_t> idx(in.size());
    std::iota(idx.begin(), idx.end(), 0u);
    gpusort::sort_cpu(std::span<K>(keys), std::span<std::uint32_t>(idx), opt);
    const stable_oracle<K> want(in, opt);
    ASSERT_TRUE(same_bits(keys, want.keys)) << what << " pairs " << name(dir);
    ASSERT_TRUE(std::equal(idx.begin(), idx.end(), want.idx.begin(), want.idx.end())) << what << " pairs " << name(dir);
  }
}

TEST(HostCpuSortPaths, HybridAndFallbacks) {
  const std::size_t n = std::size_t(1) << 16;  // the hybrid's least: buckets of about 32 keys
  check_cpu_path(h::generate<std::uint32_t>(dist::uniform, n, 1), "u32 2^16");
  check_cpu_path(h::generate<std::uint64_t>(dist::uniform, n + 1, 2), "u64 2^16+1");
  check_cpu_path(h::generate<double>(dist::float_special, 300007, 3), "f64 float_special");
  check_cpu_path(h::generate<std::int64_t>(dist::zipf, 1000003, 4), "i64 zipf 1e6");
  check_cpu_path(half_one_key<std::uint32_t>(900001, 5), "u32 one key in 2/3 (LSD)");
  check_cpu_path(half_one_key<std::uint64_t>(900001, 6), "u64 one key in 2/3 (IPS4o)");
  // 2/3 of the keys share their top 42 bits and vary below (IPS4o)
  auto narrow = h::generate<std::uint64_t>(dist::uniform, 900001, 7);
  for (std::size_t i = 0; i < narrow.size(); ++i)
    if (i % 3 != 2) narrow[i] = 0x5A5A5A5A5A000000ull | (narrow[i] & 0x3FFFFF);
  check_cpu_path(narrow, "u64 narrow 2/3 (IPS4o)");
  check_cpu_path(h::generate<std::uint32_t>(dist::zipf, 900001, 8), "u32 zipf");
}

// NaNs largest through IPS4o's keys (cpu_sort.cpp, sort_nans_apart):
// doubles whose top digit is skewed (2/3 of them one value, so the hybrid
// refuses and more digits vary than the LSD sort takes), with the specials
// (NaNs of both signs and several payloads, +-0.0, +-inf) mixed in, and the
// sorts' pad pattern (the negative signalling NaN of payload 1, which ranks
// last descending, every other NaN first); no NaN, some, and nothing but
// NaNs; both directions; bit for bit against the oracle's stable result.
TEST(HostCpuSortPaths, NansLargestSetApart) {
  const std::size_t n = 900001;
  auto skewed = h::generate<double>(dist::normal, n, 11);
  for (std::size_t i = 0; i < n; ++i)
    if (i % 3 != 2) skewed[i] = 1.25;
  const auto special = h::generate<double>(dist::float_special, n, 12);
  const double pad = std::bit_cast<double>(std::uint64_t(0xFFF0000000000001ull));
  const std::uint64_t nans[] = {0x7FF8000000000000ull, 0xFFF8000000000000ull, 0x7FF0000000000001ull,
                                0xFFFFFFFFFFFFFFFFull, 0x7FF80000DEADBEEFull, 0xFFF4000000000000ull};
  std::vector<std::pair<std::string, std::vector<double>>> cases;
  auto numbers = skewed;  // no NaN: the zeros and infinities alone
  const double edges[] = {-0.0, 0.0, -INFINITY, INFINITY};
  for (std::size_t i = 5; i < n; i += 97) numbers[i] = edges[(i / 97) % 4];
  cases.emplace_back("no NaN", numbers);
  auto mixed = skewed;
  for (std::size_t i = 0; i < n; i += 7) mixed[i] = special[i];
  for (std::size_t i = 3; i < n; i += 1009) mixed[i] = std::bit_cast<double>(nans[(i / 1009) % 6]);
  cases.emplace_back("some NaNs", mixed);
  for (std::size_t i = 11; i < n; i += 10007) mixed[i] = pad;
  cases.emplace_back("some NaNs and the pad", mixed);
  std::vector<double> all(n);
  for (std::size_t i = 0; i < n; ++i) all[i] = i % 5 == 4 ? pad : std::bit_cast<double>(nans[i % 6]);
  cases.emplace_back("NaNs only", all);
  for (const auto& [what, in] : cases)
    for (auto dir : {gpusort::order::ascending, gpusort::order::descending}) {
      auto opt = make_options(dir);
      opt.nans = gpusort::nan_order::largest;
      auto out = in;
      EXPECT_EQ(gpusort::sort_cpu(std::span<double>(out), opt), gpusort::backend::cpu_parallel);
      ASSERT_TRUE(sorted_keys_of(in, out, opt, true)) << what << " " << name(dir);
    }
}

// More than 2^31 keys on the CPU backend (u8: the LSD sort's one digit; u16:
// the hybrid's gate refuses buckets of about 2^20 keys, so two LSD passes),
// checked as ordered and as the same multiset (every value's count). Several
// GB of memory and a minute on two cores, so only when asked for.
template <class K> void check_huge_cpu(std::size_t n) {
  std::vector<K> keys(n);
  std::vector<std::size_t> count(std::size_t(1) << (8 * sizeof(K)), 0);
  std::uint64_t x = 0x9E3779B97F4A7C15ull;
  for (std::size_t i = 0; i < n; ++i) {
    x ^= x << 13, x ^= x >> 7, x ^= x << 17;
    keys[i] = K(x >> 20);
    ++count[keys[i]];
  }
  EXPECT_EQ(gpusort::sort_cpu(std::span<K>(keys), make_options(gpusort::order::descending)),
            gpusort::backend::cpu_parallel);
  std::size_t at = 0;
  for (std::size_t v = count.size(); v-- > 0;)
    for (std::size_t c = 0; c < count[v]; ++c, ++at)
      if (keys[at] != K(v)) FAIL() << "at " << at << ": " << +keys[at] << ", want " << v;
  EXPECT_EQ(at, n);
}

TEST(HostCpuSortHuge, MoreThan2To31Keys) {
  if (!std::getenv("GPUSORT_HUGE_CPU")) GTEST_SKIP() << "set GPUSORT_HUGE_CPU=1 to sort 2^31 + 4099 keys (several GB)";
  const std::size_t n = (std::size_t(1) << 31) + 4099;
  check_huge_cpu<std::uint8_t>(n);
  check_huge_cpu<std::uint16_t>(n);
}

// gpusort::sort runs on the CPU exactly when no GPU is present.
TYPED_TEST(HostCpuSort, SortChoosesBackend) {
  using K = TypeParam;
  const auto opt = make_options(gpusort::order::ascending);
  const auto in = h::generate<K>(dist::uniform, 5000, 1);
  auto out = in;
  const auto used = gpusort::sort(std::span<K>(out), opt);
  EXPECT_EQ(used, gpusort::gpu_available() ? gpusort::backend::gpu : gpusort::backend::cpu_parallel);
  EXPECT_EQ(used.path, gpusort::gpu_available() ? gpusort::host_path::device_in_core : gpusort::host_path::cpu);
  const auto c = h::verify_keys(in.data(), out.data(), in.size(), opt, used == gpusort::backend::cpu_parallel);
  EXPECT_TRUE(c.ok) << c.message;
  EXPECT_TRUE(sorted_keys_of(in, out, opt, used == gpusort::backend::cpu_parallel));
}

// Every value width, including widths that are not powers of two.
template <class V> void check_cpu_values(std::size_t n, gpusort::order dir) {
  const auto opt = make_options(dir);
  const auto in = h::generate<std::uint32_t>(dist::few_unique, n, 5);
  auto keys = in;
  auto vals = make_values<V>(n);
  gpusort::sort_cpu(std::span<std::uint32_t>(keys), std::span<V>(vals), opt);
  std::vector<std::uint32_t> idx(n);
  std::iota(idx.begin(), idx.end(), 0u);
  const oracle_order<std::uint32_t> ord(opt);
  std::stable_sort(idx.begin(), idx.end(), [&](auto a, auto b) { return ord.less(in[a], in[b]); });
  for (std::size_t i = 0; i < n; ++i) {
    ASSERT_EQ(keys[i], in[idx[i]]) << "sizeof(V)=" << sizeof(V) << " at " << i;
    ASSERT_TRUE(same_value(vals[i], make_value<V>(idx[i]))) << "sizeof(V)=" << sizeof(V) << " at " << i;
  }
}

TEST(HostCpuSortValues, EveryWidth) {
  for (std::size_t n : {std::size_t(1), std::size_t(777), std::size_t(70001)})
    for (auto dir : {gpusort::order::ascending, gpusort::order::descending}) {
      check_cpu_values<std::uint8_t>(n, dir);
      check_cpu_values<std::uint16_t>(n, dir);
      check_cpu_values<value3>(n, dir);
      check_cpu_values<std::uint32_t>(n, dir);
      check_cpu_values<std::uint64_t>(n, dir);
      check_cpu_values<value12>(n, dir);
      check_cpu_values<value16>(n, dir);
    }
}

// A device cap below the out-of-core path's minimum is no error: the CPU
// sorts, and the result says which path ran (with or without a GPU).
TEST(HostSortPath, CapBelowOutOfCoreMinimumRunsOnTheCpu) {
  auto opt = make_options(gpusort::order::ascending);
  opt.max_device_bytes = 4096;
  const auto in = h::generate<std::uint32_t>(dist::uniform, 100000, 4);
  auto keys = in;
  const gpusort::sort_result used = gpusort::sort(std::span<std::uint32_t>(keys), opt);
  EXPECT_EQ(used.backend, gpusort::backend::cpu_parallel);
  EXPECT_EQ(used.path, gpusort::host_path::cpu);
  EXPECT_TRUE(sorted_keys_of(in, keys, opt, true));
  // the result still reads as the backend it names
  const gpusort::backend b = gpusort::sort_cpu(std::span<std::uint32_t>(keys), opt);
  EXPECT_EQ(b, gpusort::backend::cpu_parallel);
}

TEST(HostApi, Names) {
  for (auto p : {gpusort::host_path::device_resident, gpusort::host_path::device_in_core,
                 gpusort::host_path::device_out_of_core, gpusort::host_path::cpu})
    EXPECT_NE(gpusort::to_string(p), "?");
  EXPECT_FALSE(gpusort::to_string(gpusort::backend::gpu).empty());
  EXPECT_NE(gpusort::to_string(gpusort::backend::gpu), gpusort::to_string(gpusort::backend::cpu_parallel));
  for (auto a : {gpusort::algorithm::odd_even, gpusort::algorithm::bitonic, gpusort::algorithm::automatic}) {
    gpusort::algorithm back{};
    ASSERT_TRUE(gpusort::parse_algorithm(gpusort::to_string(a), back)) << gpusort::to_string(a);
    EXPECT_EQ(back, a);
  }
  gpusort::algorithm a{};
  EXPECT_FALSE(gpusort::parse_algorithm("no_such_sort", a));
  EXPECT_TRUE(gpusort::is_stable(gpusort::algorithm::odd_even));
  EXPECT_FALSE(gpusort::is_stable(gpusort::algorithm::bitonic));
}

// argsort's scratch (runtime_api.cpp): the (key, index) pairs sort it runs,
// plus the sorted u32 indices when the output is int64 (and iota for 8-byte
// keys, whose sorted keys fill the output); the sorted keys and iota lie in
// the output otherwise. For f32 keys and int64 indices that is at most the
// keys' and the indices' bytes, plus onesweep's look-back tables.
template <class K> class HostRuntimeScratch : public ::testing::Test {};
TYPED_TEST_SUITE(HostRuntimeScratch, key_types, key_name);

TYPED_TEST(HostRuntimeScratch, ArgsortNeedsItsPairsSortAndTheSortedIndices) {
  using K = TypeParam;
  gpusort::key_type t{};
  ASSERT_TRUE(gpusort::parse_key_type(gpusort::detail::key_info<K>::name, t));
  // distinct addresses that the query checks and never reads
  const auto at = [](int i) { return reinterpret_cast<void*>(std::uintptr_t(1) << (40 + i)); };
  const std::size_t slot = 256;  // what one scratch slot may round up by
  const gpusort::options opt;
  for (const std::size_t n : {std::size_t(4999), std::size_t(1) << 24}) {
    const gpusort::sort_spec spec{t, n, 1};
    std::size_t pairs = 0;
    gpusort::sort_device(nullptr, pairs, spec, at(0), at(1), at(2), at(3), sizeof(std::uint32_t), opt);
    for (const int ib : {4, 8}) {
      std::size_t bytes = 0;
      gpusort::argsort_device(nullptr, bytes, spec, at(0), at(4), ib, opt);
      const std::size_t own = ib == 4 ? (sizeof(K) + 4) * n + 2 * slot
                              : sizeof(K) <= 4 ? 4 * n + slot
                                               : 8 * n + 2 * slot;
      EXPECT_LE(bytes, pairs + own) << "n=" << n << " int" << ib * 8;
      std::size_t over_keys = 0;  // argsort(x, out=x): the working data all in scratch
      gpusort::argsort_device(nullptr, over_keys, spec, at(0), at(0), ib, opt);
      EXPECT_GE(over_keys, bytes + 4 * n) << "n=" << n << " int" << ib * 8;
      if (std::is_same_v<K, float> && ib == 8 && n >= 4096 * 4096)
        EXPECT_LE(bytes, (sizeof(K) + 8) * n + n / 4) << "f32, int64: keys + indices + look-back tables";
    }
  }
}

}  // namespace
