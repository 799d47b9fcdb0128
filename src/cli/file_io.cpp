#include "file_io.hpp"

#include "args.hpp"

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <string>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace gpusort::cli {

namespace {

std::string errno_text(int e) { return std::strerror(e); }

// Closes the descriptor on scope exit.
struct fd_guard {
  int fd = -1;
  ~fd_guard() {
    if (fd >= 0) ::close(fd);
  }
};

}  // namespace

std::vector<unsigned char> read_raw(const std::string& path, std::size_t elem_size,
                                    const std::string& elem_name) {
  fd_guard f{::open(path.c_str(), O_RDONLY | O_CLOEXEC)};
  if (f.fd < 0) throw usage_error("cannot open '" + path + "': " + errno_text(errno));
  struct stat st {};
  if (::fstat(f.fd, &st) != 0) throw usage_error("cannot stat '" + path + "': " + errno_text(errno));
  if (!S_ISREG(st.st_mode)) throw usage_error("'" + path + "' is not a regular file");
  const auto size = static_cast<std::size_t>(st.st_size);
  if (size % elem_size != 0)
    throw usage_error("'" + path + "' is " + std::to_string(size) +
                      " bytes, not a multiple of the " + elem_name + " key size (" +
                      std::to_string(elem_size) + " bytes)");
  std::vector<unsigned char> bytes(size);
  std::size_t done = 0;
  while (done < size) {
    ssize_t got = ::read(f.fd, bytes.data() + done, size - done);
    if (got < 0 && errno == EINTR) continue;
    if (got < 0) throw usage_error("cannot read '" + path + "': " + errno_text(errno));
    if (got == 0)
      throw usage_error("'" + path + "' shrank while being read (" + std::to_string(done) +
                        " of " + std::to_string(size) + " bytes)");
    done += static_cast<std::size_t>(got);
  }
  return bytes;
}

atomic_file::atomic_file(std::string path) : path_(std::move(path)) {
  namespace fs = std::filesystem;
  const fs::path target(path_);
  if (target.filename().empty()) throw usage_error("output '" + path_ + "' is not a file name");
  std::error_code ec;
  if (fs::is_directory(target, ec)) throw usage_error("output '" + path_ + "' is a directory");
  // Next to the target, so that rename() stays within one file system and
  // replaces the target atomically.
  fs::path dir = target.parent_path();
  if (dir.empty()) dir = ".";
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
  const auto* p = static_cast<const unsigned char*>(bytes);
  std::size_t done = 0;
  while (done < size) {
    ssize_t put = ::write(fd_, p + done, size - done);
    if (put < 0 && errno == EINTR) continue;
    if (put <= 0) fail("cannot write");
    done += static_cast<std::size_t>(put);
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

}  // namespace gpusort::cli
