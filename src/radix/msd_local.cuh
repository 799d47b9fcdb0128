// radix_msd, the local sort (Stehle & Jacobsen 2017, section 4.3: once a
// bucket fits on-chip, all its remaining digits are sorted there, in one
// read and one write). One block a run (grid-stride over the run list), in
// a tile of tuning::local or, for runs of at most half that, local_short:
//   copy   a run with no digit left (a sorted bucket, a bucket of equal
//          keys) is copied to the output, unless it lies there already
//   sort   otherwise the run is loaded warp-striped (pads rank last), the
//          digits in which its keys differ are found (an OR over the block
//          of each key's ordered bits xor the first key's); then
//   count  one counting sort by the top 12 of the bits that differ, and
//          the keys sharing those bits ordered by comparison
//          (msd_count.cuh), when no such group exceeds count_most keys;
//          or, when the run has at most 255 such groups and each larger
//          one holds equal keys, one stable pass by group (equal_groups);
//          else
//   split  two stable passes by the top two such digits, then the keys
//          sharing that 16-bit prefix placed by counting (split_and_sort),
//          when no such group can exceed 64 keys; else
//   lsd    radix/block_sort.cuh's LSD passes sort those digits only; the
//          tile is stored to the output at the run's place
// Runs are disjoint, and a block reads its whole run before it writes, so
// a run that lies in the output is sorted in place.
#pragma once

#include "radix/block_sort.cuh"
#include "radix/digit.cuh"
#include "radix/msd_count.cuh"
#include "radix/msd_ints.cuh"
#include "radix/msd_levels.cuh"

#include <gpusort/detail/block/async_copy.cuh>
#include <gpusort/detail/block/striped.cuh>

#include <concepts>
#include <cstddef>
#include <cstdint>

