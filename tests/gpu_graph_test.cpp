// GPU suite: every device call of the library can be captured in a CUDA
// graph (no host round-trip in any algorithm). For every
// algorithm of the library's name table (gpusort::to_string over the
// algorithm ids until it has no name, so a new family is covered without
// editing this file), for u32, u64, f32 and i64 keys, keys and pairs:
//   query   the two-phase call's scratch size, outside the capture, and
//           allocate it
//   capture sort_keys / sort_pairs (out of place, so a replay is
//           idempotent) on a non-blocking stream in
//           cudaStreamCaptureModeGlobal: any host synchronisation, blocking
//           copy or allocation inside the call breaks the capture
//   replay  instantiate, launch, check; poison the outputs, launch again,
//           check again
// Checks against the std::stable_sort oracle (tests/oracle.hpp): stable
// algorithms must give its keys bit for bit and its permutation; the
// others keys equal to its keys under the order, the input's key bits
// (as a multiset), and values that name the key each sits with.
// Sizes 1, 1000, 100000 and 3000000 reach every family's multi-level paths
// (sample sort's second level, quicksort's third, radix_msd's levels); the
// teaching sorts take smaller ones. A segmented sort is captured the same
// way, and so is a sort by three passes of columns. Not captured: the host-memory sort (gpusort::sort on a host span),
// whose pipeline stages chunks through pinned buffers and synchronises with
// the host by design.
#include "columns_cases.hpp"
#include "gpu_util.hpp"
#include "harness/harness.hpp"
#include "key_types.hpp"
#include "oracle.hpp"

#include <gpusort/gpusort.hpp>

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <functional>
#include <memory>
#include <numeric>
#include <string>
#include <vector>

namespace {

using namespace gpusort_test;
namespace h = gpusort::harness;

// Every algorithm id that has a name, in the table's (enum) order.
std::vector<gpusort::algorithm> every_algorithm() {
  std::vector<gpusort::algorithm> all;
  for (int i = 0;; ++i) {
    const auto a = gpusort::algorithm(i);
    if (gpusort::to_string(a).empty()) break;
    all.push_back(a);
  }
  return all;
}

// The teaching sorts (quadratic, or a launch per merge) take smaller sizes.
std::vector<std::size_t> sizes_for(gpusort::algorithm a) {
  using A = gpusort::algorithm;
  if (a == A::odd_even || a == A::merge_bottom_up) return {1, 1000, 20001};
  if (a == A::bitonic || a == A::radix_split || a == A::merge_recursive) return {1, 1000, 100000};
  return {1, 1000, 100000, 3000000};
}

// Records `work` on `stream` as a graph and returns it instantiated; the
// capture is always ended, so a failing call leaves the stream usable.
class captured_graph {
 public:
  captured_graph(cudaStream_t stream, const std::function<void()>& work) {
    GPUSORT_CUDA(cudaStreamBeginCapture(stream, cudaStreamCaptureModeGlobal));
    std::string failure;
    try {
      work();
    } catch (const std::exception& e) {
      failure = e.what();
    }
    const cudaError_t ended = cudaStreamEndCapture(stream, &graph_);
    if (!failure.empty()) throw std::runtime_error("inside the capture: " + failure);
    GPUSORT_CUDA(ended);
    GPUSORT_CUDA(cudaGraphInstantiate(&exec_, graph_, 0));
  }
  ~captured_graph() {
    if (exec_) cudaGraphExecDestroy(exec_);
    if (graph_) cudaGraphDestroy(graph_);
  }
  captured_graph(const captured_graph&) = delete;
  captured_graph& operator=(const captured_graph&) = delete;
  void launch(cudaStream_t stream) const {
    GPUSORT_CUDA(cudaGraphLaunch(exec_, stream));
    GPUSORT_CUDA(cudaStreamSynchronize(stream));
  }

