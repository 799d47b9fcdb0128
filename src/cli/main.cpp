// gpusort: the command-line tool. Dispatches the subcommand and maps
// failures to exit codes: usage and I/O errors 2, sort failures 1.
#include "args.hpp"
#include "build_info.hpp"
#include "commands.hpp"

#include <gpusort/gpusort.hpp>

#include <csignal>
#include <cstdio>
#include <exception>
#include <new>
#include <string_view>

namespace {

const char* usage =
    "usage: gpusort <command> [options]\n"
    "\n"
    "commands:\n"
    "  gen     write N generated keys to a raw file\n"
    "  verify  check that a raw key file is sorted\n"
    "  sort    sort a raw or .npy key file, with a values file or not (GPU\n"
    "          when present, else parallel CPU)\n"
    "  argsort write the stable sorting permutation of a key file\n"
    "  topk    write the k largest (or smallest) keys of a key file\n"
    "  bench   benchmark gpusort's algorithms against CUB, Thrust and the CPU\n"
    "  bench-topk  benchmark top-k against a full CUB sort and a slice\n"
    "  bench-multi benchmark the multi-GPU sort (NCCL) against one GPU\n"
    "  multi-run   run and check the multi-GPU sort: threads, processes or a launcher\n"
    "  plot    plot a benchmark CSV (needs python3 with matplotlib)\n"
    "\n"
    "'gpusort <command> --help' describes a command. Raw files hold keys in\n"
    "native little-endian byte order with no header; key types are\n"
    "u8 u16 u32 u64 i8 i16 i32 i64 f16 bf16 f32 f64.\n"
    "exit codes: 0 ok, 1 sort or verification failed, 2 usage or I/O error.\n";

int dispatch(int argc, char** argv) {
  using namespace gpusort::cli;
  if (argc < 2) {
    std::fputs(usage, stderr);
    return exit_usage;
  }
  const std::string_view cmd = argv[1];
  if (cmd == "--help" || cmd == "-h" || cmd == "help") {
    std::fputs(usage, stdout);
    return exit_ok;
  }
  if (cmd == "--version") {
    std::printf("gpusort commit %s\n", commit_hash());
    return exit_ok;
  }
  if (cmd == "gen") return cmd_gen(argc, argv);
  if (cmd == "verify") return cmd_verify(argc, argv);
  if (cmd == "sort") return cmd_sort(argc, argv);
  if (cmd == "argsort") return cmd_argsort(argc, argv);
  if (cmd == "topk") return cmd_topk(argc, argv);
  if (cmd == "bench") {
    for (int i = 2; i < argc; ++i)  // `bench --gpus N` is the multi-GPU bench
      if (std::string_view(argv[i]) == "--gpus" || std::string_view(argv[i]).starts_with("--gpus="))
        return cmd_bench_multi(argc, argv);
    return cmd_bench(argc, argv);
  }
  if (cmd == "bench-multi") return cmd_bench_multi(argc, argv);
  if (cmd == "multi-run") return cmd_multi_run(argc, argv);
  if (cmd == "bench-topk") return cmd_bench_topk(argc, argv);
  if (cmd == "plot") return cmd_plot(argc, argv);
  throw usage_error("unknown command '" + std::string(cmd) + "' (see 'gpusort --help')");
}

}  // namespace

int main(int argc, char** argv) {
  using namespace gpusort::cli;
  // A write past a file-size limit (ulimit -f) then fails with EFBIG, which
  // output_file reports and cleans up after, instead of killing the process
  // with its temporary file left behind.
  std::signal(SIGXFSZ, SIG_IGN);
  // A reader that goes away (`gpusort sort keys.npy - | head -c 100`) then
  // makes a write fail with EPIPE, reported like any write error (exit 2),
  // instead of killing the process without a word.
  std::signal(SIGPIPE, SIG_IGN);
  try {
    return dispatch(argc, argv);
  } catch (const usage_error& e) {
    std::fflush(stdout);
    std::fprintf(stderr, "gpusort: %s\n", e.what());
    return exit_usage;
  } catch (const gpusort::error& e) {
    std::fflush(stdout);
    // A file the library could not read is an I/O error; anything else
    // means the sort itself failed.
    std::fprintf(stderr, "gpusort: %s\n", e.what());
    return e.code() == gpusort::errc::io ? exit_usage : exit_failure;
  } catch (const std::bad_alloc&) {
    std::fflush(stdout);
    std::fprintf(stderr, "gpusort: out of host memory\n");
    return exit_failure;
  } catch (const std::exception& e) {
    std::fflush(stdout);
    std::fprintf(stderr, "gpusort: %s\n", e.what());
    return exit_failure;
  }
}
