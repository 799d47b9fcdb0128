// Checks of host-memory sorts shared by the host suite (the CPU path) and
// the GPU pipeline suite: the stable oracle (std::stable_sort under the
// order written in oracle.hpp) and the from-first-principles checks of keys
// and of pairs whose values are the original indices.
#pragma once

#include "key_types.hpp"
#include "oracle.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <numeric>
#include <vector>

namespace gpusort_test {

// std::stable_sort of the indices 0..n-1 under the oracle: the one stable
// result, as keys and as original indices.
template <class K> struct stable_oracle {
  std::vector<K> keys;
  std::vector<std::uint64_t> idx;
  stable_oracle(const std::vector<K>& in, const gpusort::options& opt) : idx(in.size()) {
    const oracle_order<K> ord(opt);
    std::iota(idx.begin(), idx.end(), std::uint64_t(0));
    std::stable_sort(idx.begin(), idx.end(),
                     [&](std::uint64_t a, std::uint64_t b) { return ord.less(in[a], in[b]); });
    for (auto i : idx) keys.push_back(in[i]);
  }
};

// Pairs sorted with value = original index, checked from first principles:
// idx is a permutation of 0..n-1, out[i] is in[idx[i]] bit for bit, out is
// in order under the oracle and, with `stable`, equal keys keep ascending
// indices.
template <class K, class I>
::testing::AssertionResult sorted_pairs_of(const std::vector<K>& in, const std::vector<K>& out,
                                           const std::vector<I>& idx, const gpusort::options& opt,
                                           bool stable) {
  using ::testing::AssertionFailure;
  const std::size_t n = in.size();
  if (out.size() != n || idx.size() != n)
    return AssertionFailure() << "sizes differ: " << out.size() << ", " << idx.size() << " vs " << n;
  std::vector<char> seen(n, 0);
  for (std::size_t i = 0; i < n; ++i) {
    const std::uint64_t from = idx[i];
    if (from >= n || seen[from])
      return AssertionFailure() << "idx is no permutation: idx[" << i << "] = " << from;
    seen[from] = 1;
    if (traits<K>::raw(out[i]) != traits<K>::raw(in[from]))
      return AssertionFailure() << "out[" << i << "] = " << hex(out[i]) << " is not in[" << from
                                << "] = " << hex(in[from]);
  }
  const oracle_order<K> ord(opt);
  for (std::size_t i = 1; i < n; ++i) {
    if (ord.less(out[i], out[i - 1]))
      return AssertionFailure() << "out of order at index " << i - 1 << ": " << hex(out[i - 1]) << " before "
                                << hex(out[i]);
    if (stable && ord.equal(out[i - 1], out[i]) && idx[i - 1] > idx[i])
      return AssertionFailure() << "not stable at index " << i - 1 << ": indices " << std::uint64_t(idx[i - 1])
                                << " before " << std::uint64_t(idx[i]);
  }
  return ::testing::AssertionSuccess();
}

// Keys alone: in order under the oracle, the same multiset of bit patterns
// as the input and, with `stable`, the oracle's stable sort bit for bit.
template <class K>
::testing::AssertionResult sorted_keys_of(const std::vector<K>& in, const std::vector<K>& out,
                                          const gpusort::options& opt, bool stable) {
  if (out.size() != in.size())
    return ::testing::AssertionFailure() << "sizes differ: " << out.size() << " vs " << in.size();
  const oracle_order<K> ord(opt);
  for (std::size_t i = 1; i < out.size(); ++i)
    if (ord.less(out[i], out[i - 1]))
      return ::testing::AssertionFailure() << "out of order at index " << i - 1 << ": " << hex(out[i - 1])
                                           << " before " << hex(out[i]);
  std::vector<bits_of<K>> a, b;
  for (const K& k : in) a.push_back(traits<K>::raw(k));
  for (const K& k : out) b.push_back(traits<K>::raw(k));
  std::sort(a.begin(), a.end());
  std::sort(b.begin(), b.end());
  if (a != b) return ::testing::AssertionFailure() << "output is not a permutation of the input";
  if (stable) return same_bits(out, stable_oracle<K>(in, opt).keys);
  return ::testing::AssertionSuccess();
}

}  // namespace gpusort_test
