// gpusort top-k: the k largest (or smallest) keys of an array, or of every
// row or segment, by radix selection (RadiK, arXiv 2501.14336): about two
// reads of the input, whatever k. Include it beside gpusort.hpp.
//
//   size_t bytes = 0;
//   gpusort::topk_indices(nullptr, bytes, keys, top, idx, n, k, opt);  // 1. query scratch
//   gpusort::topk_indices(temp,    bytes, keys, top, idx, n, k, opt);  // 2. select
//   gpusort::topk_keys(keys, top, n, k, opt);                          // allocating form
//
// Order: CUB's (key_traits.hpp), as the sorts: the largest are the last
// keys of the ascending order (positive NaNs first, then +inf, ...), the
// smallest its first. -0.0 and +0.0 are equal.
// Ties: among keys equal to the k-th, the LOWEST input indices win, so the
// result is deterministic. Sorted output (the default) lists the winners
// best first (largest: descending; smallest: ascending), equal keys by
// index; unsorted output lists them in input (index) order.
// k may be 0 .. n: k > n throws gpusort::error (errc::invalid_argument),
// in the size query already. Indices are int32/uint32 (n <= 2^32) or
// int64/uint64.
// No host synchronisation: every call can be captured in a CUDA graph.
// Every call also takes unsigned __int128 and __int128 keys, by a whole
// stable radix sort of them (wide_topk.cu, wide_segmented_topk.cu: not a
// selection).
// Builds limited with GPUSORT_KEYS need the u64 units too (the winners'
// indices are sorted as u64 keys).
#pragma once

#include <gpusort/detail/key_traits.hpp>
#include <gpusort/gpusort.hpp>  // nan_order

#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>
#include <type_traits>

