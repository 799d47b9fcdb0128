// Key types by the names the command line uses ("u32", "f16", ...).
//
// with_key(name, f) turns a runtime key name into a call of the generic
// lambda f.template operator()<K>() for the matching C++ type, so every
// command is written once as a template and dispatched here for all 12 keys.
#pragma once

#include <gpusort/detail/key_traits.hpp>

#include <cstdint>
#include <string>
#include <string_view>

namespace gpusort::cli {

// The C++ type behind each name; also used by the generated peer TUs
// (peers/instance.cu.in names keys as key_types::@KEY@).
namespace key_types {
using u8 = std::uint8_t;
using u16 = std::uint16_t;
using u32 = std::uint32_t;
using u64 = std::uint64_t;
using i8 = std::int8_t;
using i16 = std::int16_t;
using i32 = std::int32_t;
using i64 = std::int64_t;
using f16 = __half;
using bf16 = __nv_bfloat16;
using f32 = float;
using f64 = double;
}  // namespace key_types

inline constexpr std::string_view key_names[] = {"u8",  "u16", "u32", "u64", "i8",  "i16",
                                                 "i32", "i64", "f16", "bf16", "f32", "f64"};

inline std::string key_name_list() {
  std::string s;
  for (auto k : key_names) {
    if (!s.empty()) s += ' ';
    s += k;
  }
  return s;
}

// The command-line name of K ("u32").
template <class K> constexpr const char* key_name() { return detail::key_info<K>::name; }

// Calls f.template operator()<K>() for the key named `name`; returns false
// (and calls nothing) when the name is unknown.
template <class F> bool with_key(std::string_view name, F&& f) {
  bool found = false;
  auto try_one = [&]<class K>() {
    if (!found && name == detail::key_info<K>::name) {
      found = true;
      f.template operator()<K>();
    }
  };
#define GPUSORT_CLI_TRY_KEY(K) try_one.template operator()<K>();
  GPUSORT_FOR_EACH_KEY(GPUSORT_CLI_TRY_KEY)
#undef GPUSORT_CLI_TRY_KEY
  return found;
}

}  // namespace gpusort::cli
