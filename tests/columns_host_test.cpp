// Host suite: the sort by columns' plan (src/columns/plan.hpp), the run-time
// form of the key transform the pack kernels use (src/columns/ordered.hpp)
// against the typed one, and the host call (gpusort::sort_by_columns_host)
// against the stable oracle of columns_cases.hpp: one, two and three passes,
// every direction mix, ties across columns, NaNs both ways, int32 and int64
// indices; no GPU needed.
#include "columns/group.hpp"
#include "columns/ordered.hpp"
#include "columns/plan.hpp"
#include "columns_cases.hpp"
#include "expect_error.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <vector>

namespace {

using gpusort::detail::columns::make_plan;
using namespace gpusort_test;

TEST(ColumnsPlan, PacksGreedilyFromTheFirstColumnAndRunsTheLastGroupFirst) {
  EXPECT_TRUE(make_plan({}).empty());
  const auto one = make_plan({32, 32});  // (i32, i32): one u64 pass, the first column high
  ASSERT_EQ(one.size(), 1u);
  EXPECT_EQ(one[0].bits, 64u);
  EXPECT_EQ(one[0].key_bytes, 8u);
  EXPECT_EQ(one[0].columns[0].column, 0u);
  EXPECT_EQ(one[0].columns[0].shift, 32u);
  EXPECT_EQ(one[0].columns[1].shift, 0u);
  const auto narrow = make_plan({8, 16});  // 24 bits: u32 keys
  ASSERT_EQ(narrow.size(), 1u);
  EXPECT_EQ(narrow[0].key_bytes, 4u);
  EXPECT_EQ(narrow[0].columns[0].shift, 16u);
  // 16 | 64 | 32 + 8: three groups, run from the last
  const auto three = make_plan({16, 64, 32, 8});
  ASSERT_EQ(three.size(), 3u);
  EXPECT_EQ(three[0].columns.size(), 2u);
  EXPECT_EQ(three[0].columns[0].column, 2u);
  EXPECT_EQ(three[0].columns[0].shift, 8u);
  EXPECT_EQ(three[0].key_bytes, 8u);
  EXPECT_EQ(three[1].columns[0].column, 1u);
  EXPECT_EQ(three[2].columns[0].column, 0u);
  EXPECT_EQ(three[2].key_bytes, 4u);
  // eight 8-bit columns fill one pass
  EXPECT_EQ(make_plan(std::vector<unsigned>(8, 8)).size(), 1u);
  EXPECT_EQ(make_plan(std::vector<unsigned>(9, 8)).size(), 2u);
}

// A record sort rebuilds its records from the packed keys only where the
// fields cover every byte exactly once, in at most 8 bytes.
TEST(ColumnsPlan, FieldsTileTheRecord) {
  using gpusort::detail::columns::fields_tile_record;
  EXPECT_TRUE(fields_tile_record({0, 4}, {4, 4}, 8));        // {u32, f32}
  EXPECT_TRUE(fields_tile_record({4, 0}, {4, 4}, 8));        // members named in another order
  EXPECT_TRUE(fields_tile_record({2, 4, 0, 3}, {1, 4, 2, 1}, 8));
  EXPECT_TRUE(fields_tile_record({1, 0, 2}, {1, 1, 1}, 3));  // 3 bytes
  EXPECT_TRUE(fields_tile_record({0}, {8}, 8));
  EXPECT_FALSE(fields_tile_record({0, 8}, {8, 8}, 16));      // more than 64 bits
  EXPECT_FALSE(fields_tile_record({0, 4}, {4, 2}, 8));       // padding
  EXPECT_FALSE(fields_tile_record({0}, {4}, 8));             // a member outside the key
  EXPECT_FALSE(fields_tile_record({0, 2}, {4, 4}, 8));       // overlapping members
  EXPECT_FALSE(fields_tile_record({0, 0}, {4, 4}, 8));       // one member twice
  EXPECT_FALSE(fields_tile_record({}, {}, 4));
}

// ordered_any, folds_raw and raw_any (the width and kind as run-time values)
// against the typed ordered<K> and key_order<K>::fold, for every key type,
// both directions and both NaN orders: random bits, and for floats the
// specials (both zeros, infinities, NaNs of both signs, denormals).
template <class K> void check_run_time_form(gpusort::key_type kt) {
  namespace cols = gpusort::detail::columns;
  namespace h = gpusort::harness;
  using B = typename gpusort::detail::key_traits<K>::bits;
  std::vector<K> keys = h::generate<K>(h::dist::uniform, 3000, 41);
  if constexpr (gpusort::detail::key_traits<K>::is_float) {
    const auto special = h::generate<K>(h::dist::float_special, 3000, 43);
    keys.insert(keys.end(), special.begin(), special.end());
  }
  for (bool nans_largest : {false, true})
    for (gpusort::order dir : {gpusort::order::ascending, gpusort::order::descending}) {
      const gpusort::key_column col{kt, keys.data(), dir, 0};
      gpusort::options opt;
      opt.nans = nans_largest ? gpusort::nan_order::largest : gpusort::nan_order::bits;
      const auto plan = make_plan(cols::widths_of(&col, 1));
      const cols::packed_column& pc = cols::group_of(plan[0], &col, opt).columns[0];
      const gpusort::detail::key_order<K> o(false, 0, gpusort::detail::key_traits<K>::width, nans_largest);
      for (std::size_t i = 0; i < keys.size(); ++i) {
        B raw = 0;
        std::memcpy(&raw, &keys[i], sizeof(K));
        const B t = gpusort::detail::key_traits<K>::to_bits(keys[i]);
        const std::uint64_t want = cols::ordered<K>(pc, i);
        ASSERT_EQ(cols::ordered_any(pc, i), want) << "key type " << int(kt) << " raw " << std::uint64_t(raw);
        ASSERT_EQ(cols::folds_raw(pc, cols::raw_at(pc, i)), o.fold(t) != t) << "key type " << int(kt) << " raw " << std::uint64_t(raw);
        if (o.fold(t) == t) {
          ASSERT_EQ(cols::raw_any(pc, want), std::uint64_t(raw)) << "key type " << int(kt);
        }
      }
    }
}

TEST(ColumnsPlan, RunTimeKeyTransformMatchesTheTypedOne) {
  using gpusort::key_type;
  check_run_time_form<std::uint8_t>(key_type::u8);
  check_run_time_form<std::uint16_t>(key_type::u16);
  check_run_time_form<std::uint32_t>(key_type::u32);
  check_run_time_form<std::uint64_t>(key_type::u64);
  check_run_time_form<std::int8_t>(key_type::i8);
  check_run_time_form<std::int16_t>(key_type::i16);
  check_run_time_form<std::int32_t>(key_type::i32);
  check_run_time_form<std::int64_t>(key_type::i64);
  check_run_time_form<__half>(key_type::f16);
  check_run_time_form<__nv_bfloat16>(key_type::bf16);
  check_run_time_form<float>(key_type::f32);
  check_run_time_form<double>(key_type::f64);
}

TEST(ColumnsHost, MatchesTheStableOracle) {
  for (const auto& table : column_tables())
    for (std::size_t n : {std::size_t(0), std::size_t(1), std::size_t(2), std::size_t(1000), std::size_t(4097)})
      for (auto nans : {gpusort::nan_order::bits, gpusort::nan_order::largest}) {
        std::vector<table_column> cols;
        std::vector<const void*> data;
        for (std::size_t c = 0; c < table.size(); ++c) cols.push_back(make_column(table[c], n, 17 + 31 * c + n, nans));
        for (const auto& c : cols) data.push_back(c.bytes.data());
        const auto want = column_oracle(cols, n);
        const auto kc = key_columns(cols, data);
        gpusort::options opt;
        opt.nans = nans;
        std::vector<std::int64_t> got(n, -1);
        gpusort::sort_by_columns_host(kc.data(), kc.size(), n, got.data(), 8, opt);
        ASSERT_EQ(got, want) << describe(cols, n);
        std::vector<std::int32_t> got32(n, -1);
        gpusort::sort_by_columns_host(kc.data(), kc.size(), n, got32.data(), 4, opt);
        ASSERT_EQ(std::vector<std::int64_t>(got32.begin(), got32.end()), want) << describe(cols, n) << " int32";
      }
}

// Strided columns (the fields of an array of structs) give the permutation
// of the same columns laid out packed.
TEST(ColumnsHost, StridedColumnsAreFields) {
  struct rec {
    std::int32_t a;
    float b;
    std::uint16_t c;
  };
  const std::size_t n = 5000;
  const std::vector<column_spec> table = {{gpusort::key_type::i32, gpusort::harness::dist::few_unique,
                                           gpusort::order::descending},
                                          {gpusort::key_type::f32, gpusort::harness::dist::float_special,
                                           gpusort::order::ascending},
                                          {gpusort::key_type::u16, gpusort::harness::dist::uniform,
                                           gpusort::order::ascending}};
  std::vector<table_column> cols;
  for (std::size_t c = 0; c < table.size(); ++c) cols.push_back(make_column(table[c], n, 3 + c, gpusort::nan_order::largest));
  std::vector<rec> recs(n);
  for (std::size_t i = 0; i < n; ++i) {
    std::memcpy(&recs[i].a, cols[0].bytes.data() + 4 * i, 4);
    std::memcpy(&recs[i].b, cols[1].bytes.data() + 4 * i, 4);
    std::memcpy(&recs[i].c, cols[2].bytes.data() + 2 * i, 2);
  }
  const gpusort::key_column fields[] = {{gpusort::key_type::i32, &recs[0].a, gpusort::order::descending, sizeof(rec)},
                                        {gpusort::key_type::f32, &recs[0].b, gpusort::order::ascending, sizeof(rec)},
                                        {gpusort::key_type::u16, &recs[0].c, gpusort::order::ascending, sizeof(rec)}};
  gpusort::options opt;
  opt.nans = gpusort::nan_order::largest;
  std::vector<std::int64_t> got(n);
  gpusort::sort_by_columns_host(fields, 3, n, got.data(), 8, opt);
  EXPECT_EQ(got, column_oracle(cols, n));
  gpusort::key_column odd = fields[0];
  odd.stride = 6;  // not a multiple of the 4-byte key
  EXPECT_GPUSORT_ERROR(gpusort::sort_by_columns_host(&odd, 1, n, got.data(), 8), gpusort::errc::invalid_argument);
}

TEST(ColumnsHost, NoColumnsKeepTheRowsAndErrorsAreClear) {
  std::vector<std::int64_t> got(5, -1);
  gpusort::sort_by_columns_host(nullptr, 0, 5, got.data(), 8);
  EXPECT_EQ(got, (std::vector<std::int64_t>{0, 1, 2, 3, 4}));
  const std::vector<std::int32_t> keys = {3, 1, 2};
  const gpusort::key_column col{gpusort::key_type::i32, keys.data()};
  EXPECT_GPUSORT_ERROR(gpusort::sort_by_columns_host(&col, 1, 3, got.data(), 2), gpusort::errc::invalid_argument);
  const gpusort::key_column null_col{gpusort::key_type::i32, nullptr};
  EXPECT_GPUSORT_ERROR(gpusort::sort_by_columns_host(&null_col, 1, 3, got.data(), 8),
                       gpusort::errc::invalid_argument);
}

}  // namespace
