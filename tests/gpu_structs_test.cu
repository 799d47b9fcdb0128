// GPU suite: structs sorted by a decomposer (include/gpusort/structs.hpp)
// and records by fields (columns.hpp's sort_records_device):
//   * {u32, f32} by a cuda::std::tuple decomposer, keys and u32 values,
//     both orders, bit for bit against CUB's DeviceRadixSort with the same
//     decomposer (the independent oracle: CUB is stable, orders -0.0 as
//     +0.0 and NaNs by their bits, as nan_order::bits does);
//   * {i64, f64, u8 flag, padding} by a std::tuple decomposer of three
//     members in mixed directions, NaNs largest, against std::stable_sort
//     under the oracle's per-key order; in place and out of place;
//   * records whose members tile them, which the sort carries in its
//     packed keys and rebuilds (src/columns/carry.hpp): {u32, f32} against
//     CUB (keys alone and with 4- and 8-byte values, in place and not, floats
//     with and without -0.0 and NaNs, which take the moves by row), a
//     {i16, u8, i8, f32} in mixed directions with NaNs largest and an
//     integer {u8, i8, u8} of 3 bytes against the oracle, and a graph
//     capture.
#include "gpu_util.hpp"
#include "harness/harness.hpp"
#include "oracle.hpp"
#include "struct_cases.hpp"

#include <gpusort/structs.hpp>

#include <cub/device/device_radix_sort.cuh>
#include <cuda/std/tuple>

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <numeric>
#include <tuple>
#include <type_traits>
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

