// Host tests of the distributed sample sort's partition plan
// (src/multi/plan.hpp), by simulating p ranks: the input is cut into p
// contiguous shards of uneven sizes (some empty); each rank samples its
// unsorted shard (partition first) or its stably sorted shard (sort first),
// the gathered samples (rank order, sorted stably by key, as the device
// does) give the splitters, and every rank classifies its keys with
// bucket_of (sort first: split_point's ranges must agree with it). Bucket t (rank t's receipts in source-rank order, sorted
// stably) must be the t-th range of the stable global sort: checked against
// std::stable_sort of the whole input (the original indices, so stability
// too). Every bucket is within 5% of n / p where n / p is large, skewed input
// included, and exact (within one key) where every key is sampled.
#include "harness/harness.hpp"
#include "key_types.hpp"
#include "multi/digit_plan.hpp"
#include "multi/exchange_plan.hpp"
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
  std::vector<std::size_t> order;    // original indices, bucket after bucket
  std::vector<std::uint64_t> sizes;  // bucket sizes
  bool exact = true;                 // every key was sampled
};

// The plan on p simulated ranks; shard boundaries from `bounds` (p + 1
// values). Partition first samples and classifies the unsorted shards; sort
// first sorts each shard stably, samples it in sorted order and cuts it at
// split_point, which must give every key the bucket bucket_of gives it; its
// exchange runs in k rounds: p k equal shares, rank t's range being shares
// t k to t k + k - 1, each sorted stably on its own.
template <class K>
outcome simulate(const std::vector<K>& keys, const std::vector<std::size_t>& bounds, int p, bool sort_first = false,
                 int k = 1) {
  using U = typename gpusort::detail::key_traits<K>::bits;
  const gpusort::detail::key_order<K> ord;
  const int s = mp::samples_per_rank(p);
  outcome out;
  // each rank's keys in the order it samples and splits them: as given, or
  // sorted stably (sort first)
  std::vector<std::vector<std::size_t>> shard(p);
  for (int r = 0; r < p; ++r) {
    for (std::size_t i = bounds[r]; i < bounds[r + 1]; ++i) shard[r].push_back(i);
    if (sort_first)
      std::stable_sort(shard[r].begin(), shard[r].end(),
                       [&](std::size_t a, std::size_t b) { return ord.key_rank(keys[a]) < ord.key_rank(keys[b]); });
  }
  // 1. sample (each rank pads to s samples)
  std::vector<mp::sample<U>> gathered;
  for (int r = 0; r < p; ++r) {
    const std::uint64_t n_r = bounds[r + 1] - bounds[r];
    if (n_r > std::uint64_t(s)) out.exact = false;
    auto key_at = [&](std::uint64_t i) { return ord.key_rank(keys[shard[r][i]]); };
    for (int j = 0; j < s; ++j) gathered.push_back(mp::sample_of<U>(key_at, n_r, std::uint32_t(r), s, j));
  }
  // 2. splitters: stable by key over the gathered order is the tag order
  std::vector<std::size_t> idx(gathered.size());
  for (std::size_t j = 0; j < idx.size(); ++j) idx[j] = j;
  std::stable_sort(idx.begin(), idx.end(), [&](std::size_t a, std::size_t b) { return gathered[a].key < gathered[b].key; });
  bool tag_order = true;  // pads of one rank share a tag: non-decreasing
  for (std::size_t j = 1; j < idx.size(); ++j) tag_order &= !mp::tag_less(gathered[idx[j]], gathered[idx[j - 1]]);
  EXPECT_TRUE(tag_order) << "the stable key order is the tag order";
  std::vector<std::uint64_t> cumulative(idx.size());
  std::uint64_t sum = 0;
  for (std::size_t j = 0; j < idx.size(); ++j) cumulative[j] = sum += gathered[idx[j]].weight;
  EXPECT_EQ(sum, keys.size()) << "the samples' weights cover every key";
  const int buckets = p * k;
  std::vector<std::size_t> split;
  for (int t = 1; t < buckets; ++t)
    split.push_back(mp::splitter_index(cumulative.data(), cumulative.size(), mp::share_end(sum, buckets, t)));
  // 3. classify: bucket t gets every rank's keys of bucket t, in rank order
  std::vector<std::vector<std::size_t>> bucket(buckets);
  for (int r = 0; r < p; ++r) {
    std::vector<mp::cut<U>> cuts;
    for (std::size_t j : split)
      cuts.push_back(j == idx.size() ? mp::cut_after_all<U>() : mp::cut_for(gathered[idx[j]], std::uint32_t(r)));
    const std::uint64_t n_r = shard[r].size();
    auto key_at = [&](std::uint64_t i) { return ord.key_rank(keys[shard[r][i]]); };
    std::vector<std::uint64_t> split_at = {0};  // sort first: bucket t is [split_at[t], split_at[t + 1])
    for (const auto& c : cuts) split_at.push_back(mp::split_point(c, key_at, n_r));
    split_at.push_back(n_r);
    for (std::uint64_t i = 0; i < n_r; ++i) {
      const unsigned b = mp::bucket_of(cuts.data(), buckets - 1, U(key_at(i)), i);
      bucket[b < unsigned(buckets) ? b : 0].push_back(shard[r][i]);
      if (b >= unsigned(buckets)) ADD_FAILURE() << "bucket " << b << " of " << buckets;
      else if (sort_first && !(split_at[b] <= i && i < split_at[b + 1]))
        ADD_FAILURE() << "rank " << r << " key " << i << ": bucket " << b << " but split points " << split_at[b]
                      << ".." << split_at[b + 1];
    }
  }
  // 4. each rank sorts its receipts stably (each round's on its own)
  for (int t = 0; t < p; ++t) {
    std::size_t size = 0;
    for (int u = t * k; u < (t + 1) * k; ++u) {
      std::stable_sort(bucket[u].begin(), bucket[u].end(),
                       [&](std::size_t a, std::size_t b) { return ord.key_rank(keys[a]) < ord.key_rank(keys[b]); });
      out.order.insert(out.order.end(), bucket[u].begin(), bucket[u].end());
      size += bucket[u].size();
    }
    out.sizes.push_back(size);
  }
  return out;
}

