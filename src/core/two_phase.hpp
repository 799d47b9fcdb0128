// The two-phase call over one scratch layout, for calls whose phases carve
// their scratch with temp_layout: phases(nullptr) sizes it (returns the
// bytes), phases(temp) carves it and launches. A null temp returns the size
// in temp_bytes; a smaller temp_bytes than the size fails clearly.
#pragma once

#include <gpusort/detail/core/context.hpp>

#include <cstddef>
#include <string>

namespace gpusort::detail {

inline void check_temp(const call_context& ctx, std::size_t have, std::size_t need) {
  if (have < need)
    ctx.fail(errc::invalid_argument,
             "temp_bytes " + std::to_string(have) + " is less than the " + std::to_string(need) + " bytes needed");
}

// The two-phase call over one scratch layout: phases(nullptr) sizes it,
// phases(temp) carves it and launches.
template <class Phases> void two_phase(const call_context& ctx, void* temp, std::size_t& temp_bytes, Phases phases) {
  const std::size_t need = phases(nullptr);
  if (!temp) {
    temp_bytes = need;
    return;
  }
  check_temp(ctx, temp_bytes, need);
  phases(temp);
}

}  // namespace gpusort::detail
