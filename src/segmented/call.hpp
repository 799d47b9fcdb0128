// Segmented sort: one call after validation, as the device entry
// (core/segmented_api.cu) hands it to the unit built for its carrier key
// type (the generated segmented_<kind>.cu units instantiate run<K>).
#pragma once

#include <gpusort/detail/core/context.hpp>
#include <gpusort/detail/key_traits.hpp>

#include <cuda_runtime_api.h>

#include <cstddef>

namespace gpusort::detail::segmented {

// One call after validation (device_api's segmented entry).
template <class K> struct call {
  void* temp;
  std::size_t* temp_bytes;
  const K* keys_in;
  K* keys_out;
  const void* vals_in;
  void* vals_out;
  std::size_t val_size;
  std::size_t n;
  std::size_t segments;
  const void* begin_offsets;
  const void* end_offsets;
  int offset_bytes;
  key_order<K> ord;
  cudaStream_t stream;
  const call_context* ctx;
  std::size_t longest;  // no segment is longer (n, unless the caller knows better)
};

// Sizes the scratch (temp == nullptr) or sorts (sort.cuh).
template <class K> void run(const call<K>& c);

}  // namespace gpusort::detail::segmented
