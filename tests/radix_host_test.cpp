// Host suite: the radix family's host-checkable logic, exhaustively.
//   OnesweepPlan   every pass-skip pattern, in place or not: the launches
//                  read what the previous one wrote, never write what they
//                  read, leave the input alone, and end in the output
//   Digits         digit_map against key_order::rank for every key type and
//                  every bit range, as each kernel extracts them
//   PassKey        radix::pass_key's offset carry: a bijection that keeps
//                  the order of keys at or above the base, digits glue to
//                  rank - base; span_passes
// radix_msd's host-checkable logic: radix_msd_host_test.cpp.
#include "key_types.hpp"
#include "radix/digit.cuh"
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
namespace rx = gpusort::detail::radix;

// Simulates radix_onesweep's launches on three buffers: the presorted
// launch (plan[slots]) first, then the pass launches; a buffer's content is
// the list of passes applied to the input so far.
struct plan_run {
  bool in_place;
  std::vector<int> content[3];
  bool valid[3];
  int latest = gpusort::detail::radix_onesweep::buf_in;
  explicit plan_run(bool ip) : in_place(ip), valid{true, ip, false} {}
  int phys(int b) const { return in_place && b == os::buf_in ? int(os::buf_out) : b; }
  // one launch that moves (sorts pass `pass`, or copies/reverses: -1)
  void step(const os::slot_plan& pl, int pass, const std::string& what) {
    ASSERT_EQ(pl.src, latest) << what << " reads stale data";
    ASSERT_NE(pl.dst, int(os::buf_in)) << what << " writes the input";
    ASSERT_NE(phys(pl.src), phys(pl.dst)) << what << " reads what it writes";
    ASSERT_TRUE(valid[phys(pl.src)]) << what;
    content[phys(pl.dst)] = content[phys(pl.src)];
    if (pass >= 0) content[phys(pl.dst)].push_back(pass);
    valid[phys(pl.dst)] = true;
    latest = pl.dst;
  }
};

TEST(RadixOnesweepPlan, EveryPatternEndsInTheOutput) {
  for (int passes = 1; passes <= 8; ++passes)
    for (int in_place = 0; in_place < 2; ++in_place)
      for (unsigned mask = 0; mask < (1u << passes); ++mask) {
        const int slots = passes + (in_place && passes % 2 == 1 ? 1 : 0);  // as the host launches
        int skip[8];
        for (int p = 0; p < passes; ++p) skip[p] = (mask >> p) & 1u;
        os::slot_plan plan[10];
        os::make_plan(skip, passes, slots, in_place != 0, plan);
        os::hoist_lone_copy(slots, plan);
        const std::string what = "passes=" + std::to_string(passes) + " in_place=" + std::to_string(in_place) +
                                 " skip=" + std::to_string(mask);
        plan_run run(in_place != 0);
        std::vector<int> expect;
        bool sorts_any = false;
        for (int p = 0; p < passes; ++p) sorts_any = sorts_any || !skip[p];
        // the presorted launch copies (a plan that sorts nothing) or does nothing
        const auto& pre = plan[slots];
        ASSERT_TRUE(pre.mode == os::slot_skip || pre.mode == os::slot_copy) << what;
        ASSERT_TRUE(pre.mode == os::slot_skip || !sorts_any) << what << ": a copy before a sort";
        if (pre.mode == os::slot_copy) run.step(pre, -1, what + " presorted");
        for (int s = 0; s < slots; ++s) {
          const auto& pl = plan[s];
          const bool sorts = s < passes && !skip[s];
          if (sorts) expect.push_back(s);
          if (pl.mode == os::slot_skip) {
            ASSERT_FALSE(sorts) << what << ": pass " << s << " was skipped";
            continue;
          }
          ASSERT_EQ(pl.mode == os::slot_sort, sorts) << what << " slot " << s;
          ASSERT_TRUE(sorts_any || pl.mode != os::slot_copy) << what << " slot " << s << ": a lone copy left in the passes";
          run.step(pl, sorts ? s : -1, what + " slot " + std::to_string(s));
        }
        EXPECT_EQ(run.content[os::buf_out], expect) << what;
        EXPECT_TRUE(run.latest == os::buf_out || (run.latest == os::buf_in && in_place)) << what;
        if (!in_place) {
          EXPECT_TRUE(run.content[os::buf_in].empty()) << what << ": the input was written";
        }
      }
}

