// GPU suite: the sort by columns (include/gpusort/columns.hpp) against the
// stable oracle of columns_cases.hpp: one, two and three passes, every
// direction mix, ties across columns, NaNs both ways, int32 and int64
// indices, sizes 0, 1, 2, a tile either side of 4096, 100003 and 2^20 (the
// radix sort's several tiles and onesweep's full path); the two-phase call
// and the allocating one. The graph capture is in gpu_graph_test.cpp.
#include "columns_cases.hpp"
#include "gpu_cases.hpp"
#include "gpu_util.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <memory>
#include <vector>

namespace {

using namespace gpusort_test;

class GpuColumns : public gpu_test {};

struct device_table {
  std::vector<table_column> cols;
  std::vector<std::unique_ptr<device_buffer<std::uint8_t>>> bufs;
  std::vector<gpusort::key_column> keys;
};

device_table upload(const std::vector<column_spec>& table, std::size_t n, gpusort::nan_order nans) {
  device_table t;
  std::vector<const void*> data;
  for (std::size_t c = 0; c < table.size(); ++c) {
    t.cols.push_back(make_column(table[c], n, 17 + 31 * c + n, nans));
    t.bufs.push_back(std::make_unique<device_buffer<std::uint8_t>>(t.cols.back().bytes));
    data.push_back(t.bufs.back()->data());
  }
  t.keys = key_columns(t.cols, data);
  return t;
}

TEST_F(GpuColumns, MatchesTheStableOracle) {
  for (const auto& table : column_tables())
    for (std::size_t n : {std::size_t(0), std::size_t(1), std::size_t(2), std::size_t(4095), std::size_t(4096),
                          std::size_t(4097), std::size_t(100003)})
      for (auto nans : {gpusort::nan_order::bits, gpusort::nan_order::largest}) {
        const device_table t = upload(table, n, nans);
        const auto want = column_oracle(t.cols, n);
        gpusort::options opt;
        opt.nans = nans;
        device_buffer<std::int64_t> idx(n);
        idx.fill_bytes(0xA5);
        std::size_t bytes = 0;
        gpusort::sort_by_columns_device(nullptr, bytes, t.keys.data(), t.keys.size(), n, idx.data(), 8, opt);
        device_buffer<std::uint8_t> temp(bytes);
        gpusort::sort_by_columns_device(temp.data(), bytes, t.keys.data(), t.keys.size(), n, idx.data(), 8, opt);
        device_sync();
        ASSERT_EQ(idx.download(), want) << describe(t.cols, n);
        device_buffer<std::int32_t> idx32(n);
        idx32.fill_bytes(0xA5);
        gpusort::sort_by_columns_device(t.keys.data(), t.keys.size(), n, idx32.data(), 4, opt);
        device_sync();
        const auto got32 = idx32.download();
        ASSERT_EQ(std::vector<std::int64_t>(got32.begin(), got32.end()), want) << describe(t.cols, n) << " int32";
      }
}

// Table `which` of column_tables() at n rows, NaNs largest, int64 indices
// through the allocating call.
void check_table(std::size_t which, std::size_t n) {
  const device_table t = upload(column_tables()[which], n, gpusort::nan_order::largest);
  gpusort::options opt;
  opt.nans = gpusort::nan_order::largest;
  device_buffer<std::int64_t> idx(n);
  gpusort::sort_by_columns_device(t.keys.data(), t.keys.size(), n, idx.data(), 8, opt);
  device_sync();
  ASSERT_EQ(idx.download(), column_oracle(t.cols, n)) << describe(t.cols, n);
}

TEST_F(GpuColumns, ManyRowsTwoPasses) {
  for (std::size_t which : {std::size_t(0), std::size_t(4), std::size_t(5)})
    GPUSORT_CASE(check_table(which, std::size_t(1) << 20));
}

// Few enough cases to run under compute-sanitizer (memcheck, racecheck):
// one pass with u32 keys, three passes with u64 keys and 32-bit rows.
TEST_F(GpuColumns, SmallForSanitizer) {
  for (std::size_t which : {std::size_t(3), std::size_t(5)}) GPUSORT_CASE(check_table(which, 4097));
}

TEST_F(GpuColumns, NoColumnsKeepTheRows) {
  device_buffer<std::int32_t> idx(7);
  gpusort::sort_by_columns_device(nullptr, 0, 7, idx.data(), 4);
  device_sync();
  EXPECT_EQ(idx.download(), (std::vector<std::int32_t>{0, 1, 2, 3, 4, 5, 6}));
}

}  // namespace
