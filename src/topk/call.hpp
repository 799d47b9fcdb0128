// Top-k: what the API (src/core/topk_api.cu) hands the launches of one
// carrier key (topk/launch.cuh, in the generated topk_<kind>.cu units).
// Scratch is carved by the API with topk/scratch.hpp.
#pragma once

#include "segmented/bins.cuh"
#include "topk/plan.hpp"

#include <gpusort/detail/core/context.hpp>
#include <gpusort/detail/key_traits.hpp>

#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>

namespace gpusort::detail::topk {

using count_t = unsigned long long;

// The selection's device state (one per call, zeroed by the call's memset).
struct select_state {
  count_t need;          // winners still to take from the candidates
  count_t count;         // candidates now
  count_t winners;       // winner indices written
  count_t listed[2];     // entries of the two candidate lists
  prefix above;          // the chosen digits above this level (the filter's test)
  prefix chosen;         // ... and this level's
  unsigned bucket;       // this level's bucket
  int filter;            // this level runs its filter
  int all_win;           // every candidate up to the bucket wins (then done)
  int appends;           // this level's filter may append (winners or listed survivors)
  int done;              // nothing left to decide
  int hist_at;           // which histogram set counts the current candidates
  int list_at;           // which list holds them (when from_list)
  int from_list;         // the candidates are a list (else: the input, tested by prefix)
  int to_list;           // this level's filter writes its survivors to list list_at ^ 1
  int depth;             // this level's filter counts the survivors' next `depth` digits
  int have;              // the current histograms cover the candidates' levels below this
};


// One array: the k winners' indices (any order) into `winners`.
template <class K> struct select_call {
  const K* keys;
  std::size_t n, k;
  key_order<K> ord;  // full range; descending for the k largest
  select_state* state;
  unsigned long long* hists;
  std::uint64_t* lists[2];
  std::size_t list_capacity;
  std::uint64_t* winners;
  cudaStream_t stream;
  const call_context* ctx;
};

// Rows or segments: keys_out[s * k + j] and the global index gidx[s * k + j].
template <class K> struct segments_call {
  const K* keys;
  K* keys_out;
  std::uint64_t* gidx;
  segmented::offsets off;
  std::size_t segments, k;
  key_order<K> ord;
  bool sorted;
  cudaStream_t stream;
  const call_context* ctx;
};

template <class K> void select(const select_call<K>& c);
template <class K> void select_segments(const segments_call<K>& c);
template <class K> void take_first(const segments_call<K>& c, const K* sorted_keys, const std::uint64_t* sorted_idx);

}  // namespace gpusort::detail::topk
