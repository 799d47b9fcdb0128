// gpusort::merge_sort_keys / merge_sort_pairs: the merge-path merge sort
// (algorithm::merge_path) for ANY key type under a caller's comparator.
//
//   struct by_major_minor {
//     __device__ bool operator()(const rec& a, const rec& b) const {
//       return a.major < b.major || (a.major == b.major && a.minor < b.minor);
//     }
//   };
//   gpusort::merge_sort_keys(d_in, d_out, n, by_major_minor{}, stream);
//
// Header-only (templates over the caller's types): include it from a .cu
// file compiled by nvcc. `less` must be a strict weak order callable on the
// device. Stable. Same two-phase/convenience shape as the rest of the API.
#pragma once

#include <gpusort/error.hpp>

#include <gpusort/detail/merge/merge_sort.cuh>

#include <cstddef>
#include <type_traits>

namespace gpusort {

namespace detail {
template <class K, class V> struct custom_merge {
  using P = std::conditional_t<std::is_void_v<V>, no_value, V>;
  using tune = merge::tuning<K, P>;

  template <class Less>
  static void run(void* temp, std::size_t& temp_bytes, const K* kin, K* kout, const P* vin, P* vout, std::size_t n,
                  Less less, cudaStream_t stream, const char* op) {
    const call_context ctx = make_context(op, "custom", "merge_path", n, temp_bytes);
    if (n > 0 && (!kin || !kout)) ctx.fail(errc::invalid_argument, "null key pointer with n > 0");
    if constexpr (!std::is_void_v<V>)
      if (n > 0 && (!vin || !vout)) ctx.fail(errc::invalid_argument, "null value pointer with n > 0");
    std::size_t need = merge::sort_temp_bytes<tune, K, P>(n);
    if (!temp) {
      temp_bytes = need ? need : 1;
      return;
    }
    if (temp_bytes < need) ctx.fail(errc::invalid_argument, "temp_bytes smaller than the query returned");
    merge::sort<tune>(ctx, kin, kout, vin, vout, n, merge::custom_order<K, Less>{less}, stream, temp);
  }

  template <class Less>
  static void run_alloc(const K* kin, K* kout, const P* vin, P* vout, std::size_t n, Less less, cudaStream_t stream,
                        const char* op) {
    allocating_call(make_context(op, "custom", "merge_path", n), stream, [&](void* temp, std::size_t& bytes) {
      run(temp, bytes, kin, kout, vin, vout, n, less, stream, op);
    });
  }
};
}  // namespace detail

template <class K, class Less>
void merge_sort_keys(void* temp, std::size_t& temp_bytes, const K* in, K* out, std::size_t n, Less less,
                     cudaStream_t stream = nullptr) {
  static_assert(std::is_trivially_copyable_v<K>, "gpusort: keys must be trivially copyable");
  detail::custom_merge<K, void>::run(temp, temp_bytes, in, out, nullptr, nullptr, n, less, stream, "merge_sort_keys");
}
template <class K, class Less>
void merge_sort_keys(const K* in, K* out, std::size_t n, Less less, cudaStream_t stream = nullptr) {
  static_assert(std::is_trivially_copyable_v<K>, "gpusort: keys must be trivially copyable");
  detail::custom_merge<K, void>::run_alloc(in, out, nullptr, nullptr, n, less, stream, "merge_sort_keys");
}
template <class K, class V, class Less>
void merge_sort_pairs(void* temp, std::size_t& temp_bytes, const K* keys_in, K* keys_out, const V* vals_in,
                      V* vals_out, std::size_t n, Less less, cudaStream_t stream = nullptr) {
  static_assert(std::is_trivially_copyable_v<K> && std::is_trivially_copyable_v<V>,
                "gpusort: keys and values must be trivially copyable");
  detail::custom_merge<K, V>::run(temp, temp_bytes, keys_in, keys_out, vals_in, vals_out, n, less, stream,
                                  "merge_sort_pairs");
}
template <class K, class V, class Less>
void merge_sort_pairs(const K* keys_in, K* keys_out, const V* vals_in, V* vals_out, std::size_t n, Less less,
                      cudaStream_t stream = nullptr) {
  static_assert(std::is_trivially_copyable_v<K> && std::is_trivially_copyable_v<V>,
                "gpusort: keys and values must be trivially copyable");
  detail::custom_merge<K, V>::run_alloc(keys_in, keys_out, vals_in, vals_out, n, less, stream, "merge_sort_pairs");
}

}  // namespace gpusort
