// Bit counts for host and device code, taken here and nowhere else:
//   bit_width64(x)  the bits x needs: 0 for 0, else 1 + the index of its
//                   highest set bit
//   ceil_log2(n)    the least b with 2^b >= n (0 for n <= 1)
//   popcount64(x)   the set bits of x
// Device code uses the hardware's count of leading zeros and population
// count, host code <bit>'s. Not <bit> in device code: there, under
// --expt-relaxed-constexpr, nvcc 13 compiled libstdc++'s std::popcount (a
// __builtin_popcount* call) to nothing (NVVM treats the call as undefined and
// folds it away), and the radix sorts saw garbage digit widths.
#pragma once

#include <gpusort/detail/key_traits.hpp>  // GPUSORT_HD

#include <bit>
#include <cstdint>

namespace gpusort::detail {

GPUSORT_HD int bit_width64(std::uint64_t x) {
#if defined(__CUDA_ARCH__)
  return 64 - __clzll(static_cast<long long>(x));
#else
  return int(std::bit_width(x));
#endif
}

GPUSORT_HD int ceil_log2(std::uint64_t n) { return n <= 1 ? 0 : bit_width64(n - 1); }

GPUSORT_HD int popcount64(std::uint64_t x) {
#if defined(__CUDA_ARCH__)
  return __popcll(x);
#else
  return std::popcount(x);
#endif
}

}  // namespace gpusort::detail
