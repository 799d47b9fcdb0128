// The sort commands' inputs: a file of keys (raw, or a one-dimensional .npy
// array whose dtype names the key type), and a file of values to go with
// them (raw, its width its size over the key count, or .npy).
#pragma once

#include <cstddef>
#include <string>
#include <vector>

namespace gpusort::cli {

struct array_file {
  std::string key;                  // the element type's name, when known ("u32"; "" for raw values)
  bool npy = false;
  std::vector<unsigned char> bytes; // the whole file
  std::size_t offset = 0;           // first element
  std::size_t count = 0;            // elements
  std::size_t width = 0;            // bytes an element
  const unsigned char* data() const { return bytes.data() + offset; }
};

// Keys from `path`: .npy (its dtype the key type; `key`, when not empty,
// must agree) or raw keys of type `key` (then required, and the size a
// whole number of keys). usage_error naming the file otherwise.
array_file read_keys(const std::string& path, const std::string& key);

// Values for `count` keys from `path`: .npy (count elements) or raw (a
// width of size / count bytes: 1, 2, 4, 8 or 16). usage_error otherwise.
array_file read_values(const std::string& path, std::size_t count);

}  // namespace gpusort::cli
