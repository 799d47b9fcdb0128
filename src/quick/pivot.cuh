// GPU quicksort: pivot selection by sampling; the article "GPU sorting" (2024) and
// Cederman & Tsigas use a fixed position or median of three, which sorted,
// organ-pipe and median-of-3-killer inputs defeat).
//
// A block draws S keys, one per stratum of the segment ([i * size / S,
// (i + 1) * size / S)) at a hashed offset inside it, so no position is
// fixed and ordered inputs still give an even spread. The offsets mix the
// segment's begin, size and level, so every segment of every level draws
// afresh. The sorted sample's even quantiles are the pivots (schedule.cuh).
// Every pivot is one of the segment's own keys, so its == class is never
// empty and every level makes progress.
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

}  // namespace gpusort::detail::quick
