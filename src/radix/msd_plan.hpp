// radix_msd's plan: the host-checkable parts of the MSD hybrid (Stehle &
// Jacobsen 2017, "A Memory Bandwidth-Efficient Hybrid Radix Sort on GPUs"),
// plain C++ so that tests/radix_msd_host_test.cpp checks them exhaustively.
//
//   levels   level j sorts digit D - 1 - j (8-bit digits from the top of the
//            order's bits) of every bucket still larger than a local sort.
//            A digit that every key shares (the first histogram shows it)
//            is skipped by all buckets: its level moves nothing. A level
//            that sorts reads where the last one wrote and writes the other
//            of (scratch, output): the input is read by the first sorting
//            level only and is never written.
//   packing  after a level, each bucket's 256 children (consecutive, in
//            digit order) are filed: children of more than `local` keys are
//            the next level's buckets; runs of consecutive smaller ones, as
//            many as fit `local` keys, are local-sorted (one block, all
//            their digits below the parent's, and the parent's own digit
//            when the run holds more than one child). After the last digit
//            a bucket is sorted: it is copied if it lies outside the output.
//   runs     runs to copy (a sorted bucket, a bucket whose keys are all
//            equal) are cut into pieces of at most copy_piece keys, so that
//            many blocks share a big one.
//   bounds   how many buckets, tiles and runs the lists must hold: sizes of
//            the device-side lists from what the host knows (n).
#pragma once

#include "radix/onesweep_plan.hpp"

#include <cstddef>