namespace gpusort::detail::radix_msd {

template <class P> struct value_buffers {
  const P* in;
  P* out;
  P* alt;
  __device__ __forceinline__ const P* of(int b) const {
    return b == radix_onesweep::buf_in ? in : b == radix_onesweep::buf_out ? out : alt;
  }
};

// The local sort's key form for doubles in an order that ranks NaNs by
// their bits: each key held as its ordered bits before the -0.0 fold (the
// twiddle, then the descending flip: a bijection; full_order's encoding, on
// raw bits and built in device code), ranked by a plain
// unsigned order over the same bit range. A digit or a comparison is then
// a shift and a mask, where the raw bits took the twiddle, the fold and the
// flip again for every digit and every comparison (zipf doubles' local sort
// took 2.87 ms against 2.40 for int64 keys of the same ranks). The fold
// maps -0.0 onto +0.0 and nothing else, so the form is exact for every run
// without a -0.0: folds() names the keys it cannot hold, and a run with one
// is sorted in the folding order instead, by another launch (local_kernel).
template <class K> struct held_local_form {
  using traits = key_traits<K>;
  using bits = typename traits::bits;
  bits flip;
  __device__ bits carry(bits raw) const { return bits(traits::twiddle(raw) ^ flip); }
  __device__ bits uncarry(bits c) const { return traits::untwiddle(bits(c ^ flip)); }
  __device__ static bool folds(bits raw) { return raw == traits::sign; }  // -0.0
};

// A form with keys it cannot hold (folds), which sort_run tests on load.
template <class Form, class U>
concept folding_form = requires(const Form& f, U raw) {
  { f.folds(raw) } -> std::convertible_to<bool>;
};

// OR of x over the block (every thread gets it).
template <int THREADS> __device__ __forceinline__ unsigned long long block_or(unsigned long long x) {
  __shared__ unsigned long long warp_or[THREADS / 32];
#pragma unroll
  for (int d = 16; d > 0; d >>= 1) x |= __shfl_xor_sync(0xFFFFFFFFu, x, d);
  if ((threadIdx.x & 31u) == 0) warp_or[threadIdx.x / 32] = x;
  __syncthreads();
  unsigned long long all = 0;
#pragma unroll
  for (int w = 0; w < THREADS / 32; ++w) all |= warp_or[w];
  __syncthreads();  // warp_or is reused by the next call
  return all;
}

// The fast path of one run (block-uniform), for runs whose two top live
// digits spread the keys: two stable passes, by the second live digit
// from the top and then the top one, order the tile by its 16-bit prefix
// (keys and values in shared memory); the keys sharing a prefix (a group:
// about n / 65536 of a run, so mostly alone) are then placed by counting,
// each key's rank in its group being the group's keys that order before
// it (rank bits, then position: stable). Two passes and a few compares a
// key instead of an LSD pass per remaining digit (six for uniform u64 keys
// after two MSD levels). A group is no larger than the smaller of the two
// digits' largest counts: the path is taken when that is at most 64 keys,
// which bounds the counting; otherwise (skewed keys, runs of several
// children whose top digit is their parent's) it returns false and the
// caller sorts the tile digit by digit, the pass already made
// notwithstanding (stable by a digit the equal keys share, so their order
// stays the input's).
// C: the tile's config; V: what travels with each key through the passes
// (the value, or its slot's index); emit(at, v) stores the value of the key
// placed at `at`; keys are stored as form.uncarry gives them back.
template <class T, class C, class K, class V, class Form, class Emit>
__device__ __forceinline__ bool split_and_sort(typename key_traits<K>::bits (&key)[C::items], V (&val)[C::items],
                                               const key_order<K>& ord, unsigned live, unsigned valid, void* smem,
                                               typename key_traits<K>::bits* out, const Form& form, Emit emit) {
  using U = typename key_traits<K>::bits;
  constexpr unsigned most = 64;
  if (live == 0 || (live & (live - 1)) == 0) return false;  // one digit or none: one pass does it all
  const int top = 31 - __clz(live);
  const int second = 31 - __clz(live & ~(1u << top));
  const auto d_top = radix::digit_map<K>::of(ord, T::radix_bits, top);
  const auto d_second = radix::digit_map<K>::of(ord, T::radix_bits, second);
  const U pad = radix::pad_bits(ord);
  const unsigned pads = unsigned(C::tile) - valid;  // pads rank last in every digit
  const bool big_second = rank_pass<C, K, V>(
      key, val, [&](int i) { return d_second(key[i]); }, d_second(pad), pads, most, false, smem);
  // block-uniform: big_second is every thread's __syncthreads_or
  if (big_second) {
    // the top digit must bound the groups: check it before keeping the tile in shared memory
    bool big_top = false;
    {
      using ranker = typename C::ranker;
      auto& store = *reinterpret_cast<typename ranker::storage*>(smem);
      unsigned ranks[C::items], counts[ranker::bins_per_thread], starts[ranker::bins_per_thread];
      const unsigned pad_bin = d_top(pad);
      ranker::rank(
          store, [&](int i) { return d_top(key[i]); }, ranks, counts, starts,
          [&](const unsigned(&c)[ranker::bins_per_thread]) {
            big_top = any_over<ranker>(c, pad_bin, pads, most);
            return true;  // counts only: the pass is made below, or not at all
          });
      __syncthreads();
    }
    if (big_top) return false;
  }
  rank_pass<C, K, V>(key, val, [&](int i) { return d_top(key[i]); }, d_top(pad), pads, most, true, smem);
  // place each key of the prefix-ordered tile by its rank in its group
  const U* s_keys = reinterpret_cast<const U*>(smem);
  const V* s_vals = reinterpret_cast<const V*>(reinterpret_cast<const std::uint8_t*>(smem) + C::keys_bytes);
  auto prefix = [&](unsigned p) { return (d_top(s_keys[p]) << 8) | d_second(s_keys[p]); };
  for (unsigned p = threadIdx.x; p < valid; p += C::threads) {
    const U k = s_keys[p];
    const unsigned mine = (d_top(k) << 8) | d_second(k);
    unsigned first = p, last = p + 1;
    while (first > 0 && prefix(first - 1) == mine) --first;
    while (last < valid && prefix(last) == mine) ++last;
    unsigned at = p;
    if (last - first > 1) {
      const U r = ord.rank(key_traits<K>::twiddle(k));
      at = first;
      for (unsigned q = first; q < last; ++q) {
        const U rq = ord.rank(key_traits<K>::twiddle(s_keys[q]));
        at += rq < r || (rq == r && q < p);
      }
    }
    out[at] = form.uncarry(k);
    if constexpr (!is_no_value<V>) emit(at, s_vals[p]);
  }
  __syncthreads();  // shared memory is read: the next run may rank
  return true;
}

// Wide values (8 bytes or more) do not travel through the split path's two
// passes: each is stored once in shared memory at its slot, the passes carry
// the slot's 16-bit index, and the placement reads the value by it. The
// exchanges then move 10 bytes a pair instead of 16 or more, and the values
// leave the registers. Shared memory: the ranker or the exchange of keys and
// indices, then the values. C: the tile's config.
template <class C, class U, class P> struct split_values {
  using index = std::uint16_t;
  static_assert(C::tile <= 65536, "slot indices fit 16 bits");
  static constexpr bool by_index = !is_no_value<P> && sizeof(P) >= 8;
  using carried = radix::block_sort_config<C::threads, C::items, C::radix_bits, U, index>;
  static constexpr std::size_t values_at = align16(carried::shared_bytes);
  static constexpr std::size_t shared_bytes =
      !by_index ? C::shared_bytes
                : (values_at + C::tile * sizeof(P) > C::shared_bytes ? values_at + C::tile * sizeof(P)
                                                                     : C::shared_bytes);
};

// The local kernel's shared memory: the largest of its paths' needs (the
// counting path, the split path, the LSD passes) for either tile.
template <class T, class U, class P> constexpr std::size_t local_shared_bytes() {
  const std::size_t split = split_values<typename T::local, U, P>::shared_bytes;
  const std::size_t split_short = split_values<typename T::local_short, U, P>::shared_bytes;
  const std::size_t count = count_layout<typename T::local, U, P, T::count_bits>::shared_bytes;
  const std::size_t count_short = count_layout<typename T::local_short, U, P, T::count_bits>::shared_bytes;
  const std::size_t a = split > split_short ? split : split_short;
  const std::size_t b = count > count_short ? count : count_short;
  return a > b ? a : b;
}

// Sorts one run of at most C::tile keys with digits left (r.passes > 0)
// into the output. The keys are held as form.carry makes them (ranked by
// ord) and stored back as they came. Returns false, having written
// nothing, when the form cannot hold the run (held_local_form: a -0.0 in
// it; block-uniform).
template <class T, class C, class K, class P, class Form>
__device__ __forceinline__ bool sort_run(const key_buffers<typename key_traits<K>::bits>& keys,
                                         const value_buffers<P>& vals, const run& r, const key_order<K>& ord,
                                         const Form& form, void* smem) {
  using U = typename key_traits<K>::bits;
  using SV = split_values<C, U, P>;
  constexpr int I = C::items;
  constexpr bool pairs = !is_no_value<P>;
  const U pad = radix::pad_bits(ord);
  const radix::digit_map<K> whole = radix::digit_map<K>::of(ord, T::radix_bits, 0);
  const U* src = keys.of(r.buffer);
  const P* vsrc = pairs ? vals.of(r.buffer) : nullptr;
  const unsigned valid = unsigned(r.size);
  const U* from = src + r.begin;
  U key[I];
  P val[I];
  const U ref = whole.ordered(form.carry(from[0]));
  unsigned long long mine = 0;
  bool folds = false;
  block::for_striped<false, I>(int(valid), [&](int i, unsigned slot, bool live) {
    const U raw = live ? from[slot] : U(0);
    if constexpr (folding_form<Form, U>) folds |= live && form.folds(raw);
    key[i] = live ? form.carry(raw) : pad;
    if (live) mine |= static_cast<unsigned long long>(whole.ordered(key[i]) ^ ref);
    if constexpr (pairs)
      if (live) val[i] = vsrc[r.begin + slot];
  });
  if constexpr (folding_form<Form, U>)
    if (__syncthreads_or(folds)) return false;  // nothing written: the caller sorts the run another way
  const U differ = U(block_or<C::threads>(mine));
  unsigned live = 0;
  for (int p = 0; p < r.passes; ++p)
    if (radix::digit_map<K>::of(ord, T::radix_bits, p).from_ordered(differ)) live |= 1u << p;
  U* kout = keys.out + r.begin;
  // the counting path first (msd_count.cuh): ranks differ in rank_differ
  const U rank_differ = U(U(differ >> ord.shift) & ord.mask);
  if (rank_differ != 0) {
    P* vout = pairs ? vals.out + r.begin : nullptr;
    if (count_and_place<C, T::count_bits, K>(key, val, ord, rank_differ, valid, T::count_most, smem, kout, form,
                                             [&](unsigned at, const P& v) {
                                               if constexpr (pairs) vout[at] = v;
                                             }))
      return true;
  }
  if constexpr (SV::by_index) {
    P* parked = reinterpret_cast<P*>(reinterpret_cast<std::uint8_t*>(smem) + SV::values_at);
    P* vout = vals.out + r.begin;
    typename SV::index idx[I];
#pragma unroll
    for (int i = 0; i < I; ++i) {  // outside the ranker's storage and the exchange
      const unsigned slot = C::ranker::slot(i);
      parked[slot] = val[i];
      idx[i] = typename SV::index(slot);
    }
    if (split_and_sort<T, typename SV::carried, K>(key, idx, ord, live, valid, smem, kout, form,
                                                    [&](unsigned at, typename SV::index v) { vout[at] = parked[v]; }))
      return true;
    // the LSD passes below carry the values themselves (keys moved with their indices so far)
#pragma unroll
    for (int i = 0; i < I; ++i) val[i] = parked[idx[i]];
    __syncthreads();  // the exchange below overwrites the parked values
  } else {
    P* vout = pairs ? vals.out + r.begin : nullptr;
    if (split_and_sort<T, C, K>(key, val, ord, live, valid, smem, kout, form, [&](unsigned at, const P& v) {
          if constexpr (pairs) vout[at] = v;
        }))
      return true;
  }
  radix::sort_tile<C, K>(key, val, ord, r.passes, smem, live);  // ends with a barrier
#pragma unroll
  for (int i = 0; i < I; ++i) {
    const unsigned slot = C::ranker::slot(i);
    if (slot < valid) {
      kout[slot] = form.uncarry(key[i]);
      if constexpr (pairs) vals.out[r.begin + slot] = val[i];
    }
  }
  return true;
}

// One run: copied (no digit left), or sorted in local_short's tile or
// local's. Returns false, having written nothing, where sort_run does.
template <class T, class K, class P, class Form>
__device__ __forceinline__ bool local_run(const key_buffers<typename key_traits<K>::bits>& keys,
                                          const value_buffers<P>& vals, const run& r, const key_order<K>& ord,
                                          const Form& form, uint4* smem) {
  constexpr bool pairs = !is_no_value<P>;
  if (r.passes == 0) {  // copy (keys and values can lie apart: in-place values of an out-of-place call)
    const auto* src = keys.of(r.buffer);
    if (src != keys.out)
      for (std::size_t k = threadIdx.x; k < r.size; k += T::local_threads) keys.out[r.begin + k] = src[r.begin + k];
    if constexpr (pairs) {
      const P* vsrc = vals.of(r.buffer);
      if (vsrc != vals.out)
        for (std::size_t k = threadIdx.x; k < r.size; k += T::local_threads) vals.out[r.begin + k] = vsrc[r.begin + k];
    }
  } else if (r.size <= std::size_t(T::local_short::tile)) {  // block-uniform: half the tile's slots
    return sort_run<T, typename T::local_short, K, P>(keys, vals, r, ord, form, smem);
  } else {
    return sort_run<T, typename T::local, K, P>(keys, vals, r, ord, form, smem);
  }
  return true;
}

// NanFold: false only for orders that rank NaNs by their bits (CUB's, and
// every integer order). The kernel then sets the order's NaN fields to the
// constants such an order holds, so the compiler drops the fold's NaN test
// from every rank and digit it takes: the f64 instance at 64 registers
// spills 96 bytes instead of 368 (f64 + u32: 664 instead of 800).
// Ints: 64-bit integers under the affine map (msd_ints.cuh; `ints` non-null
// for them): the instance for a map taken holds the keys as o - least and
// ranks them ascending over every bit; each instance leaves at once where
// the map's choice is the other's.
// EdgeOnly: the instance sorts the edge run alone (run_share, where it
// skips the edge: under NaNs largest), found by every thread of the grid
// reading the list once, and the run `folded` names, if any; the others
// sort the runs `share` gives them.
// Doubles without the NaN fold hold each run's keys as ordered bits
// (held_local_form); the one run with a -0.0, which that form cannot hold,
// is left unwritten in `folded` for the EdgeOnly instance, launched next.
// (In the same kernel as an inlined or a called fallback, the second path
// took registers from the first: the f64 + u32 instance spilled 720 bytes
// with the call, against 304 alone.)
template <class T, class K, class P, bool NanFold = false, bool Ints = false, bool EdgeOnly = false>
__global__ void __launch_bounds__(T::local_threads, T::local_min_blocks)
local_kernel(key_buffers<typename key_traits<K>::bits> keys, value_buffers<P> vals, work_list<run> runs,
             key_order<K> given, const int_map* ints, run_share share, run* folded) {
  wait_for_prior_grids();
  constexpr bool pairs = !is_no_value<P>;
  using U = typename key_traits<K>::bits;
  if (ints != nullptr && (ints->ok != 0) != Ints) return;  // grid-uniform
  key_order<K> ord = given;
  if constexpr (!NanFold) {
    ord.nan_lo = 0;
    ord.nan_span = U(~U(0));
    ord.nan_pad = U(~U(0));
  }
  static_assert(!Ints || key_traits<K>::kind == key_kind::unsigned_int, "the integer map's keys are carriers");
  if constexpr (Ints) ord = key_order<K>{};  // ascending over every bit
  // the keys' form in the run: as they came, or (Ints) o - least, the
  // offset form of the given order's digits
  const radix::digit_map<K> given_digit = radix::digit_map<K>::of(given, T::radix_bits, 0);
  const auto form = [&] {
    if constexpr (Ints) return radix::pass_key<K>(given_digit, typename key_traits<K>::bits(ints->base));
    else return plain_local_form{};
  }();
  extern __shared__ uint4 smem[];
  // doubles without the NaN fold: the runs without a -0.0 held as their
  // ordered bits (held_local_form); the one with a -0.0 left in `folded`
  constexpr bool held = key_traits<K>::is_float && !NanFold;
  auto sort_one = [&](const run& r) {
    if constexpr (held) {
      key_order<U> unsigned_ord;  // ascending, the given order's bit range
      unsigned_ord.shift = ord.shift;
      unsigned_ord.mask = ord.mask;
      if (!local_run<T, U, P>(keys, vals, r, unsigned_ord, held_local_form<K>{ord.flip}, smem) && threadIdx.x == 0)
        *folded = r;  // left to the EdgeOnly instance
    } else {
      local_run<T, K, P>(keys, vals, r, ord, form, smem);
    }
  };
  if constexpr (EdgeOnly) {
    __shared__ run edge;
    __shared__ int found;
    if (threadIdx.x == 0) found = 0;
    __syncthreads();
    const std::size_t listed = share.skip_edge ? runs.size() : 0;
    const std::size_t stride = std::size_t(gridDim.x) * T::local_threads;
    for (std::size_t i = std::size_t(blockIdx.x) * T::local_threads + threadIdx.x; i < listed; i += stride) {
      const run r = runs[i];
      if (share.is_edge(r)) {  // one run in the grid
        edge = r;
        found = 1;
      }
    }
    __syncthreads();
    if (found != 0) sort_one(edge);
    // the run the held instance left, if any: the one with a -0.0 (every
    // -0.0 has +0.0's rank, so all of them lie in one run)
    if (folded != nullptr && blockIdx.x == 0) {
      const run z = *folded;
      if (z.size != 0) sort_one(z);
    }
  } else {
    // The runs, block-strided (work_list::for_each_block's order), with the
    // block's next run asked into L2 (block::prefetch_l2) before this one is
    // sorted: a run is a few thousand keys behind half a dozen barriers, and
    // with two blocks an SM the kernel ran at 15 to 30% of the copy rate, each
    // block waiting for its run's loads. The runs' bounds come through shared
    // memory (three slots: this run, the next, the one after), asked by one
    // thread with cp.async two runs ahead, so neither the prefetch nor the
    // next run waits for a load, and no register holds a run beyond its own
    // (in registers, the two runs ahead doubled the u64 instance's spills).
    __shared__ run ahead[3];
    const std::size_t listed = runs.size(), stride = gridDim.x;
    auto ask = [&](int slot, std::size_t i) {  // thread 0: run i's bounds into the slot, not waited for
      if (i < listed) block::copy_async(&ahead[slot], &runs[i]);
      else ahead[slot] = run{};
      block::copy_async_commit();
    };
    if (threadIdx.x == 0) {
      ask(0, blockIdx.x);
      ask(1, blockIdx.x + stride);
      block::copy_async_wait();
    }
    __syncthreads();
    int slot = 0;
    for (std::size_t i = blockIdx.x; i < listed; i += stride) {
      const run r = ahead[slot];
      const int next = slot == 2 ? 0 : slot + 1, after = next == 2 ? 0 : next + 1;
      if constexpr (T::local_prefetch) {
        const run& n = ahead[next];
        const U* src = keys.of(n.buffer);
        // a run sorted where it lies is not read, nor one the instance leaves
        if (n.size != 0 && !(n.passes == 0 && src == keys.out) && share.takes(n)) {
          block::prefetch_l2<T::local_threads>(src + n.begin, n.size * sizeof(U));
          if constexpr (pairs) block::prefetch_l2<T::local_threads>(vals.of(n.buffer) + n.begin, n.size * sizeof(P));
        }
      }
      // the slot `after` held the last run, which every thread read before
      // that run's barriers
      if (threadIdx.x == 0) ask(after, i + 2 * stride);
      if (share.takes(r)) sort_one(r);
      if (threadIdx.x == 0) block::copy_async_wait();
      __syncthreads();  // the slot asked for is visible, and the next run's reads follow this run's
      slot = next;
    }
  }
}

}  // namespace gpusort::detail::radix_msd