// The plans of one presorted move (the reversal; the counting pass of keys
// of few values): that launch moves from the input, never onto it; in
// place, one pass launch copies it back; every other launch skips, and the
// last write is the output.
TEST(RadixOnesweepPlan, PresortedMoveEndsInTheOutput) {
  for (const auto mode : {os::slot_reverse, os::slot_values})
    for (int passes = 1; passes <= 8; ++passes)
      for (int in_place = 0; in_place < 2; ++in_place) {
        const int slots = passes + (in_place && passes % 2 == 1 ? 1 : 0);  // as the host launches
        os::slot_plan plan[10];
        if (mode == os::slot_reverse) os::make_reverse_plan(slots, in_place != 0, plan);
        else os::make_values_plan(slots, in_place != 0, plan);
        const std::string what = "mode=" + std::to_string(int(mode)) + " passes=" + std::to_string(passes) +
                                 " in_place=" + std::to_string(in_place);
        plan_run run(in_place != 0);
        ASSERT_EQ(plan[slots].mode, mode) << what;
        run.step(plan[slots], -1, what + " presorted");
        for (int s = 0; s < slots; ++s) {
          if (plan[s].mode == os::slot_skip) continue;
          ASSERT_EQ(plan[s].mode, os::slot_copy) << what;
          run.step(plan[s], -1, what + " slot " + std::to_string(s));
        }
        EXPECT_EQ(run.latest, os::buf_out) << what;
        EXPECT_TRUE(run.content[os::buf_out].empty()) << what;
      }
}

// Every bit range [b, e) of the key (begin_bit not a multiple of 8, widths
// not a multiple of 8, one bit, the whole key), both orders, digits of 1 and
// 8 bits, extracted both ways the kernels do: digit_map::of(...)(raw) (block
// sort, onesweep passes, split) and pass 0's ordered() followed by pass p's
// from_ordered() (the onesweep histogram). Glued together they must be
// key_order::rank; digits are counted from the top of the range, the first
// one takes what is left at begin_bit, none reaches past end_bit (a wider mask lets
// bits above end_bit take part, as GpuRadix BitRanges once caught) and pads
// rank last in every digit. The device side of the same extraction is
// checked by GpuRadixDigits (gpu_radix_test.cu): a host-only test cannot see
// device code generation (std::popcount compiled to nothing there).
template <class K> void check_digits_every_range() {
  using traits = gpusort::detail::key_traits<K>;
  using bits = typename traits::bits;
  using order = gpusort::detail::key_order<K>;
  std::mt19937_64 rng(13);
  const int w = traits::width;
  std::vector<bits> keys = {bits(0), bits(~bits(0)), traits::untwiddle(order::minus_zero),
                            traits::untwiddle(order::plus_zero), traits::sign, bits(traits::sign - 1)};
  while (keys.size() < 64) keys.push_back(bits(rng()));
  for (int b = 0; b < w; ++b)
    for (int e = b + 1; e <= w; ++e)
      for (int desc = 0; desc < 2; ++desc) {
        const order ord(desc != 0, b, e);
        ASSERT_EQ(rx::range_bits(ord), e - b) << "bits=[" << b << "," << e << ")";
        for (int radix_bits : {1, 8}) {
          const int passes = rx::pass_count(ord, radix_bits);
          ASSERT_EQ(passes, (e - b + radix_bits - 1) / radix_bits);
          const auto first = rx::digit_map<K>::of(ord, radix_bits, 0);
          for (int p = 0; p < passes; ++p) {
            const auto d = rx::digit_map<K>::of(ord, radix_bits, p);
            // counted from the top: the last digit is radix_bits wide, the first what is left
            const int hi = e - b - radix_bits * (passes - 1 - p), lo = std::max(0, hi - radix_bits);
            ASSERT_EQ(rx::digit_low(ord, radix_bits, p), lo);
            ASSERT_EQ(d.mask, (1u << (hi - lo)) - 1)
                << "bits=[" << b << "," << e << ") radix=" << radix_bits << " pass " << p << ": digit mask";
            ASSERT_EQ(d.shift, unsigned(b + lo));
            ASSERT_EQ(d(rx::pad_bits(ord)), d.mask) << "pads rank last";
            ASSERT_EQ(d.of_carried(d.carry(rx::pad_bits(ord))), d.mask) << "pads rank last (carried)";
          }
          for (bits raw : keys) {
            std::uint64_t glued = 0, glued_hist = 0;
            for (int p = 0; p < passes; ++p) {
              const auto d = rx::digit_map<K>::of(ord, radix_bits, p);
              const int at = rx::digit_low(ord, radix_bits, p);
              glued |= std::uint64_t(d(raw)) << at;
              glued_hist |= std::uint64_t(d.from_ordered(first.ordered(raw))) << at;
              // onesweep passes: carry() on load, of_carried() per digit, uncarry() on store
              ASSERT_EQ(d.of_carried(d.carry(raw)), d(raw)) << "carried digit: desc=" << desc << " bits=[" << b
                                                            << "," << e << ") raw=" << std::uint64_t(raw);
              ASSERT_EQ(d.uncarry(d.carry(raw)), raw) << "carry must be a bijection";
            }
            const std::uint64_t want = ord.rank(traits::twiddle(raw));
            ASSERT_EQ(glued, want) << "desc=" << desc << " bits=[" << b << "," << e << ") radix=" << radix_bits
                                   << " raw=" << std::uint64_t(raw);
            ASSERT_EQ(glued_hist, want) << "histogram digits: desc=" << desc << " bits=[" << b << "," << e
                                        << ") radix=" << radix_bits << " raw=" << std::uint64_t(raw);
          }
        }
      }
}

