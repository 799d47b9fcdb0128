// Values travel through the sorts as opaque payloads of their width: the
// kernels move bytes, never interpret them, so one instantiation per width
// (1, 2, 4, 8, 16 bytes) serves every value type. Other widths, or values
// that are not aligned to their width, go through an index payload and a
// gather (see src/core/run_family.cuh).
#pragma once

#include <cstddef>
#include <cstdint>
#include <type_traits>

namespace gpusort::detail {

struct no_value {};
template <class P> inline constexpr bool is_no_value = std::is_same_v<P, no_value>;

struct alignas(16) payload16 {
  std::uint64_t lo, hi;
};

template <int Bytes> struct payload_of;
template <> struct payload_of<1> { using type = std::uint8_t; };
template <> struct payload_of<2> { using type = std::uint16_t; };
template <> struct payload_of<4> { using type = std::uint32_t; };
template <> struct payload_of<8> { using type = std::uint64_t; };
template <> struct payload_of<16> { using type = payload16; };

// Whether values of `width` bytes at these addresses can travel as
// payload_of<width>: a payload width, and both arrays aligned to it (else
// they travel as an index and a gather, as src/core/run_family.cuh does).
inline bool travels_as_payload(std::size_t width, const void* in, const void* out) {
  if (width != 1 && width != 2 && width != 4 && width != 8 && width != 16) return false;
  const std::size_t align = width == 16 ? alignof(payload16) : width;
  return reinterpret_cast<std::uintptr_t>(in) % align == 0 && reinterpret_cast<std::uintptr_t>(out) % align == 0;
}

// Bytes rounded up to 16: arrays carved one after another from shared
// memory each start aligned for 16-byte accesses.
inline constexpr std::size_t align16(std::size_t bytes) { return (bytes + 15) / 16 * 16; }

// Bytes one element occupies on chip (key bits plus payload).
template <class U, class P>
inline constexpr int element_bytes = int(sizeof(U)) + (is_no_value<P> ? 0 : int(sizeof(P)));

}  // namespace gpusort::detail
