// Raw key files: a file is N keys in native (little-endian) byte order and
// nothing else. Reading checks that the size is a whole number of keys;
// writing goes to a temporary file in the target's directory that is
// renamed over the target only once complete, so a failed or interrupted
// command never leaves a partial output file.
#pragma once

#include <cstddef>
#include <cstring>
#include <string>
#include <vector>

namespace gpusort::cli {

// Reads the whole file into bytes; usage_error naming the file (and errno
// text) if it is missing or unreadable, or if its size is not a multiple of
// `elem_size` (named `elem_name`, e.g. "u32").
std::vector<unsigned char> read_raw(const std::string& path, std::size_t elem_size,
                                    const std::string& elem_name);

// An output file that appears complete or not at all: the data goes to a
// temporary file created (by the constructor, so that an unwritable
// destination fails before any work is done) next to `path`, and commit()
// renames it over `path`. Destroyed uncommitted, the temporary is removed
// and `path` is untouched. Errors throw usage_error naming `path`.
class atomic_file {
 public:
  explicit atomic_file(std::string path);
  ~atomic_file();
  atomic_file(const atomic_file&) = delete;
  atomic_file& operator=(const atomic_file&) = delete;
  void write(const void* bytes, std::size_t size);
  void commit();

 private:
  [[noreturn]] void fail(const std::string& what);
  std::string path_, tmp_;
  int fd_ = -1;
  bool committed_ = false;
};

template <class K> std::vector<K> bytes_to_keys(const std::vector<unsigned char>& bytes) {
  std::vector<K> keys(bytes.size() / sizeof(K));
  if (!keys.empty()) std::memcpy(keys.data(), bytes.data(), keys.size() * sizeof(K));
  return keys;
}

}  // namespace gpusort::cli
