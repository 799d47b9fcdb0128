// gpusort with the key type chosen at run time: the entry for bindings (the
// Python package, python/) and for tools that read the type from a file.
//
// Everything here is a thin layer over gpusort.hpp's typed calls, plus what
// array libraries offer that the typed API leaves to the caller:
//   * rows: a 2-D array of `rows` rows sorts each row on its own (the
//     segmented sort, with the row offsets made on the device);
//   * argsort: the indices of the keys in sorted order (within each row),
//     as int32 or int64, stable; the keys are sorted in scratch.
// Device calls are two-phase (temp == nullptr sizes the scratch) and
// stream-ordered on opt.stream, with no host synchronisation, so they can be
// captured in a CUDA graph. Host calls take the sort(std::span) path (the
// GPU when present, the CPU backend otherwise) and return when done.
// Every failure throws gpusort::error, as the typed calls do.
#pragma once

#include <gpusort/gpusort.hpp>
#include <gpusort/topk.hpp>

#include <cstddef>
#include <string_view>

namespace gpusort {

// The 12 key types, in key_traits.hpp's order.
enum class key_type { u8, u16, u32, u64, i8, i16, i32, i64, f16, bf16, f32, f64 };
inline constexpr int key_type_count = 12;

std::string_view to_string(key_type t);  // "u32", as key_info names it
bool parse_key_type(std::string_view name, key_type& out);
std::size_t size_of(key_type t);

// One run-time typed sort: n keys in all, as `rows` rows of n / rows keys
// (rows == 1: one array). n must be a multiple of rows.
struct sort_spec {
  key_type key = key_type::u32;
  std::size_t n = 0;
  std::size_t rows = 1;
};

// ---- device memory -------------------------------------------------------------
// Keys, or pairs when val_size > 0 (values of 1 to 16 bytes). keys_in may
// equal keys_out (and vals_in vals_out). Rows are sorted stably whatever
// opt.algo says (the segmented sort).
void sort_device(void* temp, std::size_t& temp_bytes, const sort_spec& s, const void* keys_in, void* keys_out,
                 const void* vals_in, void* vals_out, std::size_t val_size, const options& opt);
// indices_out[i] = the index (within its row) of the i-th key in sorted
// order; index_bytes 4 (int32: rows of fewer than 2^31 keys) or 8 (int64).
// Stable: opt.algo must be a stable algorithm (or automatic). indices_out
// holds part of the call's working data until the indices are written,
// which keeps the scratch small (int64 indices of f32 keys: 12 bytes a key,
// plus the radix sort's tables); when it overlaps keys_in, all of that lies
// in scratch, so query with the pointers of the call.
void argsort_device(void* temp, std::size_t& temp_bytes, const sort_spec& s, const void* keys_in,
                    void* indices_out, int index_bytes, const options& opt);

// Segments [offsets[i], offsets[i + 1]) of the keys (and values), in place,
// as gpusort::segmented_sort_keys: `segments` + 1 offsets in device memory,
// of offset_bytes 4 or 8 (negative: signed). Keys outside every segment are
// left as they are. Stable.
void segmented_sort_device(void* temp, std::size_t& temp_bytes, key_type key, std::size_t n, std::size_t segments,
                           void* keys, void* vals, std::size_t val_size, const void* offsets, int offset_bytes,
                           const options& opt);

// The k best keys of each row (rows == 1: of the array), as topk.hpp's
// calls: keys_out[r * k + j] and, when indices_out is not null, their
// indices within the row (index_bytes 4 or 8). k <= the row length.
void topk_device(void* temp, std::size_t& temp_bytes, const sort_spec& s, std::size_t k, const void* keys_in,
                 void* keys_out, void* indices_out, int index_bytes, const topk_options& opt);

// ---- host memory ---------------------------------------------------------------
// keys_in may equal keys_out. force_cpu runs the CPU backend whatever is
// present. Returns the backend that ran.
backend sort_host(const sort_spec& s, const void* keys_in, void* keys_out, const void* vals_in, void* vals_out,
                  std::size_t val_size, const options& opt, bool force_cpu = false);
backend argsort_host(const sort_spec& s, const void* keys_in, void* indices_out, int index_bytes,
                     const options& opt, bool force_cpu = false);
// The segmented sort of host keys, in place, with the offsets in host
// memory: one segment per thread on the CPU (segments are small and many).
backend segmented_sort_host(key_type key, std::size_t n, std::size_t segments, void* keys, void* vals,
                            std::size_t val_size, const void* offsets, int offset_bytes, const options& opt);

}  // namespace gpusort
