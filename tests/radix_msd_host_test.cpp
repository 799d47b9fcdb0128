// Host suite: radix_msd's host-checkable logic, exhaustively.
//   MsdPlan        radix_msd's level plans (every skip pattern), the filing
//                  of a bucket's children (every key lands in exactly one
//                  place, runs fit, digits to sort), the list bounds and the
//                  cost model's shares
//   MsdClasses     the class codes of doubles' first level: monotone,
//                  within 256 codes, balanced where the classes allow
//   MsdInts        the affine map of 64-bit integers: increasing, its top
//                  digit full, nothing above it, pads last in every digit
#include "radix/msd_classes.hpp"
#include "radix/msd_ints.hpp"
#include "radix/msd_plan.hpp"
#include "radix/onesweep_plan.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <bit>
#include <cstdint>
#include <limits>
#include <random>
#include <string>
#include <vector>

namespace {

namespace os = gpusort::detail::radix_onesweep;
namespace md = gpusort::detail::radix_msd;

// Every skip pattern of up to 8 levels: a sorting level reads what the last
// one wrote, never writes the input or what it reads.
TEST(RadixMsdPlan, LevelsPingPongAndLeaveTheInput) {
  for (int levels = 1; levels <= 8; ++levels)
    for (unsigned mask = 0; mask < (1u << levels); ++mask) {
      int skip[8];
      for (int j = 0; j < levels; ++j) skip[j] = (mask >> j) & 1u;
      md::slot_plan plan[8];
      md::make_levels(skip, levels, plan);
      int at = os::buf_in;
      for (int j = 0; j < levels; ++j) {
        ASSERT_EQ(md::buffer_before(plan, j), at) << "levels=" << levels << " skip=" << mask << " level " << j;
        if (skip[j]) {
          ASSERT_EQ(plan[j].mode, os::slot_skip);
          continue;
        }
        ASSERT_EQ(plan[j].mode, os::slot_sort);
        ASSERT_EQ(plan[j].src, at);
        ASSERT_NE(plan[j].dst, int(os::buf_in));
        ASSERT_NE(plan[j].dst, plan[j].src);
        at = plan[j].dst;
      }
    }
}

// The filing the file kernel makes, in digit order (its lanes classify,
// lane 0 packs; the entries' order in the lists does not matter): the
// children of one bucket that a level with digit pass `pass` sorted into
// `buffer`: child c holds size(c) keys from first + the sizes
// before it. big(begin, size): a child for the next level (pass > 0);
// local(begin, size, passes): a run to local-sort, a child of more than
// `alone` keys (and at most `local`) alone, or adjacent children of at most
// `alone` keys together, up to `local` keys; copy(begin, size): a sorted
// range that must reach the output (copy_needed: buffer != output): the
// whole bucket after its last digit, or a child over `local` keys that
// one(c, size) says holds one value.
template <class Size, class One, class Big, class Local, class Copy>
void file_children(std::size_t first, Size size, One one, int pass, std::size_t local, std::size_t alone,
                   bool copy_needed, Big big, Local loc, Copy copy) {
  if (pass == 0) {  // the bucket is sorted
    std::size_t total = 0;
    for (int c = 0; c < 256; ++c) total += size(c);
    if (copy_needed && total) copy(first, total);
    return;
  }
  std::size_t at = first;
  md::run_packer packed;
  for (int c = 0; c < 256; ++c) {
    const std::size_t s = size(c);
    const md::child_kind k = md::kind_of(s, s > local && one(c, s), local, alone);
    if (k == md::child_kind::small) packed.add(at, s, local, pass, loc);
    else if (k != md::child_kind::empty) {
      packed.close(pass, loc);
      if (k == md::child_kind::big) big(at, s);
      else if (k == md::child_kind::alone) loc(at, s, pass);
      else if (copy_needed) copy(at, s);
    }
    at += s;
  }
  packed.close(pass, loc);
}

// Filing: children in digit order tile the bucket; big ones are exactly
// those over `local`; runs fit `local`, children over `alone` are runs
// alone, the others are packed into maximal runs (the next small child
// would not fit), which sort the parent's digit only when they hold more
// than one child; a sorted bucket (pass 0) is one copy, or nothing in the output;
// a big child of one value is a copy, or nothing in the output.
TEST(RadixMsdPlan, FilingCoversEveryKeyOnce) {
  std::mt19937_64 rng(5);
  const std::size_t local = 100, alone = 50;
  for (int trial = 0; trial < 3000; ++trial) {
    std::size_t sizes[256];
    const int shape = trial % 4;
    for (auto& z : sizes) {
      const std::uint64_t r = rng();
      z = shape == 0 ? r % 60 : shape == 1 ? (r % 8 == 0 ? r % 400 : r % 30) : shape == 2 ? (r % 50 == 0 ? 101 : 0) : r % 3;
    }
    const std::size_t first = rng() % 1000;
    const int pass = trial % 5;
    const bool copy_needed = trial % 2;
    // one big child said to hold one value (in a third of the trials)
    const int one_child = trial % 3 == 0 ? int(rng() % 256) : -1;
    std::vector<std::pair<std::size_t, std::size_t>> covered;
    std::size_t bigs = 0, runs = 0, copies = 0, one_copies = 0;
    std::size_t prev_run_end = 0, prev_run_keys = 0;
    bool prev_lone = false;
    file_children(
        first, [&](int c) { return sizes[c]; }, [&](int c, std::size_t) { return c == one_child; }, pass, local,
        alone, copy_needed,
        [&](std::size_t at, std::size_t n) {
          ASSERT_GT(n, local);
          covered.push_back({at, n});
          ++bigs;
        },
        [&](std::size_t at, std::size_t n, int passes) {
          ASSERT_LE(n, local);
          ASSERT_TRUE(passes == pass || passes == pass + 1);
          const bool lone = passes == pass && n > alone;  // a child alone
          // maximal: a run that follows another with no big child between
          // them could not have been merged into it
          if (runs && prev_run_end == at && !lone && !prev_lone) {
            ASSERT_GT(prev_run_keys + n, local);
          }
          prev_lone = lone;
          covered.push_back({at, n});
          prev_run_end = at + n;
          prev_run_keys = n;
          ++runs;
        },
        [&](std::size_t at, std::size_t n) {
          covered.push_back({at, n});
          ++copies;
          if (pass != 0) {
            ASSERT_TRUE(copy_needed);
            ASSERT_GE(one_child, 0);
            ASSERT_EQ(n, sizes[one_child]);
            ++one_copies;
          }
        });
    std::size_t total = 0;
    for (auto z : sizes) total += z;
    const bool one_big = one_child >= 0 && sizes[one_child] > local;
    if (pass == 0) {
      ASSERT_EQ(bigs + runs, 0u);
      ASSERT_EQ(copies, copy_needed && total ? 1u : 0u);
      if (copies) {
        ASSERT_EQ(covered[0], std::make_pair(first, total));
      }
      continue;
    }
    ASSERT_EQ(one_copies, one_big && copy_needed ? 1u : 0u) << "trial " << trial;
    // the per-bucket share of md::bounds' run count
    ASSERT_LE(runs, 2 * (total / alone) + 2 * (total / local) + bigs + 2) << "trial " << trial;
    // a child of one value already in the output is filed nowhere
    std::size_t one_at = first;
    for (int c = 0; c < one_child; ++c) one_at += sizes[c];
    if (one_big && !copy_needed) covered.push_back({one_at, sizes[one_child]});
    std::sort(covered.begin(), covered.end());
    std::size_t at = first;
    for (auto [b, n] : covered) {
      ASSERT_EQ(b, at) << "trial " << trial;
      at += n;
    }
    ASSERT_EQ(at, first + total) << "trial " << trial;
  }
}

// The histogram's word: a child holds one value exactly where it is the
// first key's child and holds as many keys as equal that key.
TEST(RadixMsdPlan, OneValueChildIsTheFirstKeysWhole) {
  for (unsigned d : {0u, 1u, 37u, 255u})
    for (std::size_t count : {std::size_t(1), std::size_t(6145), (std::size_t(1) << 40) + 3}) {
      const unsigned long long word = md::same_digit(d) + count;
      for (int c : {0, 1, 37, 255}) {
        EXPECT_EQ(md::one_value_child(word, c, count), c == int(d));
        EXPECT_FALSE(md::one_value_child(word, c, count + 1));  // another key in the child
        EXPECT_FALSE(md::one_value_child(word, c, count - 1));
      }
    }
  EXPECT_FALSE(md::one_value_child(0, 0, 0));  // nothing counted
  EXPECT_FALSE(md::one_value_child(0, 0, 7000));
}

TEST(RadixMsdPlan, BoundsHoldTheLists) {
  const md::bounds b(std::size_t(1) << 28, 6144, 1536, 8);
  EXPECT_EQ(b.buckets, (std::size_t(1) << 28) / 6145);
  EXPECT_EQ(b.at_level(0), 1u);
  EXPECT_EQ(b.at_level(1), 256u);
  EXPECT_EQ(b.at_level(2), b.buckets);
  EXPECT_GE(b.runs, 2 * (std::size_t(1) << 28) / 1536 + 2 * (std::size_t(1) << 28) / 6144);
  EXPECT_EQ(md::pieces(0), 0u);
  EXPECT_EQ(md::pieces(md::copy_piece), 1u);
  EXPECT_EQ(md::pieces(md::copy_piece + 1), 2u);
}

}  // namespace

