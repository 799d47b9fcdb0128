// The one switch from a run-time key_type to the typed code: f's call
// operator template instantiated for the key type t names, and what it
// returns (runtime.hpp's calls, the sort by columns and its pack kernels,
// the Python modules).
#pragma once

#include <gpusort/detail/key_traits.hpp>
#include <gpusort/error.hpp>
#include <gpusort/runtime.hpp>

#include <cstdint>
#include <string>

namespace gpusort::detail {

// The switch itself, for host and device code (the column pack kernels read
// their columns' types at run time): t must name a key type.
#ifdef __CUDACC__
#pragma nv_exec_check_disable
#endif
template <class F> GPUSORT_HD decltype(auto) visit_key(key_type t, F&& f) {
  switch (t) {
    case key_type::u8: return f.template operator()<std::uint8_t>();
    case key_type::u16: return f.template operator()<std::uint16_t>();
    case key_type::u32: return f.template operator()<std::uint32_t>();
    case key_type::u64: return f.template operator()<std::uint64_t>();
    case key_type::i8: return f.template operator()<std::int8_t>();
    case key_type::i16: return f.template operator()<std::int16_t>();
    case key_type::i32: return f.template operator()<std::int32_t>();
    case key_type::i64: return f.template operator()<std::int64_t>();
    case key_type::f16: return f.template operator()<__half>();
    case key_type::bf16: return f.template operator()<__nv_bfloat16>();
    case key_type::f32: return f.template operator()<float>();
    case key_type::f64: break;
  }
  return f.template operator()<double>();
}

template <class F> decltype(auto) with_key(key_type t, F&& f) {
  if (int(t) < 0 || int(t) >= key_type_count)
    throw error(errc::invalid_argument, "gpusort: unknown key type " + std::to_string(int(t)));
  return visit_key(t, static_cast<F&&>(f));
}

}  // namespace gpusort::detail
