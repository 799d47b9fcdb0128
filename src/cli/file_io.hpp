// The CLI's files at the level of bytes. An input is read front to back,
// once: a regular file (its size known at open) or a stream (standard
// input as "-", a pipe, a FIFO, a character device), whose length is
// known only once read to its end. What has been read ahead of the reader
// (to tell .npy from raw, or to see whether a stream fits in memory) is
// kept in memory and handed out before anything more is read. Outputs are
// output_file (output_file.hpp). Intermediate data (the external sort's
// runs) goes to scratch files that have no name at all.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <deque>
#include <string>
#include <utility>
#include <vector>

#include <sys/types.h>

namespace gpusort::cli {

// The text of errno value e.
std::string errno_text(int e);

// Writes size bytes at offset (or at the file position when offset < 0);
// 0, or the errno of the failure (a write that makes no progress is a
// full disk).
int write_fully(int fd, const void* bytes, std::size_t size, std::int64_t offset);

// A file descriptor, closed with its holder unless it is a standard one
// (standard input or output, which the process goes on using).
class descriptor {
 public:
  descriptor() = default;
  explicit descriptor(int fd) : fd_(fd) {}
  ~descriptor() { close(); }
  descriptor(descriptor&& o) noexcept : fd_(std::exchange(o.fd_, -1)) {}
  descriptor& operator=(descriptor&& o) noexcept {
    if (this != &o) {
      close();
      fd_ = std::exchange(o.fd_, -1);
    }
    return *this;
  }
  int get() const { return fd_; }
  explicit operator bool() const { return fd_ >= 0; }
  // Closes it now: 0, or the errno of the failure.
  int close();

 private:
  int fd_ = -1;
};

// An input, "-" being standard input. Errors throw usage_error naming it
// (and the errno text). A directory is refused.
class input_file {
 public:
  explicit input_file(std::string path);
  // A stream: no size until read to its end. Standard input redirected
  // from a regular file is a regular file (from its current position).
  bool stream() const { return !regular_; }
  // Bytes a regular file holds from where reading starts (0 for a stream).
  std::size_t size() const { return size_; }
  const std::string& path() const { return path_; }
  // For messages: "'path'", or "standard input".
  const std::string& name() const { return name_; }
  // Whether the file with this device and inode is this input.
  bool is(dev_t dev, ino_t ino) const { return dev == dev_ && ino == ino_; }
  // Reads the next bytes, up to `size`; fewer only where the input ends.
  std::size_t read_some(void* bytes, std::size_t size);
  // Reads the next `size` bytes; an input that ends before is an error.
  void read(void* bytes, std::size_t size);
  // Reads ahead until `size` bytes past the reader are in memory, or the
  // input ends; returns the bytes in memory (fewer than `size`: the end).
  std::size_t look_ahead(std::size_t size);
  // Copies up to `size` of the bytes read ahead, leaving them to be read;
  // returns how many.
  std::size_t peek(void* bytes, std::size_t size) const;

 private:
  std::size_t read_fd(unsigned char* p, std::size_t size);
  std::string path_, name_;
  descriptor fd_;
  bool regular_ = false;
  bool ended_ = false;  // read() has returned 0: a terminal is not asked again
  std::size_t size_ = 0;
  std::uint64_t done_ = 0;  // bytes handed to the reader
  dev_t dev_ = 0;
  ino_t ino_ = 0;
  std::deque<std::vector<unsigned char>> ahead_;  // read ahead, in pieces
  std::size_t ahead_at_ = 0;                      // bytes of the first piece already handed out
  std::size_t ahead_size_ = 0;                    // bytes in ahead_ not yet handed out
};

// Reads the whole input into bytes; usage_error naming it (and errno text)
// if it is missing or unreadable, or if its size is not a multiple of
// `elem_size` (named `elem_name`, e.g. "u32").
std::vector<unsigned char> read_raw(const std::string& path, std::size_t elem_size,
                                    const std::string& elem_name);

// The folder an output path lies in ("." for a bare file name).
std::string folder_of(const std::string& path);

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
