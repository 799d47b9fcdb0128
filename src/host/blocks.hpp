// Where the out-of-core merge of sort(std::span) writes its output. The
// merged output cannot go straight to its place: the runs' unread items still
// live there. It lands block by block in whichever host block is free: a
// block of the caller's array all of whose items have been read, or one of a
// few spare blocks. Each run holds at most one partly read block, so as many
// spares as runs always suffice. A logical block takes its own place when
// that is free, else a free spare (a spare is nobody's home), and only then
// another block's free home. At the end a permutation moves every block home: first the
// chains that start at an empty place and end at a spare, then the cycles
// left among the caller's blocks, through a one-block buffer. Plain C++,
// checked by tests/host_plan_test.cpp.
#pragma once

#include <cstddef>
#include <stdexcept>
#include <vector>

namespace gpusort::detail::host {

class block_ledger {
 public:
  struct move {
    std::size_t from, to;
  };
  static constexpr std::size_t none = ~std::size_t(0);

  // Places 0..full-1 are the caller's full blocks; full..full+spares-1 the spares.
  block_ledger(std::size_t full, std::size_t spares)
      : full_(full), spares_(spares), free_(full + spares, 0), where_(full, none) {
    for (std::size_t s = full + spares; s-- > full;) release(s);
  }
  std::size_t full() const { return full_; }
  std::size_t spares() const { return spares_; }
  // The one-block buffer that moves() uses for cycles.
  std::size_t buffer() const { return full_ + spares_; }

  // Every item of place s has been read.
  void release(std::size_t s) {
    if (free_[s]) return;
    free_[s] = 1;
    (s < full_ ? homes_ : spares_free_).push_back(s);
  }
  // Where logical block j is written: its own place when free, else a spare,
  // else another block's home.
  std::size_t place(std::size_t j) {
    std::size_t s = free_[j] ? j : pop(spares_free_);
    if (s == none) s = pop(homes_);
    if (s == none) throw std::logic_error("block_ledger: no free block");
    free_[s] = 0;
    where_[j] = s;
    return s;
  }
  // Logical blocks written away from home so far.
  std::size_t displaced() const {
    std::size_t count = 0;
    for (std::size_t j = 0; j < full_; ++j) count += where_[j] != none && where_[j] != j;
    return count;
  }

  // The moves that bring every logical block home, in order.
  std::vector<move> moves() const {
    std::vector<std::size_t> where = where_, holds(full_ + spares_ + 1, none);
    for (std::size_t j = 0; j < full_; ++j)
      if (where[j] != none) holds[where[j]] = j;
    std::vector<move> out;
    // chains: fill an empty place; the block's old place then needs its own
    // block, until the old place is a spare
    for (std::size_t j = 0; j < full_; ++j) {
      for (std::size_t cur = j; holds[cur] == none;) {
        const std::size_t from = where[cur];
        out.push_back({from, cur});
        holds[cur] = cur;
        where[cur] = cur;
        holds[from] = none;
        if (from >= full_) break;
        cur = from;
      }
    }
    // cycles: park one block in the buffer and rotate the rest
    for (std::size_t j = 0; j < full_; ++j) {
      if (holds[j] == j) continue;
      out.push_back({j, buffer()});
      where[holds[j]] = buffer();
      for (std::size_t cur = j;;) {
        const std::size_t from = where[cur];
        out.push_back({from, cur});
        holds[cur] = cur;
        where[cur] = cur;
        if (from == buffer()) break;
        cur = from;
      }
    }
    return out;
  }

 private:
  std::size_t full_, spares_;
  std::vector<char> free_;
  std::vector<std::size_t> homes_, spares_free_;  // free places, some taken since (checked on pop)
  std::vector<std::size_t> where_;  // logical block -> place

  std::size_t pop(std::vector<std::size_t>& stack) {
    while (!stack.empty()) {
      const std::size_t s = stack.back();
      stack.pop_back();
      if (free_[s]) return s;
    }
    return none;
  }
};

}  // namespace gpusort::detail::host
