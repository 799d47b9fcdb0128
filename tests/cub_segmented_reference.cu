// CUB's segmented sort as the reference for gpusort's (see cub_reference.hpp),
// explicitly instantiated for four key types (has_cub_segmented). Its own translation unit, so
// that it builds beside cub_reference.cu: DeviceSegmentedSort is CUB's
// costliest dispatch to compile (about half a minute of device compilation
// per key type and order on one core). Pairs only (u32 values): the keys of
// StableSortPairs are the output StableSortKeys gives (both are one stable
// sort of the keys), so keys-only cases compare with them and the build
// saves 24 more instantiations.
#include "cub_reference.hpp"
#include "gpu_util.hpp"

#include <gpusort/detail/key_traits.hpp>

#include <cub/device/device_segmented_sort.cuh>

namespace gpusort_test {

// DeviceSegmentedSort takes 64-bit item and segment counts (CCCL 3) and picks
// its offset type from the offsets' value type: int64 here.
template <class K>
void cub_segmented_sort_pairs(const K* d_keys_in, K* d_keys_out, const std::uint32_t* d_vals_in,
                              std::uint32_t* d_vals_out, std::size_t n, std::size_t num_segments,
                              const std::int64_t* d_begin, const std::int64_t* d_end, bool descending) {
  const std::int64_t items = static_cast<std::int64_t>(n), segments = static_cast<std::int64_t>(num_segments);
  auto call = [&](void* temp, std::size_t& bytes) {
    return descending
               ? cub::DeviceSegmentedSort::StableSortPairsDescending(temp, bytes, d_keys_in, d_keys_out, d_vals_in,
                                                                     d_vals_out, items, segments, d_begin, d_end)
               : cub::DeviceSegmentedSort::StableSortPairs(temp, bytes, d_keys_in, d_keys_out, d_vals_in,
                                                           d_vals_out, items, segments, d_begin, d_end);
  };
  std::size_t bytes = 0;
  GPUSORT_CUDA(call(nullptr, bytes));
  device_buffer<unsigned char> temp(bytes);
  GPUSORT_CUDA(call(temp.data(), bytes));
  device_sync();
}

#define GPUSORT_TEST_CUB_SEGMENTED(K)                                                                 \
  template void cub_segmented_sort_pairs<K>(const K*, K*, const std::uint32_t*, std::uint32_t*,       \
                                            std::size_t, std::size_t, const std::int64_t*,            \
                                            const std::int64_t*, bool);
GPUSORT_TEST_CUB_SEGMENTED(std::uint8_t)
GPUSORT_TEST_CUB_SEGMENTED(std::int32_t)
GPUSORT_TEST_CUB_SEGMENTED(float)
GPUSORT_TEST_CUB_SEGMENTED(std::uint64_t)
#undef GPUSORT_TEST_CUB_SEGMENTED

}  // namespace gpusort_test
