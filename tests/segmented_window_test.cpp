// segmented/window.hpp from first principles, on the host: a segment's
// 8-byte ranks as (window, index) words. For each set of ranks, the words
// sorted as integers are compared with std::stable_sort of the indices by
// rank (the order the segmented sort must produce):
//   - a range below 2^58: the same order exactly (shift 0);
//   - a wider range: shift = bits of the range beyond 58 (at most 6); two
//     indices may be out of rank order only where their ranks fall in one
//     step of 2^shift above the least, and a stable insertion by rank of
//     the words' order gives the exact order.
#include "segmented/window.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <numeric>
#include <random>
#include <vector>

namespace {

using gpusort::detail::segmented::rank_window;

std::vector<unsigned> exact_order(const std::vector<std::uint64_t>& r) {
  std::vector<unsigned> idx(r.size());
  std::iota(idx.begin(), idx.end(), 0u);
  std::stable_sort(idx.begin(), idx.end(), [&](unsigned a, unsigned b) { return r[a] < r[b]; });
  return idx;
}

// The indices in the order of their words, and the window.
std::vector<unsigned> word_order(const std::vector<std::uint64_t>& r, rank_window& win) {
  const auto [lo, hi] = std::minmax_element(r.begin(), r.end());
  win = rank_window::of(*lo, *hi);
  std::vector<std::uint64_t> w;
  for (unsigned i = 0; i < r.size(); ++i) w.push_back(win.word(r[i], i));
  std::sort(w.begin(), w.end());
  std::vector<unsigned> idx;
  for (std::uint64_t x : w) idx.push_back(rank_window::index(x));
  return idx;
}

void check(const std::vector<std::uint64_t>& r, const char* what) {
  rank_window win;
  std::vector<unsigned> got = word_order(r, win);
  const std::vector<unsigned> want = exact_order(r);
  std::vector<unsigned> perm = got;
  std::sort(perm.begin(), perm.end());
  for (unsigned i = 0; i < perm.size(); ++i) ASSERT_EQ(perm[i], i) << what << ": the words' indices";
  const std::uint64_t range = *std::max_element(r.begin(), r.end()) - win.least;
  ASSERT_LE(win.shift, 6u) << what;
  ASSERT_EQ(win.exact(), range < (std::uint64_t(1) << 58)) << what;
  if (win.exact()) {
    ASSERT_EQ(got, want) << what;
    return;
  }
  for (std::size_t i = 0; i + 1 < got.size(); ++i) {
    if (r[got[i + 1]] < r[got[i]]) {
      ASSERT_EQ((r[got[i]] - win.least) >> win.shift, (r[got[i + 1]] - win.least) >> win.shift)
          << what << ": out of order across a step of the window";
    }
  }
  // the insertion that finishes such a segment
  for (std::size_t i = 1; i < got.size(); ++i)
    for (std::size_t j = i; j > 0 && r[got[j]] < r[got[j - 1]]; --j) std::swap(got[j], got[j - 1]);
  ASSERT_EQ(got, want) << what << ": after the insertion";
}

TEST(SegmentedWindow, Shifts) {
  EXPECT_EQ(rank_window::of(5, 5).shift, 0u);
  EXPECT_EQ(rank_window::of(0, (std::uint64_t(1) << 58) - 1).shift, 0u);
  EXPECT_EQ(rank_window::of(0, std::uint64_t(1) << 58).shift, 1u);
  EXPECT_EQ(rank_window::of(7, (std::uint64_t(1) << 58) + 6).shift, 0u);  // the range counts, not the bits
  EXPECT_EQ(rank_window::of(0, ~std::uint64_t(0)).shift, 6u);
  EXPECT_EQ(rank_window::of(0, ~std::uint64_t(0)).word(~std::uint64_t(0), 63), ~std::uint64_t(0));
  EXPECT_EQ(rank_window::index(rank_window::of(3, 9).word(9, 41)), 41u);
}

TEST(SegmentedWindow, OrdersAsStableSort) {
  std::mt19937_64 rng(2026);
  for (int round = 0; round < 4000; ++round) {
    const unsigned n = 1 + unsigned(rng() % 64);
    std::vector<std::uint64_t> r(n);
    const int kind = round % 6;
    const std::uint64_t base = rng();
    for (auto& x : r) {
      switch (kind) {
        case 0: x = rng(); break;                               // uniform 64-bit: shifted
        case 1: x = base + rng() % 1000; break;                 // a narrow range, ties: exact
        case 2: x = base; break;                                // all equal
        case 3: x = base + (rng() % 4) * (std::uint64_t(1) << 60); break;  // few values, wide: shifted
        case 4: x = rng() % 2 ? rng() % 200 : ~std::uint64_t(0) - rng() % 200; break;  // both ends, close ranks
        default: x = base + (rng() >> (rng() % 64)); break;    // ranges of every width
      }
    }
    if (kind == 4 && n > 2) r[0] = 0, r[1] = ~std::uint64_t(0);
    check(r, "random ranks");
    if (HasFatalFailure()) return;
  }
}

}  // namespace