 private:
  cudaGraph_t graph_ = nullptr;
  cudaGraphExec_t exec_ = nullptr;
};

// One input and its oracle: the stable permutation under the call's order.
template <class K> struct oracle_case {
  std::vector<K> in;
  gpusort::options opt;
  std::vector<std::uint32_t> perm;  // perm[i]: input index of output i
  std::vector<K> sorted;
  std::vector<std::uint64_t> bits;  // the input's key bits, sorted

  oracle_case(h::dist d, std::size_t n, gpusort::order dir, std::uint64_t seed) : in(h::generate<K>(d, n, seed)) {
    opt.direction = dir;
    const oracle_order<K> ord(opt);
    perm.resize(n);
    std::iota(perm.begin(), perm.end(), 0u);
    std::stable_sort(perm.begin(), perm.end(), [&](std::uint32_t a, std::uint32_t b) { return ord.less(in[a], in[b]); });
    sorted.resize(n);
    for (std::size_t i = 0; i < n; ++i) sorted[i] = in[perm[i]];
    bits = sorted_bits(in);
  }
  static std::vector<std::uint64_t> sorted_bits(const std::vector<K>& keys) {
    std::vector<std::uint64_t> b(keys.size());
    for (std::size_t i = 0; i < keys.size(); ++i) b[i] = std::uint64_t(traits<K>::raw(keys[i]));
    std::sort(b.begin(), b.end());
    return b;
  }
};

// Checks keys (and values: input indices, or empty) against the oracle.
template <class K>
::testing::AssertionResult matches(const oracle_case<K>& o, bool stable, const std::vector<K>& keys,
                                   const std::vector<std::uint32_t>& vals) {
  const std::size_t n = o.in.size();
  if (stable) {
    if (auto r = same_bits(keys, o.sorted); !r) return r << " (keys against the stable oracle)";
    if (!vals.empty() && vals != o.perm) return ::testing::AssertionFailure() << "values differ from the stable permutation";
    return ::testing::AssertionSuccess();
  }
  const oracle_order<K> ord(o.opt);
  for (std::size_t i = 0; i < n; ++i)
    if (!ord.equal(keys[i], o.sorted[i]))
      return ::testing::AssertionFailure() << "key " << i << " is " << hex(keys[i]) << ", the order wants "
                                           << hex(o.sorted[i]);
  if (oracle_case<K>::sorted_bits(keys) != o.bits)
    return ::testing::AssertionFailure() << "the output's key bits are not the input's";
  if (!vals.empty()) {
    std::vector<bool> seen(n, false);
    for (std::size_t i = 0; i < n; ++i) {
      const std::uint32_t v = vals[i];
      if (v >= n || seen[v]) return ::testing::AssertionFailure() << "values are not a permutation (at " << i << ")";
      seen[v] = true;
      if (traits<K>::raw(o.in[v]) != traits<K>::raw(keys[i]))
        return ::testing::AssertionFailure() << "value " << i << " does not travel with its key";
    }
  }
  return ::testing::AssertionSuccess();
}

// Captures one two-phase sort (keys, or pairs with value = input index) of
// algorithm `a`, replays it twice and checks both results. Returns false
// when the algorithm is not in this build.
template <class K> bool capture_sort(gpusort::algorithm a, const oracle_case<K>& o, bool pairs, const std::string& what) {
  const std::size_t n = o.in.size();
  cuda_stream stream;
  gpusort::options opt = o.opt;
  opt.algo = a;
  opt.stream = stream.get();
  std::vector<std::uint32_t> idx(n);
  std::iota(idx.begin(), idx.end(), 0u);
  device_buffer<K> kin(o.in), kout(n);
  device_buffer<std::uint32_t> vin(idx), vout(n);
  std::size_t bytes = 0;
  try {
    if (pairs) gpusort::sort_pairs(nullptr, bytes, kin.data(), kout.data(), vin.data(), vout.data(), n, opt);
    else gpusort::sort_keys(nullptr, bytes, kin.data(), kout.data(), n, opt);
  } catch (const gpusort::error& e) {
    if (e.code() == gpusort::errc::unsupported) return false;
    throw;
  }
  device_buffer<std::uint8_t> temp(bytes);
  const captured_graph graph(stream.get(), [&] {
    if (pairs) gpusort::sort_pairs(temp.data(), bytes, kin.data(), kout.data(), vin.data(), vout.data(), n, opt);
    else gpusort::sort_keys(temp.data(), bytes, kin.data(), kout.data(), n, opt);
  });
  const bool stable = gpusort::is_stable(a);
  for (int replay = 0; replay < 2; ++replay) {
    kout.fill_bytes(0xA5 + replay);
    vout.fill_bytes(0x5A + replay);
    graph.launch(stream.get());
    const std::vector<std::uint32_t> vals = pairs ? vout.download() : std::vector<std::uint32_t>{};
    EXPECT_TRUE(matches(o, stable, kout.download(), vals)) << what << ", replay " << replay;
    if (::testing::Test::HasFailure()) return true;
  }
  EXPECT_TRUE(same_bits(kin.download(), o.in)) << what << ": the input was modified";
  return true;
}

template <class K> void capture_every_algorithm() {
  const auto algorithms = every_algorithm();
  ASSERT_FALSE(algorithms.empty());
  const std::size_t sizes[] = {1, 1000, 20001, 100000, 3000000};
  for (std::size_t s = 0; s < std::size(sizes); ++s) {
    const std::size_t n = sizes[s];
    const h::dist d = n != 1000 ? h::dist::uniform : traits<K>::is_float ? h::dist::float_special : h::dist::few_unique;
    const auto dir = s % 2 ? gpusort::order::descending : gpusort::order::ascending;
    const oracle_case<K> o(d, n, dir, 9000 + n);
    for (gpusort::algorithm a : algorithms) {
      const auto wanted = sizes_for(a);
      if (std::find(wanted.begin(), wanted.end(), n) == wanted.end()) continue;
      for (bool pairs : {false, true}) {
        const std::string what = std::string(gpusort::detail::key_info<K>::name) + " " +
                                 std::string(gpusort::to_string(a)) + (pairs ? " pairs" : " keys") +
                                 " n=" + std::to_string(n) + " dist=" + std::string(h::to_string(d)) + " " + name(dir);
        if (!capture_sort<K>(a, o, pairs, what)) {
          std::printf("[ skipped  ] %s: not in this build\n", what.c_str());
          break;
        }
        if (::testing::Test::HasFailure()) return;
      }
    }
  }
}

class GpuGraph : public gpu_test {};

TEST_F(GpuGraph, EveryAlgorithmU32) { capture_every_algorithm<std::uint32_t>(); }
TEST_F(GpuGraph, EveryAlgorithmU64) { capture_every_algorithm<std::uint64_t>(); }
TEST_F(GpuGraph, EveryAlgorithmF32) { capture_every_algorithm<float>(); }
TEST_F(GpuGraph, EveryAlgorithmI64) { capture_every_algorithm<std::int64_t>(); }

// A segmented sort (every size class: thread, group, block, large) captured
// the same way, checked segment by segment against the stable oracle.
template <class K> void capture_segmented() {
  std::vector<std::int32_t> offsets{0};
  for (std::size_t i = 0; offsets.back() < 900000; ++i) {
    const std::size_t sizes[] = {0, 1, 7, 30, 100, 257, 1000, 3000, 5000, 20000, 70001};
    offsets.push_back(offsets.back() + std::int32_t(sizes[(i * 7 + 3) % std::size(sizes)]));
  }
  const std::size_t n = std::size_t(offsets.back()), segments = offsets.size() - 1;
  const auto in = h::generate<K>(h::dist::few_unique, n, 77);
  gpusort::options opt;
  opt.direction = gpusort::order::descending;
  const oracle_order<K> ord(opt);
  std::vector<std::uint32_t> perm(n);
  std::iota(perm.begin(), perm.end(), 0u);
  for (std::size_t s = 0; s < segments; ++s)
    std::stable_sort(perm.begin() + offsets[s], perm.begin() + offsets[s + 1],
                     [&](std::uint32_t a, std::uint32_t b) { return ord.less(in[a], in[b]); });
  std::vector<K> want(n);
  for (std::size_t i = 0; i < n; ++i) want[i] = in[perm[i]];

  cuda_stream stream;
  opt.stream = stream.get();
  std::vector<std::uint32_t> idx(n);
  std::iota(idx.begin(), idx.end(), 0u);
  device_buffer<K> kin(in), kout(n);
  device_buffer<std::uint32_t> vin(idx), vout(n);
  device_buffer<std::int32_t> d_off(offsets);
  std::size_t bytes = 0;
  gpusort::segmented_sort_pairs(nullptr, bytes, kin.data(), kout.data(), vin.data(), vout.data(), n, segments,
                                d_off.data(), opt);
  device_buffer<std::uint8_t> temp(bytes);
  const captured_graph graph(stream.get(), [&] {
    gpusort::segmented_sort_pairs(temp.data(), bytes, kin.data(), kout.data(), vin.data(), vout.data(), n, segments,
                                  d_off.data(), opt);
  });
  for (int replay = 0; replay < 2; ++replay) {
    kout.fill_bytes(0xA5);
    vout.fill_bytes(0x5A);
    graph.launch(stream.get());
    ASSERT_TRUE(same_bits(kout.download(), want)) << "segmented " << gpusort::detail::key_info<K>::name << " replay " << replay;
    ASSERT_EQ(vout.download(), perm) << "segmented " << gpusort::detail::key_info<K>::name << " replay " << replay;
  }
}

TEST_F(GpuGraph, SegmentedSort) {
  capture_segmented<std::uint32_t>();
  if (HasFatalFailure()) return;
  capture_segmented<double>();
}

// A sort by columns of three passes (packs, iota, radix sorts, widening)
// captured the same way, against the stable oracle of columns_cases.hpp.
TEST_F(GpuGraph, SortByColumns) {
  const std::size_t n = 300001;
  const auto table = column_tables()[5];
  std::vector<table_column> cols;
  std::vector<std::unique_ptr<device_buffer<std::uint8_t>>> bufs;
  std::vector<const void*> data;
  for (std::size_t c = 0; c < table.size(); ++c) {
    cols.push_back(make_column(table[c], n, 5 + c, gpusort::nan_order::largest));
    bufs.push_back(std::make_unique<device_buffer<std::uint8_t>>(cols.back().bytes));
    data.push_back(bufs.back()->data());
  }
  const auto keys = key_columns(cols, data);
  const auto want = column_oracle(cols, n);
  cuda_stream stream;
  gpusort::options opt;
  opt.nans = gpusort::nan_order::largest;
  opt.stream = stream.get();
  device_buffer<std::int64_t> idx(n);
  std::size_t bytes = 0;
  gpusort::sort_by_columns_device(nullptr, bytes, keys.data(), keys.size(), n, idx.data(), 8, opt);
  device_buffer<std::uint8_t> temp(bytes);
  const captured_graph graph(stream.get(), [&] {
    gpusort::sort_by_columns_device(temp.data(), bytes, keys.data(), keys.size(), n, idx.data(), 8, opt);
  });
  for (int replay = 0; replay < 2; ++replay) {
    idx.fill_bytes(0x5A);
    graph.launch(stream.get());
    ASSERT_EQ(idx.download(), want) << describe(cols, n) << " replay " << replay;
  }
}

}  // namespace
