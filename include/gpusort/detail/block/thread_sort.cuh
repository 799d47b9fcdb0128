// The per-thread register network: odd-even transposition sort of N items
// held in registers (Habermann 1972; CUDA lecture 6, "Understanding parallel thinking from the parallel sort method", part I). N rounds of
// compare-exchanges between neighbours, alternating even and odd pairs.
//
// O(N^2) comparisons, but N is a small compile-time constant, every index is
// a constant after unrolling (the arrays stay in registers) and the network
// is stable: compare_exchange swaps only strictly out-of-order neighbours.
// Block sorts (odd-even, merge) start from it.
//
// thread_network_sort: Batcher's odd-even merge sort (Batcher 1968, "Sorting
// networks and their applications"; Knuth TAOCP vol. 3, 5.3.4) of N items,
// N a power of two: N log2(N) (log2(N) - 1) / 4 + N - 1 compare-exchanges
// (63 for 16 items, against 120 for the transposition sort), in
// log2(N) (log2(N) + 1) / 2 rounds. Not stable: callers make every element
// unique (the segmented sort's (rank, index) elements).
#pragma once

#include <gpusort/detail/block/compare_exchange.cuh>

#include <type_traits>
#include <utility>

namespace gpusort::detail::block {

template <int N, class Less, class U, class P>
__device__ __forceinline__ void thread_sort(const Less& less, U (&keys)[N], P (&vals)[N]) {
#pragma unroll
  for (int round = 0; round < N; ++round) {
#pragma unroll
    for (int i = round & 1; i + 1 < N; i += 2) compare_exchange(less, keys[i], keys[i + 1], vals[i], vals[i + 1]);
  }
}

// A network's comparators, listed at compile time from Net::visit(f), which
// calls f(lo, hi) for each in order: each becomes a template argument, so
// every register index is a constant (a nested loop left to the unroller
// put the array in local memory).
template <class Net> struct comparator_list {
  struct comparator {
    int lo, hi;
  };
  static constexpr int count() {
    int c = 0;
    Net::visit([&](int, int) { ++c; });
    return c;
  }
  struct list {
    comparator at[count() > 0 ? count() : 1];
  };
  static constexpr list make() {
    list l{};
    int c = 0;
    Net::visit([&](int lo, int hi) { l.at[c++] = {lo, hi}; });
    return l;
  }
  static constexpr list comparators = make();
};

// Batcher's odd-even merge sort of N items.
template <int N> struct batcher_merges {
  template <class F> static constexpr void visit(F&& f) {
    // merge runs of p into runs of 2p; k: the comparator distance
    for (int p = 1; p < N; p <<= 1)
      for (int k = p; k >= 1; k >>= 1)
        for (int j = k % p; j + k < N; j += 2 * k)
          for (int i = 0; i < k && i + j + k < N; ++i)
            if ((i + j) / (2 * p) == (i + j + k) / (2 * p)) f(i + j, i + j + k);  // one run of 2p
  }
};
template <int N> using batcher_network = comparator_list<batcher_merges<N>>;

// The half-cleaners of Batcher's bitonic merge (Batcher 1968): a bitonic
// sequence of N items (N a power of two) comes out ascending after log2(N)
// rounds of N / 2 comparators (i, i + k), k = N / 2 .. 1, i & k == 0.
template <int N> struct bitonic_cleaners {
  template <class F> static constexpr void visit(F&& f) {
    for (int k = N / 2; k >= 1; k >>= 1)
      for (int i = 0; i < N; ++i)
        if ((i & k) == 0) f(i, i + k);
  }
};
template <int N> using bitonic_cleaner = comparator_list<bitonic_cleaners<N>>;

// The plain order of unsigned integers: a comparator of 32 bits or less is
// one min and one max.
struct unsigned_less {
  template <class T> __device__ __forceinline__ bool operator()(T a, T b) const { return a < b; }
};

template <int LO, int HI, int N, class E, class Less>
__device__ __forceinline__ void network_step(E (&x)[N], const Less& less) {
  if constexpr (std::is_same_v<Less, unsigned_less> && std::is_unsigned_v<E> && sizeof(E) <= 4) {
    const E lo = min(x[LO], x[HI]);
    x[HI] = max(x[LO], x[HI]);
    x[LO] = lo;
  } else if (less(x[HI], x[LO])) {
    swap_values(x[LO], x[HI]);
  }
}

// The comparators of list Net applied to x in order.
template <class Net, int N, class E, class Less, int... C>
__device__ __forceinline__ void network_steps(E (&x)[N], const Less& less, std::integer_sequence<int, C...>) {
  (network_step<Net::comparators.at[C].lo, Net::comparators.at[C].hi>(x, less), ...);
}
template <class Net, int N, class E, class Less> __device__ __forceinline__ void run_network(E (&x)[N], const Less& less) {
  network_steps<Net>(x, less, std::make_integer_sequence<int, Net::count()>{});
}

template <int N, class E, class Less>
__device__ __forceinline__ void thread_network_sort(E (&x)[N], const Less& less) {
  static_assert(N >= 1 && (N & (N - 1)) == 0, "a power of two of items");
  run_network<batcher_network<N>>(x, less);
}

}  // namespace gpusort::detail::block
