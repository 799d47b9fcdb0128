// The sort commands' inputs: keys (raw, or a one-dimensional .npy array
// whose dtype names the key type), and values to go with them (raw, their
// width their size over the key count, or .npy). Opening one reads its
// header only; the elements are then read front to back, in pieces, so an
// input larger than memory can be sorted in runs. An input may be a
// stream (standard input, a pipe, a FIFO): a .npy stream's header gives its
// count, a raw stream's count is known once it has been read to its end.
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
  bool counted = true;     // false for a raw stream until it has been read to its end
  std::size_t count = 0;   // elements, once counted
  std::size_t width = 0;   // bytes an element
  std::size_t bytes() const { return count * width; }
  // Reads the next elements, up to `size` bytes of them (a multiple of
  // the width); fewer only where the input ends. An input that ends before
  // its count, or (raw) within an element, is an error.
  std::size_t read_some(void* dst, std::size_t size);
  // Reads the next `size` bytes of elements, which the input must hold.
  void read(void* dst, std::size_t size);
  // Reads ahead until `size` bytes of elements past the reader are in
  // memory, or the input ends (a raw stream is then counted); the bytes in
  // memory (fewer than `size`: the end).
  std::size_t look_ahead(std::size_t size);

 private:
  void ended(std::size_t at);  // a raw stream ends at byte `at` of its elements
  std::size_t read_ = 0;       // bytes of elements read
};

// Keys from `path` ("-": standard input): .npy (its dtype the key type;
// `key`, when not empty, must agree) or raw keys of type `key` (then
// required, and a file's size a whole number of keys). usage_error naming
// the input otherwise.
array_file open_keys(const std::string& path, const std::string& key);

// Values for `count` keys from `path`: .npy (count elements) or a raw file
// (a width of size / count bytes: 1, 2, 4, 8 or 16). usage_error
// otherwise, a raw stream included (its width cannot be known in advance).
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
