// GPU suite: the automatic sort (algorithm::automatic, what a caller gets
// by default) on the distributions real data has -- normal and grid
// measurements, small signed values, ids, timestamps, nearly sorted,
// sorted, reversed, Zipf, few unique, all equal, torch.rand's unit floats --
// for every key type, keys and u32 pairs, both orders, bit for bit against
// CUB's radix sort (gpu_cases.hpp). The family suites (gpu_suite.hpp) run
// the same distributions through each algorithm at their own sizes; these
// sizes are larger, past the radix sorts' small-input paths, and 4- and
// 8-byte keys add one of 2^23 (the bench times 2^27 and 2^28).
#include "gpu_cases.hpp"

#include <gtest/gtest.h>

namespace {

using namespace gpusort_test;

constexpr h::dist real_dists[] = {h::dist::normal,     h::dist::grid,          h::dist::small_signed,
                                  h::dist::ids,        h::dist::timestamps,    h::dist::nearly_sorted,
                                  h::dist::sorted,     h::dist::reverse,       h::dist::zipf,
                                  h::dist::few_unique, h::dist::equal,         h::dist::unit};

template <class K> class GpuRealData : public gpu_test {};
TYPED_TEST_SUITE(GpuRealData, key_types, key_name);

TYPED_TEST(GpuRealData, AutomaticMatchesCub) {
  using K = TypeParam;
  const auto algo = gpusort::algorithm::automatic;
  for (h::dist d : real_dists) {
    for (auto dir : {gpusort::order::ascending, gpusort::order::descending}) {
      const sort_case c{d, 1000003, dir, 0, -1, 7100};
      GPUSORT_CASE(run_keys<K>(algo, c));
      GPUSORT_CASE(run_pairs<K>(algo, c));
    }
    if constexpr (width_of<K> >= 32) {
      const sort_case c{d, (std::size_t(1) << 23) + 5, gpusort::order::ascending, 0, -1, 7200};
      GPUSORT_CASE(run_keys<K>(algo, c));
      GPUSORT_CASE(run_pairs<K>(algo, c));
    }
  }
}

}  // namespace