// The MSD cost: uniform keys (two levels, no value alone) pay every level
// and the local sort; keys of few values (alone after the first level) pay
// one level and a copy; a share alone bounds the later levels' shares.
TEST(RadixMsdPlan, CostCountsLevelsLocalSortAndCopies) {
  const md::msd_costs c{1.2f, 4.0f, 1.25f};
  const float none[9] = {};
  {
    const float big[9] = {0, 1.0f, 0.0f};
    EXPECT_FLOAT_EQ(md::msd_cost(big, none, 8, c), 1.0f + 1.2f + 4.0f);
  }
  {
    const float big[9] = {0, 1, 1, 1, 1, 1, 1, 1, 1};
    EXPECT_FLOAT_EQ(md::msd_cost(big, none, 8, c), 1.0f + 7 * 1.2f + 4.0f);
    const float alone[9] = {0, 1, 1, 1, 1, 1, 1, 1, 1};
    EXPECT_FLOAT_EQ(md::msd_cost(big, alone, 8, c), 1.0f + 1.25f);
    // a third alone after two levels: levels 1 and 2 sort all but it
    const float third[9] = {0, 0, 1.0f / 3, 1.0f / 3, 1.0f / 3, 1.0f / 3, 1.0f / 3, 1.0f / 3, 1.0f / 3};
    EXPECT_FLOAT_EQ(md::msd_cost(big, third, 8, c), 1.0f + 1.2f * (1 + 6 * (2.0f / 3)) + 1.25f / 3 + 4.0f * 2 / 3);
  }
  {  // one varying digit: level 0 and the local sort, or the copy
    const float big[9] = {};
    const float alone[9] = {0, 0.5f};
    EXPECT_FLOAT_EQ(md::msd_cost(big, none, 1, c), 1.0f + 4.0f);
    EXPECT_FLOAT_EQ(md::msd_cost(big, alone, 1, c), 1.0f + 0.5f * 1.25f + 0.5f * 4.0f);
  }
}

