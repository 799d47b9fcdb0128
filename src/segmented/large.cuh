// Segmented sort, phase 3: segments of tuning::block_max + 1 .. large_max
// keys, spread over many blocks: the radix family's onesweep LSD passes
// (Adinets & Merrill 2022, "Onesweep: A Faster Least Significant Digit Radix
// Sort for GPUs"; radix/onesweep_pass.cuh) run over the tiles of every
// large segment at once. A stable pass keeps every key inside its segment,
// so a segmented pass is onesweep with one look-back chain and one set of
// digit bases per segment:
//
//   lists      each large segment's place and its tiles (plan.cu, the
//              class lists of lists.cuh)
//   histogram  one read of the keys counts the digits of every pass per
//              segment: hist[pass][segment][digit]; for pairs it also
//              writes each key's position in its segment (the values ride
//              the passes as these 32-bit positions)
//   bases      per pass and segment, the segment's first key plus the
//              exclusive scan over the digits (plan.cu, compiled once)
//   passes     one launch a pass: onesweep_pass_kernel with the
//              segment_chains geometry; a segment's first tile heads its
//              chain, so the look-back never leaves the segment
//   gather     pairs: each output slot takes the value at the position the
//              passes carried there (plan.cu, compiled once)
// Keys move as the caller's bits (-0.0 stays -0.0), so the result is the
// stable order, bit for bit CUB's. The pass grids are one block a tile of
// the host-known bound (n / tile + the bound on large segments; blocks past
// the device-side tile count leave at once), or, when most of that bound
// cannot be there, the resident grid taking tiles until none is left.
#pragma once

#include "segmented/lists.cuh"
#include "segmented/plan.hpp"
#include "segmented/values.cuh"
#include "radix/onesweep_histogram.cuh"
#include "radix/onesweep_pass.cuh"
#include "radix/onesweep_tuning.cuh"

#include <gpusort/detail/core/launch.cuh>
#include <gpusort/detail/core/temp_layout.hpp>

#include <cstddef>
#include <cstdint>

