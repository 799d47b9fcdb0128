// The CPU backend, parallel over OpenMP threads, under the same order as the
// GPU sorts (key_order: CUB's order, descending, bit ranges). It replaced
// libstdc++'s parallel mode (__gnu_parallel's multiway mergesort), about 5x
// slower on 16 cores (docs/perf/host.md). Three sorts:
//   hybrid     keys whose ranks vary in two 11-bit digits or more, when the
//              MSD pass's buckets each fit a core's cache (cpu_hybrid.hpp):
//              one parallel MSD pass, then each bucket's lower digits in
//              cache; stable, values moved with the keys (values of other
//              widths: an index moved, then a gather)
//   radix      otherwise keys whose ranks vary in at most max_radix_passes
//              11-bit digits (skewed keys of 4 bytes or less; wider keys
//              with few varying digits): the parallel LSD radix sort of
//              cpu_radix.hpp, stable, values moved the same way
//   IPS4o      the others (Axtmann, Witt, Ferizovic, Sanders 2017, "In-place
//              Parallel Super Scalar Samplesort"): a comparison sort makes
//              fewer passes over wide keys
//
// IPS4o is not stable; every IPS4o path below gives the stable result anyway:
//   keys, every bit in the order   the keys become carried bits (twiddled,
//                                  flipped when descending: one to one and
//                                  in the order), are sorted as unsigned
//                                  integers and are decoded back. Equal
//                                  carried bits are equal keys, so no order
//                                  among them can show, except for float
//                                  zeros: -0.0 and +0.0 rank equal (CUB's
//                                  order) but differ in bits, and come out
//                                  adjacent; that block is rewritten with
//                                  the input's zeros in input order.
//   keys over a bit range, pairs   (rank, index) records: a total order, so
//                                  any sort gives the stable one; keys (and
//                                  values) are then gathered by index.
// Compiled for the carrier key types only (signed keys as unsigned, bf16
// as f16: key_traits.hpp).
#include "host/cpu_sort.hpp"

#include "core/validate.hpp"
#include "host/cpu_hybrid.hpp"
#include "host/staging.hpp"

#include <ips4o/ips4o.hpp>
#include <omp.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <memory>
#include <vector>