template <class K>
void check(const std::vector<K>& keys, int p, std::uint64_t seed, const std::string& what, bool sort_first = false,
           int k = 1) {
  const std::size_t n = keys.size();
  // uneven shards: random cut points, so some shards are empty or tiny
  std::mt19937_64 rng(seed);
  std::vector<std::size_t> cuts(p + 1);
  cuts[0] = 0;
  cuts[p] = n;
  for (int r = 1; r < p; ++r) cuts[r] = n ? std::size_t(rng() % (n + 1)) : 0;
  std::sort(cuts.begin(), cuts.end());
  const outcome got = simulate(keys, cuts, p, sort_first, k);
  const gpusort::detail::key_order<K> ord;
  std::vector<std::size_t> want(n);
  for (std::size_t i = 0; i < n; ++i) want[i] = i;
  std::stable_sort(want.begin(), want.end(),
                   [&](std::size_t a, std::size_t b) { return ord.key_rank(keys[a]) < ord.key_rank(keys[b]); });
  ASSERT_EQ(got.order, want) << what << ": not the stable global sort";
  for (int t = 0; t < p; ++t) {
    const std::uint64_t share = mp::share_end(n, p, t + 1) - mp::share_end(n, p, t);
    const std::uint64_t size = got.sizes[t], off = size > share ? size - share : share - size;
    // every key sampled: the splitters are exact quantiles
    if (got.exact) {
      EXPECT_LE(off, 1u) << what << " bucket " << t;
    } else if (share >= 10000) {
      EXPECT_LE(double(off), 0.05 * double(share)) << what << " bucket " << t;
    }
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
        for (int form = 0; form < 3; ++form) {  // partition first; sort first in 1 and 3 rounds
          const bool sort_first = form > 0;
          const int k = form == 2 ? 3 : 1;
          check(keys, p, n * 31 + std::uint64_t(p),
                std::string(h::to_string(d)) + " n=" + std::to_string(n) + " p=" + std::to_string(p) +
                    (sort_first ? " sort first, rounds " + std::to_string(k) : " partition first"),
                sort_first, k);
        }
      }
}