// triple_share: F3's part of a second digit, one walk, against the sum over
// every pair of the third digit's shares strictly over the pair's threshold;
// big_shares: F1, F2, F3 as measured, then the ratio F3 / F2 (or F2 / F1
// where fewer than three levels sort).
TEST(RadixMsdPlan, SharesOverAThreshold) {
  {  // four shares: the threshold is strict
    const float first[4] = {0.0f, 0.0f, 0.0f, 1.0f};
    const float third[4] = {0.1f, 0.2f, 0.3f, 0.4f};
    const float tail[5] = {1.0f, 0.9f, 0.7f, 0.4f, 0.0f};
    // total p12 = 100 > local = 10; threshold 0.1: 0.2 + 0.3 + 0.4
    EXPECT_FLOAT_EQ(md::triple_share(first, 1.0f, third, tail, 4, 100.0f, 10.0f), 0.9f);
    EXPECT_FLOAT_EQ(md::triple_share(first, 1.0f, third, tail, 4, 100.0f, 40.0f), 0.0f);  // 0.4 is not over 0.4
    EXPECT_FLOAT_EQ(md::triple_share(first, 0.1f, third, tail, 4, 100.0f, 10.0f), 0.0f);  // the pair itself is small
  }
  // skewed digits (Zipf-like: a few heavy shares), flat ones, and one digit
  // of all keys
  std::mt19937_64 rng(11);
  for (int trial = 0; trial < 200; ++trial) {
    float first[256], third[256], tail[257];
    auto fill = [&](float* p) {
      double sum = 0, w[256];
      for (int d = 0; d < 256; ++d) {
        const int shape = trial % 3;
        const double u = double(rng() % 1000000 + 1) / 1e6;
        w[d] = shape == 0 ? 1.0 / (1.0 + double(rng() % 256)) / u : shape == 1 ? u : (d == trial % 256 ? 1.0 : 0.0);
        sum += w[d];
      }
      for (int d = 0; d < 256; ++d) p[d] = float(w[d] / sum);
      std::sort(p, p + 256);
    };
    fill(first);
    fill(third);
    tail[256] = 0.0f;
    for (int d = 255; d >= 0; --d) tail[d] = tail[d + 1] + third[d];
    const float total = float(1u << 27), local = 6144.0f;
    for (float p2 : {0.5f, 0.05f, 0.004f, 1e-4f, 0.0f}) {
      double want = 0;
      for (int d = 0; d < 256; ++d) {
        const float p12 = first[d] * p2;
        if (!(total * p12 > local)) continue;
        const float t = local / (total * p12);
        double over = 0;
        for (int e = 0; e < 256; ++e)
          if (third[e] > t) over += third[e];
        want += double(p12) * over;
      }
      EXPECT_NEAR(md::triple_share(first, p2, third, tail, 256, total, local), want, 1e-5 * (1.0 + want))
          << "trial " << trial << " p2 " << p2;
    }
  }

  float big[9] = {};
  md::big_shares(1.0f, 0.995f, 0.0f, 8, big);  // normal doubles: three levels, then none
  EXPECT_FLOAT_EQ(big[1], 1.0f);
  EXPECT_FLOAT_EQ(big[2], 0.995f);
  for (int k = 3; k <= 8; ++k) EXPECT_EQ(big[k], 0.0f);
  md::big_shares(1.0f, 1.0f, 0.5f, 8, big);
  EXPECT_FLOAT_EQ(big[3], 0.5f);
  EXPECT_FLOAT_EQ(big[4], 0.25f);
  EXPECT_FLOAT_EQ(big[5], 0.125f);
  EXPECT_FLOAT_EQ(big[8], 1.0f / 64);
  md::big_shares(1.0f, 1.0f, 0.01f, 8, big);
  EXPECT_FLOAT_EQ(big[3], 0.01f);
  EXPECT_EQ(big[4], 0.0f);  // 1e-4: under 1e-3 counts as none
  float two[3] = {};
  md::big_shares(1.0f, 0.5f, 0.0f, 2, two);  // two sorting levels: F3 unused
  EXPECT_FLOAT_EQ(two[1], 1.0f);
  EXPECT_FLOAT_EQ(two[2], 0.5f);
}

