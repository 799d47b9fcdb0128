// `gpusort plot`: runs bench/plot.py (python3 + matplotlib) on a CSV.
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
    "\n"
    "Plots Gkeys/s against n (log-log), one line per algorithm and one panel per\n"
    "(key, value, distribution), with bench/plot.py. Needs python3 and\n"
    "matplotlib (pip install matplotlib).\n"
    "  --csv   benchmark CSV (default: the newest bench/results/*.csv)\n"
    "  --out   image to write (default: the CSV's name with .png)\n";

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

// bench/plot.py next to the executable's tree, else in the source tree the
// tool was built from, else under the working directory.
std::string find_plot_script() {
  std::vector<fs::path> candidates;
  if (auto exe = executable_dir(); !exe.empty()) {
    fs::path d(exe);
    for (int up = 0; up < 4 && !d.empty(); ++up, d = d.parent_path())
      candidates.push_back(d / "bench" / "plot.py");
  }
  if (*source_dir()) candidates.push_back(fs::path(source_dir()) / "bench" / "plot.py");
  candidates.push_back(fs::current_path() / "bench" / "plot.py");
  std::error_code ec;
  for (const auto& c : candidates)
    if (fs::is_regular_file(c, ec)) return c.string();
  return {};
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
  parsed_args a(argc, argv, 2, {{"csv", true}, {"out", true}}, "plot");
  if (a.flag("help")) {
    std::fputs(plot_usage, stdout);
    return exit_ok;
  }
  a.expect_positionals(0, 0, "no positional arguments");
  std::string csv = a.value_or("csv", "");
  if (csv.empty()) {
    csv = newest_csv();
    if (csv.empty())
      throw usage_error("no CSV given and none in bench/results/ (run 'gpusort bench' first)");
  }
  std::error_code ec;
  if (!fs::is_regular_file(csv, ec)) throw usage_error("cannot read the CSV '" + csv + "'");
  std::string out = a.value_or("out", fs::path(csv).replace_extension(".png").string());
  const std::string script = find_plot_script();
  if (script.empty())
    throw usage_error("cannot find bench/plot.py (looked next to the executable, in " +
                      std::string(*source_dir() ? source_dir() : "the source tree") +
                      " and in the working directory)");

  int rc = run({"python3", "-c",
                "import importlib.util, sys; "
                "sys.exit(0 if importlib.util.find_spec('matplotlib') else 3)"});
  if (rc == 127) throw usage_error("python3 not found: install Python 3 to plot");
  if (rc != 0)
    throw usage_error("python3 cannot import matplotlib: install it (pip install matplotlib)");
  std::fflush(stdout);
  rc = run({"python3", script, csv, "-o", out});
  if (rc != 0) {
    std::fprintf(stderr, "gpusort: %s failed (exit status %d)\n", script.c_str(), rc);
    return exit_failure;
  }
  return exit_ok;
}

}  // namespace gpusort::cli
