// A top-k peer as `gpusort bench-topk` times it: the k largest (or
// smallest) of n keys with their int64 indices, in no particular order,
// through a two-phase call (query the scratch, then select) on a stream.
// Variants as device_sorter's: the item count's width (cub_offsets.hpp),
// each timed, the faster reported. Host only; the CUB peer is
// peers/cub_topk.cuh, built against the newest CUB alone (the toolkit's
// has no DeviceTopK), for the keys of GPUSORT_CLI_CUB_TOPK_KEYS
// (built_keys.hpp).
#pragma once

#include "bench/device_sorter.hpp"
#include "bench/peers/cub_build.hpp"

#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>
#include <memory>

namespace gpusort::cli::bench {

template <class K> class topk_peer {
 public:
  virtual ~topk_peer() = default;
  virtual variant_list variants(std::size_t n) const = 0;
  virtual void select_variant(const std::string& name) = 0;
  // temp == nullptr: sets bytes to the scratch needed, selects nothing.
  virtual void select(void* temp, std::size_t& bytes, const K* keys_in, K* keys_out, std::int64_t* idx_out,
                      std::size_t n, std::size_t k, bool largest, cudaStream_t stream) = 0;
};

template <class K, cub_build B> std::unique_ptr<topk_peer<K>> make_cub_topk();

}  // namespace gpusort::cli::bench
