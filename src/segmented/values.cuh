// Segmented sort: the elements the comparison sorters order, and how values
// reach the output. Every class knows, for each output slot, the position
// in the segment's input of the key that lands there, and the value at
// that position follows: a gather from the few kilobytes the sorter has
// just read (in L1 or L2). Values are moved by width at run time
// (value_mover), so the kernels are compiled per key type only.
//
// The group classes and the 64-bit block classes sort (rank, index)
// elements: the rank is the key's rank under the call's order
// (key_order::key_rank: twiddled, -0.0 folded onto +0.0, flipped for
// descending, cut to the bit range) and the index the key's position in
// its segment. Indices are unique, so the order is total and any network
// sorts stably; the key, too, is then gathered from the input, so the
// caller's bits come back as they were (-0.0 stays -0.0). The radix
// classes (block classes of keys up to 4 bytes, the large class) move the
// caller's key bits themselves and carry the positions.
#pragma once

#include <gpusort/detail/key_traits.hpp>

#include <cstddef>
#include <cstdint>
#include <type_traits>

namespace gpusort::detail::segmented {

// (rank, index) packed into one integer for ranks of up to 32 bits: the
// integer order is the (rank, index) order.
template <class U> struct packed_element {
  using type = std::conditional_t<(sizeof(U) <= 2), std::uint32_t, std::uint64_t>;
  static constexpr int shift = sizeof(U) <= 2 ? 16 : 32;
  __device__ __forceinline__ static type make(U rank, unsigned index) { return (type(rank) << shift) | type(index); }
  __device__ __forceinline__ static unsigned index(type e) { return unsigned(e & ((type(1) << shift) - 1)); }
  __device__ __forceinline__ static U rank(type e) { return U(e >> shift); }
  __device__ __forceinline__ static type pad() { return ~type(0); }  // after every real element
  struct less {
    __device__ __forceinline__ bool operator()(type a, type b) const { return a < b; }
  };
};

// 64-bit ranks: a pair, compared rank first.
struct wide_element {
  std::uint64_t rank;
  std::uint32_t index, unused;
};
template <> struct packed_element<std::uint64_t> {
  using type = wide_element;
  __device__ __forceinline__ static type make(std::uint64_t rank, unsigned index) { return {rank, index, 0u}; }
  __device__ __forceinline__ static unsigned index(const type& e) { return e.index; }
  __device__ __forceinline__ static std::uint64_t rank(const type& e) { return e.rank; }
  __device__ __forceinline__ static type pad() { return {~std::uint64_t(0), ~0u, 0u}; }
  struct less {
    __device__ __forceinline__ bool operator()(const type& a, const type& b) const {
      return a.rank < b.rank || (a.rank == b.rank && a.index < b.index);
    }
  };
};

// Values of any width, moved in the widest unit that divides their size
// and both arrays' alignment (chosen on the host: value_mover::of).
struct value_mover {
  const void* in = nullptr;  // null for keys-only sorts
  void* out = nullptr;
  unsigned unit = 0;   // bytes moved at once: 1, 2, 4, 8 or 16
  unsigned units = 0;  // units a value

  static value_mover of(const void* in, void* out, std::size_t size) {
    value_mover m{in, out, 1, unsigned(size)};
    if (!in || size == 0) return {};
    for (unsigned u = 16; u > 1; u >>= 1)
      if (size % u == 0 && reinterpret_cast<std::uintptr_t>(in) % u == 0 && reinterpret_cast<std::uintptr_t>(out) % u == 0) {
        m.unit = u;
        m.units = unsigned(size / u);
        break;
      }
    return m;
  }

  // value `from` of the input to slot `to` of the output
  __device__ __forceinline__ void move(std::size_t to, std::size_t from) const {
    switch (unit) {
      case 16: return copy<uint4>(to, from);
      case 8: return copy<std::uint64_t>(to, from);
      case 4: return copy<std::uint32_t>(to, from);
      case 2: return copy<std::uint16_t>(to, from);
      case 1: return copy<std::uint8_t>(to, from);
      default: return;  // keys only
    }
  }

 private:
  template <class W> __device__ __forceinline__ void copy(std::size_t to, std::size_t from) const {
    const W* src = static_cast<const W*>(in) + from * units;
    W* dst = static_cast<W*>(out) + to * units;
    for (unsigned u = 0; u < units; ++u) dst[u] = src[u];
  }
};

// Values of 4 or 8 bytes whose arrays are aligned to their size: the thread
// and group classes stage them in shared memory with the keys (cp.async,
// in flight during the sort), permute them there and store them coalesced
// (STAGED kernels: one build for both widths, chosen a call; an area holds
// 8 bytes a place). Any other width or alignment: value_mover's run-time
// width, gathered from global memory after the sort.
inline bool staged_values(const value_mover& m) { return m.in && m.units == 1 && (m.unit == 4 || m.unit == 8); }

// f(W) with W the staged values' word (call.vals.unit is 4 or 8).
template <class F> __device__ __forceinline__ void with_value_word(const value_mover& m, F f) {
  if (m.unit == 8) f(std::uint64_t{});
  else f(std::uint32_t{});
}

}  // namespace gpusort::detail::segmented