namespace gpusort::detail::segmented {

// The onesweep passes' tile geometry (radix/onesweep_pass.cuh) over the
// large segments: tile t of the tile list is tile t - first_tile[q] of
// segment q = tile_seg[t], and every segment is a chain of its own.
// PERSISTENT: the pass grid is the resident grid, its blocks taking tiles
// until none is left (for a host bound on tiles that is mostly tiles that
// are not there); otherwise one block a tile. A compile-time choice: with
// the tile loop compiled in, the pass kernel spilled 40 bytes at its
// register cap, and 65536-key segments ran at 47.3 Gkeys/s instead of 51.6.
template <bool PERSISTENT> struct segment_chains {
  segment_list l;
  const unsigned long long* base;  // [segment][digit], this pass's
  __device__ __forceinline__ static constexpr bool persistent() { return PERSISTENT; }
  template <int TILE> __device__ __forceinline__ unsigned tiles() const { return unsigned(l.first_tile[l.bound]); }
  // every launch has the same tiles: the next table needs no more words
  template <int TILE> __device__ __forceinline__ std::size_t next_words(std::size_t told) const {
    const std::size_t live = std::size_t(tiles<TILE>()) * 256;
    return told < live ? told : live;
  }
  template <int TILE> __device__ __forceinline__ radix_onesweep::tile_place at(unsigned t) const {
    const unsigned q = l.tile_seg[t];
    const unsigned local = t - unsigned(l.first_tile[q]);
    const std::size_t from = std::size_t(local) * TILE;
    const std::size_t left = l.size[q] - from;
    return {l.begin[q] + from, left < std::size_t(TILE) ? unsigned(left) : unsigned(TILE), local == 0, false,
            base + std::size_t(q) * 256};
  }
};

// Digit counts of every pass, per tile of the tile list (grid-stride), into
// hist[pass][segment][digit]; with `position`, each key's position in its
// segment too.
template <class T, class K>
__global__ void __launch_bounds__(T::hist_threads)
chain_histogram_kernel(const typename key_traits<K>::bits* keys, segment_list l,
                       radix_onesweep::pass_digits<K, T::max_passes> d, unsigned* hist, std::uint32_t* position) {
  __shared__ unsigned counts[T::max_passes * T::bins];
  const int words = d.passes * T::bins;
  const unsigned tiles = unsigned(l.first_tile[l.bound]);
  constexpr std::size_t chunk = std::size_t(T::hist_threads) * T::hist_items;
  for (unsigned t = blockIdx.x; t < tiles; t += gridDim.x) {
    for (int i = threadIdx.x; i < words; i += T::hist_threads) counts[i] = 0;
    __syncthreads();
    const unsigned q = l.tile_seg[t];
    const std::size_t from = std::size_t(t - unsigned(l.first_tile[q])) * T::tile;
    const std::size_t left = l.size[q] - from;
    const std::size_t first = l.begin[q] + from, valid = left < std::size_t(T::tile) ? left : std::size_t(T::tile);
    radix_onesweep::count_digits<T, K>(keys, first, first + valid, chunk, d, counts, T::hist_threads);
    if (position)
      for (unsigned j = threadIdx.x; j < valid; j += T::hist_threads) position[first + j] = std::uint32_t(from + j);
    __syncthreads();
    for (int i = threadIdx.x; i < words; i += T::hist_threads) {
      const int p = i / T::bins, b = i % T::bins;
      if (counts[i]) atomicAdd(&hist[(std::size_t(p) * l.bound + q) * T::bins + b], counts[i]);
    }
    __syncthreads();  // the next tile clears the counts
  }
}

// The large class for keys alone (P = no_value) or with values (P = u32:
// positions in the segment). Sizes and carves its scratch with one
// temp_layout (the same code sizes and sorts).
template <class K, class P> struct large_path {
  using U = typename key_traits<K>::bits;
  using T = radix_onesweep::tuning<U, P>;
  static constexpr bool pairs = !is_no_value<P>;
  static_assert(T::bins == 256, "plan.cu's chain scan is one block of 256 digits");

  list_scratch lists;
  int passes = 0, slots = 0;
  std::size_t tile_bound = 0;
  unsigned* hist = nullptr;                                 // [pass][segment][digit]
  unsigned* counters = nullptr;                             // [slot]: tile ids
  unsigned* lookback[2] = {nullptr, nullptr};               // [tile][digit], alternating between launches
  // hist (the listed segments' rows), counters and lookback[0] (the listed
  // tiles' words) are cleared on the device: the host bound can be far
  // above what is there (16380 segments and 25K tiles at 2^26 keys)
  unsigned long long* base = nullptr;                       // [pass][segment][digit]
  radix_onesweep::slot_plan* plan = nullptr;                // [slot]
  U* keys_alt = nullptr;
  std::uint32_t* position[3] = {nullptr, nullptr, nullptr};  // pairs: in, out, alt

  bool persist = false;  // the passes run segment_chains<true>

  large_path(temp_layout& t, std::size_t bound, std::size_t n, std::size_t segments, const key_order<K>& ord) {
    persist = segments > n / (std::size_t(tuning::block_max) + 1);
    lists = take_list(t, bound, n, T::tile, T::tile);
    passes = radix::pass_count(ord, T::radix_bits);
    slots = passes > 0 ? passes : 1;
    tile_bound = n / T::tile + bound;
    hist = t.take<unsigned>(std::size_t(passes) * bound * T::bins);
    counters = t.take<unsigned>(std::size_t(slots));
    lookback[0] = t.take<unsigned>(tile_bound * T::bins);
    lookback[1] = t.take<unsigned>(tile_bound * T::bins);
    base = t.take<unsigned long long>(std::size_t(passes) * bound * T::bins);
    plan = t.take<radix_onesweep::slot_plan>(std::size_t(slots));
    keys_alt = t.take<U>(n);
    if constexpr (pairs)
      for (auto& p : position) p = t.take<std::uint32_t>(n);
  }

  // kin: the keys to sort (the input, or its copy for in-place calls);
  // kout: the output, also the passes' second buffer.
  void sort(const call_context& ctx, const K* kin, K* kout, const key_order<K>& ord, const offsets& off,
            const bins& b, const value_mover& vals, cudaStream_t stream) const {
    const segment_list& l = lists.list;
    plan_list(ctx, off, b, tuning::large_class, lists, T::tile, T::tile, stream);
    clear_chains(ctx, l, hist, passes, counters, slots, lookback[0], stream);
    // histograms (and positions), bases, plan
    radix_onesweep::pass_digits<K, T::max_passes> digits{};
    digits.passes = passes;
    for (int i = 0; i < passes; ++i) digits.pass[i] = radix::digit_map<K>::of(ord, T::radix_bits, i);
    const U* keys = reinterpret_cast<const U*>(kin);
    auto histogram = chain_histogram_kernel<T, K>;
    histogram<<<grid_for(tile_bound, 1, std::size_t(sm_count(ctx)) * T::hist_blocks_per_sm), T::hist_threads, 0,
                stream>>>(keys, l, digits, hist, pairs ? position[0] : nullptr);
    ctx.check_launch("segmented large histogram");
    scan_chains(ctx, l, hist, base, passes, plan, slots, stream);
    // one launch a pass: the persistent grid when more segments than
    // n / (block_max + 1) make the average segment not large, so that most
    // of the host bound on tiles is not there
    if (persist) run_passes<true>(ctx, kin, kout, ord, digits, stream);
    else run_passes<false>(ctx, kin, kout, ord, digits, stream);
    if constexpr (pairs) gather_chains(ctx, vals, l, T::tile, tile_bound, position[1], stream);
  }

  template <bool PERSISTENT>
  void run_passes(const call_context& ctx, const K* kin, K* kout, const key_order<K>& ord,
                  const radix_onesweep::pass_digits<K, T::max_passes>& digits, cudaStream_t stream) const {
    using Geo = segment_chains<PERSISTENT>;
    const segment_list& l = lists.list;
    const U* keys = reinterpret_cast<const U*>(kin);
    auto kernel = radix_onesweep::onesweep_pass_kernel<T, K, P, Geo>;
    constexpr std::size_t shared_bytes = radix_onesweep::pass_shared<T, U, P>::bytes;
    allow_shared_memory(ctx, kernel, shared_bytes, "cudaFuncSetAttribute(segmented large pass)");
    const unsigned grid =
        PERSISTENT ? grid_for(tile_bound, 1, std::size_t(sm_count(ctx)) * T::min_blocks) : unsigned(tile_bound);
    for (int e = 0; e < slots; ++e) {
      const int pass = e < passes ? e : (passes > 0 ? passes - 1 : 0);
      radix_onesweep::pass_args<K, P, Geo> a{};
      a.keys_in = keys;
      a.keys_out = reinterpret_cast<U*>(kout);
      a.keys_alt = keys_alt;
      if constexpr (pairs) {
        a.vals_in = position[0];
        a.vals_out = position[1];
        a.vals_alt = position[2];
      }
      a.plan = plan;
      a.slot = e;
      a.geo = {l, base + std::size_t(pass) * l.bound * T::bins};
      a.next_base = nullptr;
      a.lookback = lookback[e % 2];
      a.counter = counters + e;
      a.next_lookback = lookback[(e + 1) % 2];
      a.next_words = e + 1 < slots ? tile_bound * T::bins : 0;
      if (passes > 0) a.digit = digits.pass[pass];
      a.pad = radix::pad_bits(ord);
      kernel<<<grid, T::threads, shared_bytes, stream>>>(a);
      ctx.check_launch("segmented large pass");
    }
  }
};

}  // namespace gpusort::detail::segmented
