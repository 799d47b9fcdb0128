// The benchmark's struct key: `--key u32f32`, an 8-byte record
// ordered by (major, then minor) through a device comparator, so the
// comparator API (gpusort::merge_sort_keys, algorithm merge_path) is timed
// against cub::DeviceMergeSort with the same functor. Keys only; only
// merge_path and the cub_merge peers sort it. The suite (suite.cpp) runs it
// like the 12 library keys, asking this header for what differs: the
// methods, the input, the sorters and the check.
#pragma once

#include "device_sorter.hpp"
#include "bench/peers/cub_build.hpp"
#include "keys.hpp"
#include "methods.hpp"
#include "suite.hpp"

#include "harness/harness.hpp"

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

namespace gpusort::cli::bench {

struct u32f32 {
  std::uint32_t major;
  float minor;
};
static_assert(sizeof(u32f32) == 8, "u32f32 has no padding: outputs are compared bytewise");

// (major, then minor): host and device, so the reference sort uses it too.
struct by_major_minor {
  GPUSORT_HD bool operator()(const u32f32& a, const u32f32& b) const {
    return a.major < b.major || (a.major == b.major && a.minor < b.minor);
  }
};

inline constexpr std::string_view struct_key_name = "u32f32";
template <class K> inline constexpr bool is_struct_key = std::is_same_v<K, u32f32>;

// The CSV name of K: "u32f32", or the library key's ("u32").
template <class K> std::string bench_key_name() {
  if constexpr (is_struct_key<K>)
    return std::string(struct_key_name);
  else
    return key_name<K>();
}

// cfg narrowed to what sorts u32f32: merge_path and cub_merge, keys only,
// every distribution but float_special (NaN minors leave `<` no strict weak
// order). Prints one line naming what it leaves out.
suite_config struct_key_suite(const suite_config& cfg);

// major from the harness's u32 generator, minor from its f32 one (its own
// seed), both for distribution d.
std::vector<u32f32> generate_struct_keys(harness::dist d, std::size_t n, std::uint64_t seed);

// ok iff out is sorted by the comparator and bytewise equal to
// std::stable_sort of in (both sorts are stable, so that is a permutation
// check too).
harness::check verify_struct_keys(const std::vector<u32f32>& in, const std::vector<u32f32>& out);

// merge_path, cub_merge or cub_merge_cuda with the comparator; null for any
// other method, and for cub_merge where the newest CUB was not built.
// Keys only: the value type is the keys-only runs' u32, never used.
std::unique_ptr<device_sorter<u32f32, std::uint32_t>> make_struct_sorter(const method& m);

// cub::DeviceMergeSort with the comparator, built against either CUB
// (peers/cub_struct.cuh).
template <cub_build B> std::unique_ptr<device_sorter<u32f32, std::uint32_t>> make_cub_struct();

}  // namespace gpusort::cli::bench