// core/bit_width.hpp on the host, against loops over the bits (the GPU
// twin, GpuBitWidth.MatchesLoops, runs the device forms).
TEST(CoreBitWidth, MatchesLoops) {
  std::mt19937_64 rng(3);
  for (int t = 0; t < 1200; ++t) {
    // all ones below bit t, a single bit t, then random words (some shifted down)
    const std::uint64_t x = t < 65    ? (t == 64 ? ~0ull : (1ull << t) - 1)
                            : t < 129 ? 1ull << (t - 65) % 64
                                      : rng() >> (t % 64);
    int count = 0, width = 0;
    for (int i = 0; i < 64; ++i)
      if ((x >> i) & 1u) {
        ++count;
        width = i + 1;
      }
    int log = 0;
    while (log < 64 && (std::uint64_t(1) << log) < x) ++log;
    ASSERT_EQ(gpusort::detail::popcount64(x), count) << x;
    ASSERT_EQ(gpusort::detail::bit_width64(x), width) << x;
    ASSERT_EQ(gpusort::detail::ceil_log2(x), log) << x;
  }
}

// The digits of every pass put together are key_order::rank.
template <class K> void check_digits() {
  using traits = gpusort::detail::key_traits<K>;
  using bits = typename traits::bits;
  std::mt19937_64 rng(11);
  const int w = traits::width;
  for (int desc = 0; desc < 2; ++desc)
    for (auto [b, e] : {std::pair{0, w}, {0, w / 2}, {3, w - 1}, {w - 1, w}, {1, 2}}) {
      const gpusort::detail::key_order<K> ord(desc != 0, b, e);
      for (int radix_bits : {1, 8}) {
        const int passes = rx::pass_count(ord, radix_bits);
        ASSERT_EQ(passes, (e - b + radix_bits - 1) / radix_bits);
        for (int t = 0; t < 2000; ++t) {
          bits raw = bits(rng());
          if (t == 0) raw = traits::untwiddle(gpusort::detail::key_order<K>::minus_zero);  // -0.0
          std::uint64_t glued = 0;
          for (int p = 0; p < passes; ++p) {
            const auto d = rx::digit_map<K>::of(ord, radix_bits, p);
            glued |= std::uint64_t(d(raw)) << rx::digit_low(ord, radix_bits, p);
          }
          ASSERT_EQ(glued, std::uint64_t(ord.rank(traits::twiddle(raw)))) << "desc=" << desc << " bits=[" << b << ","
                                                                          << e << ") radix=" << radix_bits;
        }
        // pads rank last in every digit
        for (int p = 0; p < passes; ++p) {
          const auto d = rx::digit_map<K>::of(ord, radix_bits, p);
          ASSERT_EQ(d(rx::pad_bits(ord)), d.mask);
        }
      }
    }
}

