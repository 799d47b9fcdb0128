// GPU tests of the multi-GPU sort (include/gpusort/multi.hpp, src/multi/).
//   GpuMultiFabric*   p = 2..4 ranks as threads on one device over the test
//                     fabric (multi_fabric.hpp), partition first and sort
//                     first: every key type, both orders, keys and pairs,
//                     skew, empty shards, n < p, bit ranges, values of
//                     every width
//   GpuMultiNccl*     the public calls over NCCL, one process, a thread per
//                     visible GPU (ncclCommInitAll); the convenience call
// The oracle is std::stable_sort of the whole input under the key order;
// outputs are compared bit for bit, and pairs carry the original index, so
// the permutation and the stability across ranks are checked too.
#include "gpu_util.hpp"
#include "harness/harness.hpp"
#include "key_types.hpp"

#include <gtest/gtest.h>

#ifdef GPUSORT_HAS_MULTI
#include "multi/entry.hpp"
#include "multi_fabric.hpp"

#include <gpusort/multi.hpp>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <cstdint>
#include <exception>
#include <numeric>
#include <random>
#include <string>
#include <thread>
#include <vector>
#endif

namespace {

#ifndef GPUSORT_HAS_MULTI
TEST(GpuMulti, NotBuilt) {
  GTEST_SKIP() << "built without NCCL (nccl.h, libnccl not found by CMake): the multi-GPU sort is not in this build";
}
#else

using namespace gpusort_test;
namespace h = gpusort::harness;
using h::dist;
namespace mp = gpusort::detail::multi;

struct no_vals {};

template <class K, class V> struct sorted_out {
  std::vector<K> keys;
  std::vector<V> vals;
  std::vector<std::size_t> counts;
  std::vector<gpusort::multi::strategy> used;  // the form each rank ran
};

// Equal shards, or uneven ones (some empty) from `seed`.
inline std::vector<std::size_t> shard_bounds(std::size_t n, int p, bool uneven, std::uint64_t seed) {
  std::vector<std::size_t> b(std::size_t(p) + 1);
  for (int r = 0; r <= p; ++r) b[std::size_t(r)] = n * std::size_t(r) / std::size_t(p);
  if (uneven) {
    std::mt19937_64 rng(seed);
    for (int r = 1; r < p; ++r) b[std::size_t(r)] = n ? std::size_t(rng() % (n + 1)) : 0;
    std::sort(b.begin(), b.end());
  }
  return b;
}

// p fabric ranks on this device sort keys (and values) given by shard.
template <class K, class V>
sorted_out<K, V> run_fabric(const std::vector<K>& keys, const std::vector<V>& vals, const std::vector<std::size_t>& bounds,
                            int p, gpusort::order dir, std::size_t capacity, int begin_bit = 0, int end_bit = -1,
                            std::size_t value_offset = 0,
                            gpusort::multi::strategy how = gpusort::multi::strategy::automatic, int rounds = 0) {
  constexpr bool pairs = !std::is_same_v<V, no_vals>;
  fabric f(p);
  std::vector<sorted_out<K, V>> per(static_cast<std::size_t>(p));
  std::vector<std::exception_ptr> errors(static_cast<std::size_t>(p));
  auto rank_main = [&](int r) {
    try {
      GPUSORT_CUDA(cudaSetDevice(0));
      cuda_stream st;
      const std::size_t lo = bounds[std::size_t(r)], hi = bounds[std::size_t(r) + 1];
      device_buffer<K> in(std::vector<K>(keys.begin() + std::ptrdiff_t(lo), keys.begin() + std::ptrdiff_t(hi)));
      device_buffer<K> out(capacity);
      std::vector<V> vshard;
      if constexpr (pairs) vshard.assign(vals.begin() + std::ptrdiff_t(lo), vals.begin() + std::ptrdiff_t(hi));
      // values as bytes, `value_offset` bytes into their buffers (a misaligned array)
      device_buffer<std::uint8_t> vin_b(pairs ? vshard.size() * sizeof(V) + value_offset : 0),
          vout_b(pairs ? capacity * sizeof(V) + value_offset : 0);
      V* const vin = reinterpret_cast<V*>(vin_b.data() + value_offset);
      V* const vout = reinterpret_cast<V*>(vout_b.data() + value_offset);
      if constexpr (pairs)
        if (!vshard.empty())
          GPUSORT_CUDA(cudaMemcpy(vin, vshard.data(), vshard.size() * sizeof(V), cudaMemcpyHostToDevice));
      fabric_rank tx(f, r);
      gpusort::multi::options o;
      o.direction = dir;
      o.begin_bit = begin_bit;
      o.end_bit = end_bit;
      o.how = how;
      o.rounds = rounds;
      o.stream = st.get();
      const std::size_t vs = pairs ? sizeof(V) : 0;
      std::size_t bytes = 0;
      mp::sort_with<K>(tx, nullptr, &bytes, in.data(), out.data(), pairs ? vin : nullptr, pairs ? vout : nullptr, vs,
                       hi - lo, capacity, o, "test");
      device_buffer<std::uint8_t> temp(bytes);
      const auto res = mp::sort_with<K>(tx, temp.data(), &bytes, in.data(), out.data(), pairs ? vin : nullptr,
                                        pairs ? vout : nullptr, vs, hi - lo, capacity, o, "test");
      st.sync();
      auto& mine = per[std::size_t(r)];
      mine.keys = out.download();
      mine.keys.resize(res.count);
      if constexpr (pairs) {
        mine.vals.resize(res.count);
        if (res.count)
          GPUSORT_CUDA(cudaMemcpy(mine.vals.data(), vout, res.count * sizeof(V), cudaMemcpyDeviceToHost));
      }
      mine.counts = res.counts;
      mine.used.assign(1, res.used);
    } catch (...) {
      errors[std::size_t(r)] = std::current_exception();
    }
  };
  std::vector<std::thread> threads;
  for (int r = 0; r < p; ++r) threads.emplace_back(rank_main, r);
  for (auto& t : threads) t.join();
  for (auto& e : errors)
    if (e) std::rethrow_exception(e);
  sorted_out<K, V> all;
  for (int r = 0; r < p; ++r) {
    const auto& mine = per[std::size_t(r)];
    EXPECT_EQ(mine.counts, per[0].counts) << "every rank learns the same counts";
    EXPECT_EQ(mine.keys.size(), per[0].counts[std::size_t(r)]);
    all.keys.insert(all.keys.end(), mine.keys.begin(), mine.keys.end());
    all.vals.insert(all.vals.end(), mine.vals.begin(), mine.vals.end());
    all.used.push_back(mine.used.empty() ? gpusort::multi::strategy::automatic : mine.used[0]);
  }
  all.counts = per[0].counts;
  return all;
}

// The stable order's permutation of keys.
template <class K>
std::vector<std::size_t> oracle(const std::vector<K>& keys, gpusort::order dir, int begin_bit = 0, int end_bit = -1) {
  const gpusort::detail::key_order<K> ord(dir == gpusort::order::descending, begin_bit,
                                          end_bit < 0 ? width_of<K> : end_bit);
  std::vector<std::size_t> idx(keys.size());
  std::iota(idx.begin(), idx.end(), std::size_t(0));
  std::stable_sort(idx.begin(), idx.end(),
                   [&](std::size_t a, std::size_t b) { return ord.key_rank(keys[a]) < ord.key_rank(keys[b]); });
  return idx;
}

constexpr gpusort::multi::strategy all_forms[] = {gpusort::multi::strategy::partition_first,
                                                  gpusort::multi::strategy::sort_first,
                                                  gpusort::multi::strategy::radix_first};
inline std::string form_name(gpusort::multi::strategy how) {
  return how == gpusort::multi::strategy::sort_first        ? " (sort first)"
         : how == gpusort::multi::strategy::radix_first     ? " (radix first)"
         : how == gpusort::multi::strategy::partition_first ? " (partition first)"
                                                            : " (automatic)";
}

// Sorts over p ranks in every form and checks against the oracle: keys bit
// for bit, the index values exactly (pairs), counts summing to n, and balance.
template <class K, class I = no_vals>
void check_sort(dist d, std::size_t n, int p, gpusort::order dir, bool uneven, const std::string& what_) {
  const auto keys = h::generate<K>(d, n, 7 * n + std::uint64_t(p));
  std::vector<I> vals;
  if constexpr (!std::is_same_v<I, no_vals>)
    for (std::size_t i = 0; i < n; ++i) vals.push_back(I(i));
  const auto bounds = shard_bounds(n, p, uneven, n + 3);
  const std::size_t cap = gpusort::multi::output_capacity(n, p);
  const auto idx = oracle(keys, dir);
  std::vector<K> want(n);
  for (std::size_t i = 0; i < n; ++i) want[i] = keys[idx[i]];
  for (auto how : all_forms) {
    const std::string what = what_ + form_name(how);
    const auto got = run_fabric<K, I>(keys, vals, bounds, p, dir, cap, 0, -1, 0, how);
    ASSERT_TRUE(same_bits(got.keys, want)) << what;
    if constexpr (!std::is_same_v<I, no_vals>) {
      bool same = got.vals.size() == n;
      for (std::size_t i = 0; same && i < n; ++i) same = std::size_t(got.vals[i]) == idx[i];
      EXPECT_TRUE(same) << what << ": not the stable permutation";
    }
    ASSERT_EQ(got.counts.size(), std::size_t(p));
    for (int t = 0; t < p; ++t) {
      const double share = double(n) / p, off = double(got.counts[std::size_t(t)]) - share;
      if (share >= 50000) {
        EXPECT_LE(std::abs(off), 0.05 * share) << what << ": rank " << t << " unbalanced";
      }
      EXPECT_LE(got.counts[std::size_t(t)], cap) << what;
    }
  }
}

template <class K> class GpuMultiFabric : public gpu_test {};
TYPED_TEST_SUITE(GpuMultiFabric, key_types, key_name);

TYPED_TEST(GpuMultiFabric, Keys) {
  using K = TypeParam;
  for (dist d : {dist::uniform, dist::equal, dist::few_unique, dist::zipf, dist::sorted, dist::reverse,
                 dist::float_special})
    for (std::size_t n : {std::size_t(0), std::size_t(2), std::size_t(8193), std::size_t(100003)})
      for (int p : {2, 3}) {
        const auto dir = n % 2 ? gpusort::order::descending : gpusort::order::ascending;
        check_sort<K>(d, n, p, dir, p == 3,
                      std::string(h::to_string(d)) + " n=" + std::to_string(n) + " p=" + std::to_string(p));
      }
}

TYPED_TEST(GpuMultiFabric, PairsStable) {
  using K = TypeParam;
  for (dist d : {dist::uniform, dist::equal, dist::few_unique, dist::zipf})
    for (auto dir : {gpusort::order::ascending, gpusort::order::descending})
      check_sort<K, std::uint32_t>(d, 120011, 4, dir, d == dist::zipf,
                                   std::string(h::to_string(d)) + (dir == gpusort::order::ascending ? " asc" : " desc"));
}

class GpuMulti : public gpu_test {};

TEST_F(GpuMulti, ValueWidths) {
  check_sort<std::uint64_t, std::uint64_t>(dist::uniform, 70001, 2, gpusort::order::ascending, false, "u64+u64");
  check_sort<std::uint64_t, std::uint8_t>(dist::equal, 200, 3, gpusort::order::ascending, false, "u64+u8 (n < 256)");
  check_sort<float, std::uint16_t>(dist::few_unique, 60000, 3, gpusort::order::descending, false, "f32+u16");
  check_sort<std::uint32_t, std::uint64_t>(dist::zipf, 300007, 2, gpusort::order::ascending, true, "u32+u64");
}

TEST_F(GpuMulti, SmallAndEmpty) {
  for (std::size_t n : {std::size_t(0), std::size_t(1), std::size_t(2), std::size_t(3), std::size_t(5)})
    for (int p : {2, 3, 4}) check_sort<std::uint32_t, std::uint32_t>(dist::uniform, n, p, gpusort::order::ascending, true,
                                                                      "n=" + std::to_string(n) + " p=" + std::to_string(p));
  // every key on one rank, the others empty
  const std::size_t n = 90001;
  const auto keys = h::generate<std::uint64_t>(dist::zipf, n, 5);
  std::vector<std::uint32_t> vals(n);
  std::iota(vals.begin(), vals.end(), 0u);
  const std::vector<std::size_t> bounds = {0, 0, n, n, n};
  const auto idx = oracle(keys, gpusort::order::ascending);
  for (auto how : all_forms) {
    const auto got = run_fabric<std::uint64_t, std::uint32_t>(keys, vals, bounds, 4, gpusort::order::ascending,
                                                              gpusort::multi::output_capacity(n, 4), 0, -1, 0, how);
    for (std::size_t i = 0; i < n; ++i) ASSERT_EQ(got.vals[i], idx[i]) << i << form_name(how);
  }
}

// The exchange in any number of rounds (one, the default, more rounds than
// some ranks have keys), in both forms (partition first's rounds sort each
// piece as it lands): still the stable global order.
TEST_F(GpuMulti, Rounds) {
  const std::size_t n = 100003;
  std::vector<std::uint32_t> vals(n);
  std::iota(vals.begin(), vals.end(), 0u);
  for (dist d : {dist::uniform, dist::equal, dist::zipf}) {
    const auto keys = h::generate<std::uint64_t>(d, n, 11);
    for (auto dir : {gpusort::order::ascending, gpusort::order::descending}) {
      const auto idx = oracle(keys, dir);
      for (auto how : all_forms)
        for (int p : {2, 3})
          for (int rounds : {1, 2, 5, gpusort::multi::max_rounds}) {
            const std::string what = std::string(h::to_string(d)) + " p=" + std::to_string(p) +
                                     " rounds=" + std::to_string(rounds) + form_name(how);
            const auto got = run_fabric<std::uint64_t, std::uint32_t>(
                keys, vals, shard_bounds(n, p, p == 3, 9), p, dir, gpusort::multi::output_capacity(n, p), 0, -1, 0,
                how, rounds);
            ASSERT_EQ(got.vals.size(), n) << what;
            for (std::size_t i = 0; i < n; ++i) ASSERT_EQ(got.vals[i], idx[i]) << what << " at " << i;
          }
    }
  }
  const auto keys = h::generate<std::uint32_t>(dist::uniform, 1000, 1);
  try {
    run_fabric<std::uint32_t, no_vals>(keys, {}, shard_bounds(1000, 2, false, 0), 2, gpusort::order::ascending, 1000,
                                       0, -1, 0, gpusort::multi::strategy::sort_first, gpusort::multi::max_rounds + 1);
    FAIL() << "no error for too many rounds";
  } catch (const gpusort::error& e) {
    EXPECT_EQ(e.code(), gpusort::errc::invalid_argument);
    EXPECT_NE(std::string(e.what()).find("rounds"), std::string::npos) << e.what();
  }
}

// Radix first where the top digit balances the ranks (uniform keys of every
// width, both orders, keys and pairs, uneven shards with an empty one), run
// as asked and as the automatic choice; where it cannot (all equal; floats
// in [0, 1) over three ranks), sort first runs instead. Every result is the
// stable global order.
template <class K, class V>
void check_radix(dist d, std::size_t n, int p, gpusort::order dir, bool uneven, gpusort::multi::strategy how,
                 gpusort::multi::strategy want_used, int rounds = 0) {
  const auto keys = h::generate<K>(d, n, 3 * n + std::uint64_t(p));
  std::vector<V> vals(n);
  for (std::size_t i = 0; i < n; ++i) vals[i] = V(i);
  const std::string what = std::string(h::to_string(d)) + " n=" + std::to_string(n) + " p=" + std::to_string(p) +
                           (dir == gpusort::order::descending ? " desc" : " asc") + form_name(how) +
                           " rounds=" + std::to_string(rounds);
  const auto got = run_fabric<K, V>(keys, vals, shard_bounds(n, p, uneven, n), p, dir,
                                    gpusort::multi::output_capacity(n, p), 0, -1, 0, how, rounds);
  if (want_used != gpusort::multi::strategy::automatic) {  // automatic: either form may run
    for (int q = 0; q < p; ++q) EXPECT_EQ(got.used[std::size_t(q)], want_used) << what << ", rank " << q;
  }
  const auto idx = oracle(keys, dir);
  std::vector<K> want(n);
  for (std::size_t i = 0; i < n; ++i) want[i] = keys[idx[i]];
  ASSERT_TRUE(same_bits(got.keys, want)) << what;
  ASSERT_EQ(got.vals.size(), n) << what;
  for (std::size_t i = 0; i < n; ++i) ASSERT_EQ(std::size_t(got.vals[i]), idx[i]) << what << " at " << i;
  for (int q = 0; q < p; ++q)
    EXPECT_LE(std::abs(double(got.counts[std::size_t(q)]) - double(n) / p), 0.05 * double(n) / p) << what;
}

// Radix first in rounds (each rank's digits in k groups, each sorted into
// its place as it lands, no merge): every key width, both orders, uneven
// shards, more rounds than some ranks have digits.
TEST_F(GpuMulti, RadixFirstInRounds) {
  using S = gpusort::multi::strategy;
  const auto asc = gpusort::order::ascending, desc = gpusort::order::descending;
  const std::size_t n = (std::size_t(1) << 20) + 7;
  for (int rounds : {4, 64}) {
    check_radix<std::uint32_t, std::uint32_t>(dist::uniform, n, 2, asc, false, S::radix_first, S::radix_first, rounds);
    check_radix<std::uint32_t, std::uint64_t>(dist::uniform, n, 3, desc, true, S::radix_first, S::radix_first, rounds);
    check_radix<float, std::uint32_t>(dist::uniform, n, 4, desc, false, S::radix_first, S::radix_first, rounds);
    check_radix<std::uint16_t, std::uint32_t>(dist::uniform, n, 2, asc, true, S::radix_first, S::radix_first, rounds);
    check_radix<std::int8_t, std::uint32_t>(dist::uniform, n, 3, desc, false, S::radix_first, S::radix_first, rounds);
    check_radix<std::uint64_t, std::uint64_t>(dist::uniform, n, 2, asc, false, S::radix_first, S::radix_first, rounds);
    check_radix<double, std::uint32_t>(dist::uniform, n, 3, desc, true, S::radix_first, S::radix_first, rounds);
    check_radix<float, std::uint32_t>(dist::unit, n, 2, asc, false, S::radix_first, S::radix_first, rounds);
  }
}

TEST_F(GpuMulti, RadixFirst) {
  using S = gpusort::multi::strategy;
  const auto asc = gpusort::order::ascending, desc = gpusort::order::descending;
  const std::size_t n = (std::size_t(1) << 20) + 7;
  for (S how : {S::radix_first, S::automatic}) {
    check_radix<std::uint32_t, std::uint32_t>(dist::uniform, n, 2, asc, false, how, S::radix_first);
    check_radix<std::uint32_t, std::uint64_t>(dist::uniform, n, 3, desc, true, how, S::radix_first);
    check_radix<float, std::uint32_t>(dist::uniform, n, 2, desc, false, how, S::radix_first);
    check_radix<std::int32_t, std::uint32_t>(dist::uniform, n, 4, asc, false, how, S::radix_first);
    check_radix<std::uint16_t, std::uint32_t>(dist::uniform, n, 2, desc, false, how, S::radix_first);
    check_radix<std::int8_t, std::uint32_t>(dist::uniform, n, 2, asc, false, how, S::radix_first);
    check_radix<std::uint64_t, std::uint64_t>(dist::uniform, n, 2, asc, false, how, S::radix_first);
    check_radix<double, std::uint32_t>(dist::uniform, n, 3, desc, true, how, S::radix_first);
    check_radix<std::uint32_t, std::uint32_t>(dist::equal, n, 2, asc, false, how, S::sort_first);
    check_radix<std::uint32_t, std::uint32_t>(dist::zipf, n, 3, desc, false, how, S::automatic);
    // floats in [0, 1): half of them share one top digit, a quarter the next,
    // ...: two ranks split between digits, three cannot
    check_radix<float, std::uint32_t>(dist::unit, n, 2, asc, false, how, S::radix_first);
    check_radix<float, std::uint32_t>(dist::unit, n, 3, asc, false, how, S::sort_first);
  }
}

// A small radix first, for compute-sanitizer: the partition, the segmented
// sorts of the lower bits (keys of 4 bytes), the local sorts (8 bytes), the
// merge, on a few thousand keys a rank.
TEST_F(GpuMulti, RadixFirstSmall) {
  using S = gpusort::multi::strategy;
  check_radix<std::uint32_t, std::uint32_t>(dist::uniform, 70001, 2, gpusort::order::ascending, false, S::radix_first,
                                            S::radix_first);
  check_radix<std::uint64_t, std::uint32_t>(dist::uniform, 70001, 3, gpusort::order::descending, true, S::radix_first,
                                            S::radix_first);
}

// The balance bound: every rank within 5% of n / p.
TEST_F(GpuMulti, Balance) {
  for (dist d : {dist::uniform, dist::equal, dist::few_unique, dist::zipf, dist::sorted, dist::sample_killer})
    check_sort<std::uint32_t>(d, std::size_t(1) << 21, 4, gpusort::order::ascending, false,
                              std::string(h::to_string(d)) + " 2^21 p=4");
}

// A capacity too small: every rank throws the same error, before the exchange.
TEST_F(GpuMulti, CapacityTooSmall) {
  const std::size_t n = 100000;
  const auto keys = h::generate<std::uint32_t>(dist::uniform, n, 1);
  for (auto how : all_forms) try {
      run_fabric<std::uint32_t, no_vals>(keys, {}, shard_bounds(n, 2, false, 0), 2, gpusort::order::ascending, n / 4,
                                         0, -1, 0, how);
      FAIL() << "no error" << form_name(how);
    } catch (const gpusort::error& e) {
      EXPECT_EQ(e.code(), gpusort::errc::invalid_argument);
      EXPECT_NE(std::string(e.what()).find("capacity"), std::string::npos) << e.what();
    }
}

// A partial bit range and values with no payload type take one sort after
// the exchange: still the stable global order.
struct value12 {
  std::uint32_t idx;
  std::uint64_t tag;
} __attribute__((packed));
static_assert(sizeof(value12) == 12);

TEST_F(GpuMulti, BitRangesAndOddValueWidths) {
  const std::size_t n = 100003;
  {
    const auto keys = h::generate<std::uint32_t>(dist::uniform, n, 3);
    std::vector<std::uint32_t> vals(n);
    std::iota(vals.begin(), vals.end(), 0u);
    const auto idx = oracle(keys, gpusort::order::descending, 3, 29);
    for (int rounds : {1, 4}) {  // one sort after the exchange, or one a round
      const auto got = run_fabric<std::uint32_t, std::uint32_t>(
          keys, vals, shard_bounds(n, 3, true, 1), 3, gpusort::order::descending, gpusort::multi::output_capacity(n, 3),
          3, 29, 0, gpusort::multi::strategy::automatic, rounds);
      ASSERT_EQ(got.vals.size(), n);
      for (std::size_t i = 0; i < n; ++i)
        ASSERT_EQ(got.vals[i], idx[i]) << "bits [3, 29), rounds " << rounds << ", at " << i;
    }
  }
  {
    const auto keys = h::generate<std::uint64_t>(dist::few_unique, n, 4);
    std::vector<value12> vals(n);
    for (std::size_t i = 0; i < n; ++i) vals[i] = {std::uint32_t(i), ~std::uint64_t(i)};
    const auto got = run_fabric<std::uint64_t, value12>(keys, vals, shard_bounds(n, 2, false, 0), 2,
                                                        gpusort::order::ascending, gpusort::multi::output_capacity(n, 2));
    const auto idx = oracle(keys, gpusort::order::ascending);
    ASSERT_EQ(got.vals.size(), n);
    for (std::size_t i = 0; i < n; ++i) {
      ASSERT_EQ(got.vals[i].idx, idx[i]) << "12-byte values, at " << i;
      ASSERT_EQ(got.vals[i].tag, ~std::uint64_t(idx[i])) << "12-byte values, at " << i;
      ASSERT_EQ(got.keys[i], keys[idx[i]]);
    }
  }
}

// Values not aligned to their width (8-byte values 4 bytes into their
// buffers) cannot ride as a payload: they move by index (payload.cuh's rule).
TEST_F(GpuMulti, MisalignedValues) {
  const std::size_t n = 90007;
  const auto keys = h::generate<std::uint32_t>(dist::zipf, n, 6);
  std::vector<std::uint64_t> vals(n);
  std::iota(vals.begin(), vals.end(), std::uint64_t(0));
  const auto got = run_fabric<std::uint32_t, std::uint64_t>(keys, vals, shard_bounds(n, 3, false, 0), 3,
                                                             gpusort::order::ascending,
                                                             gpusort::multi::output_capacity(n, 3), 0, -1, 4);
  const auto idx = oracle(keys, gpusort::order::ascending);
  ASSERT_EQ(got.vals.size(), n);
  for (std::size_t i = 0; i < n; ++i) ASSERT_EQ(got.vals[i], idx[i]) << "misaligned values, at " << i;
}

TEST_F(GpuMulti, BadArguments) {
  fabric f(1);
  fabric_rank tx(f, 0);
  gpusort::multi::options o;
  o.end_bit = 40;  // past a 32-bit key
  std::size_t bytes = 0;
  device_buffer<std::uint32_t> a(10), b(10);
  try {
    mp::sort_with<std::uint32_t>(tx, nullptr, &bytes, a.data(), b.data(), nullptr, nullptr, 0, 10, 10, o, "test");
    FAIL() << "no error";
  } catch (const gpusort::error& e) {
    EXPECT_EQ(e.code(), gpusort::errc::invalid_argument) << e.what();
  }
  o.end_bit = -1;
  try {
    mp::sort_with<std::uint32_t>(tx, nullptr, &bytes, nullptr, b.data(), nullptr, nullptr, 0, 10, 10, o, "test");
    FAIL() << "no error";
  } catch (const gpusort::error& e) {
    EXPECT_EQ(e.code(), gpusort::errc::invalid_argument) << e.what();
  }
}

// ---- scale: the sizes of the bench rows, on one device ------------------------------
// GPUSORT_MULTI_SCALE_N u64 keys + u64 values (2^29 fits an 80 GB card): the
// local sort of one rank's bucket out of place and in place (radix_msd at
// these sizes), then p = 2 fabric ranks over all of it; checked with the
// harness's parallel checks (the stable permutation).
TEST_F(GpuMulti, PairsAtScale) {
  const char* env = std::getenv("GPUSORT_MULTI_SCALE_N");
  if (!env) GTEST_SKIP() << "set GPUSORT_MULTI_SCALE_N (e.g. 536870912) to run the multi-GPU sort at bench sizes";
  const std::size_t n = std::strtoull(env, nullptr, 0);
  using K = std::uint64_t;
  using V = std::uint64_t;
  const auto keys = h::generate<K>(dist::uniform, n, 5);
  gpusort::options opt;
  {
    const std::size_t m = n / 2 + 4097;
    std::vector<V> idx(m);
    std::iota(idx.begin(), idx.end(), V(0));
    for (bool in_place : {false, true}) {
      device_buffer<K> kin(std::vector<K>(keys.begin(), keys.begin() + std::ptrdiff_t(m)));
      device_buffer<V> vin(idx);
      device_buffer<K> kout(in_place ? 0 : m);
      device_buffer<V> vout(in_place ? 0 : m);
      K* ko = in_place ? kin.data() : kout.data();
      V* vo = in_place ? vin.data() : vout.data();
      gpusort::sort_pairs<K, V>(kin.data(), ko, vin.data(), vo, m, opt);
      GPUSORT_CUDA(cudaDeviceSynchronize());
      std::vector<K> gk(m);
      std::vector<V> gv(m);
      GPUSORT_CUDA(cudaMemcpy(gk.data(), ko, m * sizeof(K), cudaMemcpyDeviceToHost));
      GPUSORT_CUDA(cudaMemcpy(gv.data(), vo, m * sizeof(V), cudaMemcpyDeviceToHost));
      const auto c = h::verify_pairs_fast(keys.data(), gk.data(), gv.data(), m, opt, true);
      ASSERT_TRUE(c.ok) << "one device, " << m << " pairs" << (in_place ? " in place: " : ": ") << c.message;
    }
  }
  std::vector<V> vals(n);
  std::iota(vals.begin(), vals.end(), V(0));
  for (auto how : all_forms) {
    const auto got = run_fabric<K, V>(keys, vals, shard_bounds(n, 2, false, 0), 2, gpusort::order::ascending,
                                      gpusort::multi::output_capacity(n, 2), 0, -1, 0, how);
    ASSERT_EQ(got.keys.size(), n);
    const auto c = h::verify_pairs_fast(keys.data(), got.keys.data(), got.vals.data(), n, opt, true);
    ASSERT_TRUE(c.ok) << "2 fabric ranks, " << n << " pairs" << form_name(how) << ": " << c.message;
  }
}

// ---- NCCL: the public calls, a thread per visible GPU -----------------------------

class GpuMultiNccl : public gpu_test {};

TEST_F(GpuMultiNccl, KeysAndPairsOverEveryGpu) {
  int g = 0;
  GPUSORT_CUDA(cudaGetDeviceCount(&g));
  std::vector<ncclComm_t> comms(static_cast<std::size_t>(g));
  std::vector<int> devs(static_cast<std::size_t>(g));
  std::iota(devs.begin(), devs.end(), 0);
  ASSERT_EQ(ncclCommInitAll(comms.data(), g, devs.data()), ncclSuccess);
  const std::size_t n = (std::size_t(1) << 22) + 17;
  const auto keys = h::generate<std::int64_t>(dist::zipf, n, 11);
  const auto bounds = shard_bounds(n, g, false, 0);
  const std::size_t cap = gpusort::multi::output_capacity(n, g);
  std::vector<std::vector<std::int64_t>> out_k(static_cast<std::size_t>(g));
  std::vector<std::vector<std::uint64_t>> out_v(static_cast<std::size_t>(g));
  std::vector<std::exception_ptr> errors(static_cast<std::size_t>(g));
  std::vector<std::thread> threads;
  for (int q = 0; q < g; ++q)
    threads.emplace_back([&, q] {
      try {
        GPUSORT_CUDA(cudaSetDevice(q));
        cuda_stream st;
        const std::size_t lo = bounds[std::size_t(q)], m = bounds[std::size_t(q) + 1] - lo;
        device_buffer<std::int64_t> in(std::vector<std::int64_t>(keys.begin() + std::ptrdiff_t(lo),
                                                                 keys.begin() + std::ptrdiff_t(lo + m)));
        std::vector<std::uint64_t> idx(m);
        std::iota(idx.begin(), idx.end(), std::uint64_t(lo));
        device_buffer<std::uint64_t> vin(idx), vout(cap);
        device_buffer<std::int64_t> out(cap);
        gpusort::multi::options o;
        o.stream = st.get();
        o.timed = true;
        const auto res = gpusort::multi::sort_pairs(in.data(), out.data(), vin.data(), vout.data(), m, cap,
                                                    comms[std::size_t(q)], o);
        st.sync();
        out_k[std::size_t(q)] = out.download();
        out_k[std::size_t(q)].resize(res.count);
        out_v[std::size_t(q)] = vout.download();
        out_v[std::size_t(q)].resize(res.count);
        std::printf("[ rank %d ] %zu keys; partition %.3f ms, exchange %.3f, sorts %.3f, merges %.3f\n", q, res.count,
                    double(res.partition_ms), double(res.exchange_ms), double(res.sort_ms), double(res.merge_ms));
      } catch (...) {
        errors[std::size_t(q)] = std::current_exception();
      }
    });
  for (auto& t : threads) t.join();
  for (ncclComm_t c : comms) ncclCommDestroy(c);
  for (auto& e : errors)
    if (e) std::rethrow_exception(e);
  const auto idx = oracle(keys, gpusort::order::ascending);
  std::vector<std::uint64_t> got;
  for (auto& v : out_v) got.insert(got.end(), v.begin(), v.end());
  ASSERT_EQ(got.size(), n);
  for (std::size_t i = 0; i < n; ++i) ASSERT_EQ(got[i], idx[i]) << "at " << i << " of " << n << " over " << g << " GPUs";
}

TEST_F(GpuMultiNccl, HostArrayConvenience) {
  for (std::size_t n : {std::size_t(0), std::size_t(1), std::size_t(1000003)}) {
    auto keys = h::generate<double>(dist::float_special, n, 3);
    const auto idx = oracle(keys, gpusort::order::ascending);
    std::vector<double> want(n);
    for (std::size_t i = 0; i < n; ++i) want[i] = keys[idx[i]];
    gpusort::multi::sort(std::span<double>(keys));
    ASSERT_TRUE(same_bits(keys, want)) << "n=" << n;
  }
  // after the kept pools and communicators are given back, the call makes new ones
  gpusort::multi::release_cache();
  auto keys = h::generate<double>(dist::uniform, 500009, 4);
  const auto idx = oracle(keys, gpusort::order::ascending);
  std::vector<double> want(keys.size());
  for (std::size_t i = 0; i < keys.size(); ++i) want[i] = keys[idx[i]];
  gpusort::multi::sort(std::span<double>(keys));
  ASSERT_TRUE(same_bits(keys, want)) << "after release_cache";
}

// Out of place: the input is read, never written; host input to host
// output, and host input to an output in GPU 0's memory.
TEST_F(GpuMultiNccl, HostArrayOutOfPlace) {
  for (std::size_t n : {std::size_t(0), std::size_t(1), std::size_t(1000003)}) {
    const auto keys = h::generate<std::uint32_t>(dist::zipf, n, 5);
    const auto idx = oracle(keys, gpusort::order::ascending);
    std::vector<std::uint32_t> want(n), out(n, 7u);
    for (std::size_t i = 0; i < n; ++i) want[i] = keys[idx[i]];
    const auto before = keys;
    gpusort::multi::sort(std::span<const std::uint32_t>(keys), std::span<std::uint32_t>(out));
    ASSERT_EQ(out, want) << "n=" << n;
    ASSERT_EQ(keys, before) << "the input was written, n=" << n;
    if (n == 0) continue;
    GPUSORT_CUDA(cudaSetDevice(0));
    device_buffer<std::uint32_t> d(std::vector<std::uint32_t>(n, 0u));
    gpusort::multi::sort(std::span<const std::uint32_t>(keys), std::span<std::uint32_t>(d.data(), n));
    ASSERT_EQ(d.download(), want) << "device output, n=" << n;
  }
  std::vector<std::uint32_t> a(100), b(99);
  EXPECT_THROW(gpusort::multi::sort(std::span<const std::uint32_t>(a), std::span<std::uint32_t>(b)), gpusort::error);
  EXPECT_THROW(gpusort::multi::sort(std::span<const std::uint32_t>(a.data(), 60), std::span<std::uint32_t>(a.data() + 40, 60)),
               gpusort::error);
}

// The convenience call on one array in GPU 0's memory: shards copied to
// every GPU, the ranges copied back.
TEST_F(GpuMultiNccl, DeviceArrayConvenience) {
  const std::size_t n = 3000017;
  const auto keys = h::generate<std::int32_t>(dist::zipf, n, 8);
  const auto idx = oracle(keys, gpusort::order::descending);
  GPUSORT_CUDA(cudaSetDevice(0));
  device_buffer<std::int32_t> d(keys);
  gpusort::multi::options o;
  o.direction = gpusort::order::descending;
  gpusort::multi::sort(std::span<std::int32_t>(d.data(), n), 0, o);
  const auto got = d.download();
  for (std::size_t i = 0; i < n; ++i) ASSERT_EQ(got[i], keys[idx[i]]) << i;
}

#endif  // GPUSORT_HAS_MULTI

}  // namespace
