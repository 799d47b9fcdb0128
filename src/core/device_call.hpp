// One device sort call after validation: what the entry (device_api.cu)
// hands to the family that runs it (run_family.cuh), and the entry's
// declaration of each (algorithm, key type) unit it dispatches to.
#pragma once

#include <gpusort/detail/core/context.hpp>
#include <gpusort/detail/key_traits.hpp>
#include <gpusort/gpusort.hpp>

#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>

namespace gpusort::detail {

// argsort's request of a pairs sort whose values are 4- or 8-byte indices
// (runtime_api.cpp's argsort_device). A family that takes it (F::takes_form:
// onesweep) folds it into its passes; for any other, run_family.cuh makes
// the iota before the sort and widens after it, as argsort did before.
//   positions     the values are the keys' positions: vals_in is scratch
//                 that is not read (the first pass makes each index from
//                 the key's place, instead of an iota written and read)
//   keys_dropped  the sorted keys are not wanted: the last write leaves
//                 keys_out unwritten (it is still scratch for the passes)
//   wide_out      4-byte values only: the last write stores them widened to
//                 64 bits here instead of to vals_out, which stays scratch.
//                 It may alias keys_out and vals_in, never keys_in or
//                 vals_out: the last write reads none of the first two.
struct argsort_form {
  bool positions = false;
  bool keys_dropped = false;
  std::uint64_t* wide_out = nullptr;
  bool any() const { return positions || keys_dropped || wide_out; }
};

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
  argsort_form form{};
};

// The entry with argsort's form (device_api.cu; sort_device is this with none).
template <class K>
void sort_device_formed(void* temp, std::size_t* temp_bytes, const K* keys_in, K* keys_out, const void* vals_in,
                        void* vals_out, std::size_t val_size, std::size_t n, const options& opt, const char* op,
                        const argsort_form& form);

// Defined in run_family.cuh; explicitly instantiated by the generated unit
// of each algorithm and key type that the build selects.
template <algorithm A, class K> void run_algorithm(const device_call<K>& c);

}  // namespace gpusort::detail
