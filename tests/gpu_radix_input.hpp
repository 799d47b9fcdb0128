// The radix suites' shared case runner: sort an input with one algorithm
// (keys, or pairs with value = index; in place or not), check it with the
// harness and bit for bit against cub::DeviceRadixSort; and inputs whose
// bits vary only where a mask says.
#pragma once

#include "gpu_suite.hpp"

#include <numeric>
#include <string>
#include <vector>

namespace gpusort_test {

using gpusort::algorithm;
namespace t = gpusort_test;

// Sorts `in` (keys, or pairs with value = index), in place or not, and
// checks it with the harness and against CUB.
template <class K>
void run_input(algorithm algo, const std::vector<K>& in, gpusort::order dir, int begin_bit, int end_bit, bool pairs,
               bool in_place, const std::string& what) {
  const std::size_t n = in.size();
  const auto opt = t::make_options(dir, begin_bit, end_bit, algo);
  const bool desc = dir == gpusort::order::descending;
  const int end = end_bit < 0 ? t::width_of<K> : end_bit;
  std::vector<std::uint32_t> idx(n);
  std::iota(idx.begin(), idx.end(), 0u);
  t::device_buffer<K> kin(in), kout(n);
  t::device_buffer<std::uint32_t> vin(idx), vout(n);
  K* ko = in_place ? kin.data() : kout.data();
  std::uint32_t* vo = in_place ? vin.data() : vout.data();
  if (pairs) gpusort::sort_pairs(kin.data(), ko, vin.data(), vo, n, opt);
  else gpusort::sort_keys(kin.data(), ko, n, opt);
  t::device_sync();
  const auto keys = in_place ? kin.download() : kout.download();
  const auto vals = in_place ? vin.download() : vout.download();
  if (!in_place) {
    ASSERT_TRUE(t::same_bits(kin.download(), in)) << what << ": the input keys were modified";
    ASSERT_EQ(vin.download(), idx) << what << ": the input values were modified";
  }
  const auto r = pairs ? t::h::verify_pairs(in.data(), keys.data(), vals.data(), n, opt, true)
                       : t::h::verify_keys(in.data(), keys.data(), n, opt, true);
  ASSERT_TRUE(r.ok) << what << ": " << r.message;
  const bool full = begin_bit == 0 && end == t::width_of<K>;
  if (!t::cub_agrees(t::traits<K>::is_float, desc, full)) return;
  t::device_buffer<K> ref_in(in), ref_k(n);
  t::device_buffer<std::uint32_t> ref_vin(idx), ref_v(n);
  if (pairs) {
    t::cub_sort_pairs(ref_in.data(), ref_k.data(), ref_vin.data(), ref_v.data(), n, desc, begin_bit, end);
    ASSERT_EQ(vals, ref_v.download()) << what << ": values differ from cub::DeviceRadixSort";
  } else {
    t::cub_sort_keys(ref_in.data(), ref_k.data(), n, desc, begin_bit, end);
  }
  ASSERT_TRUE(t::same_bits(keys, ref_k.download())) << what << ": keys differ from cub::DeviceRadixSort";
}

template <class K>
std::string describe(const char* kind, std::size_t n, gpusort::order dir, bool pairs, bool in_place,
                     algorithm algo = algorithm::radix_onesweep) {
  return std::string(gpusort::detail::key_info<K>::name) + " " + std::string(gpusort::to_string(algo)) + " " + kind +
         " n=" + std::to_string(n) + " " + t::name(dir) + (pairs ? " pairs" : " keys") + (in_place ? " in place" : "");
}

// n keys of raw bits bits_of(r), r 64 random bits a key (a fixed LCG from
// seed): the radix suites' hand-shaped inputs.
template <class K, class F> std::vector<K> raw_keys(std::size_t n, std::uint64_t seed, F bits_of) {
  using traits = gpusort::detail::key_traits<K>;
  using bits = typename traits::bits;
  std::vector<K> v(n);
  std::uint64_t s = seed;
  for (auto& k : v) {
    s = s * 6364136223846793005ull + 1442695040888963407ull;
    k = traits::from_raw(bits(bits_of(s ^ (s >> 29))));
  }
  return v;
}

// Keys whose raw bits are random only where `vary` has ones (other bits of
// `fixed`): the digits outside `vary` are constant and their passes skipped.
template <class K> std::vector<K> masked_keys(std::size_t n, std::uint64_t vary, std::uint64_t fixed, std::uint64_t seed) {
  return raw_keys<K>(n, seed, [&](std::uint64_t r) { return (r & vary) | (fixed & ~vary); });
}

}  // namespace gpusort_test
