// radix_onesweep: one digit pass over one portion (Adinets & Merrill 2022,
// "Onesweep: A Faster Least Significant Digit Radix Sort for GPUs"; CUB's
// agent_radix_sort_onesweep.cuh). One block per tile:
//   tile id    from an atomic counter, so every lower tile id belongs to a
//              block that has already started: the look-back cannot deadlock
//   load       keys warp-striped (a partial tile is padded with a key whose
//              digit is the largest, so pads rank behind every real key)
//   rank       warp multi-split (block/rank.cuh); the tile's digit counts
//              are published (aggregate) as soon as they are known
//   look-back  decoupled look-back (Merrill & Garland 2016) per digit: walk
//              back over earlier tiles, adding aggregates, until an
//              inclusive prefix; publish this tile's inclusive prefix
//   scatter    each key (and value) goes to shared memory the moment its
//              rank is known; after the look-back each thread stores slots
//              tid, tid + threads, ...: consecutive threads write
//              consecutive addresses of one digit's run (coalesced)
// A tile whose keys all share one digit (every full tile of sorted or
// low-entropy input) skips the ranking: after the look-back it stores its
// keys straight through. The launch's slot_plan (made on the device, see
// onesweep_histogram.cuh) may instead say skip or copy.
//
// Where the tiles lie is the geometry's (Geo): portion_tiles, the tiles of
// one portion of one array (radix_onesweep), or the segmented sort's tiles
// of many segments (segmented/large.cuh), each segment a chain of its own:
// its first tile (the head) starts the look-back, and its digits start at
// its own bases.
#pragma once

#include <gpusort/detail/block/rank.cuh>
#include <gpusort/detail/core/launch.cuh>
#include <gpusort/detail/block/striped.cuh>
#include "radix/digit.cuh"
#include "radix/onesweep_plan.hpp"
#include "radix/onesweep_tuning.cuh"

#include <cuda/atomic>

#include <cstddef>
#include <cstdint>
#include <type_traits>

