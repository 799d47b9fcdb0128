// The benchmark's distributions: the harness's (uniform, sorted, ...), and
// the segmented ones that segmented sorts run on:
//   segN     segments of N keys each (the last one cut short), uniform keys
//   segpowN  power-law segment sizes of mean ~N (1 + a Lomax law, alpha 1.5:
//            mostly small segments and a heavy tail of large ones, each
//            clipped to what is left of n), uniform keys
//   segN:DIST, segpowN:DIST
//            the same segments over keys of the harness's distribution DIST
//            (seg64:normal, segpow256:small_signed), generated over all n
//            keys as for an unsegmented input
// N as --n takes it (256, 2^20, 1<<20); the CSV names them seg256,
// segpow1048576, seg64:normal (N in decimal). The segments cover [0, n) back to back;
// their offsets are made on the host from a fixed seed, copied to the device
// once per point (outside the timing), and outputs are checked segment by
// segment.
#pragma once

#include "harness/harness.hpp"

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace gpusort::cli::bench {

struct bench_dist {
  enum class layout { none, fixed, power };
  harness::dist keys = harness::dist::uniform;  // the keys' distribution
  layout seg = layout::none;                    // none: a plain (unsegmented) input
  std::uint64_t seg_n = 0;                      // segN: the size; segpowN: the mean

  bool segmented() const { return seg != layout::none; }
  // "uniform", "seg256", "segpow256", "seg64:normal"
  std::string name() const;
};

// A harness name, segN or segpowN (each with an optional :DIST); false if
// the name is none of them; usage_error for a segmented name with a
// malformed or zero N, or a DIST the harness does not know.
bool parse_bench_dist(std::string_view text, bench_dist& out);
// For --help and messages: the harness's names, then "segN segpowN segN:DIST
// segpowN:DIST".
std::string bench_dist_names();

// offsets[0..num_segments] of d's segments over n keys: offsets[0] = 0,
// offsets[num_segments] = n, non-decreasing. Deterministic in (d, n, seed).
std::vector<std::int64_t> segment_offsets(const bench_dist& d, std::uint64_t n, std::uint64_t seed);

// "4096 segments, mean 256.0 keys, largest 256": for the log.
std::string describe_segments(const std::vector<std::int64_t>& offsets);

// O(n) checks of an ascending segmented sort (parallel over segments), each
// segment [offsets[i], offsets[i+1]) on its own, under key_order<K> over all
// bits (the harness's order):
//   keys   each segment in order and the same multiset of bit patterns as
//          its input (a fingerprint);
//   pairs  (value = original index) each segment's indices a permutation of
//          the segment's own, out[i] == in[idx[i]] bit for bit, in order,
//          and with `stable` ascending indices within runs of equal keys.
template <class K>
harness::check verify_segmented_keys(const K* in, const K* out, const std::vector<std::int64_t>& offsets);
template <class K, class I>  // I: std::uint32_t or std::uint64_t indices
harness::check verify_segmented_pairs(const K* in, const K* out, const I* idx,
                                      const std::vector<std::int64_t>& offsets, bool stable);

}  // namespace gpusort::cli::bench
