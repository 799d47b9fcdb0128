// The key types two costly parts of the bench are built for, as
// src/cli/CMakeLists.txt passes them (comma separated, "u32,u64,f32"):
//   GPUSORT_CLI_CUB_SEGMENTED_KEYS  the cub_segmented peer: one CUB unit per
//                                   key, minutes of build time each;
//   GPUSORT_CLI_U64_VALUE_KEYS      pairs with u64 values (--value u64): our
//                                   sorts, cub_radix and cub_merge (two more
//                                   CUB units per key and CUB build);
//   GPUSORT_CLI_CUB_TOPK_KEYS       bench-topk's cub_topk peer (the newest
//                                   CUB only; empty where that was not built).
// For other keys the bench skips them, saying so. Host only, no CUB.
#pragma once

#include <gpusort/detail/key_traits.hpp>

#include <string_view>

#ifndef GPUSORT_CLI_CUB_SEGMENTED_KEYS
#error "GPUSORT_CLI_CUB_SEGMENTED_KEYS (the keys cub_segmented is built for) comes from src/cli/CMakeLists.txt"
#endif
#ifndef GPUSORT_CLI_U64_VALUE_KEYS
#error "GPUSORT_CLI_U64_VALUE_KEYS (the keys u64 values are built for) comes from src/cli/CMakeLists.txt"
#endif
#ifndef GPUSORT_CLI_CUB_TOPK_KEYS
#error "GPUSORT_CLI_CUB_TOPK_KEYS (the keys cub_topk is built for) comes from src/cli/CMakeLists.txt"
#endif

namespace gpusort::cli::bench {

inline constexpr std::string_view cub_segmented_keys = GPUSORT_CLI_CUB_SEGMENTED_KEYS;
inline constexpr std::string_view u64_value_keys = GPUSORT_CLI_U64_VALUE_KEYS;
inline constexpr std::string_view cub_topk_keys = GPUSORT_CLI_CUB_TOPK_KEYS;

// Whether `name` is an item of the comma-separated `list`.
constexpr bool in_comma_list(std::string_view list, std::string_view name) {
  while (!list.empty()) {
    const std::size_t comma = list.find(',');
    if (list.substr(0, comma) == name) return true;
    if (comma == std::string_view::npos) break;
    list.remove_prefix(comma + 1);
  }
  return false;
}

// Whether make_cub_segmented<K, std::uint32_t, B> exists (K one of the 12 library keys).
template <class K>
inline constexpr bool has_cub_segmented = in_comma_list(cub_segmented_keys, detail::key_info<K>::name);

// Whether run_suite<K, std::uint64_t>, make_cub_radix<K, std::uint64_t, B> and
// make_cub_merge<K, std::uint64_t, B> exist.
template <class K>
inline constexpr bool has_u64_values = in_comma_list(u64_value_keys, detail::key_info<K>::name);

// Whether make_cub_topk<K, cub_build::latest> exists.
template <class K>
inline constexpr bool has_cub_topk = in_comma_list(cub_topk_keys, detail::key_info<K>::name);

}  // namespace gpusort::cli::bench