// Few values from a sample: every value seen twice or more gives the count
// itself; singletons need doubletons (Chao's bound); values too many to
// fill a local sort each, or no value seen twice, give 0.
TEST(RadixMsdPlan, LevelsToOneValue) {
  const double n = double(1u << 27), local = 6144;
  EXPECT_EQ(md::levels_to_one_value(16, 0, 0, n, local, 8, 8), 1);       // 16 values: one level
  EXPECT_EQ(md::levels_to_one_value(300, 0, 0, n, local, 8, 8), 2);      // 300 > 256: two
  EXPECT_EQ(md::levels_to_one_value(1024, 1024, 0, n, local, 8, 8), 0);  // all distinct
  // 609 seen, 522 once, 45 twice (2^27 zipf keys): about 3637 values, 2 levels
  EXPECT_EQ(md::levels_to_one_value(609, 522, 45, n, local, 8, 8), 2);
  // 1012 seen, 1000 once, 12 twice (ids in [0, 50000)): about 42679 values of 3145 keys each
  EXPECT_EQ(md::levels_to_one_value(1012, 1000, 12, n, local, 8, 8), 0);
  EXPECT_EQ(md::levels_to_one_value(300, 0, 0, n, local, 8, 1), 1);  // at most the levels that sort
  EXPECT_EQ(md::levels_to_one_value(0, 0, 0, n, local, 8, 8), 0);
  EXPECT_EQ(md::levels_to_one_value(16, 0, 0, 16 * local, local, 8, 8), 0);  // a local sort's worth each: no
}

