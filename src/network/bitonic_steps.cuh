// Bitonic sort for any n: fused multi-stride steps (Batcher 1968; the article "GPU sorting" (2024)
// and NVIDIA's sortingNetworks sample teach the power-of-two form).
//
// Any n. We sort the next power of two N2 >= n, with virtual padding: index
// i >= n holds +inf. We use the variant in which every merge runs the same
// way (ascending): the first step of stage k compares i with its mirror
// i ^ (k - 1), the later steps compare i with i ^ j for j = k/4 .. 1. In
// every compare-exchange the smaller element goes to the lower index, so a
// pad (+inf, always at the higher index of a pair that touches it) never
// moves: a compare-exchange whose higher index is >= n is simply skipped,
// and no pad is ever read, written or materialised.
//
// Fused steps. A "work item" holds 2^M elements in registers whose indices
// differ only in a run of stride bits, so up to M steps run on registers for
// one load and one store (of shared or global memory). Three shapes:
//   half   strides 2^(lo+M-1) .. 2^lo: one group, base + (r << lo)
//   mirror (lo > 0) the stage's mirror step over bits [lo, lo+M-1) then its
//          half steps: two groups of 2^(M-1), A at low bits `low` and B at
//          the mirror `~low`; A[x] pairs with B[~x]
//   mirror (lo = 0) a whole stage on 2^M contiguous elements
// plan_next() cuts one stage's strides into such passes.
#pragma once

#include <gpusort/detail/block/compare_exchange.cuh>

#include <cstddef>

namespace gpusort::detail::bitonic {

enum class shape { half, mirror_pair, mirror_local };

struct pass {
  shape kind;
  int lo;  // lowest stride bit of the pass
  int m;   // log2 of elements per work item
};

// Cuts stage `ks` (blocks of 2^ks) over stride bits [lo_end, bit] into
// passes of at most 2^max_m registers. Call with bit = ks - 1 and first =
// true, then with the returned pass's lo - 1 and first = false, until the
// bit drops below lo_end.
__host__ __device__ inline pass plan_next(int ks, int bit, int lo_end, int max_m, bool first) {
  if (first) {
    if (lo_end == 0 && ks <= max_m) return {shape::mirror_local, 0, ks};
    int m = ks - lo_end + 1 < max_m ? ks - lo_end + 1 : max_m;
    return {shape::mirror_pair, ks - (m - 1), m};
  }
  int m = bit - lo_end + 1 < max_m ? bit - lo_end + 1 : max_m;
  return {shape::half, bit - m + 1, m};
}

// Work items a pass has over a network of 2^log_n2 elements.
__host__ __device__ inline std::size_t pass_items(int log_n2, int m) {
  return std::size_t(1) << (log_n2 - m);
}

// Index of register r of work item w, for a pass of shape S. Idx is the
// index type: 32-bit inside a shared-memory tile, size_t in global memory.
template <int M, shape S, class Idx> struct item_layout {
  Idx base_a, base_b;
  int lo;

  __device__ __forceinline__ item_layout(int lo_, Idx w) : lo(lo_) {
    if constexpr (S == shape::half) {
      Idx low = w & ((Idx(1) << lo) - 1);
      base_a = ((w >> lo) << (lo + M)) | low;
      base_b = base_a;
    } else if constexpr (S == shape::mirror_pair) {
      Idx low = w & ((Idx(1) << (lo - 1)) - 1);
      Idx high = (w >> (lo - 1)) << (lo + M - 1);
      base_a = high | low;
      base_b = high | (low ^ ((Idx(1) << lo) - 1));
    } else {
      base_a = base_b = w << M;
    }
  }
  __device__ __forceinline__ Idx index(int r) const {
    if constexpr (S == shape::half) return base_a + (Idx(r) << lo);
    if constexpr (S == shape::mirror_pair) {
      constexpr int H = 1 << (M - 1);
      return (r < H ? base_a : base_b) + (Idx(r & (H - 1)) << lo);
    }
    return base_a + Idx(r);
  }
  // Lowest and highest index the item touches.
  __device__ __forceinline__ Idx first() const { return base_a; }
  __device__ __forceinline__ Idx last() const {
    if constexpr (S == shape::mirror_pair) return base_b + (Idx((1 << (M - 1)) - 1) << lo);
    if constexpr (S == shape::half) return base_a + (Idx((1 << M) - 1) << lo);
    return base_a + Idx((1 << M) - 1);
  }
};

// The compare-exchanges of one work item, in registers.
template <int M, shape S, class Ord, class U, class P>
__device__ __forceinline__ void item_network(const Ord& ord, U (&k)[1 << M], P (&v)[1 << M]) {
  constexpr int R = 1 << M;
  auto cx = [&](int lower, int higher) { block::compare_exchange(ord, k[lower], k[higher], v[lower], v[higher]); };
  // the stage's mirror step, then its half steps from bit `top` down
  constexpr int top = S == shape::half ? M - 1 : (S == shape::mirror_local ? M - 2 : M - 3);
  if constexpr (S == shape::mirror_local) {
#pragma unroll
    for (int r = 0; r < R / 2; ++r) cx(r, R - 1 - r);
  } else if constexpr (S == shape::mirror_pair) {
    constexpr int H = R / 2;
#pragma unroll
    for (int x = 0; x < H; ++x) {
      int b = H + (H - 1 - x);  // B[~x]; A[x] is the lower index iff x < H/2
      if (x < H / 2 || H == 1) cx(x, b);
      else cx(b, x);
    }
  }
#pragma unroll
  for (int s = top; s >= 0; --s) {
#pragma unroll
    for (int r = 0; r < R; ++r)
      if (!(r & (1 << s))) cx(r, r | (1 << s));
  }
}

// One work item end to end: load through `mem`, run, store. Items wholly
// past n do nothing; indices >= n hold pads.
template <int M, shape S, class Ord, class Mem>
__device__ __forceinline__ void run_item(const Ord& ord, const Mem& mem, int lo, typename Mem::index w,
                                         typename Mem::index n) {
  using U = typename Mem::bits;
  using P = typename Mem::payload;
  using Idx = typename Mem::index;
  constexpr int R = 1 << M;
  item_layout<M, S, Idx> at(lo, w);
  if (at.first() >= n) return;
  U k[R];
  P v[R];
  const bool full = at.last() < n;
#pragma unroll
  for (int r = 0; r < R; ++r) {
    Idx i = at.index(r);
    if (full || i < n) mem.load(i, k[r], v[r]);
    else k[r] = ord.pad();
  }
  item_network<M, S>(ord, k, v);
#pragma unroll
  for (int r = 0; r < R; ++r) {
    Idx i = at.index(r);
    if (full || i < n) mem.store(i, k[r], v[r]);
  }
}

// Calls f.template operator()<M, S>() for a runtime pass (M in 1..MAX_M).
template <int MAX_M, class F> __device__ __host__ __forceinline__ void with_pass(const pass& p, F&& f) {
  if constexpr (MAX_M >= 1) {
    if (p.m == MAX_M) {
      if (p.kind == shape::half) f.template operator()<MAX_M, shape::half>();
      else if constexpr (MAX_M >= 2) {
        if (p.kind == shape::mirror_pair) f.template operator()<MAX_M, shape::mirror_pair>();
        else f.template operator()<MAX_M, shape::mirror_local>();
      } else {
        f.template operator()<MAX_M, shape::mirror_local>();
      }
      return;
    }
    with_pass<MAX_M - 1>(p, f);
  }
}

}  // namespace gpusort::detail::bitonic
