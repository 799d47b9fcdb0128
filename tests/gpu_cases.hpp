// One GPU sort case, run and checked: generate the input on the host, sort
// it on the device with the family's algorithm, and check the output with
// the harness (and, for stable families, bit for bit against CUB's radix
// sort of the same device input).
//   run_keys   keys only, through the allocating overload;
//   run_pairs  value = original index (u32), through the two-phase
//              overload, with a guard zone after the scratch that must
//              survive (catches scratch overruns);
//   run_values values of any width (see values.hpp).
// Every case also checks that the input arrays come back unchanged.
#pragma once

#include "cub_reference.hpp"
#include "gpu_util.hpp"
#include "harness/harness.hpp"
#include "key_types.hpp"
#include "values.hpp"

#include <gpusort/gpusort.hpp>

#include <numeric>
#include <string>

namespace gpusort_test {

namespace h = gpusort::harness;

struct sort_case {
  h::dist d = h::dist::uniform;
  std::size_t n = 0;
  gpusort::order dir = gpusort::order::ascending;
  int begin_bit = 0, end_bit = -1;
  std::uint64_t seed = 1;
  gpusort::nan_order nans = gpusort::nan_order::bits;
};

// Outputs above this size are checked with the O(n) verifiers.
constexpr std::size_t fast_verify_above = std::size_t(1) << 20;

inline gpusort::options options_for(gpusort::algorithm algo, const sort_case& c) {
  gpusort::options opt = make_options(c.dir, c.begin_bit, c.end_bit, algo);
  opt.nans = c.nans;
  return opt;
}

template <class K> std::string label(gpusort::algorithm algo, const char* kind, const sort_case& c) {
  return std::string(gpusort::detail::key_info<K>::name) + " " + std::string(gpusort::to_string(algo)) +
         " " + kind + " dist=" + std::string(h::to_string(c.d)) + " n=" + std::to_string(c.n) + " " +
         name(c.dir) + " bits=[" + std::to_string(c.begin_bit) + "," + std::to_string(c.end_bit) +
         ") seed=" + std::to_string(c.seed) + (c.nans == gpusort::nan_order::largest ? " nans=largest" : "");
}

template <class K> bool cub_comparable(const sort_case& c) {
  const bool full = c.begin_bit == 0 && (c.end_bit < 0 || c.end_bit == width_of<K>);
  if (traits<K>::is_float && c.nans == gpusort::nan_order::largest) return false;  // not CUB's order
  return cub_agrees(traits<K>::is_float, c.dir == gpusort::order::descending, full);
}

template <class K> void run_keys(gpusort::algorithm algo, const sort_case& c) {
  const std::string what = label<K>(algo, "keys", c);
  const bool stable = gpusort::is_stable(algo);
  const auto opt = options_for(algo, c);
  const auto in = h::generate<K>(c.d, c.n, c.seed);
  device_buffer<K> d_in(in), d_out(c.n);
  d_out.fill_bytes(0xA5);

  gpusort::sort_keys(d_in.data(), d_out.data(), c.n, opt);
  device_sync();

  const auto out = d_out.download();
  ASSERT_TRUE(same_bits(d_in.download(), in)) << what << ": the input was modified";
  const auto r = c.n > fast_verify_above ? h::verify_keys_fast(in.data(), out.data(), c.n, opt)
                                         : h::verify_keys(in.data(), out.data(), c.n, opt, stable);
  ASSERT_TRUE(r.ok) << what << ": " << r.message;
  if (stable && cub_comparable<K>(c)) {
    device_buffer<K> d_ref(c.n);
    cub_sort_keys(d_in.data(), d_ref.data(), c.n, c.dir == gpusort::order::descending, c.begin_bit,
                  c.end_bit < 0 ? width_of<K> : c.end_bit);
    ASSERT_TRUE(same_bits(out, d_ref.download())) << what << ": differs from cub::DeviceRadixSort";
  }
}

template <class K> void run_pairs(gpusort::algorithm algo, const sort_case& c) {
  const std::string what = label<K>(algo, "pairs", c);
  const bool stable = gpusort::is_stable(algo);
  const auto opt = options_for(algo, c);
  const auto in = h::generate<K>(c.d, c.n, c.seed);
  std::vector<std::uint32_t> idx(c.n);
  std::iota(idx.begin(), idx.end(), 0u);
  device_buffer<K> d_kin(in), d_kout(c.n);
  device_buffer<std::uint32_t> d_vin(idx), d_vout(c.n);
  d_kout.fill_bytes(0xA5);
  d_vout.fill_bytes(0xA5);

  // Two-phase: size the scratch, then sort with exactly that much plus a
  // guard zone that must come back untouched.
  constexpr std::size_t guard = 4096;
  std::size_t bytes = 0;
  gpusort::sort_pairs(nullptr, bytes, d_kin.data(), d_kout.data(), d_vin.data(), d_vout.data(), c.n, opt);
  device_buffer<unsigned char> temp(bytes + guard);
  temp.fill_bytes(0x5A);
  gpusort::sort_pairs(temp.data(), bytes, d_kin.data(), d_kout.data(), d_vin.data(), d_vout.data(), c.n, opt);
  device_sync();

  std::vector<unsigned char> tail(guard);
  GPUSORT_CUDA(cudaMemcpy(tail.data(), temp.data() + bytes, guard, cudaMemcpyDeviceToHost));
  for (std::size_t i = 0; i < guard; ++i)
    ASSERT_EQ(tail[i], 0x5A) << what << ": wrote past its " << bytes << " scratch bytes (at +" << i << ")";
  ASSERT_TRUE(same_bits(d_kin.download(), in)) << what << ": the input keys were modified";
  ASSERT_EQ(d_vin.download(), idx) << what << ": the input values were modified";

  const auto keys = d_kout.download();
  const auto vals = d_vout.download();
  const auto r = c.n > fast_verify_above
                     ? h::verify_pairs_fast(in.data(), keys.data(), vals.data(), c.n, opt, stable)
                     : h::verify_pairs(in.data(), keys.data(), vals.data(), c.n, opt, stable);
  ASSERT_TRUE(r.ok) << what << ": " << r.message;
  if (stable && cub_comparable<K>(c)) {
    device_buffer<K> d_rk(c.n);
    device_buffer<std::uint32_t> d_rv(c.n);
    cub_sort_pairs(d_kin.data(), d_rk.data(), d_vin.data(), d_rv.data(), c.n,
                   c.dir == gpusort::order::descending, c.begin_bit, c.end_bit < 0 ? width_of<K> : c.end_bit);
    ASSERT_TRUE(same_bits(keys, d_rk.download())) << what << ": keys differ from cub::DeviceRadixSort";
    ASSERT_EQ(vals, d_rv.download()) << what << ": values differ from cub::DeviceRadixSort";
  }
}

// Values of width >= 3 carry their original index (checked as for
// run_pairs, plus every byte of the value); 1- and 2-byte values are a hash
// of their key's bits, which must travel with the key.
template <class K, class V> void run_values(gpusort::algorithm algo, const sort_case& c) {
  const std::string what = label<K>(algo, "pairs", c) + " sizeof(value)=" + std::to_string(sizeof(V)) +
                           " alignof(value)=" + std::to_string(alignof(V));
  const bool stable = gpusort::is_stable(algo);
  const auto opt = options_for(algo, c);
  const auto in = h::generate<K>(c.d, c.n, c.seed);
  std::vector<V> vals(c.n);
  auto key_value = [](K k) { return make_value<V>(std::uint64_t(traits<K>::raw(k)) | (std::uint64_t(1) << 63)); };
  for (std::size_t i = 0; i < c.n; ++i) vals[i] = sizeof(V) >= 3 ? make_value<V>(i) : key_value(in[i]);
  device_buffer<K> d_kin(in), d_kout(c.n);
  device_buffer<V> d_vin(vals), d_vout(c.n);
  d_vout.fill_bytes(0xA5);

  gpusort::sort_pairs(d_kin.data(), d_kout.data(), d_vin.data(), d_vout.data(), c.n, opt);
  device_sync();

  const auto keys = d_kout.download();
  const auto out = d_vout.download();
  const auto vin_back = d_vin.download();
  for (std::size_t i = 0; i < c.n; ++i)
    ASSERT_TRUE(same_value(vin_back[i], vals[i])) << what << ": input value " << i << " was modified";
  if constexpr (sizeof(V) >= 3) {
    std::vector<std::uint64_t> idx(c.n);
    for (std::size_t i = 0; i < c.n; ++i) {
      idx[i] = index_of(out[i]);
      ASSERT_LT(idx[i], c.n) << what << ": value " << i << " is garbage";
      ASSERT_TRUE(same_value(out[i], make_value<V>(idx[i]))) << what << ": value " << i << " is corrupted";
    }
    const auto r = h::verify_pairs(in.data(), keys.data(), idx.data(), c.n, opt, stable);
    ASSERT_TRUE(r.ok) << what << ": " << r.message;
  } else {
    const auto r = h::verify_keys(in.data(), keys.data(), c.n, opt, stable);
    ASSERT_TRUE(r.ok) << what << ": " << r.message;
    for (std::size_t i = 0; i < c.n; ++i)
      ASSERT_TRUE(same_value(out[i], key_value(keys[i]))) << what << ": value " << i << " left its key "
                                                          << hex(keys[i]);
  }
}

}  // namespace gpusort_test
