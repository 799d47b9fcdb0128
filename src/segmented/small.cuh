// Segmented sort, phase 2: the segments of up to tuning::block_max keys,
// one kernel per size class (tuning.cuh), each a grid-stride loop over its
// part of the class list (bins.cuh), so the grid is sized on the host and
// the work is read on the device.
//
//   copy    size 1: the key and value move
//   thread  one lane sorts a segment of up to 16 keys in registers, the
//           warp's segments staged in shared memory (coalesced moves); the
//           same for 17 to 64 keys where a lane's elements fit
//           (wide_thread_kernel), or two lanes a segment of 33 to 64 keys
//           (pair_kernel)
//   group   G lanes sort a segment of up to G x ITEMS keys in registers
//           (group.cuh)
//   block   one block a segment (block.cuh)
#pragma once

#include "segmented/bins.cuh"
#include "segmented/values.cuh"
#include "segmented/window.hpp"

#include <gpusort/detail/block/async_copy.cuh>
#include <gpusort/detail/block/lane_pair_sort.cuh>
#include <gpusort/detail/block/thread_sort.cuh>

#include <cstddef>
#include <cstdint>
#include <type_traits>
#include <utility>

namespace gpusort::detail::segmented {

// The classes' inputs: keys, output, values, the segments and the class list.
template <class K> struct class_args {
  const K* kin;
  K* kout;
  value_mover vals;
  offsets off;
  bins b;
  key_order<K> ord;
};

// Copy class: one key (and value) a segment.
template <int THREADS, class K> __device__ __forceinline__ void copy_class(const class_args<K>& a) {
  const unsigned first = a.b.firsts[tuning::copy_class];
  const unsigned count = a.b.firsts[tuning::copy_class + 1] - first;
  for (std::size_t g = std::size_t(blockIdx.x) * THREADS + threadIdx.x; g < count;
       g += std::size_t(gridDim.x) * THREADS) {
    std::size_t s0, s1;
    a.off.span(a.b.list[first + g], s0, s1);
    a.kout[s0] = a.kin[s0];
    a.vals.move(s0, s0);
  }
}

template <class K> using packed_type = typename packed_element<typename key_traits<K>::bits>::type;

// Thread class CLS: one lane sorts one segment of up to CAP keys in
// registers by Batcher's network (block/thread_sort.cuh). The warp's 32
// segments pass through shared memory, so global loads and stores stay
// coalesced. Keys sit at linear places x of the warp's area, stored at
// x + x / 32: a warp's 32 consecutive places meet 32 banks, and so do the
// lanes' walks of their own CAP keys (lane l at l x CAP + i + l x CAP / 32,
// distinct mod 32 for CAP <= 32; two lanes a bank at 64). A pad word every
// CAP instead cost every warp-wide move a 2-way conflict.
//   load     when the 32 segments lie end to end (one offsets array, the
//            class list in segment order: the common case), the warp
//            copies their whole range, 32 keys a round; otherwise round r
//            moves the keys e = 32 r + lane of the warp's segments, segment
//            e / CAP at place e
//   sort     each lane its own segment, written back in place. BARE
//            (keys alone, every bit in the order): the ranks themselves,
//            by min and max, and the keys rebuilt from them (a float zero
//            from the kind the segment holds; a segment holding both
//            zeros, or NaNs to fold, by insertion). Otherwise (rank, index)
//            elements, the keys gathered by index, and with values each
//            one's source place.
//   store    the load's moves in reverse
// Software pipelined over two areas (BUFS = 2): the next 32 segments' keys
// are copied by cp.async (block/async_copy.cuh: no registers held) while
// this warp sorts and stores the current ones, and the offsets of the ones
// after are read meanwhile. One iteration's loads in flight a warp left
// the kernel at about half of the copy rate (Little's law). Keys of 1 and
// 2 bytes have no cp.async: they load when issued, as with one area.
// STAGED: values of 4 or 8 bytes (values.cuh) are staged like the keys,
// at the same places of an area of their own, as a second group of copies
// that is still in flight during the sort; the store takes each from its
// source place. Otherwise the store gathers each value from global memory.
// LANES = 2: two lanes a segment (lane_pair_sort: each sorts CAP / 2
// elements, then one bitonic merge across the pair), a warp 16 segments;
// every warp-wide move above is the same over its 32 x CAP / 2 places.
// WINDOW (8-byte keys, not BARE): the (rank, index) element is one word,
// the rank's place in the segment's window (window.hpp), instead of a
// 16-byte pair.
// sk: the warp's BUFS areas of 33 x H keys (H = CAP / LANES, the elements a
// lane holds); src: its source places (32 x H, with values); sv: its area
// of 33 x H places of 8 bytes (STAGED).
template <int CAP, class K, bool BARE, int THREADS = tuning::group_threads, int BUFS = 1, bool STAGED = false,
          int LANES = 1, bool WINDOW = false>
__device__ __forceinline__ void thread_class(const class_args<K>& a, int cls, typename key_traits<K>::bits* sk,
                                             std::uint16_t* src, void* sv = nullptr) {
  using traits = key_traits<K>;
  using U = typename traits::bits;
  using pe = packed_element<U>;
  using E = typename pe::type;
  static_assert(BUFS == 1 || BUFS == 2, "one or two areas");
  static_assert(!STAGED || (!BARE && BUFS == 1), "staged values: the indexed sort, one area");
  static_assert(LANES == 1 || LANES == 2, "one or two lanes a segment");
  static_assert(!WINDOW || (!BARE && sizeof(U) == 8), "windows of 8-byte ranks");
  static_assert(!WINDOW || CAP <= (1 << rank_window::index_bits), "an index in the window's low bits");
  constexpr int H = CAP / LANES;       // elements a lane
  constexpr unsigned SEGS = 32 / LANES;  // segments a warp
  constexpr int warps = THREADS / 32;
  constexpr unsigned area = 33 * H;
  const unsigned first = a.b.firsts[cls];
  const unsigned count = a.b.firsts[cls + 1] - first;
  const unsigned lane = threadIdx.x % 32;
  const unsigned seg = lane / LANES;  // the lane's segment of the warp's SEGS
  const unsigned mine = lane % LANES * H;  // its first element in the segment
  const auto place = [](unsigned x) { return x + x / 32; };
  const U* kin = reinterpret_cast<const U*>(a.kin);
  U* kout = reinterpret_cast<U*>(a.kout);
  const bool pairs = a.vals.in != nullptr;
  // V keys a 16-byte vector: the rank-only sort's end-to-end stores go by
  // vectors when both ranges are 16-byte aligned (a quarter of the u32
  // stores), and so do the loads of keys without cp.async
  constexpr int V = 16 / int(sizeof(U));
  // (not for 8-byte keys: seg16 u64 139 -> 114 Gkeys/s with them; nor for
  // the indexed sort, which has no registers to spare)
  constexpr bool vectors = BARE && V <= H && sizeof(U) <= 4;
  constexpr bool async = block::async_copyable<U>;
  const unsigned warps_all = gridDim.x * warps;

  // The warp's 32 segments of one iteration (w: its list entries / 32),
  // from each lane's span; every lane calls it (shuffles).
  struct range {
    bool live;             // the warp has segments this iteration
    bool joined;           // end to end
    bool by_vector;        // and 16-byte aligned at both ends
    std::size_t base, s0;  // the first key; this lane's segment's
    unsigned total, size, off;
  };
  const auto range_of = [&](unsigned w, std::size_t s0, std::size_t s1) {
    range r;
    r.live = std::size_t(w) * SEGS < count;
    const std::size_t g = std::size_t(w) * SEGS + seg;
    r.s0 = s0;
    r.size = unsigned(s1 - s0);
    // end to end: every live segment starts where the one before it ends
    const std::size_t before_end = __shfl_up_sync(0xFFFFFFFFu, s1, LANES);
    r.joined = __all_sync(0xFFFFFFFFu, g >= count || seg == 0 || s0 == before_end);
    const unsigned last =
        r.live && count - std::size_t(w) * SEGS < SEGS ? unsigned(count - std::size_t(w) * SEGS - 1) : SEGS - 1;
    r.base = __shfl_sync(0xFFFFFFFFu, s0, 0);
    r.total = unsigned(__shfl_sync(0xFFFFFFFFu, s1, int(last * LANES)) - r.base);
    r.off = !r.joined ? seg * CAP : r.size ? unsigned(s0 - r.base) : 0u;  // lanes past the list: size 0
    r.by_vector = vectors && r.joined &&
                  ((reinterpret_cast<std::uintptr_t>(kin + r.base) | reinterpret_cast<std::uintptr_t>(kout + r.base)) &
                   15) == 0;
    return r;
  };
  const auto span_of = [&](unsigned w, std::size_t& s0, std::size_t& s1) {
    s0 = s1 = 0;
    if (std::size_t(w) * SEGS + seg < count) a.off.span(a.b.list[first + std::size_t(w) * SEGS + seg], s0, s1);
  };

  // f(place, global index) for each key of the SEGS segments, key by key:
  // end to end, 32 consecutive keys a round; otherwise CAP lanes a segment
  const auto key_moves = [&](const range& r, auto&& f) {
    if (r.joined) {
#pragma unroll
      for (int i = 0; i < H; ++i) {
        const unsigned x = unsigned(i) * 32 + lane;
        if (x < r.total) f(x, r.base + x);
      }
    } else {
#pragma unroll
      for (int i = 0; i < H; ++i) {
        const unsigned e = unsigned(i) * 32 + lane, j = e / CAP, k = e % CAP;
        const std::size_t at = __shfl_sync(0xFFFFFFFFu, r.s0, int(j * LANES));
        const unsigned n = __shfl_sync(0xFFFFFFFFu, r.size, int(j * LANES));
        if (k < n) f(j * CAP + k, at + k);
      }
    }
  };

  // the 32 segments' keys into area sk_: copies started (cp.async), or
  // done (keys without it)
  const auto load = [&](const range& r, U* sk_) {
    if constexpr (!async) {
      if (r.by_vector) {
#pragma unroll
        for (int i = 0; i < H / V; ++i) {
          const unsigned x = (unsigned(i) * 32 + lane) * V;
          if (x + V <= r.total) {
            const uint4 v = *reinterpret_cast<const uint4*>(kin + r.base + x);
            const U* k = reinterpret_cast<const U*>(&v);
#pragma unroll
            for (int j = 0; j < V; ++j) sk_[place(x + j)] = k[j];
          } else {
            for (unsigned j = x; j < r.total; ++j) sk_[place(j)] = kin[r.base + j];
          }
        }
        return;
      }
    }
    key_moves(r, [&](unsigned x, std::size_t at) { block::copy_async(sk_ + place(x), kin + at); });
  };

  // the 32 segments' values into sv (copies started)
  const auto load_values = [&](const range& r) {
    with_value_word(a.vals, [&](auto word) {
      using W = decltype(word);
      const W* vin = static_cast<const W*>(a.vals.in);
      key_moves(r, [&](unsigned x, std::size_t at) { block::copy_async(static_cast<W*>(sv) + place(x), vin + at); });
    });
  };

  // sort area sk_ in place (every lane its segment)
  const auto sort = [&](const range& r, U* sk_) {
    const unsigned size = r.size, off = r.off;
    const auto rank_of = [&](U bits) { return U(a.ord.rank(traits::twiddle(bits))); };
    // the indexed sort's unfolded float ranks (below): keys of up to 4 bytes
    // with values staged
    constexpr bool unfold = !BARE && !WINDOW && traits::is_float && sizeof(U) <= 4 && STAGED;
    // stable insertion of each key among the ranks before it (NaNs folded
    // to one rank, both zeros one rank: equal ones keep their order); with
    // values, each key's source place moves with it, and equal ranks are
    // ordered by source place (the area may hold them out of input order:
    // a float segment sorted by its unfolded ranks)
    const auto insertion_sort = [&] {
      for (unsigned i = 1; i < size; ++i) {
        const U v = sk_[place(off + i)];
        const std::uint16_t from = pairs ? src[off + i] : std::uint16_t(0);
        const U rv = rank_of(v);
        unsigned j = i;
        for (; j > 0; --j) {
          const U u = sk_[place(off + j - 1)];
          const U ru = rank_of(u);
          if (!(rv < ru || (pairs && rv == ru && from < src[off + j - 1]))) break;
          sk_[place(off + j)] = u;
          if (pairs) src[off + j] = src[off + j - 1];
        }
        sk_[place(off + j)] = v;
        if (pairs) src[off + j] = from;
      }
    };
    if constexpr (BARE) {
      // full order: a key's bits are its rank (twiddled ^ flip, one to
      // one), so the lane sorts those by min and max and rebuilds the keys
      // from them. The folds are left to after the network, where they are
      // rare: the two zeros have adjacent ranks, so a segment holding both
      // shows them side by side; NaNs to fold (NaNs largest) show in the
      // NaN test of the sorted ranks. Such a segment (equal ranks of
      // unequal bits) is sorted alone by a stable insertion in its area,
      // which still holds the keys, so the kernel holds no (rank, index)
      // elements: as lean in registers as for integers. (Sending the warp
      // to the indexed sort instead held f32 at 80 registers: 3 blocks an
      // SM, not 4. Folding every key before the network, and testing each
      // for both zeros and NaNs, cost f32 at 16 keys a third more time
      // than u32.)
      using R = std::conditional_t<(sizeof(U) < 4), std::uint32_t, U>;
      using order = key_order<K>;
      const U flip = a.ord.flip;
      R rk[H];
#pragma unroll
      for (int i = 0; i < H; ++i)
        rk[i] = mine + i < size ? R(U(traits::twiddle(sk_[place(off + mine + i)]) ^ flip)) : R(~R(0));
      if constexpr (LANES == 2) block::lane_pair_sort(rk, mine != 0);
      else block::thread_network_sort(rk, block::unsigned_less{});
      bool special = false;
      if constexpr (traits::is_float) {
        const U zm = U(order::minus_zero ^ flip), zp = U(order::plus_zero ^ flip);
        const R zlo = R(zm < zp ? zm : zp);  // the other zero ranks zlo + 1
        // the rank after this lane's last: the upper lane's first (pairs)
        const R after = LANES == 2 ? R(__shfl_down_sync(0xFFFFFFFFu, rk[0], 1)) : R(0);
        bool low = false;
#pragma unroll
        for (int i = 0; i < H; ++i) low |= rk[i] == zlo;
        if (low) {
#pragma unroll
          for (int i = 0; i + 1 < H; ++i) special |= rk[i] == zlo && rk[i + 1] == zlo + 1;
          if (LANES == 2) special |= mine == 0 && rk[H - 1] == zlo && after == zlo + 1;
        }
        if (a.ord.nans_largest()) {
#pragma unroll
          for (int i = 0; i < H; ++i)
            special |= mine + i < size && U(U(U(rk[i]) ^ flip) - a.ord.nan_lo) > a.ord.nan_span;
        }
        if constexpr (LANES == 2) special |= __shfl_xor_sync(0xFFFFFFFFu, special, 1) != 0;
      }
      if (!special) {
#pragma unroll
        for (int i = 0; i < H; ++i)
          if (mine + i < size) sk_[place(off + mine + i)] = traits::untwiddle(U(U(rk[i]) ^ flip));
      } else if (mine == 0) {
        insertion_sort();  // the pair's lower lane alone
      }
    } else {
      // (rank, index) elements, one word each (WINDOW: window.hpp); the
      // keys gathered by index
      U y[H];  // the sorted bits, read before any is written back
      // WINDOW: two ranks the window's shift joined came out of order; unfolded
      // floats: a segment with both zeros or a NaN to fold
      bool unsorted = false;
      if constexpr (WINDOW) {
        U w[H];  // ranks, then words
        U least = ~U(0), most = 0;
#pragma unroll
        for (int i = 0; i < H; ++i) {
          w[i] = mine + i < size ? rank_of(sk_[place(off + mine + i)]) : U(0);
          if (mine + i < size) least = w[i] < least ? w[i] : least, most = w[i] > most ? w[i] : most;
        }
        if constexpr (LANES == 2) {
          const U l = __shfl_xor_sync(0xFFFFFFFFu, least, 1), m = __shfl_xor_sync(0xFFFFFFFFu, most, 1);
          least = l < least ? l : least, most = m > most ? m : most;
        }
        const rank_window win = rank_window::of(least, most);
#pragma unroll
        for (int i = 0; i < H; ++i) w[i] = mine + i < size ? win.word(w[i], mine + i) : ~U(0);
        if constexpr (LANES == 2) block::lane_pair_sort(w, mine != 0);
        else block::thread_network_sort(w, block::unsigned_less{});
        unsigned idx[H / 4] = {};  // the sorted indices, a byte each (the words' registers freed)
#pragma unroll
        for (int i = 0; i < H; ++i) idx[i / 4] |= rank_window::index(w[i]) << (i % 4 * 8);
        U before = 0;  // the rank before this lane's first
#pragma unroll
        for (int i = 0; i < H; ++i)
          if (mine + i < size) {
            const unsigned from = off + (idx[i / 4] >> (i % 4 * 8) & 0xFFu);
            y[i] = sk_[place(from)];
            if (pairs) src[off + mine + i] = std::uint16_t(from);
            if (!win.exact()) {
              const U r = rank_of(y[i]);
              if (i > 0) unsorted |= r < before;
              before = r;
            }
          }
        if constexpr (LANES == 2) {  // every lane: the shuffles are warp-wide
          const U first = __shfl_down_sync(0xFFFFFFFFu, mine < size ? rank_of(y[0]) : U(0), 1);  // the upper lane's
          unsorted |= !win.exact() && mine == 0 && unsigned(H) < size && first < before;
          unsorted |= __shfl_xor_sync(0xFFFFFFFFu, int(unsorted), 1) != 0;
        }
      } else {
        E x[H];
        // Float keys of up to 4 bytes (packed elements: 8-byte ones' pairs
        // spilled, as did the gathered values' kernel) with values staged,
        // over every bit (BARE takes keys alone),
        // rank by their twiddled bits ^ flip, one to one with the bits, as
        // in BARE: the folds and the bit range's shift and mask (about six
        // instructions a key) are left to after the network, where a
        // segment that holds both zeros (adjacent ranks) or, under NaNs
        // largest, a NaN is re-sorted by the insertion, whose ties go by
        // source place (so it needs the values' places). Uniform across
        // the grid.
        const bool unfolded = unfold && pairs && a.ord.full_range();
        if (unfolded) {
          const U flip = a.ord.flip;
#pragma unroll
          for (int i = 0; i < H; ++i)
            x[i] = mine + i < size ? pe::make(U(traits::twiddle(sk_[place(off + mine + i)]) ^ flip), mine + i)
                                   : pe::pad();
        } else {
#pragma unroll
          for (int i = 0; i < H; ++i)
            x[i] = mine + i < size ? pe::make(rank_of(sk_[place(off + mine + i)]), mine + i) : pe::pad();
        }
        if constexpr (LANES == 2) block::lane_pair_sort(x, mine != 0);
        else block::thread_network_sort(x, typename pe::less{});
        if constexpr (unfold) {
          if (unfolded) {
            using order = key_order<K>;
            const U flip = a.ord.flip;
            const U zm = U(order::minus_zero ^ flip), zp = U(order::plus_zero ^ flip);
            const U zlo = zm < zp ? zm : zp;  // the other zero ranks zlo + 1
            // the rank after this lane's last: the upper lane's first (every lane shuffles)
            const U after = LANES == 2 ? U(__shfl_down_sync(0xFFFFFFFFu, pe::rank(x[0]), 1)) : U(0);
            // one compare an element finds the lower zero; only then its neighbour
            bool low = false;
#pragma unroll
            for (int i = 0; i < H; ++i) low |= pe::rank(x[i]) == zlo;
            if (low) {
#pragma unroll
              for (int i = 0; i + 1 < H; ++i) unsorted |= pe::rank(x[i]) == zlo && pe::rank(x[i + 1]) == U(zlo + 1);
              if (LANES == 2) unsorted |= mine == 0 && pe::rank(x[H - 1]) == zlo && after == U(zlo + 1);
            }
            if (a.ord.nans_largest()) {
#pragma unroll
              for (int i = 0; i < H; ++i)
                unsorted |= mine + i < size && U(U(pe::rank(x[i]) ^ flip) - a.ord.nan_lo) > a.ord.nan_span;
            }
            if constexpr (LANES == 2) unsorted |= __shfl_xor_sync(0xFFFFFFFFu, int(unsorted), 1) != 0;
          }
        }
#pragma unroll
        for (int i = 0; i < H; ++i)
          if (mine + i < size) {
            const unsigned from = off + pe::index(x[i]);
            y[i] = sk_[place(from)];
            if (pairs) src[off + mine + i] = std::uint16_t(from);
          }
      }
      if constexpr (LANES == 2) __syncwarp();  // the partner has read its keys too
#pragma unroll
      for (int i = 0; i < H; ++i)
        if (mine + i < size) sk_[place(off + mine + i)] = y[i];
      if constexpr (WINDOW || unfold) {
        if constexpr (LANES == 2) __syncwarp();  // the partner's keys are in place
        if (unsorted && mine == 0) insertion_sort();  // the pair's lower lane alone
      }
    }
  };

  const auto store = [&](const range& r, const U* sk_) {
    if (r.by_vector) {
#pragma unroll
      for (int i = 0; i < H / V; ++i) {
        const unsigned x = (unsigned(i) * 32 + lane) * V;
        if (x + V <= r.total) {
          uint4 v;
          U* k = reinterpret_cast<U*>(&v);
#pragma unroll
          for (int j = 0; j < V; ++j) k[j] = sk_[place(x + j)];
          *reinterpret_cast<uint4*>(kout + r.base + x) = v;
        } else {
          for (unsigned j = x; j < r.total; ++j) kout[r.base + j] = sk_[place(j)];
        }
        if (pairs)
          for (unsigned j = x; j < x + V && j < r.total; ++j) a.vals.move(r.base + j, r.base + src[j]);
      }
    } else {
      // the value of place x came from place src[x] of the same segment
      if constexpr (STAGED) {
        with_value_word(a.vals, [&](auto word) {
          using W = decltype(word);
          W* vout = static_cast<W*>(a.vals.out);
          key_moves(r, [&](unsigned x, std::size_t at) {
            kout[at] = sk_[place(x)];
            vout[at] = static_cast<const W*>(sv)[place(src[x])];
          });
        });
      } else {
        key_moves(r, [&](unsigned x, std::size_t at) {
          kout[at] = sk_[place(x)];
          if (pairs) a.vals.move(at, at - x + src[x]);
        });
      }
    }
  };

  unsigned w = blockIdx.x * warps + threadIdx.x / 32;
  std::size_t s0, s1;
  span_of(w, s0, s1);
  range cur = range_of(w, s0, s1);
  if constexpr (BUFS == 2) {
    if (cur.live) load(cur, sk);
    block::copy_async_commit();
    span_of(w + warps_all, s0, s1);  // the next segments' offsets
    unsigned b = 0;
    while (cur.live) {
      w += warps_all;
      const range next = range_of(w, s0, s1);
      if (next.live) load(next, sk + (b ^ 1) * area);
      block::copy_async_commit();
      span_of(w + warps_all, s0, s1);  // in flight during the sort
      block::copy_async_wait_prior<1>();
      __syncwarp();
      sort(cur, sk + b * area);
      __syncwarp();
      store(cur, sk + b * area);
      __syncwarp();  // the area takes the segments after next
      cur = next;
      b ^= 1;
    }
  } else {
    // one area: load, then the next segments' offsets in flight during
    // the sort (their range is taken after the store, so it holds no
    // registers through the sort); staged values land during the sort
    while (cur.live) {
      load(cur, sk);
      if constexpr (STAGED) {
        block::copy_async_commit();
        load_values(cur);
        block::copy_async_commit();
        block::copy_async_wait_prior<1>();
      } else {
        block::copy_async_wait();
      }
      __syncwarp();
      w += warps_all;
      span_of(w, s0, s1);
      sort(cur, sk);
      if constexpr (STAGED) block::copy_async_wait();
      __syncwarp();
      store(cur, sk);
      __syncwarp();  // the next segments reuse the area
      cur = range_of(w, s0, s1);
    }
  }
}

// The copy and thread classes in one launch: every block runs each
// class's grid-stride loop in turn (no class waits on another's segments).
// Launched one a class, the four or five that find no work cost about 3 us
// each. STAGED: values staged in shared memory (values.cuh).
template <class K, bool BARE, bool STAGED = false>
__global__ void __launch_bounds__(
    tuning::thread_threads<STAGED>,
    tuning::thread_blocks<(BARE ? sizeof(K) : sizeof(packed_type<K>)) * tuning::thread_max, BARE> *
        tuning::group_threads / tuning::thread_threads<STAGED>)
    thread_kernel(class_args<K> a) {
  using U = typename key_traits<K>::bits;
  constexpr int threads = tuning::thread_threads<STAGED>;
  constexpr int warps = threads / 32;
  constexpr int bufs = BARE ? tuning::thread_areas<U> : 1;
  __shared__ U keys[warps][bufs * 33 * tuning::thread_max];
  __shared__ std::uint16_t source[warps][BARE ? 1 : 32 * tuning::thread_max];
  __shared__ std::uint64_t staged[warps][STAGED ? 33 * tuning::thread_max : 1];
  copy_class<threads>(a);
  U* sk = keys[threadIdx.x / 32];
  std::uint16_t* src = source[threadIdx.x / 32];
  void* sv = staged[threadIdx.x / 32];
  [&]<int... C>(std::integer_sequence<int, C...>) {
    (thread_class<(2 << C), K, BARE, threads, bufs, STAGED>(a, tuning::first_thread + C, sk, src, sv), ...);
  }(std::make_integer_sequence<int, tuning::thread_classes>{});
}

// The first two group classes (17 .. 64 keys; 17 .. 32 for 8-byte keys) as
// thread classes, when keys sort alone in an order of every bit: one lane a
// segment, Batcher's network over the ranks alone (191 and 543 comparators
// of one min and one max), instead of the group bitonic network of (rank,
// index) elements, its two- and four-word shuffles and its gather. A lane's
// walk of 64 keys meets each bank twice (places x + x / 32); the warp-wide
// moves, once.
template <class K>
__global__ void __launch_bounds__(tuning::wide_threads<typename key_traits<K>::bits>,
                                  tuning::wide_blocks<typename key_traits<K>::bits>)
    wide_thread_kernel(class_args<K> a) {
  using U = typename key_traits<K>::bits;
  constexpr int threads = tuning::wide_threads<U>, bufs = tuning::wide_areas<U>;
  __shared__ U keys[threads / 32][bufs * 33 * tuning::wide_max<U>];
  U* sk = keys[threadIdx.x / 32];
  thread_class<32, K, true, threads, bufs>(a, tuning::first_group, sk, nullptr);
  if constexpr (tuning::wide_classes<U> == 2)
    thread_class<64, K, true, threads, bufs>(a, tuning::first_group + 1, sk, nullptr);
}

// The group classes of 17 to 64 keys by lane pairs (tuning::pair_lanes):
// 33 to 64 keys two lanes a segment of 32 elements each (thread_class with
// LANES = 2), and, where tuning::pair_first is the class of 17 to 32 keys,
// those one lane a segment of 32. One area a warp; STAGED: values staged as
// in thread_kernel; 8-byte keys not BARE as windows (window.hpp).
template <class K, bool BARE, bool STAGED>
__global__ void __launch_bounds__(tuning::pair_threads, tuning::pair_blocks) pair_kernel(class_args<K> a) {
  using U = typename key_traits<K>::bits;
  static_assert(tuning::pair_lanes<U, BARE>, "elements of unsigned words");
  constexpr int C0 = tuning::pair_first<U, BARE>, threads = tuning::pair_threads;
  constexpr bool window = !BARE && sizeof(U) == 8;
  constexpr int warps = threads / 32, H = 32;
  __shared__ U keys[warps][33 * H];
  __shared__ std::uint16_t source[warps][BARE ? 1 : 32 * H];
  __shared__ std::uint64_t staged[warps][STAGED ? 33 * H : 1];
  U* sk = keys[threadIdx.x / 32];
  std::uint16_t* src = source[threadIdx.x / 32];
  void* sv = staged[threadIdx.x / 32];
  if constexpr (C0 == 0) thread_class<H, K, BARE, threads, 1, STAGED, 1, window>(a, tuning::first_group, sk, src, sv);
  thread_class<2 * H, K, BARE, threads, 1, STAGED, 2, window>(a, tuning::first_group + 1, sk, src, sv);
}

}  // namespace gpusort::detail::segmented
