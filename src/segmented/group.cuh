// Segmented sort, the group classes (65 .. 256 keys as launched: the
// lane classes of small.cuh take 17 .. 64; tuning.cuh): G lanes
// x ITEMS elements a segment, a warp holding 32 / G segments, sorted by the
// bitonic network in registers (block/group_bitonic.cuh) over (rank, index)
// elements (values.cuh); each output slot then takes the key, and the
// value, at its element's index. Keys load straight into the elements and
// come back from the input (L1) by index. Values of 4 or 8 bytes (STAGED,
// values.cuh) are copied into shared memory by cp.async before the keys
// load, so they land during the network, and are permuted there; other
// widths are gathered from global memory by the store (value_mover).
//
// Memory latency is not what bounds these classes: copying the next
// segments' keys and values during the sort (two areas a warp, as the
// thread classes do) made them slower (docs/perf/segmented.md); the
// network's shuffles of 8- and 16-byte elements are the suspect.
#pragma once

#include "segmented/bins.cuh"
#include "segmented/small.cuh"
#include "segmented/values.cuh"

#include <gpusort/detail/block/async_copy.cuh>
#include <gpusort/detail/block/group_bitonic.cuh>

#include <cstddef>
#include <cstdint>
#include <utility>

namespace gpusort::detail::segmented {

// Group class CLS: G lanes x ITEMS elements a segment; sv: the warp's area
// of 32 x ITEMS places of 8 bytes (STAGED), G x ITEMS a segment.
template <int G, int ITEMS, class K, bool STAGED>
__device__ __forceinline__ void group_class(const class_args<K>& a, int cls, std::uint64_t* sv) {
  using U = typename key_traits<K>::bits;
  using pe = packed_element<U>;
  using E = typename pe::type;
  constexpr int per_warp = 32 / G;
  const unsigned first = a.b.firsts[cls];
  const unsigned count = a.b.firsts[cls + 1] - first;
  const unsigned lane = threadIdx.x % unsigned(G);
  const std::size_t warps = std::size_t(gridDim.x) * (tuning::group_threads / 32);
  std::uint64_t* seg_vals = nullptr;  // this segment's part of the area
  if constexpr (STAGED) seg_vals = sv + ((threadIdx.x % 32) / unsigned(G)) * unsigned(G * ITEMS);
  // whole warps iterate together: the shuffles take the full mask
  for (std::size_t w = std::size_t(blockIdx.x) * (tuning::group_threads / 32) + threadIdx.x / 32;
       w * per_warp < count; w += warps) {
    const std::size_t g = w * per_warp + (threadIdx.x % 32) / unsigned(G);
    std::size_t s0 = 0, s1 = 0;
    if (g < count) a.off.span(a.b.list[first + g], s0, s1);
    const unsigned size = unsigned(s1 - s0);
    if constexpr (STAGED) {
      with_value_word(a.vals, [&](auto word) {
        using W = decltype(word);
        const W* vin = static_cast<const W*>(a.vals.in);
#pragma unroll
        for (int i = 0; i < ITEMS; ++i) {
          const unsigned e = unsigned(i) * G + lane;
          if (e < size) block::copy_async(reinterpret_cast<W*>(seg_vals) + e, vin + s0 + e);
        }
      });
      block::copy_async_commit();
    }
    E x[ITEMS];
#pragma unroll
    for (int i = 0; i < ITEMS; ++i) {
      const unsigned e = unsigned(i) * G + lane;
      x[i] = e < size ? pe::make(U(a.ord.key_rank(a.kin[s0 + e])), e) : pe::pad();
    }
    block::group_bitonic_sort<G, ITEMS>(x, lane, typename pe::less{});
    // output slot e takes the key (and value) of its element's index
    const auto put = [&](auto&& value) {
#pragma unroll
      for (int i = 0; i < ITEMS; ++i) {
        const unsigned e = unsigned(i) * G + lane;
        if (e < size) {
          const unsigned from = pe::index(x[i]);
          a.kout[s0 + e] = a.kin[s0 + from];
          value(s0 + e, from);
        }
      }
    };
    if constexpr (STAGED) {
      block::copy_async_wait();
      __syncwarp();
      with_value_word(a.vals, [&](auto word) {
        using W = decltype(word);
        W* vout = static_cast<W*>(a.vals.out);
        put([&](std::size_t to, unsigned from) { vout[to] = reinterpret_cast<const W*>(seg_vals)[from]; });
      });
      __syncwarp();  // the area takes the next segments
    } else {
      put([&](std::size_t to, unsigned from) { a.vals.move(to, s0 + from); });
    }
  }
}

// Group classes C0 .. C1 - 1 in one launch, as thread_kernel does;
// STAGED: values staged in shared memory.
template <int C0, int C1, class K, bool STAGED = false>
__global__ void __launch_bounds__(tuning::group_threads,
                                  tuning::group_blocks<sizeof(packed_type<K>) * tuning::group_items[C1 - 1]>)
    group_kernel(class_args<K> a) {
  constexpr int items = tuning::group_items[C1 - 1];  // the most a lane holds
  __shared__ std::uint64_t staged[tuning::group_threads / 32][STAGED ? 32 * items : 1];
  std::uint64_t* sv = staged[threadIdx.x / 32];
  [&]<int... C>(std::integer_sequence<int, C...>) {
    (group_class<tuning::group_lanes[C0 + C], tuning::group_items[C0 + C], K, STAGED>(a, tuning::first_group + C0 + C,
                                                                                      sv),
     ...);
  }(std::make_integer_sequence<int, C1 - C0>{});
}

}  // namespace gpusort::detail::segmented
