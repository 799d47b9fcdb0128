// radix_onesweep's launch plan: which launches sort, copy or do nothing, and
// between which buffers. Made on the device by the scan block from the
// histograms (pass skipping), read by every pass launch; plain C++ so that
// host tests can check it exhaustively.
//
// A pass whose digit is the same for every key is the identity: it is
// skipped. The m passes left, plus at most one copy, ping-pong between the
// output and the scratch buffer so that the last operation writes the
// output: op j of k writes the output when k - j is even, the scratch
// buffer otherwise, and reads what op j - 1 wrote (op 1 reads the input).
// A copy is needed when no pass is left and input != output, or when the
// sort is in place and m is odd (op 1 must not write the input it reads:
// k must be even). The copy takes the first launch that does not sort: a
// skipped pass, or the extra launch the host adds after the passes when the
// sort is in place with an odd number of passes (all of them may sort).
#pragma once

#include <gpusort/detail/core/bit_width.hpp>
#include <gpusort/detail/key_traits.hpp>  // GPUSORT_HD

namespace gpusort::detail::radix_onesweep {

enum slot_mode : int { slot_skip = 0, slot_sort = 1, slot_copy = 2, slot_reverse = 3, slot_values = 4 };
enum slot_buffer : int { buf_in = 0, buf_out = 1, buf_alt = 2 };
struct slot_plan {
  int mode, src, dst;
};

// skip[p]: pass p's digit is constant. slots >= passes launches; slot p <
// passes sorts pass p's digit.
GPUSORT_HD void make_plan(const int* skip, int passes, int slots, bool in_place, slot_plan* plan) {
  int m = 0;
  for (int p = 0; p < passes; ++p) m += !skip[p];
  bool copy = in_place ? (m % 2 == 1) : (m == 0);
  const int k = m + int(copy);
  int done = 0, at = buf_in;
  for (int s = 0; s < slots; ++s) {
    const bool sorts = s < passes && !skip[s];
    const bool copies = !sorts && copy;
    if (!sorts && !copies) {
      plan[s] = {slot_skip, 0, 0};
      continue;
    }
    copy = copy && !copies;
    ++done;
    const int dst = (k - done) % 2 == 0 ? buf_out : buf_alt;
    plan[s] = {sorts ? slot_sort : slot_copy, at, dst};
    at = dst;
  }
}

// radix_onesweep's launches read plan[0, slots) (the pass launches) and,
// before them, plan[slots]: the presorted launch (onesweep_presorted.cuh),
// which moves presorted input with many loads in flight, in a kernel of its
// own so that the pass kernel's registers and schedule are the sort's alone.
// A plan that sorts nothing is one copy at most (sorted input, or every
// digit constant): the presorted launch takes it. Every other plan leaves
// that launch nothing.
GPUSORT_HD void hoist_lone_copy(int slots, slot_plan* plan) {
  int copy = -1;
  bool sorts = false;
  for (int s = 0; s < slots; ++s) {
    sorts = sorts || plan[s].mode == slot_sort;
    if (plan[s].mode == slot_copy) copy = s;
  }
  plan[slots] = {slot_skip, 0, 0};
  if (sorts || copy < 0) return;
  plan[slots] = plan[copy];
  plan[copy] = {slot_skip, 0, 0};
}

// Input that never rises (every key ranks at or below the one before it):
// its stable sort is its reversal with each run of equal keys kept in input
// order. Key i of run [s, e) goes to n - e + (i - s) (onesweep_reverse.cuh).
// The first histogram admits runs of at most reverse_run_max keys (it finds
// no 32-aligned row of 32 equal keys: a run of 63 would hold one), so each
// run's ends lie within reverse_reach of every key of it. The presorted
// launch (plan[slots]) writes the reversal; it cannot run in place, so an
// in-place sort reverses into the scratch buffer and the first pass launch
// copies it back.
constexpr int reverse_run_max = 62;
constexpr int reverse_reach = 64;
// A plan whose one move is the presorted launch's `mode`, input to output;
// such a move cannot run in place, so an in-place sort writes the scratch
// buffer and the first pass launch copies it back.
GPUSORT_HD void make_presorted_plan(slot_mode mode, int slots, bool in_place, slot_plan* plan) {
  for (int s = 0; s < slots; ++s) plan[s] = {slot_skip, 0, 0};
  plan[slots] = {mode, buf_in, in_place ? buf_alt : buf_out};
  if (in_place) plan[0] = {slot_copy, buf_alt, buf_out};
}
GPUSORT_HD void make_reverse_plan(int slots, bool in_place, slot_plan* plan) {
  make_presorted_plan(slot_reverse, slots, in_place, plan);
}
// Keys of few values (onesweep_values.cuh): one counting pass by each key's
// place among the values, made by the presorted launch.
GPUSORT_HD void make_values_plan(int slots, bool in_place, slot_plan* plan) {
  make_presorted_plan(slot_values, slots, in_place, plan);
}

// "Only the bits that vary" (radix::pass_key): the first histogram also
// finds the least and greatest ordered key of an integer order over every
// bit (as maxima of ~ordered and ordered, so that zeroed words start them);
// the plan then sorts by ordered - least when that leaves fewer digits that
// vary than the histograms show. Small signed integers in int64 vary in
// every digit ([-2^31, 2^31) orders as 0x7FFFFFFF80000000 ..
// 0x800000007FFFFFFF: 8 passes) but span 2^32 values (4 passes).
// The same watch finds sorted input: a stable sort of keys that are already
// in order (no key ranks below the one before it) is the identity, so every
// pass is skipped; and input that never rises, in short runs of equal keys,
// whose sort is a reversal (make_reverse_plan).
struct key_span {
  unsigned long long not_lo;  // max of ~ordered
  unsigned long long hi;      // max of ordered
  unsigned long long base;    // what the passes subtract: the least key, or 0
  int use;                    // the offset histograms and plan are the ones to use
  unsigned unsorted;          // some key ranks below the one before it
  unsigned rises;             // some key ranks above the one before it
  unsigned long_runs;         // some 32-aligned row of 32 keys ranks alike (in keys that never rise:
                              // its first and last keys do)
};

// Passes of radix_bits-bit digits that the span [lo, hi] leaves varying,
// for keys whose width is a multiple of radix_bits (every carrier).
GPUSORT_HD int span_passes(unsigned long long lo, unsigned long long hi, int radix_bits) {
  return (bit_width64(hi - lo) + radix_bits - 1) / radix_bits;
}

// Look-back word of one (tile, digit): 0 until the tile publishes it; then
// the tile's count of the digit (aggregate), later replaced by the count of
// the digit in every tile up to this one (inclusive). One 32-bit store
// publishes flag and value together.
constexpr unsigned lookback_aggregate = 1u << 30;
constexpr unsigned lookback_inclusive = 1u << 31;
constexpr unsigned lookback_value = lookback_aggregate - 1;

}  // namespace gpusort::detail::radix_onesweep