namespace gpusort {

struct topk_options {
  bool largest = true;  // the k largest; false: the k smallest
  bool sorted = true;   // best first; false: in input order
  cudaStream_t stream = nullptr;
  nan_order nans = nan_order::bits;  // largest: NaNs are the largest keys (torch.topk's order)
};

namespace detail {
// One array. idx_out / vals_in may be null (index_bytes 0, val_size 0).
template <class K>
void topk_device(void* temp, std::size_t* temp_bytes, const K* keys_in, K* keys_out, void* idx_out,
                 int index_bytes, const void* vals_in, void* vals_out, std::size_t val_size, std::size_t n,
                 std::size_t k, const topk_options& opt, const char* op);
template <class K>
void topk_device_alloc(const K* keys_in, K* keys_out, void* idx_out, int index_bytes, const void* vals_in,
                       void* vals_out, std::size_t val_size, std::size_t n, std::size_t k,
                       const topk_options& opt, const char* op);
// Segments [begin[i], end[i]) (offset_bytes as in segmented_sort_device), or
// rows of row_len keys when row_len > 0 (begin, end unused): k slots a
// segment in keys_out / idx_out, indices local to the segment.
template <class K>
void segmented_topk_device(void* temp, std::size_t* temp_bytes, const K* keys_in, K* keys_out, void* idx_out,
                           int index_bytes, std::size_t n, std::size_t num_segments, const void* begin,
                           const void* end, int offset_bytes, std::size_t row_len, std::size_t k,
                           const topk_options& opt, const char* op);
template <class K>
void segmented_topk_device_alloc(const K* keys_in, K* keys_out, void* idx_out, int index_bytes, std::size_t n,
                                 std::size_t num_segments, const void* begin, const void* end,
                                 int offset_bytes, std::size_t row_len, std::size_t k,
                                 const topk_options& opt, const char* op);
// 128-bit integer keys (src/columns/wide_topk.cu, wide_segmented_topk.cu).
void topk_wide_device(void* temp, std::size_t* temp_bytes, bool is_signed, const void* keys_in, void* keys_out,
                      void* idx_out, int index_bytes, const void* vals_in, void* vals_out, std::size_t val_size,
                      std::size_t n, std::size_t k, const topk_options& opt, const char* op);
void topk_wide_device_alloc(bool is_signed, const void* keys_in, void* keys_out, void* idx_out, int index_bytes,
                            const void* vals_in, void* vals_out, std::size_t val_size, std::size_t n, std::size_t k,
                            const topk_options& opt, const char* op);
void segmented_topk_wide_device(void* temp, std::size_t* temp_bytes, bool is_signed, const void* keys_in,
                                void* keys_out, void* idx_out, int index_bytes, std::size_t n,
                                std::size_t num_segments, const void* begin, const void* end, int offset_bytes,
                                std::size_t row_len, std::size_t k, const topk_options& opt, const char* op);
void segmented_topk_wide_device_alloc(bool is_signed, const void* keys_in, void* keys_out, void* idx_out,
                                      int index_bytes, std::size_t n, std::size_t num_segments, const void* begin,
                                      const void* end, int offset_bytes, std::size_t row_len, std::size_t k,
                                      const topk_options& opt, const char* op);
template <class I> constexpr int check_index() {
  static_assert(std::is_integral_v<I> && (sizeof(I) == 4 || sizeof(I) == 8),
                "gpusort: top-k indices must be 32- or 64-bit integers");
  return int(sizeof(I));
}
template <class K> constexpr void check_topk_key() {
  static_assert(is_key<std::remove_cv_t<K>>::value,
                "gpusort: keys must be u8..u64, i8..i64, __half, __nv_bfloat16, float or double");
}
// The rows and segments calls, for every key type: 128-bit keys to the
// wide functions, the others to segmented_topk_device.
template <class K>
void segmented_topk_any(void* temp, std::size_t* temp_bytes, const K* keys_in, K* keys_out, void* idx_out,
                        int index_bytes, std::size_t n, std::size_t num_segments, const void* begin, const void* end,
                        int offset_bytes, std::size_t row_len, std::size_t k, const topk_options& opt,
                        const char* op) {
  if constexpr (is_wide_int<K>) {
    segmented_topk_wide_device(temp, temp_bytes, is_signed_wide<K>, keys_in, keys_out, idx_out, index_bytes, n,
                               num_segments, begin, end, offset_bytes, row_len, k, opt, op);
  } else {
    check_topk_key<K>();
    segmented_topk_device<K>(temp, temp_bytes, keys_in, keys_out, idx_out, index_bytes, n, num_segments, begin, end,
                             offset_bytes, row_len, k, opt, op);
  }
}
template <class K>
void segmented_topk_any_alloc(const K* keys_in, K* keys_out, void* idx_out, int index_bytes, std::size_t n,
                              std::size_t num_segments, const void* begin, const void* end, int offset_bytes,
                              std::size_t row_len, std::size_t k, const topk_options& opt, const char* op) {
  if constexpr (is_wide_int<K>) {
    segmented_topk_wide_device_alloc(is_signed_wide<K>, keys_in, keys_out, idx_out, index_bytes, n, num_segments,
                                     begin, end, offset_bytes, row_len, k, opt, op);
  } else {
    check_topk_key<K>();
    segmented_topk_device_alloc<K>(keys_in, keys_out, idx_out, index_bytes, n, num_segments, begin, end,
                                   offset_bytes, row_len, k, opt, op);
  }
}
}  // namespace detail

// ---- one array ---------------------------------------------------------------

// The k best keys into keys_out[0, k).
template <class K>
void topk_keys(void* temp, std::size_t& temp_bytes, const K* keys_in, K* keys_out, std::size_t n,
               std::size_t k, const topk_options& opt = {}) {
  if constexpr (detail::is_wide_int<K>) {
    detail::topk_wide_device(temp, &temp_bytes, detail::is_signed_wide<K>, keys_in, keys_out, nullptr, 0, nullptr,
                             nullptr, 0, n, k, opt, "topk_keys");
  } else {
    detail::check_topk_key<K>();
    detail::topk_device<K>(temp, &temp_bytes, keys_in, keys_out, nullptr, 0, nullptr, nullptr, 0, n, k, opt,
                           "topk_keys");
  }
}
template <class K>
void topk_keys(const K* keys_in, K* keys_out, std::size_t n, std::size_t k, const topk_options& opt = {}) {
  if constexpr (detail::is_wide_int<K>) {
    detail::topk_wide_device_alloc(detail::is_signed_wide<K>, keys_in, keys_out, nullptr, 0, nullptr, nullptr, 0, n, k,
                                   opt, "topk_keys");
  } else {
    detail::check_topk_key<K>();
    detail::topk_device_alloc<K>(keys_in, keys_out, nullptr, 0, nullptr, nullptr, 0, n, k, opt, "topk_keys");
  }
}

// The k best keys and their input indices (as torch.topk).
template <class K, class I>
void topk_indices(void* temp, std::size_t& temp_bytes, const K* keys_in, K* keys_out, I* indices_out,
                  std::size_t n, std::size_t k, const topk_options& opt = {}) {
  if constexpr (detail::is_wide_int<K>) {
    detail::topk_wide_device(temp, &temp_bytes, detail::is_signed_wide<K>, keys_in, keys_out, indices_out,
                             detail::check_index<I>(), nullptr, nullptr, 0, n, k, opt, "topk_indices");
  } else {
    detail::check_topk_key<K>();
    detail::topk_device<K>(temp, &temp_bytes, keys_in, keys_out, indices_out, detail::check_index<I>(), nullptr,
                           nullptr, 0, n, k, opt, "topk_indices");
  }
}
template <class K, class I>
void topk_indices(const K* keys_in, K* keys_out, I* indices_out, std::size_t n, std::size_t k,
                  const topk_options& opt = {}) {
  if constexpr (detail::is_wide_int<K>) {
    detail::topk_wide_device_alloc(detail::is_signed_wide<K>, keys_in, keys_out, indices_out, detail::check_index<I>(),
                                   nullptr, nullptr, 0, n, k, opt, "topk_indices");
  } else {
    detail::check_topk_key<K>();
    detail::topk_device_alloc<K>(keys_in, keys_out, indices_out, detail::check_index<I>(), nullptr, nullptr, 0, n, k,
                                 opt, "topk_indices");
  }
}

// The k best keys and the values that go with them (any trivially copyable
// type of 1 to 16 bytes).
template <class K, class V>
void topk_pairs(void* temp, std::size_t& temp_bytes, const K* keys_in, K* keys_out, const V* vals_in,
                V* vals_out, std::size_t n, std::size_t k, const topk_options& opt = {}) {
  static_assert(std::is_trivially_copyable_v<V> && sizeof(V) <= 16, "gpusort: values of 1 to 16 bytes");
  if constexpr (detail::is_wide_int<K>) {
    detail::topk_wide_device(temp, &temp_bytes, detail::is_signed_wide<K>, keys_in, keys_out, nullptr, 0, vals_in,
                             vals_out, sizeof(V), n, k, opt, "topk_pairs");
  } else {
    detail::check_topk_key<K>();
    detail::topk_device<K>(temp, &temp_bytes, keys_in, keys_out, nullptr, 0, vals_in, vals_out, sizeof(V), n, k, opt,
                           "topk_pairs");
  }
}
template <class K, class V>
void topk_pairs(const K* keys_in, K* keys_out, const V* vals_in, V* vals_out, std::size_t n, std::size_t k,
                const topk_options& opt = {}) {
  static_assert(std::is_trivially_copyable_v<V> && sizeof(V) <= 16, "gpusort: values of 1 to 16 bytes");
  if constexpr (detail::is_wide_int<K>) {
    detail::topk_wide_device_alloc(detail::is_signed_wide<K>, keys_in, keys_out, nullptr, 0, vals_in, vals_out,
                                   sizeof(V), n, k, opt, "topk_pairs");
  } else {
    detail::check_topk_key<K>();
    detail::topk_device_alloc<K>(keys_in, keys_out, nullptr, 0, vals_in, vals_out, sizeof(V), n, k, opt,
                                 "topk_pairs");
  }
}

// ---- rows and segments -------------------------------------------------------
// The k best of each row (a row-major matrix of rows x cols keys), or of
// each segment [begin_offsets[i], end_offsets[i]) (offsets in device
// memory, 32- or 64-bit): keys_out[i * k + j] and indices_out[i * k + j]
// (indices within the row or segment; indices_out may be null). For rows,
// k > cols throws gpusort::error (errc::invalid_argument); a segment
// shorter than k is no error: it fills its first `size` slots, the rest
// keep their keys and get index -1. Rows and segments of up to 4096 keys
// are selected one block each; longer ones are sorted (segmented sort) and
// their first k taken, so with opt.sorted == false a row or segment of more
// than 4096 keys still comes back best first, not in input order (shorter
// ones come in input order). 128-bit keys are sorted whole (segmented sort,
// wide_segmented_topk.cu): their segments must not overlap, and with
// opt.sorted == false every row or segment comes back in input order.
template <class K, class I = std::int64_t>
void topk_rows(void* temp, std::size_t& temp_bytes, const K* keys_in, K* keys_out, I* indices_out,
               std::size_t rows, std::size_t cols, std::size_t k, const topk_options& opt = {}) {
  detail::segmented_topk_any<K>(temp, &temp_bytes, keys_in, keys_out, indices_out, detail::check_index<I>(),
                                rows * cols, rows, nullptr, nullptr, 8, cols, k, opt, "topk_rows");
}
template <class K, class I = std::int64_t>
void topk_rows(const K* keys_in, K* keys_out, I* indices_out, std::size_t rows, std::size_t cols, std::size_t k,
               const topk_options& opt = {}) {
  detail::segmented_topk_any_alloc<K>(keys_in, keys_out, indices_out, detail::check_index<I>(), rows * cols, rows,
                                      nullptr, nullptr, 8, cols, k, opt, "topk_rows");
}
template <class K, class O, class I = std::int64_t>
void segmented_topk(void* temp, std::size_t& temp_bytes, const K* keys_in, K* keys_out, I* indices_out,
                    std::size_t n, std::size_t num_segments, const O* begin_offsets, const O* end_offsets,
                    std::size_t k, const topk_options& opt = {}) {
  static_assert(std::is_integral_v<O> && (sizeof(O) == 4 || sizeof(O) == 8), "gpusort: 32- or 64-bit offsets");
  detail::segmented_topk_any<K>(temp, &temp_bytes, keys_in, keys_out, indices_out, detail::check_index<I>(), n,
                                num_segments, begin_offsets, end_offsets,
                                std::is_signed_v<O> ? -int(sizeof(O)) : int(sizeof(O)), 0, k, opt, "segmented_topk");
}
template <class K, class O, class I = std::int64_t>
void segmented_topk(const K* keys_in, K* keys_out, I* indices_out, std::size_t n, std::size_t num_segments,
                    const O* begin_offsets, const O* end_offsets, std::size_t k, const topk_options& opt = {}) {
  static_assert(std::is_integral_v<O> && (sizeof(O) == 4 || sizeof(O) == 8), "gpusort: 32- or 64-bit offsets");
  detail::segmented_topk_any_alloc<K>(keys_in, keys_out, indices_out, detail::check_index<I>(), n, num_segments,
                                      begin_offsets, end_offsets,
                                      std::is_signed_v<O> ? -int(sizeof(O)) : int(sizeof(O)), 0, k, opt,
                                      "segmented_topk");
}

}  // namespace gpusort
