// GPU suite: radix sorts of integer keys that span a narrow range across a
// carry ("only the bits that vary", radix::pass_key). Small signed integers
// straddle zero, so in the ordered bits every digit varies, but the keys span
// few values: onesweep and radix_msd's LSD mode sort by ordered - least and
// skip the top digits. Each case is checked with the harness and bit for bit
// against cub::DeviceRadixSort: keys and pairs (value = index), both orders,
// in place and not, at sizes around the paths that take the offset
// (onesweep above its fused histogram, radix_msd above its local sort) and
// spans from one value to the whole width. The same watch of the first
// histogram finds sorted input, whose passes are all skipped: sorted keys of
// every type, and sorted keys with one pair out of order.
#include "gpu_radix_input.hpp"
#include "radix/msd_tuning.cuh"
#include "radix/onesweep_tuning.cuh"

#include <cstdint>
#include <vector>

namespace {

namespace t = gpusort_test;
using gpusort::algorithm;

// n keys whose raw bits are center - half + uniform [0, 2 half), wrapping in
// the key's width: centre 0 gives small signed values of both signs, centre
// 2^(w-1) unsigned values across the top bit; half = 0 gives equal keys.
template <class K>
std::vector<K> span_keys(std::size_t n, std::uint64_t center, std::uint64_t half, std::uint64_t seed) {
  const std::uint64_t range = 2 * half;  // 0 with half = 2^63: the whole width
  return t::raw_keys<K>(n, seed, [&](std::uint64_t x) {
    return center - half + (half == 0 ? 0 : range == 0 ? x : x % range);
  });
}

template <class K> void test_spans(algorithm algo) {
  using U = typename gpusort::detail::key_traits<K>::bits;
  constexpr int w = t::width_of<K>;
  if constexpr (gpusort::detail::key_traits<K>::is_float) return;  // floats take no offset
  std::vector<std::size_t> sizes;
  if (algo == algorithm::radix_onesweep) {
    const std::size_t fused = gpusort::detail::radix_onesweep::tuning<U, gpusort::detail::no_value>::fused_max;
    sizes = {fused + 1, 200003, (std::size_t(1) << 21) + 5};
  } else {
    const std::size_t local = gpusort::detail::radix_msd::tuning<U, gpusort::detail::no_value>::local_keys;
    sizes = {local + 1, 300007, (std::size_t(1) << 22) + 3};
  }
  const std::uint64_t top = std::uint64_t(1) << (w - 1);
  // spans: 1 value; a quarter of the width across zero or the top bit; half
  // the width (small signed int64: [-2^31, 2^31)); across a middle carry;
  // the whole width (no offset pays)
  std::vector<std::pair<std::uint64_t, std::uint64_t>> spans = {
      {0, 0}, {0, std::uint64_t(1) << (w / 4)}, {top, std::uint64_t(1) << (w / 4)}, {0, std::uint64_t(1) << (w / 2 - 1)},
      {top, top}};
  if constexpr (w >= 32) spans.push_back({std::uint64_t(1) << (w - 24), std::uint64_t(1) << (w / 2 - 5)});
  std::size_t step = 0;
  for (std::size_t n : sizes)
    for (auto [center, half] : spans)
      for (bool pairs : {false, true}) {
        const auto dir = t::both_orders[step % 2];
        const bool in_place = step++ % 3 == 1;
        const auto in = span_keys<K>(n, center, half, 11000 + n + half);
        GPUSORT_CASE(t::run_input<K>(algo, in, dir, 0, -1, pairs, in_place,
                                     t::describe<K>(("span c=" + std::to_string(center) + " h=" +
                                                     std::to_string(half)).c_str(),
                                                    n, dir, pairs, in_place, algo)));
      }
  // a partial bit range takes no offset: still CUB's order
  for (bool pairs : {false, true}) {
    const auto in = span_keys<K>(200003, 0, std::uint64_t(1) << (w / 2 - 1), 11900);
    GPUSORT_CASE(t::run_input<K>(algo, in, gpusort::order::ascending, 1, w - 1, pairs, false,
                                 t::describe<K>("span bits [1, w-1)", in.size(), gpusort::order::ascending, pairs,
                                                false, algo)));
  }
}

// Sorted input (the first histogram's watch): every pass skipped, a copy or
// nothing in place. Sorted keys of every type (ties included), a sorted
// prefix with one key out of place at the end and at a warp's edge, a bit
// range under which the keys are sorted though their whole bits are not,
// and descending input under a descending order.
template <class K> void test_sorted(algorithm algo) {
  constexpr int w = t::width_of<K>;
  std::size_t step = 0;
  for (std::size_t n : {std::size_t(40001), std::size_t(300007), (std::size_t(1) << 21) + 5})
    for (bool pairs : {false, true}) {
      const bool in_place = step++ % 2 == 1;
      for (auto dir : t::both_orders) {
        const auto opt = t::make_options(dir, 0, -1, algo);
        const auto in = t::h::reference_sort<K>(t::h::generate<K>(t::h::dist::few_unique, n, 13000 + n), opt);
        GPUSORT_CASE(t::run_input<K>(algo, in, dir, 0, -1, pairs, in_place,
                                     t::describe<K>("sorted", n, dir, pairs, in_place, algo)));
        for (std::size_t at : {n - 1, std::size_t(32), std::size_t(31), n / 2 + 1}) {
          auto broken = in;  // the last key in order before the first: out of order
          broken[at - 1] = in[n - 1];
          broken[at] = in[0];
          GPUSORT_CASE(t::run_input<K>(algo, broken, dir, 0, -1, pairs, in_place,
                                       t::describe<K>(("sorted but " + std::to_string(at)).c_str(), n, dir, pairs,
                                                      in_place, algo)));
        }
      }
    }
  // sorted by bits [w/2, w) only: the low halves are random
  const auto opt = t::make_options(gpusort::order::ascending, w / 2, w, algo);
  const auto in = t::h::reference_sort<K>(t::raw_keys<K>(300007, 13900, [](std::uint64_t r) { return r; }), opt);
  GPUSORT_CASE(t::run_input<K>(algo, in, gpusort::order::ascending, w / 2, w, true, false,
                               t::describe<K>("sorted in its bit range", in.size(), gpusort::order::ascending, true,
                                              false, algo)));
}

template <class K> class GpuRadixOffset : public t::gpu_test {};
TYPED_TEST_SUITE(GpuRadixOffset, t::key_types, t::key_name);
TYPED_TEST(GpuRadixOffset, Onesweep) { test_spans<TypeParam>(algorithm::radix_onesweep); }
TYPED_TEST(GpuRadixOffset, Msd) { test_spans<TypeParam>(algorithm::radix_msd); }
TYPED_TEST(GpuRadixOffset, SortedOnesweep) { test_sorted<TypeParam>(algorithm::radix_onesweep); }
TYPED_TEST(GpuRadixOffset, SortedMsd) { test_sorted<TypeParam>(algorithm::radix_msd); }

// Small cases that take the offset, for compute-sanitizer (memcheck,
// racecheck): `--gtest_filter='GpuSanitizeOffset.*'`. Small signed values
// in u32 and u64 carriers (i32, i64), keys and pairs, both orders, onesweep
// above its fused histogram and radix_msd's LSD mode.
class GpuSanitizeOffset : public t::gpu_test {};
TEST_F(GpuSanitizeOffset, Small) {
  for (auto algo : {algorithm::radix_onesweep, algorithm::radix_msd})
    for (bool pairs : {false, true})
      for (auto dir : t::both_orders) {
        const auto a = span_keys<std::int32_t>(40001, 0, 1u << 12, 12000);
        GPUSORT_CASE(t::run_input<std::int32_t>(algo, a, dir, 0, -1, pairs, false,
                                                t::describe<std::int32_t>("sanitize span", a.size(), dir, pairs,
                                                                          false, algo)));
        const auto b = span_keys<std::int64_t>(40001, 0, 1ull << 31, 12001);
        GPUSORT_CASE(t::run_input<std::int64_t>(algo, b, dir, 0, -1, pairs, true,
                                                t::describe<std::int64_t>("sanitize span", b.size(), dir, pairs,
                                                                          true, algo)));
      }
}

}  // namespace
