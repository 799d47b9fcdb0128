// A command's output, written according to what its path names when it is
// opened (stat() of the path, symbolic links followed):
//
//   a regular file, or nothing yet: atomically. The data goes to a
//     temporary file beside the final target of any symbolic links (so the
//     link stays a link, and its target gets the result), created when the
//     output is opened so that an unwritable destination fails before any
//     work; commit() renames it over the target. Destroyed uncommitted, the
//     temporary file is removed and the target is untouched: the output is
//     complete or absent.
//   "-" (standard output), a character device, a FIFO or a socket:
//     directly, as one stream, with no temporary file and no rename, so a
//     device node or a FIFO stays what it is. A FIFO's open waits for its
//     reader. What was written before a write error (a full device, a
//     reader gone) stays written; the error is reported all the same.
//
// Refused: a directory, a block device, and one of the command's inputs
// under another name (a hard or symbolic link, or standard input
// redirected from it). An output named by the identical path of an input
// replaces that input once complete: that is a sort in place.
#pragma once

#include "file_io.hpp"

#include <cstddef>
#include <string>
#include <vector>

namespace gpusort::cli {

class output_file {
 public:
  // Errors throw usage_error naming `path` (and the errno text).
  explicit output_file(std::string path, const std::vector<const input_file*>& inputs = {});
  ~output_file();
  output_file(const output_file&) = delete;
  output_file& operator=(const output_file&) = delete;
  void write(const void* bytes, std::size_t size);
  // Renames the temporary file over the target, or closes the stream.
  void commit();
  const std::string& path() const { return path_; }
  // Whether the data goes where standard output goes ("-", or a FIFO or
  // socket that is standard output, as /dev/stdout is in a pipe): then the
  // command's informational lines must go elsewhere.
  bool to_stdout() const { return to_stdout_; }
  // Where temporary files that go with the output belong: beside its
  // target, or for a stream $TMPDIR (else /tmp).
  std::string scratch_folder() const;
  // Refuses two outputs of one command that are the same file (a
  // character device such as /dev/null excepted).
  friend void check_distinct(const output_file& a, const output_file& b);

 private:
  void open_atomic();
  [[noreturn]] void fail(const std::string& what, int e);
  std::string path_, name_;  // as given; for messages ("'path'", "standard output")
  std::string target_;       // atomic: the file that the rename replaces
  std::string tmp_;          // atomic: the temporary file; empty for a stream
  std::string id_;           // the file, for check_distinct: "" for a character device
  descriptor fd_;
  bool to_stdout_ = false;
  bool committed_ = false;
};

}  // namespace gpusort::cli
