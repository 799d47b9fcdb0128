// A GPU sort as the benchmark times it: our algorithms and the GPU peers
// (CUB radix, CUB merge, CUB segmented, Thrust) behind one interface, so
// that the timing loop (gpu_timing.hpp) is written once. Segmented sorts
// are told the point's segments first (set_segments). K is the key, V the
// value of pairs (std::uint32_t or std::uint64_t: value = original index);
// a keys-only run uses the u32 sorter with null value pointers.
//
// Lifetime per benchmark point (one n): the driver allocates the data
// buffers, queries scratch_bytes(), checks that the scratch fits and
// allocates it (at least 1 byte, so that a non-null pointer never reads as
// a size query), then calls
// sort() 2 + reps times; only sort() is inside the timed region. A sorter
// with variants (the CUB peers' offset widths) goes through this once per
// variant, selected first, and the point reports the fastest (suite.cpp).
#pragma once

#include "bench/peers/cub_build.hpp"

#include <gpusort/gpusort.hpp>

#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace gpusort::cli::bench {

// Configurations of one sorter that the bench times in turn at a point,
// each like any other sort, reporting the fastest: `what` names what
// differs ("offsets"), `names` the choices valid for that n.
struct variant_list {
  std::string what;
  std::vector<std::string> names;  // empty: a single configuration
};

// The segments of a segmented benchmark point (segN, segpowN) in device
// memory: offsets[0..num_segments], segment i = [offsets[i], offsets[i+1]),
// as int32 (null when n > INT32_MAX) and as int64. Owned by the point.
struct device_segments {
  std::size_t num_segments = 0;
  const std::int32_t* offsets32 = nullptr;
  const std::int64_t* offsets64 = nullptr;
};

template <class K, class V> class device_sorter {
 public:
  virtual ~device_sorter() = default;
  // Scratch the driver must allocate and pass to sort() for these buffers
  // (keys only when vals_in is null). Queried only, nothing is allocated.
  virtual std::size_t scratch_bytes(K* keys_in, K* keys_out, V* vals_in, V* vals_out,
                                    std::size_t n) = 0;
  // Device memory the sorter allocates itself (a guess is fine): counted in
  // the does-it-fit check.
  virtual std::size_t own_bytes(std::size_t /*n*/, bool /*pairs*/) { return 0; }
  // Whether the result is left in the input buffers instead of the output.
  virtual bool in_place(bool /*pairs*/) const { return false; }
  // The configurations to time at n (none by default), and the choice of
  // one of variants(n).names for the scratch_bytes() and sort() calls that
  // follow.
  virtual variant_list variants(std::size_t /*n*/) const { return {}; }
  // Segmented sorters only (the others ignore it): the point's segments, and
  // whether values ride along, for every call that follows (variants()
  // included); set once per point, before anything else.
  virtual void set_segments(const device_segments& /*segments*/, bool /*pairs*/) {}
  virtual void select_variant(const std::string& /*name*/) {}
  // Sorts n keys (and values, when vals_in is non-null) ascending on
  // `stream`, asynchronously. Input buffers may be overwritten.
  virtual void sort(void* temp, std::size_t temp_bytes, K* keys_in, K* keys_out, V* vals_in,
                    V* vals_out, std::size_t n, cudaStream_t stream) = 0;
};

// Factories, explicitly instantiated (ours in ours.cpp, the peers in the
// generated peers/*.cu files) for:
//   make_ours, make_ours_segmented   all 12 keys, u32 and u64 values (no
//                                    kernels: the library's own calls);
//   make_cub_radix, make_cub_merge   all 12 keys with u32 values, the keys
//                                    of GPUSORT_CLI_U64_VALUE_KEYS with u64;
//   make_thrust                      all 12 keys, u32 values only;
//   make_cub_segmented               the keys of GPUSORT_CLI_CUB_SEGMENTED_KEYS,
//                                    u32 values only (built_keys.hpp).
// The CUB factories exist for each CUB build B (peers/cub_build.hpp): the
// toolkit's always, the newest CCCL's where has_cub_latest.
// pivots: sample sort's pivot rule (options::pivots; other algorithms ignore it).
template <class K, class V>
std::unique_ptr<device_sorter<K, V>> make_ours(algorithm algo, pivot_rule pivots);
template <class K, class V> std::unique_ptr<device_sorter<K, V>> make_ours_segmented();
template <class K, class V, cub_build B> std::unique_ptr<device_sorter<K, V>> make_cub_radix();
template <class K, class V, cub_build B> std::unique_ptr<device_sorter<K, V>> make_cub_merge();
template <class K, class V, cub_build B> std::unique_ptr<device_sorter<K, V>> make_cub_segmented();
template <class K, class V> std::unique_ptr<device_sorter<K, V>> make_thrust();

// make_cub_radix of the newest CUB where it was built, else the toolkit's:
// the CUB sort that other rows build on (the naive host rows, bench-topk's
// sort-and-slice).
template <class K, class V> std::unique_ptr<device_sorter<K, V>> make_best_cub_radix() {
  if constexpr (has_cub_latest) return make_cub_radix<K, V, cub_build::latest>();
  else return make_cub_radix<K, V, cub_build::cuda>();
}

}  // namespace gpusort::cli::bench
