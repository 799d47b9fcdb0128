// Single-block LSD radix sort for small n (radix_onesweep's small path: one
// block, one launch, n <= tile). A latency-bound problem on one SM, so each
// pass is kept to few dependent steps and little shared-memory traffic:
//
//   load     coalesced into shared memory, then each thread takes its
//            blocked items (thread t: slots t * ITEMS ..); keys stay in
//            registers (carried bits) across passes
//   plan     one block reduction (OR and AND of every real key's ordered
//            bits) finds the bits that vary; only the span between the
//            lowest and the highest varying bit is sorted, in as few passes
//            of at most MAX_BITS bits as cover it, of equal widths (32
//            random bits and MAX_BITS = 7: 7, 7, 6, 6, 6). Constant bits do
//            not change the order, so the result is the same stable order.
//   pass     rank by thread-private counters (block_rank_counters.cuh,
//            Merrill & Grimshaw 2011), exchange keys (and values) through
//            shared memory into rank order, reload the blocked items
//   store    coalesced from the last exchange
//
// Pads (slots >= n) carry the key that ranks last in every digit, so they
// stay behind every real key (stability) and are never stored. Bit-identical
// to any stable sort by the same order (cub::DeviceRadixSort included).
#pragma once

#include <gpusort/detail/core/launch.cuh>
#include "core/problem.cuh"
#include <gpusort/detail/block/rank_counters.cuh>
#include "radix/digit.cuh"

#include <cstddef>
#include <cstdint>

