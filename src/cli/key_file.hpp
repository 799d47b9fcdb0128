// The sort commands' inputs: a file of keys (raw, or a one-dimensional .npy
// array whose dtype names the key type), and a file of values to go with
// them (raw, its width its size over the key count, or .npy). Opening one
// reads its header only: the elements are read by range, so a file larger
// than memory can be sorted in pieces.
#pragma once

#include "file_io.hpp"

#include <cstddef>
#include <cstdint>
#include <string>
#include <utility>

namespace gpusort::cli {

struct array_file {
  explicit array_file(input_file f) : file(std::move(f)) {}
  input_file file;
  std::string key;         // the element type's name, when known ("u32"; "" for raw values)
  bool npy = false;
  std::size_t offset = 0;  // the first element's byte in the file
  std::size_t count = 0;   // elements
  std::size_t width = 0;   // bytes an element
  std::size_t bytes() const { return count * width; }
  // Reads `size` bytes of the elements, from byte `at` of the first one.
  void read(std::size_t at, void* dst, std::size_t size) const { file.read(offset + at, dst, size); }
};

// Keys from `path`: .npy (its dtype the key type; `key`, when not empty,
// must agree) or raw keys of type `key` (then required, and the size a
// whole number of keys). usage_error naming the file otherwise.
array_file open_keys(const std::string& path, const std::string& key);

// Values for `count` keys from `path`: .npy (count elements) or raw (a
// width of size / count bytes: 1, 2, 4, 8 or 16). usage_error otherwise.
array_file open_values(const std::string& path, std::size_t count);

// Values of `width` bytes as a type, f.template operator()<V>(): u8, u16,
// u32, u64, value16 for 16 bytes, and no_value for width 0 (keys alone).
struct value16 {
  std::uint64_t lo, hi;
};
struct no_value {};
template <class F> void with_value_width(std::size_t width, F&& f) {
  switch (width) {
    case 0: return f.template operator()<no_value>();
    case 1: return f.template operator()<std::uint8_t>();
    case 2: return f.template operator()<std::uint16_t>();
    case 4: return f.template operator()<std::uint32_t>();
    case 8: return f.template operator()<std::uint64_t>();
    default: return f.template operator()<value16>();
  }
}

}  // namespace gpusort::cli
