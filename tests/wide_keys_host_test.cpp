// Host suite: 128-bit integer keys without a GPU. The two 64-bit fields
// that sort_keys and sort_pairs sort them by (detail/wide_key.hpp) order
// the integers: sorting by those strided columns on the host (the CPU path
// of sort_by_columns_host here) gives std::stable_sort's permutation of the
// integers themselves, signed and unsigned, both directions, with the
// extremes, zero and ties. A bit range is refused before any device work,
// and so are bad top-k of rows and segments (k over a row, null offsets,
// keys not 16-byte aligned).
#include "expect_error.hpp"

#include <gpusort/detail/wide_key.hpp>
#include <gpusort/gpusort.hpp>
#include <gpusort/topk.hpp>

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <numeric>
#include <random>
#include <string>
#include <vector>

namespace {

using u128 = unsigned __int128;
using i128 = __int128;

template <class K> std::vector<K> some_keys(std::size_t n) {
  std::mt19937_64 rng(41);
  std::vector<K> v;
  const u128 extremes[] = {0, 1, ~u128(0), u128(1) << 127, (u128(1) << 127) - 1, u128(1) << 64, (u128(1) << 64) - 1};
  for (u128 e : extremes) v.push_back(K(e));
  while (v.size() < n) {
    const std::uint64_t hi = rng(), lo = rng();
    switch (rng() % 4) {
      case 0: v.push_back(K(u128(hi) << 64 | lo)); break;
      case 1: v.push_back(K(u128(hi % 3) << 64 | lo)); break;                   // ties in the high half
      case 2: v.push_back(K(u128(i128(std::int64_t(lo) >> 20)))); break;        // small, both signs
      default: v.push_back(K(u128(hi % 5) << 64 | (lo % 7))); break;            // whole-key ties
    }
  }
  return v;
}

template <class K> void fields_order_the_integers() {
  const auto keys = some_keys<K>(20000);
  for (auto dir : {gpusort::order::ascending, gpusort::order::descending}) {
    gpusort::key_column f[2];
    gpusort::detail::wide_fields(gpusort::detail::is_signed_wide<K>, keys.data(), dir, f);
    std::vector<std::int64_t> got(keys.size());
    gpusort::sort_by_columns_host(f, 2, keys.size(), got.data(), 8);
    std::vector<std::int64_t> want(keys.size());
    std::iota(want.begin(), want.end(), 0);
    std::stable_sort(want.begin(), want.end(), [&](std::int64_t a, std::int64_t b) {
      return dir == gpusort::order::ascending ? keys[a] < keys[b] : keys[b] < keys[a];
    });
    ASSERT_EQ(got, want) << (dir == gpusort::order::ascending ? "ascending" : "descending");
  }
}

TEST(WideKeysHost, UnsignedFieldsOrderTheIntegers) { fields_order_the_integers<u128>(); }
TEST(WideKeysHost, SignedFieldsOrderTheIntegers) { fields_order_the_integers<i128>(); }

TEST(WideKeysHost, FieldsAreTheHalves) {
  std::vector<i128> v(2);
  gpusort::key_column f[2];
  gpusort::detail::wide_fields(true, v.data(), gpusort::order::descending, f);
  EXPECT_EQ(f[0].key, gpusort::key_type::i64);
  EXPECT_EQ(f[1].key, gpusort::key_type::u64);
  EXPECT_EQ(static_cast<const char*>(f[0].data), reinterpret_cast<const char*>(v.data()) + 8);
  EXPECT_EQ(f[1].data, static_cast<const void*>(v.data()));
  EXPECT_EQ(f[0].stride, 16u);
  EXPECT_EQ(f[1].direction, gpusort::order::descending);
}

TEST(WideKeysHost, BitRangeRefused) {
  std::vector<u128> v(4);
  gpusort::options opt;
  opt.begin_bit = 8;
  std::size_t bytes = 0;
  EXPECT_GPUSORT_ERROR(gpusort::sort_keys(nullptr, bytes, v.data(), v.data(), v.size(), opt),
                       gpusort::errc::invalid_argument);
  try {
    gpusort::sort_keys(nullptr, bytes, v.data(), v.data(), v.size(), opt);
  } catch (const gpusort::error& e) {
    EXPECT_NE(std::string(e.what()).find("sort_keys<u128>"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("bit range"), std::string::npos) << e.what();
  }
}

TEST(WideKeysHost, TopkRowsAndSegmentsChecked) {
  std::vector<u128> keys(8), out(8);
  std::vector<std::int64_t> idx(8);
  std::size_t bytes = 0;
  EXPECT_GPUSORT_ERROR(gpusort::topk_rows(nullptr, bytes, keys.data(), out.data(), idx.data(), 2, 3, 4),
                       gpusort::errc::invalid_argument);
  try {
    gpusort::topk_rows(nullptr, bytes, keys.data(), out.data(), idx.data(), 2, 3, 4);
  } catch (const gpusort::error& e) {
    EXPECT_NE(std::string(e.what()).find("topk_rows"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("larger than a row"), std::string::npos) << e.what();
  }
  const std::int32_t* none = nullptr;
  EXPECT_GPUSORT_ERROR(gpusort::segmented_topk(nullptr, bytes, keys.data(), out.data(), idx.data(), keys.size(), 2,
                                               none, none, 1),
                       gpusort::errc::invalid_argument);
  const auto* odd = reinterpret_cast<const i128*>(reinterpret_cast<const unsigned char*>(keys.data()) + 8);
  auto* odd_out = reinterpret_cast<i128*>(out.data());
  EXPECT_GPUSORT_ERROR(gpusort::topk_rows(nullptr, bytes, odd, odd_out, idx.data(), 1, 4, 2),
                       gpusort::errc::invalid_argument);
}

}  // namespace