namespace gpusort::detail::radix {

template <int THREADS, int ITEMS, int MAX_BITS, class U, class P, bool BY_COMPARE = false> struct small_sort_config {
  static constexpr int threads = THREADS;
  static constexpr int items = ITEMS;
  static constexpr int max_bits = MAX_BITS;
  static constexpr int tile = THREADS * ITEMS;
  using ranker = block::block_rank_counters<THREADS, ITEMS, MAX_BITS, BY_COMPARE>;

  // Shared memory: counters, key exchange, value exchange (each 16-aligned).
  static constexpr std::size_t counter_bytes = sizeof(typename ranker::storage);
  static constexpr std::size_t keys_bytes = align16(std::size_t(tile) * sizeof(U));
  static constexpr std::size_t vals_bytes = is_no_value<P> ? 0 : align16(std::size_t(tile) * sizeof(P));
  static constexpr std::size_t shared_bytes = counter_bytes + keys_bytes + vals_bytes;
  static_assert(keys_bytes >= 16 * 4 * sizeof(std::uint32_t), "block scan and plan scratch alias the key exchange");
};

// Shared-memory slot of tile slot s for elements of type E held ITEMS to a
// thread: an xor swizzle inside each 128-byte row, so the blocked reads
// (lane l at l * ITEMS + i) hit distinct banks.
template <class E, int ITEMS> __device__ __forceinline__ unsigned swizzle(unsigned s) {
  constexpr unsigned per_row = sizeof(E) >= 128 ? 1u : unsigned(128 / sizeof(E));
  constexpr unsigned span = unsigned(ITEMS) < per_row ? unsigned(ITEMS) : per_row;
  return s ^ ((s / per_row) & (span - 1));
}

template <class C, class K, class P>
__global__ void __launch_bounds__(C::threads)
small_sort_kernel(const K* kin, K* kout, const P* vin, P* vout, unsigned n, key_order<K> ord) {
  using U = typename key_traits<K>::bits;
  using KB = digit_map<K>;  // carried bits: carry, digits, uncarry (digit.cuh)
  using ranker = typename C::ranker;
  constexpr int T = C::threads, I = C::items;
  extern __shared__ uint4 smem[];
  auto& counters = *reinterpret_cast<typename ranker::storage*>(smem);
  U* s_keys = reinterpret_cast<U*>(reinterpret_cast<std::uint8_t*>(smem) + C::counter_bytes);
  P* s_vals = reinterpret_cast<P*>(reinterpret_cast<std::uint8_t*>(smem) + C::counter_bytes + C::keys_bytes);
  // block-scan scratch: the key exchange is idle while rank() scans
  auto* warp_sums = reinterpret_cast<std::uint32_t*>(s_keys);
  const U* in = reinterpret_cast<const U*>(kin);
  U* out = reinterpret_cast<U*>(kout);
  const unsigned t = threadIdx.x, lane = t & 31u, warp = t / 32;

  // load (coalesced) and plan: OR and AND of the real keys' ordered bits
  const U pad = KB::carry(pad_bits(ord));
  std::uint64_t any = 0, all = ~std::uint64_t(0);
#pragma unroll
  for (int i = 0; i < I; ++i) {
    const unsigned s = unsigned(i) * T + t;
    U c = pad;
    if (s < n) {
      c = KB::carry(in[s]);
      const std::uint64_t r = std::uint64_t(ord.rank(key_traits<K>::twiddle(in[s])));
      any |= r;
      all &= r;
      if constexpr (!is_no_value<P>) s_vals[swizzle<P, I>(s)] = vin[s];
    }
    s_keys[swizzle<U, I>(s)] = c;
  }
  std::uint32_t* plan = counters.words;  // 4 words a warp, cleared below
  {
    const unsigned a_lo = __reduce_or_sync(~0u, unsigned(any)), a_hi = __reduce_or_sync(~0u, unsigned(any >> 32));
    const unsigned l_lo = __reduce_and_sync(~0u, unsigned(all)), l_hi = __reduce_and_sync(~0u, unsigned(all >> 32));
    if (lane == 0) {
      plan[warp * 4 + 0] = a_lo;
      plan[warp * 4 + 1] = a_hi;
      plan[warp * 4 + 2] = l_lo;
      plan[warp * 4 + 3] = l_hi;
    }
  }
  __syncthreads();
  std::uint64_t varying = 0;
  {
    std::uint64_t a = 0, l = ~std::uint64_t(0);
#pragma unroll
    for (int w = 0; w < C::threads / 32; ++w) {
      a |= plan[w * 4 + 0] | (std::uint64_t(plan[w * 4 + 1]) << 32);
      l &= plan[w * 4 + 2] | (std::uint64_t(plan[w * 4 + 3]) << 32);
    }
    varying = a ^ l;
  }
  U key[I];
  P val[I];
#pragma unroll
  for (int i = 0; i < I; ++i) {
    key[i] = s_keys[swizzle<U, I>(t * I + i)];
    if constexpr (!is_no_value<P>) val[i] = s_vals[swizzle<P, I>(t * I + i)];
  }
  __syncthreads();  // the plan is read: the counters may be cleared
  ranker::clear(counters);

  int passes = 0;
  unsigned lo = 0, span = 0;
  if (varying != 0) {
    lo = unsigned(__ffsll(static_cast<long long>(varying)) - 1);
    span = unsigned(bit_width64(varying)) - lo;
    passes = int((span + C::max_bits - 1) / C::max_bits);
  }
  for (int pass = 0; pass < passes; ++pass) {
    const unsigned width = span / unsigned(passes) + (unsigned(pass) < span % unsigned(passes) ? 1u : 0u);
    const KB d = KB::field(ord, lo, width);
    unsigned digit[I], ranks[I];
#pragma unroll
    for (int i = 0; i < I; ++i) digit[i] = d.of_carried(key[i]);
    ranker::rank(counters, warp_sums, digit, ranks);
    // exchange
#pragma unroll
    for (int i = 0; i < I; ++i) {
      s_keys[swizzle<U, I>(ranks[i])] = key[i];
      if constexpr (!is_no_value<P>) s_vals[swizzle<P, I>(ranks[i])] = val[i];
    }
    __syncthreads();
    if (pass + 1 == passes) break;  // the store reads the exchange
#pragma unroll
    for (int i = 0; i < I; ++i) {
      key[i] = s_keys[swizzle<U, I>(t * I + i)];
      if constexpr (!is_no_value<P>) val[i] = s_vals[swizzle<P, I>(t * I + i)];
    }
    lo += width;
  }

  // store (coalesced; with no pass the exchange still holds the input)
#pragma unroll
  for (int i = 0; i < I; ++i) {
    const unsigned s = unsigned(i) * T + t;
    if (s < n) {
      out[s] = KB::uncarry(s_keys[swizzle<U, I>(s)]);
      if constexpr (!is_no_value<P>) vout[s] = s_vals[swizzle<P, I>(s)];
    }
  }
}

// Sorts [0, n) (n <= C::tile) with one block in one launch.
template <class C, class K, class P> void small_sort(const sort_problem<K, P>& p, const char* what) {
  auto kernel = small_sort_kernel<C, K, P>;
  allow_shared_memory(*p.ctx, kernel, C::shared_bytes, what);
  kernel<<<1, C::threads, C::shared_bytes, p.stream>>>(p.keys_in, p.keys_out, p.vals_in, p.vals_out, unsigned(p.n),
                                                       p.ord);
  p.ctx->check_launch(what);
}

}  // namespace gpusort::detail::radix
