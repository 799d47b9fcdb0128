// The plan of a sort by several key columns (columns.hpp), in plain C++ so
// that the host tests check it without a GPU.
//
// A row's order is lexicographic over the columns, first column primary,
// then by row index (stable). Each column maps to its order-preserving bits
// (the key transform of key_traits.hpp, inverted for a descending column),
// and consecutive columns whose bits fit in 64 are packed into one
// normalized key, the first column highest: comparing packed keys as
// unsigned integers is comparing the columns one after the other. When all
// the columns fit in 64 bits the whole sort is one stable radix sort of
// (packed key, row index) pairs.
//
// When they do not, the columns split into groups of at most 64 bits, and
// the groups are sorted one after the other from the least significant to
// the most (LSD order, as a radix sort treats digits): each pass packs its
// group's bits for the rows in the order of the pass before and sorts
// (packed key, row) pairs stably, so ties keep the order of the less
// significant groups (Knuth, TAOCP vol. 3, 5.2.5: sorting by several keys,
// least significant first, with a stable sort). Grouping greedily from the
// first column gives the fewest groups of consecutive columns, and leaves
// the smallest group last, where the first pass sorts it, as u32 keys when it
// fits in 32 bits.
#pragma once

#include <algorithm>
#include <cstddef>
#include <numeric>
#include <vector>

namespace gpusort::detail::columns {

// One column's place in a packed key: its bits are shifted left by `shift`.
struct placed {
  std::size_t column = 0;
  unsigned shift = 0;
};

// One pass: the columns it packs (highest first) and the packed width.
struct pass {
  std::vector<placed> columns;
  unsigned bits = 0;       // the sum of the columns' widths
  unsigned key_bytes = 4;  // 4 (bits <= 32) or 8
};

// The passes, in the order they run (least significant group first), for
// columns of the given widths in bits (8, 16, 32 or 64 each), first column
// primary. An empty list for no columns.
inline std::vector<pass> make_plan(const std::vector<unsigned>& widths) {
  std::vector<pass> groups;
  for (std::size_t c = 0; c < widths.size(); ++c) {
    if (groups.empty() || groups.back().bits + widths[c] > 64) groups.emplace_back();
    pass& g = groups.back();
    g.columns.push_back({c, 0});
    g.bits += widths[c];
  }
  for (pass& g : groups) {
    unsigned below = g.bits;  // the first column takes the highest bits
    for (placed& p : g.columns) {
      below -= widths[p.column];
      p.shift = below;
    }
    g.key_bytes = g.bits <= 32 ? 4 : 8;
  }
  return {groups.rbegin(), groups.rend()};
}

// Whether a record sort may rebuild its records from their packed keys
// (carry.cuh): the fields (byte offsets and widths within the record) cover
// every byte of the record exactly once, in at most 64 bits, so the packed
// key of one pass holds the whole record.
inline bool fields_tile_record(const std::vector<std::size_t>& offsets, const std::vector<std::size_t>& widths,
                               std::size_t record_bytes) {
  if (offsets.size() != widths.size() || offsets.empty() || record_bytes > 8) return false;
  std::vector<std::size_t> by_offset(offsets.size());
  std::iota(by_offset.begin(), by_offset.end(), std::size_t(0));
  std::sort(by_offset.begin(), by_offset.end(), [&](std::size_t a, std::size_t b) { return offsets[a] < offsets[b]; });
  std::size_t next = 0;  // the first byte no field has covered yet
  for (std::size_t f : by_offset) {
    if (offsets[f] != next) return false;  // a gap (padding, a member outside the key) or an overlap
    next += widths[f];
  }
  return next == record_bytes;
}

}  // namespace gpusort::detail::columns
