// Tiles: where a block keeps its elements in shared memory, and the one
// scheme that moves them between global and shared memory.
//
// Two shared-memory layouts, the same interface (key(i), val(i)):
//   tile_storage  dense, with one spare slot after the last item so that
//                 merge_slice's dense form may read one past a run (merge
//                 passes, block merge sort)
//   shared_tile   one pad word every 32 slots against bank conflicts, for
//                 the network sorts' strided compare-exchanges
// Keys sit in shared memory as carried bits (the order's encode), values
// as opaque payloads.
//
//   load_slices  the concatenation of two global slices (a merge's A and B;
//                a tile load passes an empty B) into a tile, striped over
//                the block with every copy in flight: cp.async for widths it
//                can move (async_copy.cuh), then each thread encodes the
//                keys it copied (skipped when the order's encoding is the
//                identity). Other widths go through registers. Ends with
//                __syncthreads().
//   store_slice  a tile's first items back out, decoded, coalesced.
// Warp-striped tiles held in registers (the rankers' layout): striped.cuh.
#pragma once

#include <gpusort/detail/block/async_copy.cuh>
#include <gpusort/detail/core/payload.cuh>
#include <gpusort/detail/key_traits.hpp>

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <type_traits>

namespace gpusort::detail::block {

template <class T, class P, int TILE> struct tile_storage {
  T keys[TILE + 1];
  P vals[is_no_value<P> ? 1 : TILE + 1];
  __device__ __forceinline__ T& key(unsigned i) { return keys[i]; }
  __device__ __forceinline__ P& val(unsigned i) { return vals[i]; }
  __device__ __forceinline__ const T& key(unsigned i) const { return keys[i]; }
  __device__ __forceinline__ const P& val(unsigned i) const { return vals[i]; }
};

// A view of dynamic shared memory (the network sorts size it at run time).
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
    return key_bytes(tile) + (is_no_value<P> ? 0 : slots(tile) * sizeof(P));
  }
  static __device__ __forceinline__ shared_tile carve(void* smem, std::size_t tile) {
    auto* base = static_cast<std::uint8_t*>(smem);
    return {reinterpret_cast<U*>(base), reinterpret_cast<P*>(base + key_bytes(tile))};
  }
  __device__ __forceinline__ U& key(unsigned i) const { return keys[slot(i)]; }
  __device__ __forceinline__ P& val(unsigned i) const { return vals[slot(i)]; }
  __device__ __forceinline__ void load(unsigned i, U& k, P& v) const {
    k = key(i);
    if constexpr (!is_no_value<P>) v = val(i);
  }
  __device__ __forceinline__ void store(unsigned i, U k, const P& v) const {
    key(i) = k;
    if constexpr (!is_no_value<P>) val(i) = v;
  }

 private:
  static constexpr __host__ __device__ std::size_t key_bytes(std::size_t tile) {
    return align16(slots(tile) * sizeof(U));
  }
};

// Keys and values in global memory, keys encoded on load and decoded on
// store (Ord: key_order or full_order).
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

template <int THREADS, int ITEMS, class Ord, class K, class P, class Tile>
__device__ __forceinline__ void load_slices(const Ord& ord, Tile& s, const K* ka, const P* va, unsigned la,
                                            const K* kb, const P* vb, unsigned lb) {
  using T = std::remove_reference_t<decltype(s.key(0))>;
  constexpr bool raw_keys = sizeof(K) == sizeof(T) && async_copyable<K>;
  const unsigned count = la + lb;
#pragma unroll
  for (int r = 0; r < ITEMS; ++r) {
    const unsigned i = threadIdx.x + unsigned(r) * THREADS;
    if (i < count) {
      const bool in_a = i < la;
      const unsigned j = in_a ? i : i - la;
      if constexpr (raw_keys) copy_async(reinterpret_cast<K*>(&s.key(i)), (in_a ? ka : kb) + j);
      else s.key(i) = ord.encode((in_a ? ka : kb)[j]);
      if constexpr (!is_no_value<P>) copy_async(&s.val(i), (in_a ? va : vb) + j);
    }
  }
  copy_async_wait();
  if constexpr (raw_keys) {
    if (ord.encodes_as_is()) {
      __syncthreads();
      return;
    }
#pragma unroll
    for (int r = 0; r < ITEMS; ++r) {
      const unsigned i = threadIdx.x + unsigned(r) * THREADS;
      if (i < count) {
        K k;
        std::memcpy(&k, &s.key(i), sizeof(K));
        s.key(i) = ord.encode(k);
      }
    }
  }
  __syncthreads();
}

// A thread's first `count` register items back to tile slots [at, at + count).
template <int ITEMS, class Tile, class T, class P>
__device__ __forceinline__ void put_items(Tile& s, unsigned at, const T (&k)[ITEMS], const P (&v)[ITEMS], int count) {
#pragma unroll
  for (int r = 0; r < ITEMS; ++r)
    if (r < count) {
      s.key(at + r) = k[r];
      if constexpr (!is_no_value<P>) s.val(at + r) = v[r];
    }
}

// One global slice [k, k + count) into the tile.
template <int THREADS, int ITEMS, class Ord, class K, class P, class Tile>
__device__ __forceinline__ void load_slice(const Ord& ord, Tile& s, const K* k, const P* v, unsigned count) {
  load_slices<THREADS, ITEMS>(ord, s, k, v, count, k, v, 0u);
}

// The tile's first `count` items to k[0..count) / v[0..count), decoded.
template <int THREADS, int ITEMS, class Ord, class K, class P, class Tile>
__device__ __forceinline__ void store_slice(const Ord& ord, const Tile& s, K* k, P* v, unsigned count) {
#pragma unroll
  for (int r = 0; r < ITEMS; ++r) {
    const unsigned i = threadIdx.x + unsigned(r) * THREADS;
    if (i < count) {
      k[i] = ord.decode(s.key(i));
      if constexpr (!is_no_value<P>) v[i] = s.val(i);
    }
  }
}

}  // namespace gpusort::detail::block
