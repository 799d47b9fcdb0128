// Host suite: argument errors. They are detected before any CUDA call, so
// they must raise gpusort::error(errc::invalid_argument) on any machine,
// with or without a GPU (host pointers stand in for device ones: they are
// never dereferenced when the arguments are rejected).
#include "expect_error.hpp"
#include "key_types.hpp"

#include <gpusort/topk.hpp>

#include <gtest/gtest.h>

#include <cstdint>
#include <span>

namespace {

using namespace gpusort_test;
using gpusort::errc;


TEST(HostErrors, NullKeyPointers) {
  std::vector<std::uint32_t> buf(8);
  std::uint32_t* out = buf.data();
  const std::uint32_t* null_in = nullptr;
  std::uint32_t* null_out = nullptr;
  EXPECT_GPUSORT_ERROR(gpusort::sort_keys<std::uint32_t>(nullptr, out, 5), errc::invalid_argument);
  EXPECT_GPUSORT_ERROR(gpusort::sort_keys<std::uint32_t>(null_in, out, 5), errc::invalid_argument);
  EXPECT_GPUSORT_ERROR(gpusort::sort_keys<std::uint32_t>(out, null_out, 5), errc::invalid_argument);
  EXPECT_GPUSORT_ERROR(gpusort::sort_keys<std::uint32_t>(null_out, 5), errc::invalid_argument);
  // Two-phase, run phase (temp given): the data pointers are checked too.
  alignas(256) static unsigned char temp[256];
  std::size_t bytes = sizeof temp;
  EXPECT_GPUSORT_ERROR(gpusort::sort_keys<std::uint32_t>(temp, bytes, null_in, out, 5), errc::invalid_argument);
  EXPECT_GPUSORT_ERROR(gpusort::sort_keys<double>(temp, bytes, nullptr, nullptr, 5), errc::invalid_argument);
  EXPECT_GPUSORT_ERROR(gpusort::sort_keys<__half>(nullptr, nullptr, 1), errc::invalid_argument);
}

TEST(HostErrors, NullPairPointers) {
  std::vector<std::uint32_t> k(8), v(8);
  const std::uint32_t* null_c = nullptr;
  std::uint32_t* null_m = nullptr;
  using gpusort::sort_pairs;
  EXPECT_GPUSORT_ERROR((sort_pairs<std::uint32_t, std::uint32_t>(null_c, k.data(), v.data(), v.data(), 5)), errc::invalid_argument);
  EXPECT_GPUSORT_ERROR((sort_pairs<std::uint32_t, std::uint32_t>(k.data(), null_m, v.data(), v.data(), 5)), errc::invalid_argument);
  EXPECT_GPUSORT_ERROR((sort_pairs<std::uint32_t, std::uint32_t>(k.data(), k.data(), null_c, v.data(), 5)), errc::invalid_argument);
  EXPECT_GPUSORT_ERROR((sort_pairs<std::uint32_t, std::uint32_t>(k.data(), k.data(), v.data(), null_m, 5)), errc::invalid_argument);
  EXPECT_GPUSORT_ERROR((sort_pairs<std::uint32_t, std::uint32_t>(null_m, v.data(), 5)), errc::invalid_argument);
  EXPECT_GPUSORT_ERROR((sort_pairs<std::uint32_t, std::uint32_t>(k.data(), null_m, 5)), errc::invalid_argument);
}

template <class K> void expect_bad_ranges() {
  constexpr int w = width_of<K>;
  std::vector<K> a(16), b(16);
  std::vector<std::uint32_t> va(16), vb(16);
  const std::pair<int, int> bad[] = {{-1, w}, {0, w + 1}, {8, 8}, {w - 1, 2}, {w, -1}, {-5, -1}};
  for (auto [begin, end] : bad) {
    SCOPED_TRACE(std::string(gpusort::detail::key_info<K>::name) + " [" + std::to_string(begin) + "," +
                 std::to_string(end) + ")");
    const auto opt = make_options(gpusort::order::ascending, begin, end);
    EXPECT_GPUSORT_ERROR(gpusort::sort_cpu(std::span<K>(a), opt), errc::invalid_argument);
    EXPECT_GPUSORT_ERROR(gpusort::sort_cpu(std::span<K>(a), std::span<std::uint32_t>(va), opt), errc::invalid_argument);
    EXPECT_GPUSORT_ERROR(gpusort::sort_keys<K>(a.data(), b.data(), a.size(), opt), errc::invalid_argument);
    EXPECT_GPUSORT_ERROR((gpusort::sort_pairs<K, std::uint32_t>(a.data(), b.data(), va.data(), vb.data(), a.size(), opt)),
                         errc::invalid_argument);
    std::size_t bytes = 0;
    EXPECT_GPUSORT_ERROR(gpusort::sort_keys<K>(nullptr, bytes, a.data(), b.data(), a.size(), opt), errc::invalid_argument);
  }
}

TEST(HostErrors, BadBitRanges) {
  expect_bad_ranges<std::uint8_t>();
  expect_bad_ranges<std::int16_t>();
  expect_bad_ranges<std::uint32_t>();
  expect_bad_ranges<std::int64_t>();
  expect_bad_ranges<__half>();
  expect_bad_ranges<__nv_bfloat16>();
  expect_bad_ranges<float>();
  expect_bad_ranges<double>();
}

TEST(HostErrors, SpanLengthsDiffer) {
  std::vector<float> k(5);
  std::vector<std::uint64_t> v(4);
  EXPECT_GPUSORT_ERROR(gpusort::sort(std::span<float>(k), std::span<std::uint64_t>(v)), errc::invalid_argument);
  EXPECT_GPUSORT_ERROR(gpusort::sort_cpu(std::span<float>(k), std::span<std::uint64_t>(v)), errc::invalid_argument);
}

// Top-k asks for k <= n (k <= cols for rows): more throws, in the size
// query already, so the check needs no GPU.
TEST(HostErrors, TopkKLargerThanN) {
  std::vector<float> in(100), out(101);
  std::vector<std::int64_t> idx(101);
  std::size_t bytes = 0;
  EXPECT_GPUSORT_ERROR(gpusort::topk_keys<float>(nullptr, bytes, in.data(), out.data(), 100, 101),
                       errc::invalid_argument);
  EXPECT_GPUSORT_ERROR((gpusort::topk_indices<float, std::int64_t>(nullptr, bytes, in.data(), out.data(), idx.data(),
                                                                   100, 101)),
                       errc::invalid_argument);
  EXPECT_GPUSORT_ERROR(gpusort::topk_keys<float>(in.data(), out.data(), 0, 1), errc::invalid_argument);
  EXPECT_GPUSORT_ERROR((gpusort::topk_rows<float, std::int64_t>(nullptr, bytes, in.data(), out.data(), idx.data(), 10,
                                                                10, 11)),
                       errc::invalid_argument);
}

// Valid edge cases on the CPU path need no data at all.
TEST(HostErrors, EmptyIsFine) {
  EXPECT_NO_THROW(gpusort::sort_cpu(std::span<std::uint32_t>()));
  EXPECT_NO_THROW((gpusort::sort_cpu(std::span<double>(), std::span<std::uint32_t>())));
  std::vector<std::int8_t> one{7};
  EXPECT_NO_THROW(gpusort::sort_cpu(std::span<std::int8_t>(one), make_options(gpusort::order::descending, 7, 8)));
  EXPECT_EQ(one[0], 7);
}

}  // namespace
