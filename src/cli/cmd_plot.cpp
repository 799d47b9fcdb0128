// `gpusort plot`: runs bench/plot.py (the detailed panels) or, with
// --headline, bench/headline.py (one bar per task: the speed-up over the
// best peer) on bench CSVs, with python3 and matplotlib.
#include "args.hpp"
#include "build_info.hpp"
#include "commands.hpp"

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <string>
#include <vector>

#include <spawn.h>
#include <sys/wait.h>

extern char** environ;

namespace gpusort::cli {

namespace {

namespace fs = std::filesystem;

const char* plot_usage =
    "usage: gpusort plot [--csv PATH] [--out PNG]\n"
    "       gpusort plot --headline [--csv PATH[,PATH...]] [--out PNG] [--readme FILE]\n"
    "\n"
    "Plots a benchmark CSV with python3 and matplotlib (pip install matplotlib).\n"
    "By default: Gkeys/s against n (log-log), one line per algorithm and one\n"
    "panel per (key, value, distribution), with bench/plot.py.\n"
    "With --headline: one bar per task (sort u32, sort u64, argsort, pairs,\n"
    "segmented, top-k, host memory, Python), gpusort's speed-up over the\n"
    "fastest peer in the CSV, with bench/headline.py; the table it reads is\n"
    "printed too.\n"
    "  --csv       benchmark CSV (default: the newest bench/results/*.csv). With\n"
    "              --headline, a comma-separated list: the first names the card;\n"
    "              a task missing there is taken from the next, marked with its card\n"
    "  --out       image to write (default: the CSV's name with .png, or\n"
    "              -headline.png with --headline)\n"
    "  --headline  the headline figure instead of the panels\n"
    "  --readme    with --headline: also rewrite the headline table in FILE, between\n"
    "              its headline markers (README.md)\n";

// Runs argv[0] (searched in PATH) with argv; returns its exit status, 127
// when it could not be started.
int run(const std::vector<std::string>& args) {
  std::vector<char*> argv;
  for (const auto& s : args) argv.push_back(const_cast<char*>(s.c_str()));
  argv.push_back(nullptr);
  pid_t pid = 0;
  if (::posix_spawnp(&pid, argv[0], nullptr, nullptr, argv.data(), environ) != 0) return 127;
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0)
    if (errno != EINTR) return 127;
  if (WIFEXITED(status)) return WEXITSTATUS(status);
  return 128 + (WIFSIGNALED(status) ? WTERMSIG(status) : 0);
}

// bench/<name> next to the executable's tree, else in the source tree the
// tool was built from, else under the working directory.
std::string find_bench_script(const char* name) {
  std::vector<fs::path> candidates;
  if (auto exe = executable_dir(); !exe.empty()) {
    fs::path d(exe);
    for (int up = 0; up < 4 && !d.empty(); ++up, d = d.parent_path())
      candidates.push_back(d / "bench" / name);
  }
  if (*source_dir()) candidates.push_back(fs::path(source_dir()) / "bench" / name);
  candidates.push_back(fs::current_path() / "bench" / name);
  std::error_code ec;
  for (const auto& c : candidates)
    if (fs::is_regular_file(c, ec)) return c.string();
  return {};
}

std::vector<std::string> split_commas(const std::string& s) {
  std::vector<std::string> parts;
  std::size_t at = 0;
  while (at <= s.size()) {
    const std::size_t comma = std::min(s.find(',', at), s.size());
    if (comma > at) parts.push_back(s.substr(at, comma - at));
    at = comma + 1;
  }
  return parts;
}

std::string newest_csv() {
  std::error_code ec;
  fs::path best;
  fs::file_time_type best_time{};
  for (fs::directory_iterator it("bench/results", ec), end; !ec && it != end; it.increment(ec)) {
    if (it->path().extension() != ".csv") continue;
    auto t = fs::last_write_time(it->path(), ec);
    if (!ec && (best.empty() || t > best_time)) best = it->path(), best_time = t;
  }
  return best.string();
}

}  // namespace

int cmd_plot(int argc, char** argv) {
  parsed_args a(argc, argv, 2, {{"csv", true}, {"out", true}, {"headline", false}, {"readme", true}}, "plot");
  if (a.flag("help")) {
    std::fputs(plot_usage, stdout);
    return exit_ok;
  }
  a.expect_positionals(0, 0, "no positional arguments");
  const bool headline = a.flag("headline");
  std::string given = a.value_or("csv", "");
  if (given.empty()) {
    given = newest_csv();
    if (given.empty())
      throw usage_error("no CSV given and none in bench/results/ (run 'gpusort bench' first)");
  }
  const std::vector<std::string> csvs = headline ? split_commas(given) : std::vector<std::string>{given};
  if (csvs.empty()) throw usage_error("--csv names no file");
  std::error_code ec;
  for (const auto& csv : csvs)
    if (!fs::is_regular_file(csv, ec)) throw usage_error("cannot read the CSV '" + csv + "'");
  const std::string readme = a.value_or("readme", "");
  if (!readme.empty() && !headline) throw usage_error("--readme goes with --headline");
  fs::path default_out(csvs[0]);
  default_out.replace_extension();
  const std::string out = a.value_or("out", default_out.string() + (headline ? "-headline.png" : ".png"));
  const char* name = headline ? "headline.py" : "plot.py";
  const std::string script = find_bench_script(name);
  if (script.empty())
    throw usage_error(std::string("cannot find bench/") + name + " (looked next to the executable, in " +
                      std::string(*source_dir() ? source_dir() : "the source tree") +
                      " and in the working directory)");

  int rc = run({"python3", "-c",
                "import importlib.util, sys; "
                "sys.exit(0 if importlib.util.find_spec('matplotlib') else 3)"});
  if (rc == 127) throw usage_error("python3 not found: install Python 3 to plot");
  if (rc != 0)
    throw usage_error("python3 cannot import matplotlib: install it (pip install matplotlib)");
  std::vector<std::string> cmd = {"python3", script};
  cmd.insert(cmd.end(), csvs.begin(), csvs.end());
  cmd.insert(cmd.end(), {"-o", out});
  if (headline) cmd.push_back("--table");
  if (!readme.empty()) cmd.insert(cmd.end(), {"--readme", readme});
  std::fflush(stdout);
  rc = run(cmd);
  if (rc != 0) {
    std::fprintf(stderr, "gpusort: %s failed (exit status %d)\n", script.c_str(), rc);
    return exit_failure;
  }
  return exit_ok;
}

}  // namespace gpusort::cli
