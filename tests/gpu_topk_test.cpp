// GPU suite: top-k (include/gpusort/topk.hpp), typed over every key type.
// The oracle is std::partial_sort of the indices under oracle_order
// (tests/oracle.hpp, written from first principles) with topk.hpp's tie
// rule: among equal keys the lower index first. Checked:
//   one array  k in {1, 2, 31, 32, 1024, n - 1, n} over sizes from 1 to
//              1,000,003, uniform, all-equal, few-unique, sorted ascending
//              and float specials (NaN, +-0, +-inf); largest and smallest;
//              sorted (keys bit for bit and indices exactly the oracle's)
//              and unsorted (the oracle's winners in input order);
//              values gathered; int32 indices
//   rows       1 to 65,536 keys a row (the block path up to 4096, the
//              segmented-sort path past it), k in {1, 32, row length}
//   segments   uneven, empty and short (< k) segments from device offsets
//   unsorted   rows and segments past 4096 keys come best first anyway
//   graph      the one-array and the rows call captured and replayed
#include "gpu_cases.hpp"
#include "gpu_util.hpp"
#include "harness/harness.hpp"
#include "key_types.hpp"
#include "oracle.hpp"

#include <gpusort/gpusort.hpp>
#include <gpusort/topk.hpp>

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <numeric>
#include <string>
#include <vector>

