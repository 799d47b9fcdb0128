// Where network steps read and write their elements: a tile in shared
// memory (twiddled key bits; one pad word per 32 slots against bank
// conflicts) or the arrays in global memory (the caller's key type,
// twiddled on load and untwiddled on store).
#pragma once

#include "core/payload.cuh"

#include <gpusort/detail/key_traits.hpp>

#include <cstddef>
#include <cstdint>

namespace gpusort::detail {

template <class U, class P> struct shared_tile {
  using bits = U;
  using payload = P;
  using index = unsigned;
  U* keys;
  P* vals;

  static constexpr __host__ __device__ std::size_t slots(std::size_t tile) { return tile + tile / 32; }
  static __device__ __forceinline__ unsigned slot(unsigned i) { return i + (i >> 5); }
  // Bytes of dynamic shared memory a tile of `tile` elements needs.
  static constexpr __host__ __device__ std::size_t bytes(std::size_t tile) {
    std::size_t kb = (slots(tile) * sizeof(U) + 15) / 16 * 16;
    return kb + (is_no_value<P> ? 0 : slots(tile) * sizeof(P));
  }
  static __device__ __forceinline__ shared_tile carve(void* smem, std::size_t tile) {
    auto* base = static_cast<std::uint8_t*>(smem);
    std::size_t kb = (slots(tile) * sizeof(U) + 15) / 16 * 16;
    return {reinterpret_cast<U*>(base), reinterpret_cast<P*>(base + kb)};
  }
  __device__ __forceinline__ void load(unsigned i, U& k, P& v) const {
    k = keys[slot(i)];
    if constexpr (!is_no_value<P>) v = vals[slot(i)];
  }
  __device__ __forceinline__ void store(unsigned i, U k, const P& v) const {
    keys[slot(i)] = k;
    if constexpr (!is_no_value<P>) vals[slot(i)] = v;
  }
};

// Ord (key_order or full_order) encodes keys to the carried bits and back.
template <class K, class P, class Ord> struct global_array {
  using bits = typename key_traits<K>::bits;
  using payload = P;
  using index = std::size_t;
  K* keys;
  P* vals;
  Ord ord;

  __device__ __forceinline__ void load(std::size_t i, bits& k, P& v) const {
    k = ord.encode(keys[i]);
    if constexpr (!is_no_value<P>) v = vals[i];
  }
  __device__ __forceinline__ void store(std::size_t i, bits k, const P& v) const {
    keys[i] = ord.decode(k);
    if constexpr (!is_no_value<P>) vals[i] = v;
  }
};

// Copies elements [base, base + count) of global memory into a shared tile
// (coalesced, block-strided), encoding keys; and back.
template <int THREADS, class K, class P, class U, class Ord>
__device__ __forceinline__ void load_tile(const K* keys, const P* vals, std::size_t base, int count,
                                          const shared_tile<U, P>& t, const Ord& ord) {
  for (int i = threadIdx.x; i < count; i += THREADS) {
    t.keys[t.slot(i)] = ord.encode(keys[base + i]);
    if constexpr (!is_no_value<P>) t.vals[t.slot(i)] = vals[base + i];
  }
}
template <int THREADS, class K, class P, class U, class Ord>
__device__ __forceinline__ void store_tile(const shared_tile<U, P>& t, int count, K* keys, P* vals,
                                           std::size_t base, const Ord& ord) {
  for (int i = threadIdx.x; i < count; i += THREADS) {
    keys[base + i] = ord.decode(t.keys[t.slot(i)]);
    if constexpr (!is_no_value<P>) vals[base + i] = t.vals[t.slot(i)];
  }
}

}  // namespace gpusort::detail
