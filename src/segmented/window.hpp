// Segmented sort: 8-byte ranks as one word with their index, for segments
// of up to 64 keys (keys of 8 bytes with values, or in an order that is not
// one of every bit: a bit range, folded zeros or NaNs). A (rank, index)
// pair of 16 bytes holds too many registers for a lane to sort 32 of them
// (255 registers, four blocks an SM, slower than the group network). But
// a segment's ranks differ from its least by at most the segment's range,
// and 6 bits of index leave 58 for that difference: the word
//   ((rank - least) >> shift) << 6 | index
// orders the segment exactly by (rank, index) when the range is below
// 2^58 (shift 0: small signed integers, timestamps, ids, keys of few
// values, and every segment of equal keys). Wider ranges (random 64-bit
// keys, doubles of both signs) drop the low `shift` bits, at most 6: two
// ranks closer than 2^shift may then come out in index order rather than
// rank order. The caller checks the gathered keys' ranks and, in the rare
// segment where two came out of order, finishes it by a stable insertion,
// which takes about one step a key on a sequence so nearly sorted.
// Plain C++ as well (GPUSORT_HD), tested on the host
// (tests/segmented_window_test.cpp).
#pragma once

#include <gpusort/detail/core/bit_width.hpp>
#include <gpusort/detail/key_traits.hpp>

#include <cstdint>

namespace gpusort::detail::segmented {

struct rank_window {
  std::uint64_t least = 0;
  unsigned shift = 0;

  static constexpr unsigned index_bits = 6;  // segments of up to 64 keys
  static constexpr unsigned width = 64 - index_bits;

  // the window of ranks least .. most
  GPUSORT_HD static rank_window of(std::uint64_t least, std::uint64_t most) {
    const unsigned bits = unsigned(bit_width64(most - least));
    return {least, bits > width ? bits - width : 0u};
  }
  // the word of a rank in the window and its index in the segment
  GPUSORT_HD std::uint64_t word(std::uint64_t rank, unsigned index) const {
    return ((rank - least) >> shift) << index_bits | index;
  }
  GPUSORT_HD static unsigned index(std::uint64_t word) {
    return unsigned(word & ((1u << index_bits) - 1));
  }
  // the words order the segment exactly
  GPUSORT_HD bool exact() const { return shift == 0; }
};

}  // namespace gpusort::detail::segmented
