// Peer: cub::DeviceTopK (MaxPairs / MinPairs) for bench-topk, the keys with
// their indices as values (a counting iterator, so no index array is read,
// as ours reads none). CUB offers the selection in one mode only: output
// in no order, ties at the k-th key broken in no fixed way
// (determinism::not_guaranteed, output_ordering::unsorted). Offset width:
// the item count's type (cub_offsets.hpp), from which CUB picks its offsets.
#pragma once

#include "bench/cuda_check.hpp"
#include "bench/peers/cub_offsets.hpp"
#include "bench/peers/this_cub.cuh"
#include "bench/topk_peer.hpp"

#include <cub/device/device_topk.cuh>
#include <cuda/__execution/determinism.h>
#include <cuda/__execution/output_ordering.h>
#include <cuda/__execution/require.h>
#include <cuda/iterator>
#include <cuda/stream>

namespace gpusort::cli::bench {

template <class K, cub_build B> class cub_topk final : public topk_peer<K> {
 public:
  variant_list variants(std::size_t n) const override {
    return {this_cub_name<B>() + ", DeviceTopK (unsorted), offsets", offset_width_names(n)};
  }
  void select_variant(const std::string& name) override { width_ = parse_offset_width(name); }

  void select(void* temp, std::size_t& bytes, const K* keys_in, K* keys_out, std::int64_t* idx_out, std::size_t n,
              std::size_t k, bool largest, cudaStream_t stream) override {
    const auto env = cuda::std::execution::env{
        cuda::stream_ref{stream}, cuda::execution::require(cuda::execution::determinism::not_guaranteed,
                                                           cuda::execution::output_ordering::unsorted)};
    const cuda::counting_iterator<std::int64_t> indices{0};
    with_offset(width_, n, [&](auto count) {
      const auto kk = decltype(count)(k);
      if (largest)
        cuda_check(cub::DeviceTopK::MaxPairs(temp, bytes, keys_in, keys_out, indices, idx_out, count, kk, env),
                   "cub::DeviceTopK::MaxPairs");
      else
        cuda_check(cub::DeviceTopK::MinPairs(temp, bytes, keys_in, keys_out, indices, idx_out, count, kk, env),
                   "cub::DeviceTopK::MinPairs");
    });
  }

 private:
  offset_width width_ = offset_width::int64;  // valid for every n
};

template <class K, cub_build B> std::unique_ptr<topk_peer<K>> make_cub_topk() {
  return std::make_unique<cub_topk<K, B>>();
}

}  // namespace gpusort::cli::bench

#define GPUSORT_CLI_INSTANTIATE_cub_topk(K, V) \
  template std::unique_ptr<gpusort::cli::bench::topk_peer<K>> gpusort::cli::bench::make_cub_topk<K, GPUSORT_CLI_THIS_CUB>();
