// One rank's part of the multi-GPU sort, on the key's carrier C: the call
// the public API (include/gpusort/multi.hpp, src/multi/api.cpp) hands to
// the generated multi_<kind>.cu units (shard_sort.cuh). Plain C++.
#pragma once

#include "multi/transport.hpp"

#include <gpusort/detail/core/context.hpp>
#include <gpusort/detail/key_traits.hpp>

#include <cuda_runtime_api.h>

#include <cstddef>
#include <functional>
#include <vector>

namespace gpusort::detail::multi {

// What a rank learns: its count, every rank's, and (when timed) where the
// time went, in milliseconds of this rank's streams.
struct shard_result {
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
  bool timed;
  bool sort_first;           // sort the shard, then split it (else partition it first)
  int rounds;                // sort first: the exchange's rounds (>= 1)
  shard_result* out;
};

template <class C> void sort_shard(const shard_call<C>& c);

}  // namespace gpusort::detail::multi
