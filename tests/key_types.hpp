// The 12 key types as a GoogleTest type list, named "u8" ... "f64", and
// small helpers the suites share for comparing keys bit for bit.
#pragma once

#include <gpusort/gpusort.hpp>

#include <gtest/gtest.h>

#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

namespace gpusort_test {

using key_types = ::testing::Types<std::uint8_t, std::uint16_t, std::uint32_t, std::uint64_t,
                                   std::int8_t, std::int16_t, std::int32_t, std::int64_t, __half,
                                   __nv_bfloat16, float, double>;

// Names the instances of a typed suite by their index, GoogleTest's own
// scheme ("Suite/3.Test  # TypeParam = unsigned long"): CMake's
// gtest_discover_tests only recognises that form, and turns it into the
// ctest name "Suite.Test<unsigned long>". (Names like "u64" would leave the
// raw gtest comment in every ctest name.)
struct key_name {
  template <class K> static std::string GetName(int index) { return std::to_string(index); }
};

template <class K> using traits = gpusort::detail::key_traits<K>;
template <class K> using bits_of = typename gpusort::detail::key_traits<K>::bits;
template <class K> constexpr int width_of = gpusort::detail::key_traits<K>::width;

template <class K> std::string hex(K k) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "0x%0*llx", width_of<K> / 4,
                static_cast<unsigned long long>(traits<K>::raw(k)));
  return buf;
}

// Index of the first element whose bits differ, or -1 (sizes must match).
template <class K> long long first_bit_difference(const K* a, const K* b, std::size_t n) {
  for (std::size_t i = 0; i < n; ++i)
    if (traits<K>::raw(a[i]) != traits<K>::raw(b[i])) return static_cast<long long>(i);
  return -1;
}

// gtest assertion: a and b hold the same bit patterns.
template <class K>
::testing::AssertionResult same_bits(const std::vector<K>& got, const std::vector<K>& want) {
  if (got.size() != want.size())
    return ::testing::AssertionFailure()
           << "sizes differ: " << got.size() << " vs " << want.size();
  long long i = first_bit_difference(got.data(), want.data(), got.size());
  if (i < 0) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << "first difference at index " << i << ": got "
                                       << hex(got[std::size_t(i)]) << ", expected "
                                       << hex(want[std::size_t(i)]);
}

inline gpusort::options make_options(gpusort::order dir, int begin = 0, int end = -1,
                                     gpusort::algorithm algo = gpusort::algorithm::automatic) {
  gpusort::options o;
  o.algo = algo;
  o.direction = dir;
  o.begin_bit = begin;
  o.end_bit = end;
  return o;
}

inline const char* name(gpusort::order d) {
  return d == gpusort::order::ascending ? "ascending" : "descending";
}

// The bit ranges the suites sweep: all bits, the low half, and [3, w-1).
template <class K> std::vector<std::pair<int, int>> bit_ranges() {
  constexpr int w = width_of<K>;
  return {{0, -1}, {0, w / 2}, {3, w - 1}};
}

}  // namespace gpusort_test
