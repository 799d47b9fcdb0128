// Segmented sort: grids sized on the host. Every class kernel runs a
// grid-stride loop over work it reads on the device, so its grid is the
// resident grid, or less when a host-known bound on its work is smaller.
#pragma once

#include <gpusort/detail/core/context.hpp>
#include <gpusort/detail/core/launch.cuh>

#include <cstddef>

namespace gpusort::detail::segmented {

// Resident blocks of `kernel`, but no more than `work` blocks' worth.
template <class Kernel> unsigned class_grid(const call_context& ctx, Kernel kernel, int threads, std::size_t work) {
  const unsigned resident = resident_grid(ctx, kernel, threads);
  return work < resident ? unsigned(work > 0 ? work : 1) : resident;
}

// Host-known bound on segments of at least `min_size` keys.
inline std::size_t at_most(std::size_t segments, std::size_t n, std::size_t min_size) {
  const std::size_t fit = n / min_size;
  return segments < fit ? segments : fit;
}

}  // namespace gpusort::detail::segmented
