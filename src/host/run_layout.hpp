// Where the runs of the out-of-core merge sort live in the caller's array
// (plan.hpp, out_of_core.cpp). The array is cut into host
// blocks of B items (the last one may be partial). Two layouts:
//   contiguous  run r is items [r S, r S + S): S / B whole blocks in a row;
//   dealt       run r is blocks r, R + r, 2 R + r, ... (R runs, blocks dealt
//               round-robin), in that order.
// Each run is sorted and written back into its own blocks, so either layout
// is in place. The merge then writes its output block by block into blocks
// all of whose items have been read (blocks.hpp). With contiguous runs the
// output's home blocks belong to one run, read over the whole merge, so
// nearly every output block lands elsewhere and must be moved home at the
// end. With dealt runs the first (q + 1) S items of the output use about
// (q + 1) S / R items of every run, which are run r's logical blocks below
// (q + 1) S / (R B): the home blocks [0, (q + 1) S / B). So once the merge
// has read one piece ahead (S / B >= R blocks), the output of piece q finds
// its home blocks free and goes straight there.
// The dealt layout breaks ties by run, which is not input order: only sorts
// whose equal keys are indistinguishable (integer keys over all their bits,
// no values) may take it. Plain C++, checked by tests/host_plan_test.cpp.
#pragma once

#include <algorithm>
#include <cstddef>

namespace gpusort::detail::host {

class run_layout {
 public:
  // n items, runs of at most `slot` items, host blocks of `block` items
  // (slot a multiple of block).
  run_layout(std::size_t n, std::size_t slot, std::size_t block, bool dealt)
      : n_(n), S_(slot), B_(block), R_(slot ? (n + slot - 1) / slot : 0), blocks_((n + block - 1) / block),
        dealt_(dealt) {}

  std::size_t runs() const { return R_; }

  // Items in run r.
  std::size_t length(std::size_t r) const {
    if (!dealt_) return std::min(S_, n_ - r * S_);
    const std::size_t owned = blocks_ > r ? (blocks_ - 1 - r) / R_ + 1 : 0;
    std::size_t len = owned * B_;
    if (n_ % B_ != 0 && (blocks_ - 1) % R_ == r) len -= B_ - n_ % B_;
    return len;
  }
  // The host block that holds run r's logical block k.
  std::size_t home_block(std::size_t r, std::size_t k) const { return dealt_ ? k * R_ + r : r * (S_ / B_) + k; }
  // The host position of run r's item i.
  std::size_t at(std::size_t r, std::size_t i) const { return home_block(r, i / B_) * B_ + i % B_; }
  // Where run r's items lie as seen by corank.hpp: item i at
  // base + (i / stride_block) * stride + i % stride_block.
  std::size_t base(std::size_t r) const { return dealt_ ? r * B_ : r * S_; }
  std::size_t stride_block() const { return dealt_ ? B_ : S_; }
  std::size_t stride() const { return dealt_ ? R_ * B_ : S_; }

  // Calls f(host position, logical position, items) for every stretch of run
  // r's items [b, e) that is contiguous on the host, in order.
  template <class F> void stretches(std::size_t r, std::size_t b, std::size_t e, F&& f) const {
    if (!dealt_) {
      if (e > b) f(r * S_ + b, b, e - b);
      return;
    }
    for (std::size_t i = b; i < e;) {
      const std::size_t end = std::min(e, (i / B_ + 1) * B_);
      f(at(r, i), i, end - i);
      i = end;
    }
  }

 private:
  std::size_t n_, S_, B_, R_, blocks_;
  bool dealt_;
};

}  // namespace gpusort::detail::host
