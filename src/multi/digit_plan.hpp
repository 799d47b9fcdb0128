// Radix first's plan (radix_first.cuh): the ranks' key ranges as runs of
// the keys' top 8 rank bits (digits), cut where every rank's count comes
// closest to n / p. An MSD radix sort's first level (Stehle & Jacobsen,
// "A Memory Bandwidth-Efficient Hybrid Radix Sort on GPUs", SIGMOD 2017)
// used as the distributed sort's partition: a stable pass by the top digit
// puts every rank's keys for rank q in one contiguous range, and leaves each
// rank's part in digit buckets whose keys differ only in their lower bits.
// Plain C++, tested on the host (tests/multi_plan_test.cpp).
//
//   cuts      digit_cuts: rank q takes digits [cut[q], cut[q + 1]); each
//             cut is the digit boundary whose cumulative count is nearest
//             to q n / p (the first of two equally near)
//   traffic   digit_traffic: every rank's sends to every rank, as
//             exchange_plan.hpp's traffic (one round), from the gathered
//             digit counts; digit_traffic_rounds: the same in k rounds,
//             each rank's digits cut again into k groups
//   balance   balanced: every rank within 5% of n / p (the sort's bound; else
//             the call sorts first instead); with samples' weights in
//             place of counts the same cut estimates the balance before
//             any key moves (the automatic choice asks for 2%)
#pragma once

#include "multi/exchange_plan.hpp"

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace gpusort::detail::multi {

constexpr int top_bits = 8;
constexpr int top_digits = 1 << top_bits;
// A rank's gathered row: its counts of every top digit, then its capacity.
constexpr std::size_t digit_row = std::size_t(top_digits) + 1;

// The parts + 1 cuts of digits [lo, hi) over the global digit counts
// `total` (top_digits entries): cut[0] = lo, cut[parts] = hi, and cut[q]
// the digit boundary whose count from lo is nearest to q / parts of the
// range's keys (the first of two equally near), never before cut[q - 1].
inline std::vector<int> cuts_between(const std::vector<std::uint64_t>& total, int lo, int hi, int parts) {
  std::vector<std::uint64_t> below(std::size_t(hi - lo) + 1, 0);  // below[d - lo]: keys of digits [lo, d)
  for (int d = lo; d < hi; ++d) below[std::size_t(d - lo) + 1] = below[std::size_t(d - lo)] + total[std::size_t(d)];
  const double n = double(below[std::size_t(hi - lo)]);
  std::vector<int> cut(std::size_t(parts) + 1, hi);
  cut[0] = lo;
  for (int q = 1; q < parts; ++q) {
    const double target = n * double(q) / double(parts);
    int best = cut[std::size_t(q) - 1];
    for (int d = best + 1; d <= hi; ++d)
      if (std::fabs(double(below[std::size_t(d - lo)]) - target) <
          std::fabs(double(below[std::size_t(best - lo)]) - target))
        best = d;
    cut[std::size_t(q)] = best;
  }
  return cut;
}

// The p + 1 cuts over the global digit counts `total` (top_digits entries).
inline std::vector<int> digit_cuts(const std::vector<std::uint64_t>& total, int p) {
  return cuts_between(total, 0, top_digits, p);
}

// The global counts from p gathered rows (digit_row entries each).
inline std::vector<std::uint64_t> digit_totals(const std::vector<std::uint64_t>& rows, int p) {
  std::vector<std::uint64_t> total(std::size_t(top_digits), 0);
  for (int q = 0; q < p; ++q)
    for (int d = 0; d < top_digits; ++d) total[std::size_t(d)] += rows[std::size_t(q) * digit_row + std::size_t(d)];
  return total;
}

// Keys of rank `from`'s digits [d0, d1).
inline std::uint64_t digit_range(const std::vector<std::uint64_t>& rows, int from, int d0, int d1) {
  std::uint64_t m = 0;
  for (int d = d0; d < d1; ++d) m += rows[std::size_t(from) * digit_row + std::size_t(d)];
  return m;
}

// The exchange's traffic (one round) of the cuts over the gathered rows.
inline traffic digit_traffic(const std::vector<std::uint64_t>& rows, int p, const std::vector<int>& cut) {
  traffic t;
  t.p = p;
  t.k = 1;
  t.h.assign(std::size_t(p) * t.row(), 0);
  for (int from = 0; from < p; ++from) {
    for (int q = 0; q < p; ++q)
      t.h[std::size_t(from) * t.row() + std::size_t(q)] =
          digit_range(rows, from, cut[std::size_t(q)], cut[std::size_t(q) + 1]);
    t.h[std::size_t(from) * t.row() + std::size_t(p)] = rows[std::size_t(from) * digit_row + std::size_t(top_digits)];
  }
  return t;
}

// The exchange's traffic in k rounds (rounds.cuh): rank q's digits [cut[q],
// cut[q + 1]) cut again into k groups of about equal count (cuts_between
// over the global counts), round j moving group j. Every rank's part is in
// digit order, so its share (q, j) is contiguous and the shares lie in the
// order q k + j that exchange_plan.hpp's share_starts assumes. A group may
// be empty (fewer digits than rounds).
inline traffic digit_traffic_rounds(const std::vector<std::uint64_t>& rows, int p, const std::vector<int>& cut,
                                    int k) {
  const std::vector<std::uint64_t> total = digit_totals(rows, p);
  traffic t;
  t.p = p;
  t.k = k;
  t.h.assign(std::size_t(p) * t.row(), 0);
  for (int q = 0; q < p; ++q) {
    const std::vector<int> g = cuts_between(total, cut[std::size_t(q)], cut[std::size_t(q) + 1], k);
    for (int from = 0; from < p; ++from)
      for (int j = 0; j < k; ++j)
        t.h[std::size_t(from) * t.row() + std::size_t(q) * std::size_t(k) + std::size_t(j)] =
            digit_range(rows, from, g[std::size_t(j)], g[std::size_t(j) + 1]);
  }
  for (int from = 0; from < p; ++from)
    t.h[std::size_t(from) * t.row() + t.row() - 1] = rows[std::size_t(from) * digit_row + std::size_t(top_digits)];
  return t;
}

// Whether every rank's share of the digit counts `total` under `cut` lies
// within tol n / p of n / p.
inline bool balanced(const std::vector<std::uint64_t>& total, const std::vector<int>& cut, int p, double tol) {
  double n = 0;
  for (std::uint64_t m : total) n += double(m);
  const double share = n / double(p);
  for (int q = 0; q < p; ++q) {
    double m = 0;
    for (int d = cut[std::size_t(q)]; d < cut[std::size_t(q) + 1]; ++d) m += double(total[std::size_t(d)]);
    if (std::fabs(m - share) > tol * share) return false;
  }
  return true;
}

}  // namespace gpusort::detail::multi
