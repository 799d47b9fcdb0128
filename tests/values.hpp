// Value types of every width the API accepts, and a deterministic way to
// fill them: a value made from an element's original index carries that
// index in its first bytes (widths >= 3) and a hash of it everywhere else,
// so a misrouted value is caught whatever its width.
#pragma once

#include <cstdint>
#include <cstring>
#include <vector>

namespace gpusort_test {

struct value3 {
  std::uint8_t b[3];
};
struct value12 {
  std::uint32_t w[3];
};
struct alignas(16) value16 {
  std::uint64_t lo, hi;
};
static_assert(sizeof(value3) == 3 && alignof(value3) == 1);
static_assert(sizeof(value12) == 12 && alignof(value12) == 4);
static_assert(sizeof(value16) == 16);

inline std::uint64_t value_hash(std::uint64_t x) {
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
  return x ^ (x >> 31);
}

// Bytes of the value for `index`: the index (little endian, up to 4 bytes)
// when the value has 3 or more bytes, then hash bytes.
template <class V> V make_value(std::uint64_t index) {
  unsigned char bytes[sizeof(V)];
  const std::uint64_t h1 = value_hash(index), h2 = value_hash(index + 0x1234567);
  std::size_t at = 0;
  if (sizeof(V) >= 3)
    for (; at < sizeof(V) && at < 4; ++at) bytes[at] = static_cast<unsigned char>(index >> (8 * at));
  for (std::size_t i = at; i < sizeof(V); ++i)
    bytes[i] = static_cast<unsigned char>((i < 8 ? h1 : h2) >> (8 * (i % 8)));
  V v;
  std::memcpy(&v, bytes, sizeof(V));
  return v;
}

template <class V> bool same_value(const V& a, const V& b) { return std::memcmp(&a, &b, sizeof(V)) == 0; }

// The index a value of width >= 3 carries (3-byte values hold 24 bits).
template <class V> std::uint64_t index_of(const V& v) {
  static_assert(sizeof(V) >= 3);
  unsigned char bytes[sizeof(V)];
  std::memcpy(bytes, &v, sizeof(V));
  std::uint64_t idx = 0;
  for (std::size_t i = 0; i < sizeof(V) && i < 4; ++i) idx |= std::uint64_t(bytes[i]) << (8 * i);
  return idx;
}

template <class V> std::vector<V> make_values(std::size_t n) {
  std::vector<V> v(n);
  for (std::size_t i = 0; i < n; ++i) v[i] = make_value<V>(i);
  return v;
}

}  // namespace gpusort_test