// Equal shards of 2^18 keys a rank: every bucket within 5% of n / p, for
// distinct, all-equal, few-unique and zipf keys (the balance bound).
TEST(MultiPlanBalance, WithinFivePercent) {
  for (int p : {2, 4, 8})
    for (dist d : {dist::uniform, dist::equal, dist::few_unique, dist::zipf}) {
      const std::size_t n = std::size_t(p) << 18;
      const auto keys = h::generate<std::uint32_t>(d, n, 7);
      std::vector<std::size_t> cuts(p + 1);
      for (int r = 0; r <= p; ++r) cuts[r] = n / p * std::size_t(r);
      for (bool sort_first : {false, true}) {
        const outcome got = simulate(keys, cuts, p, sort_first, sort_first ? 8 : 1);
        for (int t = 0; t < p; ++t) {
          const double ratio = double(got.sizes[t]) / double(n / p);
          EXPECT_NEAR(ratio, 1.0, 0.05) << h::to_string(d) << " p=" << p << " bucket " << t << (sort_first ? " sort first" : "");
        }
      }
    }
}

// Sort first's rounds keep the ranks' ranges: cut t k of p k shares is cut t of p.
TEST(MultiPlan, RoundsKeepTheRankCuts) {
  std::mt19937_64 rng(3);
  for (int i = 0; i < 20000; ++i) {
    const std::uint64_t n = i % 2 ? rng() : rng() % 1000000;
    const int p = 1 + int(rng() % 255), k = 1 + int(rng() % 64), t = int(rng() % std::uint64_t(p + 1));
    ASSERT_EQ(mp::share_end(n, p * k, t * k), mp::share_end(n, p, t)) << n << " " << p << " " << k << " " << t;
  }
}

