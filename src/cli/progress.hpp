// Progress of a sort command, on stderr. On a terminal: one line redrawn
// at most four times a second with the phase (read, sort, write; run and
// merge for the external sort), the bytes the phase has done of its total,
// and its rate. Off a terminal: nothing while it runs, then exactly one
// summary line at the end. --quiet: neither.
#pragma once

#include <chrono>
#include <cstddef>
#include <cstdint>
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
// every element width), adding each piece to p as it is done.
template <class F> void in_pieces(progress& p, std::size_t total, F&& f) {
  constexpr std::size_t piece = std::size_t(8) << 20;
  for (std::size_t at = 0; at < total; at += piece) {
    const std::size_t size = total - at < piece ? total - at : piece;
    f(at, size);
    p.add(size);
  }
}

}  // namespace gpusort::cli