namespace {

// Ordered bits of doubles under CUB's ascending order (the key transform
// under test elsewhere), sorted.
std::vector<std::uint64_t> ordered_doubles(const std::vector<double>& x) {
  using traits = gpusort::detail::key_traits<double>;
  const gpusort::detail::key_order<double> ord(false, 0, 64);
  std::vector<std::uint64_t> o;
  o.reserve(x.size());
  for (double v : x) o.push_back(ord.rank(traits::twiddle(std::bit_cast<std::uint64_t>(v))));
  std::sort(o.begin(), o.end());
  return o;
}

struct class_map {
  std::vector<std::uint16_t> entry = std::vector<std::uint16_t>(md::class_codes::classes);
  bool made = false;
  explicit class_map(const std::vector<std::uint64_t>& o) {
    std::vector<unsigned long long> count(md::class_codes::classes);
    for (std::uint64_t k : o) ++count[k >> md::class_codes::mantissa_bits];
    made = md::make_class_codes(count.data(), entry.data());
  }
  std::uint64_t operator()(std::uint64_t o) const { return md::class_key(o, entry.data()); }
};

}  // namespace

// The first level's class codes for doubles (msd_classes.hpp): on sorted
// ordered keys the map is strictly increasing over distinct keys and equal
// over equal ones, every code is below 256, a pad (all ones) maps at or
// above every key, and the first level's largest bucket is near n / 256
// where the classes allow it (normal and unit doubles: two 8-bit levels then
// leave 2^27 keys in buckets of a local sort).
TEST(RadixMsdClasses, CodesAreMonotoneAndBalanced) {
  std::mt19937_64 rng(7);
  const std::size_t n = std::size_t(1) << 20;
  struct shape {
    const char* name;
    std::vector<double> x;
    double most;  // the largest first-level bucket must hold at most this share
  };
  std::vector<shape> shapes;
  {
    std::normal_distribution<double> d;
    std::vector<double> x(n);
    for (auto& v : x) v = d(rng);
    shapes.push_back({"normal", x, 0.02});  // the density falls 4.5x over [1, 2)
  }
  {
    std::uniform_real_distribution<double> d(0.0, 1.0);
    std::vector<double> x(n);
    for (auto& v : x) v = d(rng);
    shapes.push_back({"unit", x, 0.0125});
  }
  {
    std::uniform_int_distribution<std::int64_t> d(-(std::int64_t(1) << 31), (std::int64_t(1) << 31) - 1);
    std::vector<double> x(n);
    for (auto& v : x) v = double(d(rng));
    shapes.push_back({"small_signed", x, 0.0125});
  }
  {
    std::vector<double> x(n);
    for (std::size_t i = 0; i < n; ++i) x[i] = double(rng() >> 11) * 0x1.0p-53 * (i % 3 == 0 ? -1.0 : 1.0);
    x[0] = 0.0;  // the fold's zeros, infinities and a NaN of each sign
    x[1] = -0.0;
    x[2] = std::numeric_limits<double>::infinity();
    x[3] = -std::numeric_limits<double>::infinity();
    x[4] = std::numeric_limits<double>::quiet_NaN();
    x[5] = -std::numeric_limits<double>::quiet_NaN();
    shapes.push_back({"specials", x, 1.0});
  }
  for (const auto& s : shapes) {
    const auto o = ordered_doubles(s.x);
    const class_map c(o);
    ASSERT_TRUE(c.made) << s.name;
    std::vector<std::size_t> bucket(md::class_codes::codes);
    for (std::size_t i = 0; i < o.size(); ++i) {
      const std::uint64_t ci = c(o[i]);
      ++bucket[ci >> 56];
      if (i > 0) {
        const std::uint64_t prev = c(o[i - 1]);
        if (o[i] == o[i - 1]) ASSERT_EQ(ci, prev) << s.name << " at " << i;
        else ASSERT_LT(prev, ci) << s.name << " at " << i;
      }
      ASSERT_LT(ci, c(~std::uint64_t(0))) << s.name << ": a pad not above a key";
    }
    ASSERT_EQ(c(~std::uint64_t(0)), ~std::uint64_t(0)) << s.name << ": a pad takes every digit's largest value";
    const std::size_t most = *std::max_element(bucket.begin(), bucket.end());
    EXPECT_LE(double(most), s.most * double(n)) << s.name << ": largest first-level bucket " << most;
  }
}

