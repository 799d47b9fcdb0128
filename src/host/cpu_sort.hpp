// The parallel CPU sort behind the host API's fallback and the benchmark's
// cpu_parallel baseline. Stable; same order as the GPU sorts.
#pragma once

#include <gpusort/detail/core/context.hpp>

#include <gpusort/gpusort.hpp>

#include <cstddef>

namespace gpusort::detail {

// vals may be null (keys only); val_size is the value width in bytes.
template <class K>
void cpu_sort(K* keys, void* vals, std::size_t val_size, std::size_t n, const options& opt, const call_context& ctx);

}  // namespace gpusort::detail
