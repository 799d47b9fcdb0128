// GPU suite: the run-time typed API (runtime.hpp) that the Python package
// calls: argsort (int32 and int64 indices, within rows), sort of rows (the
// segmented sort over equal rows), both orders, in place and not; and the
// host forms on the GPU and on the CPU. The oracle is std::stable_sort of
// each row's indices under oracle_order (tests/oracle.hpp), so argsort
// must be exactly the stable permutation and sorted keys its gather.
#include "gpu_util.hpp"
#include "harness/harness.hpp"
#include "key_types.hpp"
#include "oracle.hpp"

#include <gpusort/runtime.hpp>

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <cstdint>
#include <numeric>
#include <vector>

namespace {

using namespace gpusort_test;
using gpusort::harness::dist;
namespace h = gpusort::harness;

template <class K> gpusort::key_type type_of() {
  gpusort::key_type t{};
  EXPECT_TRUE(gpusort::parse_key_type(gpusort::detail::key_info<K>::name, t));
  EXPECT_EQ(gpusort::size_of(t), sizeof(K));
  return t;
}

// Each row's stable permutation, row-local.
template <class K>
std::vector<std::int64_t> oracle_argsort(const std::vector<K>& keys, std::size_t rows, const gpusort::options& opt) {
  const oracle_order<K> ord(opt);
  const std::size_t len = rows ? keys.size() / rows : 0;
  std::vector<std::int64_t> idx(keys.size());
  for (std::size_t r = 0; r < rows; ++r) {
    auto* row = idx.data() + r * len;
    std::iota(row, row + len, std::int64_t(0));
    const K* k = keys.data() + r * len;
    std::stable_sort(row, row + len, [&](std::int64_t a, std::int64_t b) { return ord.less(k[a], k[b]); });
  }
  return idx;
}

template <class K> std::vector<K> gather_rows(const std::vector<K>& keys, std::size_t rows, const std::vector<std::int64_t>& idx) {
  const std::size_t len = rows ? keys.size() / rows : 0;
  std::vector<K> out(keys.size());
  for (std::size_t i = 0; i < keys.size(); ++i) out[i] = keys[(i / std::max<std::size_t>(len, 1)) * len + std::size_t(idx[i])];
  return out;
}

// argsort_device's indices (index_bytes 4 or 8) of the keys at `in`, read back as int64.
std::vector<std::int64_t> argsort_on_device(const gpusort::sort_spec& spec, const void* in, int index_bytes,
                                            const gpusort::options& opt) {
  device_buffer<std::uint8_t> idx(spec.n * std::size_t(index_bytes));
  std::size_t bytes = 0;
  gpusort::argsort_device(nullptr, bytes, spec, in, idx.data(), index_bytes, opt);
  device_buffer<std::uint8_t> temp(bytes);
  gpusort::argsort_device(temp.data(), bytes, spec, in, idx.data(), index_bytes, opt);
  const std::vector<std::uint8_t> raw = idx.download();
  std::vector<std::int64_t> got(spec.n);
  for (std::size_t i = 0; i < spec.n; ++i) {
    if (index_bytes == 8) std::memcpy(&got[i], raw.data() + i * 8, 8);
    else {
      std::int32_t v;
      std::memcpy(&v, raw.data() + i * 4, 4);
      got[i] = v;
    }
  }
  return got;
}

struct shape {
  std::size_t rows, len;
};
constexpr shape shapes[] = {{1, 0}, {1, 1}, {1, 4999}, {37, 129}, {3, 4097}, {1000, 16}, {2, 70000}};

template <class K> class GpuRuntime : public gpu_test {};
TYPED_TEST_SUITE(GpuRuntime, key_types, key_name);

TYPED_TEST(GpuRuntime, ArgsortAndRowsMatchTheStableOracle) {
  using K = TypeParam;
  for (const shape s : shapes) {
    for (const bool desc : {false, true}) {
      const std::size_t n = s.rows * s.len;
      const std::vector<K> keys = h::generate<K>(desc ? dist::few_unique : dist::uniform, n, 7 + n);
      gpusort::options opt;
      opt.direction = desc ? gpusort::order::descending : gpusort::order::ascending;
      const gpusort::sort_spec spec{type_of<K>(), n, s.rows};
      const std::vector<std::int64_t> want = oracle_argsort(keys, s.rows, opt);
      const std::vector<K> want_keys = gather_rows(keys, s.rows, want);
      device_buffer<K> in(keys), out(n);
      for (const int ib : {4, 8})
        ASSERT_EQ(argsort_on_device(spec, in.data(), ib, opt), want)
            << "argsort rows=" << s.rows << " len=" << s.len << " desc=" << desc << " int" << ib * 8;
      std::size_t bytes = 0;
      gpusort::sort_device(nullptr, bytes, spec, in.data(), out.data(), nullptr, nullptr, 0, opt);
      device_buffer<std::uint8_t> temp(bytes);
      gpusort::sort_device(temp.data(), bytes, spec, in.data(), out.data(), nullptr, nullptr, 0, opt);
      ASSERT_TRUE(same_bits(out.download(), want_keys)) << "sort rows=" << s.rows << " len=" << s.len;
      std::size_t in_place_bytes = 0;  // in place stages a copy: its own query
      gpusort::sort_device(nullptr, in_place_bytes, spec, in.data(), in.data(), nullptr, nullptr, 0, opt);
      device_buffer<std::uint8_t> in_place_temp(in_place_bytes);
      gpusort::sort_device(in_place_temp.data(), in_place_bytes, spec, in.data(), in.data(), nullptr, nullptr, 0, opt);
      ASSERT_TRUE(same_bits(in.download(), want_keys)) << "in place rows=" << s.rows << " len=" << s.len;
    }
  }
}

// 8-byte keys from 2^22 on, where the automatic choice for integers is
// radix_msd: argsort's sorted keys fill the int64 output and iota lies in
// scratch (its other layouts run in the shapes above).
TYPED_TEST(GpuRuntime, ArgsortOfManyWideKeys) {
  using K = TypeParam;
  if constexpr (sizeof(K) != 8) {
    GTEST_SKIP() << "8-byte keys only";
  } else {
    const std::size_t n = (std::size_t(1) << 22) + 3;
    const std::vector<K> keys = h::generate<K>(dist::few_unique, n, 13);
    const gpusort::options opt;
    const gpusort::sort_spec spec{type_of<K>(), n, 1};
    const std::vector<std::int64_t> want = oracle_argsort(keys, 1, opt);
    device_buffer<K> in(keys);
    for (const int ib : {4, 8}) EXPECT_TRUE(argsort_on_device(spec, in.data(), ib, opt) == want) << "int" << ib * 8;
  }
}

// argsort's form (core/device_call.hpp) through onesweep's passes, and made
// around the families that do not take it. Past onesweep's one-block sizes
// the plan sorts every digit (uniform), an odd count (bits20: three digits
// of 4- and 8-byte integers, so that the output holds keys between passes
// and the last pass reads scratch), or none (sorted, equal: the copy launch
// makes the indices; reversed: the reversal does); NaNs largest and by
// their bits; int32 and int64 indices, the int64 ones widened by the last
// pass.
TYPED_TEST(GpuRuntime, ArgsortFormThroughThePasses) {
  using K = TypeParam;
  using gpusort::algorithm;
  struct one {
    dist d;
    std::size_t n;
    bool desc, nans_largest;
    algorithm algo;
  };
  const std::size_t big = (std::size_t(1) << 20) + 3;
  const one cases[] = {
      {dist::uniform, 70001, false, false, algorithm::radix_onesweep},
      {dist::uniform, 70001, true, true, algorithm::radix_onesweep},
      {dist::bits20, 70001, false, false, algorithm::radix_onesweep},
      {dist::bits20, big, true, false, algorithm::automatic},
      {dist::sorted, 70001, false, true, algorithm::radix_onesweep},
      {dist::equal, 70001, true, false, algorithm::radix_onesweep},
      {dist::reverse, 70001, false, true, algorithm::radix_onesweep},  // the reversal makes them
      {dist::reverse, big, true, false, algorithm::radix_onesweep},    // descending: the copy
      {dist::few_unique, 70001, false, false, algorithm::radix_onesweep},
      {dist::float_special, 70001, true, true, algorithm::radix_onesweep},
      {dist::float_special, 70001, false, false, algorithm::radix_onesweep},
      {dist::uniform, big, false, true, algorithm::automatic},
      {dist::uniform, 3000, true, false, algorithm::radix_onesweep},  // one block: made around
      {dist::zipf, 70001, false, false, algorithm::merge_path},       // made around
  };
  for (const one& c : cases) {
    const std::vector<K> keys = h::generate<K>(c.d, c.n, 29 + c.n);
    gpusort::options opt;
    opt.direction = c.desc ? gpusort::order::descending : gpusort::order::ascending;
    opt.nans = c.nans_largest ? gpusort::nan_order::largest : gpusort::nan_order::bits;
    opt.algo = c.algo;
    const gpusort::sort_spec spec{type_of<K>(), c.n, 1};
    const std::vector<std::int64_t> want = oracle_argsort(keys, 1, opt);
    device_buffer<K> in(keys);
    for (const int ib : {4, 8})
      EXPECT_TRUE(argsort_on_device(spec, in.data(), ib, opt) == want)
          << h::to_string(c.d) << " n=" << c.n << " desc=" << c.desc << " algo=" << gpusort::to_string(c.algo)
          << " int" << ib * 8;
    EXPECT_TRUE(same_bits(in.download(), keys)) << "the keys changed";
  }
}

// Doubles under NaNs largest in radix_msd: the NaN-folding local sort takes
// the edge run alone (the last ascending, the first descending), the
// instance by the bits every other run. NaNs of both signs with random
// payloads, +-0 and +-inf among normal keys, from none to a third of them
// (then the NaNs' bucket is a copy run), in one local sort and through the
// levels; argsort (int32 and int64) and the sorted keys, both orders,
// against the stable oracle.
std::vector<double> with_specials(std::size_t n, double nan_share, unsigned seed) {
  std::vector<double> keys = h::generate<double>(dist::normal, n, seed);
  std::uint64_t x = 0x9E3779B97F4A7C15ull * (seed + 1);
  auto next = [&] {
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    return x;
  };
  for (double& k : keys) {
    const double u = double(next() >> 11) * 0x1.0p-53;
    if (u < nan_share) {  // a NaN: either sign, a payload of any width
      const std::uint64_t bits = 0x7FF0000000000000ull | (next() & 0x000FFFFFFFFFFFFFull) | 1ull |
                                 (next() & 1 ? 0x8000000000000000ull : 0);
      std::memcpy(&k, &bits, 8);
    } else if (u < nan_share + 0.002) {
      const double specials[] = {0.0, -0.0, INFINITY, -INFINITY};
      k = specials[next() % 4];
    }
  }
  return keys;
}

class GpuRadixMsdNanEdge : public gpu_test {};
TEST_F(GpuRadixMsdNanEdge, DoublesNansLargest) {
  struct one {
    std::size_t n;
    double nan_share;
  };
  const one cases[] = {{3001, 0.01}, {3001, 0.0}, {1500001, 0.0}, {1500001, 0.001}, {1500001, 0.34},
                       {(std::size_t(1) << 22) + 5, 0.01}, {700003, 1.0}};
  for (const one& c : cases)
    for (const bool desc : {false, true}) {
      const std::vector<double> keys = with_specials(c.n, c.nan_share, unsigned(c.n % 1000 + desc));
      gpusort::options opt;
      opt.direction = desc ? gpusort::order::descending : gpusort::order::ascending;
      opt.nans = gpusort::nan_order::largest;
      opt.algo = gpusort::algorithm::radix_msd;
      const gpusort::sort_spec spec{gpusort::key_type::f64, c.n, 1};
      const std::vector<std::int64_t> want = oracle_argsort(keys, 1, opt);
      device_buffer<double> in(keys), out(c.n);
      for (const int ib : {4, 8})
        EXPECT_TRUE(argsort_on_device(spec, in.data(), ib, opt) == want)
            << "n=" << c.n << " NaN share " << c.nan_share << " desc=" << desc << " int" << ib * 8;
      std::size_t bytes = 0;
      gpusort::sort_device(nullptr, bytes, spec, in.data(), out.data(), nullptr, nullptr, 0, opt);
      device_buffer<std::uint8_t> temp(bytes);
      gpusort::sort_device(temp.data(), bytes, spec, in.data(), out.data(), nullptr, nullptr, 0, opt);
      EXPECT_TRUE(same_bits(out.download(), gather_rows(keys, 1, want)))
          << "sort n=" << c.n << " NaN share " << c.nan_share << " desc=" << desc;
    }
}

// Few enough cases for compute-sanitizer (memcheck, racecheck; picked up by
// --gtest_filter='GpuSanitize*'): argsort's form through onesweep's passes,
// every digit sorted, none (the copy launch) and few values (the counting
// pass), int32 and int64 indices.
class GpuSanitizeArgsort : public gpu_test {};
TEST_F(GpuSanitizeArgsort, FormThroughThePasses) {
  for (const dist d : {dist::uniform, dist::sorted, dist::few_unique}) {
    const std::size_t n = 70001;
    const std::vector<float> keys = h::generate<float>(d, n, 3);
    gpusort::options opt;
    opt.algo = gpusort::algorithm::radix_onesweep;
    opt.nans = gpusort::nan_order::largest;
    const gpusort::sort_spec spec{gpusort::key_type::f32, n, 1};
    const std::vector<std::int64_t> want = oracle_argsort(keys, 1, opt);
    device_buffer<float> in(keys);
    for (const int ib : {4, 8}) EXPECT_TRUE(argsort_on_device(spec, in.data(), ib, opt) == want) << "int" << ib * 8;
  }
}

// The indices written over the keys themselves (Python's argsort(x, out=x)
// for int32 and int64 keys): the working data then lies in scratch.
TEST_F(gpu_test, GpuRuntimeArgsortOverItsKeys) {
  for (const std::size_t rows : {std::size_t(1), std::size_t(3)}) {
    const std::size_t n = 3 * 70001;
    const std::vector<std::int64_t> k64 = h::generate<std::int64_t>(dist::few_unique, n, 17);
    const std::vector<std::int32_t> k32(k64.begin(), k64.end());
    const gpusort::options opt;
    const auto run = [&](auto& buf, gpusort::key_type t, int ib) {
      const gpusort::sort_spec spec{t, n, rows};
      std::size_t bytes = 0;
      gpusort::argsort_device(nullptr, bytes, spec, buf.data(), buf.data(), ib, opt);
      device_buffer<std::uint8_t> temp(bytes);
      gpusort::argsort_device(temp.data(), bytes, spec, buf.data(), buf.data(), ib, opt);
      return buf.download();
    };
    device_buffer<std::int64_t> b64(k64);
    EXPECT_EQ(run(b64, gpusort::key_type::i64, 8), oracle_argsort(k64, rows, opt)) << "rows=" << rows;
    device_buffer<std::int32_t> b32(k32);
    const std::vector<std::int64_t> want = oracle_argsort(k32, rows, opt);
    EXPECT_EQ(run(b32, gpusort::key_type::i32, 4), std::vector<std::int32_t>(want.begin(), want.end())) << "rows=" << rows;
  }
}

TYPED_TEST(GpuRuntime, HostFormsOnTheGpuAndTheCpu) {
  using K = TypeParam;
  for (const shape s : {shape{1, 100003}, shape{64, 300}}) {
    const std::size_t n = s.rows * s.len;
    const std::vector<K> keys = h::generate<K>(dist::few_unique, n, 11);
    const gpusort::options opt;
    const gpusort::sort_spec spec{type_of<K>(), n, s.rows};
    const std::vector<std::int64_t> want = oracle_argsort(keys, s.rows, opt);
    for (const bool cpu : {false, true}) {
      std::vector<std::int64_t> idx(n);
      gpusort::argsort_host(spec, keys.data(), idx.data(), 8, opt, cpu);
      ASSERT_EQ(idx, want) << "rows=" << s.rows << (cpu ? " cpu" : " gpu");
      std::vector<K> out(n);
      std::vector<std::uint32_t> vals(n), vals_out(n);
      std::iota(vals.begin(), vals.end(), 0u);
      gpusort::sort_host(spec, keys.data(), out.data(), vals.data(), vals_out.data(), sizeof(std::uint32_t), opt, cpu);
      ASSERT_TRUE(same_bits(out, gather_rows(keys, s.rows, want)));
      for (std::size_t i = 0; i < n; ++i) ASSERT_EQ(std::int64_t(vals_out[i] % std::max<std::size_t>(s.len, 1)), want[i]);
    }
  }
}

}  // namespace

