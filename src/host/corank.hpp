// The k-way co-rank of sort(std::span)'s out-of-core merge: how many
// items of each of k sorted runs come among the first `rank` items of their
// merge. A binary search over the rank values (key_order::rank, so -0.0
// equals +0.0 and NaNs order by bits): the smallest value v with at least
// `rank` items at or below it; the items below v all come first, then the
// items equal to v in a fixed order, by block row, then run, then position
// (item i of a run lies in row i / block). The runs live in host memory,
// each either contiguous (one row: equal items run by run, which is the
// stable merge) or laid out in blocks (run_layout.hpp's dealt runs, whose
// equal items cannot be told apart: by rows, a merge piece of all-equal keys
// reads exactly the blocks it will write). Each step is k binary searches.
#pragma once

#include <gpusort/detail/key_traits.hpp>

#include <cstddef>
#include <vector>

namespace gpusort::detail::host {

// n items; item i at keys[(i / block) * stride + i % block] (block >= n:
// contiguous, one row).
template <class K> struct host_run {
  const K* keys;
  std::size_t n;
  std::size_t block = ~std::size_t(0), stride = 0;
  const K& operator[](std::size_t i) const { return keys[(i / block) * stride + i % block]; }
  // end of row t, clamped to [0, e]
  std::size_t row_end(std::size_t t, std::size_t e) const { return t < e / block ? (t + 1) * block : e; }
};

template <class K>
std::vector<std::size_t> corank(const std::vector<host_run<K>>& runs, std::size_t rank, const key_order<K>& ord) {
  using U = typename key_traits<K>::bits;
  // first index of run r whose rank is above v (above = true) or at least v
  auto bound = [&](const host_run<K>& r, U v, bool above) {
    std::size_t lo = 0, hi = r.n;
    while (lo < hi) {
      const std::size_t mid = lo + (hi - lo) / 2;
      const U x = ord.key_rank(r[mid]);
      if (above ? x <= v : x < v) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  };
  U lo = 0, hi = ord.mask;
  while (lo < hi) {
    const U mid = U(lo + (hi - lo) / 2);
    std::size_t at_most = 0;
    for (const auto& r : runs) at_most += bound(r, mid, true);
    if (at_most >= rank) hi = mid;
    else lo = U(mid + 1);
  }
  std::vector<std::size_t> out(runs.size()), upto(runs.size());
  std::size_t below = 0;
  for (std::size_t i = 0; i < runs.size(); ++i) {
    below += out[i] = bound(runs[i], lo, false);
    upto[i] = bound(runs[i], lo, true);
  }
  std::size_t need = rank > below ? rank - below : 0;
  if (need == 0) return out;
  // equal items in rows 0..t of every run
  auto through = [&](std::size_t t) {
    std::size_t c = 0;
    for (std::size_t i = 0; i < runs.size(); ++i) {
      const std::size_t e = runs[i].row_end(t, upto[i]);
      c += e > out[i] ? e - out[i] : 0;
    }
    return c;
  };
  std::size_t rows = 1;
  for (std::size_t i = 0; i < runs.size(); ++i)
    if (upto[i] > 0 && upto[i] / runs[i].block + 1 > rows) rows = upto[i] / runs[i].block + 1;
  std::size_t t_lo = 0, t_hi = rows - 1;  // the first row through which `need` items are equal
  while (t_lo < t_hi) {
    const std::size_t mid = t_lo + (t_hi - t_lo) / 2;
    if (through(mid) >= need) t_hi = mid;
    else t_lo = mid + 1;
  }
  // rows before t_lo whole, then row t_lo run by run
  for (std::size_t i = 0; i < runs.size(); ++i) {
    if (t_lo == 0) break;
    const std::size_t e = runs[i].row_end(t_lo - 1, upto[i]);
    if (e > out[i]) {
      need -= e - out[i];
      out[i] = e;
    }
  }
  for (std::size_t i = 0; i < runs.size() && need > 0; ++i) {
    const std::size_t e = runs[i].row_end(t_lo, upto[i]);
    const std::size_t equal = e > out[i] ? e - out[i] : 0;
    const std::size_t take = equal < need ? equal : need;
    out[i] += take;
    need -= take;
  }
  return out;
}

}  // namespace gpusort::detail::host
