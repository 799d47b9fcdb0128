#include "output_file.hpp"

#include "args.hpp"

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <string>
#include <utility>

#include <fcntl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

namespace gpusort::cli {

namespace {

// The file `path` names once symbolic links are followed, a link that
// dangles included: its target is where the output goes, as with cp.
std::string resolve_links(std::string path, const std::string& name) {
  namespace fs = std::filesystem;
  for (int hops = 0;; ++hops) {
    struct stat st {};
    if (::lstat(path.c_str(), &st) != 0 || !S_ISLNK(st.st_mode)) return path;
    if (hops == 40) throw usage_error("cannot follow the links of " + name + ": " + errno_text(ELOOP));
    std::error_code ec;
    const fs::path to = fs::read_symlink(path, ec);
    if (ec) throw usage_error("cannot read the link '" + path + "': " + ec.message());
    path = to.is_absolute() ? to.string() : (fs::path(path).parent_path() / to).string();
  }
}

// A stream socket connected to the one at `path`: its descriptor, or -1
// with errno set.
int connect_to(const std::string& path) {
  sockaddr_un addr{};
  addr.sun_family = AF_UNIX;
  if (path.size() >= sizeof addr.sun_path) {
    errno = ENAMETOOLONG;
    return -1;
  }
  std::memcpy(addr.sun_path, path.c_str(), path.size() + 1);
  const int fd = ::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (fd < 0) return -1;
  if (::connect(fd, reinterpret_cast<const sockaddr*>(&addr), sizeof addr) != 0) {
    const int e = errno;
    ::close(fd);
    errno = e;
    return -1;
  }
  return fd;
}

// Refuses an output that is a directory, a block device, or (a regular
// file or a FIFO) one of the inputs other than by the identical path.
void refuse(const struct stat& st, const std::string& path, const std::string& name,
            const std::vector<const input_file*>& inputs) {
  if (S_ISDIR(st.st_mode)) throw usage_error("output " + name + " is a directory");
  if (S_ISBLK(st.st_mode)) throw usage_error("output " + name + " is a block device: gpusort does not write disks");
  if (!S_ISREG(st.st_mode) && !S_ISFIFO(st.st_mode)) return;
  for (const input_file* in : inputs) {
    if (!in->is(st.st_dev, st.st_ino)) continue;
    if (S_ISREG(st.st_mode) && path != "-" && in->path() == path) continue;  // in place
    if (S_ISFIFO(st.st_mode)) throw usage_error("output " + name + " is the input " + in->name() + ", a FIFO");
    throw usage_error("output " + name + " is the input " + in->name() +
                      " under another name: to sort in place, name the output exactly as the input");
  }
}

}  // namespace

output_file::output_file(std::string path, const std::vector<const input_file*>& inputs) : path_(std::move(path)) {
  struct stat st {};
  bool exists = true;
  to_stdout_ = path_ == "-";
  if (to_stdout_) {
    name_ = "standard output";
    fd_ = descriptor(STDOUT_FILENO);
    if (::fstat(STDOUT_FILENO, &st) != 0) throw usage_error("cannot stat standard output: " + errno_text(errno));
  } else {
    name_ = "'" + path_ + "'";
    exists = ::stat(path_.c_str(), &st) == 0;
    if (!exists && errno != ENOENT) throw usage_error("cannot stat " + name_ + ": " + errno_text(errno));
  }
  if (exists) {
    refuse(st, path_, name_, inputs);
    if (!S_ISCHR(st.st_mode)) id_ = std::to_string(st.st_dev) + ":" + std::to_string(st.st_ino);
  }
  if (to_stdout_) return;
  if (!exists || S_ISREG(st.st_mode)) {
    open_atomic();
    return;
  }
  fd_ = descriptor(S_ISSOCK(st.st_mode) ? connect_to(path_) : ::open(path_.c_str(), O_WRONLY | O_CLOEXEC | O_NOCTTY));
  if (!fd_) throw usage_error("cannot open " + name_ + ": " + errno_text(errno));
  struct stat out {};
  to_stdout_ = !S_ISCHR(st.st_mode) && ::fstat(STDOUT_FILENO, &out) == 0 && out.st_dev == st.st_dev &&
               out.st_ino == st.st_ino;
}

void output_file::open_atomic() {
  namespace fs = std::filesystem;
  target_ = resolve_links(path_, name_);
  const fs::path target(target_);
  if (target.filename().empty()) throw usage_error("output " + name_ + " is not a file name");
  if (id_.empty()) id_ = fs::absolute(target).lexically_normal().string();
  // Beside the target, so that rename() stays within one file system and
  // replaces the target atomically.
  const std::string dir = folder_of(target_);
  std::string name = ".";
  name += target.filename().string();
  name += ".tmp-XXXXXX";
  tmp_ = (fs::path(dir) / name).string();
  fd_ = descriptor(::mkstemp(tmp_.data()));
  if (!fd_) {
    const int e = errno;
    tmp_.clear();
    throw usage_error("cannot create a temporary file in '" + dir + "' for " + name_ + ": " + errno_text(e));
  }
  // mkstemp creates 0600; give the output the usual permissions.
  const mode_t mask = ::umask(0);
  ::umask(mask);
  if (::fchmod(fd_.get(), 0666 & ~mask) != 0) fail("cannot set the permissions of", errno);
}

output_file::~output_file() {
  if (!committed_ && !tmp_.empty()) ::unlink(tmp_.c_str());
}

void output_file::fail(const std::string& what, int e) {
  fd_.close();
  if (!tmp_.empty()) ::unlink(tmp_.c_str());
  tmp_.clear();
  throw usage_error(what + " " + name_ + ": " + errno_text(e));
}

void output_file::write(const void* bytes, std::size_t size) {
  if (const int e = write_fully(fd_.get(), bytes, size, -1)) fail("cannot write", e);
}

void output_file::commit() {
  if (!tmp_.empty() && ::fsync(fd_.get()) != 0) fail("cannot flush", errno);
  if (const int e = fd_.close()) fail("cannot close", e);
  if (!tmp_.empty() && ::rename(tmp_.c_str(), target_.c_str()) != 0)
    fail("cannot rename the temporary file to", errno);
  committed_ = true;
}

std::string output_file::scratch_folder() const {
  if (!tmp_.empty()) return folder_of(target_);
  const char* tmpdir = std::getenv("TMPDIR");
  return tmpdir && *tmpdir ? tmpdir : "/tmp";
}

void check_distinct(const output_file& a, const output_file& b) {
  if ((a.to_stdout_ && b.to_stdout_) || (!a.id_.empty() && a.id_ == b.id_))
    throw usage_error("outputs " + a.name_ + " and " + b.name_ + " are the same file: each needs its own");
}

}  // namespace gpusort::cli
