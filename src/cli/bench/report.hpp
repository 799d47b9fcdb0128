// Benchmark output: the table printed as results arrive (flushed, so a
// long run shows progress) and the CSV, written row by row.
//
// CSV: '#' comment lines (device, CUDA versions, commit, copy bandwidth,
// CPU threads, date, the CUB peers' offset policy and CUB versions), then
//   algorithm,key,value,n,distribution,median_ms,gkeys_per_s,verified
// value is "-" for keys only, else the values' type ("u32", "u64": original
// indices, --value); distribution is a harness name or a segmented one
// (seg256, segpow256: segments.hpp). A row timed in
// several configurations (a CUB peer's offset widths) follows a comment line
//   # peer cub_radix u32 - n=268435456 uniform: CUB 3.6.0, offsets int64 (A ms; int32 B ms)
//   # peer cub_segmented u32 - n=268435456 seg256: CUB 3.6.0, StableSortKeys, offsets int32 (A ms; int64 B ms)
// naming the reported (fastest) configuration first, then the others; its
// median_ms is the fastest's, verified whether every configuration's was.
#pragma once

#include "device_env.hpp"

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <map>
#include <string>
#include <tuple>
#include <vector>

namespace gpusort::cli::bench {

// The median of timed runs (0 for none).
inline double median_of(std::vector<double> v) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

// One configuration of a row timed in several (device_sorter::variants).
struct row_config {
  std::string name;  // "int32"
  double median_ms = 0;
  bool verified = false;
};

struct row {
  std::string algorithm, key, value, dist;
  std::uint64_t n = 0;
  double median_ms = 0;
  std::size_t bytes_per_item = 0;  // sizeof key + sizeof value
  bool verified = false;
  // For a sorter with variants: what differs ("offsets") and each
  // configuration timed, the reported one (median_ms) first. Empty otherwise.
  std::string config_what;
  std::vector<row_config> configs;
};

class reporter {
 public:
  // Opens (creating its directory) and starts the CSV; usage_error if it
  // cannot be written.
  reporter(const environment& env, const std::string& csv_path);
  ~reporter();
  reporter(const reporter&) = delete;
  reporter& operator=(const reporter&) = delete;

  // Heading for the rows of one (key, value, distribution).
  void group(const std::string& key, const std::string& value, const std::string& dist);
  void add(const row& r);
  // A `#` line among the rows (how the next rows ran), in the CSV only.
  void comment(const std::string& line);
  // A run that did not happen (skipped) or did not finish (failed).
  void skipped(const std::string& algorithm, std::uint64_t n, const std::string& why);
  void failed(const std::string& algorithm, std::uint64_t n, const std::string& why);

  int rows() const { return rows_; }
  int failures() const { return failures_; }
  const std::string& csv_path() const { return path_; }

 private:
  const environment& env_;
  std::string path_;
  std::FILE* csv_ = nullptr;
  int rows_ = 0, failures_ = 0;
  std::string key_, value_, dist_;  // the current group, for skip lines
  // cub_radix's (segmented distributions: cub_segmented's) Gkeys/s per
  // (key, value, n, dist), for the ratio column.
  std::map<std::tuple<std::string, std::string, std::uint64_t, std::string>, double> cub_;
};

// "2^20" for powers of two, else the number.
std::string format_n(std::uint64_t n);

}  // namespace gpusort::cli::bench
