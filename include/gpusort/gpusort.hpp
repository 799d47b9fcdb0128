// gpusort: sorting on NVIDIA GPUs. The public API.
//
// Device-memory calls are shaped like CUB's:
//   size_t bytes = 0;
//   gpusort::sort_keys(nullptr, bytes, in, out, n, opt);  // 1. query scratch
//   gpusort::sort_keys(temp,    bytes, in, out, n, opt);  // 2. sort
// or, allocating the scratch with cudaMallocAsync on opt.stream:
//   gpusort::sort_keys(in, out, n, opt);
//   gpusort::sort_keys(data, n, opt);                      // in place
// and the same for sort_pairs. Calls are asynchronous on opt.stream.
//
// Segmented sorts (many independent segments in one call, as
// cub::DeviceSegmentedSort): segmented_sort_keys / segmented_sort_pairs.
//
// The host-memory call gpusort::sort(std::span<K>) (and its pairs variant)
// sorts data in host memory on the GPU when one is present and with a
// parallel CPU sort otherwise, and returns which backend and path ran.
//
// Keys: u8 u16 u32 u64 i8 i16 i32 i64 __half __nv_bfloat16 float double.
// Values: any trivially copyable type of 1 to 16 bytes.
// Order: CUB's by default. -0.0 and +0.0 compare equal; NaNs order by their
// bits (negative NaNs before -inf, positive NaNs after +inf), or, with
// options::nans = nan_order::largest, as NumPy, PyTorch, CuPy and JAX order
// them: every NaN above +inf (last ascending, first descending), all NaNs
// equal and kept in input order by stable sorts (but for the negative
// signalling NaN of payload 1, the sorts' pad, which ranks last both ways). Either
// way the keys come back bit for bit (sign and payload of each NaN, and
// each zero's sign).
// Every failure throws gpusort::error (see error.hpp).
#pragma once

#include <gpusort/detail/key_traits.hpp>
#include <gpusort/error.hpp>

#include <cuda_runtime_api.h>

#include <cstddef>
#include <span>
#include <string_view>
#include <type_traits>