// Tiles its 8 bytes: carried in the packed key, 4-byte stores.
struct mixed8 {
  std::int16_t a;
  std::uint8_t b;
  std::int8_t c;
  float d;
};
struct mixed8_decomposer {
  __host__ __device__ cuda::std::tuple<std::uint8_t&, float&, std::int16_t&, std::int8_t&> operator()(mixed8& m) const {
    return {m.b, m.d, m.a, m.c};
  }
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

// CUB's decomposer sort of pair_key (keys alone when vals are null), the
// oracle of the carried way.
template <class V>
void cub_pairs(const pair_key* kin, pair_key* kout, const V* vin, V* vout, std::size_t n, bool descending) {
  if (n == 0) return;
  const auto run = [&](void* t, std::size_t& nb) {
    const auto m = std::int64_t(n);
    if (!vin)
      return descending ? cub::DeviceRadixSort::SortKeysDescending(t, nb, kin, kout, m, pair_decomposer{})
                        : cub::DeviceRadixSort::SortKeys(t, nb, kin, kout, m, pair_decomposer{});
    return descending ? cub::DeviceRadixSort::SortPairsDescending(t, nb, kin, kout, vin, vout, m, pair_decomposer{})
                      : cub::DeviceRadixSort::SortPairs(t, nb, kin, kout, vin, vout, m, pair_decomposer{});
  };
  std::size_t bytes = 0;
  GPUSORT_CUDA(run(nullptr, bytes));
  device_buffer<std::uint8_t> temp(bytes);
  GPUSORT_CUDA(run(temp.data(), bytes));
}

std::vector<pair_key> pair_keys(h::dist float_dist, std::size_t n, std::uint64_t seed) {
  const auto a = h::generate<std::uint32_t>(h::dist::few_unique, n, seed);
  const auto b = h::generate<float>(float_dist, n, seed + 1);
  std::vector<pair_key> keys(n);
  for (std::size_t i = 0; i < n; ++i) keys[i] = {a[i], b[i]};
  return keys;
}

// One case of the carried way against CUB: values of V (void: keys alone).
template <class V> void carried_case(h::dist fd, std::size_t n, bool descending, bool in_place) {
  SCOPED_TRACE(::testing::Message() << "n=" << n << " descending=" << descending << " in_place=" << in_place
                                    << " values=" << sizeof(std::conditional_t<std::is_void_v<V>, char, V>)
                                    << " float dist=" << int(fd));
  const auto keys = pair_keys(fd, n, 17 + n);
  gpusort::options opt;
  opt.direction = descending ? gpusort::order::descending : gpusort::order::ascending;
  device_buffer<pair_key> kin(keys), kout(n), cub_kout(n);
  pair_key* dst = in_place ? kin.data() : kout.data();
  if constexpr (std::is_void_v<V>) {
    cub_pairs<std::uint32_t>(kin.data(), cub_kout.data(), nullptr, nullptr, n, descending);
    std::size_t bytes = 0;
    gpusort::sort_structs_device(nullptr, bytes, kin.data(), dst, n, pair_decomposer{}, opt);
    device_buffer<std::uint8_t> temp(bytes);
    gpusort::sort_structs_device(temp.data(), bytes, kin.data(), dst, n, pair_decomposer{}, opt);
  } else {
    std::vector<V> vals(n);
    for (std::size_t i = 0; i < n; ++i) vals[i] = V(i * 0x9E3779B97F4A7C15ull >> 7);
    device_buffer<V> vin(vals), vout(n), cub_vout(n);
    cub_pairs(kin.data(), cub_kout.data(), vin.data(), cub_vout.data(), n, descending);
    V* vdst = in_place ? vin.data() : vout.data();
    std::size_t bytes = 0;
    gpusort::sort_structs_pairs_device(nullptr, bytes, kin.data(), dst, vin.data(), vdst, n, pair_decomposer{}, opt);
    device_buffer<std::uint8_t> temp(bytes);
    gpusort::sort_structs_pairs_device(temp.data(), bytes, kin.data(), dst, vin.data(), vdst, n, pair_decomposer{},
                                       opt);
    device_sync();
    ASSERT_EQ(in_place ? vin.download() : vout.download(), cub_vout.download());
  }
  device_sync();
  ASSERT_TRUE(same_bytes(in_place ? kin.download() : kout.download(), cub_kout.download()));
}

TEST_F(GpuStructs, CarriedRecordsMatchCub) {
  for (h::dist fd : {h::dist::normal, h::dist::unit, h::dist::float_special})
    for (std::size_t n : {std::size_t(0), std::size_t(1), std::size_t(2), std::size_t(4095), std::size_t(4097),
                          std::size_t(300001)})
      for (bool descending : {false, true})
        for (bool in_place : {false, true}) {
          carried_case<void>(fd, n, descending, in_place);
          carried_case<std::uint32_t>(fd, n, descending, in_place);
          if (n == 300001) carried_case<std::uint64_t>(fd, n, descending, in_place);
        }
}

// mixed8 by (b desc, d asc, a desc, c asc), NaNs largest; tiny3 by (b, c, a)
// descending: the carried way in mixed directions, against the oracle.
TEST_F(GpuStructs, CarriedMixedDirectionsAgainstTheOracle) {
  const gpusort::order dirs[] = {gpusort::order::descending, gpusort::order::ascending, gpusort::order::descending,
                                 gpusort::order::ascending};
  gpusort::options asc;
  asc.nans = gpusort::nan_order::largest;
  const oracle_order<float> od(asc);
  for (h::dist fd : {h::dist::grid, h::dist::float_special})
    for (std::size_t n : {std::size_t(1), std::size_t(4097), std::size_t(100003)})
      for (bool in_place : {false, true}) {
        const auto a = h::generate<std::int16_t>(h::dist::small_signed, n, 3 + n);
        const auto b = h::generate<std::uint8_t>(h::dist::few_unique, n, 5 + n);
        const auto c = h::generate<std::int8_t>(h::dist::small_signed, n, 7 + n);
        const auto d = h::generate<float>(fd, n, 9 + n);
        std::vector<mixed8> recs(n);
        for (std::size_t i = 0; i < n; ++i) recs[i] = {a[i], std::uint8_t(b[i] & 3), c[i], d[i]};
        std::vector<std::uint32_t> vals(n);
        std::iota(vals.begin(), vals.end(), 0u);
        std::vector<std::uint32_t> order(n);
        std::iota(order.begin(), order.end(), 0u);
        std::stable_sort(order.begin(), order.end(), [&](std::uint32_t i, std::uint32_t j) {
          const mixed8 &x = recs[i], &y = recs[j];
          if (x.b != y.b) return x.b > y.b;
          if (od.less(x.d, y.d) || od.less(y.d, x.d)) return od.less(x.d, y.d);
          if (x.a != y.a) return x.a > y.a;
          return x.c < y.c;
        });
        std::vector<mixed8> want(n);
        for (std::size_t i = 0; i < n; ++i) want[i] = recs[order[i]];
        gpusort::options opt;
        opt.nans = gpusort::nan_order::largest;
        device_buffer<mixed8> in(recs), out(n);
        device_buffer<std::uint32_t> vin(vals), vout(n);
        mixed8* dst = in_place ? in.data() : out.data();
        std::uint32_t* vdst = in_place ? vin.data() : vout.data();
        std::size_t bytes = 0;
        gpusort::sort_structs_pairs_device(nullptr, bytes, in.data(), dst, vin.data(), vdst, n, mixed8_decomposer{},
                                           opt, dirs);
        device_buffer<std::uint8_t> temp(bytes);
        gpusort::sort_structs_pairs_device(temp.data(), bytes, in.data(), dst, vin.data(), vdst, n,
                                           mixed8_decomposer{}, opt, dirs);
        device_sync();
        ASSERT_TRUE(same_bytes(in_place ? in.download() : out.download(), want))
            << "n=" << n << " in_place=" << in_place << " float dist=" << int(fd);
        ASSERT_EQ(in_place ? vin.download() : vout.download(), order) << "n=" << n << " in_place=" << in_place;
      }
  for (std::size_t n : {std::size_t(1), std::size_t(3), std::size_t(65537)}) {
    const auto a = h::generate<std::uint8_t>(h::dist::uniform, n, 11 + n);
    const auto b = h::generate<std::int8_t>(h::dist::small_signed, n, 13 + n);
    const auto c = h::generate<std::uint8_t>(h::dist::few_unique, n, 15 + n);
    std::vector<tiny3> recs(n);
    for (std::size_t i = 0; i < n; ++i) recs[i] = {a[i], b[i], c[i]};
    std::vector<tiny3> want = recs;
    std::stable_sort(want.begin(), want.end(), [](const tiny3& x, const tiny3& y) {
      if (x.b != y.b) return x.b > y.b;
      if (x.c != y.c) return x.c > y.c;
      return x.a > y.a;
    });
    gpusort::options opt;
    opt.direction = gpusort::order::descending;
    device_buffer<tiny3> in(recs), out(n);
    std::size_t bytes = 0;
    gpusort::sort_structs_device(nullptr, bytes, in.data(), out.data(), n, tiny3_decomposer{}, opt);
    device_buffer<std::uint8_t> temp(bytes);
    gpusort::sort_structs_device(temp.data(), bytes, in.data(), out.data(), n, tiny3_decomposer{}, opt);
    device_sync();
    ASSERT_TRUE(same_bytes(out.download(), want)) << "n=" << n;
  }
}

// The carried way captured in a CUDA graph and replayed, with -0.0 and NaNs
// (the moves by row) and without (the rebuild), against CUB.
TEST_F(GpuStructs, CarriedGraphCapture) {
  const std::size_t n = 200003;
  for (h::dist fd : {h::dist::normal, h::dist::float_special}) {
    const auto keys = pair_keys(fd, n, 23);
    std::vector<std::uint32_t> vals(n);
    std::iota(vals.begin(), vals.end(), 0u);
    device_buffer<pair_key> kin(keys), kout(n), cub_kout(n);
    device_buffer<std::uint32_t> vin(vals), vout(n), cub_vout(n);
    cub_pairs(kin.data(), cub_kout.data(), vin.data(), cub_vout.data(), n, false);
    cuda_stream stream;
    gpusort::options opt;
    opt.stream = stream.get();
    std::size_t bytes = 0;
    gpusort::sort_structs_pairs_device(nullptr, bytes, kin.data(), kout.data(), vin.data(), vout.data(), n,
                                       pair_decomposer{}, opt);
    device_buffer<std::uint8_t> temp(bytes);
    cudaGraph_t graph = nullptr;
    cudaGraphExec_t exec = nullptr;
    GPUSORT_CUDA(cudaStreamBeginCapture(stream.get(), cudaStreamCaptureModeGlobal));
    gpusort::sort_structs_pairs_device(temp.data(), bytes, kin.data(), kout.data(), vin.data(), vout.data(), n,
                                       pair_decomposer{}, opt);
    GPUSORT_CUDA(cudaStreamEndCapture(stream.get(), &graph));
    GPUSORT_CUDA(cudaGraphInstantiate(&exec, graph, 0));
    for (int replay = 0; replay < 2; ++replay) {
      kout.fill_bytes(0x5A);
      vout.fill_bytes(0x5A);
      GPUSORT_CUDA(cudaGraphLaunch(exec, stream.get()));
      GPUSORT_CUDA(cudaStreamSynchronize(stream.get()));
      ASSERT_TRUE(same_bytes(kout.download(), cub_kout.download())) << "replay " << replay << " dist " << int(fd);
      ASSERT_EQ(vout.download(), cub_vout.download()) << "replay " << replay;
    }
    cudaGraphExecDestroy(exec);
    cudaGraphDestroy(graph);
  }
}

}  // namespace
