// Host tests of the distributed sample sort's partition plan
// (src/multi/plan.hpp), by simulating p ranks: the input is cut into p
// contiguous shards of uneven sizes (some empty), each shard is sorted
// stably by the order's rank bits, sampled, and the gathered samples give
// the splitters; every rank cuts its shard, and bucket t (rank t's runs,
// merged with ties by source rank) must be the t-th range of the stable
// global sort. Checked against std::stable_sort of the whole input (the
// original indices, so stability too), and every bucket within
// bucket_error_bound of n / p, and within the 5% where n / p is
// large, skewed input included.
#include "harness/harness.hpp"
#include "key_types.hpp"
#include "multi/plan.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

namespace {

using gpusort::harness::dist;
namespace h = gpusort::harness;
namespace mp = gpusort::detail::multi;

struct outcome {
  std::vector<std::size_t> order;   // original indices, bucket after bucket
  std::vector<std::uint64_t> sizes;  // bucket sizes
  std::uint64_t max_shard = 0;
};

// The plan on p simulated ranks; shard boundaries from `cuts` (p + 1 values).
template <class K> outcome simulate(const std::vector<K>& keys, const std::vector<std::size_t>& cuts, int p) {
  using U = typename gpusort::detail::key_traits<K>::bits;
  const gpusort::detail::key_order<K> ord;
  const int s = mp::samples_per_rank(p);
  std::vector<std::vector<U>> shard(p);
  std::vector<std::vector<std::size_t>> origin(p);
  std::vector<mp::sample<U>> samples;
  outcome out;
  for (int r = 0; r < p; ++r) {
    std::vector<std::size_t> idx;
    for (std::size_t i = cuts[r]; i < cuts[r + 1]; ++i) idx.push_back(i);
    std::stable_sort(idx.begin(), idx.end(),
                     [&](std::size_t a, std::size_t b) { return ord.key_rank(keys[a]) < ord.key_rank(keys[b]); });
    for (std::size_t i : idx) shard[r].push_back(U(ord.key_rank(keys[i])));
    origin[r] = idx;
    const std::uint64_t n_r = shard[r].size(), m = mp::slot_count(n_r, s);
    out.max_shard = std::max(out.max_shard, n_r);
    for (std::uint64_t j = 0; j < m; ++j) samples.push_back(mp::sample_of(shard[r].data(), n_r, std::uint32_t(r), m, j));
  }
  std::sort(samples.begin(), samples.end(), [](const auto& a, const auto& b) { return mp::tag_less(a, b); });
  std::uint64_t weights = 0;
  for (const auto& x : samples) weights += x.weight;
  EXPECT_EQ(weights, keys.size()) << "the samples' weights cover every key";
  std::vector<std::size_t> split(std::size_t(p > 1 ? p - 1 : 0));
  mp::choose_splitters(samples.data(), samples.size(), keys.size(), p, split.data());
  // cut[r][t]: rank r's keys below splitter t
  std::vector<std::vector<std::uint64_t>> cut(p, std::vector<std::uint64_t>(p + 1));
  for (int r = 0; r < p; ++r) {
    const std::uint64_t n_r = shard[r].size();
    cut[r][0] = 0;
    cut[r][p] = n_r;
    for (int t = 1; t < p; ++t)
      cut[r][t] = split[t - 1] == samples.size()
                      ? n_r
                      : mp::cut_of(shard[r].data(), n_r, std::uint32_t(r), samples[split[t - 1]]);
    for (int t = 0; t < p; ++t) EXPECT_LE(cut[r][t], cut[r][t + 1]) << "rank " << r << " cut " << t;
  }
  // bucket t: every rank's run for t, merged by (key, source rank, position)
  for (int t = 0; t < p; ++t) {
    struct item {
      U key;
      int rank;
      std::size_t pos;
    };
    std::vector<item> bucket;
    for (int r = 0; r < p; ++r)
      for (std::uint64_t i = cut[r][t]; i < cut[r][t + 1]; ++i) bucket.push_back({shard[r][i], r, std::size_t(i)});
    std::stable_sort(bucket.begin(), bucket.end(), [](const item& a, const item& b) { return a.key < b.key; });
    for (const item& x : bucket) out.order.push_back(origin[x.rank][x.pos]);
    out.sizes.push_back(bucket.size());
  }
  return out;
}

template <class K> void check(const std::vector<K>& keys, int p, std::uint64_t seed, const std::string& what) {
  const std::size_t n = keys.size();
  // uneven shards: random cut points, so some shards are empty or tiny
  std::mt19937_64 rng(seed);
  std::vector<std::size_t> cuts(p + 1);
  cuts[0] = 0;
  cuts[p] = n;
  for (int r = 1; r < p; ++r) cuts[r] = n ? std::size_t(rng() % (n + 1)) : 0;
  std::sort(cuts.begin(), cuts.end());
  const outcome got = simulate(keys, cuts, p);
  const gpusort::detail::key_order<K> ord;
  std::vector<std::size_t> want(n);
  for (std::size_t i = 0; i < n; ++i) want[i] = i;
  std::stable_sort(want.begin(), want.end(),
                   [&](std::size_t a, std::size_t b) { return ord.key_rank(keys[a]) < ord.key_rank(keys[b]); });
  ASSERT_EQ(got.order, want) << what << ": not the stable global sort";
  const std::uint64_t bound = mp::bucket_error_bound(n, got.max_shard, mp::samples_per_rank(p), p);
  for (int t = 0; t < p; ++t) {
    const std::uint64_t share = mp::share_end(n, p, t + 1) - mp::share_end(n, p, t);
    const std::uint64_t size = got.sizes[t];
    EXPECT_LE(size > share ? size - share : share - size, bound) << what << " bucket " << t;
  }
}

template <class K> class MultiPlan : public ::testing::Test {};
using plan_keys = ::testing::Types<std::uint32_t, std::uint64_t, float, std::int16_t>;
TYPED_TEST_SUITE(MultiPlan, plan_keys, gpusort_test::key_name);

TYPED_TEST(MultiPlan, StableGlobalOrderAndBalance) {
  using K = TypeParam;
  for (dist d : {dist::uniform, dist::equal, dist::few_unique, dist::zipf, dist::sorted, dist::reverse,
                 dist::sample_killer, dist::float_special})
    for (std::size_t n : {std::size_t(0), std::size_t(1), std::size_t(2), std::size_t(5), std::size_t(1000),
                          std::size_t(100003)})
      for (int p : {1, 2, 3, 8}) {
        const auto keys = h::generate<K>(d, n, 40 + n);
        check(keys, p, n * 31 + std::uint64_t(p),
              std::string(h::to_string(d)) + " n=" + std::to_string(n) + " p=" + std::to_string(p));
      }
}

// Equal shards of 2^18 keys a rank: every bucket within 5% of n / p, for
// distinct, all-equal, few-unique and zipf keys (the skew rule).
TEST(MultiPlanBalance, WithinFivePercent) {
  for (int p : {2, 4, 8})
    for (dist d : {dist::uniform, dist::equal, dist::few_unique, dist::zipf}) {
      const std::size_t n = std::size_t(p) << 18;
      const auto keys = h::generate<std::uint32_t>(d, n, 7);
      std::vector<std::size_t> cuts(p + 1);
      for (int r = 0; r <= p; ++r) cuts[r] = n / p * std::size_t(r);
      const outcome got = simulate(keys, cuts, p);
      for (int t = 0; t < p; ++t) {
        const double ratio = double(got.sizes[t]) / double(n / p);
        EXPECT_NEAR(ratio, 1.0, 0.05) << h::to_string(d) << " p=" << p << " bucket " << t;
      }
    }
}

TEST(MultiPlan, CutOfTiesByRank) {
  // shard of rank 1: 1 2 2 2 3; a splitter (2, rank 1, position 2)
  const std::uint32_t shard[] = {1, 2, 2, 2, 3};
  const mp::sample<std::uint32_t> s{2, 1, 2, 1};
  EXPECT_EQ(mp::cut_of(shard, 5, 1, s), 2u);  // its own rank: the keys before it
  EXPECT_EQ(mp::cut_of(shard, 5, 0, s), 4u);  // an earlier rank: every 2 is below
  EXPECT_EQ(mp::cut_of(shard, 5, 2, s), 1u);  // a later rank: no 2 is below
  EXPECT_EQ(mp::cut_of(shard, 0, 2, s), 0u);
}

TEST(MultiPlan, SlotsCoverTheShard) {
  for (std::uint64_t n_r : {1ull, 7ull, 63ull, 64ull, 65ull, 1000003ull})
    for (int s : {1, 64, 320}) {
      const std::uint64_t m = mp::slot_count(n_r, s);
      std::uint64_t covered = 0;
      for (std::uint64_t j = 0; j < m; ++j) {
        const std::uint64_t w = mp::slot_begin(n_r, m, j + 1) - mp::slot_begin(n_r, m, j);
        EXPECT_GE(w, 1u);
        EXPECT_LE(w, n_r / m + 1);
        covered += w;
      }
      EXPECT_EQ(covered, n_r);
    }
}

}  // namespace
