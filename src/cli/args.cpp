#include "args.hpp"

#include <charconv>

namespace gpusort::cli {

parsed_args::parsed_args(int argc, char** argv, int first, std::vector<option_spec> spec,
                         std::string command)
    : command_(std::move(command)) {
  spec.push_back({"help", false});
  bool options_done = false;
  for (int i = first; i < argc; ++i) {
    std::string_view arg = argv[i];
    if (options_done || arg.size() < 2 || arg[0] != '-' || arg == "-") {
      positionals_.emplace_back(arg);
      continue;
    }
    if (arg == "--") {
      options_done = true;
      continue;
    }
    if (arg == "-h") arg = "--help";
    if (arg.substr(0, 2) != "--")
      throw usage_error("unknown option '" + std::string(arg) + "' for '" + command_ +
                        "' (see 'gpusort " + command_ + " --help')");
    std::string_view name = arg.substr(2);
    std::optional<std::string> inline_value;
    if (auto eq = name.find('='); eq != std::string_view::npos) {
      inline_value = std::string(name.substr(eq + 1));
      name = name.substr(0, eq);
    }
    const option_spec* found = nullptr;
    for (const auto& s : spec)
      if (s.name == name) found = &s;
    if (!found)
      throw usage_error("unknown option '--" + std::string(name) + "' for '" + command_ +
                        "' (see 'gpusort " + command_ + " --help')");
    std::string value;
    if (found->takes_value) {
      if (inline_value) {
        value = *inline_value;
      } else {
        if (i + 1 >= argc)
          throw usage_error("option '--" + std::string(name) + "' needs a value");
        value = argv[++i];
      }
    } else if (inline_value) {
      throw usage_error("option '--" + std::string(name) + "' takes no value");
    }
    values_[std::string(name)] = value;
  }
}

std::optional<std::string> parsed_args::value(std::string_view name) const {
  auto it = values_.find(std::string(name));
  if (it == values_.end()) return std::nullopt;
  return it->second;
}

std::string parsed_args::value_or(std::string_view name, std::string fallback) const {
  auto v = value(name);
  return v ? *v : fallback;
}

std::string parsed_args::required(std::string_view name) const {
  auto v = value(name);
  if (!v)
    throw usage_error("'" + command_ + "' needs --" + std::string(name) + " (see 'gpusort " +
                      command_ + " --help')");
  return *v;
}

void parsed_args::expect_positionals(std::size_t min, std::size_t max,
                                     std::string_view what) const {
  if (positionals_.size() < min || positionals_.size() > max)
    throw usage_error("'" + command_ + "' expects " + std::string(what) + ", got " +
                      std::to_string(positionals_.size()) + " argument(s) (see 'gpusort " +
                      command_ + " --help')");
}

namespace {
bool parse_u64(std::string_view s, std::uint64_t& out) {
  if (s.empty()) return false;
  auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), out);
  return ec == std::errc() && p == s.data() + s.size();
}

// "m e k": m (digits, an optional point and more digits) times 10^k, when
// that is a whole number below 2^64 (1e9, 2.5e8, 16e9); false otherwise.
bool parse_decimal_power(std::string_view text, std::uint64_t& out) {
  const std::size_t e = text.find_first_of("eE");
  if (e == std::string_view::npos || e == 0) return false;
  std::string_view mant = text.substr(0, e);
  std::uint64_t k = 0;
  if (!parse_u64(text.substr(e + 1), k) || k > 19) return false;
  std::string digits;
  std::uint64_t frac = 0;
  if (const std::size_t dot = mant.find('.'); dot != std::string_view::npos) {
    digits = std::string(mant.substr(0, dot)) + std::string(mant.substr(dot + 1));
    frac = mant.size() - dot - 1;
  } else {
    digits = std::string(mant);
  }
  while (frac > 0 && !digits.empty() && digits.back() == '0') digits.pop_back(), --frac;  // 2.50e1 = 25
  std::uint64_t m = 0;
  if (digits.empty() || !parse_u64(digits, m) || frac > k) return false;
  for (std::uint64_t i = 0; i < k - frac; ++i) {
    if (m > ~std::uint64_t(0) / 10) return false;
    m *= 10;
  }
  out = m;
  return true;
}
}  // namespace

std::uint64_t parse_count(std::string_view text, std::string_view what) {
  std::uint64_t v = 0, exp = 0;
  auto bad = [&] {
    return usage_error("bad " + std::string(what) + " '" + std::string(text) +
                       "' (expected a count such as 1048576, 1e9, 2^20 or 1<<20)");
  };
  if (parse_u64(text, v)) return v;
  if (parse_decimal_power(text, v)) return v;
  std::string_view power;
  if (auto p = text.find('^'); p != std::string_view::npos) {
    if (text.substr(0, p) != "2") throw bad();  // 2^k
    v = 1, power = text.substr(p + 1);
  } else if (auto q = text.find("<<"); q != std::string_view::npos) {
    if (!parse_u64(text.substr(0, q), v)) throw bad();  // m<<k
    power = text.substr(q + 2);
  } else {
    throw bad();
  }
  if (!parse_u64(power, exp) || exp > 62) throw bad();
  if (v > (std::uint64_t(1) << (63 - exp))) throw bad();
  return v << exp;
}

std::uint64_t parse_bytes(std::string_view text, std::string_view what) {
  auto bad = [&] {
    return usage_error("bad " + std::string(what) + " '" + std::string(text) +
                       "' (expected bytes such as 1048576, 1024K, 64M or 2G)");
  };
  std::string_view digits = text;
  for (std::string_view suffix : {"iB", "B"})  // 64MiB, 64MB and 64M alike; 512B
    if (digits.size() > suffix.size() && digits.ends_with(suffix)) {
      digits.remove_suffix(suffix.size());
      break;
    }
  unsigned shift = 0;
  if (!digits.empty()) {
    static constexpr std::string_view units = "KMGT";
    const std::size_t u = units.find(char(digits.back() & ~0x20));  // either case
    if (u != std::string_view::npos) {
      shift = 10 * unsigned(u + 1);
      digits.remove_suffix(1);
    }
  }
  std::uint64_t v = 0;
  if (!parse_u64(digits, v) || v > (~std::uint64_t(0) >> shift)) throw bad();
  return v << shift;
}

std::vector<std::string> split_list(std::string_view text) {
  std::vector<std::string> out;
  std::size_t start = 0;
  while (start <= text.size()) {
    auto comma = text.find(',', start);
    if (comma == std::string_view::npos) comma = text.size();
    if (comma > start) out.emplace_back(text.substr(start, comma - start));
    start = comma + 1;
  }
  return out;
}

pivot_rule parse_pivots(std::string_view text) {
  if (text == "sampled") return pivot_rule::sampled;
  if (text == "interpolated") return pivot_rule::interpolated;
  throw usage_error("unknown pivot rule '" + std::string(text) + "' (known: sampled interpolated)");
}

std::string_view to_string(pivot_rule rule) {
  return rule == pivot_rule::interpolated ? "interpolated" : "sampled";
}

}  // namespace gpusort::cli
