// The distributed sample sort's partition plan (gpusort::multi): how p ranks,
// each holding an unsorted shard, split the keys so that rank t receives the
// t-th contiguous range of the globally sorted output, balanced within a few
// percent of n / p for any input. Sample sort across processors (Blelloch et
// al., "A Comparison of Sorting Algorithms for the Connection Machine CM-2",
// SPAA 1991; the partition-first form of Sanders & Winkel's "Super Scalar
// Sample Sort", 2004, one level, one bucket per rank), with stratified
// random samples and every key tagged by (rank bits, rank, position in its
// shard). Tags are all distinct and their order is the stable global order
// (the shards are concatenated in rank order), so all-equal or few-unique
// input splits as evenly as distinct keys. Plain C++ (host and device),
// checked on the host by tests/multi_plan_test.cpp.
//
//   1. sample    rank r cuts its shard of n_r keys into m_r = min(s, n_r)
//                slots of near-equal size and samples one position of each,
//                drawn by a hash of (rank, slot); a sample weighs its slot's
//                size. Ranks pad to s samples with weight-0 samples that
//                sort after all of theirs.
//   2. splitters the samples of every rank, gathered in rank order and
//                sorted stably by key (= by tag: within a rank, slots and so
//                positions increase), their weights summed inclusively:
//                splitter t (1 <= t < p) is the first sample whose
//                cumulative weight reaches t n / p (splitter_index)
//   3. classify  the bucket of a key is the number of splitters whose tag
//                is at most the key's (bucket_of, over each splitter's
//                cut_for this rank): a stable partition of the shard
//   4. exchange  bucket t goes to rank t, which sorts what it receives and
//                merges it with ties by source rank
// Sort first samples and splits the stably sorted shard instead (split_point):
// sorted positions order a rank's equal keys as input positions do, so the
// tags, the splitters and the buckets are the same.
//
// Balance. Rank r's count of keys below a splitter is estimated by its
// samples' weight below it; slot j's sample is below with the probability f
// of its slot's keys being below, so the estimate errs by a sum of
// independent terms of variance slot^2 f (1 - f) <= slot^2 / 4. Over all
// ranks that is at most n max_slot / 4: with equal shards and
// s = samples_per_rank(p) = 4096 p, a standard deviation of n / p / 128
// (0.8% of a bucket) whatever p, so the 5% bound is 6.4 deviations away.
// Sorted or all-equal shards err by one slot at most. Shards of fewer than s
// keys sample every key: their splitters are exact.
#pragma once

#include <gpusort/detail/key_traits.hpp>  // GPUSORT_HD

#include <cstddef>
#include <cstdint>

namespace gpusort::detail::multi {

// One tagged sample: the key's rank bits under the order (ascending
// unsigned), the rank it came from, its position in that rank's shard, and
// the size of the slot it stands for (0: a pad).
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

// Ranks the partition's one-digit ranker can address (8-bit buckets, one
// kept for the pad).
constexpr int max_ranks = 255;

// Samples a rank takes from its shard (see the header).
GPUSORT_HD constexpr int samples_per_rank(int ranks) { return 4096 * ranks; }

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

// A 64-bit mix of (rank, slot) (SplitMix64's finaliser): the sampled
// position within the slot. Fixed, so a sort is repeatable.
GPUSORT_HD std::uint64_t slot_hash(std::uint32_t rank, std::uint64_t j) {
  std::uint64_t z = (std::uint64_t(rank) << 40) ^ j ^ 0x9E3779B97F4A7C15ull;
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

// Sample j of s from rank r's shard of n_r keys, whose rank bits `key_at`
// gives: a position drawn in slot j, or a pad past the shard's end.
template <class U, class KeyAt>
GPUSORT_HD sample<U> sample_of(KeyAt key_at, std::uint64_t n_r, std::uint32_t r, int s, std::uint64_t j) {
  const std::uint64_t m = slot_count(n_r, s);
  if (j >= m) return sample<U>{U(~U(0)), r, n_r, 0};
  const std::uint64_t lo = slot_begin(n_r, m, j), hi = slot_begin(n_r, m, j + 1);
  const std::uint64_t pos = lo + slot_hash(r, j) % (hi - lo);
  return sample<U>{U(key_at(pos)), r, pos, hi - lo};
}

// The t-th of p equal shares of n, rounded down: t * n / p.
GPUSORT_HD std::uint64_t share_end(std::uint64_t n, int ranks, int t) {
  return scale_down(n, std::uint64_t(t), std::uint64_t(ranks));
}

// The index of the first sample whose inclusive cumulative weight
// (`cumulative`, over the samples sorted by tag) reaches `target`; `count`
// when none does (the splitter after every key).
GPUSORT_HD std::size_t splitter_index(const std::uint64_t* cumulative, std::size_t count, std::uint64_t target) {
  std::size_t lo = 0, hi = count;
  while (lo < hi) {
    const std::size_t mid = lo + (hi - lo) / 2;
    if (cumulative[mid] < target) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

// A splitter as rank r sees it: r's key at position i lies at or above the
// splitter (its tag is not below the splitter's) when the key's rank bits
// exceed `key`, or equal it at a position >= `from`: 0 when the splitter
// comes from an earlier rank, its own position when from r, never when from
// a later rank.
template <class U> struct cut {
  U key;
  std::uint64_t from;
};
constexpr std::uint64_t never = ~std::uint64_t(0);

template <class U> GPUSORT_HD cut<U> cut_for(const sample<U>& s, std::uint32_t r) {
  return cut<U>{s.key, s.rank < r ? 0 : s.rank == r ? s.pos : never};
}
// The splitter after every key (no sample reached its share).
template <class U> GPUSORT_HD cut<U> cut_after_all() { return cut<U>{U(~U(0)), never}; }

template <class U> GPUSORT_HD bool at_or_above(const cut<U>& c, U key, std::uint64_t i) {
  return c.key < key || (c.key == key && i >= c.from);
}

// The bucket of rank r's key (rank bits `key`, position i) among the p - 1
// cuts, sorted by their splitters' tags: how many it lies at or above (a
// binary search: "at or above" holds for a prefix of the cuts).
template <class U> GPUSORT_HD unsigned bucket_of(const cut<U>* cuts, int count, U key, std::uint64_t i) {
  int lo = 0, hi = count;
  while (lo < hi) {
    const int mid = (lo + hi) / 2;
    if (at_or_above(cuts[mid], key, i)) lo = mid + 1;
    else hi = mid;
  }
  return unsigned(lo);
}

// Sort first's split (sort_first.cuh): in a rank's shard sorted stably by
// rank bits (`key_at(i)`; positions are sorted positions, which order equal
// keys as their input positions do), the first position at or above cut c.
// "At or above" holds for a suffix of the sorted shard, so a binary search
// finds it; the keys before it are those bucket_of puts below c.
template <class U, class KeyAt> GPUSORT_HD std::uint64_t split_point(const cut<U>& c, KeyAt key_at, std::uint64_t n) {
  std::uint64_t lo = 0, hi = n;
  while (lo < hi) {
    const std::uint64_t mid = lo + (hi - lo) / 2;
    if (at_or_above(c, U(key_at(mid)), mid)) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}

}  // namespace gpusort::detail::multi
