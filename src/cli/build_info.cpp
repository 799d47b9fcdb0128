#include "build_info.hpp"

#include "gpusort_cli_commit.hpp"  // generated: GPUSORT_CLI_COMMIT

#include <filesystem>
#include <system_error>

#ifndef GPUSORT_SOURCE_DIR
#define GPUSORT_SOURCE_DIR ""
#endif

namespace gpusort::cli {

const char* commit_hash() { return GPUSORT_CLI_COMMIT; }
const char* source_dir() { return GPUSORT_SOURCE_DIR; }

std::string executable_dir() {
  std::error_code ec;
  auto exe = std::filesystem::read_symlink("/proc/self/exe", ec);
  return ec ? std::string() : exe.parent_path().string();
}

}  // namespace gpusort::cli