namespace {

using namespace gpusort_test;
using gpusort::harness::dist;
namespace h = gpusort::harness;

template <class K> struct topk_oracle {
  oracle_order<K> ord;
  explicit topk_oracle(bool largest, gpusort::nan_order nans = gpusort::nan_order::bits)
      : ord(with_nans(make_options(largest ? gpusort::order::descending : gpusort::order::ascending), nans)) {}
  static gpusort::options with_nans(gpusort::options o, gpusort::nan_order nans) {
    o.nans = nans;
    return o;
  }
  // The k winners of keys[first, first + len), best first, ties by index.
  std::vector<std::int64_t> winners(const K* keys, std::size_t len, std::size_t k) const {
    std::vector<std::int64_t> idx(len);
    std::iota(idx.begin(), idx.end(), std::int64_t(0));
    auto better = [&](std::int64_t a, std::int64_t b) {
      if (ord.less(keys[a], keys[b])) return true;
      if (ord.less(keys[b], keys[a])) return false;
      return a < b;
    };
    std::partial_sort(idx.begin(), idx.begin() + std::ptrdiff_t(k), idx.end(), better);
    idx.resize(k);
    return idx;
  }
};

template <class K> bool same_bits(K a, K b) { return std::memcmp(&a, &b, sizeof(K)) == 0; }

template <class K> std::string what(std::size_t n, std::size_t k, dist d, bool largest, bool sorted) {
  return std::string(gpusort::detail::key_info<K>::name) + " n=" + std::to_string(n) + " k=" + std::to_string(k) +
         " " + std::string(h::to_string(d)) + (largest ? " largest" : " smallest") + (sorted ? " sorted" : " unsorted");
}

// One array: keys and int64 indices, then u32 values (= index * 3 + 1) and int32 indices for a few.
template <class K>
void check_array(const std::vector<K>& keys, std::size_t k, bool largest, bool sorted, dist d,
                 gpusort::nan_order nans = gpusort::nan_order::bits) {
  const std::size_t n = keys.size();
  const std::string w = what<K>(n, k, d, largest, sorted) + (nans == gpusort::nan_order::largest ? " nans=largest" : "");
  gpusort::topk_options opt;
  opt.largest = largest;
  opt.sorted = sorted;
  opt.nans = nans;
  device_buffer<K> in(keys), out(k);
  device_buffer<std::int64_t> idx(k);
  out.fill_bytes(0xA5);
  idx.fill_bytes(0xA5);
  gpusort::topk_indices(in.data(), out.data(), idx.data(), n, k, opt);
  device_sync();
  const auto got_k = out.download();
  const auto got_i = idx.download();
  auto want = topk_oracle<K>(largest, nans).winners(keys.data(), n, k);
  if (!sorted) std::sort(want.begin(), want.end());
  for (std::size_t j = 0; j < k; ++j) {
    ASSERT_EQ(got_i[j], want[j]) << w << " slot " << j;
    ASSERT_TRUE(same_bits(got_k[j], keys[std::size_t(want[j])])) << w << " slot " << j << ": key " << hex(got_k[j]);
  }
  // values and int32 indices
  std::vector<std::uint32_t> vals(n);
  for (std::size_t i = 0; i < n; ++i) vals[i] = std::uint32_t(i * 3 + 1);
  device_buffer<std::uint32_t> vin(vals), vout(k);
  device_buffer<K> out2(k);
  gpusort::topk_pairs(in.data(), out2.data(), vin.data(), vout.data(), n, k, opt);
  device_buffer<std::int32_t> idx32(k);
  gpusort::topk_indices(in.data(), out.data(), idx32.data(), n, k, opt);
  device_sync();
  const auto got_v = vout.download();
  const auto got_i32 = idx32.download();
  for (std::size_t j = 0; j < k; ++j) {
    ASSERT_EQ(got_v[j], std::uint32_t(want[j] * 3 + 1)) << w << " value slot " << j;
    ASSERT_EQ(got_i32[j], std::int32_t(want[j])) << w << " int32 index slot " << j;
  }
}

template <class K> class GpuTopk : public gpu_test {};
TYPED_TEST_SUITE(GpuTopk, key_types, key_name);

TYPED_TEST(GpuTopk, OneArray) {
  using K = TypeParam;
  std::vector<dist> dists = {dist::uniform, dist::equal, dist::few_unique, dist::sorted};
  if (!std::is_integral_v<K>) dists.push_back(dist::float_special);
  dists.push_back(dist::bits20);  // few top digits: candidates past a list, then re-read
  dists.push_back(dist::unit);    // half the keys in one top bucket (torch.rand): re-read by prefix
  // 4095, 4096: one block (the rows path); 4097: the radix select
  for (std::size_t n : {std::size_t(1), std::size_t(2), std::size_t(1000), std::size_t(4095), std::size_t(4096),
                        std::size_t(4097), std::size_t(70001), std::size_t(1000003)})
    for (dist d : dists) {
      const auto keys = h::generate<K>(d, n, 11 + n);
      std::vector<std::size_t> ks = {1, 2, 31, 32, 1024, n - 1, n};
      for (std::size_t k : ks) {
        if (k == 0 || k > n) continue;
        for (bool largest : {true, false})
          for (bool sorted : {true, false}) {
            // the large size: every k sorted, largest; the rest at k = 1024
            if (n > 100000 && k != 1024 && (!sorted || !largest)) continue;
            GPUSORT_CASE(check_array<K>(keys, k, largest, sorted, d));
          }
      }
    }
}

// NaNs largest (torch.topk's order): NaNs of both signs and payloads are
// the largest keys, equal to each other (lower index first).
TYPED_TEST(GpuTopk, NansLargest) {
  using K = TypeParam;
  for (std::size_t n : {std::size_t(1000), std::size_t(70001)}) {
    const auto keys = h::generate<K>(dist::float_special, n, 21 + n);
    for (std::size_t k : {std::size_t(1), std::size_t(32), std::size_t(1024), n})
      for (bool largest : {true, false})
        for (bool sorted : {true, false}) {
          if (k > n) continue;
          GPUSORT_CASE(check_array<K>(keys, k, largest, sorted, dist::float_special, gpusort::nan_order::largest));
        }
  }
}

// Two top buckets of n / 2 keys each (past the candidate list), then a
// digit every key shares: the level after the first filter moves nothing
// but its next histogram was never counted (survivors left in the input
// count only their next digit), so it filters to count.
TYPED_TEST(GpuTopk, SharedDigitAfterUnlistedLevel) {
  using K = TypeParam;
  using B = bits_of<K>;
  constexpr int w = width_of<K>;
  if constexpr (w >= 32) {
    const std::size_t n = 300007;
    std::vector<K> keys(n);
    for (std::size_t i = 0; i < n; ++i) {
      const std::uint64_t r = (i * 0x9E3779B97F4A7C15ull) >> 20;
      const B raw = B(B(i & 1) << (w - 1)) | B(B(0xAB) << (w - 16)) | B(r & ((B(1) << (w - 16)) - 1));
      keys[i] = traits<K>::from_raw(raw);
    }
    for (std::size_t k : {std::size_t(1), std::size_t(1024), n / 2 + 5})
      for (bool largest : {true, false}) GPUSORT_CASE(check_array<K>(keys, k, largest, true, dist::uniform));
  }
}

// Small cases for compute-sanitizer (memcheck, racecheck) over the filter
// kernels: survivors listed (uniform) and left in the input (unit: half the
// keys in one top bucket), 4- and 8-byte keys.
class GpuTopkSanitize : public gpu_test {};
TEST_F(GpuTopkSanitize, OneArray) {
  for (dist d : {dist::uniform, dist::unit})
    for (std::size_t k : {std::size_t(32), std::size_t(1024)}) {
      GPUSORT_CASE(check_array<float>(h::generate<float>(d, 70001, 5), k, true, true, d));
      GPUSORT_CASE(check_array<std::uint64_t>(h::generate<std::uint64_t>(d, 70001, 6), k, false, true, d));
    }
}

// Small arrays, one block each (the rows path), and the radix select just
// past it.
TEST_F(GpuTopkSanitize, SmallArrays) {
  for (std::size_t n : {std::size_t(1), std::size_t(37), std::size_t(4096), std::size_t(4097)})
    for (std::size_t k : {std::size_t(1), std::size_t(16), n})
      for (bool largest : {true, false})
        for (bool sorted : {true, false}) {
          if (k > n) continue;
          GPUSORT_CASE(check_array<float>(h::generate<float>(dist::float_special, n, 5 + n), k, largest, sorted,
                                          dist::float_special, gpusort::nan_order::largest));
          GPUSORT_CASE(check_array<std::uint64_t>(h::generate<std::uint64_t>(dist::few_unique, n, 7 + n), k, largest,
                                                  sorted, dist::few_unique));
        }
}

TYPED_TEST(GpuTopk, KZeroAndErrors) {
  using K = TypeParam;
  const auto keys = h::generate<K>(dist::uniform, 100, 3);
  device_buffer<K> in(keys), out(100);
  gpusort::topk_keys(in.data(), out.data(), 100, 0);  // nothing to do
  EXPECT_THROW(gpusort::topk_keys(in.data(), out.data(), 100, 101), gpusort::error);
  device_sync();
}

// Rows (rows x cols) and the same rows as segments through offsets.
template <class K> void check_rows(std::size_t rows, std::size_t cols, std::size_t k, bool largest, bool sorted) {
  const std::size_t n = rows * cols;
  const auto keys = h::generate<K>(dist::few_unique, n, 5 + cols);
  gpusort::topk_options opt;
  opt.largest = largest;
  opt.sorted = sorted;
  device_buffer<K> in(keys), out(rows * k);
  device_buffer<std::int64_t> idx(rows * k);
  gpusort::topk_rows(in.data(), out.data(), idx.data(), rows, cols, k, opt);
  device_sync();
  const auto got_k = out.download();
  const auto got_i = idx.download();
  const topk_oracle<K> o(largest);
  const bool in_order = sorted || cols > 4096;  // long rows come sorted
  for (std::size_t r = 0; r < rows; ++r) {
    auto want = o.winners(keys.data() + r * cols, cols, k);
    if (!in_order) std::sort(want.begin(), want.end());
    for (std::size_t j = 0; j < k; ++j) {
      ASSERT_EQ(got_i[r * k + j], want[j]) << what<K>(cols, k, dist::few_unique, largest, sorted) << " row " << r
                                           << " slot " << j;
      ASSERT_TRUE(same_bits(got_k[r * k + j], keys[r * cols + std::size_t(want[j])]));
    }
  }
}

TYPED_TEST(GpuTopk, Rows) {
  using K = TypeParam;
  for (std::size_t cols : {std::size_t(1), std::size_t(7), std::size_t(100), std::size_t(4096), std::size_t(4097),
                           std::size_t(65536)}) {
    const std::size_t rows = cols >= 4096 ? 3 : 257;
    for (std::size_t k : {std::size_t(1), std::size_t(32), cols})
      for (bool largest : {true, false})
        for (bool sorted : {true, false})
          if (k <= cols) GPUSORT_CASE(check_rows<K>(rows, cols, k, largest, sorted));
  }
  if (sizeof(K) == 4) GPUSORT_CASE(check_rows<K>(65536, 64, 32, true, true));
}

TYPED_TEST(GpuTopk, Segments) {
  using K = TypeParam;
  // uneven segments: empty, shorter than k, block-sized, longer than a block
  const std::vector<std::int64_t> sizes = {0, 5, 40, 4096, 1, 9000, 33, 0, 300};
  std::vector<std::int64_t> begin, end;
  std::int64_t at = 0;
  for (auto s : sizes) {
    begin.push_back(at);
    end.push_back(at + s);
    at += s + 3;  // gaps between segments
  }
  const std::size_t n = std::size_t(at), segs = sizes.size(), k = 32;
  const auto keys = h::generate<K>(dist::uniform, n, 99);
  device_buffer<K> in(keys), out(segs * k);
  device_buffer<std::int64_t> idx(segs * k), db(begin), de(end);
  gpusort::topk_options opt;
  gpusort::segmented_topk(in.data(), out.data(), idx.data(), n, segs, db.data(), de.data(), k, opt);
  device_sync();
  const auto got_i = idx.download();
  const auto got_k = out.download();
  const topk_oracle<K> o(true);
  for (std::size_t s = 0; s < segs; ++s) {
    const std::size_t len = std::size_t(sizes[s]), take = std::min(len, k);
    const auto want = o.winners(keys.data() + begin[s], len, take);
    for (std::size_t j = 0; j < k; ++j) {
      if (j >= take) {
        ASSERT_EQ(got_i[s * k + j], -1) << "segment " << s << " slot " << j;
        continue;
      }
      ASSERT_EQ(got_i[s * k + j], want[j]) << "segment " << s << " slot " << j;
      ASSERT_TRUE(same_bits(got_k[s * k + j], keys[std::size_t(begin[s] + want[j])]));
    }
  }
}

// Unsorted top-k of rows and segments: up to 4096 keys the winners come in
// input order; past 4096 (the segmented-sort path) they come best first
// whatever opt.sorted says, as topk.hpp states. Pinned for both sides of
// the edge, rows and segments, largest and smallest.
class GpuTopkUnsorted : public gpu_test {};

TEST_F(GpuTopkUnsorted, LongRowsAndSegmentsComeBestFirst) {
  using K = float;
  const std::size_t k = 32;
  for (bool largest : {true, false})
    for (std::size_t cols : {std::size_t(4096), std::size_t(4097), std::size_t(9000)}) {
      const std::size_t rows = 3, n = rows * cols;
      const auto keys = h::generate<K>(dist::uniform, n, 11 + cols);
      gpusort::topk_options opt;
      opt.largest = largest;
      opt.sorted = false;
      const std::vector<std::int64_t> bounds = {0, std::int64_t(cols), std::int64_t(2 * cols), std::int64_t(n)};
      device_buffer<K> in(keys), out(rows * k);
      device_buffer<std::int64_t> idx(rows * k), offsets(bounds);
      for (bool as_segments : {false, true}) {
        idx.fill_bytes(0xFF);
        if (as_segments)
          gpusort::segmented_topk(in.data(), out.data(), idx.data(), n, rows, offsets.data(), offsets.data() + 1, k,
                                  opt);
        else
          gpusort::topk_rows(in.data(), out.data(), idx.data(), rows, cols, k, opt);
        device_sync();
        const auto got = idx.download();
        const topk_oracle<K> o(largest);
        for (std::size_t r = 0; r < rows; ++r) {
          auto want = o.winners(keys.data() + r * cols, cols, k);  // best first
          if (cols <= 4096) std::sort(want.begin(), want.end());  // input order
          for (std::size_t j = 0; j < k; ++j)
            ASSERT_EQ(got[r * k + j], want[j]) << (as_segments ? "segments" : "rows") << " of " << cols
                                               << (largest ? " largest" : " smallest") << " row " << r << " slot "
                                               << j;
        }
      }
    }
}

class GpuTopkGraph : public gpu_test {};

TEST_F(GpuTopkGraph, ArrayAndRowsCaptured) {
  using K = float;
  const std::size_t n = 1000003, k = 1024, rows = 300, cols = 4096, rk = 32;
  const auto keys = h::generate<K>(dist::uniform, n, 7);
  const auto rkeys = h::generate<K>(dist::uniform, rows * cols, 8);
  device_buffer<K> in(keys), out(k), rin(rkeys), rout(rows * rk);
  device_buffer<std::int64_t> idx(k), ridx(rows * rk);
  cudaStream_t s;
  GPUSORT_CUDA(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
  gpusort::topk_options opt;
  opt.stream = s;
  std::size_t b1 = 0, b2 = 0;
  gpusort::topk_indices(nullptr, b1, in.data(), out.data(), idx.data(), n, k, opt);
  gpusort::topk_rows(nullptr, b2, rin.data(), rout.data(), ridx.data(), rows, cols, rk, opt);
  device_buffer<std::uint8_t> t1(b1), t2(b2);
  cudaGraph_t g;
  GPUSORT_CUDA(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
  gpusort::topk_indices(t1.data(), b1, in.data(), out.data(), idx.data(), n, k, opt);
  gpusort::topk_rows(t2.data(), b2, rin.data(), rout.data(), ridx.data(), rows, cols, rk, opt);
  GPUSORT_CUDA(cudaStreamEndCapture(s, &g));
  cudaGraphExec_t e;
  GPUSORT_CUDA(cudaGraphInstantiate(&e, g, 0));
  for (int rep = 0; rep < 2; ++rep) {
    idx.fill_bytes(0xFF);
    ridx.fill_bytes(0xFF);
    GPUSORT_CUDA(cudaGraphLaunch(e, s));
    GPUSORT_CUDA(cudaStreamSynchronize(s));
    const auto want = topk_oracle<K>(true).winners(keys.data(), n, k);
    const auto got = idx.download();
    for (std::size_t j = 0; j < k; ++j) ASSERT_EQ(got[j], want[j]) << "replay " << rep << " slot " << j;
    const auto rgot = ridx.download();
    for (std::size_t r = 0; r < rows; r += 37) {
      const auto rw = topk_oracle<K>(true).winners(rkeys.data() + r * cols, cols, rk);
      for (std::size_t j = 0; j < rk; ++j) ASSERT_EQ(rgot[r * rk + j], rw[j]) << "replay " << rep << " row " << r;
    }
  }
  cudaGraphExecDestroy(e);
  cudaGraphDestroy(g);
  cudaStreamDestroy(s);
}

}  // namespace