template <class K> class RadixDigits : public ::testing::Test {};
TYPED_TEST_SUITE(RadixDigits, gpusort_test::key_types, gpusort_test::key_name);
TYPED_TEST(RadixDigits, GlueToRank) { check_digits<TypeParam>(); }
TYPED_TEST(RadixDigits, EveryBitRange) { check_digits_every_range<TypeParam>(); }

// "Only the bits that vary" (radix::pass_key): integer keys carried as
// ordered - base. Carrying is a bijection for any base; over keys whose
// ordered bits are at least base it keeps their order, and the digits of
// the carried bits glued together are rank - base; pads rank last in every
// digit. Floats carry as digit_map does and take no base.
template <class K> void check_pass_key() {
  using traits = gpusort::detail::key_traits<K>;
  using bits = typename traits::bits;
  std::mt19937_64 rng(29);
  const int w = traits::width;
  for (int desc = 0; desc < 2; ++desc) {
    const gpusort::detail::key_order<K> ord(desc != 0, 0, w);
    for (int t = 0; t < 200; ++t) {
      const bits base = rx::pass_key<K>::offsets && t > 0 ? bits(rng()) : bits(0);
      for (int p = 0; p < rx::pass_count(ord, 8); ++p) {
        const auto d = rx::digit_map<K>::of(ord, 8, p);
        const rx::pass_key<K> pk(d, base);
        ASSERT_EQ(pk.of_carried(pk.carried_pad(rx::pad_bits(ord))), d.mask) << "pad, pass " << p;
      }
      for (int i = 0; i < 200; ++i) {
        const bits a = bits(rng()), b = bits(rng());
        std::uint64_t glued = 0;
        for (int p = 0; p < rx::pass_count(ord, 8); ++p) {
          const auto d = rx::digit_map<K>::of(ord, 8, p);
          const rx::pass_key<K> pk(d, base);
          ASSERT_EQ(pk.uncarry(pk.carry(a)), a) << "bijection";
          glued |= std::uint64_t(pk.of_carried(pk.carry(a))) << rx::digit_low(ord, 8, p);
        }
        const bits ra = ord.rank(traits::twiddle(a)), rb = ord.rank(traits::twiddle(b));
        ASSERT_EQ(glued, std::uint64_t(bits(ra - base))) << "desc=" << desc;
        if (rx::pass_key<K>::offsets && ra >= base && rb >= base) {
          const auto d = rx::digit_map<K>::of(ord, 8, 0);
          const rx::pass_key<K> pk(d, base);
          ASSERT_EQ(pk.carry(a) < pk.carry(b), ra < rb) << "order kept";
        }
      }
    }
  }
}

template <class K> class RadixPassKey : public ::testing::Test {};
TYPED_TEST_SUITE(RadixPassKey, gpusort_test::key_types, gpusort_test::key_name);
TYPED_TEST(RadixPassKey, OffsetCarryKeepsOrder) { check_pass_key<TypeParam>(); }

TEST(RadixOnesweepPlan, SpanPasses) {
  EXPECT_EQ(os::span_passes(5, 5, 8), 0);
  EXPECT_EQ(os::span_passes(0, 255, 8), 1);
  EXPECT_EQ(os::span_passes(0, 256, 8), 2);
  EXPECT_EQ(os::span_passes(0, ~0ull, 8), 8);
  // int64 in [-2^31, 2^31), ordered: 4 passes
  EXPECT_EQ(os::span_passes(0x7FFFFFFF80000000ull, 0x800000007FFFFFFFull, 8), 4);
  EXPECT_EQ(os::span_passes(0x7FFFFFFF80000000ull, 0x8000000080000000ull, 8), 5);
}

}  // namespace
