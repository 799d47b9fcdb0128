// Which CUB a peer is built against. The CUB peers (cub_radix, cub_merge,
// cub_segmented, the struct key's merge sort; cub_topk in bench-topk) are
// compiled twice:
//   latest  against the newest CCCL's headers, which scripts/setup.sh
//           fetches at a pinned version (the rows cub_radix, cub_merge,
//           cub_segmented, cub_topk_k<k>);
//   cuda    against the CUDA toolkit's own CCCL, for reference (the rows
//           cub_radix_cuda, cub_merge_cuda, cub_segmented_cuda).
// Without the fetched headers only the cuda build exists, and the latest
// rows are skipped, saying so. src/cli/CMakeLists.txt passes what was
// built:
//   GPUSORT_CLI_HAS_CUB_LATEST       1 or 0
//   GPUSORT_CLI_CUB_LATEST_VERSION   "3.6.0" (empty when not built)
//   GPUSORT_CLI_CUB_CUDA_VERSION     the toolkit's, "3.0.1"
//
// The two builds live in separate translation units that never include
// both CCCLs; every peer class and factory takes its build as a template
// argument (cub_build), so the two builds' instantiations have distinct
// symbols and the linker cannot merge one into the other. Host only, no CUB.
#pragma once

#include <string>
#include <string_view>

#if !defined(GPUSORT_CLI_HAS_CUB_LATEST) || !defined(GPUSORT_CLI_CUB_LATEST_VERSION) || \
    !defined(GPUSORT_CLI_CUB_CUDA_VERSION)
#error "the CUB builds (GPUSORT_CLI_HAS_CUB_LATEST, ...) come from src/cli/CMakeLists.txt"
#endif

namespace gpusort::cli::bench {

enum class cub_build { latest, cuda };

inline constexpr bool has_cub_latest = GPUSORT_CLI_HAS_CUB_LATEST != 0;

inline constexpr std::string_view cub_version(cub_build b) {
  return b == cub_build::latest ? std::string_view(GPUSORT_CLI_CUB_LATEST_VERSION)
                                : std::string_view(GPUSORT_CLI_CUB_CUDA_VERSION);
}

// The CSV's '#' line on the two builds.
inline std::string cub_builds_line() {
  std::string s = "cub_radix, cub_merge, cub_segmented, cub_topk: ";
  s += has_cub_latest ? "CUB " + std::string(cub_version(cub_build::latest)) + " (the newest CCCL's headers)"
                      : std::string("not built (the newest CCCL's headers were not found: scripts/setup.sh)");
  s += "; cub_radix_cuda, cub_merge_cuda, cub_segmented_cuda: CUB " +
       std::string(cub_version(cub_build::cuda)) + " (the CUDA toolkit's)";
  return s;
}

}  // namespace gpusort::cli::bench
