// CPU merge sort baselines of "Merge sort on CUDA" (Russian, "Сортировка слиянием на CUDA"): recursive top-down and iterative
// bottom-up, single-threaded, stable (ties taken from the left run). The
// benchmark runs them beside std::sort and the parallel CPU sort, on keys
// or on (key, value) records, through any strict weak order `less`.
#pragma once

#include <algorithm>
#include <cstddef>
#include <vector>

namespace gpusort::detail::cpu_merge {

// Merges src[lo, mid) and src[mid, hi) into dst[lo, hi).
template <class T, class Less>
void merge_runs(const T* src, T* dst, std::size_t lo, std::size_t mid, std::size_t hi, const Less& less) {
  std::size_t i = lo, j = mid, o = lo;
  while (i < mid && j < hi) dst[o++] = less(src[j], src[i]) ? src[j++] : src[i++];
  while (i < mid) dst[o++] = src[i++];
  while (j < hi) dst[o++] = src[j++];
}

// Sorts [lo, hi) into `a`; `b` holds the same data on entry and is the
// scratch. Each level sorts its halves into the other array and merges them
// back (top-down ping-pong: no copy per level).
template <class T, class Less> void top_down(T* a, T* b, std::size_t lo, std::size_t hi, const Less& less) {
  if (hi - lo < 2) return;
  std::size_t mid = lo + (hi - lo) / 2;
  top_down(b, a, lo, mid, less);
  top_down(b, a, mid, hi, less);
  merge_runs(b, a, lo, mid, hi, less);
}

// Recursive top-down merge sort of data[0, n).
template <class T, class Less> void sort_recursive(T* data, std::size_t n, const Less& less) {
  std::vector<T> scratch(data, data + n);
  top_down(data, scratch.data(), 0, n, less);
}

// Iterative bottom-up merge sort: runs of 1, 2, 4, ... merged pairwise,
// ping-ponging between data and one scratch array.
template <class T, class Less> void sort_iterative(T* data, std::size_t n, const Less& less) {
  std::vector<T> scratch(n);
  T* src = data;
  T* dst = scratch.data();
  for (std::size_t width = 1; width < n; width *= 2) {
    for (std::size_t lo = 0; lo < n; lo += 2 * width) {
      std::size_t mid = std::min(lo + width, n);
      std::size_t hi = std::min(lo + 2 * width, n);
      merge_runs(src, dst, lo, mid, hi, less);
    }
    std::swap(src, dst);
  }
  if (src != data) std::copy(src, src + n, data);
}

}  // namespace gpusort::detail::cpu_merge
