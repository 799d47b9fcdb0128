// CPU merge sorts of seed 001 (see cpu_merge.hpp). Both merge with ties
// taken from the left run, so both are stable.
#include "host/cpu_merge.hpp"

#include "core/validate.hpp"

#include <algorithm>
#include <vector>

namespace gpusort::detail {
namespace {

template <class K> struct cpu_less {
  key_order<K> ord;
  bool operator()(const K& a, const K& b) const { return ord.key_rank(a) < ord.key_rank(b); }
};

// Merges src[lo, mid) and src[mid, hi) into dst[lo, hi).
template <class K, class Less>
void merge_runs(const K* src, K* dst, std::size_t lo, std::size_t mid, std::size_t hi, const Less& less) {
  std::size_t i = lo, j = mid, o = lo;
  while (i < mid && j < hi) dst[o++] = less(src[j], src[i]) ? src[j++] : src[i++];
  while (i < mid) dst[o++] = src[i++];
  while (j < hi) dst[o++] = src[j++];
}

// Sorts [lo, hi) into `a`; `b` holds the same data on entry and is the
// scratch. Each level sorts its halves into the other array and merges them
// back (top-down ping-pong: no copy per level).
template <class K, class Less>
void top_down(K* a, K* b, std::size_t lo, std::size_t hi, const Less& less) {
  if (hi - lo < 2) return;
  std::size_t mid = lo + (hi - lo) / 2;
  top_down(b, a, lo, mid, less);
  top_down(b, a, mid, hi, less);
  merge_runs(b, a, lo, mid, hi, less);
}

call_context cpu_context(const char* algo, const char* key, std::size_t n) {
  call_context ctx;
  ctx.op = "sort";
  ctx.key = key;
  ctx.algo = algo;
  ctx.n = n;
  return ctx;
}

}  // namespace

template <class K> void cpu_merge_sort_recursive(K* keys, std::size_t n, const options& opt) {
  cpu_less<K> less{checked_order<K>(opt, cpu_context("cpu_merge_recursive", key_info<K>::name, n))};
  std::vector<K> scratch(keys, keys + n);
  top_down(keys, scratch.data(), 0, n, less);
}

template <class K> void cpu_merge_sort_iterative(K* keys, std::size_t n, const options& opt) {
  cpu_less<K> less{checked_order<K>(opt, cpu_context("cpu_merge_iterative", key_info<K>::name, n))};
  std::vector<K> scratch(n);
  K* src = keys;
  K* dst = scratch.data();
  for (std::size_t width = 1; width < n; width *= 2) {
    for (std::size_t lo = 0; lo < n; lo += 2 * width) {
      std::size_t mid = lo + width < n ? lo + width : n;
      std::size_t hi = lo + 2 * width < n ? lo + 2 * width : n;
      merge_runs(src, dst, lo, mid, hi, less);
    }
    std::swap(src, dst);
  }
  if (src != keys) std::copy(src, src + n, keys);
}

#define GPUSORT_INSTANTIATE_CPU_MERGE(K)                                      \
  template void cpu_merge_sort_recursive<K>(K*, std::size_t, const options&); \
  template void cpu_merge_sort_iterative<K>(K*, std::size_t, const options&);
GPUSORT_FOR_EACH_KEY(GPUSORT_INSTANTIATE_CPU_MERGE)

}  // namespace gpusort::detail
