// One device sort call after validation: what the entry (device_api.cu)
// hands to the family that runs it (run_family.cuh), and the entry's
// declaration of each (algorithm, key type) unit it dispatches to.
#pragma once

#include <gpusort/detail/core/context.hpp>
#include <gpusort/detail/key_traits.hpp>
#include <gpusort/gpusort.hpp>

#include <cuda_runtime_api.h>

#include <cstddef>

namespace gpusort::detail {

template <class K> struct device_call {
  void* temp = nullptr;               // null: size the scratch into *temp_bytes
  std::size_t* temp_bytes = nullptr;
  const K* keys_in = nullptr;
  K* keys_out = nullptr;
  const void* vals_in = nullptr;      // null for keys-only sorts
  void* vals_out = nullptr;
  std::size_t val_size = 0;           // bytes per value, 0 for keys only
  std::size_t n = 0;
  key_order<K> ord{};
  cudaStream_t stream = nullptr;
  const call_context* ctx = nullptr;
  pivot_rule pivots = pivot_rule::sampled;
};

// Defined in run_family.cuh; explicitly instantiated by the generated unit
// of each algorithm and key type that the build selects.
template <algorithm A, class K> void run_algorithm(const device_call<K>& c);

}  // namespace gpusort::detail