// Class counts as the plan sees them: at most 256 codes in all, each
// occupied class at least one, bases in class order; more than 256
// occupied classes, or none, make no map.
TEST(RadixMsdClasses, CodeBudget) {
  using C = md::class_codes;
  std::vector<unsigned long long> count(C::classes);
  std::vector<std::uint16_t> entry(C::classes);
  EXPECT_FALSE(md::make_class_codes(count.data(), entry.data()));
  std::mt19937_64 rng(11);
  for (int trial = 0; trial < 200; ++trial) {
    std::fill(count.begin(), count.end(), 0ull);
    const int k = 1 + int(rng() % 300);
    for (int i = 0; i < k; ++i) count[rng() % C::classes] += 1 + (rng() % 4 == 0 ? rng() % 1000000 : rng() % 10);
    const int occupied = int(std::count_if(count.begin(), count.end(), [](unsigned long long v) { return v != 0; }));
    const bool made = md::make_class_codes(count.data(), entry.data());
    ASSERT_EQ(made, occupied <= C::codes) << "trial " << trial;
    if (!made) continue;
    unsigned next = 0;
    for (int e = 0; e < C::classes; ++e) {
      if (count[e] == 0) continue;
      const unsigned base = entry[e] >> 4, b = entry[e] & C::b_mask;
      ASSERT_EQ(base, next) << "trial " << trial << " class " << e;
      ASSERT_LE(b, 8u);
      next = base + (1u << b);
    }
    ASSERT_LE(next, unsigned(C::codes)) << "trial " << trial;
  }
}

// A class's code bits from their definition: the fewest b (at most 8) for
// which 2^b codes of ceil(count / 2^b) keys each hold at most t keys,
// found by dividing, over small counts and thresholds and large ones.
TEST(RadixMsdClasses, CodeBitsAreTheFewestThatHoldT) {
  const auto fewest = [](unsigned long long count, unsigned long long t) {
    unsigned b = 0;
    while (b < 8 && (count + (1ull << b) - 1) / (1ull << b) > t) ++b;
    return b;
  };
  for (unsigned long long count = 0; count < 600; ++count)
    for (unsigned long long t = 0; t < 600; ++t)
      ASSERT_EQ(md::class_code_bits(count, t), fewest(count, t)) << count << " keys, threshold " << t;
  std::mt19937_64 rng(13);
  for (int trial = 0; trial < 100000; ++trial) {
    const unsigned long long count = rng() >> (24 + rng() % 40), t = rng() >> (24 + rng() % 40);
    ASSERT_EQ(md::class_code_bits(count, t), fewest(count, t)) << count << " keys, threshold " << t;
  }
}

