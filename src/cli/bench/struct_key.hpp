// The benchmark's struct key: `--key u32f32`, an 8-byte record ordered by
// (major, then minor), sorted two ways against CUB doing the same:
//   * through a device comparator: the comparator API
//     (gpusort::merge_sort_keys, method merge_path) against
//     cub::DeviceMergeSort with the same functor (cub_merge); keys only;
//   * by radix through a decomposer: gpusort::sort_structs_device (method
//     automatic) against cub::DeviceRadixSort with the same decomposer
//     (cub_radix); keys, and pairs with --pairs (u32 values). The suite (suite.cpp) runs it
// like the 12 library keys, asking this header for what differs: the
// methods, the input, the sorters and the check.
#pragma once

#include "device_sorter.hpp"
#include "bench/peers/cub_build.hpp"
#include "keys.hpp"
#include "methods.hpp"
#include "suite.hpp"

#include "harness/harness.hpp"

#include <cuda/std/tuple>

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

// (major, minor) as CUB's decomposer names them, most significant first.
struct major_minor_decomposer {
  GPUSORT_HD cuda::std::tuple<std::uint32_t&, float&> operator()(u32f32& k) const { return {k.major, k.minor}; }
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

// The stable permutation of in under the comparator: the reference every
// output of a point is checked against, computed once per point (libstdc++'s
// parallel stable sort: std::stable_sort of 2^28 structs on one core took
// minutes for each method).
std::vector<std::uint32_t> struct_key_order(const std::vector<u32f32>& in);

// ok iff out is in[order[i]] bytewise (order: struct_key_order(in); both
// sorts are stable, so that is a sortedness and permutation check); with
// values (the input's were 0, 1, 2, ...), out_vals must be order.
harness::check verify_struct_keys(const std::vector<u32f32>& in, const std::vector<std::uint32_t>& order,
                                  const std::vector<u32f32>& out,
                                  const std::vector<std::uint32_t>* out_vals = nullptr);

// merge_path, cub_merge or cub_merge_cuda with the comparator (keys only),
// automatic or cub_radix(_cuda) with the decomposer; null for any other
// method, and for the newest CUB's peers where it was not built.
std::unique_ptr<device_sorter<u32f32, std::uint32_t>> make_struct_sorter(const method& m);

// cub::DeviceMergeSort with the comparator, built against either CUB
// (peers/cub_struct.cuh).
template <cub_build B> std::unique_ptr<device_sorter<u32f32, std::uint32_t>> make_cub_struct();
// cub::DeviceRadixSort with the decomposer, keys or pairs (the same unit).
template <cub_build B> std::unique_ptr<device_sorter<u32f32, std::uint32_t>> make_cub_struct_radix();

}  // namespace gpusort::cli::bench
