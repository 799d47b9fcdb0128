// Peer: cub::DeviceSegmentedSort over the point's segments (segN, segpowN),
// out of place: StableSortKeys for keys, StableSortPairs for pairs. CUB's
// SortKeys/SortPairs run the very same code (both dispatch to its segmented
// radix sort for large segments and warp merge sorts for small ones, which
// are stable), so the stable entry points, which match ours, cost nothing.
// Variants: the width of the segment offsets (cub_offsets.hpp's policy:
// int32 only where n <= 2^31-1, then int64), from which CUB picks its
// offset type; its item and segment counts are 64-bit (CCCL 3). The '# peer'
// line names the CUB version, the entry point and the width.
#pragma once

#include "bench/cuda_check.hpp"
#include "bench/device_sorter.hpp"
#include "bench/peers/cub_offsets.hpp"
#include "bench/peers/cub_sorter.cuh"

#include <cub/device/device_segmented_sort.cuh>

namespace gpusort::cli::bench {

template <class K, class V, cub_build B>
class cub_segmented_sorter final : public two_phase_sorter<K, V, cub_segmented_sorter<K, V, B>> {
 public:
  void set_segments(const device_segments& segments, bool pairs) override {
    segments_ = segments;
    pairs_ = pairs;
  }
  variant_list variants(std::size_t n) const override {
    variant_list v{this_cub_name<B>() + (pairs_ ? ", StableSortPairs, offsets" : ", StableSortKeys, offsets"), {}};
    for (offset_width w : offset_widths(n))
      if (w == offset_width::int64 || segments_.offsets32) v.names.emplace_back(to_string(w));
    return v;
  }
  void select_variant(const std::string& name) override { width_ = parse_offset_width(name); }

  void run(void* temp, std::size_t& bytes, K* keys_in, K* keys_out, V* vals_in,
           V* vals_out, std::size_t n, cudaStream_t stream) const {
    if (width_ == offset_width::int32) {
      if (!segments_.offsets32)
        throw error(errc::invalid_argument, "bench: cub_segmented: no 32-bit offsets for n = " + std::to_string(n));
      call(temp, bytes, keys_in, keys_out, vals_in, vals_out, n, segments_.offsets32, stream);
    } else {
      call(temp, bytes, keys_in, keys_out, vals_in, vals_out, n, segments_.offsets64, stream);
    }
  }
  template <class O>
  void call(void* temp, std::size_t& bytes, K* keys_in, K* keys_out, V* vals_in,
            V* vals_out, std::size_t n, const O* offsets, cudaStream_t stream) const {
    const std::int64_t items = std::int64_t(n), segments = std::int64_t(segments_.num_segments);
    if (vals_in)
      cuda_check(cub::DeviceSegmentedSort::StableSortPairs(temp, bytes, keys_in, keys_out, vals_in,
                                                           vals_out, items, segments, offsets,
                                                           offsets + 1, stream),
                 "cub::DeviceSegmentedSort::StableSortPairs");
    else
      cuda_check(cub::DeviceSegmentedSort::StableSortKeys(temp, bytes, keys_in, keys_out, items,
                                                          segments, offsets, offsets + 1, stream),
                 "cub::DeviceSegmentedSort::StableSortKeys");
  }


 private:
  device_segments segments_;
  bool pairs_ = false;
  offset_width width_ = offset_width::int64;  // valid for every n
};

template <class K, class V, cub_build B> std::unique_ptr<device_sorter<K, V>> make_cub_segmented() {
  return std::make_unique<cub_segmented_sorter<K, V, B>>();
}

}  // namespace gpusort::cli::bench

#define GPUSORT_CLI_INSTANTIATE_cub_segmented(K, V)                                                    \
  template std::unique_ptr<gpusort::cli::bench::device_sorter<K, V>>                                  \
  gpusort::cli::bench::make_cub_segmented<K, V, GPUSORT_CLI_THIS_CUB>();