TEST(MultiPlan, CutsTieByRankAndPosition) {
  // a splitter (2, rank 1, position 3) seen by ranks 0, 1 and 2
  const mp::sample<std::uint32_t> s{2, 1, 3, 1};
  const auto c0 = mp::cut_for(s, 0), c1 = mp::cut_for(s, 1), c2 = mp::cut_for(s, 2);
  EXPECT_FALSE(mp::at_or_above(c0, 2u, 100));  // an earlier rank's 2s are all below
  EXPECT_TRUE(mp::at_or_above(c2, 2u, 0));     // a later rank's 2s are all at or above
  EXPECT_FALSE(mp::at_or_above(c1, 2u, 2));    // its own rank: by position
  EXPECT_TRUE(mp::at_or_above(c1, 2u, 3));
  EXPECT_TRUE(mp::at_or_above(c0, 3u, 0));
  EXPECT_FALSE(mp::at_or_above(c2, 1u, 0));
  const mp::cut<std::uint32_t> cuts[] = {c1, mp::cut_after_all<std::uint32_t>()};
  EXPECT_EQ(mp::bucket_of(cuts, 2, 2u, 3), 1u);
  EXPECT_EQ(mp::bucket_of(cuts, 2, ~0u, 5), 1u);  // nothing reaches the cut after every key
  EXPECT_EQ(mp::bucket_of(cuts, 2, 1u, 5), 0u);
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

// Sort first's aligned exchange (exchange_plan.hpp), simulated over random
// traffic: every rank plans on its own, so a sender's lead must be the lead
// its receiver expects; the first transfer into every rank starts 16-byte
// aligned at both ends (source: its offset in the sender's sorted shard;
// destination: its offset in recv, which is 256-byte aligned), and with
// two ranks every transfer does.
TEST(MultiExchangePlan, AlignItems) {
  EXPECT_EQ(mp::align_items(4, 0), 4u);
  EXPECT_EQ(mp::align_items(8, 0), 2u);
  EXPECT_EQ(mp::align_items(16, 0), 1u);
  EXPECT_EQ(mp::align_items(1, 0), 16u);
  EXPECT_EQ(mp::align_items(8, 4), 4u);
  EXPECT_EQ(mp::align_items(4, 8), 4u);
  EXPECT_EQ(mp::align_items(2, 16), 8u);
}

// Every round, every rank: the first run of its receipts aligned at both
// ends (with two ranks in one round, every run), each sender's lead what its receiver
// expects, and the rounds' parts of recv on boundaries, disjoint, within
// the capacity plus align_room.
TEST(MultiExchangePlan, TransfersAligned) {
  std::mt19937_64 rng(7);
  for (int trial = 0; trial < 2000; ++trial) {
    const int p = 2 + int(rng() % 7), k = trial % 3 == 0 ? 1 : 1 + int(rng() % 5);
    const std::size_t A = std::size_t(1) << (rng() % 5);  // 1 .. 16 items
    mp::traffic t;
    t.p = p;
    t.k = k;
    t.h.assign(std::size_t(p) * t.row(), 0);
    for (int q = 0; q < p; ++q)
      for (int u = 0; u < p * k; ++u)  // some ranks send nothing to some
        t.h[std::size_t(q) * t.row() + std::size_t(u)] = rng() % 4 == 0 ? 0 : rng() % 1000;
    for (int r = 0; r < p; ++r) {
      const std::vector<std::size_t> region = mp::round_starts(r, A, t);
      ASSERT_EQ(region.size(), std::size_t(k) + 1);
      std::size_t total = 0;
      for (int j = 0; j < k; ++j) {
        const std::string what = "trial " + std::to_string(trial) + ": rank " + std::to_string(r) + " round " +
                                 std::to_string(j);
        const mp::alignment_plan a = mp::plan_alignment(r, A, t, j);
        ASSERT_LT(a.pad, mp::align_pad_max);
        ASSERT_LT(a.pad, A);
        ASSERT_EQ(region[std::size_t(j)] % A, 0u) << what;
        std::size_t dst = region[std::size_t(j)] + a.pad;  // where the next run lands in recv
        bool first = true;
        for (int q = 0; q < p; ++q) {
          const std::size_t got = t.sends(q, r, j);
          if (got == 0) continue;
          total += got;
          if (q != r) {
            const std::size_t lead = mp::plan_alignment(q, A, t, j).lead[std::size_t(r)];
            const std::size_t from = mp::share_start(t, q, r, j);
            ASSERT_LE(lead, from);
            if (first) {
              ASSERT_EQ(lead, a.lead_in) << what << " from " << q;
              EXPECT_EQ((dst - lead) % A, 0u) << what;
              EXPECT_EQ((from - lead) % A, 0u) << what;
              ASSERT_GE(dst - lead, region[std::size_t(j)]) << what;  // the lead stays in the round's part
            } else {
              EXPECT_EQ(lead, 0u);
            }
            if (p == 2 && k == 1) {  // every transfer aligned at both ends
              EXPECT_EQ((dst - lead) % A, 0u) << what;
              EXPECT_EQ((from - lead) % A, 0u) << what;
            }
          }
          first = false;
          dst += got;
        }
        ASSERT_LE(dst, region[std::size_t(j) + 1]) << what;
      }
      ASSERT_LE(region[std::size_t(k)], total + mp::align_room(k));
    }
  }
}

// share_start: shares lie in the order destination, then round.
TEST(MultiExchangePlan, ShareStart) {
  mp::traffic t;
  t.p = 2;
  t.k = 2;
  t.h = {1, 2, 3, 4, 99, 5, 6, 7, 8, 99};  // rank 0 sends 1, 2 to 0 and 3, 4 to 1
  EXPECT_EQ(mp::share_start(t, 0, 0, 0), 0u);
  EXPECT_EQ(mp::share_start(t, 0, 0, 1), 1u);
  EXPECT_EQ(mp::share_start(t, 0, 1, 0), 3u);
  EXPECT_EQ(mp::share_start(t, 0, 1, 1), 6u);
  EXPECT_EQ(mp::share_start(t, 1, 1, 1), 5u + 6u + 7u);
  EXPECT_EQ(mp::share_starts(t, 0), (std::vector<std::size_t>{0, 1, 3, 6, 10}));  // the part's end last
  EXPECT_EQ(t.capacity(1), 99u);
}

}  // namespace