namespace gpusort::detail::radix_msd {

// The most shared memory the local sort takes a block: 8-byte keys with
// 8-byte values in the counting path's layout (msd_count.cuh: 6144 keys,
// their 16-bit slots, 4096 counters, the parked values). Every
// instantiation checks that it stays within it (msd.cuh); automatic runs
// radix_msd only where a block may have it (device_api.cu).
inline constexpr std::size_t local_shared_max = 127040;

using radix_onesweep::slot_plan;

// A range of keys in one buffer (radix_onesweep::slot_buffer) that the
// local sort finishes: sorted by digits [0, passes) into the output
// (passes == 0: a copy).
struct run {
  std::size_t begin = 0, size = 0;
  int passes = 0, buffer = 0;
};

// Which runs an instance of local_kernel sorts. Doubles under NaNs largest
// take two instances: every NaN folds to the largest rank (the smallest
// descending), so all of them lie in the one edge run, the last ascending
// (it ends at n) or the first descending (it starts at 0). The NaN-folding
// instance, which spills about four times as much, sorts that run alone;
// the instance by the bits sorts every other run, where the fold changes
// nothing (the -0.0 fold is in both). The one NaN pattern the fold ranks
// elsewhere, the descending pad's, ranks last by its bits too.
struct run_share {
  bool skip_edge = false;  // the bits instance beside an EdgeOnly one
  bool descending = false;
  std::size_t n = 0;
  GPUSORT_HD bool is_edge(const run& r) const {
    return r.size != 0 && (descending ? r.begin == 0 : r.begin + r.size == n);
  }
  GPUSORT_HD bool takes(const run& r) const { return !skip_edge || !is_edge(r); }
};

// Level j of `levels` (j = 0 sorts the top digit): skip[j] says its digit
// is constant. plan[j]: skip, or sort src -> dst.
GPUSORT_HD void make_levels(const int* skip, int levels, slot_plan* plan) {
  int at = radix_onesweep::buf_in;
  for (int j = 0; j < levels; ++j) {
    if (skip[j]) {
      plan[j] = {radix_onesweep::slot_skip, 0, 0};
      continue;
    }
    const int dst = at == radix_onesweep::buf_alt ? radix_onesweep::buf_out : radix_onesweep::buf_alt;
    plan[j] = {radix_onesweep::slot_sort, at, dst};
    at = dst;
  }
}

// The buffer the keys lie in before level j (after its sorting levels).
GPUSORT_HD int buffer_before(const slot_plan* plan, int j) {
  int at = radix_onesweep::buf_in;
  for (int i = 0; i < j; ++i)
    if (plan[i].mode == radix_onesweep::slot_sort) at = plan[i].dst;
  return at;
}

// A level's child of one value (the heavy values of Zipf keys). The level's
// histogram counts, per bucket, the keys equal to the bucket's first key in
// every ordered bit, and notes the digit of that key's child: one word, the
// digit in the top byte and the count below. Equal keys share their digit,
// so where that child holds exactly the counted keys, it holds nothing else:
// it is sorted (the pass is stable), and the next level's histogram, which
// would find the same, need not read it. 0: nothing counted (level 0's one
// bucket, whose counts come from the first histogram).
inline constexpr int same_digit_shift = 56;
GPUSORT_HD constexpr unsigned long long same_digit(unsigned digit) {
  return static_cast<unsigned long long>(digit) << same_digit_shift;
}
GPUSORT_HD constexpr bool one_value_child(unsigned long long same, int c, std::size_t size) {
  constexpr unsigned long long count_mask = (1ull << same_digit_shift) - 1;
  return size != 0 && int(same >> same_digit_shift) == c && (same & count_mask) == size;
}

// Filing a sorted bucket's 256 children (msd_levels.cuh's file kernel, one
// warp a bucket): big children go to the next level, children of one value
// over a local sort are copied (or left in the output), children of more
// than `alone` keys are runs alone, and the small ones are packed into runs
// in digit order. kind_of says which a child of `size` keys is; run_packer
// packs. tests/radix_msd_host_test.cpp composes the two in digit order, as
// the kernel's lanes and lane 0 do, and checks the filing.
//
// What filing makes of one child: nothing (empty), a part of a packed run
// (small: at most `alone` keys), a run alone (alone: at most `local`), a
// bucket of the next level (big), or, for a big child that holds one value
// (one_value_child), a copy (one).
enum class child_kind : unsigned char { empty, small, alone, big, one };
GPUSORT_HD child_kind kind_of(std::size_t size, bool one_value, std::size_t local, std::size_t alone) {
  if (size == 0) return child_kind::empty;
  if (size > local) return one_value ? child_kind::one : child_kind::big;
  return size > alone ? child_kind::alone : child_kind::small;
}

// Small children packed greedily into runs of at most `local` keys, in
// digit order; every other non-empty child closes the open run. A run of
// more than one child also sorts the parent's digit (passes + 1).
struct run_packer {
  std::size_t at = 0, keys = 0;
  int children = 0;
  template <class Local> GPUSORT_HD void close(int pass, Local loc) {
    if (keys) loc(at, keys, children > 1 ? pass + 1 : pass);
    keys = 0;
    children = 0;
  }
  template <class Local>
  GPUSORT_HD void add(std::size_t begin, std::size_t size, std::size_t local, int pass, Local loc) {
    if (keys + size > local) close(pass, loc);
    if (keys == 0) at = begin;
    keys += size;
    ++children;
  }
};

// The MSD levels' cost in units of one LSD pass over the keys (the plan
// kernel's choice, msd_levels.cuh). big[k], k = 1 .. m - 1: the share of
// keys still in buckets over a local sort after k sorting levels, as the
// first histogram estimates it (digits taken as independent); alone[k], k =
// 1 .. m: the share of keys whose bucket holds one value after k levels, as
// the sample shows (cumulative, so never decreasing). Level 0 sorts every
// key; level k sorts the keys that are in big buckets and not alone; a
// bucket of one value is copied once the next level's histogram finds it
// (the copy: its keys once read and once written, and that histogram);
// every other key ends in a local sort.
struct msd_costs {
  float level;  // a later level, per key it sorts (its histogram, triage, pass, file)
  float local;  // the local sort, per key
  float copy;   // a bucket of one value: the next level's histogram and the copy
};
GPUSORT_HD float msd_cost(const float* big, const float* alone, int m, msd_costs c) {
  float cost = 1.0f;
  for (int k = 1; k < m; ++k) {
    const float rest = 1.0f - alone[k];
    cost += c.level * (big[k] < rest ? big[k] : rest);
  }
  const float copied = m > 0 ? alone[m] : 0.0f;
  return cost + c.copy * copied + c.local * (1.0f - copied);
}

// F3's part of one second digit of share p2 (msd_plan_kernel.cuh): over the
// first digits d with total p1(d) p2 > local, the sum of p12 = p1(d) p2
// times the share of the third digit's keys in children over a local sort,
// the sum of the third digit's shares over local / (total p12). `first`,
// `third`: the digits' shares, ascending; `tail[i]`: the sum of third[i..]
// (tail[bins] = 0). The walk takes the first shares from the largest down,
// so the threshold only grows, and with it the index of the first third
// share over it: one pass over `third` serves every pair, where a binary
// search a pair took 0.16 ms of the plan kernel on Zipf keys (heavy second
// digits pair with many first ones).
GPUSORT_HD float triple_share(const float* first, float p2, const float* third, const float* tail, int bins,
                              float total, float local) {
  float f3 = 0.0f;
  for (int d = bins - 1, at = 0; d >= 0; --d) {
    const float p12 = first[d] * p2;
    if (!(total * p12 > local)) break;  // nor any smaller first share
    const float t = local / (total * p12);
    while (at < bins && !(third[at] > t)) ++at;
    f3 += p12 * tail[at];
  }
  return f3;
}

// big[k], k = 1 .. m: the share of keys in buckets over a local sort after
// k sorting levels, from the shares measured (treating digits as
// independent) after one, two and three levels; later levels continue the
// last ratio (F3 / F2, or F2 / F1 where m < 3). Shares under 1e-3 count as 0.
GPUSORT_HD void big_shares(float F1, float F2, float F3, int m, float* big) {
  const float known[4] = {0.0f, F1, F2, F3};
  const int measured = m < 3 ? m : 3;
  const float ratio = measured >= 3 ? (F2 > 0 ? F3 / F2 : 0.0f) : (F1 > 0 ? F2 / F1 : 0.0f);
  float share = 0.0f;
  for (int k = 1; k <= m; ++k) {
    share = k <= measured ? known[k] : share * ratio;
    big[k] = share > 1e-3f ? share : 0.0f;
  }
}

// The sorting levels after which every bucket holds one value, from a
// sorted sample with `distinct` values, f1 of them seen once and f2 twice,
// where the keys hold few enough values that one fills more than a local
// sort on average (n / values > local): then the levels need only split the
// values apart (radix_bits a level, the values' count estimated by Chao's
// lower bound, "Nonparametric estimation of the number of classes in a
// population", 1984: distinct + f1^2 / (2 f2), or distinct when no value
// was seen once). 0 where the sample does not show it (no value seen
// twice, or values too many); at most m, the levels that sort.
GPUSORT_HD int levels_to_one_value(unsigned distinct, unsigned f1, unsigned f2, double n, double local, int radix_bits,
                                   int m) {
  if (distinct == 0 || m < 1) return 0;
  double values = double(distinct);
  if (f1 > 0) {
    if (f2 == 0) return 0;
    values += double(f1) * double(f1) / (2.0 * double(f2));
  }
  if (n / values <= local) return 0;
  int bits = 0;
  while (bits < 64 && double(1ull << bits) < values) ++bits;
  const int levels = (bits + radix_bits - 1) / radix_bits;
  return levels < 1 ? 1 : levels < m ? levels : m;
}

// Pieces of a copy run.
constexpr std::size_t copy_piece = std::size_t(1) << 16;
GPUSORT_HD std::size_t pieces(std::size_t size) { return (size + copy_piece - 1) / copy_piece; }

// Host-known bounds on the device-side lists of one sort of n keys.
struct bounds {
  std::size_t buckets = 1;  // buckets of a level (more than `local` keys each)
  std::size_t runs = 1;     // runs of the whole sort

  bounds() = default;
  bounds(std::size_t n, std::size_t local, std::size_t alone, int levels) {
    buckets = n / (local + 1) > 1 ? n / (local + 1) : 1;
    // A bucket's runs: children alone of more than `alone` keys (at most
    // keys / alone over the sort, every key being in one run), one packed
    // run closed before each of them, runs closed because the next child
    // would not fit (two in a row hold more than `local` keys: at most
    // 2 x keys / local + 1), one before each big child and one at its end;
    // dead buckets and sorted ones are copies, in pieces.
    runs = 2 * (n / (alone ? alone : 1)) + 2 * (n / (local ? local : 1)) + 1 + std::size_t(levels) * 4 * buckets +
           n / copy_piece + 2 * buckets + 4;
  }
  // Buckets level j can hold: 256^j, and no more than `buckets`.
  std::size_t at_level(int j) const {
    std::size_t b = 1;
    for (int i = 0; i < j && b < buckets; ++i) b *= 256;
    return b < buckets ? b : buckets;
  }
};

}  // namespace gpusort::detail::radix_msd
