// The benchmark's keys beyond the 12 library key types, each sorted
// against CUB doing the same:
//   * `--key u32f32`, an 8-byte record ordered by (major, then minor),
//     sorted two ways:
//       - through a device comparator: the comparator API
//         (gpusort::merge_sort_keys, method merge_path) against
//         cub::DeviceMergeSort with the same functor (cub_merge); keys only;
//       - by radix through a decomposer: gpusort::sort_structs_device
//         (method automatic) against cub::DeviceRadixSort with the same
//         decomposer (cub_radix); keys, and pairs with --pairs (u32 values);
//   * `--key i64f64`, a 16-byte record ordered by (id ascending, score
//     descending): gpusort::sort_structs_device with those directions
//     (automatic) against cub::DeviceRadixSort with a decomposer on the
//     same struct (cub_radix), which has one direction for every member and
//     so sorts (id, score) ascending; keys, and pairs (u32 values);
//   * `--key u128` and `--key i128`, 128-bit integers: gpusort::sort_keys
//     and sort_pairs (automatic) against cub::DeviceRadixSort on the same
//     keys (cub_radix); keys, and pairs (u32 values).
// The suite (suite.cpp) runs them like the 12 library keys, asking this
// header for what differs: the methods, the input, the sorters and the
// check.
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

// (id ascending, score descending) as our decomposer call takes it (its
// directions), and (id, score) both ascending as CUB's decomposer can (one
// direction for all members: the peer sorts the same struct by the same
// amount of work, checked against its own order).
struct i64f64 {
  std::int64_t id;
  double score;
};
static_assert(sizeof(i64f64) == 16, "i64f64 has no padding: outputs are compared bytewise");
struct id_score_decomposer {
  GPUSORT_HD cuda::std::tuple<std::int64_t&, double&> operator()(i64f64& k) const { return {k.id, k.score}; }
};

inline constexpr std::string_view struct_key_name = "u32f32";
using u128 = unsigned __int128;
using i128 = __int128;
template <class K> inline constexpr bool is_wide_key = std::is_same_v<K, u128> || std::is_same_v<K, i128>;
template <class K>
inline constexpr bool is_struct_key = std::is_same_v<K, u32f32> || std::is_same_v<K, i64f64> || is_wide_key<K>;

// The CSV name of K: "u32f32", "u128", "i128", or the library key's ("u32").
template <class K> std::string bench_key_name() {
  if constexpr (std::is_same_v<K, u32f32>)
    return std::string(struct_key_name);
  else if constexpr (std::is_same_v<K, i64f64>)
    return "i64f64";
  else if constexpr (std::is_same_v<K, u128>)
    return "u128";
  else if constexpr (std::is_same_v<K, i128>)
    return "i128";
  else
    return key_name<K>();
}

// The order the reference sorts by: (major, minor) for u32f32, < otherwise.
template <class K> struct struct_key_less {
  GPUSORT_HD bool operator()(const K& a, const K& b) const { return a < b; }
};
template <> struct struct_key_less<u32f32> : by_major_minor {};
// i64f64: (id ascending, score descending), or both ascending (`peer`: the
// CUB decomposer's order), scores in CUB's order (-0.0 equal to +0.0;
// float_special inputs are left out, as for u32f32).
template <> struct struct_key_less<i64f64> {
  bool peer = false;
  GPUSORT_HD bool operator()(const i64f64& a, const i64f64& b) const {
    if (a.id != b.id) return a.id < b.id;
    return peer ? a.score < b.score : b.score < a.score;
  }
};
// Whether method m's output is checked against the peer's order (i64f64's
// CUB rows).
template <class K> bool checks_peer_order(const method& m) {
  return std::is_same_v<K, i64f64> && m.kind == method_kind::gpu_peer;
}

// cfg narrowed to what sorts K. u32f32: merge_path and cub_merge (keys
// only) and automatic and cub_radix (by the decomposer), every
// distribution but float_special (NaN minors leave `<` no strict weak
// order). u128, i128: automatic and cub_radix. Prints one line naming what
// it leaves out.
template <class K> suite_config struct_key_suite(const suite_config& cfg);

// u32f32: major from the harness's u32 generator, minor from its f32 one
// (its own seed), both for distribution d. u128, i128: the high half from
// the harness's u64 (i64) generator for d, the low half from its u64 one
// (its own seed): sorted, zipf or few-unique high halves with ties that the
// low half breaks.
template <class K> std::vector<K> generate_struct_keys(harness::dist d, std::size_t n, std::uint64_t seed);

// The stable permutation of in under struct_key_less: the reference every
// output of a point is checked against, computed once per point (libstdc++'s
// parallel stable sort: std::stable_sort of 2^28 structs on one core took
// minutes for each method).
template <class K> std::vector<std::uint32_t> struct_key_order(const std::vector<K>& in, bool peer = false);

// ok iff out is in[order[i]] bytewise (order: struct_key_order(in); both
// sorts are stable, so that is a sortedness and permutation check); with
// values (the input's were 0, 1, 2, ...), out_vals must be order.
template <class K>
harness::check verify_struct_keys(const std::vector<K>& in, const std::vector<std::uint32_t>& order,
                                  const std::vector<K>& out, const std::vector<std::uint32_t>* out_vals = nullptr);

// The sorter of method m for K keys: for u32f32, merge_path, cub_merge or
// cub_merge_cuda with the comparator (keys only), automatic or
// cub_radix(_cuda) with the decomposer; for u128 and i128, automatic or
// cub_radix(_cuda). Null for any other method, and for the newest CUB's
// peers where it was not built.
template <class K> std::unique_ptr<device_sorter<K, std::uint32_t>> make_struct_sorter(const method& m);

// cub::DeviceMergeSort with the comparator, built against either CUB
// (peers/cub_struct.cuh).
template <cub_build B> std::unique_ptr<device_sorter<u32f32, std::uint32_t>> make_cub_struct();
// cub::DeviceRadixSort with the decomposer, keys or pairs (the same unit).
template <cub_build B> std::unique_ptr<device_sorter<u32f32, std::uint32_t>> make_cub_struct_radix();
// cub::DeviceRadixSort with the decomposer on i64f64 (both ascending).
template <cub_build B> std::unique_ptr<device_sorter<i64f64, std::uint32_t>> make_cub_i64f64_radix();
// cub::DeviceRadixSort on 128-bit keys, keys or pairs (peers/cub_wide.cuh).
template <class K, cub_build B> std::unique_ptr<device_sorter<K, std::uint32_t>> make_cub_wide_radix();

}  // namespace gpusort::cli::bench
