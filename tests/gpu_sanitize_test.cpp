// Small cases of every algorithm, meant to run under compute-sanitizer
// (memcheck, racecheck): `gpusort_tests --gtest_filter='GpuSanitize*'`.
// Sizes cover one tile, a partial tile and several tiles of each family
// (and onesweep's small, fused and full paths), keys and pairs, both orders;
// U32Deep reaches sample sort's refinement levels and several quicksort
// levels, U64Msd radix_msd's MSD levels (one, then two, before the local
// sort) and its LSD mode, F64MsdPlan its plan on skewed top digits,
// F64MsdClasses its class map of doubles, I64MsdIntMap its affine map of
// 64-bit integers, U64MsdWideValues its local sort with 8-byte values; a partial bit range takes the (rank, index) path of
// comparison sorts. GPUSORT_SANITIZE_ALGOS=name,name... restricts the algorithms
// (the sanitizers are slow: check what a change touched).
#include "gpu_suite.hpp"

#include <cstdlib>
#include <string>

namespace {

class GpuSanitize : public gpusort_test::gpu_test {};

template <class K>
void smoke(gpusort::algorithm algo, std::initializer_list<std::size_t> sizes,
           gpusort::harness::dist d = gpusort::harness::dist::uniform) {
  using namespace gpusort_test;
  for (std::size_t n : sizes)
    for (auto dir : both_orders) {
      const sort_case c{d, n, dir, 0, -1, 77 + n};
      GPUSORT_CASE(run_keys<K>(algo, c));
      GPUSORT_CASE(run_pairs<K>(algo, c));
      // a partial bit range: comparison sorts take it as (rank, index)
      const sort_case r{gpusort::harness::dist::uniform, n, dir, 3, int(sizeof(K) * 8) - 2, 91 + n};
      GPUSORT_CASE(run_pairs<K>(algo, r));
    }
}

constexpr gpusort::algorithm all[] = {
    gpusort::algorithm::odd_even,        gpusort::algorithm::bitonic,        gpusort::algorithm::merge_recursive,
    gpusort::algorithm::merge_bottom_up, gpusort::algorithm::merge_path,     gpusort::algorithm::radix_split,
    gpusort::algorithm::radix_tile,      gpusort::algorithm::radix_onesweep, gpusort::algorithm::sample,
    gpusort::algorithm::quick,           gpusort::algorithm::radix_msd,
};

bool selected(gpusort::algorithm a) {
  const char* env = std::getenv("GPUSORT_SANITIZE_ALGOS");
  if (!env || !*env) return true;
  const std::string list = std::string(",") + env + ",";
  return list.find("," + std::string(gpusort::to_string(a)) + ",") != std::string::npos;
}

TEST_F(GpuSanitize, U32) {
  for (auto a : all)
    if (selected(a)) GPUSORT_CASE(smoke<std::uint32_t>(a, {1000, 3000, 20001, 70001}));
}
TEST_F(GpuSanitize, F64) {
  for (auto a : all)
    if (selected(a)) GPUSORT_CASE(smoke<double>(a, {3001, 40001}));
}
// NaNs largest on float specials: the fold in every radix digit, the
// segmented and (rank, index) paths it sends NaNs to.
TEST_F(GpuSanitize, F32NansLargest) {
  using namespace gpusort_test;
  for (auto a : all) {
    if (!selected(a)) continue;
    for (std::size_t n : {3001, 40001})
      for (auto dir : both_orders) {
        sort_case c{gpusort::harness::dist::float_special, n, dir, 0, -1, 131 + n};
        c.nans = gpusort::nan_order::largest;
        GPUSORT_CASE(run_keys<float>(a, c));
        GPUSORT_CASE(run_pairs<float>(a, c));
      }
  }
}
TEST_F(GpuSanitize, U8) {
  for (auto a : all)
    if (selected(a)) GPUSORT_CASE(smoke<std::uint8_t>(a, {5000}));
}
TEST_F(GpuSanitize, U32Deep) {
  for (auto a : {gpusort::algorithm::sample, gpusort::algorithm::quick})
    if (selected(a)) GPUSORT_CASE(smoke<std::uint32_t>(a, {1200007}));
}

TEST_F(GpuSanitize, U64Msd) {
  if (selected(gpusort::algorithm::radix_msd))
    GPUSORT_CASE(smoke<std::uint64_t>(gpusort::algorithm::radix_msd, {200003, 1600001}));
  // LSD mode (three varying digits; small signed: the offset digits):
  // onesweep's passes over the whole array, by a persistent grid
  if (selected(gpusort::algorithm::radix_msd)) {
    GPUSORT_CASE(smoke<std::uint64_t>(gpusort::algorithm::radix_msd, {300007}, gpusort::harness::dist::bits20));
    GPUSORT_CASE(smoke<std::int64_t>(gpusort::algorithm::radix_msd, {300007}, gpusort::harness::dist::small_signed));
  }
}

// ns timestamps through radix_msd's affine map (msd_ints.cuh): the map's
// histogram, the levels' passes by the digits of c, the local sort of
// o - least.
TEST_F(GpuSanitize, I64MsdIntMap) {
  if (selected(gpusort::algorithm::radix_msd))
    GPUSORT_CASE(smoke<std::int64_t>(gpusort::algorithm::radix_msd, {1600001}, gpusort::harness::dist::timestamps));
}

// Zipf keys: the heavy values' children of one value, which a level's
// histogram finds by its count of the bucket's first key, copied by the file
// kernel (or left in the output) instead of listed for the next level.
TEST_F(GpuSanitize, MsdOneValueChildren) {
  if (!selected(gpusort::algorithm::radix_msd)) return;
  GPUSORT_CASE(smoke<std::uint64_t>(gpusort::algorithm::radix_msd, {1600001}, gpusort::harness::dist::zipf));
  GPUSORT_CASE(smoke<double>(gpusort::algorithm::radix_msd, {1200007}, gpusort::harness::dist::zipf));
}

// Normal doubles: the plan's third-level share (its sort of the third
// digit's shares and their suffix sums) and the levels on skewed top digits.
TEST_F(GpuSanitize, F64MsdPlan) {
  if (selected(gpusort::algorithm::radix_msd))
    GPUSORT_CASE(smoke<double>(gpusort::algorithm::radix_msd, {1200007}, gpusort::harness::dist::normal));
}

// Doubles through radix_msd's class map (msd_classes.cuh): normal, [0, 1)
// and grid keys take the mapped levels (the gate's choice), special keys
// and keys of random bits (every class occupied) the ordered bits; NaNs
// largest fold before the map, and their local sorts take two instances
// (the edge run's with the fold, the others' by the bits). Both orders,
// keys and pairs, against the reference.
TEST_F(GpuSanitize, F64MsdClasses) {
  using namespace gpusort_test;
  if (!selected(gpusort::algorithm::radix_msd)) return;
  for (auto d : {gpusort::harness::dist::normal, gpusort::harness::dist::unit, gpusort::harness::dist::grid,
                 gpusort::harness::dist::float_special, gpusort::harness::dist::uniform})
    for (auto nans : {gpusort::nan_order::bits, gpusort::nan_order::largest})
      for (auto dir : both_orders) {
        sort_case c{d, 300007, dir, 0, -1, 77};
        c.nans = nans;
        GPUSORT_CASE(run_keys<double>(gpusort::algorithm::radix_msd, c));
        GPUSORT_CASE(run_pairs<double>(gpusort::algorithm::radix_msd, c));
      }
}

// 8-byte values: the local sort's split path carries slot indices and parks
// the values in shared memory.
TEST_F(GpuSanitize, U64MsdWideValues) {
  if (!selected(gpusort::algorithm::radix_msd)) return;
  for (auto dir : gpusort_test::both_orders)
    GPUSORT_CASE((gpusort_test::run_values<std::uint64_t, std::uint64_t>(
        gpusort::algorithm::radix_msd, gpusort_test::sort_case{gpusort::harness::dist::uniform, 200003, dir, 0, -1, 55})));
}

}  // namespace