namespace gpusort::detail {

namespace {

// The input's float zeros (carried bits), in input order: a count per
// thread's slice, then each slice copies its zeros to its place.
template <class U> std::vector<U> zeros_in_order(const U* bits, std::size_t n, U minus_zero, U plus_zero) {
  const int threads = omp_get_max_threads();
  std::vector<std::size_t> at(std::size_t(threads) + 1, 0);
  std::vector<U> zeros;
#pragma omp parallel num_threads(threads)
  {
    const int t = omp_get_thread_num(), nt = omp_get_num_threads();
    const std::size_t lo = n * std::size_t(t) / std::size_t(nt), hi = n * std::size_t(t + 1) / std::size_t(nt);
    std::size_t count = 0;
    for (std::size_t i = lo; i < hi; ++i) count += bits[i] == minus_zero || bits[i] == plus_zero;
    at[std::size_t(t) + 1] = count;
#pragma omp barrier
#pragma omp single
    {
      for (int k = 0; k < nt; ++k) at[std::size_t(k) + 1] += at[std::size_t(k)];
      zeros.resize(at[std::size_t(nt)]);
    }
    std::size_t out = at[std::size_t(t)];
    for (std::size_t i = lo; i < hi; ++i)
      if (bits[i] == minus_zero || bits[i] == plus_zero) zeros[out++] = bits[i];
  }
  return zeros;
}

// Keys alone, every bit in the order: sorted as their carried bits.
template <class K> void sort_carried_bits(K* keys, std::size_t n, const key_order<K>& ord) {
  // in place, as bits: encode(k) = twiddle(bits) ^ flip, and back
  using traits = key_traits<K>;
  using U = typename traits::bits;
  U* bits = reinterpret_cast<U*>(keys);
  const full_order<K> full(ord);
  const bool as_is = full.encodes_as_is();  // unsigned, ascending: no pass either way
  if (!as_is) {
#pragma omp parallel for schedule(static)
    for (std::int64_t i = 0; i < std::int64_t(n); ++i) bits[i] = U(traits::twiddle(bits[i]) ^ full.flip);
  }
  std::vector<U> zeros;
  if constexpr (traits::is_float) zeros = zeros_in_order(bits, n, full.minus_zero, full.plus_zero);
  ips4o::parallel::sort(bits, bits + n, std::less<U>());
  if constexpr (traits::is_float) {
    // the zeros' carried bits are adjacent integers: one block of the output
    const U first = std::min(full.minus_zero, full.plus_zero);
    const std::size_t z = std::size_t(std::lower_bound(bits, bits + n, first) - bits);
    std::copy(zeros.begin(), zeros.end(), bits + z);
  }
  if (as_is) return;
#pragma omp parallel for schedule(static)
  for (std::int64_t i = 0; i < std::int64_t(n); ++i) bits[i] = traits::untwiddle(U(bits[i] ^ full.flip));
}

// NaNs largest, keys alone over every bit. The order ranks every NaN alike
// (but the pad's pattern: key_order::fold), so the NaNs need no sort: they
// keep their input order, at the end ascending, and at the front descending
// where the pad's pattern goes to the end. Among the other keys nothing
// folds, so they sort as their carried bits under the same order with NaNs
// by their bits, as IPS4o's integers, not as (rank, index) records (four
// times the time for doubles of both signs). One counting pass finds the
// groups; input without NaNs then sorts in place, other input through a
// buffer that holds the groups in their final places.
template <class K> void sort_nans_apart(K* keys, std::size_t n, const key_order<K>& ord) {
  using traits = key_traits<K>;
  using U = typename traits::bits;
  key_order<K> plain = ord;  // the same order, NaNs by their bits
  plain.nan_lo = 0;
  plain.nan_span = U(~U(0));
  plain.nan_pad = U(~U(0));
  const U* bits = reinterpret_cast<const U*>(keys);
  // 0: the front, 1: the keys to sort, 2: the end. The order's own ranks
  // tell: a number ranks within the twiddled infinities, so only the folded
  // NaNs take the extreme ranks (all ones ascending; descending 0, and all
  // ones for the pad's pattern).
  auto group = [&](U b) {
    const U r = ord.rank(traits::twiddle(b));
    return r == U(~U(0)) ? 2 : r == U(0) ? 0 : 1;
  };
  const int threads = omp_get_max_threads();
  std::vector<std::size_t> at(3 * (std::size_t(threads) + 1), 0);  // [group][thread]
  auto slot = [&](int g, int t) -> std::size_t& { return at[std::size_t(g) * (std::size_t(threads) + 1) + std::size_t(t)]; };
  std::unique_ptr<U[]> grouped;
  std::size_t front = 0, middle = 0;
#pragma omp parallel num_threads(threads)
  {
    const int t = omp_get_thread_num(), nt = omp_get_num_threads();
    const std::size_t lo = n * std::size_t(t) / std::size_t(nt), hi = n * std::size_t(t + 1) / std::size_t(nt);
    std::size_t count[3] = {0, 0, 0};
    for (std::size_t i = lo; i < hi; ++i) ++count[group(bits[i])];
    for (int g = 0; g < 3; ++g) slot(g, t + 1) = count[g];
#pragma omp barrier
#pragma omp single
    {
      std::size_t total = 0;  // exclusive offsets, group by group, thread by thread
      for (int g = 0; g < 3; ++g) {
        if (g == 1) front = total;
        if (g == 2) middle = total - front;
        slot(g, 0) = total;
        for (int k = 0; k < nt; ++k) slot(g, k + 1) += slot(g, k);
        total = slot(g, nt);
      }
      if (middle != n) grouped = std::make_unique_for_overwrite<U[]>(n);
    }
    if (grouped) {
      std::size_t out[3] = {slot(0, t), slot(1, t), slot(2, t)};
      for (std::size_t i = lo; i < hi; ++i) grouped[out[group(bits[i])]++] = bits[i];
    }
  }
  if (!grouped) return sort_carried_bits<K>(keys, n, plain);
  sort_carried_bits<K>(reinterpret_cast<K*>(grouped.get() + front), middle, plain);
  host::parallel_copy(keys, grouped.get(), n * sizeof(U));
}

// Values moved by index, in the value's own width where it is one of
// 1, 2, 4, 8 bytes (a run-time memcpy a value cost the pairs path seconds
// at 1e8).
template <class W> void gather_as(unsigned char* vals, std::size_t n, const std::uint64_t* from) {
  const auto out = std::make_unique_for_overwrite<W[]>(n);  // no single-threaded zeroing
  const W* in = reinterpret_cast<const W*>(vals);
#pragma omp parallel for schedule(static)
  for (std::int64_t i = 0; i < std::int64_t(n); ++i) std::memcpy(&out[i], in + from[i], sizeof(W));
  std::memcpy(vals, out.get(), n * sizeof(W));
}
inline void gather_values(void* vals, std::size_t val_size, std::size_t n, const std::uint64_t* from) {
  auto* vb = static_cast<unsigned char*>(vals);
  switch (val_size) {
    case 1: return gather_as<std::uint8_t>(vb, n, from);
    case 2: return gather_as<std::uint16_t>(vb, n, from);
    case 4: return gather_as<std::uint32_t>(vb, n, from);
    case 8: return gather_as<std::uint64_t>(vb, n, from);
    default: {
      const auto out = std::make_unique_for_overwrite<unsigned char[]>(n * val_size);
#pragma omp parallel for schedule(static)
      for (std::int64_t i = 0; i < std::int64_t(n); ++i)
        std::memcpy(&out[std::size_t(i) * val_size], vb + from[i] * val_size, val_size);
      std::memcpy(vals, out.get(), n * val_size);
    }
  }
}

// (rank, index) records: keys over a bit range, or pairs. Ranks of up to
// 32 bits with n < 2^32 pack into one u64 (rank above index), sorted as
// integers; wider ones sort as a struct. Either way the order is total, so
// the result is the stable one. Keys and values are then gathered.
template <class K>
void sort_records(K* keys, void* vals, std::size_t val_size, std::size_t n, const key_order<K>& ord) {
  using U = typename key_traits<K>::bits;
  const auto owned = std::make_unique_for_overwrite<std::uint64_t[]>(n);
  std::uint64_t* from = owned.get();
  if constexpr (sizeof(U) <= 4) {
    if (n <= 0xFFFFFFFFull) {
#pragma omp parallel for schedule(static)
      for (std::int64_t i = 0; i < std::int64_t(n); ++i)
        from[i] = (std::uint64_t(ord.key_rank(keys[i])) << 32) | std::uint64_t(i);
      ips4o::parallel::sort(from, from + n, std::less<std::uint64_t>());
#pragma omp parallel for schedule(static)
      for (std::int64_t i = 0; i < std::int64_t(n); ++i) from[i] &= 0xFFFFFFFFull;
    }
  }
  if (sizeof(U) > 4 || n > 0xFFFFFFFFull) {
    struct record {
      U rank;
      std::uint64_t index;
    };
    const auto recs = std::make_unique_for_overwrite<record[]>(n);
#pragma omp parallel for schedule(static)
    for (std::int64_t i = 0; i < std::int64_t(n); ++i) recs[i] = {ord.key_rank(keys[i]), std::uint64_t(i)};
    ips4o::parallel::sort(recs.get(), recs.get() + n, [](const record& a, const record& b) {
      return a.rank < b.rank || (a.rank == b.rank && a.index < b.index);
    });
#pragma omp parallel for schedule(static)
    for (std::int64_t i = 0; i < std::int64_t(n); ++i) from[i] = recs[i].index;
  }
  gather_as<K>(reinterpret_cast<unsigned char*>(keys), n, from);
  if (vals) gather_values(vals, val_size, n, from);
}

// The radix sort, when at most this many digits vary: on the 16-core GPU
// machine an LSD pass over 1e8 keys moves about 4 bytes a key for every
// byte of key and value (docs/perf/host.md), so that past 5 passes IPS4o's
// few partitioning levels cost less.
constexpr int max_radix_passes = 3;

struct bytes16 {
  std::uint64_t lo, hi;
};

// Sorts by radix (the hybrid, else LSD) and returns true, or returns false
// (IPS4o's keys).
template <class K>
bool radix_sorted(K* keys, void* vals, std::size_t val_size, std::size_t n, const key_order<K>& ord) {
  using U = typename key_traits<K>::bits;
  int rank_bits = 0;
  for (U m = ord.mask; m; m = U(m >> 1)) rank_bits += int(m & 1);
  const int digits = (rank_bits + cpu::radix_bits - 1) / cpu::radix_bits;
  const int threads = cpu::radix_threads(n);
  bool varying[sizeof(U)] = {};
  int top_bit = -1;
  const int passes = cpu::varying_digits(keys, n, ord, digits, threads, varying, &top_bit);
  if (passes == 0) return true;  // every rank equal: the stable order is the input's
  auto sort = [&]<class V>(V* v) {
    if (passes >= 2 && n >= cpu::hybrid_min_keys &&
        cpu::hybrid_sort<K, V>(keys, v, n, ord, digits, varying, top_bit, threads))
      return true;
    if (passes > max_radix_passes) return false;
    cpu::radix_sort<K, V>(keys, v, n, ord, digits, varying, threads);
    return true;
  };
  switch (vals ? val_size : 0) {
    case 0: return sort(static_cast<void*>(nullptr));
    case 1: return sort(static_cast<std::uint8_t*>(vals));
    case 2: return sort(static_cast<std::uint16_t*>(vals));
    case 4: return sort(static_cast<std::uint32_t*>(vals));
    case 8: return sort(static_cast<std::uint64_t*>(vals));
    case 16: return sort(static_cast<bytes16*>(vals));
    default: {  // other widths: the original index moves, then the values are gathered
      const auto from = std::make_unique_for_overwrite<std::uint64_t[]>(n);
#pragma omp parallel for num_threads(threads) schedule(static)
      for (std::int64_t i = 0; i < std::int64_t(n); ++i) from[i] = std::uint64_t(i);
      if (!sort(from.get())) return false;
      gather_values(vals, val_size, n, from.get());
      return true;
    }
  }
}

}  // namespace

template <class K>
void cpu_sort(K* keys, void* vals, std::size_t val_size, std::size_t n, const options& opt,
              const call_context& ctx) {
  const key_order<K> ord = checked_order<K>(opt, ctx);
  if (n < 2) return;
  using C = carrier_t<K>;
  const key_order<C> carried = carried_order(ord);
  C* ck = reinterpret_cast<C*>(keys);
  if (radix_sorted<C>(ck, vals, val_size, n, carried)) return;
  // carried bits sort as the order only where no NaN folds (NaNs largest
  // make every NaN equal, which bits cannot say: those are set apart first)
  if (!vals && carried.full_range() && !carried.nans_largest()) sort_carried_bits<C>(ck, n, carried);
  else if (!vals && carried.full_range()) sort_nans_apart<C>(ck, n, carried);
  else sort_records<C>(ck, vals, val_size, n, carried);
}

#define GPUSORT_INSTANTIATE_CPU(K) \
  template void cpu_sort<K>(K*, void*, std::size_t, std::size_t, const options&, const call_context&);
GPUSORT_FOR_EACH_KEY(GPUSORT_INSTANTIATE_CPU)

}  // namespace gpusort::detail
