// The CUB this translation unit compiles against, as a cub_build
// (cub_build.hpp): GPUSORT_CLI_THIS_CUB, which the peers' instantiation
// macros pass as their build. src/cli/CMakeLists.txt compiles the newest
// CCCL's units with GPUSORT_CLI_CUB_LATEST defined and those headers first
// on their include path; every other unit sees the toolkit's.
#pragma once

#include "bench/peers/cub_build.hpp"

#include <cub/version.cuh>

#include <string>

#ifdef GPUSORT_CLI_CUB_LATEST
#if CUB_VERSION < 300500
#error "a unit of the newest CCCL sees an older CUB: its headers must come first on the include path"
#endif
#define GPUSORT_CLI_THIS_CUB ::gpusort::cli::bench::cub_build::latest
#else
#define GPUSORT_CLI_THIS_CUB ::gpusort::cli::bench::cub_build::cuda
#endif

namespace gpusort::cli::bench {

// "CUB 3.6.0", from the headers this unit was compiled with. A template on
// the build, so each build's unit defines its own.
template <cub_build B> std::string this_cub_name() {
  return "CUB " + std::to_string(CUB_VERSION / 100000) + "." + std::to_string(CUB_VERSION / 100 % 1000) + "." +
         std::to_string(CUB_VERSION % 100);
}

}  // namespace gpusort::cli::bench
