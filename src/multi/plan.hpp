// The distributed sample sort's partition plan (issue 16): how p ranks,
// each holding a locally sorted shard, cut their shards so that rank t
// receives the t-th contiguous range of the globally sorted output,
// balanced within a few percent of n / p for any input. Regular sampling
// (Shi & Schaeffer, "Parallel Sorting by Regular Sampling", J. Parallel
// Distrib. Comput. 14(4), 1992), with every key tagged by (rank bits, rank,
// position in its sorted shard). Tags are all distinct and their order is
// the stable global order (a stable local sort keeps equal keys in input
// order, and the shards are concatenated in rank order), so all-equal or
// few-unique input splits as evenly as distinct keys. Plain C++ (host and
// device), checked on the host by tests/multi_plan_test.cpp.
//
//   1. sample    rank r cuts its sorted shard of n_r keys into
//                m_r = min(s, n_r) slots of near-equal size and samples the
//                middle of each; a sample weighs its slot's size
//   2. splitters the samples of every rank, gathered and sorted by tag:
//                splitter t (1 <= t < p) is the first sample whose
//                cumulative weight reaches t * n / p (choose_splitters)
//   3. cut       rank r's keys with a tag below splitter t go to ranks
//                below t: cut_of, a search in the sorted shard
//   4. exchange  rank r sends [cut(r, t), cut(r, t + 1)) to rank t, which
//                merges the p runs it receives, ties by source rank
//
// Balance. A rank's count of keys below a splitter is its samples' weight
// below it within half a slot (the samples sit mid-slot), and the
// splitter's cumulative weight is within one slot of t * n / p. So every
// bucket is within bucket_error_bound() = (n + 2 max n_r) / s + p + 3 keys
// of n / p. samples_per_rank(p) = 32 (p + 2) makes that about 3% of n / p
// for equal shards (n large): inside the 5%.
#pragma once

#include <gpusort/detail/key_traits.hpp>  // GPUSORT_HD

#include <cstddef>
#include <cstdint>

namespace gpusort::detail::multi {

// One tagged sample: the key's rank bits under the order (ascending
// unsigned), the rank it came from, its position in that rank's sorted
// shard, and the size of the slot it stands for.
template <class U> struct sample {
  U key;
  std::uint32_t rank;
  std::uint64_t pos;
  std::uint64_t weight;
};

// The tag order: key, then rank, then position (all distinct).
template <class U> GPUSORT_HD bool tag_less(U ka, std::uint32_t ra, std::uint64_t pa, U kb, std::uint32_t rb,
                                            std::uint64_t pb) {
  if (ka != kb) return ka < kb;
  if (ra != rb) return ra < rb;
  return pa < pb;
}
template <class U> GPUSORT_HD bool tag_less(const sample<U>& a, const sample<U>& b) {
  return tag_less(a.key, a.rank, a.pos, b.key, b.rank, b.pos);
}

// Samples a rank takes from a sorted shard (see the header).
GPUSORT_HD int samples_per_rank(int ranks) { return 32 * (ranks + 2); }

// Slots of a shard of n_r keys: min(s, n_r), each at least one key.
GPUSORT_HD std::uint64_t slot_count(std::uint64_t n_r, int s) {
  return n_r < std::uint64_t(s) ? n_r : std::uint64_t(s);
}

// floor(a * b / c) for b <= c without overflow (a, c < 2^64).
GPUSORT_HD std::uint64_t scale_down(std::uint64_t a, std::uint64_t b, std::uint64_t c) {
  return (a / c) * b + (a % c) * b / c;
}

// Slot j of m over n_r keys: [slot_begin(j), slot_begin(j + 1)).
GPUSORT_HD std::uint64_t slot_begin(std::uint64_t n_r, std::uint64_t m, std::uint64_t j) {
  return j >= m ? n_r : scale_down(n_r, j, m);
}

// Sample j of a shard: the middle of its slot, and the slot's size.
template <class U> GPUSORT_HD sample<U> sample_of(const U* shard, std::uint64_t n_r, std::uint32_t rank,
                                                   std::uint64_t m, std::uint64_t j) {
  const std::uint64_t lo = slot_begin(n_r, m, j), hi = slot_begin(n_r, m, j + 1);
  const std::uint64_t pos = lo + (hi - lo - 1) / 2;
  return sample<U>{shard[pos], rank, pos, hi - lo};
}

// The t-th of p equal shares of n, rounded down: t * n / p.
GPUSORT_HD std::uint64_t share_end(std::uint64_t n, int ranks, int t) {
  return scale_down(n, std::uint64_t(t), std::uint64_t(ranks));
}

// Splitters from the gathered samples sorted by tag_less (count of them,
// weights summing to n): split[t - 1] for t in [1, ranks) is the index of
// the first sample whose cumulative weight (inclusive) reaches t * n / p;
// `count` (past the end) when none does, which cut_of reads as "after
// every key".
template <class U> GPUSORT_HD void choose_splitters(const sample<U>* sorted, std::size_t count, std::uint64_t n,
                                                    int ranks, std::size_t* split) {
  std::size_t k = 0;
  std::uint64_t cumulative = count ? sorted[0].weight : 0;
  for (int t = 1; t < ranks; ++t) {
    const std::uint64_t target = share_end(n, ranks, t);
    while (k < count && cumulative < target) {
      ++k;
      if (k < count) cumulative += sorted[k].weight;
    }
    split[t - 1] = k;
  }
}

// How many keys of rank r's sorted shard (rank bits, ascending) have a tag
// below the splitter s: keys below s's key, then those equal to it from
// ranks before s's (all of them), s's own rank (those before it) or later
// ranks (none).
template <class U> GPUSORT_HD std::uint64_t cut_of(const U* shard, std::uint64_t n_r, std::uint32_t r,
                                                   const sample<U>& s) {
  if (r == s.rank) return s.pos;
  // the first position whose key is >= s.key (r > s.rank) or > s.key (r < s.rank)
  const bool take_equal = r < s.rank;
  std::uint64_t lo = 0, hi = n_r;
  while (lo < hi) {
    const std::uint64_t mid = lo + (hi - lo) / 2;
    const bool below = take_equal ? !(s.key < shard[mid]) : shard[mid] < s.key;
    if (below) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

// The most a bucket may differ from n / p (see the header).
GPUSORT_HD std::uint64_t bucket_error_bound(std::uint64_t n, std::uint64_t max_shard, int s, int ranks) {
  return (n + 2 * max_shard) / std::uint64_t(s) + std::uint64_t(ranks) + 3;
}

}  // namespace gpusort::detail::multi
