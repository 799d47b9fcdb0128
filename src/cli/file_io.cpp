#include "file_io.hpp"

#include "args.hpp"

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

std::string errno_text(int e) { return std::strerror(e); }

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

// Writes size bytes at offset (or at the file position when offset < 0);
// 0, or the errno of the failure (a write that makes no progress is a
// full disk).
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

}  // namespace

input_file::input_file(std::string path) : path_(std::move(path)) {
  fd_ = ::open(path_.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd_ < 0) throw usage_error("cannot open '" + path_ + "': " + errno_text(errno));
  struct stat st {};
  if (::fstat(fd_, &st) != 0) {
    const int e = errno;
    ::close(fd_);
    throw usage_error("cannot stat '" + path_ + "': " + errno_text(e));
  }
  if (!S_ISREG(st.st_mode)) {
    ::close(fd_);
    throw usage_error("'" + path_ + "' is not a regular file");
  }
  size_ = static_cast<std::size_t>(st.st_size);
}

input_file::~input_file() {
  if (fd_ >= 0) ::close(fd_);
}

input_file::input_file(input_file&& o) noexcept
    : path_(std::move(o.path_)), fd_(std::exchange(o.fd_, -1)), size_(o.size_) {}

input_file& input_file::operator=(input_file&& o) noexcept {
  if (this != &o) {
    if (fd_ >= 0) ::close(fd_);
    path_ = std::move(o.path_);
    fd_ = std::exchange(o.fd_, -1);
    size_ = o.size_;
  }
  return *this;
}

void input_file::read(std::uint64_t offset, void* bytes, std::size_t size) const {
  read_fully(fd_, offset, bytes, size, "'" + path_ + "'");
}

std::vector<unsigned char> read_raw(const std::string& path, std::size_t elem_size,
                                    const std::string& elem_name) {
  const input_file f(path);
  const std::size_t size = f.size();
  if (size % elem_size != 0)
    throw usage_error("'" + path + "' is " + std::to_string(size) +
                      " bytes, not a multiple of the " + elem_name + " key size (" +
                      std::to_string(elem_size) + " bytes)");
  std::vector<unsigned char> bytes(size);
  f.read(0, bytes.data(), size);
  return bytes;
}

std::string folder_of(const std::string& path) {
  const std::filesystem::path dir = std::filesystem::path(path).parent_path();
  return dir.empty() ? "." : dir.string();
}

atomic_file::atomic_file(std::string path) : path_(std::move(path)) {
  namespace fs = std::filesystem;
  const fs::path target(path_);
  if (target.filename().empty()) throw usage_error("output '" + path_ + "' is not a file name");
  std::error_code ec;
  if (fs::is_directory(target, ec)) throw usage_error("output '" + path_ + "' is a directory");
  // Next to the target, so that rename() stays within one file system and
  // replaces the target atomically.
  const fs::path dir = folder_of(path_);
  std::string name = ".";
  name += target.filename().string();
  name += ".tmp-XXXXXX";
  tmp_ = (dir / name).string();
  fd_ = ::mkstemp(tmp_.data());
  if (fd_ < 0)
    throw usage_error("cannot create a temporary file in '" + dir.string() + "' for '" + path_ +
                      "': " + errno_text(errno));
  // mkstemp creates 0600; give the output the usual permissions.
  const mode_t mask = ::umask(0);
  ::umask(mask);
  if (::fchmod(fd_, 0666 & ~mask) != 0) fail("cannot set the permissions of");
}

atomic_file::~atomic_file() {
  if (fd_ >= 0) ::close(fd_);
  if (!committed_) ::unlink(tmp_.c_str());
}

void atomic_file::fail(const std::string& what) {
  const int e = errno;
  if (fd_ >= 0) ::close(fd_);
  fd_ = -1;
  ::unlink(tmp_.c_str());
  throw usage_error(what + " '" + path_ + "': " + errno_text(e));
}

void atomic_file::write(const void* bytes, std::size_t size) {
  if (const int e = write_fully(fd_, bytes, size, -1)) {
    errno = e;
    fail("cannot write");
  }
}

void atomic_file::commit() {
  if (::fsync(fd_) != 0) fail("cannot flush");
  const int fd = fd_;
  fd_ = -1;
  if (::close(fd) != 0) fail("cannot close");
  if (::rename(tmp_.c_str(), path_.c_str()) != 0) fail("cannot rename the temporary file to");
  committed_ = true;
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
