// The key types the cub_segmented peer is built for: src/cli/CMakeLists.txt
// generates one CUB translation unit per key of GPUSORT_CLI_CUB_SEGMENTED_KEYS
// (each costs minutes of build time) and passes the list here, comma
// separated ("u32,u64,f32"). For the other keys the bench skips
// cub_segmented, saying so. Host only, no CUB.
#pragma once

#include <gpusort/detail/key_traits.hpp>

#include <string_view>

#ifndef GPUSORT_CLI_CUB_SEGMENTED_KEYS
#error "GPUSORT_CLI_CUB_SEGMENTED_KEYS (the keys cub_segmented is built for) comes from src/cli/CMakeLists.txt"
#endif

namespace gpusort::cli::bench {

inline constexpr std::string_view cub_segmented_keys = GPUSORT_CLI_CUB_SEGMENTED_KEYS;

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

// Whether make_cub_segmented<K> exists (K one of the 12 library keys).
template <class K>
inline constexpr bool has_cub_segmented = in_comma_list(cub_segmented_keys, detail::key_info<K>::name);

}  // namespace gpusort::cli::bench
