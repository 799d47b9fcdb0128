#include "key_file.hpp"

#include "args.hpp"
#include "keys.hpp"
#include "npy.hpp"

#include <algorithm>
#include <vector>

namespace gpusort::cli {

namespace {

std::size_t key_width(const std::string& key) {
  std::size_t width = 0;
  if (!with_key(key, [&]<class K>() { width = sizeof(K); }))
    throw usage_error("unknown key type '" + key + "' (known: " + key_name_list() + ")");
  return width;
}

// The file, and its header when it is .npy: the magic and length first,
// then the whole header.
array_file open_array(const std::string& path) {
  array_file f(input_file{path});
  const std::size_t size = f.file.size();
  std::vector<unsigned char> head(std::min(size, npy_prefix_size));
  f.file.read(0, head.data(), head.size());
  f.npy = is_npy(head.data(), head.size());
  if (f.npy) {
    head.resize(npy_header_size(head.data(), size, path));
    f.file.read(0, head.data(), head.size());
    const npy_array a = parse_npy(head.data(), size, path);
    f.key = a.key;
    f.offset = a.offset;
    f.count = a.count;
    f.width = key_width(a.key);
  }
  return f;
}

}  // namespace

array_file open_keys(const std::string& path, const std::string& key) {
  if (!key.empty()) key_width(key);  // an unknown --key is refused before any reading
  array_file f = open_array(path);
  if (f.npy) {
    if (!key.empty() && key != f.key)
      throw usage_error("--key " + key + " does not match '" + path + "', a .npy file of " + f.key + " keys");
    return f;
  }
  if (key.empty()) throw usage_error("'" + path + "' is a raw file: --key is required");
  f.key = key;
  f.width = key_width(key);
  const std::size_t size = f.file.size();
  if (size % f.width != 0)
    throw usage_error("'" + path + "' is " + std::to_string(size) + " bytes, not a multiple of the " + key +
                      " key size (" + std::to_string(f.width) + " bytes)");
  f.count = size / f.width;
  return f;
}

array_file open_values(const std::string& path, std::size_t count) {
  array_file f = open_array(path);
  if (f.npy) {
    if (f.count != count)
      throw usage_error("'" + path + "' holds " + std::to_string(f.count) + " values for " + std::to_string(count) +
                        " keys");
    return f;
  }
  const std::size_t size = f.file.size();
  f.width = count ? size / count : 1;  // no keys: an empty file of any width
  if (count == 0 ? size != 0 : size % count != 0 || (f.width != 1 && f.width != 2 && f.width != 4 && f.width != 8 && f.width != 16))
    throw usage_error("'" + path + "' is " + std::to_string(size) + " bytes for " + std::to_string(count) +
                      " keys: values must be 1, 2, 4, 8 or 16 bytes each");
  f.count = count;
  return f;
}

}  // namespace gpusort::cli
