// The one switch from a run-time key_type to the typed code: f's call
// operator template instantiated for the key type t names, and what it
// returns (runtime.hpp's calls, the sort by columns, the Python modules).
#pragma once

#include <gpusort/detail/key_traits.hpp>
#include <gpusort/error.hpp>
#include <gpusort/runtime.hpp>

#include <cstdint>
#include <string>

namespace gpusort::detail {

template <class F> decltype(auto) with_key(key_type t, F&& f) {
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
    case key_type::f64: return f.template operator()<double>();
  }
  throw error(errc::invalid_argument, "gpusort: unknown key type " + std::to_string(int(t)));
}

}  // namespace gpusort::detail
