// Command-line parsing shared by the subcommands, and the CLI's exit codes.
//
// Each subcommand declares the options it knows; parse() splits argv into
// those options and the positional arguments, rejecting anything else, so
// a typo is a usage error (exit 2) and never silently ignored.
#pragma once

#include <gpusort/gpusort.hpp>

#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace gpusort::cli {

// Exit codes: 0 success, 1 a sort/verification failed, 2 a usage or I/O
// error (bad option, unknown key, unreadable or malformed file).
inline constexpr int exit_ok = 0;
inline constexpr int exit_failure = 1;
inline constexpr int exit_usage = 2;

// A usage or I/O error: printed as "gpusort: <what>" and exits with code 2.
struct usage_error : std::runtime_error {
  using std::runtime_error::runtime_error;
};

struct option_spec {
  std::string_view name;  // without the leading "--"
  bool takes_value;
};

class parsed_args {
 public:
  // argv[first..argc) against `spec`. "--opt value", "--opt=value", "--"
  // ends options; "-h" is "--help". Throws usage_error on an unknown option
  // or a missing value. `command` names the subcommand in messages.
  parsed_args(int argc, char** argv, int first, std::vector<option_spec> spec,
              std::string command);

  bool flag(std::string_view name) const { return values_.count(std::string(name)) != 0; }
  std::optional<std::string> value(std::string_view name) const;
  std::string value_or(std::string_view name, std::string fallback) const;
  const std::vector<std::string>& positionals() const { return positionals_; }
  // Throws usage_error unless min <= positionals <= max.
  void expect_positionals(std::size_t min, std::size_t max, std::string_view what) const;
  // The value of a required option; usage_error when absent.
  std::string required(std::string_view name) const;

 private:
  std::string command_;
  std::map<std::string, std::string> values_;
  std::vector<std::string> positionals_;
};

// "1048576", "1e9" (a whole number: 2.5e8 too), "2^20" or "1<<20";
// usage_error otherwise (names `what`).
std::uint64_t parse_count(std::string_view text, std::string_view what);
// Bytes: "1048576", or with a binary unit "1024K", "64M", "2G", "1T" (any
// case, "64MiB" and "64MB" too); usage_error otherwise (names `what`).
std::uint64_t parse_bytes(std::string_view text, std::string_view what);
std::vector<std::string> split_list(std::string_view text);  // "a,b,c"
// --pivots: "sampled" or "interpolated" (sample sort's pivot rule);
// usage_error otherwise.
pivot_rule parse_pivots(std::string_view text);
std::string_view to_string(pivot_rule rule);
// Appends `item` to a `sep`-separated list.
inline void append_item(std::string& list, std::string_view item, char sep = ' ') {
  if (!list.empty()) list += sep;
  list += item;
}

}  // namespace gpusort::cli
