// CUB's radix sort as an independent oracle for stable families: the same
// order definition (twiddled bits, -0.0 == +0.0, bit ranges), computed by
// different code; and CUB's segmented sort for gpusort's. Compiled once, in
// cub_reference.cu (and cub_segmented_reference.cu), for every key type.
#pragma once

#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>
#include <type_traits>

namespace gpusort_test {

// Synchronous; d_in is left untouched. end_bit is one past the last bit.
template <class K>
void cub_sort_keys(const K* d_in, K* d_out, std::size_t n, bool descending, int begin_bit, int end_bit);
template <class K>
void cub_sort_pairs(const K* d_keys_in, K* d_keys_out, const std::uint32_t* d_vals_in,
                    std::uint32_t* d_vals_out, std::size_t n, bool descending, int begin_bit, int end_bit);

// CUB's segmented sort (cub::DeviceSegmentedSort::StableSortPairs and
// StableSortPairsDescending), the reference for gpusort::segmented_sort_*:
// segment i is [d_begin[i], d_end[i]) (int64 offsets in device memory; end
// <= begin is empty). Synchronous; the input is left untouched, and so is
// every output element outside the segments. Compiled in its own unit,
// cub_segmented_reference.cu. Pairs only: its keys are what StableSortKeys
// gives, so keys-only cases compare with them. All bits only (CUB's
// segmented sort has no bit range). Segments of up to a few hundred keys are
// merge-sorted with the native `<` (CUB's AgentSubWarpSort), under which
// NaNs are unordered: compare only inputs without NaNs (larger segments
// radix-sort, NaNs by their bits, as gpusort orders them everywhere).
// Built for four keys only (one of each width and kind: u8, i32, f32, u64):
// each costs a minute of compile time, and the per-segment oracle checks
// every key type bit for bit anyway.
template <class K>
inline constexpr bool has_cub_segmented = std::is_same_v<K, std::uint8_t> || std::is_same_v<K, std::int32_t> ||
                                          std::is_same_v<K, float> || std::is_same_v<K, std::uint64_t>;
template <class K>
void cub_segmented_sort_pairs(const K* d_keys_in, K* d_keys_out, const std::uint32_t* d_vals_in,
                              std::uint32_t* d_vals_out, std::size_t n, std::size_t num_segments,
                              const std::int64_t* d_begin, const std::int64_t* d_end, bool descending);

// Where CUB's own order is not the library's: CUB's onesweep kernels fold
// -0.0 onto the *descending* image of -0.0 rather than of +0.0, which is
// invisible with all bits but ranks zeros differently from key_order when
// a descending float sort uses a partial bit range. Skip the comparison there.
constexpr bool cub_agrees(bool is_float, bool descending, bool full_range) {
  return !(is_float && descending && !full_range);
}

}  // namespace gpusort_test
