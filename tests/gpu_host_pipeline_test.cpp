// GPU suite: gpusort::sort(std::span) of host memory through the host
// pipeline (src/host/): in core (one chunk, and chunks merged on the device
// and streamed out), out of core (opt.max_device_bytes small: sorted runs,
// a merge through the device, blocks permuted home), from pageable and from
// pinned memory, keys alone and pairs. The default algorithm is stable, so
// every result must equal cub::DeviceRadixSort's stable sort bit for bit
// (keys, and the original indices as values); where CUB's order differs
// (cub_agrees) and for values of other widths, the stable oracle of
// host_checks.hpp decides.
#include "cub_reference.hpp"
#include "gpu_util.hpp"
#include "harness/harness.hpp"
#include "host_checks.hpp"
#include "key_types.hpp"
#include "values.hpp"

#include <gpusort/gpusort.hpp>

#include <gtest/gtest.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <numeric>
#include <span>
#include <string>
#include <vector>

namespace {

using namespace gpusort_test;
using gpusort::harness::dist;
namespace h = gpusort::harness;

enum class memory { pageable, pinned };

// n items of T in pageable (std::vector) or pinned (cudaHostAlloc) memory.
template <class T> class host_array {
 public:
  host_array(std::size_t n, memory kind) : n_(n) {
    if (kind == memory::pinned) {
      GPUSORT_CUDA(cudaHostAlloc(reinterpret_cast<void**>(&pinned_), (n ? n : 1) * sizeof(T), cudaHostAllocDefault));
    } else {
      pageable_.resize(n);
    }
  }
  ~host_array() {
    if (pinned_) cudaFreeHost(pinned_);
  }
  host_array(const host_array&) = delete;
  host_array& operator=(const host_array&) = delete;
  T* data() { return pinned_ ? pinned_ : pageable_.data(); }
  std::span<T> span() { return {data(), n_}; }
  std::vector<T> vector() { return {data(), data() + n_}; }

 private:
  std::size_t n_;
  T* pinned_ = nullptr;
  std::vector<T> pageable_;
};

template <class K> struct stable_result {
  std::vector<K> keys;
  std::vector<std::uint32_t> idx;
};
// cub::DeviceRadixSort's stable sort of (key, original index).
template <class K> stable_result<K> cub_stable(const std::vector<K>& in, const gpusort::options& o) {
  const std::size_t n = in.size();
  std::vector<std::uint32_t> iota(n);
  std::iota(iota.begin(), iota.end(), 0u);
  if (n == 0) return {};
  device_buffer<K> kin(in), kout(n);
  device_buffer<std::uint32_t> vin(iota), vout(n);
  cub_sort_pairs(kin.data(), kout.data(), vin.data(), vout.data(), n, o.direction == gpusort::order::descending,
                 o.begin_bit, o.end_bit < 0 ? width_of<K> : o.end_bit);
  return {kout.download(), vout.download()};
}

std::string label(const char* what, dist d, std::size_t n, const gpusort::options& o, memory kind, bool pairs) {
  return std::string(what) + " " + std::string(h::to_string(d)) + " n=" + std::to_string(n) + " " + name(o.direction) +
         " bits [" + std::to_string(o.begin_bit) + "," + std::to_string(o.end_bit) + ") " +
         (kind == memory::pinned ? "pinned" : "pageable") + (pairs ? " pairs" : " keys");
}

template <class K> void check(const char* what, dist d, std::size_t n, gpusort::options o, memory kind, bool pairs) {
  const std::string where = label(what, d, n, o, kind, pairs);
  const auto in = h::generate<K>(d, n, 1000 + n);
  host_array<K> keys(n, kind);
  host_array<std::uint32_t> idx(n, kind);
  std::copy(in.begin(), in.end(), keys.data());
  std::iota(idx.data(), idx.data() + n, 0u);
  const auto used = pairs ? gpusort::sort(keys.span(), idx.span(), o) : gpusort::sort(keys.span(), o);
  if (n > 0) {  // nothing to sort: no device work, whichever backend is named
    ASSERT_EQ(used, gpusort::backend::gpu) << where;
    // the tests' caps leave out of core exactly the calls that set one
    const auto path = o.max_device_bytes ? gpusort::host_path::device_out_of_core : gpusort::host_path::device_in_core;
    ASSERT_EQ(gpusort::to_string(used.path), gpusort::to_string(path)) << where;
  }
  const auto got = keys.vector();
  const bool full = o.begin_bit == 0 && o.end_bit < 0;
  if (cub_agrees(gpusort::detail::key_traits<K>::is_float,
                 o.direction == gpusort::order::descending, full)) {
    const auto want = cub_stable(in, o);
    ASSERT_TRUE(same_bits(got, want.keys)) << where << ": keys differ from CUB's stable sort";
    if (pairs) {
      ASSERT_TRUE(idx.vector() == want.idx) << where << ": indices differ from CUB's stable sort";
    }
  } else if (pairs) {
    ASSERT_TRUE(sorted_pairs_of(in, got, idx.vector(), o, true)) << where;
  } else {
    ASSERT_TRUE(sorted_keys_of(in, got, o, true)) << where;
  }
}

// A cap under which n items cannot be sorted in core: about ten runs.
template <class K> std::size_t out_of_core_cap(std::size_t n, bool pairs) {
  return n * (sizeof(K) + (pairs ? 4 : 0)) / 2;
}

template <class K> class GpuHostPipeline : public gpu_test {};
TYPED_TEST_SUITE(GpuHostPipeline, key_types, key_name);

TYPED_TEST(GpuHostPipeline, InCoreOneChunk) {
  using K = TypeParam;
  for (dist d : {dist::uniform, dist::few_unique, dist::float_special})
    for (std::size_t n : {0, 1, 2, 4097, 100003})
      for (auto dir : {gpusort::order::ascending, gpusort::order::descending})
        for (memory kind : {memory::pageable, memory::pinned})
          for (bool pairs : {false, true}) check<K>("in core", d, n, make_options(dir), kind, pairs);
  check<K>("in core", dist::uniform, 30001, make_options(gpusort::order::descending, 3, width_of<K> - 1),
           memory::pageable, true);
}

TYPED_TEST(GpuHostPipeline, OutOfCore) {
  using K = TypeParam;
  const std::size_t n = 300007;
  for (dist d : {dist::uniform, dist::equal, dist::few_unique, dist::sorted, dist::reverse, dist::float_special})
    for (auto dir : {gpusort::order::ascending, gpusort::order::descending})
      for (memory kind : {memory::pageable, memory::pinned})
        for (bool pairs : {false, true}) {
          auto o = make_options(dir);
          o.max_device_bytes = out_of_core_cap<K>(n, pairs);
          check<K>("out of core", d, n, o, kind, pairs);
        }
  auto o = make_options(gpusort::order::ascending, 3, width_of<K> - 1);
  o.max_device_bytes = out_of_core_cap<K>(n, true);
  check<K>("out of core", dist::uniform, n, o, memory::pinned, true);
}

class GpuHostPipelineMerge : public gpu_test {};

// Enough items for several chunks: merged pair by pair, streamed out (the
// first case is also the sanitizer's).
const std::size_t merged_n = (std::size_t(3) << 22) + 12345;
TEST_F(GpuHostPipelineMerge, MergedKeys) {
  check<std::uint32_t>("merged", dist::uniform, merged_n, make_options(gpusort::order::ascending), memory::pageable,
                       false);
}
TEST_F(GpuHostPipelineMerge, ChunksMergedOnTheDevice) {
  const std::size_t n = merged_n;
  check<float>("merged", dist::float_special, n, make_options(gpusort::order::descending), memory::pinned, true);
  check<std::uint64_t>("merged", dist::zipf, n, make_options(gpusort::order::ascending), memory::pageable, true);
  check<std::int16_t>("merged", dist::few_unique, n, make_options(gpusort::order::descending), memory::pinned, false);
  check<double>("merged", dist::sorted, n, make_options(gpusort::order::ascending), memory::pinned, true);
}

// Values of a width without a payload type (12 bytes): one chunk in core;
// runs and pieces out of core. Checked against the stable oracle.
TEST_F(GpuHostPipelineMerge, OddValueWidths) {
  for (std::size_t cap : {std::size_t(0), std::size_t(400000)}) {
    const std::size_t n = 50001;
    auto o = make_options(gpusort::order::descending);
    o.max_device_bytes = cap;
    const auto in = h::generate<std::int32_t>(dist::few_unique, n, 3);
    auto keys = in;
    std::vector<value12> vals(n);
    for (std::size_t i = 0; i < n; ++i) vals[i] = make_value<value12>(i);
    ASSERT_EQ(gpusort::sort(std::span<std::int32_t>(keys), std::span<value12>(vals), o), gpusort::backend::gpu);
    const stable_oracle<std::int32_t> want(in, o);
    ASSERT_TRUE(same_bits(keys, want.keys)) << "cap " << cap;
    for (std::size_t i = 0; i < n; ++i) ASSERT_TRUE(same_value(vals[i], make_value<value12>(want.idx[i]))) << i;
  }
}

// A cap that holds no useful slot: the CPU sorts instead, and says so.
TEST_F(GpuHostPipelineMerge, TinyCapFallsBackToTheCpu) {
  auto o = make_options(gpusort::order::ascending);
  o.max_device_bytes = 4096;
  const auto in = h::generate<std::uint32_t>(dist::uniform, 100000, 4);
  auto keys = in;
  const auto used = gpusort::sort(std::span<std::uint32_t>(keys), o);
  EXPECT_EQ(used, gpusort::backend::cpu_parallel);
  EXPECT_EQ(used.path, gpusort::host_path::cpu);
  EXPECT_TRUE(sorted_keys_of(in, keys, o, true));
}

// Keys already in device memory are sorted in place there.
TEST_F(GpuHostPipelineMerge, DeviceMemorySortsInPlace) {
  const auto in = h::generate<std::uint64_t>(dist::uniform, 77777, 6);
  device_buffer<std::uint64_t> d(in);
  const auto o = make_options(gpusort::order::ascending);
  const auto used = gpusort::sort(std::span<std::uint64_t>(d.data(), d.size()), o);
  EXPECT_EQ(used, gpusort::backend::gpu);
  EXPECT_EQ(used.path, gpusort::host_path::device_resident);
  EXPECT_TRUE(same_bits(d.download(), cub_stable(in, o).keys));
}

// The pinned staging slots are cached between calls; a call on another
// device must not take a set whose events belong to the first (they cannot
// be recorded on its streams). Needs two GPUs.
TEST_F(GpuHostPipelineMerge, StagingOnTwoDevices) {
  int devices = 0;
  GPUSORT_CUDA(cudaGetDeviceCount(&devices));
  if (devices < 2) GTEST_SKIP() << "one GPU: the staging cache's devices need two";
  const auto o = make_options(gpusort::order::ascending);
  const auto in = h::generate<std::uint64_t>(dist::uniform, 3000017, 9);
  for (int dev : {0, 1, 0}) {
    GPUSORT_CUDA(cudaSetDevice(dev));
    auto keys = in;  // pageable: through the staging slots
    EXPECT_EQ(gpusort::sort(std::span<std::uint64_t>(keys), o), gpusort::backend::gpu) << "device " << dev;
    EXPECT_TRUE(sorted_keys_of(in, keys, o, true)) << "device " << dev;
  }
  GPUSORT_CUDA(cudaSetDevice(0));
}

// An unstable chunk sort (quicksort) still gives the sorted multiset.
TEST_F(GpuHostPipelineMerge, UnstableAlgorithm) {
  for (std::size_t cap : {std::size_t(0), std::size_t(600000)}) {
    auto o = make_options(gpusort::order::ascending, 0, -1, gpusort::algorithm::quick);
    o.max_device_bytes = cap;
    const auto in = h::generate<float>(dist::float_special, 300007, 8);
    auto keys = in;
    ASSERT_EQ(gpusort::sort(std::span<float>(keys), o), gpusort::backend::gpu);
    ASSERT_TRUE(sorted_keys_of(in, keys, o, false)) << "cap " << cap;
  }
}

// The out-of-core run at scale: GPUSORT_HUGE_HOST_ITEMS u64 keys (e.g. 2^33)
// in pageable memory (pinned with GPUSORT_HUGE_HOST_PINNED=1) under a 16 GiB
// cap, checked as sorted and as the same multiset (a sum and an xor of
// hashes). Minutes and 64 GiB of RAM, so only when asked for.
TEST_F(GpuHostPipelineMerge, HugeOutOfCore) {
  const char* items = std::getenv("GPUSORT_HUGE_HOST_ITEMS");
  if (!items) GTEST_SKIP() << "set GPUSORT_HUGE_HOST_ITEMS (e.g. 8589934592) to run the out-of-core scale test";
  const std::size_t n = std::stoull(items);
  const char* pin = std::getenv("GPUSORT_HUGE_HOST_PINNED");
  const bool pinned = pin && std::string(pin) == "1";
  struct host_free {
    bool pinned;
    void operator()(std::uint64_t* p) const {
      if (pinned) cudaFreeHost(p);
      else delete[] p;
    }
  };
  std::unique_ptr<std::uint64_t[], host_free> keys(nullptr, host_free{pinned});
  if (pinned) {
    void* p = nullptr;
    ASSERT_EQ(cudaMallocHost(&p, n * sizeof(std::uint64_t)), cudaSuccess);
    keys.reset(static_cast<std::uint64_t*>(p));
  } else {
    keys.reset(new std::uint64_t[n]);
  }
  std::uint64_t sum0 = 0, xor0 = 0;
#pragma omp parallel for reduction(+ : sum0) reduction(^ : xor0)
  for (std::ptrdiff_t i = 0; i < std::ptrdiff_t(n); ++i) {
    keys[i] = value_hash(std::uint64_t(i) + 12345);
    sum0 += value_hash(keys[i]);
    xor0 ^= value_hash(keys[i] + 1);
  }
  auto o = make_options(gpusort::order::ascending);
  o.max_device_bytes = std::size_t(16) << 30;
  const auto t0 = std::chrono::steady_clock::now();
  ASSERT_EQ(gpusort::sort(std::span<std::uint64_t>(keys.get(), n), o), gpusort::backend::gpu);
  const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  std::uint64_t sum1 = 0, xor1 = 0, disorder = 0;
#pragma omp parallel for reduction(+ : sum1, disorder) reduction(^ : xor1)
  for (std::ptrdiff_t i = 0; i < std::ptrdiff_t(n); ++i) {
    sum1 += value_hash(keys[i]);
    xor1 ^= value_hash(keys[i] + 1);
    if (i > 0 && keys[i - 1] > keys[i]) ++disorder;
  }
  EXPECT_EQ(disorder, 0u);
  EXPECT_EQ(sum0, sum1);
  EXPECT_EQ(xor0, xor1);
  std::printf("[ huge     ] %zu u64 keys, %s, cap 16 GiB: %.3f s, %.3f Gkeys/s\n", n, pinned ? "pinned" : "pageable",
              s, n / s * 1e-9);
}

}  // namespace
