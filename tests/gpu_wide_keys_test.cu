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
//   * the segmented sorts: disjoint segments in any order, with gaps and
//     empty ones, 32- and 64-bit offsets, against a stable sort of each
//     segment on the host; keys outside every segment are not written;
//   * top-k: the k largest and smallest, sorted and in input order, keys,
//     indices and values, against the stable sort's first k on the host;
//     of every row (topk_rows) and of every segment (segmented_topk: shuffled,
//     with gaps, empty ones and ones shorter than k, whose spare slots keep
//     their keys and get index -1), 32- and 64-bit indices, and captured in
//     a CUDA graph;
//   * a bit range is refused, naming the call (the host suite).
#include "gpu_util.hpp"
#include "harness/harness.hpp"

#include <gpusort/gpusort.hpp>
#include <gpusort/topk.hpp>

#include <cub/device/device_radix_sort.cuh>

#include <gtest/gtest.h>

#include <cstdint>
#include <algorithm>
#include <cstring>
#include <numeric>
#include <random>
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

// Disjoint segments of [0, n) in shuffled order, with gaps between some and
// a few empty ones: their begin and end offsets.
template <class O> void shuffled_segments(std::size_t n, std::uint64_t seed, std::vector<O>& b, std::vector<O>& e) {
  std::mt19937_64 rng(seed);
  std::vector<O> begin, end;
  for (std::size_t at = 0; at < n;) {
    const std::size_t len = std::min<std::size_t>(n - at, rng() % 3 == 0 ? rng() % 5 : rng() % 3000);
    if (rng() % 5 != 0) begin.push_back(O(at)), end.push_back(O(at + len));  // else a gap
    at += len + (len == 0);
  }
  begin.push_back(O(n / 2)), end.push_back(O(n / 2));  // empty
  std::vector<std::size_t> order(begin.size());
  std::iota(order.begin(), order.end(), 0);
  std::shuffle(order.begin(), order.end(), rng);
  b.resize(order.size()), e.resize(order.size());
  for (std::size_t i = 0; i < order.size(); ++i) b[i] = begin[order[i]], e[i] = end[order[i]];
}

// Segments in shuffled order with gaps between some and a few empty ones;
// each segment sorted stably on the host, keys outside left as the output
// held them (a pattern written first).
template <class K, class O> void segmented_against_host(std::size_t n, bool descending, bool pairs, std::uint64_t seed) {
  std::vector<O> b, e;
  shuffled_segments(n, seed, b, e);
  const auto keys = wide_keys<K>(wide_dist::high_ties, n, seed);
  std::vector<std::uint32_t> idx(n);
  std::iota(idx.begin(), idx.end(), 0u);
  std::vector<K> want = keys;  // outside: rewritten below to the pattern
  std::vector<std::uint32_t> want_idx(n, 0xABABABABu);
  std::vector<char> in_segment(n, 0);
  for (std::size_t s = 0; s < b.size(); ++s) {
    std::vector<std::uint32_t> seg(idx.begin() + std::ptrdiff_t(b[s]), idx.begin() + std::ptrdiff_t(e[s]));
    std::stable_sort(seg.begin(), seg.end(), [&](std::uint32_t x, std::uint32_t y) {
      return descending ? keys[y] < keys[x] : keys[x] < keys[y];
    });
    for (std::size_t i = 0; i < seg.size(); ++i) {
      want[std::size_t(b[s]) + i] = keys[seg[i]];
      want_idx[std::size_t(b[s]) + i] = seg[i];
      in_segment[std::size_t(b[s]) + i] = 1;
    }
  }
  K pattern;
  std::memset(&pattern, 0xAB, sizeof pattern);
  for (std::size_t i = 0; i < n; ++i)
    if (!in_segment[i]) want[i] = pattern;
  gpusort::options opt;
  opt.direction = descending ? gpusort::order::descending : gpusort::order::ascending;
  device_buffer<K> kin(keys), kout(n);
  device_buffer<std::uint32_t> vin(idx), vout(n);
  kout.fill_bytes(0xAB);
  vout.fill_bytes(0xAB);
  device_buffer<O> db(b), de(e);
  if (pairs)
    gpusort::segmented_sort_pairs(kin.data(), kout.data(), vin.data(), vout.data(), n, b.size(), db.data(), de.data(),
                                  opt);
  else
    gpusort::segmented_sort_keys(kin.data(), kout.data(), n, b.size(), db.data(), de.data(), opt);
  device_sync();
  const std::string what = "n=" + std::to_string(n) + (descending ? " descending" : " ascending") +
                           (pairs ? " pairs" : " keys") + " offsets of " + std::to_string(sizeof(O)) + " bytes";
  ASSERT_TRUE(same_bytes(kout.download(), want)) << what;
  if (pairs) ASSERT_EQ(vout.download(), want_idx) << what;
}