namespace gpusort {

// One value per algorithm family and variant. `automatic` picks the fastest
// measured algorithm for the call.
enum class algorithm {
  automatic,
  odd_even,  // odd-even transposition sort: O(n^2) work, stable (teaching)
  bitonic,   // bitonic sort for any n: O(n log^2 n) work, not stable
  radix_split,     // LSD radix sort by 1-bit splits (scan + scatter): stable (teaching)
  radix_tile,      // tile radix sort in shared memory + merge-path merges: stable
  radix_onesweep,  // onesweep LSD radix sort, 8-bit digits: stable
  merge_recursive,  // host-recursive merge sort, one launch per merge (teaching): stable
  merge_bottom_up,  // bottom-up merge sort, one thread per merge (teaching): stable
  merge_path,       // three-stage merge sort with merge path: stable
  sample,           // sample sort (Sintorn-Assarsson bucket/merge hybrid), equality buckets: stable
  quick,            // GPU quicksort: sampled pivots, multi-pivot partitions with equality classes: not stable
  radix_msd,        // MSD-hybrid radix sort: MSD passes, then one block sorts each small bucket: stable
};

// How sample sort chooses its pivots (splitters): from a random sample of
// the keys (the default), or by linear interpolation over [min, max].
enum class pivot_rule { sampled, interpolated };

enum class order { ascending, descending };

// Where NaNs rank (float keys; integers ignore it). `bits`: by their bit
// pattern, CUB's order. `largest`: above +inf whatever their sign and
// payload, equal to each other, the frameworks' order. It costs no pass:
// it is part of the key transform.
enum class nan_order { bits, largest };

struct options {
  algorithm algo = algorithm::automatic;
  order direction = order::ascending;
  int begin_bit = 0;   // least significant key bit that takes part
  int end_bit = -1;    // one past the most significant; -1 means all bits
  cudaStream_t stream = nullptr;
  pivot_rule pivots = pivot_rule::sampled;  // sample sort only
  nan_order nans = nan_order::bits;
  // Host-memory sorts (sort(std::span)): the most device memory the call may
  // take; 0 means what the device has free. Data that does not fit is sorted
  // out of core (sorted runs, then a merge through the device).
  std::size_t max_device_bytes = 0;
};

// Name as used by the CLI and the benchmark CSV ("bitonic", ...), and back.
std::string_view to_string(algorithm a);
bool parse_algorithm(std::string_view name, algorithm& out);
// Whether the algorithm keeps equal keys in input order.
bool is_stable(algorithm a);

namespace detail {
// The type-erased entry every device call goes through; explicitly
// instantiated in the library for each key type. vals_in/vals_out are null
// for keys-only sorts; val_size is the value type's size in bytes.
template <class K>
void sort_device(void* temp, std::size_t* temp_bytes, const K* keys_in, K* keys_out,
                 const void* vals_in, void* vals_out, std::size_t val_size, std::size_t n,
                 const options& opt, const char* op);
template <class K>
void sort_device_alloc(const K* keys_in, K* keys_out, const void* vals_in, void* vals_out,
                       std::size_t val_size, std::size_t n, const options& opt, const char* op);

template <class V> constexpr void check_value() {
  static_assert(std::is_trivially_copyable_v<V>, "gpusort: values must be trivially copyable");
  static_assert(sizeof(V) >= 1 && sizeof(V) <= 16, "gpusort: values must be 1 to 16 bytes");
}
template <class K> constexpr void check_key() {
  static_assert(is_key<std::remove_cv_t<K>>::value,
                "gpusort: keys must be u8..u64, i8..i64, __half, __nv_bfloat16, float or double");
}

// 128-bit integer keys: sort_keys, sort_pairs and the segmented sorts
// (src/columns/wide.cpp, wide_segmented.cu, detail/wide_key.hpp), as
// records of their two 64-bit halves.
template <class K>
inline constexpr bool is_wide_int =
    std::is_same_v<std::remove_cv_t<K>, unsigned __int128> || std::is_same_v<std::remove_cv_t<K>, __int128>;
template <class K> inline constexpr bool is_signed_wide = std::is_same_v<std::remove_cv_t<K>, __int128>;
void sort_wide_device(void* temp, std::size_t* temp_bytes, bool is_signed, const void* keys_in, void* keys_out,
                      const void* vals_in, void* vals_out, std::size_t val_size, std::size_t n, const options& opt,
                      const char* op);
void sort_wide_device_alloc(bool is_signed, const void* keys_in, void* keys_out, const void* vals_in, void* vals_out,
                            std::size_t val_size, std::size_t n, const options& opt, const char* op);
}  // namespace detail

// ---- keys ------------------------------------------------------------------

// Two-phase form: with temp == nullptr, sets temp_bytes and returns.
// K may also be unsigned __int128 or __int128 (here and in sort_pairs):
// stable, by radix over the two 64-bit halves, the whole key (a bit range
// is refused) and opt.algo not applying.
template <class K>
void sort_keys(void* temp, std::size_t& temp_bytes, const K* in, K* out, std::size_t n,
               const options& opt = {}) {
  if constexpr (detail::is_wide_int<K>) {
    detail::sort_wide_device(temp, &temp_bytes, detail::is_signed_wide<K>, in, out, nullptr, nullptr, 0, n, opt,
                             "sort_keys");
  } else {
    detail::check_key<K>();
    detail::sort_device<K>(temp, &temp_bytes, in, out, nullptr, nullptr, 0, n, opt, "sort_keys");
  }
}
// Allocates its scratch with cudaMallocAsync on opt.stream.
template <class K>
void sort_keys(const K* in, K* out, std::size_t n, const options& opt = {}) {
  if constexpr (detail::is_wide_int<K>) {
    detail::sort_wide_device_alloc(detail::is_signed_wide<K>, in, out, nullptr, nullptr, 0, n, opt, "sort_keys");
  } else {
    detail::check_key<K>();
    detail::sort_device_alloc<K>(in, out, nullptr, nullptr, 0, n, opt, "sort_keys");
  }
}
// In place.
template <class K> void sort_keys(K* data, std::size_t n, const options& opt = {}) {
  sort_keys<K>(data, data, n, opt);
}
template <class K>
void sort_keys(void* temp, std::size_t& temp_bytes, K* data, std::size_t n, const options& opt = {}) {
  sort_keys<K>(temp, temp_bytes, data, data, n, opt);
}

// ---- pairs -----------------------------------------------------------------

template <class K, class V>
void sort_pairs(void* temp, std::size_t& temp_bytes, const K* keys_in, K* keys_out,
                const V* vals_in, V* vals_out, std::size_t n, const options& opt = {}) {
  detail::check_value<V>();
  if constexpr (detail::is_wide_int<K>) {
    detail::sort_wide_device(temp, &temp_bytes, detail::is_signed_wide<K>, keys_in, keys_out, vals_in, vals_out,
                             sizeof(V), n, opt, "sort_pairs");
  } else {
    detail::check_key<K>();
    detail::sort_device<K>(temp, &temp_bytes, keys_in, keys_out, vals_in, vals_out, sizeof(V), n,
                           opt, "sort_pairs");
  }
}
template <class K, class V>
void sort_pairs(const K* keys_in, K* keys_out, const V* vals_in, V* vals_out, std::size_t n,
                const options& opt = {}) {
  detail::check_value<V>();
  if constexpr (detail::is_wide_int<K>) {
    detail::sort_wide_device_alloc(detail::is_signed_wide<K>, keys_in, keys_out, vals_in, vals_out, sizeof(V), n,
                                   opt, "sort_pairs");
  } else {
    detail::check_key<K>();
    detail::sort_device_alloc<K>(keys_in, keys_out, vals_in, vals_out, sizeof(V), n, opt,
                                 "sort_pairs");
  }
}
template <class K, class V>
void sort_pairs(K* keys, V* vals, std::size_t n, const options& opt = {}) {
  sort_pairs<K, V>(keys, keys, vals, vals, n, opt);
}
template <class K, class V>
void sort_pairs(void* temp, std::size_t& temp_bytes, K* keys, V* vals, std::size_t n,
                const options& opt = {}) {
  sort_pairs<K, V>(temp, temp_bytes, keys, keys, vals, vals, n, opt);
}

// ---- segmented sort ----------------------------------------------------------
// Sorts many independent segments in one call: segment i is
// [begin_offsets[i], end_offsets[i]) of the keys (and values), as in
// cub::DeviceSegmentedSort. Offsets live in device memory and may be
// int32, uint32, int64 or uint64; the one-array form takes
// offsets[0 .. num_segments] with segment i = [offsets[i], offsets[i + 1]).
// Segments must not overlap; offsets are clamped to [0, n], and an empty
// segment (end <= begin) sorts nothing. Keys and values outside every
// segment are left untouched in the output (not copied). At most 2^32 - 1
// segments. Stable, in CUB's order;
// options' direction and bit range apply to every segment (opt.algo is
// ignored). No host synchronisation: the call can be captured in a CUDA
// graph. In-place calls (in == out) stage a copy of the input in scratch.
// K may also be unsigned __int128 or __int128: the whole key (a bit range
// is refused), by radix over the segment and the key's halves.
namespace detail {
template <class K>
void segmented_sort_device(void* temp, std::size_t* temp_bytes, const K* keys_in, K* keys_out,
                           const void* vals_in, void* vals_out, std::size_t val_size, std::size_t n,
                           std::size_t num_segments, const void* begin_offsets,
                           const void* end_offsets, int offset_bytes, const options& opt,
                           const char* op);
template <class K>
void segmented_sort_device_alloc(const K* keys_in, K* keys_out, const void* vals_in,
                                 void* vals_out, std::size_t val_size, std::size_t n,
                                 std::size_t num_segments, const void* begin_offsets,
                                 const void* end_offsets, int offset_bytes, const options& opt,
                                 const char* op);
void segmented_sort_wide_device(void* temp, std::size_t* temp_bytes, bool is_signed, const void* keys_in,
                                void* keys_out, const void* vals_in, void* vals_out, std::size_t val_size,
                                std::size_t n, std::size_t num_segments, const void* begin_offsets,
                                const void* end_offsets, int offset_bytes, const options& opt, const char* op);
void segmented_sort_wide_device_alloc(bool is_signed, const void* keys_in, void* keys_out, const void* vals_in,
                                      void* vals_out, std::size_t val_size, std::size_t n, std::size_t num_segments,
                                      const void* begin_offsets, const void* end_offsets, int offset_bytes,
                                      const options& opt, const char* op);
template <class O> constexpr int check_offset() {
  static_assert(std::is_integral_v<O> && (sizeof(O) == 4 || sizeof(O) == 8),
                "gpusort: segment offsets must be 32- or 64-bit integers");
  return std::is_signed_v<O> ? -int(sizeof(O)) : int(sizeof(O));
}
}  // namespace detail

template <class K, class O>
void segmented_sort_keys(void* temp, std::size_t& temp_bytes, const K* in, K* out, std::size_t n,
                         std::size_t num_segments, const O* begin_offsets, const O* end_offsets,
                         const options& opt = {}) {
  if constexpr (detail::is_wide_int<K>) {
    detail::segmented_sort_wide_device(temp, &temp_bytes, detail::is_signed_wide<K>, in, out, nullptr, nullptr, 0, n,
                                       num_segments, begin_offsets, end_offsets, detail::check_offset<O>(), opt,
                                       "segmented_sort_keys");
  } else {
    detail::check_key<K>();
    detail::segmented_sort_device<K>(temp, &temp_bytes, in, out, nullptr, nullptr, 0, n, num_segments,
                                     begin_offsets, end_offsets, detail::check_offset<O>(), opt,
                                     "segmented_sort_keys");
  }
}
template <class K, class O>
void segmented_sort_keys(void* temp, std::size_t& temp_bytes, const K* in, K* out, std::size_t n,
                         std::size_t num_segments, const O* offsets, const options& opt = {}) {
  segmented_sort_keys<K, O>(temp, temp_bytes, in, out, n, num_segments, offsets, offsets + 1, opt);
}
template <class K, class O>
void segmented_sort_keys(const K* in, K* out, std::size_t n, std::size_t num_segments,
                         const O* begin_offsets, const O* end_offsets, const options& opt = {}) {
  if constexpr (detail::is_wide_int<K>) {
    detail::segmented_sort_wide_device_alloc(detail::is_signed_wide<K>, in, out, nullptr, nullptr, 0, n,
                                             num_segments, begin_offsets, end_offsets, detail::check_offset<O>(),
                                             opt, "segmented_sort_keys");
  } else {
    detail::check_key<K>();
    detail::segmented_sort_device_alloc<K>(in, out, nullptr, nullptr, 0, n, num_segments,
                                           begin_offsets, end_offsets, detail::check_offset<O>(), opt,
                                           "segmented_sort_keys");
  }
}
template <class K, class O>
void segmented_sort_keys(const K* in, K* out, std::size_t n, std::size_t num_segments,
                         const O* offsets, const options& opt = {}) {
  segmented_sort_keys<K, O>(in, out, n, num_segments, offsets, offsets + 1, opt);
}

template <class K, class V, class O>
void segmented_sort_pairs(void* temp, std::size_t& temp_bytes, const K* keys_in, K* keys_out,
                          const V* vals_in, V* vals_out, std::size_t n, std::size_t num_segments,
                          const O* begin_offsets, const O* end_offsets, const options& opt = {}) {
  detail::check_value<V>();
  if constexpr (detail::is_wide_int<K>) {
    detail::segmented_sort_wide_device(temp, &temp_bytes, detail::is_signed_wide<K>, keys_in, keys_out, vals_in,
                                       vals_out, sizeof(V), n, num_segments, begin_offsets, end_offsets,
                                       detail::check_offset<O>(), opt, "segmented_sort_pairs");
  } else {
    detail::check_key<K>();
    detail::segmented_sort_device<K>(temp, &temp_bytes, keys_in, keys_out, vals_in, vals_out,
                                     sizeof(V), n, num_segments, begin_offsets, end_offsets,
                                     detail::check_offset<O>(), opt, "segmented_sort_pairs");
  }
}
template <class K, class V, class O>
void segmented_sort_pairs(void* temp, std::size_t& temp_bytes, const K* keys_in, K* keys_out,
                          const V* vals_in, V* vals_out, std::size_t n, std::size_t num_segments,
                          const O* offsets, const options& opt = {}) {
  segmented_sort_pairs<K, V, O>(temp, temp_bytes, keys_in, keys_out, vals_in, vals_out, n,
                                num_segments, offsets, offsets + 1, opt);
}
template <class K, class V, class O>
void segmented_sort_pairs(const K* keys_in, K* keys_out, const V* vals_in, V* vals_out,
                          std::size_t n, std::size_t num_segments, const O* begin_offsets,
                          const O* end_offsets, const options& opt = {}) {
  detail::check_value<V>();
  if constexpr (detail::is_wide_int<K>) {
    detail::segmented_sort_wide_device_alloc(detail::is_signed_wide<K>, keys_in, keys_out, vals_in, vals_out,
                                             sizeof(V), n, num_segments, begin_offsets, end_offsets,
                                             detail::check_offset<O>(), opt, "segmented_sort_pairs");
  } else {
    detail::check_key<K>();
    detail::segmented_sort_device_alloc<K>(keys_in, keys_out, vals_in, vals_out, sizeof(V), n,
                                           num_segments, begin_offsets, end_offsets,
                                           detail::check_offset<O>(), opt, "segmented_sort_pairs");
  }
}
template <class K, class V, class O>
void segmented_sort_pairs(const K* keys_in, K* keys_out, const V* vals_in, V* vals_out,
                          std::size_t n, std::size_t num_segments, const O* offsets,
                          const options& opt = {}) {
  segmented_sort_pairs<K, V, O>(keys_in, keys_out, vals_in, vals_out, n, num_segments, offsets,
                                offsets + 1, opt);
}

// ---- host memory -----------------------------------------------------------

enum class backend { gpu, cpu_parallel };
std::string_view to_string(backend b);

// The route a host-memory sort took.
enum class host_path {
  device_resident,     // the span was already in device memory: sorted in place there
  device_in_core,      // the whole array fit the device: copied in, sorted, copied back (pipelined)
  device_out_of_core,  // sorted in device-sized runs, then merged through the device
  cpu,                 // the CPU backend (no device, sort_cpu, or too little device memory)
};
std::string_view to_string(host_path p);

// What sort(std::span) did. Converts to the backend, so code written for a
// `backend` result keeps working.
struct sort_result {
  gpusort::backend backend = gpusort::backend::cpu_parallel;
  host_path path = host_path::cpu;
  constexpr operator gpusort::backend() const noexcept { return backend; }
  friend constexpr bool operator==(const sort_result& r, gpusort::backend b) noexcept { return r.backend == b; }
  friend constexpr bool operator==(const sort_result&, const sort_result&) noexcept = default;
};

// Whether a usable CUDA device is present (cached after the first call).
bool gpu_available();

namespace detail {
// force_cpu: skip the GPU even if present. vals may be null (keys only).
template <class K>
sort_result sort_host(K* keys, void* vals, std::size_t val_size, std::size_t n, const options& opt,
                      bool force_cpu);
}  // namespace detail

// Sorts keys that live in host memory. Uses the GPU when one is present,
// else a parallel CPU sort (radix sorts, IPS4o for skewed wide keys; the
// stable result). Returns the backend and the path that ran. On the GPU the
// data is pipelined: chunks are copied in and sorted (opt.algo) while the
// next ones arrive, merged on the device, and streamed back; pinned memory
// is copied by DMA directly, pageable memory through a small ring of pinned
// buffers (the caller's array is never pinned). Arrays larger than the
// device (or than opt.max_device_bytes) are sorted out of core. When even
// the out-of-core path's minimum does not fit (three runs of 1024 items and
// one sort's scratch: a device nearly full, or a tiny max_device_bytes) the
// call sorts on the CPU instead, without an error: the result says so
// (backend cpu_parallel, path cpu). Keys already in device memory are
// sorted in place there. Stable on the CPU; on the GPU stable when opt.algo
// is.
template <class K> sort_result sort(std::span<K> keys, const options& opt = {}) {
  detail::check_key<K>();
  return detail::sort_host<K>(keys.data(), nullptr, 0, keys.size(), opt, false);
}
template <class K, class V>
sort_result sort(std::span<K> keys, std::span<V> vals, const options& opt = {}) {
  detail::check_key<K>();
  detail::check_value<V>();
  if (keys.size() != vals.size())
    throw error(errc::invalid_argument, "gpusort::sort: keys and values differ in length");
  return detail::sort_host<K>(keys.data(), vals.data(), sizeof(V), keys.size(), opt, false);
}
// The CPU path alone, whatever hardware is present.
template <class K> sort_result sort_cpu(std::span<K> keys, const options& opt = {}) {
  detail::check_key<K>();
  return detail::sort_host<K>(keys.data(), nullptr, 0, keys.size(), opt, true);
}
template <class K, class V>
sort_result sort_cpu(std::span<K> keys, std::span<V> vals, const options& opt = {}) {
  detail::check_key<K>();
  detail::check_value<V>();
  if (keys.size() != vals.size())
    throw error(errc::invalid_argument, "gpusort::sort_cpu: keys and values differ in length");
  return detail::sort_host<K>(keys.data(), vals.data(), sizeof(V), keys.size(), opt, true);
}

}  // namespace gpusort
