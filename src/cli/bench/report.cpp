#include "report.hpp"

#include "args.hpp"
#include "build_info.hpp"
#include "bench/peers/cub_build.hpp"
#include "bench/peers/cub_offsets.hpp"

#include <cerrno>
#include <cstring>
#include <ctime>
#include <filesystem>

namespace gpusort::cli::bench {

std::string format_n(std::uint64_t n) {
  if (n != 0 && (n & (n - 1)) == 0) return "2^" + std::to_string(__builtin_ctzll(n));
  return std::to_string(n);
}

namespace {

std::string utc_now() {
  std::time_t t = std::time(nullptr);
  std::tm tm{};
  gmtime_r(&t, &tm);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return buf;
}

// "offsets int64 (5.4210 ms; int32 6.3020 ms)": the reported configuration,
// then the others, each flagged if its output failed verification.
std::string describe_configs(const row& r) {
  std::string s = r.config_what;
  for (std::size_t i = 0; i < r.configs.size(); ++i) {
    const row_config& c = r.configs[i];
    char ms[48];
    std::snprintf(ms, sizeof ms, "%.4f ms", c.median_ms);
    if (i == 0)
      s += " " + c.name + " (" + ms;
    else
      s += "; " + c.name + " " + ms;
    if (!c.verified) s += " NOT VERIFIED";
  }
  return s + ")";
}

const char* table_head =
    "  algorithm          key    value  n           dist           median_ms    Gkeys/s     GB/s  %copy  "
    "vs_cub  verified\n";

}  // namespace

reporter::reporter(const environment& env, const std::string& csv_path)
    : env_(env), path_(csv_path) {
  std::error_code ec;
  const auto dir = std::filesystem::path(csv_path).parent_path();
  if (!dir.empty()) std::filesystem::create_directories(dir, ec);
  csv_ = std::fopen(csv_path.c_str(), "w");
  if (!csv_)
    throw usage_error("cannot write the CSV '" + csv_path + "': " + std::strerror(errno));
  std::fprintf(csv_, "# device: %s\n", env.device_name.c_str());
  std::fprintf(csv_, "# cuda_runtime: %s\n", env.runtime_version.c_str());
  std::fprintf(csv_, "# cuda_driver: %s\n", env.driver_version.c_str());
  std::fprintf(csv_, "# commit: %s\n", commit_hash());
  std::fprintf(csv_, "# copy_bandwidth_gbps: %.1f\n", env.copy_gbps);
  std::fprintf(csv_, "# cpu_threads: %d\n", env.cpu_threads);
  if (env.h2d_gbps > 0)
    std::fprintf(csv_,
                 "# host_copies_gbps: pinned 1 GiB to device %.1f, to host %.1f, both at once %.1f + %.1f; "
                 "pageable memcpy %.1f\n",
                 env.h2d_gbps, env.d2h_gbps, env.duplex_h2d_gbps, env.duplex_d2h_gbps, env.host_memcpy_gbps);
  std::fprintf(csv_, "# date: %s\n", utc_now().c_str());
  std::fprintf(csv_, "# cub_offsets: %.*s; each width's median on a '# peer' line before the row\n",
               int(cub_offsets_policy.size()), cub_offsets_policy.data());
  std::fprintf(csv_, "# cub_versions: %s\n", cub_builds_line().c_str());
  std::fprintf(csv_, "algorithm,key,value,n,distribution,median_ms,gkeys_per_s,verified\n");
  std::fflush(csv_);
}

reporter::~reporter() {
  if (csv_ && std::fclose(csv_) != 0)
    std::fprintf(stderr, "gpusort bench: error closing '%s': %s\n", path_.c_str(),
                 std::strerror(errno));
}

void reporter::group(const std::string& key, const std::string& value, const std::string& dist) {
  key_ = key, value_ = value, dist_ = dist;
  std::printf("\n[%s keys, values %s, %s]\n", key.c_str(), value.c_str(), dist.c_str());
  std::fputs(table_head, stdout);
  std::fflush(stdout);
}

void reporter::add(const row& r) {
  const double gkeys = double(r.n) / (r.median_ms * 1e-3) / 1e9;
  // One read and one write of every key and value: the least a sort moves.
  const double gbps = 2.0 * double(r.n) * double(r.bytes_per_item) / (r.median_ms * 1e-3) / 1e9;
  const auto id = std::make_tuple(r.key, r.value, r.n, r.dist);
  // The ratio's reference: cub_radix, or cub_segmented on segmented
  // distributions (where cub_radix does not run); their _cuda twins (the
  // toolkit's CUB, timed right after) where those did not run.
  if (r.algorithm == "cub_radix" || r.algorithm == "cub_segmented") cub_[id] = gkeys;
  if (r.algorithm == "cub_radix_cuda" || r.algorithm == "cub_segmented_cuda") cub_.emplace(id, gkeys);

  char pct[16] = "-", ratio[16] = "-";
  if (env_.copy_gbps > 0) std::snprintf(pct, sizeof pct, "%.1f", 100.0 * gbps / env_.copy_gbps);
  if (auto it = cub_.find(id); it != cub_.end() && it->second > 0)
    std::snprintf(ratio, sizeof ratio, "%.3f", gkeys / it->second);
  const std::string configs = r.configs.empty() ? "" : describe_configs(r);
  std::printf("  %-18s %-6s %-6s %-11s %-13s %10.4f %10.4f %8.1f %6s %7s  %s%s%s\n",
              r.algorithm.c_str(), r.key.c_str(), r.value.c_str(), format_n(r.n).c_str(),
              r.dist.c_str(), r.median_ms, gkeys, gbps, pct, ratio,
              r.verified ? "yes" : "NO  <-- VERIFICATION FAILED", configs.empty() ? "" : "  ",
              configs.c_str());
  std::fflush(stdout);

  if (!configs.empty())
    std::fprintf(csv_, "# peer %s %s %s n=%llu %s: %s\n", r.algorithm.c_str(), r.key.c_str(),
                 r.value.c_str(), (unsigned long long)r.n, r.dist.c_str(), configs.c_str());
  std::fprintf(csv_, "%s,%s,%s,%llu,%s,%.6f,%.6f,%d\n", r.algorithm.c_str(), r.key.c_str(),
               r.value.c_str(), (unsigned long long)r.n, r.dist.c_str(), r.median_ms, gkeys,
               r.verified ? 1 : 0);
  std::fflush(csv_);
  ++rows_;
  if (!r.verified) ++failures_;
}

void reporter::comment(const std::string& line) {
  std::fprintf(csv_, "# %s\n", line.c_str());
  std::fflush(csv_);
}

void reporter::skipped(const std::string& algorithm, std::uint64_t n, const std::string& why) {
  std::printf("  %-18s %-6s %-6s %-11s %-13s skipped: %s\n", algorithm.c_str(), key_.c_str(),
              value_.c_str(), format_n(n).c_str(), dist_.c_str(), why.c_str());
  std::fflush(stdout);
}

void reporter::failed(const std::string& algorithm, std::uint64_t n, const std::string& why) {
  std::printf("  %-18s %-6s %-6s %-11s %-13s FAILED: %s\n", algorithm.c_str(), key_.c_str(),
              value_.c_str(), format_n(n).c_str(), dist_.c_str(), why.c_str());
  std::fflush(stdout);
  std::fprintf(stderr, "gpusort bench: %s at n=%llu FAILED: %s\n", algorithm.c_str(),
               (unsigned long long)n, why.c_str());
  ++failures_;
}

}  // namespace gpusort::cli::bench