TEST_F(GpuWideKeys, SegmentedAgainstHost) {
  for (std::size_t n : {std::size_t(0), std::size_t(1), std::size_t(4097), std::size_t(300001)})
    for (bool descending : {false, true})
      for (bool pairs : {false, true}) {
        segmented_against_host<u128, std::int32_t>(n, descending, pairs, 3 + n);
        segmented_against_host<i128, std::uint64_t>(n, descending, pairs, 5 + n);
      }
}

// The one-array offsets form, in place: segments that tile the keys.
TEST_F(GpuWideKeys, SegmentedInPlaceTiled) {
  const std::size_t n = 100003, segments = 97;
  std::vector<std::int64_t> offsets(segments + 1);
  for (std::size_t s = 0; s <= segments; ++s) offsets[s] = std::int64_t(s * n / segments);
  const auto keys = wide_keys<i128>(wide_dist::small_signed, n, 9);
  std::vector<i128> want = keys;
  for (std::size_t s = 0; s < segments; ++s)
    std::stable_sort(want.begin() + offsets[s], want.begin() + offsets[s + 1]);
  device_buffer<i128> k(keys);
  device_buffer<std::int64_t> off(offsets);
  std::size_t bytes = 0;
  gpusort::segmented_sort_keys(nullptr, bytes, k.data(), k.data(), n, segments, off.data());
  device_buffer<std::uint8_t> temp(bytes);
  gpusort::segmented_sort_keys(temp.data(), bytes, k.data(), k.data(), n, segments, off.data());
  device_sync();
  ASSERT_TRUE(same_bytes(k.download(), want));
}

// Top-k: the first k of a stable sort best first (ties by the lowest
// index), or those k in index order.
template <class K> void topk_against_host(std::size_t n, std::size_t k, bool largest, bool sorted) {
  const auto keys = wide_keys<K>(wide_dist::high_ties, n, 31 + n);
  std::vector<std::int64_t> order(n);
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(),
                   [&](std::int64_t x, std::int64_t y) { return largest ? keys[y] < keys[x] : keys[x] < keys[y]; });
  order.resize(k);
  if (!sorted) std::sort(order.begin(), order.end());
  std::vector<K> want(k);
  std::vector<std::uint32_t> want_vals(k);
  for (std::size_t i = 0; i < k; ++i) want[i] = keys[order[i]], want_vals[i] = std::uint32_t(order[i]) * 3u;
  std::vector<std::uint32_t> vals(n);
  for (std::size_t i = 0; i < n; ++i) vals[i] = std::uint32_t(i) * 3u;
  gpusort::topk_options opt;
  opt.largest = largest;
  opt.sorted = sorted;
  device_buffer<K> kin(keys), kout(k), kout2(k);
  device_buffer<std::int64_t> idx(k);
  device_buffer<std::uint32_t> vin(vals), vout(k);
  gpusort::topk_indices(kin.data(), kout.data(), idx.data(), n, k, opt);
  gpusort::topk_pairs(kin.data(), kout2.data(), vin.data(), vout.data(), n, k, opt);
  device_sync();
  const std::string what = "n=" + std::to_string(n) + " k=" + std::to_string(k) + (largest ? " largest" : " smallest") +
                           (sorted ? " sorted" : " unsorted");
  ASSERT_TRUE(same_bytes(kout.download(), want)) << what;
  ASSERT_EQ(idx.download(), order) << what;
  ASSERT_TRUE(same_bytes(kout2.download(), want)) << what;
  ASSERT_EQ(vout.download(), want_vals) << what;
}