// The levels below the first take a bucket's digits by its lift
// (msd_classes.hpp class_lift) instead of the class map: for every key of a
// class, every digit under the code (shifts 0 to 48) of (o << lift) >> s is
// class_key's, and all ones (a pad) takes a digit no key of the class tops.
TEST(RadixMsdClasses, LiftGivesTheMappedDigitsBelowTheCode) {
  using C = md::class_codes;
  std::mt19937_64 rng(17);
  std::vector<unsigned long long> count(C::classes);
  std::vector<std::uint16_t> entry(C::classes);
  for (int trial = 0; trial < 50; ++trial) {
    std::fill(count.begin(), count.end(), 0ull);
    const int k = 1 + int(rng() % 200);
    std::vector<unsigned> classes;
    for (int i = 0; i < k; ++i) {
      const unsigned e = unsigned(rng() % C::classes);
      count[e] += 1 + (rng() % 3 == 0 ? rng() % 10000000 : rng() % 100);
      classes.push_back(e);
    }
    ASSERT_TRUE(md::make_class_codes(count.data(), entry.data()));
    for (int key = 0; key < 2000; ++key) {
      const unsigned e = classes[rng() % classes.size()];
      const std::uint64_t o = std::uint64_t(e) << C::mantissa_bits | (rng() >> C::class_bits);
      if (o == ~std::uint64_t(0)) continue;
      const unsigned lift = md::class_lift(o, entry.data());
      const std::uint64_t c = md::class_key(o, entry.data());
      for (unsigned s = 0; s + C::code_bits <= C::mantissa_bits + 4; s += C::code_bits) {
        const unsigned d = unsigned((o << lift) >> s) & 255u;
        ASSERT_EQ(d, unsigned(c >> s) & 255u) << "trial " << trial << " class " << e << " shift " << s;
        ASSERT_LE(d, unsigned((~std::uint64_t(0) << lift) >> s) & 255u) << "a pad below key " << o;
      }
    }
  }
}

// The class every NaN folds into (msd_classes.hpp nan_class), from the
// order's own rank: under NaNs largest every NaN of either sign and any
// payload ranks in that class, but the descending pad's pattern, which the
// fold ranks last and which ranks last by its bits too; no finite key does
// (+inf may: the test is conservative); CUB's order names no class.
TEST(RadixMsdClasses, NanClassHoldsEveryFoldedNaN) {
  using C = md::class_codes;
  using gpusort::detail::key_order;
  using gpusort::detail::key_traits;
  std::mt19937_64 rng(31);
  auto class_of = [](const key_order<double>& o, std::uint64_t raw) {
    return unsigned(o.key_rank(std::bit_cast<double>(raw)) >> C::mantissa_bits);
  };
  for (const bool desc : {false, true}) {
    const key_order<double> bits_order(desc, 0, 64, false), o(desc, 0, 64, true);
    EXPECT_EQ(md::nan_class(bits_order), unsigned(C::classes)) << "desc=" << desc;
    const unsigned nc = md::nan_class(o);
    EXPECT_EQ(nc, desc ? 0u : unsigned(C::classes - 1));
    const std::uint64_t pad_raw = std::bit_cast<std::uint64_t>(key_traits<double>::from_bits(o.nan_pad));
    for (int i = 0; i < 100000; ++i) {
      std::uint64_t raw = 0x7FF0000000000000ull | (rng() & 0x000FFFFFFFFFFFFFull) | (i % 3 == 0 ? 1ull : 0ull);
      if (i % 2) raw |= 0x8000000000000000ull;
      if ((raw & 0x000FFFFFFFFFFFFFull) == 0) raw |= 1;  // a NaN, not an infinity
      if (raw == pad_raw) continue;
      ASSERT_EQ(class_of(o, raw), nc) << std::hex << raw << " desc=" << desc;
    }
    if (desc) {  // the pad's pattern: last with the fold and by its bits
      EXPECT_EQ(o.key_rank(std::bit_cast<double>(pad_raw)), ~std::uint64_t(0));
      EXPECT_GT(bits_order.key_rank(std::bit_cast<double>(pad_raw)),
                bits_order.key_rank(-std::numeric_limits<double>::infinity()));
    }
    for (int i = 0; i < 100000; ++i) {
      std::uint64_t raw = rng();
      if ((raw & 0x7FF0000000000000ull) == 0x7FF0000000000000ull) raw ^= 0x0010000000000000ull;  // finite
      ASSERT_NE(class_of(o, raw), nc) << std::hex << raw << " desc=" << desc;
    }
    for (const double d : {0.0, -0.0, std::numeric_limits<double>::max(), -std::numeric_limits<double>::max(),
                           std::numeric_limits<double>::denorm_min(), -std::numeric_limits<double>::infinity()})
      EXPECT_NE(class_of(o, std::bit_cast<std::uint64_t>(d)), nc) << d << " desc=" << desc;
  }
}

