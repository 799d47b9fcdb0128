// Raw key files: a file is N keys in native (little-endian) byte order and
// nothing else. Reading checks that the size is a whole number of keys;
// writing goes to a temporary file in the target's directory that is
// renamed over the target only once complete, so a failed or interrupted
// command never leaves a partial output file. Intermediate data (the
// external sort's runs) goes to scratch files that have no name at all.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

namespace gpusort::cli {

// A regular file open for reading at offsets; its size is taken at open.
// Errors throw usage_error naming the file (and the errno text).
class input_file {
 public:
  explicit input_file(std::string path);
  ~input_file();
  input_file(input_file&& o) noexcept;
  input_file& operator=(input_file&& o) noexcept;
  std::size_t size() const { return size_; }
  const std::string& path() const { return path_; }
  // Reads bytes [offset, offset + size); a file that ends before is an error.
  void read(std::uint64_t offset, void* bytes, std::size_t size) const;

 private:
  std::string path_;
  int fd_ = -1;
  std::size_t size_ = 0;
};

// Reads the whole file into bytes; usage_error naming the file (and errno
// text) if it is missing or unreadable, or if its size is not a multiple of
// `elem_size` (named `elem_name`, e.g. "u32").
std::vector<unsigned char> read_raw(const std::string& path, std::size_t elem_size,
                                    const std::string& elem_name);

// The folder an output path lies in ("." for a bare file name).
std::string folder_of(const std::string& path);

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
  const std::string& path() const { return path_; }

 private:
  [[noreturn]] void fail(const std::string& what);
  std::string path_, tmp_;
  int fd_ = -1;
  bool committed_ = false;
};

// A temporary file in `dir`, written and read at offsets. It is unlinked as
// soon as it is created: it has no name, and the system frees its space
// when it is closed, whether the command succeeds, fails or is killed.
// Errors throw usage_error naming the folder and `purpose` ("a run file").
class scratch_file {
 public:
  scratch_file(const std::string& dir, std::string purpose);
  ~scratch_file();
  scratch_file(const scratch_file&) = delete;
  scratch_file& operator=(const scratch_file&) = delete;
  void write(std::uint64_t offset, const void* bytes, std::size_t size);
  void read(std::uint64_t offset, void* bytes, std::size_t size) const;

 private:
  std::string what_;  // "a run file in 'dir'", for messages
  int fd_ = -1;
};

template <class K> std::vector<K> bytes_to_keys(const std::vector<unsigned char>& bytes) {
  std::vector<K> keys(bytes.size() / sizeof(K));
  if (!keys.empty()) std::memcpy(keys.data(), bytes.data(), keys.size() * sizeof(K));
  return keys;
}

}  // namespace gpusort::cli
