// Output verifiers and the reference sort.
//
// Everything compares keys by key_order<K>::rank of their twiddled bits (the
// library's order definition) and compares data bit for bit, so -0.0 vs
// +0.0 and NaN payloads are checked exactly.
//
// Exact checks (verify_keys): order, then either a bit-for-bit comparison
// with the stable reference (stable sorts; this implies the permutation
// check) or a multiset comparison of the bit patterns by sorting both sides.
// Fast checks (verify_*_fast) are O(n) and run over OpenMP threads: order,
// plus for keys a multiset fingerprint (sum and xor of a 64-bit mix of every
// bit pattern; the counts are equal by construction); pairs need no
// fingerprint, because "idx is a permutation and out[i] == in[idx[i]]"
// already proves out is a permutation of in.
#include "harness/harness.hpp"

#include <parallel/algorithm>

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <string>

namespace gpusort::harness {

namespace {

using u64 = std::uint64_t;
using i64 = std::int64_t;

constexpr std::size_t parallel_min = std::size_t(1) << 16;

template <class K> using traits = detail::key_traits<K>;
template <class K> using bits_t = typename detail::key_traits<K>::bits;

inline u64 mix64(u64 z) {
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

// The key_order a call's options ask for; rejects malformed bit ranges.
template <class K> detail::key_order<K> order_of(const options& opt) {
  constexpr int width = traits<K>::width;
  const int end = opt.end_bit < 0 ? width : opt.end_bit;
  if (opt.begin_bit < 0 || end > width || opt.begin_bit >= end)
    throw error(errc::invalid_argument,
                "harness: bad bit range [" + std::to_string(opt.begin_bit) + ", " +
                    std::to_string(opt.end_bit) + ") for a " + std::to_string(width) + "-bit key");
  const bool whole = opt.begin_bit == 0 && end == width;  // NaNs largest: whole keys only
  return detail::key_order<K>(opt.direction == order::descending, opt.begin_bit, end,
                              whole && opt.nans == nan_order::largest);
}

// "0x3f80 (1.5)": the raw bits in hex, then the value.
template <class K> std::string describe(K k) {
  char buf[64];
  const unsigned long long raw = traits<K>::raw(k);
  int len = std::snprintf(buf, sizeof buf, "0x%0*llx", traits<K>::width / 4, raw);
  if constexpr (std::is_same_v<K, __half>) {
    std::snprintf(buf + len, sizeof buf - len, " (%g)", double(__half2float(k)));
  } else if constexpr (std::is_same_v<K, __nv_bfloat16>) {
    std::snprintf(buf + len, sizeof buf - len, " (%g)", double(__bfloat162float(k)));
  } else if constexpr (std::is_floating_point_v<K>) {
    std::snprintf(buf + len, sizeof buf - len, " (%g)", double(k));
  } else if constexpr (std::is_signed_v<K>) {
    std::snprintf(buf + len, sizeof buf - len, " (%lld)", static_cast<long long>(k));
  } else {
    std::snprintf(buf + len, sizeof buf - len, " (%llu)", static_cast<unsigned long long>(k));
  }
  return buf;
}

check fail(std::string message) { return check{false, std::move(message)}; }

// Smallest i in [begin, end) with bad(i), or `end` (parallel for large ranges).
template <class Pred> std::size_t first_where(std::size_t begin, std::size_t end, Pred bad) {
  std::size_t first = end;
  const i64 b = i64(begin), e = i64(end);
#pragma omp parallel for schedule(static) reduction(min : first) if (end - begin > parallel_min)
  for (i64 i = b; i < e; ++i)
    if (std::size_t(i) < first && bad(std::size_t(i))) first = std::size_t(i);
  return first;
}

template <class T, class Less> void sort_any(std::vector<T>& v, Less less, bool stable) {
  if (v.size() > parallel_min) {
    if (stable) __gnu_parallel::stable_sort(v.begin(), v.end(), less);
    else __gnu_parallel::sort(v.begin(), v.end(), less);
  } else {
    if (stable) std::stable_sort(v.begin(), v.end(), less);
    else std::sort(v.begin(), v.end(), less);
  }
}

template <class K> check check_order(const K* out, std::size_t n, const detail::key_order<K>& ord) {
  if (n < 2) return {};
  std::size_t i = first_where(1, n, [&](std::size_t j) {
    return ord.less(traits<K>::to_bits(out[j]), traits<K>::to_bits(out[j - 1]));
  });
  if (i == n) return {};
  return fail("out of order at index " + std::to_string(i - 1) + ": out[" + std::to_string(i - 1) +
              "] = " + describe(out[i - 1]) + " ranks after out[" + std::to_string(i) +
              "] = " + describe(out[i]));
}

// Multiset equality of the bit patterns, by sorting both sides.
template <class K> check check_permutation(const K* in, const K* out, std::size_t n) {
  using bits = bits_t<K>;
  std::vector<bits> a(n), b(n);
  for (std::size_t i = 0; i < n; ++i) {
    a[i] = traits<K>::raw(in[i]);
    b[i] = traits<K>::raw(out[i]);
  }
  sort_any(a, std::less<bits>(), false);
  sort_any(b, std::less<bits>(), false);
  std::size_t i = first_where(0, n, [&](std::size_t j) { return a[j] != b[j]; });
  if (i == n) return {};
  // The smaller pattern at the first difference occurs more often on its side.
  const bool extra_in = a[i] < b[i];
  const K k = traits<K>::from_raw(extra_in ? a[i] : b[i]);
  return fail(std::string("output is not a permutation of the input: bit pattern ") + describe(k) +
              (extra_in ? " occurs more often in the input" : " occurs more often in the output") +
              " (sorted bit patterns first differ at rank " + std::to_string(i) + ")");
}

}  // namespace

// ---- reference ------------------------------------------------------------------

template <class K> std::vector<K> reference_sort(const std::vector<K>& in, const options& opt) {
  const auto ord = order_of<K>(opt);
  std::vector<K> out = in;
  sort_any(out, [&](const K& a, const K& b) {
    return ord.less(traits<K>::to_bits(a), traits<K>::to_bits(b));
  }, true);
  return out;
}

// ---- exact checks -----------------------------------------------------------------

template <class K> check verify_sorted(const K* out, std::size_t n, const options& opt) {
  return check_order(out, n, order_of<K>(opt));
}

template <class K>
check verify_keys(const K* in, const K* out, std::size_t n, const options& opt, bool stable) {
  const auto ord = order_of<K>(opt);
  if (check c = check_order(out, n, ord); !c) return c;
  if (!stable) return check_permutation(in, out, n);
  const std::vector<K> ref = reference_sort(std::vector<K>(in, in + n), opt);
  std::size_t i = first_where(0, n, [&](std::size_t j) {
    return traits<K>::raw(out[j]) != traits<K>::raw(ref[j]);
  });
  if (i == n) return {};
  return fail("differs from the stable reference at index " + std::to_string(i) + ": out[" +
              std::to_string(i) + "] = " + describe(out[i]) + ", expected " + describe(ref[i]));
}

template <class K, class I>
check verify_pairs(const K* in, const K* out, const I* idx, std::size_t n, const options& opt,
                   bool stable) {
  const auto ord = order_of<K>(opt);
  // 1. idx is a permutation of [0, n): every entry in range, every slot hit.
  std::size_t i = first_where(0, n, [&](std::size_t j) { return u64(idx[j]) >= n; });
  if (i != n)
    return fail("index out of range at " + std::to_string(i) + ": idx[" + std::to_string(i) +
                "] = " + std::to_string(u64(idx[i])) + " >= n = " + std::to_string(n));
  {
    std::vector<std::uint8_t> seen(n, 0);
    const i64 count = i64(n);
#pragma omp parallel for schedule(static) if (n > parallel_min)
    for (i64 j = 0; j < count; ++j)
      std::atomic_ref<std::uint8_t>(seen[std::size_t(idx[j])]).store(1, std::memory_order_relaxed);
    std::size_t missing = first_where(0, n, [&](std::size_t j) { return seen[j] == 0; });
    if (missing != n) {
      // Some index repeats: name the first position whose index was seen before.
      std::fill(seen.begin(), seen.end(), 0);
      std::size_t dup = 0;
      while (seen[std::size_t(idx[dup])] == 0) seen[std::size_t(idx[dup++])] = 1;
      return fail("indices are not a permutation: idx[" + std::to_string(dup) + "] = " +
                  std::to_string(u64(idx[dup])) + " occurs earlier too, and index " +
                  std::to_string(missing) + " is missing");
    }
  }
  // 2. Each output key is the input key its index names, bit for bit.
  i = first_where(0, n, [&](std::size_t j) {
    return traits<K>::raw(out[j]) != traits<K>::raw(in[std::size_t(idx[j])]);
  });
  if (i != n)
    return fail("key/value mismatch at index " + std::to_string(i) + ": out[" + std::to_string(i) +
                "] = " + describe(out[i]) + " but in[idx[" + std::to_string(i) + "] = " +
                std::to_string(u64(idx[i])) + "] = " + describe(in[std::size_t(idx[i])]));
  // 3. Order.
  if (check c = check_order(out, n, ord); !c) return c;
  // 4. Stability: within a run of equal rank, indices ascend.
  if (stable && n > 1) {
    i = first_where(1, n, [&](std::size_t j) {
      return ord.rank(traits<K>::to_bits(out[j])) == ord.rank(traits<K>::to_bits(out[j - 1])) &&
             idx[j] < idx[j - 1];
    });
    if (i != n)
      return fail("not stable at index " + std::to_string(i - 1) + ": equal keys out[" +
                  std::to_string(i - 1) + "] = " + describe(out[i - 1]) + " and out[" +
                  std::to_string(i) + "] = " + describe(out[i]) + " carry indices " +
                  std::to_string(u64(idx[i - 1])) + " > " + std::to_string(u64(idx[i])));
  }
  return {};
}

// ---- fast checks ------------------------------------------------------------------

template <class K>
check verify_keys_fast(const K* in, const K* out, std::size_t n, const options& opt) {
  if (check c = check_order(out, n, order_of<K>(opt)); !c) return c;
  u64 sum_in = 0, xor_in = 0, sum_out = 0, xor_out = 0;
  const i64 count = i64(n);
#pragma omp parallel for schedule(static) reduction(+ : sum_in, sum_out) \
    reduction(^ : xor_in, xor_out) if (n > parallel_min)
  for (i64 j = 0; j < count; ++j) {
    const u64 a = mix64(u64(traits<K>::raw(in[j]))), b = mix64(u64(traits<K>::raw(out[j])));
    sum_in += a;
    xor_in ^= a;
    sum_out += b;
    xor_out ^= b;
  }
  if (sum_in == sum_out && xor_in == xor_out) return {};
  char buf[256];
  std::snprintf(buf, sizeof buf,
                "output is not a permutation of the input: fingerprints differ over %zu keys "
                "(in sum 0x%016llx xor 0x%016llx, out sum 0x%016llx xor 0x%016llx)",
                n, (unsigned long long)sum_in, (unsigned long long)xor_in,
                (unsigned long long)sum_out, (unsigned long long)xor_out);
  return fail(buf);
}

template <class K, class I>
check verify_pairs_fast(const K* in, const K* out, const I* idx, std::size_t n, const options& opt,
                        bool stable) {
  // verify_pairs is already O(n) and parallel.
  return verify_pairs(in, out, idx, n, opt, stable);
}

// ---- instantiations -----------------------------------------------------------------

#define GPUSORT_HARNESS_PAIRS(K, I)                                                          \
  template check verify_pairs<K, I>(const K*, const K*, const I*, std::size_t, const options&, \
                                    bool);                                                   \
  template check verify_pairs_fast<K, I>(const K*, const K*, const I*, std::size_t,          \
                                         const options&, bool);
#define GPUSORT_HARNESS_VERIFY(K)                                                              \
  template std::vector<K> reference_sort<K>(const std::vector<K>&, const options&);            \
  template check verify_sorted<K>(const K*, std::size_t, const options&);                      \
  template check verify_keys<K>(const K*, const K*, std::size_t, const options&, bool);        \
  template check verify_keys_fast<K>(const K*, const K*, std::size_t, const options&);         \
  GPUSORT_HARNESS_PAIRS(K, std::uint32_t)                                                      \
  GPUSORT_HARNESS_PAIRS(K, std::uint64_t)
GPUSORT_FOR_EACH_KEY(GPUSORT_HARNESS_VERIFY)
#undef GPUSORT_HARNESS_VERIFY
#undef GPUSORT_HARNESS_PAIRS

}  // namespace gpusort::harness
