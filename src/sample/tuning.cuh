// Sample sort (Sintorn & Assarsson 2008's bucket/merge hybrid; seed 002,
// design/techniques.md §4): the constants every stage shares.
//
// Buckets: S = 255 splitters drawn from a sorted random sample give
// B = 2S + 1 = 511 buckets, in key order:
//   2j      range bucket j:  s[j-1] < key < s[j]   (j = 0..S; open ends)
//   2j + 1  equality bucket: key == s[j]           (rank-equal under the order)
// A key equal to a splitter goes to that splitter's equality bucket, which
// needs no sorting, so all-equal, few-unique and zipf inputs cannot pile
// into one range bucket (equal splitters leave the range bucket between
// them empty and the first one's equality bucket takes every copy).
#pragma once

#include <cstddef>

namespace gpusort::detail::sample {

struct tuning {
  static constexpr int splitters = 255;                 // S
  static constexpr int buckets = 2 * splitters + 1;     // B
  static constexpr int sample_log2 = 11;                // 2048 samples, oversampling 8
  static constexpr int samples = 1 << sample_log2;
  static constexpr int sample_threads = 1024;           // one block sorts the sample
  static constexpr int oversample = samples / (splitters + 1);
  static constexpr int threads = 256;                   // count and scatter blocks
  static constexpr int warps = threads / 32;
  static constexpr int items = 32;                      // keys per thread per tile
  static constexpr int tile = threads * items;          // 8192 keys per count/scatter tile
  // Inputs this small go straight to the merge sort: the fixed costs (sample
  // sort, 511 x tiles table, host sync) would dominate.
  static constexpr std::size_t direct_max = std::size_t(1) << 14;
};

static_assert(tuning::samples == tuning::oversample * (tuning::splitters + 1));

// Bucket of carried key k: lower bound over the sorted splitters, then the
// equality test. `s` holds tuning::splitters carried keys (shared memory).
template <class Ord, class U>
__device__ __forceinline__ int bucket_of(const Ord& ord, const U* s, U k) {
  int pos = 0;  // number of splitters strictly below k
#pragma unroll
  for (int step = 128; step > 0; step >>= 1)
    if (pos + step <= tuning::splitters && ord.less(s[pos + step - 1], k)) pos += step;
  if (pos < tuning::splitters && !ord.less(k, s[pos])) return 2 * pos + 1;
  return 2 * pos;
}

}  // namespace gpusort::detail::sample