namespace {

// The run-time typed device calls launch no host synchronisation: argsort
// and the sort of rows run inside a CUDA graph capture, then replay.
TEST_F(gpu_test, GpuRuntimeGraphCapture) {
  using K = float;
  const std::size_t rows = 300, len = 257, n = rows * len;
  const std::vector<K> keys = h::generate<K>(dist::few_unique, n, 5);
  const gpusort::options base;
  const std::vector<std::int64_t> want = oracle_argsort(keys, rows, base);
  const gpusort::sort_spec spec{gpusort::key_type::f32, n, rows};
  device_buffer<K> in(keys), out(n);
  device_buffer<std::int64_t> idx(n), idx_one(n);
  cuda_stream s;
  gpusort::options opt;
  opt.stream = s.get();
  // one row too: argsort's form through onesweep's passes
  const gpusort::sort_spec one_row{gpusort::key_type::f32, n, 1};
  std::size_t a_bytes = 0, s_bytes = 0, o_bytes = 0;
  gpusort::argsort_device(nullptr, a_bytes, spec, in.data(), idx.data(), 8, opt);
  gpusort::argsort_device(nullptr, o_bytes, one_row, in.data(), idx_one.data(), 8, opt);
  gpusort::sort_device(nullptr, s_bytes, spec, in.data(), out.data(), nullptr, nullptr, 0, opt);
  device_buffer<std::uint8_t> a_temp(a_bytes), o_temp(o_bytes), s_temp(s_bytes);
  cudaGraph_t graph = nullptr;
  GPUSORT_CUDA(cudaStreamBeginCapture(s.get(), cudaStreamCaptureModeThreadLocal));
  gpusort::argsort_device(a_temp.data(), a_bytes, spec, in.data(), idx.data(), 8, opt);
  gpusort::argsort_device(o_temp.data(), o_bytes, one_row, in.data(), idx_one.data(), 8, opt);
  gpusort::sort_device(s_temp.data(), s_bytes, spec, in.data(), out.data(), nullptr, nullptr, 0, opt);
  GPUSORT_CUDA(cudaStreamEndCapture(s.get(), &graph));
  cudaGraphExec_t exec = nullptr;
  GPUSORT_CUDA(cudaGraphInstantiate(&exec, graph, 0));
  GPUSORT_CUDA(cudaGraphLaunch(exec, s.get()));
  s.sync();
  EXPECT_EQ(idx.download(), want);
  EXPECT_EQ(idx_one.download(), oracle_argsort(keys, 1, base));
  EXPECT_TRUE(same_bits(out.download(), gather_rows(keys, rows, want)));
  cudaGraphExecDestroy(exec);
  cudaGraphDestroy(graph);
}

}  // namespace