namespace gpusort::detail::radix_onesweep {

// Tile t of a launch: where it lies, and where its chain's digits start.
struct tile_place {
  std::size_t first;               // global index of slot 0
  unsigned valid;                  // keys in the tile
  bool head;                       // the chain's first tile: its prefix is its own count
  bool last;                       // the portion's last tile: writes the next portion's bases
  const unsigned long long* base;  // [digit]: first output of the chain's keys of each digit
};

// One portion of one array: tiles 0, 1, ... of [start, start + n), one chain.
struct portion_tiles {
  // one block a tile: the grid is the tile count
  __device__ __forceinline__ static constexpr bool persistent() { return false; }
  std::size_t start;               // first key of the portion
  unsigned n;                      // keys in the portion (< 2^30)
  const unsigned long long* base;  // [digit]: first output of the portion's keys of each digit
  template <int TILE> __device__ __forceinline__ unsigned tiles() const { return (n + TILE - 1) / TILE; }
  // words of the next launch's look-back table this launch must zero: all
  // it was told (the next portion may have more tiles than this one)
  template <int TILE> __device__ __forceinline__ std::size_t next_words(std::size_t told) const { return told; }
  template <int TILE> __device__ __forceinline__ tile_place at(unsigned t) const {
    const unsigned valid = min(unsigned(TILE), n - t * unsigned(TILE));
    return {start + std::size_t(t) * TILE, valid, t == 0, (t + 1) * unsigned(TILE) >= n, base};
  }
};

// The same tiles taken by a persistent grid (radix_msd's LSD mode: a grid of
// one block a tile costs every launch whose plan skips it its empty blocks).
struct persistent_portion : portion_tiles {
  __device__ __forceinline__ static constexpr bool persistent() { return true; }
};

template <class K, class P, class Geo = portion_tiles> struct pass_args {
  using U = typename key_traits<K>::bits;
  const U* keys_in;
  U* keys_out;
  U* keys_alt;
  const P* vals_in;
  P* vals_out;
  P* vals_alt;
  const slot_plan* plan;  // this launch's entry: plan[slot]
  int slot;
  Geo geo;                          // where the tiles lie
  unsigned long long* next_base;    // the next portion's, written by the last tile (or null)
  unsigned* lookback;               // [tile][digit] of this launch, zeroed
  unsigned* counter;                // tile ids of this launch, zeroed
  unsigned* next_lookback;          // the next launch's table: zeroed by this one
  std::size_t next_words;
  radix::digit_map<K> digit;
  U pad;
  // Integer keys: the base subtracted from the ordered bits (radix::pass_key),
  // read on the device; null: none
  const unsigned long long* offset;
  // A key form's table and whether it was made (the kernel's Form: radix_msd's
  // class map of doubles); null for radix::pass_key
  const void* key_table = nullptr;
  const unsigned* key_table_ok = nullptr;
  // argsort's form (core/device_call.hpp), read by the kernel's Formed
  // instance only; slots: the plan's length, to find the last launch that
  // writes
  bool positions = false;
  bool keys_dropped = false;
  std::uint64_t* wide_out = nullptr;
  int slots = 0;
  // A reversal (slot_reverse): the keys of the whole sort, and the order
  // whose ranks make the runs of equal keys
  std::size_t total = 0;
  key_order<K> ord{};
};

// What argsort's form means for one launch: positions made instead of
// values read (it reads the input), keys not stored and values stored
// widened (it is the plan's last write).
struct form_here {
  bool positions = false, drop_keys = false;
  std::uint64_t* wide = nullptr;
};

// One launch's buffers (from its plan entry) and what argsort's form means
// for it; fetch and store move a key and its value under that form (the
// copies and the reversal: a value may be the key's place, a key may not be
// stored). later: the first plan entry that runs after this launch.
template <class K, class P, bool Formed> struct slot_io {
  using U = typename key_traits<K>::bits;
  static constexpr bool pairs = !is_no_value<P>;
  struct element {
    U key;
    P val;
  };
  const U* src;
  U* dst;
  const P* vsrc;
  P* vdst;
  form_here f;

  template <class Geo>
  __device__ __forceinline__ static slot_io of(const pass_args<K, P, Geo>& a, const slot_plan& plan, int later) {
    slot_io io;
    io.src = plan.src == buf_in ? a.keys_in : plan.src == buf_out ? a.keys_out : a.keys_alt;
    io.dst = plan.dst == buf_out ? a.keys_out : a.keys_alt;
    io.vsrc = plan.src == buf_in ? a.vals_in : plan.src == buf_out ? a.vals_out : a.vals_alt;
    io.vdst = plan.dst == buf_out ? a.vals_out : a.vals_alt;
    io.f = form_here{};
    if constexpr (Formed) {
      bool last = true;  // no later launch of the plan writes
      for (; later < a.slots; ++later) last = last && a.plan[later].mode == slot_skip;
      io.f.positions = a.positions && plan.src == buf_in;
      io.f.drop_keys = last && a.keys_dropped;
      io.f.wide = last ? a.wide_out : nullptr;
    }
    return io;
  }
  __device__ __forceinline__ element fetch(std::size_t at) const {
    element x{};
    if constexpr (Formed) {
      if (!f.drop_keys) x.key = src[at];
      x.val = f.positions ? P(at) : vsrc[at];
    } else {
      x.key = src[at];
      if constexpr (pairs) x.val = vsrc[at];
    }
    return x;
  }
  __device__ __forceinline__ void store(std::size_t to, const element& x) const {
    if constexpr (Formed) {
      if (!f.drop_keys) dst[to] = x.key;
      if (f.wide) f.wide[to] = x.val;
      else vdst[to] = x.val;
    } else {
      dst[to] = x.key;
      if constexpr (pairs) vdst[to] = x.val;
    }
  }
};

// Shared memory of one block: the key exchange, the value exchange, the
// ranker's histograms, then the digits' global offsets (and, for pairs,
// their values' addresses). Nothing aliases, so keys and values are stored
// to the exchange while ranks are still being made, and no rank is held in
// a register (u32 pairs: 86 KB a block).
template <class T, class U, class P> struct pass_shared {
  using ranker = block::block_rank<T::threads, T::items, T::radix_bits>;
  static constexpr std::size_t keys_bytes = align16(std::size_t(T::tile) * sizeof(U));
  static constexpr std::size_t vals_bytes = is_no_value<P> ? 0 : align16(std::size_t(T::tile) * sizeof(P));
  static constexpr std::size_t rank_bytes = align16(sizeof(typename ranker::storage));
  static constexpr std::size_t rank_at = keys_bytes + vals_bytes;
  static constexpr std::size_t exchange_bytes = keys_bytes + vals_bytes + rank_bytes;
  static constexpr std::size_t digit_bytes = sizeof(unsigned long long) * T::bins;
  static constexpr std::size_t value_digit_bytes = is_no_value<P> ? 0 : digit_bytes;
  static constexpr std::size_t bytes = exchange_bytes + digit_bytes + value_digit_bytes + 16;

  typename ranker::storage* rank;
  U* keys;
  P* vals;
  // [digit]: output index of tile slot 0 of the digit's run; for the
  // scatter of a ranked tile, the byte address of that slot's key
  unsigned long long* global;
  unsigned long long* value_at;  // [digit]: the byte address of that slot's value (pairs)
  unsigned* tile;

  __device__ static pass_shared carve(void* smem) {
    auto* b = static_cast<std::uint8_t*>(smem);
    return {reinterpret_cast<typename ranker::storage*>(b + rank_at), reinterpret_cast<U*>(b),
            reinterpret_cast<P*>(b + keys_bytes), reinterpret_cast<unsigned long long*>(b + exchange_bytes),
            reinterpret_cast<unsigned long long*>(b + exchange_bytes + digit_bytes),
            reinterpret_cast<unsigned*>(b + exchange_bytes + digit_bytes + value_digit_bytes)};
  }
};

__device__ __forceinline__ void publish(unsigned* word, unsigned v) {
  cuda::atomic_ref<unsigned, cuda::thread_scope_device>(*word).store(v, cuda::memory_order_relaxed);
}
__device__ __forceinline__ unsigned peek(unsigned* word) {
  return cuda::atomic_ref<unsigned, cuda::thread_scope_device>(*word).load(cuda::memory_order_relaxed);
}

// look-back for this thread's digits: the count of each digit in the
// earlier tiles of the chain (none for its head). Publishes this tile's
// inclusive prefixes and sets global[b] = base[b] + exclusive prefix - the
// digit's first tile slot. The portion's last tile also writes the next
// portion's bases.
template <class T, class K, class P, class Geo, int BPT>
__device__ __forceinline__ void look_back(const pass_args<K, P, Geo>& a, unsigned tile, const tile_place& w,
                                          const unsigned (&counts)[BPT], const unsigned (&starts)[BPT],
                                          unsigned long long* global) {
  using ranker = block::block_rank<T::threads, T::items, T::radix_bits>;
#pragma unroll
  for (int u = 0; u < BPT; ++u) {
    const int b = ranker::thread_bin(u);
    if (b >= T::bins) continue;
    unsigned prefix = 0;
    if (!w.head) {
      for (unsigned j = tile; j-- > 0;) {
        unsigned word;
        do {
          word = peek(&a.lookback[std::size_t(j) * T::bins + b]);
        } while (word == 0);
        prefix += word & lookback_value;
        if (word & lookback_inclusive) break;
      }
      publish(&a.lookback[std::size_t(tile) * T::bins + b], lookback_inclusive | (prefix + counts[u]));
    }
    // wraps below zero when starts > base + prefix; slot + global is exact
    global[b] = w.base[b] + prefix - starts[u];
    if (w.last && a.next_base) a.next_base[b] = w.base[b] + prefix + counts[u];
  }
}

// The key form for one tile: a form whose digits depend on the tile's keys
// (radix_msd's class_pass_key below the first level) makes the tile's own
// from its first key; every other form is the block's.
template <class PK, class U> __device__ __forceinline__ PK tile_form(const PK& pk, const U* tile_keys) {
  if constexpr (requires { pk.for_tile(tile_keys[0]); }) return pk.for_tile(tile_keys[0]);
  else return pk;
}

// One tile of one pass: load, rank, look-back, scatter (see the header).
template <class T, bool Formed, class K, class P, class Geo, class Shared, class PK>
__device__ __forceinline__ void pass_tile(const pass_args<K, P, Geo>& a, const PK& form, const Shared& s,
                                          const typename key_traits<K>::bits* src, typename key_traits<K>::bits* dst,
                                          const P* vsrc, P* vdst, unsigned tile, const tile_place& w,
                                          const form_here& f) {
  using U = typename key_traits<K>::bits;
  using ranker = typename Shared::ranker;
  constexpr int I = T::items, BPT = ranker::bins_per_thread;
  constexpr bool pairs = !is_no_value<P>;
  const unsigned valid = w.valid;
  const bool full = valid == unsigned(T::tile);
  const std::size_t first = w.first;  // global index of slot 0

  // load, in carried form (radix::pass_key: the twiddle, or the offset, once
  // per key, not once per digit extraction). Values are
  // loaded with the keys, so their latency hides under the ranking: they
  // take the registers a rank array would.
  // Full tiles take the unguarded load (block/striped.cuh).
  U key[I];
  P val[pairs ? I : 1];
  const U* tile_keys = src + first;
  const P* tile_vals = pairs ? vsrc + first : vsrc;
  // argsort's first pass makes each index from the key's place
  const auto value_at = [&](unsigned slot) -> P {
    if constexpr (Formed)
      if (f.positions) return P(first + slot);
    return tile_vals[slot];
  };
  if (full) {
    block::for_striped<true, I>(int(valid), [&](int i, unsigned slot, bool) {
      key[i] = form.carry(tile_keys[slot]);
      if constexpr (pairs) val[i] = value_at(slot);
    });
  } else {
    block::for_striped<false, I>(int(valid), [&](int i, unsigned slot, bool live) {
      key[i] = live ? form.carry(tile_keys[slot]) : form.carried_pad(a.pad);
      if constexpr (pairs)
        if (live) val[i] = value_at(slot);
    });
  }
  const PK pk = tile_form(form, tile_keys);
  // a key and its value to their place; argsort's last write may drop the
  // key and widen the value
  const auto put = [&](unsigned long long at, U k, const P& v) {
    if constexpr (Formed) {
      if (!f.drop_keys) dst[at] = pk.uncarry(k);
      if (f.wide) f.wide[at] = v;
      else vdst[at] = v;
    } else {
      dst[at] = pk.uncarry(k);
      if constexpr (pairs) vdst[at] = v;
    }
  };

  // rank, publishing the counts first; each key and value is stored to the
  // exchange as soon as it is ranked
  unsigned counts[BPT], starts[BPT];
  unsigned* row = a.lookback + std::size_t(tile) * T::bins;
  // The ranker reads each key's digit twice (count, then rank). A form whose
  // digit is dear (radix_msd's class_pass_key: a table load on the first
  // level) makes each once, four to a register.
  constexpr bool dear = requires { PK::dear_digit; };
  static_assert(!dear || T::radix_bits <= 8, "a digit a byte");
  unsigned made[dear ? (I + 3) / 4 : 1];
  if constexpr (dear) {
#pragma unroll
    for (int j = 0; j < (I + 3) / 4; ++j) made[j] = 0;
#pragma unroll
    for (int i = 0; i < I; ++i) made[i / 4] |= pk.of_carried(key[i]) << (8 * (i % 4));
  }
  const auto digit_of = [&](int i) -> unsigned {
    if constexpr (dear) return (made[i / 4] >> (8 * (i % 4))) & 0xFFu;
    else return pk.of_carried(key[i]);
  };
  const bool ranked = ranker::rank_each(
      *s.rank, digit_of,
      [&](int i, unsigned r) {
        s.keys[r] = key[i];
        if constexpr (pairs) s.vals[r] = val[i];
      },
      counts, starts,
      [&](const unsigned(&c)[BPT]) {
        bool one_digit = false;
#pragma unroll
        for (int u = 0; u < BPT; ++u) {
          const int b = ranker::thread_bin(u);
          if (b < T::bins) publish(&row[b], (w.head ? lookback_inclusive : lookback_aggregate) | c[u]);
          one_digit |= c[u] == unsigned(T::tile);
        }
        return __syncthreads_or(one_digit) != 0;
      });

  if (!ranked) {
    // every key of the tile (pads included) has digit d: store it straight through
    const unsigned d = digit_of(0);
#pragma unroll
    for (int u = 0; u < BPT; ++u) starts[u] = 0;
    look_back<T>(a, tile, w, counts, starts, s.global);  // look-back
    __syncthreads();
    const unsigned long long out = s.global[d];
#pragma unroll
    for (int i = 0; i < I; ++i) {
      const unsigned slot = ranker::slot(i);
      if (full || slot < valid) put(out + slot, key[i], val[pairs ? i : 0]);
    }
    return;
  }

  look_back<T>(a, tile, w, counts, starts, s.global);  // look-back
  // Each digit's index becomes the byte address of its key (and value) for
  // tile slot 0, so that a key's address is one multiply-add of its slot:
  // with the index added and scaled a key, the scatter's address arithmetic
  // made the key-only passes issue-bound, 5% slower (docs/perf/radix.md).
  // Addresses wrap as the index does; slot + address is exact. Argsort's
  // form keeps the index (its addresses measured 0.7% slower).
  if constexpr (!Formed) {
#pragma unroll
    for (int u = 0; u < BPT; ++u) {
      const int b = ranker::thread_bin(u);
      if (b < T::bins) {
        const unsigned long long g = s.global[b];
        s.global[b] = reinterpret_cast<unsigned long long>(dst) + g * sizeof(U);
        if constexpr (pairs) s.value_at[b] = reinterpret_cast<unsigned long long>(vdst) + g * sizeof(P);
      }
    }
  }
  __syncthreads();

  // scatter: slot i of the sorted tile (and its value) goes to
  // global[digit] + i. Full tiles (all but one per portion) take an
  // unguarded copy of the loop: with the guard inside, every key paid a
  // BSSY/branch/BSYNC and a recomputed shared base (about 20 instructions a
  // key; 11 without)
  auto scatter = [&](int u) {
    const unsigned i = threadIdx.x + unsigned(u) * T::threads;
    const U k = s.keys[i];
    const unsigned d = pk.of_carried(k);
    if constexpr (Formed) {
      if constexpr (pairs) put(s.global[d] + i, k, s.vals[i]);
      else put(s.global[d] + i, k, P{});
    } else {
      *reinterpret_cast<U*>(s.global[d] + i * unsigned(sizeof(U))) = pk.uncarry(k);
      if constexpr (pairs) *reinterpret_cast<P*>(s.value_at[d] + i * unsigned(sizeof(P))) = s.vals[i];
    }
  };
  if (full) {
#pragma unroll
    for (int u = 0; u < I; ++u) scatter(u);
  } else {
#pragma unroll
    for (int u = 0; u < I; ++u)
      if (threadIdx.x + unsigned(u) * T::threads < valid) scatter(u);
  }
}

// NanFold: radix::pass_key's (false only where the order ranks NaNs by
// their bits). Form: the key form (carry, digits) when not radix::pass_key:
// Form::of(args) makes it (radix_msd's class_pass_key for doubles).
// Formed: the instance that reads argsort's form from the arguments (4- and
// 8-byte values); the others compile without it.
template <class T, class K, class P, class Geo = portion_tiles, bool NanFold = true, class Form = void,
          bool Formed = false>
__global__ void __launch_bounds__(T::threads, T::min_blocks) onesweep_pass_kernel(const pass_args<K, P, Geo> a) {
  wait_for_prior_grids();  // radix_msd launches it as a dependent launch
  // a key form launched beside another instance (Form::leaves): the one
  // that does not sort leaves before it takes a tile id
  if constexpr (!std::is_void_v<Form>)
    if (Form::leaves(a)) return;  // grid-uniform
  using U = typename key_traits<K>::bits;
  using shared = pass_shared<T, U, P>;
  extern __shared__ uint4 smem[];
  const shared s = shared::carve(smem);

  // Blocks past the tile count (a grid larger than the tiles there are)
  // leave before taking a tile id.
  const unsigned tiles = a.geo.template tiles<T::tile>();
  if (blockIdx.x >= tiles) return;
  const unsigned blocks = gridDim.x < tiles ? gridDim.x : tiles;

  // the next launch's look-back table starts from zero
  const std::size_t next_words = a.geo.template next_words<T::tile>(a.next_words);
  for (std::size_t w = std::size_t(blockIdx.x) * T::threads + threadIdx.x; w < next_words;
       w += std::size_t(blocks) * T::threads)
    a.next_lookback[w] = 0;

  // tile id, taken before the plan is read: the atomic's round trip overlaps
  // the plan's load instead of following it (one L2 latency less per block
  // on the critical path). A block that skips or copies wastes its id; the
  // counter is this launch's alone.
  if (threadIdx.x == 0) *s.tile = atomicAdd(a.counter, 1u);
  const slot_plan plan = a.plan[a.slot];
  if (plan.mode == slot_skip) return;
  const auto io = slot_io<K, P, Formed>::of(a, plan, a.slot + 1);
  // a copy among the passes (radix_onesweep's presorted launch takes a copy
  // alone, and the reversal: onesweep_presorted.cuh). A plain loop: the
  // batched moves there, compiled into this kernel, cost every sort 1.3%
  // (docs/perf/radix.md).
  if (plan.mode == slot_copy) {
    for (unsigned t = blockIdx.x; t < tiles; t += blocks) {
      const tile_place w = a.geo.template at<T::tile>(t);
      for (unsigned i = threadIdx.x; i < w.valid; i += T::threads) io.store(w.first + i, io.fetch(w.first + i));
    }
    return;
  }
  if (plan.mode != slot_sort) return;

  auto pass_tiles = [&](const auto& pk) {
    __syncthreads();  // the tile id is in shared memory
    // A persistent grid (Geo::persistent(): the segmented geometry when its
    // host bound on tiles is mostly tiles that are not there) takes tile ids
    // until none is left. The next id is taken as a tile starts, so the
    // atomic's round trip overlaps the tile's work instead of following it;
    // it lands in shared memory as the tile ends (two words by parity: a slow
    // thread may still read the last one). A block waits only on lower ids:
    // its own next id waits behind its current, lower, tile, and every other
    // id is held by a running block, so the look-back still cannot deadlock.
    // A compile-time choice: the loop costs registers (spills at the caps of T).
    unsigned tile = *s.tile;
    for (unsigned k = 0; tile < tiles; ++k) {
      unsigned next = 0;
      if constexpr (Geo::persistent())
        if (threadIdx.x == 0) next = atomicAdd(a.counter, 1u);
      pass_tile<T, Formed>(a, pk, s, io.src, io.dst, io.vsrc, io.vdst, tile, a.geo.template at<T::tile>(tile), io.f);
      if constexpr (!Geo::persistent()) return;
      if (threadIdx.x == 0) s.tile[1 + (k & 1)] = next;
      __syncthreads();  // the next tile reuses shared memory; its id is there
      tile = s.tile[1 + (k & 1)];
    }
  };
  if constexpr (std::is_void_v<Form>) pass_tiles(radix::pass_key<K, NanFold>(a.digit, a.offset ? U(*a.offset) : U(0)));
  else pass_tiles(Form::of(a));
}

// The pass kernel for an order: floats under CUB's order skip the NaN fold
// (pass_key); the kernel for NaNs largest is a second instance, for floats
// only.
template <class T, class K, class P, class Geo, bool Formed = false> auto pass_kernel_for(const key_order<K>& ord) {
  auto kernel = onesweep_pass_kernel<T, K, P, Geo, false, void, Formed>;
  if constexpr (key_traits<K>::is_float)
    if (ord.nans_largest()) kernel = onesweep_pass_kernel<T, K, P, Geo, true, void, Formed>;
  return kernel;
}

}  // namespace gpusort::detail::radix_onesweep
