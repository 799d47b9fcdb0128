// Top-k's plan: the host-checkable arithmetic of radix selection (RadiK,
// Li et al., arXiv 2501.14336, 2025; the radix-select idea of Alabi et al.,
// "Fast k-Selection Algorithms for Graphics Processing Units", 2012), plain
// C++ so that tests/topk_host_test.cpp checks it exhaustively.
//
// The selection key of element i is the pair (rank bits of its key, i):
// the key's bits under the order (key_order::rank: ascending for the k
// smallest, inverted for the k largest, -0.0 folded onto +0.0), then its
// index. These pairs are all distinct, so "the k smallest pairs" is one
// well-defined set: the k winners, and among equal keys at the boundary the
// lowest indices win. The pair is cut into 8-bit digits from the top: the
// key's digits, then the index's (only as many as n - 1 needs).
//
//   level l   histogram digit l of the candidates (the elements whose
//             digits above l equal the chosen ones), choose the bucket b
//             that holds the need-th smallest (choose_bucket): candidates
//             with digit < b are winners, those with digit b stay
//             candidates, the rest are out; the need drops by the winners.
//   done      once the candidates left are exactly as many as the need,
//             they are all winners.
#pragma once

#include <gpusort/detail/core/bit_width.hpp>
#include <gpusort/detail/key_traits.hpp>

#include <cstddef>
#include <cstdint>

namespace gpusort::detail::topk {

constexpr int radix_bits = 8;
constexpr int bins = 1 << radix_bits;
// Digits of the selection key at most: 8 of a 64-bit key, 8 of a 64-bit index.
constexpr int max_digits = 16;

// The digits of one call's selection key.
struct digit_plan {
  int key_bits = 0;      // the key's width
  int key_digits = 0;    // ceil(key_bits / 8)
  int index_bits = 0;    // bits of n - 1 (at least 1)
  int index_digits = 0;  // ceil(index_bits / 8)
  GPUSORT_HD int digits() const { return key_digits + index_digits; }
};

GPUSORT_HD digit_plan make_digits(int key_bits, std::size_t n) {
  digit_plan p;
  p.key_bits = key_bits;
  p.key_digits = (key_bits + radix_bits - 1) / radix_bits;
  const int w = bit_width64(n > 1 ? std::uint64_t(n - 1) : 0);
  p.index_bits = w > 0 ? w : 1;
  p.index_digits = (p.index_bits + radix_bits - 1) / radix_bits;
  return p;
}

// Where digit `level` lies: in the key (is_key) or the index, as a shift
// from bit 0 and a width (the lowest digit of each part may be narrower).
struct digit_field {
  bool is_key;
  int shift;
  int width;
};
GPUSORT_HD digit_field field_of(const digit_plan& p, int level) {
  if (level < p.key_digits) {
    const int top = p.key_bits - level * radix_bits;  // one past the digit's top bit
    const int lo = top - radix_bits > 0 ? top - radix_bits : 0;
    return {true, lo, top - lo};
  }
  const int top = p.index_bits - (level - p.key_digits) * radix_bits;
  const int lo = top - radix_bits > 0 ? top - radix_bits : 0;
  return {false, lo, top - lo};
}

// Digit `level` of the selection key (rank bits r, index i).
GPUSORT_HD unsigned digit_of(const digit_field& f, std::uint64_t r, std::uint64_t i) {
  const std::uint64_t v = f.is_key ? r : i;
  return unsigned(v >> f.shift) & ((1u << f.width) - 1u);
}

// The bucket of one level: the digit b such that the candidates with a
// smaller digit (`less` of them) are fewer than `need` and those up to b
// are not; `equal` candidates have digit b. need >= 1 and at most the
// candidates counted in hist.
struct bucket_choice {
  unsigned bucket = 0;
  std::uint64_t less = 0, equal = 0;
};
template <class Count> GPUSORT_HD bucket_choice choose_bucket(const Count* hist, std::uint64_t need) {
  bucket_choice c;
  std::uint64_t below = 0;
  for (unsigned b = 0; b < unsigned(bins); ++b) {
    const std::uint64_t h = std::uint64_t(hist[b]);
    if (below + h >= need) {
      c.bucket = b;
      c.less = below;
      c.equal = h;
      return c;
    }
    below += h;
  }
  c.bucket = bins - 1;
  c.less = below;
  return c;
}

// How many i in [0, n) have digit value v in the field at `shift` of
// `width` bits: the index digits' histogram before any filtering, without
// a read.
GPUSORT_HD std::uint64_t index_digit_count(std::uint64_t n, int shift, int width, unsigned v) {
  if (v >= (1u << width)) return 0;
  const std::uint64_t span = std::uint64_t(1) << shift;          // indices a digit value covers in a row
  const int period_bits = shift + width;
  const std::uint64_t whole = period_bits >= 64 ? 0 : n >> period_bits;  // full periods
  std::uint64_t count = whole * span;
  const std::uint64_t rest = period_bits >= 64 ? n : n & ((std::uint64_t(1) << period_bits) - 1);
  const std::uint64_t from = std::uint64_t(v) * span;
  if (rest > from) count += rest - from < span ? rest - from : span;
  return count;
}

// The prefix of the chosen digits above `level`: the bits of the key and of
// the index that a candidate must have. A candidate matches when
// (r >> key_shift) == key_prefix (key_shift >= key_bits: no condition) and
// likewise for the index.
struct prefix {
  std::uint64_t key = 0, index = 0;
  int key_shift = 64, index_shift = 64;
  GPUSORT_HD bool matches(std::uint64_t r, std::uint64_t i) const {
    const bool k = key_shift >= 64 || (r >> key_shift) == key;
    const bool x = index_shift >= 64 || (i >> index_shift) == index;
    return k && x;
  }
  // Appends bucket b of the digit in field f.
  GPUSORT_HD void append(const digit_field& f, unsigned b) {
    if (f.is_key) {
      key = (key_shift >= 64 ? 0 : key << f.width) | b;
      key_shift = f.shift;
    } else {
      index = (index_shift >= 64 ? 0 : index << f.width) | b;
      index_shift = f.shift;
    }
  }
};

}  // namespace gpusort::detail::topk