// Radix first's cuts (digit_plan.hpp), against a brute force over every
// monotone cut: each cut is the boundary nearest its target, the traffic
// adds up to every rank's counts, and the balance test reads the same shares.
TEST(MultiDigitPlan, CutsNearestTheTargets) {
  namespace mp = gpusort::detail::multi;
  std::mt19937_64 rng(5);
  for (int trial = 0; trial < 200; ++trial) {
    const int p = 2 + int(rng() % 6);
    std::vector<std::uint64_t> rows(std::size_t(p) * mp::digit_row, 0);
    const int skew = int(rng() % 3);  // uniform, a few hot digits, one digit
    for (int q = 0; q < p; ++q) {
      for (int d = 0; d < mp::top_digits; ++d) {
        std::uint64_t m = rng() % 100;
        if (skew == 1 && d % 37 != 0) m = rng() % 3;
        if (skew == 2 && d != 77) m = 0;
        rows[std::size_t(q) * mp::digit_row + std::size_t(d)] = m;
      }
      rows[std::size_t(q) * mp::digit_row + mp::top_digits] = 1000000;  // the capacity
    }
    const auto total = mp::digit_totals(rows, p);
    const auto cut = mp::digit_cuts(total, p);
    ASSERT_EQ(cut.size(), std::size_t(p) + 1);
    EXPECT_EQ(cut.front(), 0);
    EXPECT_EQ(cut.back(), mp::top_digits);
    std::vector<double> below(mp::top_digits + 1, 0);
    for (int d = 0; d < mp::top_digits; ++d) below[std::size_t(d) + 1] = below[std::size_t(d)] + double(total[std::size_t(d)]);
    const double n = below.back();
    for (int q = 1; q < p; ++q) {
      ASSERT_LE(cut[std::size_t(q) - 1], cut[std::size_t(q)]);
      const double target = n * q / p, err = std::abs(below[std::size_t(cut[std::size_t(q)])] - target);
      for (int d = cut[std::size_t(q) - 1]; d <= mp::top_digits; ++d)
        EXPECT_LE(err, std::abs(below[std::size_t(d)] - target)) << "p " << p << " cut " << q;
    }
    const auto t = mp::digit_traffic(rows, p, cut);
    double worst = 0;
    for (int to = 0; to < p; ++to) {
      std::uint64_t got = 0;
      for (int from = 0; from < p; ++from) got += t.sends(from, to);
      EXPECT_EQ(t.capacity(to), 1000000u);
      EXPECT_EQ(double(got), below[std::size_t(cut[std::size_t(to) + 1])] - below[std::size_t(cut[std::size_t(to)])]);
      worst = std::max(worst, std::abs(double(got) - n / p) / (n / p));
    }
    for (int from = 0; from < p; ++from) {
      std::uint64_t sent = 0;
      for (int to = 0; to < p; ++to) sent += t.sends(from, to);
      std::uint64_t had = 0;
      for (int d = 0; d < mp::top_digits; ++d) had += rows[std::size_t(from) * mp::digit_row + std::size_t(d)];
      EXPECT_EQ(sent, had);
    }
    EXPECT_EQ(mp::balanced(total, cut, p, 0.05), worst <= 0.05) << "worst " << worst;
    if (skew == 2) {
      EXPECT_FALSE(mp::balanced(total, cut, p, 0.05));
    }
  }
}

