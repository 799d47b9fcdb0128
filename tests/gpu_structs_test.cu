// GPU suite: structs sorted by a decomposer (include/gpusort/structs.hpp)
// and records by fields (columns.hpp's sort_records_device):
//   * {u32, f32} by a cuda::std::tuple decomposer, keys and u32 values,
//     both orders, bit for bit against CUB's DeviceRadixSort with the same
//     decomposer (the independent oracle: CUB is stable, orders -0.0 as
//     +0.0 and NaNs by their bits, as nan_order::bits does);
//   * {i64, f64, u8 flag, padding} by a std::tuple decomposer of three
//     members in mixed directions, NaNs largest, against std::stable_sort
//     under the oracle's per-key order; in place and out of place.
#include "gpu_util.hpp"
#include "harness/harness.hpp"
#include "oracle.hpp"

#include <gpusort/structs.hpp>

#include <cub/device/device_radix_sort.cuh>
#include <cuda/std/tuple>

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <numeric>
#include <tuple>
#include <vector>

namespace {

using namespace gpusort_test;
namespace h = gpusort::harness;

struct pair_key {
  std::uint32_t a;
  float b;
};
struct pair_decomposer {
  __host__ __device__ cuda::std::tuple<std::uint32_t&, float&> operator()(pair_key& k) const { return {k.a, k.b}; }
};

struct row {
  std::int64_t id;
  double score;
  std::uint8_t flag;
};
struct row_decomposer {
  std::tuple<std::uint8_t&, std::int64_t&, double&> operator()(row& r) const { return {r.flag, r.id, r.score}; }
};

template <class T> bool same_bytes(const std::vector<T>& a, const std::vector<T>& b) {
  return a.size() == b.size() && (a.empty() || std::memcmp(a.data(), b.data(), a.size() * sizeof(T)) == 0);
}

class GpuStructs : public gpu_test {};

TEST_F(GpuStructs, MatchCubsDecomposer) {
  for (std::size_t n : {std::size_t(1), std::size_t(4097), std::size_t(300001)})
    for (bool descending : {false, true}) {
      const auto a = h::generate<std::uint32_t>(h::dist::few_unique, n, 3 + n);
      const auto b = h::generate<float>(h::dist::float_special, n, 5 + n);
      std::vector<pair_key> keys(n);
      for (std::size_t i = 0; i < n; ++i) keys[i] = {a[i], b[i]};
      std::vector<std::uint32_t> vals(n);
      std::iota(vals.begin(), vals.end(), 0u);
      device_buffer<pair_key> kin(keys), kout(n), cub_kout(n);
      device_buffer<std::uint32_t> vin(vals), vout(n), cub_vout(n);
      std::size_t bytes = 0;
      const auto run_cub = [&](void* t, std::size_t& nb) {
        return descending ? cub::DeviceRadixSort::SortPairsDescending(t, nb, kin.data(), cub_kout.data(), vin.data(),
                                                                      cub_vout.data(), std::int64_t(n), pair_decomposer{})
                          : cub::DeviceRadixSort::SortPairs(t, nb, kin.data(), cub_kout.data(), vin.data(),
                                                            cub_vout.data(), std::int64_t(n), pair_decomposer{});
      };
      GPUSORT_CUDA(run_cub(nullptr, bytes));
      {
        device_buffer<std::uint8_t> temp(bytes);
        GPUSORT_CUDA(run_cub(temp.data(), bytes));
      }
      gpusort::options opt;
      opt.direction = descending ? gpusort::order::descending : gpusort::order::ascending;
      bytes = 0;
      gpusort::sort_structs_pairs_device(nullptr, bytes, kin.data(), kout.data(), vin.data(), vout.data(), n,
                                         pair_decomposer{}, opt);
      device_buffer<std::uint8_t> temp(bytes);
      gpusort::sort_structs_pairs_device(temp.data(), bytes, kin.data(), kout.data(), vin.data(), vout.data(), n,
                                         pair_decomposer{}, opt);
      device_sync();
      ASSERT_TRUE(same_bytes(kout.download(), cub_kout.download())) << "n=" << n << " descending=" << descending;
      ASSERT_EQ(vout.download(), cub_vout.download()) << "n=" << n << " descending=" << descending;
    }
}

TEST_F(GpuStructs, MixedDirectionsAgainstTheOracle) {
  const gpusort::order dirs[] = {gpusort::order::descending, gpusort::order::ascending, gpusort::order::descending};
  for (std::size_t n : {std::size_t(0), std::size_t(2), std::size_t(4096), std::size_t(100003)})
    for (bool in_place : {false, true}) {
      const auto id = h::generate<std::int64_t>(h::dist::few_unique, n, 7 + n);
      const auto score = h::generate<double>(h::dist::float_special, n, 9 + n);
      const auto flag = h::generate<std::uint8_t>(h::dist::few_unique, n, 11 + n);
      std::vector<row> rows(n);
      for (std::size_t i = 0; i < n; ++i) {
        std::memset(&rows[i], 0, sizeof(row));  // the padding too, for a byte comparison
        rows[i].id = id[i], rows[i].score = score[i], rows[i].flag = std::uint8_t(flag[i] & 3);
      }
      gpusort::options asc;
      asc.nans = gpusort::nan_order::largest;
      const oracle_order<std::int64_t> oid(asc);
      const oracle_order<double> oscore(asc);
      std::vector<row> want = rows;
      std::stable_sort(want.begin(), want.end(), [&](const row& x, const row& y) {
        if (x.flag != y.flag) return x.flag > y.flag;                                      // descending
        if (oid.less(x.id, y.id) || oid.less(y.id, x.id)) return oid.less(x.id, y.id);     // ascending
        return oscore.less(y.score, x.score);                                               // descending
      });
      gpusort::options opt;
      opt.nans = gpusort::nan_order::largest;
      device_buffer<row> in(rows), out(n);
      row* dst = in_place ? in.data() : out.data();
      std::size_t bytes = 0;
      gpusort::sort_structs_device(nullptr, bytes, in.data(), dst, n, row_decomposer{}, opt, dirs);
      device_buffer<std::uint8_t> temp(bytes);
      gpusort::sort_structs_device(temp.data(), bytes, in.data(), dst, n, row_decomposer{}, opt, dirs);
      device_sync();
      ASSERT_TRUE(same_bytes(in_place ? in.download() : out.download(), want)) << "n=" << n << " in_place=" << in_place;
    }
}

}  // namespace
