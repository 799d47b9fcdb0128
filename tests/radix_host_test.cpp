// Host suite: the radix family's host-checkable logic, exhaustively.
//   OnesweepPlan   every pass-skip pattern, in place or not: the launches
//                  read what the previous one wrote, never write what they
//                  read, leave the input alone, and end in the output
//   TileMerge      the chunking of radix_tile's merge levels, emulated with
//                  the library's merge_path: chunks tile each pair exactly
//                  and the result is the stable merge
//   Digits         digit_map against key_order::rank for every key type and
//                  every bit range, as each kernel extracts them
#include "key_types.hpp"
#include "merge/merge_path.cuh"
#include "radix/digit.cuh"
#include "radix/merge_chunk.hpp"
#include "radix/onesweep_plan.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

namespace {

namespace os = gpusort::detail::radix_onesweep;
namespace rx = gpusort::detail::radix;

// Simulates the plan on three buffers; a buffer's content is the list of
// passes applied to the input so far.
TEST(RadixOnesweepPlan, EveryPatternEndsInTheOutput) {
  for (int passes = 1; passes <= 8; ++passes)
    for (int in_place = 0; in_place < 2; ++in_place)
      for (unsigned mask = 0; mask < (1u << passes); ++mask) {
        const int slots = passes + (in_place && passes % 2 == 1 ? 1 : 0);  // as the host launches
        int skip[8];
        for (int p = 0; p < passes; ++p) skip[p] = (mask >> p) & 1u;
        os::slot_plan plan[9];
        os::make_plan(skip, passes, slots, in_place != 0, plan);
        const std::string what = "passes=" + std::to_string(passes) + " in_place=" + std::to_string(in_place) +
                                 " skip=" + std::to_string(mask);
        // physical buffers: in place, the input *is* the output
        auto phys = [&](int b) { return in_place && b == os::buf_in ? int(os::buf_out) : b; };
        std::vector<int> content[3];
        bool valid[3] = {true, !in_place ? false : true, false};  // what holds live data
        int latest = os::buf_in;
        std::vector<int> expect;
        for (int s = 0; s < slots; ++s) {
          const auto& pl = plan[s];
          const bool sorts = s < passes && !skip[s];
          if (sorts) expect.push_back(s);
          if (pl.mode == os::slot_skip) {
            ASSERT_FALSE(sorts) << what << ": pass " << s << " was skipped";
            continue;
          }
          ASSERT_EQ(pl.mode == os::slot_sort, sorts) << what << " slot " << s;
          ASSERT_EQ(pl.src, latest) << what << " slot " << s << " reads stale data";
          ASSERT_NE(pl.dst, int(os::buf_in)) << what << " slot " << s << " writes the input";
          ASSERT_NE(phys(pl.src), phys(pl.dst)) << what << " slot " << s << " reads what it writes";
          ASSERT_TRUE(valid[phys(pl.src)]) << what << " slot " << s;
          content[phys(pl.dst)] = content[phys(pl.src)];
          if (sorts) content[phys(pl.dst)].push_back(s);
          valid[phys(pl.dst)] = true;
          latest = pl.dst;
        }
        EXPECT_EQ(content[os::buf_out], expect) << what;
        EXPECT_TRUE(latest == os::buf_out || (latest == os::buf_in && in_place)) << what;
        if (!in_place) {
          EXPECT_TRUE(content[os::buf_in].empty()) << what << ": the input was written";
        }
      }
}

// One merge level of runs of `run`, chunk by chunk, as tile_merge.cuh does.
void merge_level(const std::vector<std::pair<int, int>>& in, std::vector<std::pair<int, int>>& out, std::size_t run,
                 std::size_t chunk) {
  const std::size_t n = in.size();
  auto key = [](const std::pair<int, int>& x) { return x.first; };
  struct view {
    const std::pair<int, int>* p;
    int operator[](std::size_t i) const { return p[i].first; }
  };
  auto less = [](int x, int y) { return x < y; };
  const std::size_t chunks = rx::merge_chunks(n, run, chunk);
  std::vector<std::size_t> parts(chunks, 0);
  for (std::size_t c = 0; c < chunks; ++c) {
    const auto m = rx::merge_chunk::at(c, n, run, chunk);
    if (m.diag >= m.na + m.nb) continue;
    parts[c] = gpusort::detail::merge_path(view{&in[m.a0]}, m.na, view{&in[m.b0]}, m.nb, m.diag, less);
  }
  std::vector<int> written(n, 0);
  for (std::size_t c = 0; c < chunks; ++c) {
    const auto m = rx::merge_chunk::at(c, n, run, chunk);
    if (m.diag >= m.na + m.nb) continue;
    const std::size_t a_lo = parts[c], a_hi = m.last_of_pair ? m.na : parts[c + 1];
    std::size_t ia = m.a0 + a_lo, ib = m.b0 + (m.diag - a_lo);
    const std::size_t a_end = m.a0 + a_hi, b_end = m.b0 + (m.diag_end - a_hi);
    for (std::size_t o = m.a0 + m.diag; o < m.a0 + m.diag_end; ++o) {
      const bool take_a = ib >= b_end || (ia < a_end && !(key(in[ib]) < key(in[ia])));
      out[o] = take_a ? in[ia++] : in[ib++];
      ++written[o];
    }
    ASSERT_EQ(ia, a_end);
    ASSERT_EQ(ib, b_end);
  }
  for (std::size_t i = 0; i < n; ++i) ASSERT_EQ(written[i], 1) << "output " << i;
}

TEST(RadixTileMerge, ChunksMergeStably) {
  std::mt19937 rng(7);
  for (std::size_t n : {1, 2, 3, 7, 8, 9, 31, 64, 65, 100, 257, 1000})
    for (std::size_t first_run : {1, 2, 3, 8})
      for (std::size_t chunk : {1, 2, 3, 5, 16}) {
        std::vector<std::pair<int, int>> v(n);
        for (std::size_t i = 0; i < n; ++i) v[i] = {int(rng() % 5), int(i)};
        for (std::size_t i = 0; i < n; i += first_run)
          std::stable_sort(v.begin() + i, v.begin() + std::min(n, i + first_run));
        auto want = v;
        std::stable_sort(want.begin(), want.end(), [](auto& x, auto& y) { return x.first < y.first; });
        std::vector<std::pair<int, int>> out(n);
        for (std::size_t run = first_run; run < n; run *= 2) {
          merge_level(v, out, run, chunk);
          if (testing::Test::HasFatalFailure()) return;
          v.swap(out);
        }
        ASSERT_EQ(v, want) << "n=" << n << " run=" << first_run << " chunk=" << chunk;
        const std::size_t most = rx::merge_parts(n, first_run, chunk);
        for (std::size_t run = first_run; run < n; run *= 2) ASSERT_LE(rx::merge_chunks(n, run, chunk), most);
      }
}

// Every bit range [b, e) of the key (begin_bit not a multiple of 8, widths
// not a multiple of 8, one bit, the whole key), both orders, digits of 1 and
// 8 bits, extracted both ways the kernels do: digit_map::of(...)(raw) (block
// sort, onesweep passes, split) and pass 0's ordered() followed by pass p's
// from_ordered() (the onesweep histogram). Glued together they must be
// key_order::rank; the last digit is clipped at end_bit (a wider mask lets
// bits above end_bit take part: the H200 failures of BitRanges) and pads
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
            const int width = std::min(radix_bits, e - b - radix_bits * p);
            ASSERT_EQ(d.mask, (1u << width) - 1)
                << "bits=[" << b << "," << e << ") radix=" << radix_bits << " pass " << p << ": digit mask";
            ASSERT_EQ(d.shift, unsigned(b + radix_bits * p));
            ASSERT_EQ(d(rx::pad_bits(ord)), d.mask) << "pads rank last";
            ASSERT_EQ(d.of_carried(d.carry(rx::pad_bits(ord))), d.mask) << "pads rank last (carried)";
          }
          for (bits raw : keys) {
            std::uint64_t glued = 0, glued_hist = 0;
            for (int p = 0; p < passes; ++p) {
              const auto d = rx::digit_map<K>::of(ord, radix_bits, p);
              glued |= std::uint64_t(d(raw)) << (radix_bits * p);
              glued_hist |= std::uint64_t(d.from_ordered(first.ordered(raw))) << (radix_bits * p);
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

TEST(RadixDigitsPopcount, MatchesLoop) {
  std::mt19937_64 rng(3);
  for (int t = 0; t < 1000; ++t) {
    const std::uint64_t x = t < 65 ? (t == 64 ? ~0ull : (1ull << t) - 1) : rng();
    int c = 0;
    for (int i = 0; i < 64; ++i) c += int((x >> i) & 1u);
    ASSERT_EQ(rx::popcount64(x), c) << x;
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
            glued |= std::uint64_t(d(raw)) << (radix_bits * p);
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

}  // namespace