// run_share (msd_plan.hpp): of runs that tile [0, n), listed in any order,
// exactly one is the edge run (ending at n ascending, starting at 0
// descending; an empty run never is), and the instance beside the edge
// one takes every run but it.
TEST(RadixMsdPlan, EdgeRunIsTheOneAtTheOrdersEnd) {
  std::mt19937_64 rng(41);
  for (int trial = 0; trial < 200; ++trial) {
    const std::size_t n = 1 + rng() % 100000;
    std::vector<md::run> runs;
    for (std::size_t at = 0; at < n;) {
      const std::size_t size = std::min<std::size_t>(n - at, 1 + rng() % 7000);
      runs.push_back(md::run{at, size, int(rng() % 3), 0});
      at += size;
    }
    runs.push_back(md::run{n, 0, 0, 0});  // an empty run at the end
    std::shuffle(runs.begin(), runs.end(), rng);
    for (const bool desc : {false, true}) {
      const md::run_share all{false, desc, n}, others{true, desc, n};
      int edges = 0;
      for (const md::run& r : runs) {
        const bool edge = others.is_edge(r);
        edges += edge;
        if (edge) {
          EXPECT_EQ(desc ? r.begin : r.begin + r.size, desc ? 0u : n) << "trial " << trial;
        }
        EXPECT_TRUE(all.takes(r));
        EXPECT_EQ(others.takes(r), !edge);
      }
      EXPECT_EQ(edges, 1) << "trial " << trial << " desc=" << desc;
    }
  }
}

// The affine map of 64-bit integers (msd_ints.hpp), from first principles:
// for spans [lo, hi] of every width, c = (o - lo) << s must be strictly
// increasing over the span (checked on sorted random keys and the ends),
// put the span's top bit at the top of a digit (c of hi has its top digit's
// high bit set, every digit above it 0), and leave the pad's c at least
// every key's in every digit. Spans of three digits or less, spans aligned
// to a digit, and the full range take no map.
TEST(RadixMsdInts, MapIsIncreasingAndAligned) {
  std::mt19937_64 rng(21);
  for (int w = 1; w <= 64; ++w)
    for (int trial = 0; trial < 20; ++trial) {
      const unsigned long long range = w == 64 ? ~0ull : (1ull << w) - 1 - (trial == 0 ? 0 : rng() % (1ull << (w - 1)));
      const unsigned long long lo = trial % 3 == 0 ? 0ull : trial % 3 == 1 ? ~range - rng() % (1ull << 20) : rng() & ~range;
      const unsigned long long hi = lo + range;
      const md::int_map m = md::int_map_of(lo, hi, 8);
      const int width = std::bit_width(range);
      const bool want = width > 24 && width < 64 && width % 8 != 0;
      ASSERT_EQ(bool(m.ok), want) << "w " << w << " trial " << trial;
      if (!m.ok) {
        ASSERT_EQ(m.base, 0ull);
        ASSERT_EQ(m.shift, 0u);
        ASSERT_EQ(md::int_mapped(lo, m), lo);
        continue;
      }
      ASSERT_EQ((width + int(m.shift)) % 8, 0) << "w " << w;
      const int top = md::int_top_digit(lo, hi, m, 8);
      ASSERT_EQ(top, (width + int(m.shift)) / 8 - 1);
      const unsigned long long chi = md::int_mapped(hi, m);
      ASSERT_GE((chi >> (8 * top)) & 255u, 128u) << "w " << w << ": the top digit is not full";
      std::vector<unsigned long long> keys = {lo, hi, lo + 1, hi - 1};
      for (int i = 0; i < 200; ++i) keys.push_back(lo + rng() % (range + 1));
      std::sort(keys.begin(), keys.end());
      keys.erase(std::unique(keys.begin(), keys.end()), keys.end());
      const unsigned long long pad = md::int_mapped(md::int_pad_ordered(m), m);
      for (std::size_t i = 0; i < keys.size(); ++i) {
        const unsigned long long c = md::int_mapped(keys[i], m);
        if (i > 0) {
          ASSERT_LT(md::int_mapped(keys[i - 1], m), c) << "w " << w << ": not increasing";
        }
        if (top < 7) {
          ASSERT_EQ(c >> (8 * (top + 1)), 0ull) << "w " << w << ": a digit above the top varies";
        }
        for (int d = 0; d < 8; ++d) ASSERT_GE((pad >> (8 * d)) & 255u, (c >> (8 * d)) & 255u) << "w " << w;
      }
    }
}
