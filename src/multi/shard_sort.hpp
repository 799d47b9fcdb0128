// One rank's part of the multi-GPU sort, on the key's carrier C: the call
// the public API (include/gpusort/multi.hpp, src/multi/api.cpp) hands to
// the generated multi_<kind>.cu units (shard_sort.cuh). Plain C++.
#pragma once

#include "multi/transport.hpp"

#include <gpusort/detail/core/context.hpp>
#include <gpusort/detail/key_traits.hpp>

#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>
#include <functional>
#include <vector>

namespace gpusort::detail::multi {

// How a rank starts (gpusort::multi::strategy): partition first
// (shard_sort.cuh), sort first (sort_first.cuh), radix first
// (radix_first.cuh), or radix first where the top digit balances the ranks
// and sort first elsewhere (automatic).
enum class form { partition_first, sort_first, radix_first, automatic };

// Radix first's balance: the cut of the gathered digit counts must hold
// every rank within 5% of n / p (else the call sorts first);
// the automatic choice first asks the samples' estimate for 2%.
constexpr double radix_balance_tol = 0.05, radix_estimate_tol = 0.02;

// What a rank learns: its count, every rank's, and (when timed) where the
// time went, in milliseconds of this rank's streams.
struct shard_result {
  form used = form::automatic;  // the form that ran
  std::size_t count = 0;
  std::vector<std::size_t> counts;
  float partition_ms = 0;  // sample, splitters, partition or split search, counts (to the host)
  float exchange_ms = 0;   // the transport's group of sends and receives
  float sort_ms = 0;       // the local sorts (partition first: the own bucket's overlaps the exchange)
  float merge_ms = 0;      // merging the sorted runs into the output (sort first: after the last round lands)
};

// The local sort of the key type K (its order and algorithm are the
// caller's): a two-phase call, as gpusort::sort_keys / sort_pairs.
using local_sort_fn = std::function<void(void* temp, std::size_t* temp_bytes, const void* keys_in, void* keys_out,
                                         const void* vals_in, void* vals_out, std::size_t n)>;

// Radix first's stable sorts by the bits [begin_bit, end_bit) of the call's
// order: the partition by the top 8 bits (onesweep), and 8-byte keys' parts,
// whose top bits are constant, by the bits below those (the automatic
// algorithm); a two-phase call, as gpusort::sort_pairs.
using range_sort_fn = std::function<void(void* temp, std::size_t* temp_bytes, const void* keys_in, void* keys_out,
                                         const void* vals_in, void* vals_out, std::size_t n, int begin_bit,
                                         int end_bit)>;

// Radix first's sort of the lower bits (keys of up to 4 bytes): segments
// [begin[i], end[i]) of keys_in (n keys) into the same places of keys_out,
// 64-bit offsets in device memory; a two-phase call, as
// gpusort::segmented_sort_pairs with the bits below the top digit.
using segmented_sort_fn =
    std::function<void(void* temp, std::size_t* temp_bytes, const void* keys_in, void* keys_out, const void* vals_in,
                       void* vals_out, std::size_t n, std::size_t segments, const std::uint64_t* begin,
                       const std::uint64_t* end)>;

template <class C> struct shard_call {
  transport* tx;
  void* temp;                // null: size the scratch into *temp_bytes
  std::size_t* temp_bytes;
  const C* keys_in;          // this rank's n keys
  C* keys_out;               // room for `capacity` keys
  const void* vals_in;       // null for keys alone
  void* vals_out;
  std::size_t val_size;      // 0 for keys alone; 1 to 16
  std::size_t n;
  std::size_t capacity;
  key_order<C> ord;          // the call's order (a partial bit range: one sort, no merge)
  cudaStream_t stream;
  const call_context* ctx;
  const local_sort_fn* local_sort;
  const range_sort_fn* range_sort;       // radix first: the stable sorts by a range of rank bits
  const segmented_sort_fn* rest_sort;    // radix first: the segments by the bits below them
  bool timed;
  form how;
  int rounds;                // the exchange's rounds (>= 1; radix first: one)
  shard_result* out;
};

template <class C> void sort_shard(const shard_call<C>& c);

}  // namespace gpusort::detail::multi
