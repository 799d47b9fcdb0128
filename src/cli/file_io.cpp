#include "file_io.hpp"

#include "args.hpp"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <string>
#include <utility>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace gpusort::cli {

namespace {

// Bytes the inputs read ahead at a time.
constexpr std::size_t ahead_piece = std::size_t(8) << 20;

// Reads size bytes at offset; `name` (quoted path or description) names
// the file in the error.
void read_fully(int fd, std::uint64_t offset, void* bytes, std::size_t size, const std::string& name) {
  auto* p = static_cast<unsigned char*>(bytes);
  std::size_t done = 0;
  while (done < size) {
    const ssize_t got = ::pread(fd, p + done, size - done, off_t(offset + done));
    if (got < 0 && errno == EINTR) continue;
    if (got < 0) throw usage_error("cannot read " + name + ": " + errno_text(errno));
    if (got == 0)
      throw usage_error(name + " shrank while being read (it ends before byte " +
                        std::to_string(offset + size) + ")");
    done += static_cast<std::size_t>(got);
  }
}

}  // namespace

std::string errno_text(int e) { return std::strerror(e); }

int write_fully(int fd, const void* bytes, std::size_t size, std::int64_t offset) {
  const auto* p = static_cast<const unsigned char*>(bytes);
  std::size_t done = 0;
  while (done < size) {
    const ssize_t put = offset < 0 ? ::write(fd, p + done, size - done)
                                   : ::pwrite(fd, p + done, size - done, off_t(offset) + off_t(done));
    if (put < 0 && errno == EINTR) continue;
    if (put < 0) return errno;
    if (put == 0) return ENOSPC;
    done += static_cast<std::size_t>(put);
  }
  return 0;
}

int descriptor::close() {
  const int fd = std::exchange(fd_, -1);
  if (fd <= STDERR_FILENO) return 0;
  return ::close(fd) == 0 ? 0 : errno;
}

input_file::input_file(std::string path) : path_(std::move(path)) {
  if (path_ == "-") {
    name_ = "standard input";
    fd_ = descriptor(STDIN_FILENO);
  } else {
    name_ = "'" + path_ + "'";
    fd_ = descriptor(::open(path_.c_str(), O_RDONLY | O_CLOEXEC));
    if (!fd_) throw usage_error("cannot open " + name_ + ": " + errno_text(errno));
  }
  struct stat st {};
  if (::fstat(fd_.get(), &st) != 0) throw usage_error("cannot stat " + name_ + ": " + errno_text(errno));
  if (S_ISDIR(st.st_mode)) throw usage_error(name_ + " is a directory");
  dev_ = st.st_dev;
  ino_ = st.st_ino;
  regular_ = S_ISREG(st.st_mode);
  if (regular_) {
    // Standard input may have been read partly already: what is left counts.
    const off_t at = ::lseek(fd_.get(), 0, SEEK_CUR);
    size_ = at >= 0 && at < st.st_size ? std::size_t(st.st_size - at) : 0;
  }
}

std::size_t input_file::read_fd(unsigned char* p, std::size_t size) {
  std::size_t done = 0;
  while (done < size && !ended_) {
    const ssize_t got = ::read(fd_.get(), p + done, size - done);
    if (got < 0 && errno == EINTR) continue;
    if (got < 0) throw usage_error("cannot read " + name_ + ": " + errno_text(errno));
    ended_ = got == 0;
    done += static_cast<std::size_t>(got);
  }
  return done;
}

std::size_t input_file::read_some(void* bytes, std::size_t size) {
  auto* p = static_cast<unsigned char*>(bytes);
  std::size_t got = 0;
  while (got < size && !ahead_.empty()) {
    const std::vector<unsigned char>& piece = ahead_.front();
    const std::size_t n = std::min(size - got, piece.size() - ahead_at_);
    std::memcpy(p + got, piece.data() + ahead_at_, n);
    got += n;
    ahead_at_ += n;
    ahead_size_ -= n;
    if (ahead_at_ == piece.size()) {
      ahead_.pop_front();  // handed out: its memory goes back at once
      ahead_at_ = 0;
    }
  }
  got += read_fd(p + got, size - got);
  done_ += got;
  return got;
}

void input_file::read(void* bytes, std::size_t size) {
  const std::size_t got = read_some(bytes, size);
  if (got == size) return;
  if (regular_)
    throw usage_error(name_ + " shrank while being read (it ends before byte " + std::to_string(done_ - got + size) +
                      ")");
  throw usage_error(name_ + " ended after " + std::to_string(done_) + " bytes, before byte " +
                    std::to_string(done_ - got + size) + ": truncated");
}

std::size_t input_file::look_ahead(std::size_t size) {
  while (ahead_size_ < size && !ended_) {
    std::vector<unsigned char> piece(std::min(size - ahead_size_, ahead_piece));
    piece.resize(read_fd(piece.data(), piece.size()));
    ahead_size_ += piece.size();
    if (!piece.empty()) ahead_.push_back(std::move(piece));
  }
  return ahead_size_;
}

std::size_t input_file::peek(void* bytes, std::size_t size) const {
  auto* p = static_cast<unsigned char*>(bytes);
  std::size_t got = 0, at = ahead_at_;
  for (const std::vector<unsigned char>& piece : ahead_) {
    if (got == size) break;
    const std::size_t n = std::min(size - got, piece.size() - at);
    std::memcpy(p + got, piece.data() + at, n);
    got += n;
    at = 0;
  }
  return got;
}

std::vector<unsigned char> read_raw(const std::string& path, std::size_t elem_size,
                                    const std::string& elem_name) {
  input_file f(path);
  // A stream is read to its end to know its size.
  const std::size_t size = f.stream() ? f.look_ahead(~std::size_t(0)) : f.size();
  if (size % elem_size != 0)
    throw usage_error(f.name() + " is " + std::to_string(size) + " bytes, not a multiple of the " + elem_name +
                      " key size (" + std::to_string(elem_size) + " bytes)");
  std::vector<unsigned char> bytes(size);
  f.read(bytes.data(), size);
  return bytes;
}

std::string folder_of(const std::string& path) {
  const std::filesystem::path dir = std::filesystem::path(path).parent_path();
  return dir.empty() ? "." : dir.string();
}

scratch_file::scratch_file(const std::string& dir, std::string purpose)
    : what_(std::move(purpose) + " in '" + dir + "'") {
  std::string name = (std::filesystem::path(dir) / ".gpusort-run-XXXXXX").string();
  fd_ = ::mkstemp(name.data());
  if (fd_ < 0) throw usage_error("cannot create " + what_ + ": " + errno_text(errno));
  ::unlink(name.c_str());  // nameless from here on: closing it frees its space
}

scratch_file::~scratch_file() {
  if (fd_ >= 0) ::close(fd_);
}

void scratch_file::write(std::uint64_t offset, const void* bytes, std::size_t size) {
  if (const int e = write_fully(fd_, bytes, size, std::int64_t(offset)))
    throw usage_error("cannot write " + what_ + ": " + errno_text(e));
}

void scratch_file::read(std::uint64_t offset, void* bytes, std::size_t size) const {
  read_fully(fd_, offset, bytes, size, what_);
}

}  // namespace gpusort::cli