// Radix first in k rounds: each rank's digits cut again into k groups. Every
// (from, to) pair sends in k rounds exactly what it sends in one; the
// groups run in digit order within each rank's digits, so each sender's
// share (q, j) is the contiguous piece share_starts says; and each group
// holds about 1/k of its rank's keys (its cut nearest its target).
TEST(MultiDigitPlan, RoundsCutEachRanksDigits) {
  namespace mp = gpusort::detail::multi;
  std::mt19937_64 rng(7);
  for (int trial = 0; trial < 200; ++trial) {
    const int p = 2 + int(rng() % 5), k = 1 + int(rng() % 12);
    std::vector<std::uint64_t> rows(std::size_t(p) * mp::digit_row, 0);
    const int skew = int(rng() % 3);
    for (int q = 0; q < p; ++q) {
      for (int d = 0; d < mp::top_digits; ++d) {
        std::uint64_t m = rng() % 100;
        if (skew == 1 && d % 37 != 0) m = rng() % 3;
        if (skew == 2 && (d < 100 || d > 103)) m = 0;  // four digits: fewer than most k
        rows[std::size_t(q) * mp::digit_row + std::size_t(d)] = m;
      }
      rows[std::size_t(q) * mp::digit_row + mp::top_digits] = 777;
    }
    const auto total = mp::digit_totals(rows, p);
    const auto cut = mp::digit_cuts(total, p);
    const auto one = mp::digit_traffic(rows, p, cut);
    const auto t = mp::digit_traffic_rounds(rows, p, cut, k);
    ASSERT_EQ(t.k, k);
    for (int q = 0; q < p; ++q) {
      EXPECT_EQ(t.capacity(q), 777u);
      const auto g = mp::cuts_between(total, cut[std::size_t(q)], cut[std::size_t(q) + 1], k);
      ASSERT_EQ(g.size(), std::size_t(k) + 1);
      EXPECT_EQ(g.front(), cut[std::size_t(q)]);
      EXPECT_EQ(g.back(), cut[std::size_t(q) + 1]);
      for (int j = 0; j < k; ++j) ASSERT_LE(g[std::size_t(j)], g[std::size_t(j) + 1]);
      for (int from = 0; from < p; ++from) {
        EXPECT_EQ(t.sends(from, q), one.sends(from, q)) << "trial " << trial;
        for (int j = 0; j < k; ++j)
          EXPECT_EQ(t.sends(from, q, j), mp::digit_range(rows, from, g[std::size_t(j)], g[std::size_t(j) + 1]));
      }
      // each group's cut is the digit boundary nearest its share of the rank's keys
      std::vector<double> below(std::size_t(mp::top_digits) + 1, 0);
      for (int d = 0; d < mp::top_digits; ++d) below[std::size_t(d) + 1] = below[std::size_t(d)] + double(total[std::size_t(d)]);
      const double lo = below[std::size_t(cut[std::size_t(q)])], n = below[std::size_t(cut[std::size_t(q) + 1])] - lo;
      for (int j = 1; j < k; ++j) {
        const double target = lo + n * j / k, err = std::abs(below[std::size_t(g[std::size_t(j)])] - target);
        for (int d = g[std::size_t(j) - 1]; d <= cut[std::size_t(q) + 1]; ++d)
          EXPECT_LE(err, std::abs(below[std::size_t(d)] - target)) << "rank " << q << " group " << j;
      }
    }
    // a sender's part is in digit order: share (q, j) starts where the digits before group j of q end
    for (int from = 0; from < p; ++from) {
      const auto s = mp::share_starts(t, from);
      for (int q = 0; q < p; ++q) {
        const auto g = mp::cuts_between(total, cut[std::size_t(q)], cut[std::size_t(q) + 1], k);
        for (int j = 0; j < k; ++j)
          EXPECT_EQ(s[std::size_t(q * k + j)], mp::digit_range(rows, from, 0, g[std::size_t(j)]));
      }
    }
  }
}
