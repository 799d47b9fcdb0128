// GPU quicksort: pivot selection by sampling (issue 5; seed 004 and
// Cederman & Tsigas use a fixed position or median of three, which sorted,
// organ-pipe and median-of-3-killer inputs defeat).
//
// A group of S threads draws S keys, one per stratum of the segment
// ([i * size / S, (i + 1) * size / S)) at a hashed offset inside it, so no
// position is fixed and ordered inputs still give an even spread. The
// offsets mix the segment's begin, size and level, so every segment of
// every level draws afresh. Each thread ranks its sample against the
// others (ties broken by index, so the ranks are a permutation) and the one
// of rank S / 2 is the pivot: the median, one of the segment's own keys, so
// the == class is never empty and every level makes progress.
#pragma once

#include <cstddef>
#include <cstdint>

namespace gpusort::detail::quick {

// murmur3's 64-bit finaliser.
__device__ __forceinline__ std::uint64_t mix64(std::uint64_t x) {
  x ^= x >> 33;
  x *= 0xFF51AFD7ED558CCDull;
  x ^= x >> 33;
  x *= 0xC4CEB9FE1A85EC53ull;
  return x ^ (x >> 33);
}

// Index of sample i of S in the segment [begin, begin + size), size >= S.
template <int S>
__device__ __forceinline__ std::size_t sample_index(std::size_t begin, std::size_t size, int level, int i) {
  const std::size_t lo = size / S * std::size_t(i) + size % S * std::size_t(i) / S;
  const std::size_t hi = size / S * std::size_t(i + 1) + size % S * std::size_t(i + 1) / S;
  const std::uint64_t h = mix64(std::uint64_t(begin) * 0x9E3779B97F4A7C15ull ^ std::uint64_t(size) << 8 ^
                                std::uint64_t(level) << 56 ^ std::uint64_t(i));
  return begin + lo + std::size_t(h % (hi - lo));
}

// Rank of s[i] among s[0, S) (ties by index): a permutation of 0 .. S-1.
template <int S, class Ord, class U>
__device__ __forceinline__ int sample_rank(const Ord& ord, const U* s, int i) {
  const U mine = s[i];
  int rank = 0;
#pragma unroll 8
  for (int j = 0; j < S; ++j) {
    const U other = s[j];
    rank += ord.less(other, mine) || (j < i && !ord.less(mine, other));
  }
  return rank;
}

}  // namespace gpusort::detail::quick