TEST_F(GpuWideKeys, TopkAgainstHost) {
  for (std::size_t n : {std::size_t(1), std::size_t(4097), std::size_t(300001)})
    for (std::size_t k : {std::size_t(0), std::size_t(1), std::size_t(1000), n})
      for (bool largest : {true, false})
        for (bool sorted : {true, false}) {
          if (k > n) continue;
          topk_against_host<u128>(n, k, largest, sorted);
          topk_against_host<i128>(n, k, largest, sorted);
        }
}

// The host's answer for one segment [b, e) of keys: its k slots, best
// first (or in index order), with local indices; slots past the segment
// keep `kept` and get index -1.
template <class K>
void segment_topk(const std::vector<K>& keys, std::size_t b, std::size_t e, std::size_t k, bool largest, bool sorted,
                  const K& kept, K* out_keys, std::int64_t* out_idx) {
  std::vector<std::int64_t> order(e - b);
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](std::int64_t x, std::int64_t y) {
    return largest ? keys[b + y] < keys[b + x] : keys[b + x] < keys[b + y];
  });
  if (order.size() > k) order.resize(k);
  if (!sorted) std::sort(order.begin(), order.end());
  for (std::size_t j = 0; j < k; ++j) {
    out_keys[j] = j < order.size() ? keys[b + std::size_t(order[j])] : kept;
    out_idx[j] = j < order.size() ? order[j] : -1;
  }
}

template <class K, class I> void rows_against_host(std::size_t rows, std::size_t cols, std::size_t k, bool largest,
                                                   bool sorted) {
  const std::size_t n = rows * cols;
  const auto keys = wide_keys<K>(wide_dist::high_ties, n, 41 + n + k);
  std::vector<K> want(rows * k);
  std::vector<std::int64_t> want_idx(rows * k);
  K kept;
  std::memset(&kept, 0xAB, sizeof kept);
  for (std::size_t r = 0; r < rows; ++r)
    segment_topk(keys, r * cols, (r + 1) * cols, k, largest, sorted, kept, want.data() + r * k,
                 want_idx.data() + r * k);
  gpusort::topk_options opt;
  opt.largest = largest;
  opt.sorted = sorted;
  device_buffer<K> kin(keys), kout(rows * k);
  device_buffer<I> idx(rows * k);
  kout.fill_bytes(0xAB);
  std::size_t bytes = 0;
  gpusort::topk_rows(nullptr, bytes, kin.data(), kout.data(), idx.data(), rows, cols, k, opt);
  device_buffer<std::uint8_t> temp(bytes);
  gpusort::topk_rows(temp.data(), bytes, kin.data(), kout.data(), idx.data(), rows, cols, k, opt);
  device_sync();
  const std::string what = std::to_string(rows) + " rows of " + std::to_string(cols) + " k=" + std::to_string(k) +
                           (largest ? " largest" : " smallest") + (sorted ? " sorted" : " unsorted") + " indices of " +
                           std::to_string(sizeof(I)) + " bytes";
  ASSERT_TRUE(same_bytes(kout.download(), want)) << what;
  const auto got = idx.download();
  for (std::size_t i = 0; i < got.size(); ++i) ASSERT_EQ(std::int64_t(got[i]), want_idx[i]) << what << " slot " << i;
}

TEST_F(GpuWideKeys, TopkRowsAgainstHost) {
  for (bool largest : {true, false})
    for (bool sorted : {true, false}) {
      rows_against_host<u128, std::int64_t>(3, 5000, 100, largest, sorted);
      rows_against_host<i128, std::int32_t>(1000, 37, 37, largest, sorted);
      rows_against_host<u128, std::int32_t>(1, 1, 1, largest, sorted);
      rows_against_host<i128, std::int64_t>(7, 300, 0, largest, sorted);
    }
}

