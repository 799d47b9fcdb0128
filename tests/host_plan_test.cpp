// Host suite: the host pipeline's plain C++ parts (src/host/): the plans
// that cut a sort up, the k-way co-rank of the out-of-core merge (checked
// against a stable merge computed with std::stable_sort under the oracle's
// order), the runs' two layouts, and the block ledger with its final
// permutation (simulated on labels, and on a dealt merge of real keys).
#include "host/blocks.hpp"
#include "host/corank.hpp"
#include "host/plan.hpp"
#include "host/run_layout.hpp"

#include "harness/harness.hpp"
#include "oracle.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <numeric>
#include <random>
#include <string>
#include <tuple>
#include <vector>

namespace {

using namespace gpusort::detail::host;
using gpusort::harness::dist;
namespace h = gpusort::harness;

TEST(HostPlan, InCoreChunksAreTilesAndAtMostSixteen) {
  const auto temp = [](std::size_t m) { return m * 8 + 4096; };
  for (std::size_t n : {std::size_t(0), std::size_t(1), std::size_t(5000), std::size_t(1) << 23,
                        (std::size_t(3) << 22) + 12345, std::size_t(1000000000)}) {
    const in_core_plan p = plan_in_core(n, 8, 4, 2816, temp);
    EXPECT_EQ(p.chunks, n == 0 ? 0 : ceil_div(n, p.chunk)) << n;
    EXPECT_LE(p.chunks, 16u) << n;
    EXPECT_EQ(p.levels, gpusort::detail::ceil_log2(p.chunks)) << n;
    if (p.levels > 0) {
      EXPECT_EQ(p.chunk % 2816, 0u) << n;
      EXPECT_EQ(p.window % 2816, 0u) << n;
      EXPECT_GE(p.device_bytes, 2 * n * 12 + temp(p.chunk)) << n;
    } else {
      EXPECT_EQ(p.chunk, n) << n;
      EXPECT_GE(p.device_bytes, n * 12 + temp(n)) << n;
    }
  }
  // values without a payload type: one chunk, no merging
  const in_core_plan one = plan_in_core(std::size_t(1) << 26, 4, 12, 0, temp);
  EXPECT_EQ(one.chunks, 1u);
  EXPECT_EQ(one.levels, 0);
}

TEST(HostPlan, OutOfCoreFitsItsBudget) {
  const auto temp = [](std::size_t m) { return m * 12 + 100000; };
  for (std::size_t budget : {std::size_t(1) << 20, std::size_t(3) << 20, std::size_t(16) << 30}) {
    const out_of_core_plan p = plan_out_of_core(std::size_t(1) << 33, 8, 4, budget, temp);
    ASSERT_TRUE(p.ok) << budget;
    EXPECT_LE(p.device_bytes, budget);
    EXPECT_EQ(p.slot % p.block, 0u);
    EXPECT_EQ(p.block & (p.block - 1), 0u);
    EXPECT_GE(p.slot / p.block, 16u);
    EXPECT_GE(p.slot / p.block, std::min<std::size_t>(p.runs, 257) - 1);  // dealt runs: a piece spans the runs
    EXPECT_EQ(p.runs, ceil_div(std::size_t(1) << 33, p.slot));
    EXPECT_EQ(p.extra_blocks, p.runs);
  }
  EXPECT_FALSE(plan_out_of_core(1000000, 8, 4, 50000, temp).ok);  // no useful slot fits
}

// The stable merge of the runs, as (run, position) in merge order.
template <class K>
std::vector<std::pair<std::size_t, std::size_t>> stable_merge(const std::vector<std::vector<K>>& runs,
                                                              const gpusort::options& opt) {
  std::vector<std::pair<std::size_t, std::size_t>> all;
  for (std::size_t r = 0; r < runs.size(); ++r)
    for (std::size_t i = 0; i < runs[r].size(); ++i) all.push_back({r, i});
  const gpusort_test::oracle_order<K> ord(opt);
  std::stable_sort(all.begin(), all.end(),
                   [&](auto a, auto b) { return ord.less(runs[a.first][a.second], runs[b.first][b.second]); });
  return all;
}

template <class K> void check_corank(dist d, gpusort::order dir, int begin_bit, int end_bit) {
  gpusort::options opt;
  opt.direction = dir;
  opt.begin_bit = begin_bit;
  opt.end_bit = end_bit;
  const gpusort::detail::key_order<K> ord(dir == gpusort::order::descending, begin_bit,
                                          end_bit < 0 ? int(sizeof(K) * 8) : end_bit);
  const gpusort_test::oracle_order<K> oracle(opt);
  std::vector<std::vector<K>> runs;
  std::vector<host_run<K>> views;
  const std::size_t lengths[] = {1000, 0, 1, 777, 1000, 313};
  for (std::size_t r = 0; r < std::size(lengths); ++r) {
    runs.push_back(h::generate<K>(d, lengths[r], 11 + r));
    std::stable_sort(runs[r].begin(), runs[r].end(), [&](K a, K b) { return oracle.less(a, b); });
  }
  for (const auto& r : runs) views.push_back({r.data(), r.size()});
  const auto merged = stable_merge(runs, opt);
  std::vector<std::size_t> want(runs.size(), 0);
  for (std::size_t rank = 0; rank <= merged.size(); ++rank) {
    ASSERT_EQ(corank(views, rank, ord), want) << "rank " << rank << " of " << merged.size();
    if (rank < merged.size()) ++want[merged[rank].first];
  }
}

// Runs in blocks (dealt runs): equal items are taken by block row, then
// run, then position; the oracle sorts every item by (rank, row, run, index).
template <class K> void check_corank_rows(dist d, std::size_t block) {
  const gpusort::detail::key_order<K> ord(false, 0, int(sizeof(K) * 8));
  const std::size_t lengths[] = {1000, 1, 777, 1000, 313, 64};
  std::vector<std::vector<K>> runs;
  std::vector<host_run<K>> views;
  for (std::size_t r = 0; r < std::size(lengths); ++r) {
    runs.push_back(h::generate<K>(d, lengths[r], 31 + r));
    std::sort(runs[r].begin(), runs[r].end(), [&](K a, K b) { return ord.key_rank(a) < ord.key_rank(b); });
  }
  for (const auto& r : runs) views.push_back({r.data(), r.size(), block, block});
  struct item {
    typename gpusort::detail::key_traits<K>::bits rank;
    std::size_t row, run, index;
  };
  std::vector<item> all;
  for (std::size_t r = 0; r < runs.size(); ++r)
    for (std::size_t i = 0; i < runs[r].size(); ++i) all.push_back({ord.key_rank(runs[r][i]), i / block, r, i});
  std::sort(all.begin(), all.end(), [](const item& a, const item& b) {
    return std::tie(a.rank, a.row, a.run, a.index) < std::tie(b.rank, b.row, b.run, b.index);
  });
  std::vector<std::size_t> want(runs.size(), 0);
  for (std::size_t rank = 0; rank <= all.size(); ++rank) {
    ASSERT_EQ(corank(views, rank, ord), want) << "rank " << rank << " block " << block;
    if (rank < all.size()) ++want[all[rank].run];
  }
}

TEST(HostCorank, BlockedRunsTakeEqualKeysByRow) {
  for (std::size_t block : {std::size_t(1), std::size_t(7), std::size_t(64), std::size_t(5000)}) {
    check_corank_rows<std::uint32_t>(dist::equal, block);
    check_corank_rows<std::uint32_t>(dist::few_unique, block);
    check_corank_rows<std::int64_t>(dist::zipf, block);
    check_corank_rows<std::uint8_t>(dist::uniform, block);
  }
}

TEST(HostCorank, MatchesTheStableMerge) {
  for (auto dir : {gpusort::order::ascending, gpusort::order::descending}) {
    check_corank<std::uint32_t>(dist::few_unique, dir, 0, -1);
    check_corank<std::uint32_t>(dist::uniform, dir, 4, 12);
    check_corank<float>(dist::float_special, dir, 0, -1);
    check_corank<double>(dist::float_special, dir, 0, -1);
    check_corank<std::int64_t>(dist::zipf, dir, 0, -1);
    check_corank<std::int8_t>(dist::uniform, dir, 0, -1);
  }
}

// A simulated out-of-core merge: runs of `slot` items read at random rates,
// each piece's output blocks placed as the pipeline places them; after the
// moves every place holds its own block.
TEST(HostBlocks, EveryBlockComesHome) {
  std::mt19937_64 rng(5);
  for (int trial = 0; trial < 200; ++trial) {
    const std::size_t block = 1 + rng() % 4, per_slot = 2 + rng() % 6, slot = block * per_slot;
    const std::size_t n = 1 + rng() % (slot * 9);
    const std::size_t runs = ceil_div(n, slot), full = n / block;
    block_ledger ledger(full, runs);
    std::vector<std::size_t> read(runs, 0), held(full + runs + 1, block_ledger::none);
    auto length = [&](std::size_t r) { return std::min(slot, n - r * slot); };
    for (std::size_t at = 0; at < n; at += slot) {
      // this piece reads `take` items, spread at random over the runs
      std::size_t take = std::min(slot, n - at);
      while (take > 0) {
        const std::size_t r = rng() % runs;
        const std::size_t more = std::min<std::size_t>({take, length(r) - read[r], 1 + rng() % 3});
        for (std::size_t k = (r * slot + read[r]) / block; k < std::min((r * slot + read[r] + more) / block, full); ++k)
          ledger.release(k);
        read[r] += more;
        take -= more;
      }
      for (std::size_t j = at / block; j < full && j * block < at + std::min(slot, n - at); ++j) {
        const std::size_t s = ledger.place(j);
        ASSERT_EQ(held[s], block_ledger::none) << "trial " << trial << ": place " << s << " written twice";
        held[s] = j;
      }
    }
    for (const auto& m : ledger.moves()) {
      ASSERT_NE(held[m.from], block_ledger::none) << "trial " << trial << ": moved an empty place";
      held[m.to] = held[m.from];
      held[m.from] = block_ledger::none;
    }
    for (std::size_t j = 0; j < full; ++j) ASSERT_EQ(held[j], j) << "trial " << trial;
  }
}

// Both layouts: the runs cover every host position once, stretches are
// contiguous on the host and agree with at(), and no run exceeds its slot.
TEST(HostRunLayout, RunsCoverTheArrayOnce) {
  std::mt19937_64 rng(7);
  for (int trial = 0; trial < 300; ++trial) {
    const std::size_t block = 1 + rng() % 5, slot = block * (1 + rng() % 7), n = 1 + rng() % (slot * 11);
    for (bool dealt : {false, true}) {
      const run_layout lay(n, slot, block, dealt);
      ASSERT_EQ(lay.runs(), ceil_div(n, slot));
      std::vector<int> seen(n, 0);
      std::size_t total = 0;
      for (std::size_t r = 0; r < lay.runs(); ++r) {
        const std::size_t len = lay.length(r);
        ASSERT_GE(len, 1u);
        ASSERT_LE(len, slot) << "trial " << trial << " run " << r;
        total += len;
        std::size_t next = 0;
        lay.stretches(r, 0, len, [&](std::size_t host, std::size_t i, std::size_t k) {
          ASSERT_EQ(i, next);
          next += k;
          for (std::size_t t = 0; t < k; ++t) {
            ASSERT_EQ(lay.at(r, i + t), host + t);
            ASSERT_LT(host + t, n);
            ++seen[host + t];
          }
          // the corank view reads the same place
          const std::size_t view = lay.base(r) + (i / lay.stride_block()) * lay.stride() + i % lay.stride_block();
          ASSERT_EQ(view, host);
        });
        ASSERT_EQ(next, len);
      }
      ASSERT_EQ(total, n);
      for (std::size_t x = 0; x < n; ++x) ASSERT_EQ(seen[x], 1) << "trial " << trial << " position " << x;
    }
  }
}

// The out-of-core merge of dealt runs, simulated on real keys as
// out_of_core.cpp runs it: every run sorted in its blocks, the pieces' cuts
// from corank over block-strided views, the blocks read by piece q + 1
// released before piece q is placed. Uniform, all-equal and few-unique keys
// then find every home free (equal keys are read by block row), and the
// output is the sorted input.
TEST(HostRunLayout, DealtMergeWritesHome) {
  using K = std::uint64_t;
  const std::size_t n = (std::size_t(1) << 18) + 777, slot = std::size_t(1) << 14,
                    block = std::size_t(1) << 9;  // 32 blocks a slot: at least the 17 runs, as plan_out_of_core chooses
  const gpusort::detail::key_order<K> ord(false, 0, 64);
  for (auto [d, dealt] : {std::pair{dist::uniform, true}, std::pair{dist::uniform, false},
                          std::pair{dist::equal, true}, std::pair{dist::few_unique, true}}) {
    auto data = h::generate<K>(d, n, 21);
    const run_layout lay(n, slot, block, dealt);
    std::vector<host_run<K>> runs;
    for (std::size_t r = 0; r < lay.runs(); ++r) {
      std::vector<K> run;
      lay.stretches(r, 0, lay.length(r), [&](std::size_t host, std::size_t, std::size_t k) {
        run.insert(run.end(), data.begin() + host, data.begin() + host + k);
      });
      std::sort(run.begin(), run.end());
      lay.stretches(r, 0, lay.length(r), [&](std::size_t host, std::size_t i, std::size_t k) {
        std::copy(run.begin() + i, run.begin() + i + k, data.begin() + host);
      });
      runs.push_back({data.data() + lay.base(r), lay.length(r), lay.stride_block(), lay.stride()});
    }
    const std::size_t pieces = lay.runs(), full = n / block;
    std::vector<std::vector<std::size_t>> cut;
    for (std::size_t q = 0; q <= pieces; ++q) cut.push_back(corank(runs, std::min(q * slot, n), ord));
    block_ledger ledger(full, pieces);
    std::vector<K> merged;
    auto read = [&](std::size_t q) {
      for (std::size_t r = 0; r < pieces; ++r) {
        for (std::size_t i = cut[q][r]; i < cut[q + 1][r]; ++i) merged.push_back(runs[r][i]);
        for (std::size_t k = cut[q][r] / block; k < cut[q + 1][r] / block; ++k)
          if (lay.home_block(r, k) < full) ledger.release(lay.home_block(r, k));
      }
    };
    auto place = [&](std::size_t q) {
      for (std::size_t j = q * slot / block; j < full && j * block < std::min((q + 1) * slot, n); ++j) ledger.place(j);
    };
    for (std::size_t q = 0; q < pieces; ++q) {
      read(q);
      if (q > 0) place(q - 1);
    }
    place(pieces - 1);
    auto want = h::generate<K>(d, n, 21);
    std::sort(want.begin(), want.end());
    std::vector<K> got(merged);
    std::sort(got.begin(), got.end());
    ASSERT_EQ(got, want);
    for (std::size_t q = 1; q < pieces; ++q)  // each piece's items come after the previous piece's
      ASSERT_LE(*std::max_element(merged.begin() + (q - 1) * slot, merged.begin() + q * slot),
                *std::min_element(merged.begin() + q * slot, merged.begin() + std::min((q + 1) * slot, n)));
    const std::string what = std::string(h::to_string(d)) + (dealt ? ", dealt" : ", contiguous");
    if (dealt) EXPECT_EQ(ledger.displaced(), 0u) << what << ": every output block finds its home free";
    else EXPECT_GT(ledger.displaced(), full / 2) << what << ": most blocks land away from home";
  }
}

}  // namespace
