// Progress of a sort command, on stderr. On a terminal: one line redrawn
// at most four times a second with the phase (read, sort, write; run and
// merge for the external sort), the bytes the phase has done of its total,
// and its rate. Off a terminal: nothing while it runs, then exactly one
// summary line at the end. --quiet: neither. A phase of a stream whose
// length is not yet known has no total: its bar shows bytes and rate.
#pragma once

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <string>
#include <string_view>

namespace gpusort::cli {

// "256.0 MiB" (binary units, B to TiB).
std::string human_bytes(double bytes);

class progress {
 public:
  explicit progress(bool quiet);
  ~progress();  // wipes a bar still drawn, so that an error message starts a clean line
  progress(const progress&) = delete;
  progress& operator=(const progress&) = delete;

  // Starts phase `name` of `total` bytes.
  void phase(std::string_view name, std::uint64_t total);
  // Renames the phase, its count going on ("run 3/8").
  void relabel(std::string_view name);
  // `bytes` more of the phase done.
  void add(std::uint64_t bytes) {
    done_ += bytes;
    if (tty_) tick();
  }
  // Seconds since construction.
  double seconds() const;
  // Wipes the bar (for lines printed on stdout, often the same terminal);
  // the next phase draws it again.
  void clear();
  // The summary: printed off a terminal; on one it replaces the bar.
  void finish(const std::string& summary);

 private:
  using clock = std::chrono::steady_clock;
  void tick();
  void draw();
  bool quiet_, tty_;
  bool drawn_ = false;
  std::string phase_;
  std::uint64_t total_ = 0, done_ = 0;
  clock::time_point start_, phase_start_, last_draw_;
};

// Calls f(at, size) over bytes [0, total) in pieces of 8 MiB (a multiple of
// every element width), adding each piece to p as it is done. f returns
// the bytes it did: fewer than `size` (an input that ended) stops there.
// Returns the bytes done.
template <class F> std::size_t in_pieces(progress& p, std::size_t total, F&& f) {
  constexpr std::size_t piece = std::size_t(8) << 20;
  for (std::size_t at = 0; at < total;) {
    const std::size_t size = total - at < piece ? total - at : piece;
    const std::size_t did = f(at, size);
    p.add(did);
    at += did;
    if (did < size) return at;
  }
  return total;
}

// A command's informational lines (the backend, timings, what it wrote):
// on standard output, or on standard error when standard output carries
// the command's data, which text would corrupt; none with --quiet. Errors
// go to standard error whatever the options (main.cpp).
class info_lines {
 public:
  info_lines(bool quiet, bool data_on_stdout) : to_(quiet ? nullptr : data_on_stdout ? stderr : stdout) {}
  void print(const char* format, ...) const __attribute__((format(printf, 2, 3)));

 private:
  std::FILE* to_;
};

}  // namespace gpusort::cli
