// The k-way co-rank of the out-of-core merge (issue 13, part A): how many
// items of each of k sorted runs come among the first `rank` items of their
// stable merge (ties: the earlier run first). A binary search over the rank
// values (key_order::rank, so -0.0 equals +0.0 and NaNs order by bits): the
// smallest value v with at least `rank` items at or below it; the items
// below v all come first, then the items equal to v, run by run. The runs
// live in host memory, each either contiguous or laid out in blocks
// (run_layout.hpp's dealt runs); each step is k binary searches.
#pragma once

#include <gpusort/detail/key_traits.hpp>

#include <cstddef>
#include <vector>

namespace gpusort::detail::host {

// n items; item i at keys[(i / block) * stride + i % block] (block = stride:
// contiguous).
template <class K> struct host_run {
  const K* keys;
  std::size_t n;
  std::size_t block = 1, stride = 1;
  const K& operator[](std::size_t i) const { return keys[(i / block) * stride + i % block]; }
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
  std::vector<std::size_t> out(runs.size());
  std::size_t below = 0;
  for (std::size_t i = 0; i < runs.size(); ++i) below += out[i] = bound(runs[i], lo, false);
  std::size_t need = rank > below ? rank - below : 0;
  for (std::size_t i = 0; i < runs.size() && need > 0; ++i) {
    const std::size_t equal = bound(runs[i], lo, true) - out[i];
    const std::size_t take = equal < need ? equal : need;
    out[i] += take;
    need -= take;
  }
  return out;
}

}  // namespace gpusort::detail::host
