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

// The input, and its header when it is .npy: the magic and length first,
// then the whole header. A raw input's first bytes, looked at, stay to be
// read as its first elements.
array_file open_array(const std::string& path) {
  array_file f(input_file{path});
  const std::string& name = f.file.name();
  unsigned char prefix[npy_prefix_size];
  const std::size_t got = f.file.peek(prefix, f.file.look_ahead(npy_prefix_size));
  f.npy = is_npy(prefix, got);
  if (!f.npy) return f;
  // A stream's size is unknown, unless it ended within the prefix.
  const std::size_t size = !f.file.stream() ? f.file.size() : got < npy_prefix_size ? got : npy_unknown_size;
  std::vector<unsigned char> head(npy_header_size(prefix, size, name));
  if (const std::size_t have = f.file.look_ahead(head.size()); have < head.size())
    throw usage_error(name + ": truncated .npy header (" + std::to_string(have) + " of its " +
                      std::to_string(head.size()) + " bytes)");
  f.file.read(head.data(), head.size());
  const npy_array a = parse_npy(head.data(), size, name);
  f.key = a.key;
  f.count = a.count;
  f.width = key_width(a.key);
  return f;
}

}  // namespace

std::size_t array_file::read_some(void* dst, std::size_t size) {
  const std::size_t want = counted ? std::min(size, bytes() - read_) : size;
  const std::size_t got = file.read_some(dst, want);
  read_ += got;
  if (got < want) {
    if (counted)
      throw usage_error(file.name() + " ended after " + std::to_string(read_) + " of its " +
                        std::to_string(bytes()) + " bytes of data: truncated");
    ended(read_);
  }
  return got;
}

void array_file::read(void* dst, std::size_t size) {
  if (read_some(dst, size) < size)
    throw usage_error(file.name() + " ended after " + std::to_string(read_) + " bytes of data: truncated");
}

std::size_t array_file::look_ahead(std::size_t size) {
  const std::size_t have = file.look_ahead(size);
  if (have < size && !counted) ended(read_ + have);
  return have;
}

void array_file::ended(std::size_t at) {
  if (at % width != 0)
    throw usage_error(file.name() + " is " + std::to_string(at) + " bytes, not a multiple of the " + key +
                      " key size (" + std::to_string(width) + " bytes)");
  counted = true;
  count = at / width;
}

array_file open_keys(const std::string& path, const std::string& key) {
  if (!key.empty()) key_width(key);  // an unknown --key is refused before any reading
  array_file f = open_array(path);
  const std::string& name = f.file.name();
  if (f.npy) {
    if (!key.empty() && key != f.key)
      throw usage_error("--key " + key + " does not match " + name + ", a .npy file of " + f.key + " keys");
    return f;
  }
  if (key.empty())
    throw usage_error(name + (f.file.stream() ? " is a raw stream" : " is a raw file") + ": --key is required");
  f.key = key;
  f.width = key_width(key);
  if (f.file.stream()) {
    f.counted = false;
    return f;
  }
  const std::size_t size = f.file.size();
  if (size % f.width != 0)
    throw usage_error(name + " is " + std::to_string(size) + " bytes, not a multiple of the " + key +
                      " key size (" + std::to_string(f.width) + " bytes)");
  f.count = size / f.width;
  return f;
}

array_file open_values(const std::string& path, std::size_t count) {
  array_file f = open_array(path);
  const std::string& name = f.file.name();
  if (f.npy) {
    if (f.count != count)
      throw usage_error(name + " holds " + std::to_string(f.count) + " values for " + std::to_string(count) +
                        " keys");
    return f;
  }
  if (f.file.stream())
    throw usage_error(name + " is a raw stream: values from a stream must be .npy (their width is not known)");
  const std::size_t size = f.file.size();
  f.width = count ? size / count : 1;  // no keys: an empty file of any width
  if (count == 0 ? size != 0 : size % count != 0 || (f.width != 1 && f.width != 2 && f.width != 4 && f.width != 8 && f.width != 16))
    throw usage_error(name + " is " + std::to_string(size) + " bytes for " + std::to_string(count) +
                      " keys: values must be 1, 2, 4, 8 or 16 bytes each");
  f.count = count;
  return f;
}

}  // namespace gpusort::cli
