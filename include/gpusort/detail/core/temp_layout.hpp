// All scratch memory of a call comes from one allocation. A temp_layout
// lists the slots a call needs; the same code sizes the allocation (query
// phase, temp == nullptr) and carves it (run phase), so the two never drift.
#pragma once

#include <cstddef>
#include <cstdint>

namespace gpusort::detail {

class temp_layout {
 public:
  static constexpr std::size_t alignment = 256;

  explicit temp_layout(void* base = nullptr) : base_(static_cast<std::uint8_t*>(base)) {}

  // Reserves `count` objects of T; returns their address (null while sizing).
  template <class T> T* take(std::size_t count) {
    std::size_t at = bytes_;
    bytes_ += round_up(count * sizeof(T));
    return base_ ? reinterpret_cast<T*>(base_ + at) : nullptr;
  }
  std::size_t bytes() const { return bytes_; }

  static std::size_t round_up(std::size_t b) { return (b + alignment - 1) / alignment * alignment; }

 private:
  std::uint8_t* base_;
  std::size_t bytes_ = 0;
};

// Stand-in addresses for the sizing phase of an inner two-phase call, whose
// pointer checks want non-null buffers it never touches; sizes do not depend
// on addresses, only on which are distinct (distinct ones size an
// out-of-place call, equal ones an in-place call).
template <class T> T* stand_in(int which) { return reinterpret_cast<T*>(std::uintptr_t(256 * (which + 1))); }

}  // namespace gpusort::detail
