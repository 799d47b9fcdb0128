// The subcommands. Each takes the whole argv (its options start at
// argv[2]) and returns the process exit code; usage errors are thrown as
// usage_error and library failures as gpusort::error, which main() maps to
// exit codes (see args.hpp).
#pragma once

namespace gpusort::cli {

int cmd_gen(int argc, char** argv);
int cmd_verify(int argc, char** argv);
int cmd_sort(int argc, char** argv);
int cmd_argsort(int argc, char** argv);
int cmd_topk(int argc, char** argv);
int cmd_bench(int argc, char** argv);
int cmd_bench_topk(int argc, char** argv);
// Built with NCCL only (GPUSORT_HAS_MULTI); otherwise it says so.
int cmd_bench_multi(int argc, char** argv);
int cmd_multi_run(int argc, char** argv);
int cmd_plot(int argc, char** argv);

}  // namespace gpusort::cli
