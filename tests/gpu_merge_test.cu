// GPU suites: the merge family (all stable, so every output is also compared
// bit for bit with CUB's radix sort), plus the comparator API for custom
// key types (gpusort/merge_sort.cuh).
//   merge_path       the fast three-stage sort: sizes up to 2^23
//   merge_bottom_up  one thread per merge: the last passes are serial, so
//                    sizes stay small
//   merge_recursive  one launch per merge: sizes stay moderate
#include "gpu_suite.hpp"

#include <gpusort/merge_sort.cuh>

#include <algorithm>
#include <random>

namespace {

const gpusort_test::family& merge_path_family() {
  static const gpusort_test::family f{
      .algo = gpusort::algorithm::merge_path,
      .max_n = std::size_t(1) << 21,
      .pow2 = {5, 7, 10, 11, 12, 13, 14, 15, 16, 17, 18, 20},
      .sweep_from = 100,
      .sweep_to = 300000,
      .sweep_growth = 1.1,
      .dist_sizes = {1000, 4865, 100003},
      .range_sizes = {1000, 65537},
      .large_u32 = {(1u << 21) + 1, (1u << 22) + 3, 5000000, (1u << 23) - 1},
      .large_other = {(1u << 21) + 1},
      .value_sizes = {1000, 4097, 131075},
      .api_n = 300007,
  };
  return f;
}

const gpusort_test::family& merge_bottom_up_family() {
  static const gpusort_test::family f{
      .algo = gpusort::algorithm::merge_bottom_up,
      .max_n = std::size_t(1) << 16,
      .pow2 = {5, 7, 10, 12, 13, 16},
      .sweep_from = 100,
      .sweep_to = 60000,
      .sweep_growth = 1.4,
      .dist_sizes = {1000, 4097},
      .range_sizes = {777, 5001},
      .large_u32 = {(1u << 18) + 1},
      .large_other = {20001},
      .value_sizes = {1000, 8193},
      .api_n = 20000,
  };
  return f;
}

const gpusort_test::family& merge_recursive_family() {
  static const gpusort_test::family f{
      .algo = gpusort::algorithm::merge_recursive,
      .max_n = std::size_t(1) << 18,
      .pow2 = {5, 7, 10, 12, 13, 14, 16, 18},
      .sweep_from = 100,
      .sweep_to = 200000,
      .sweep_growth = 1.3,
      .dist_sizes = {1000, 4865, 30001},
      .range_sizes = {777, 50001},
      .large_u32 = {(1u << 20) + 7},
      .large_other = {100001},
      .value_sizes = {1000, 8193},
      .api_n = 50000,
  };
  return f;
}

}  // namespace

GPUSORT_GPU_FAMILY_SUITE(GpuMergePath, merge_path_family)
GPUSORT_GPU_FAMILY_SUITE(GpuMergeBottomUp, merge_bottom_up_family)
GPUSORT_GPU_FAMILY_SUITE(GpuMergeRecursive, merge_recursive_family)

// ---- custom key types through a comparator ----------------------------------

namespace {

struct rec {
  std::uint32_t major;
  float minor;
};
struct by_major_minor {
  __host__ __device__ bool operator()(const rec& a, const rec& b) const {
    return a.major < b.major || (a.major == b.major && a.minor < b.minor);
  }
};
// Only `major` takes part: equal majors must keep input order.
struct by_major {
  __host__ __device__ bool operator()(const rec& a, const rec& b) const { return a.major < b.major; }
};

std::vector<rec> make_recs(std::size_t n, std::uint32_t majors, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<rec> v(n);
  for (auto& r : v) r = {std::uint32_t(rng() % majors), float(rng() % 1000) * 0.25f};
  return v;
}

bool same(const rec& a, const rec& b) { return a.major == b.major && std::memcmp(&a.minor, &b.minor, 4) == 0; }

template <class Less> void check_custom(std::size_t n, std::uint32_t majors, Less less, std::uint64_t seed) {
  using gpusort_test::device_buffer;
  const auto in = make_recs(n, majors, seed);
  std::vector<std::uint32_t> idx(n);
  for (std::size_t i = 0; i < n; ++i) idx[i] = std::uint32_t(i);
  device_buffer<rec> d_in(in), d_out(n);
  device_buffer<std::uint32_t> d_vin(idx), d_vout(n);
  gpusort::merge_sort_pairs(d_in.data(), d_out.data(), d_vin.data(), d_vout.data(), n, less);
  gpusort_test::device_sync();
  const auto out = d_out.download();
  const auto perm = d_vout.download();
  // reference: std::stable_sort with the same comparator
  std::vector<std::uint32_t> ref(idx);
  std::stable_sort(ref.begin(), ref.end(), [&](std::uint32_t a, std::uint32_t b) { return less(in[a], in[b]); });
  for (std::size_t i = 0; i < n; ++i) {
    ASSERT_EQ(perm[i], ref[i]) << "n=" << n << ": index " << i << " differs from std::stable_sort";
    ASSERT_TRUE(same(out[i], in[perm[i]])) << "n=" << n << ": key " << i << " is not in[idx]";
  }
  // keys-only overload, two-phase form
  std::size_t bytes = 0;
  gpusort::merge_sort_keys(nullptr, bytes, d_in.data(), d_out.data(), n, less);
  device_buffer<unsigned char> temp(bytes);
  gpusort::merge_sort_keys(temp.data(), bytes, d_in.data(), d_out.data(), n, less);
  gpusort_test::device_sync();
  const auto keys = d_out.download();
  for (std::size_t i = 0; i < n; ++i) ASSERT_TRUE(same(keys[i], in[ref[i]])) << "keys-only n=" << n << " at " << i;
}

class GpuMergeComparator : public gpusort_test::gpu_test {};

TEST_F(GpuMergeComparator, StructKeyMajorMinor) {
  for (std::size_t n : {0, 1, 2, 4863, 4864, 4865, 5631, 5632, 5633, 9727, 9728, 9729, 100000, 1000003})
    GPUSORT_CASE(check_custom(n, 1000, by_major_minor{}, 7 + n));
}

TEST_F(GpuMergeComparator, StructKeyStableOnMajor) {
  for (std::size_t n : {3, 2815, 2816, 2817, 5631, 5632, 5633, 65537, 1 << 20})
    GPUSORT_CASE(check_custom(n, 7, by_major{}, 11 + n));
}

TEST_F(GpuMergeComparator, NullPointerIsAnError) {
  rec* none = nullptr;
  EXPECT_THROW(gpusort::merge_sort_keys(none, none, 5, by_major{}), gpusort::error);
}

}  // namespace
