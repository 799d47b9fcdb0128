// The exchange's plan on the host (rounds.cuh, shard_steps.cuh): what every
// rank sends every rank in each round, gathered and read on the host, and the
// 16-byte alignment of each round's transfers. Plain C++, checked on the host
// by tests/multi_plan_test.cpp.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace gpusort::detail::multi {

// What every rank sends every rank in each of k rounds, read on the host:
// h[from][to * k + round], and each rank's capacity at the end of its row.
struct traffic {
  int p = 0, k = 1;
  std::vector<std::uint64_t> h;
  std::size_t row() const { return std::size_t(p) * std::size_t(k) + 1; }
  std::size_t sends(int from, int to, int round) const {
    return std::size_t(h[std::size_t(from) * row() + std::size_t(to) * std::size_t(k) + std::size_t(round)]);
  }
  std::size_t sends(int from, int to) const {
    std::size_t m = 0;
    for (int j = 0; j < k; ++j) m += sends(from, to, j);
    return m;
  }
  std::size_t capacity(int q) const { return std::size_t(h[std::size_t(q) * row() + row() - 1]); }
};

// alignment: NCCL copies between the caller's buffers and its own, and does
// so at about two thirds of its rate when a pointer is not 16-byte aligned
// (two H100s: 204 against 304 GB/s; docs/perf/multi_gpu.md). A sender's
// share starts anywhere in part, so in each round each rank's first run of
// receipts is aligned on both ends: when it comes first in the round's
// receipts, its sender also sends the `lead` keys before it (they land in
// the pad before the run and are never read); when the own run comes first,
// the pad places the next run's first key on a boundary (its source start
// stays where it is). With two ranks in one round that aligns every
// transfer; else each rank's first one a round, and the next one's
// destination when the own run comes first.
// Every round's receipts start on a boundary of their own in recv
// (round_starts), so recv holds the capacity plus two boundaries a round.
struct alignment_plan {
  std::vector<std::size_t> lead;  // lead[q]: keys sent before this rank's share for q
  std::size_t pad = 0;            // where this rank's receipts start in the round's part of recv
  std::size_t lead_in = 0;        // the leading keys of the first run arriving here
};
// Keys (and values) a transfer's 16-byte alignment may take: receipts start
// up to this many items late in a round's part of recv (pad < align_items
// <= 16), and each round's part starts on a boundary.
constexpr std::size_t align_pad_max = 16;
// recv's items beyond the capacity for k rounds: a pad and a boundary a round
inline std::size_t align_room(int k) { return 2 * align_pad_max * std::size_t(k); }
// Items per 16 bytes of the narrower of the key and value arrays: an item
// index that is a multiple of it is 16-byte aligned in both.
inline std::size_t align_items(std::size_t key_size, std::size_t val_size) {
  const std::size_t w = val_size && val_size < key_size ? val_size : key_size;
  return w >= 16 ? 1 : 16 / w;
}
// Where each share of rank q starts in q's part: shares lie in the order
// dst k + j, so entry dst k + j is share (dst, round j)'s first item and
// entry p k the part's end.
inline std::vector<std::size_t> share_starts(const traffic& t, int q) {
  std::vector<std::size_t> s(std::size_t(t.p * t.k) + 1, 0);
  for (int u = 0; u < t.p * t.k; ++u) s[std::size_t(u) + 1] = s[std::size_t(u)] + t.sends(q, u / t.k, u % t.k);
  return s;
}
inline std::size_t share_start(const traffic& t, int q, int dst, int j) {
  return share_starts(t, q)[std::size_t(dst * t.k + j)];
}
// Rank r's plan for round j, A = align_items(...); every rank computes its
// own from the same traffic, and the sender's lead for q equals q's lead_in.
inline alignment_plan plan_alignment(int r, std::size_t A, const traffic& t, int j = 0) {
  const int p = t.p;
  alignment_plan a;
  a.lead.assign(std::size_t(p), 0);
  auto first_of = [&](int dst) {  // the rank whose run comes first in dst's receipts of round j
    for (int q = 0; q < p; ++q)
      if (t.sends(q, dst, j) > 0) return q;
    return -1;
  };
  for (int q = 0; q < p; ++q)
    if (q != r && first_of(q) == r) a.lead[std::size_t(q)] = share_start(t, r, q, j) % A;
  const int f = first_of(r);
  if (f >= 0 && f != r) {
    a.lead_in = share_start(t, f, r, j) % A;
    a.pad = a.lead_in;
  } else if (f == r) {  // the own run first: align the next run's start
    const std::size_t O = t.sends(r, r, j);
    a.pad = (A - O % A) % A;
  }
  return a;
}
// Where each round's part of recv starts (k + 1 entries, the last one the
// end), rank r's receipts at start + pad: every start on a boundary of A.
inline std::vector<std::size_t> round_starts(int r, std::size_t A, const traffic& t) {
  std::vector<std::size_t> at(std::size_t(t.k) + 1, 0);
  for (int j = 0; j < t.k; ++j) {
    std::size_t m = 0;
    for (int q = 0; q < t.p; ++q) m += t.sends(q, r, j);
    const std::size_t end = at[std::size_t(j)] + plan_alignment(r, A, t, j).pad + m;
    at[std::size_t(j) + 1] = (end + A - 1) / A * A;
  }
  return at;
}

}  // namespace gpusort::detail::multi
