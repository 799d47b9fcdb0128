// The offset widths the CUB peers run with. CUB's entry points
// take the item count's type as a template parameter, and which width is
// faster depends on the call (key type, pairs, n), so every CUB peer runs
// with both (int32 only where n fits) and the bench reports the faster;
// the CSV says which one each row used. A CUB peer exposes the widths as
// its device_sorter variants (cub_sorter.cuh does, for cub_radix,
// cub_merge and the struct key's CUB sort) and calls CUB through
// with_offset(). Host only, no CUB: the report includes it for the policy.
#pragma once

#include <climits>
#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace gpusort::cli::bench {

enum class offset_width { int32, int64 };

inline const char* to_string(offset_width w) {
  return w == offset_width::int32 ? "int32" : "int64";
}

// "int32" or "int64"; std::invalid_argument otherwise.
inline offset_width parse_offset_width(std::string_view name) {
  if (name == "int32") return offset_width::int32;
  if (name == "int64") return offset_width::int64;
  throw std::invalid_argument("bench: unknown CUB offset width '" + std::string(name) + "'");
}

// The widths valid for n items, in the order the bench times them: int32
// when n <= INT_MAX, then int64 (always valid).
inline std::vector<offset_width> offset_widths(std::size_t n) {
  if (n <= std::size_t(INT_MAX)) return {offset_width::int32, offset_width::int64};
  return {offset_width::int64};
}

// offset_widths(n) by name: a CUB peer's variants (device_sorter.hpp).
inline std::vector<std::string> offset_width_names(std::size_t n) {
  std::vector<std::string> names;
  for (offset_width w : offset_widths(n)) names.emplace_back(to_string(w));
  return names;
}

// The policy, as the bench prints it and the CSV's `#` header states it.
inline constexpr std::string_view cub_offsets_policy =
    "CUB peers run with 32-bit (only when n <= 2^31-1) and 64-bit offsets; the faster median "
    "is reported";

// Returns f(count), count = n as int (int32) or std::int64_t (int64); a
// generic lambda sees the width as decltype(count). std::invalid_argument
// for int32 when n > INT_MAX.
template <class F> decltype(auto) with_offset(offset_width w, std::size_t n, F&& f) {
  if (w == offset_width::int32) {
    if (n > std::size_t(INT_MAX))
      throw std::invalid_argument("bench: 32-bit CUB offsets cannot count " + std::to_string(n) +
                                  " items");
    return f(int(n));
  }
  return f(std::int64_t(n));
}

}  // namespace gpusort::cli::bench
