#include "progress.hpp"

#include <cstdarg>
#include <cstdio>

#include <unistd.h>

namespace gpusort::cli {

namespace {

constexpr auto redraw_every = std::chrono::milliseconds(250);
constexpr int bar_width = 24;

}  // namespace

std::string human_bytes(double bytes) {
  static constexpr const char* units[] = {"B", "KiB", "MiB", "GiB", "TiB"};
  int u = 0;
  while (bytes >= 1024 && u < 4) {
    bytes /= 1024;
    ++u;
  }
  char text[32];
  std::snprintf(text, sizeof text, u == 0 ? "%.0f %s" : "%.1f %s", bytes, units[u]);
  return text;
}

progress::progress(bool quiet)
    : quiet_(quiet), tty_(!quiet && ::isatty(STDERR_FILENO) == 1), start_(clock::now()) {}

progress::~progress() { clear(); }

void progress::clear() {
  if (drawn_) std::fputs("\r\033[K", stderr);
  drawn_ = false;
}

void progress::phase(std::string_view name, std::uint64_t total) {
  phase_ = name;
  total_ = total;
  done_ = 0;
  phase_start_ = clock::now();
  if (tty_) draw();
}

void progress::relabel(std::string_view name) {
  phase_ = name;
  if (tty_) tick();
}

double progress::seconds() const { return std::chrono::duration<double>(clock::now() - start_).count(); }

void progress::tick() {
  if (clock::now() - last_draw_ >= redraw_every) draw();
}

void progress::draw() {
  last_draw_ = clock::now();
  const double frac = total_ ? double(done_) / double(total_) : 0.0;
  const int filled = int(frac * bar_width);
  const std::string bar = std::string(std::size_t(filled), '#') + std::string(std::size_t(bar_width - filled), '.');
  const double secs = std::chrono::duration<double>(last_draw_ - phase_start_).count();
  const std::string rate = secs > 0 ? human_bytes(double(done_) / secs) + "/s" : "";
  if (total_)
    std::fprintf(stderr, "\r\033[K%-11s [%s] %3.0f%%  %s / %s  %s", phase_.c_str(), bar.c_str(), frac * 100,
                 human_bytes(double(done_)).c_str(), human_bytes(double(total_)).c_str(), rate.c_str());
  else
    std::fprintf(stderr, "\r\033[K%-11s %s  %s", phase_.c_str(), human_bytes(double(done_)).c_str(), rate.c_str());
  std::fflush(stderr);
  drawn_ = true;
}

void progress::finish(const std::string& summary) {
  clear();
  if (quiet_) return;
  std::fflush(stdout);  // the summary comes last, after what went to stdout
  std::fprintf(stderr, "%s\n", summary.c_str());
}

void info_lines::print(const char* format, ...) const {
  if (!to_) return;
  std::va_list args;
  va_start(args, format);
  std::vfprintf(to_, format, args);
  va_end(args);
}

}  // namespace gpusort::cli
