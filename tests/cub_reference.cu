// CUB reference sorts (see cub_reference.hpp), explicitly instantiated for
// the 12 key types.
#include "cub_reference.hpp"
#include "gpu_util.hpp"

#include <gpusort/detail/key_traits.hpp>

#include <cub/device/device_radix_sort.cuh>

namespace gpusort_test {

namespace {
// Runs a CUB call twice, first to size its scratch, then to sort.
template <class Call> void with_scratch(Call call) {
  std::size_t bytes = 0;
  GPUSORT_CUDA(call(nullptr, bytes));
  device_buffer<unsigned char> temp(bytes);
  GPUSORT_CUDA(call(temp.data(), bytes));
  device_sync();
}

// CUB's item count, 64-bit: DeviceRadixSort takes num_items as a template
// type (NumItemsT) and offsets by that type when it is 4 bytes or wider
// (cub::detail::choose_offset_t), so an int64 count sorts every n the host
// can address; an int would truncate n >= 2^31.
using cub_items = std::int64_t;
}  // namespace

template <class K>
void cub_sort_keys(const K* d_in, K* d_out, std::size_t n, bool descending, int begin_bit, int end_bit) {
  const cub_items items = static_cast<cub_items>(n);
  with_scratch([&](void* temp, std::size_t& bytes) {
    return descending
               ? cub::DeviceRadixSort::SortKeysDescending(temp, bytes, d_in, d_out, items, begin_bit, end_bit)
               : cub::DeviceRadixSort::SortKeys(temp, bytes, d_in, d_out, items, begin_bit, end_bit);
  });
}

template <class K>
void cub_sort_pairs(const K* d_keys_in, K* d_keys_out, const std::uint32_t* d_vals_in,
                    std::uint32_t* d_vals_out, std::size_t n, bool descending, int begin_bit, int end_bit) {
  const cub_items items = static_cast<cub_items>(n);
  with_scratch([&](void* temp, std::size_t& bytes) {
    return descending ? cub::DeviceRadixSort::SortPairsDescending(temp, bytes, d_keys_in, d_keys_out, d_vals_in,
                                                                  d_vals_out, items, begin_bit, end_bit)
                      : cub::DeviceRadixSort::SortPairs(temp, bytes, d_keys_in, d_keys_out, d_vals_in, d_vals_out,
                                                        items, begin_bit, end_bit);
  });
}

#define GPUSORT_TEST_CUB(K)                                                                       \
  template void cub_sort_keys<K>(const K*, K*, std::size_t, bool, int, int);                     \
  template void cub_sort_pairs<K>(const K*, K*, const std::uint32_t*, std::uint32_t*, std::size_t, \
                                  bool, int, int);
GPUSORT_FOR_EACH_KEY(GPUSORT_TEST_CUB)
#undef GPUSORT_TEST_CUB

}  // namespace gpusort_test