// Segments in shuffled order, with gaps, empty ones and ones shorter than
// k; the one-array and the allocating forms.
template <class K, class O> void segments_against_host(std::size_t n, std::size_t k, bool largest, bool sorted,
                                                       std::uint64_t seed) {
  std::vector<O> b, e;
  shuffled_segments(n, seed, b, e);
  const std::size_t segments = b.size();
  const auto keys = wide_keys<K>(wide_dist::high_ties, n, seed);
  K kept;
  std::memset(&kept, 0xAB, sizeof kept);
  std::vector<K> want(segments * k);
  std::vector<std::int64_t> want_idx(segments * k);
  for (std::size_t s = 0; s < segments; ++s)
    segment_topk(keys, std::size_t(b[s]), std::size_t(e[s]), k, largest, sorted, kept, want.data() + s * k,
                 want_idx.data() + s * k);
  gpusort::topk_options opt;
  opt.largest = largest;
  opt.sorted = sorted;
  device_buffer<K> kin(keys), kout(segments * k);
  device_buffer<std::int64_t> idx(segments * k);
  device_buffer<O> db(b), de(e);
  kout.fill_bytes(0xAB);
  gpusort::segmented_topk(kin.data(), kout.data(), idx.data(), n, segments, db.data(), de.data(), k, opt);
  device_sync();
  const std::string what = "n=" + std::to_string(n) + " " + std::to_string(segments) + " segments k=" +
                           std::to_string(k) + (largest ? " largest" : " smallest") +
                           (sorted ? " sorted" : " unsorted") + " offsets of " + std::to_string(sizeof(O)) + " bytes";
  ASSERT_TRUE(same_bytes(kout.download(), want)) << what;
  ASSERT_EQ(idx.download(), want_idx) << what;
}

TEST_F(GpuWideKeys, SegmentedTopkAgainstHost) {
  for (std::size_t n : {std::size_t(0), std::size_t(1), std::size_t(4097), std::size_t(300001)})
    for (std::size_t k : {std::size_t(1), std::size_t(10), std::size_t(1000)})
      for (bool largest : {true, false})
        for (bool sorted : {true, false}) {
          segments_against_host<u128, std::int32_t>(n, k, largest, sorted, 7 + n + k);
          segments_against_host<i128, std::uint64_t>(n, k, largest, sorted, 11 + n + k);
        }
}

// topk_rows captured in a CUDA graph and replayed.
TEST_F(GpuWideKeys, TopkRowsGraphCapture) {
  const std::size_t rows = 64, cols = 4099, k = 33;
  const auto keys = wide_keys<i128>(wide_dist::small_signed, rows * cols, 5);
  std::vector<i128> want(rows * k);
  std::vector<std::int64_t> want_idx(rows * k);
  i128 kept = 0;
  for (std::size_t r = 0; r < rows; ++r)
    segment_topk(keys, r * cols, (r + 1) * cols, k, true, false, kept, want.data() + r * k, want_idx.data() + r * k);
  gpusort::topk_options opt;
  opt.sorted = false;
  cuda_stream stream;
  opt.stream = stream.get();
  device_buffer<i128> kin(keys), kout(rows * k);
  device_buffer<std::int64_t> idx(rows * k);
  std::size_t bytes = 0;
  gpusort::topk_rows(nullptr, bytes, kin.data(), kout.data(), idx.data(), rows, cols, k, opt);
  device_buffer<std::uint8_t> temp(bytes);
  cudaGraph_t graph = nullptr;
  cudaGraphExec_t exec = nullptr;
  GPUSORT_CUDA(cudaStreamBeginCapture(stream.get(), cudaStreamCaptureModeGlobal));
  gpusort::topk_rows(temp.data(), bytes, kin.data(), kout.data(), idx.data(), rows, cols, k, opt);
  GPUSORT_CUDA(cudaStreamEndCapture(stream.get(), &graph));
  GPUSORT_CUDA(cudaGraphInstantiate(&exec, graph, 0));
  for (int replay = 0; replay < 2; ++replay) {
    kout.fill_bytes(0);
    idx.fill_bytes(0x5A);
    GPUSORT_CUDA(cudaGraphLaunch(exec, stream.get()));
    GPUSORT_CUDA(cudaStreamSynchronize(stream.get()));
    ASSERT_TRUE(same_bytes(kout.download(), want)) << "replay " << replay;
    ASSERT_EQ(idx.download(), want_idx) << "replay " << replay;
  }
  cudaGraphExecDestroy(exec);
  cudaGraphDestroy(graph);
}

}  // namespace
