// GPU suite: the segmented sort's API (gpusort::segmented_sort_keys /
// _pairs beyond the typed cases of gpu_segmented_test.cpp): value widths (1,
// 2, 8, 12, 16 bytes), values staged by the small classes, unsigned offsets, the size query, in place, empty
// inputs (n = 0, num_segments = 0, only empty segments), argument errors, a
// non-default stream, CUDA graph capture and more than 2^31 keys in one
// call, checked as gpu_segmented_test.cpp checks its cases (segmented_cases.hpp).
#include "segmented_cases.hpp"

#include <gtest/gtest.h>

namespace {

using namespace gpusort_test::segmented;

// ---- API tests -------------------------------------------------------------------------------

class GpuSegmentedApi : public t::gpu_test {};

// Values of 1, 2, 8, 12 and 16 bytes (make_value bytes), checked exactly
// through the oracle's permutation; on back-to-back and gapped segments.
template <class K, class V> void value_case(std::size_t k) {
  static const layout back = power_law(120000, 150, 41), gaps = gapped(120000, 42);
  const layout& L = k % 2 ? gaps : back;
  seg_case c = rotated(k, L, k % 3 ? h::dist::uniform : h::dist::few_unique, 500 + k);
  c.pairs = true;
  run_width<K, V>(L, c, k % 4 >= 2);
}

// More large segments than the one-block list walks at once (1,024), and
// more than one chunk of them with empty entries after: the large class's
// list made in one block (plan.cu), its scans carried from chunk to chunk.
TEST_F(GpuSegmentedApi, ManyLargeSegments) {
  std::vector<std::size_t> sizes(2100);  // 1,400 large
  for (std::size_t i = 0; i < sizes.size(); ++i) sizes[i] = i % 3 == 0 ? 5 + i % 200 : 4097 + (i * 37) % 6000;
  const layout L = back_to_back("2,100 segments, two thirds large", sizes);
  for (int k = 0; k < 2; ++k) {
    seg_case c = rotated(std::size_t(k), L, h::dist::uniform, 1200 + std::uint64_t(k));
    GPUSORT_CASE(run_width<std::uint32_t>(L, c, false));
  }
}

TEST_F(GpuSegmentedApi, ValueWidths) {
  for (std::size_t k = 0; k < 4; ++k) {
    GPUSORT_CASE((value_case<std::uint32_t, std::uint8_t>(k)));
    GPUSORT_CASE((value_case<std::uint32_t, std::uint16_t>(k)));
    GPUSORT_CASE((value_case<std::uint32_t, std::uint64_t>(k)));
    GPUSORT_CASE((value_case<std::uint32_t, t::value12>(k)));
    GPUSORT_CASE((value_case<std::uint32_t, t::value16>(k)));
  }
  GPUSORT_CASE((value_case<double, t::value12>(1)));
  GPUSORT_CASE((value_case<std::uint8_t, t::value16>(2)));
  GPUSORT_CASE((value_case<__half, std::uint8_t>(3)));
  GPUSORT_CASE((value_case<std::int64_t, t::value3>(0)));
}

// Values of 4 and 8 bytes, staged in shared memory by the thread and group
// classes (segmented/values.cuh): segments of 1 to 66 keys (a warp's
// segments end to end, and not: a lead of 3 keys), keys of 1, 4 and 8
// bytes, in place and not, both orders, int32 and int64 offsets.
TEST_F(GpuSegmentedApi, StagedValues) {
  std::vector<std::size_t> cycle;
  for (std::size_t i = 0; i < 9000; ++i) cycle.push_back(1 + (i * 13) % 66);
  static const layout mixed = back_to_back("sizes 1..66", cycle);
  static const layout sixteen = equal_sizes(16, 5000, 3, 0), sixty_four = equal_sizes(64, 2000, 0, 5);
  const layout* layouts[] = {&mixed, &sixteen, &sixty_four};
  for (std::size_t k = 0; k < 6; ++k) {
    const layout& L = *layouts[k % 3];
    seg_case c = rotated(k, L, k % 2 ? h::dist::uniform : h::dist::few_unique, 1300 + k);
    c.pairs = true;
    GPUSORT_CASE((run_width<std::uint32_t, std::uint64_t>(L, c, k % 2 == 0)));
    GPUSORT_CASE((run_width<std::uint64_t, std::uint64_t>(L, c, k % 2 == 1)));
    GPUSORT_CASE((run_width<std::uint8_t, std::uint64_t>(L, c, false)));
    GPUSORT_CASE((run_width<float, std::uint32_t>(L, c, true)));
    GPUSORT_CASE((run_width<std::int64_t, std::int32_t>(L, c, false)));
  }
}

// uint32 and uint64 offsets, both forms.
TEST_F(GpuSegmentedApi, UnsignedOffsets) {
  const layout back = power_law(100000, 250, 43), gaps = scattered(100000, 44);
  for (std::size_t k = 0; k < 4; ++k) {
    const layout& L = k % 2 ? gaps : back;
    const seg_case c = rotated(k, L, h::dist::uniform, 600 + k);
    GPUSORT_CASE((run_case<std::uint32_t, std::uint32_t>(L, c)));
    GPUSORT_CASE((run_case<float, std::uint64_t>(L, c)));
  }
}

// The size query is deterministic and touches neither input nor output;
// the sort then runs with exactly that scratch (every two-phase case also
// checks a guard zone after it).
TEST_F(GpuSegmentedApi, TwoPhase) {
  const layout L = gapped(80000, 45);
  const auto in = h::generate<std::uint32_t>(h::dist::uniform, L.n, 7);
  const auto poison = patterns<std::uint32_t>(L.n, 23);
  t::device_buffer<std::uint32_t> d_in(in), d_out(poison), d_vin(in), d_vout(poison);
  t::device_buffer<std::int64_t> d_b(L.begin), d_e(L.end);
  const auto opt = t::make_options(order::descending);
  std::size_t keys_bytes = 12345, again = 0, pairs_bytes = 0, in_place_bytes = 0;
  gpusort::segmented_sort_keys(nullptr, keys_bytes, d_in.data(), d_out.data(), L.n, L.segments(), d_b.data(),
                               d_e.data(), opt);
  gpusort::segmented_sort_keys(nullptr, again, d_in.data(), d_out.data(), L.n, L.segments(), d_b.data(), d_e.data(),
                               opt);
  EXPECT_EQ(keys_bytes, again) << "the size query is not deterministic";
  gpusort::segmented_sort_pairs(nullptr, pairs_bytes, d_in.data(), d_out.data(), d_vin.data(), d_vout.data(), L.n,
                                L.segments(), d_b.data(), d_e.data(), opt);
  gpusort::segmented_sort_keys(nullptr, in_place_bytes, d_in.data(), d_in.data(), L.n, L.segments(), d_b.data(),
                               d_e.data(), opt);
  t::device_sync();
  ASSERT_EQ(d_out.download(), poison) << "the size query wrote the output";
  ASSERT_EQ(d_vout.download(), poison) << "the size query wrote the output values";
  ASSERT_EQ(d_in.download(), in) << "the size query wrote the input";
  ASSERT_EQ(d_vin.download(), in) << "the size query wrote the input values";
  std::printf("[segmented] scratch for %zu u32 keys in %zu segments: keys %zu B, pairs %zu B, keys in place %zu B\n",
              L.n, L.segments(), keys_bytes, pairs_bytes, in_place_bytes);

  t::device_buffer<unsigned char> temp(keys_bytes);
  gpusort::segmented_sort_keys(temp.data(), keys_bytes, d_in.data(), d_out.data(), L.n, L.segments(), d_b.data(),
                               d_e.data(), opt);
  t::device_sync();
  const auto perm = oracle_permutation(in, L, opt);
  ASSERT_TRUE(same_output(d_out.download(), apply(perm, in, poison), L));
}

// In place, keys and pairs, both calls: the gaps keep the input.
TEST_F(GpuSegmentedApi, InPlace) {
  const layout gaps = gapped(150000, 46), back = power_law(150000, 1000, 47);
  std::size_t k = 0;
  for (const layout* L : {&gaps, &back})
    for (bool pairs : {false, true})
      for (api call : {api::two_phase, api::allocating}) {
        seg_case c;
        c.d = h::dist::float_special;
        c.seed = 700 + k;
        c.dir = both_orders[k % 2];
        c.pairs = pairs;
        c.call = call;
        c.in_place = true;
        c.one_array = L->contiguous() && k % 3 != 0;
        GPUSORT_CASE((run_width<float>(*L, c, k % 2 == 0)));
        GPUSORT_CASE((run_width<std::uint16_t>(*L, c, k % 2 == 1)));
        ++k;
      }
}

// n = 0, num_segments = 0 and only empty segments: valid, and nothing
// changes (run_case checks that the output is still the sentinel).
TEST_F(GpuSegmentedApi, EmptyInputs) {
  // n = 0 and no segments: null pointers everywhere are fine.
  const auto opt = t::make_options(order::ascending);
  std::uint32_t* null = nullptr;
  const std::int32_t* no_offsets = nullptr;
  std::size_t bytes = 0;
  EXPECT_NO_THROW(gpusort::segmented_sort_keys(nullptr, bytes, null, null, 0, 0, no_offsets, no_offsets, opt));
  EXPECT_NO_THROW(gpusort::segmented_sort_keys(null, null, 0, 0, no_offsets, no_offsets, opt));
  EXPECT_NO_THROW(gpusort::segmented_sort_keys(null, null, 0, 0, no_offsets, opt));
  EXPECT_NO_THROW(gpusort::segmented_sort_pairs(nullptr, bytes, null, null, null, null, 0, 0, no_offsets, opt));
  EXPECT_NO_THROW(gpusort::segmented_sort_pairs(null, null, null, null, 0, 0, no_offsets, no_offsets, opt));
  t::device_sync();

  layout none_;  // no segments over 1000 keys
  none_.name = "no segments";
  none_.n = 1000;
  const layout& none = none_;
  const layout zero_n = only_empty(0, 5, 48);  // n = 0, empty segments at 0
  const layout empties = only_empty(5000, 300, 49);
  std::size_t k = 0;
  for (const layout* L : {&none, &zero_n, &empties})
    for (bool pairs : {false, true})
      for (api call : {api::two_phase, api::allocating}) {
        seg_case c;
        c.seed = 800 + k;
        c.pairs = pairs;
        c.call = call;
        c.dir = both_orders[k % 2];
        c.one_array = L->contiguous() && k % 2 == 0;
        c.in_place = k % 3 == 2;
        GPUSORT_CASE((run_width<std::uint64_t>(*L, c, k % 4 < 2)));
        ++k;
      }
}


// Null data pointers with n > 0, null offsets with segments to sort, and
// bad bit ranges: errc::invalid_argument, and nothing is written.
TEST_F(GpuSegmentedApi, ArgumentErrors) {
  using gpusort::errc;
  using gpusort::segmented_sort_keys;
  using gpusort::segmented_sort_pairs;
  using u32 = std::uint32_t;
  using i32 = std::int32_t;
  constexpr std::size_t n = 64, num = 4;
  const auto in = h::generate<u32>(h::dist::uniform, n, 9);
  t::device_buffer<u32> k(in), o(n), v(in), vo(n);
  t::device_buffer<i32> offs(std::vector<i32>{0, 16, 32, 48, 64});
  const u32* null_c = nullptr;
  u32* null_m = nullptr;
  const i32* null_o = nullptr;
  const i32* b = offs.data();
  const i32* e = offs.data() + 1;
  std::size_t bytes = 0;
  segmented_sort_pairs(nullptr, bytes, k.data(), o.data(), v.data(), vo.data(), n, num, b, e);
  t::device_buffer<unsigned char> temp(bytes + 256);
  bytes += 256;
  void* tp = temp.data();
  o.fill_bytes(0xA5);
  const auto poisoned = o.download();

  // keys: two-phase (run phase) and allocating, both forms
  EXPECT_GPUSORT_ERROR(segmented_sort_keys(tp, bytes, null_c, o.data(), n, num, b, e), errc::invalid_argument);
  EXPECT_GPUSORT_ERROR(segmented_sort_keys(tp, bytes, k.data(), null_m, n, num, b, e), errc::invalid_argument);
  EXPECT_GPUSORT_ERROR(segmented_sort_keys(tp, bytes, null_c, null_m, n, num, b), errc::invalid_argument);
  EXPECT_GPUSORT_ERROR(segmented_sort_keys(null_c, o.data(), n, num, b, e), errc::invalid_argument);
  EXPECT_GPUSORT_ERROR(segmented_sort_keys(k.data(), null_m, n, num, b), errc::invalid_argument);
  // pairs: each pointer
  EXPECT_GPUSORT_ERROR(segmented_sort_pairs(tp, bytes, null_c, o.data(), v.data(), vo.data(), n, num, b, e),
                   errc::invalid_argument);
  EXPECT_GPUSORT_ERROR(segmented_sort_pairs(tp, bytes, k.data(), null_m, v.data(), vo.data(), n, num, b, e),
                   errc::invalid_argument);
  EXPECT_GPUSORT_ERROR(segmented_sort_pairs(tp, bytes, k.data(), o.data(), null_c, vo.data(), n, num, b, e),
                   errc::invalid_argument);
  EXPECT_GPUSORT_ERROR(segmented_sort_pairs(tp, bytes, k.data(), o.data(), v.data(), null_m, n, num, b),
                   errc::invalid_argument);
  EXPECT_GPUSORT_ERROR(segmented_sort_pairs(k.data(), o.data(), null_c, vo.data(), n, num, b, e), errc::invalid_argument);
  EXPECT_GPUSORT_ERROR(segmented_sort_pairs(k.data(), o.data(), v.data(), null_m, n, num, b), errc::invalid_argument);
  // null offsets with segments to sort
  EXPECT_GPUSORT_ERROR(segmented_sort_keys(tp, bytes, k.data(), o.data(), n, num, null_o, e), errc::invalid_argument);
  EXPECT_GPUSORT_ERROR(segmented_sort_keys(tp, bytes, k.data(), o.data(), n, num, b, null_o), errc::invalid_argument);
  EXPECT_GPUSORT_ERROR(segmented_sort_keys(tp, bytes, k.data(), o.data(), n, num, null_o), errc::invalid_argument);
  EXPECT_GPUSORT_ERROR(segmented_sort_keys(k.data(), o.data(), n, num, null_o, e), errc::invalid_argument);
  EXPECT_GPUSORT_ERROR(segmented_sort_pairs(k.data(), o.data(), v.data(), vo.data(), n, num, b, null_o),
                   errc::invalid_argument);
  // bad bit ranges, as for sort_keys
  for (auto [bb, eb] : {std::pair{-1, 32}, {0, 33}, {8, 8}, {31, 2}}) {
    SCOPED_TRACE("bits [" + std::to_string(bb) + "," + std::to_string(eb) + ")");
    const auto opt = t::make_options(order::ascending, bb, eb);
    EXPECT_GPUSORT_ERROR(segmented_sort_keys(tp, bytes, k.data(), o.data(), n, num, b, e, opt), errc::invalid_argument);
    EXPECT_GPUSORT_ERROR(segmented_sort_keys(k.data(), o.data(), n, num, b, opt), errc::invalid_argument);
    EXPECT_GPUSORT_ERROR(segmented_sort_pairs(k.data(), o.data(), v.data(), vo.data(), n, num, b, e, opt),
                     errc::invalid_argument);
  }
  t::device_sync();
  EXPECT_EQ(o.download(), poisoned) << "a rejected call wrote the output";
  EXPECT_EQ(k.download(), in) << "a rejected call wrote the input";
  // The device is still usable.
  segmented_sort_keys(k.data(), o.data(), n, num, b);
  t::device_sync();
  auto want = in;
  for (std::size_t s = 0; s < num; ++s) std::sort(want.begin() + 16 * s, want.begin() + 16 * (s + 1));
  EXPECT_EQ(o.download(), want) << "after the rejected calls";
}

// Everything queued on a non-blocking stream (async copies around the
// sort), and only that stream waited for.
TEST_F(GpuSegmentedApi, NonDefaultStream) {
  const layout L = power_law(200000, 700, 50);
  t::cuda_stream stream;
  auto opt = t::make_options(order::descending);
  opt.stream = stream.get();
  const auto in = h::generate<std::uint64_t>(h::dist::uniform, L.n, 51);
  t::pinned_buffer<std::uint64_t> host_in(L.n), host_out(L.n);
  std::copy(in.begin(), in.end(), host_in.data());
  std::vector<std::int32_t> offs(L.begin.begin(), L.begin.end());
  offs.push_back(std::int32_t(L.n));
  t::device_buffer<std::int32_t> d_offs(offs);
  t::device_buffer<std::uint64_t> d_in(L.n), d_out(L.n);
  for (int round = 0; round < 2; ++round) {
    GPUSORT_CUDA(cudaMemcpyAsync(d_in.data(), host_in.data(), L.n * 8, cudaMemcpyHostToDevice, stream.get()));
    if (round == 0) {
      gpusort::segmented_sort_keys(d_in.data(), d_out.data(), L.n, L.segments(), d_offs.data(), opt);
    } else {
      std::size_t bytes = 0;
      gpusort::segmented_sort_keys(nullptr, bytes, d_in.data(), d_out.data(), L.n, L.segments(), d_offs.data(), opt);
      void* temp = nullptr;
      GPUSORT_CUDA(cudaMallocAsync(&temp, bytes ? bytes : 1, stream.get()));
      gpusort::segmented_sort_keys(temp, bytes, d_in.data(), d_out.data(), L.n, L.segments(), d_offs.data(), opt);
      GPUSORT_CUDA(cudaFreeAsync(temp, stream.get()));
    }
    GPUSORT_CUDA(cudaMemcpyAsync(host_out.data(), d_out.data(), L.n * 8, cudaMemcpyDeviceToHost, stream.get()));
    GPUSORT_CUDA(cudaMemsetAsync(d_out.data(), 0, L.n * 8, stream.get()));
    stream.sync();
    const std::vector<std::uint64_t> out(host_out.data(), host_out.data() + L.n);
    ASSERT_TRUE(same_output(out, apply(oracle_permutation(in, L, opt), in, in), L)) << "round " << round;
  }
}

// A CUDA graph: two two-phase calls (keys out of place with begin/end
// int32 offsets; pairs in place with one-array int64 offsets) captured on a
// non-default stream in global capture mode (any synchronising or
// allocating call would break the capture), scratch allocated before, the
// graph launched twice with the input restored and the output re-poisoned
// in between.
class graph_holder {
 public:
  ~graph_holder() {
    if (exec) cudaGraphExecDestroy(exec);
    if (graph) cudaGraphDestroy(graph);
  }
  cudaGraph_t graph = nullptr;
  cudaGraphExec_t exec = nullptr;
};

TEST_F(GpuSegmentedApi, GraphCapture) {
  t::cuda_stream stream;
  // L2 holds one segment of n / 2 keys: the large class (onesweep passes
  // over segment chains) is captured too
  const layout L1 = gapped(150000, 52), L2 = half_and_small(120000, 53);
  auto opt1 = t::make_options(order::ascending), opt2 = t::make_options(order::descending);
  opt1.stream = opt2.stream = stream.get();

  const auto in1 = h::generate<std::uint32_t>(h::dist::uniform, L1.n, 54);
  const auto poison1 = patterns<std::uint32_t>(L1.n, 24);
  std::vector<std::int32_t> b1(L1.begin.begin(), L1.begin.end()), e1(L1.end.begin(), L1.end.end());
  t::device_buffer<std::uint32_t> d_in1(in1), d_out1(poison1), d_poison1(poison1);
  t::device_buffer<std::int32_t> d_b1(b1), d_e1(e1);

  const auto keys2 = h::generate<float>(h::dist::float_special, L2.n, 55);
  std::vector<std::uint32_t> vals2(L2.n);
  std::iota(vals2.begin(), vals2.end(), 0u);
  std::vector<std::int64_t> offs2(L2.begin);
  offs2.push_back(std::int64_t(L2.n));
  t::device_buffer<float> d_k2(keys2), d_k2_pristine(keys2);
  t::device_buffer<std::uint32_t> d_v2(vals2), d_v2_pristine(vals2);
  t::device_buffer<std::int64_t> d_offs2(offs2);

  std::size_t bytes1 = 0, bytes2 = 0;
  gpusort::segmented_sort_keys(nullptr, bytes1, d_in1.data(), d_out1.data(), L1.n, L1.segments(), d_b1.data(),
                               d_e1.data(), opt1);
  gpusort::segmented_sort_pairs(nullptr, bytes2, d_k2.data(), d_k2.data(), d_v2.data(), d_v2.data(), L2.n,
                                L2.segments(), d_offs2.data(), opt2);
  t::device_buffer<unsigned char> temp1(bytes1), temp2(bytes2);
  t::device_sync();

  graph_holder g;
  GPUSORT_CUDA(cudaStreamBeginCapture(stream.get(), cudaStreamCaptureModeGlobal));
  try {
    gpusort::segmented_sort_keys(temp1.data(), bytes1, d_in1.data(), d_out1.data(), L1.n, L1.segments(), d_b1.data(),
                                 d_e1.data(), opt1);
    gpusort::segmented_sort_pairs(temp2.data(), bytes2, d_k2.data(), d_k2.data(), d_v2.data(), d_v2.data(), L2.n,
                                  L2.segments(), d_offs2.data(), opt2);
  } catch (...) {
    cudaStreamEndCapture(stream.get(), &g.graph);
    cudaGetLastError();
    throw;
  }
  GPUSORT_CUDA(cudaStreamEndCapture(stream.get(), &g.graph));
  GPUSORT_CUDA(cudaGraphInstantiate(&g.exec, g.graph, 0));

  const auto want1 = apply(oracle_permutation(in1, L1, opt1), in1, poison1);
  const auto perm2 = oracle_permutation(keys2, L2, opt2);
  const auto want_k2 = apply(perm2, keys2, keys2);
  const auto want_v2 = apply(perm2, vals2, vals2);
  for (int launch = 0; launch < 2; ++launch) {
    if (launch > 0) {
      GPUSORT_CUDA(cudaMemcpyAsync(d_k2.data(), d_k2_pristine.data(), L2.n * sizeof(float), cudaMemcpyDeviceToDevice,
                                   stream.get()));
      GPUSORT_CUDA(cudaMemcpyAsync(d_v2.data(), d_v2_pristine.data(), L2.n * 4, cudaMemcpyDeviceToDevice,
                                   stream.get()));
      GPUSORT_CUDA(cudaMemcpyAsync(d_out1.data(), d_poison1.data(), L1.n * 4, cudaMemcpyDeviceToDevice, stream.get()));
    }
    GPUSORT_CUDA(cudaGraphLaunch(g.exec, stream.get()));
    stream.sync();
    t::device_sync();
    ASSERT_TRUE(same_output(d_out1.download(), want1, L1)) << "launch " << launch << ": u32 keys, begin/end offsets";
    ASSERT_TRUE(same_output(d_k2.download(), want_k2, L2)) << "launch " << launch << ": f32 keys in place";
    ASSERT_TRUE(same_output(d_v2.download(), want_v2, L2)) << "launch " << launch << ": values in place";
    ASSERT_EQ(d_in1.download(), in1) << "launch " << launch << ": the input was modified";
  }
}

// More than 2^31 keys in one call: u8 keys in segments of 1..2000 keys and
// a last segment of 300M keys that crosses index 2^31, int64 offsets.
// Checked per segment by counting (u8 keys: the sorted segment is fixed by
// its key counts).
TEST_F(GpuSegmentedApi, MoreThan2To31Keys) {
  using u8 = std::uint8_t;
  const std::size_t n = (std::size_t(1) << 31) + 1000, big = 300000000;
  std::vector<std::int64_t> offs{0};
  rng r{56};
  while (std::size_t(offs.back()) < n - big)
    offs.push_back(std::min<std::int64_t>(offs.back() + 1 + std::int64_t(r.below(2000)), std::int64_t(n - big)));
  offs.push_back(std::int64_t(n));
  const std::size_t num = offs.size() - 1;

  std::size_t free_b = 0, total_b = 0;
  GPUSORT_CUDA(cudaMemGetInfo(&free_b, &total_b));
  const std::size_t margin = std::size_t(1) << 30;
  const std::size_t data_bytes = 2 * n + offs.size() * 8;
  if (free_b < data_bytes + margin)
    GTEST_SKIP() << "needs " << (data_bytes + margin) / (1u << 20) << " MiB of device memory for its data, "
                 << free_b / (1u << 20) << " MiB free";
  const auto opt = t::make_options(order::ascending);
  const auto in = h::generate<u8>(h::dist::uniform, n, 57);
  t::device_buffer<u8> d_in(in), d_out(n);
  t::device_buffer<std::int64_t> d_offs(offs);
  std::size_t bytes = 0;
  gpusort::segmented_sort_keys(nullptr, bytes, d_in.data(), d_out.data(), n, num, d_offs.data(), opt);
  GPUSORT_CUDA(cudaMemGetInfo(&free_b, &total_b));
  if (free_b < bytes + margin)
    GTEST_SKIP() << "the sort asks for " << bytes / (1u << 20) << " MiB of scratch, " << free_b / (1u << 20)
                 << " MiB free";
  {
    t::device_buffer<unsigned char> temp(bytes);
    gpusort::segmented_sort_keys(temp.data(), bytes, d_in.data(), d_out.data(), n, num, d_offs.data(), opt);
    t::device_sync();
  }
  const auto out = d_out.download();
  ASSERT_TRUE(same_bytes(d_in.download(), in)) << "the input was modified";
  // The first index (of any segment) where out is not the sorted segment.
  std::int64_t bad = -1;
#pragma omp parallel for schedule(dynamic, 64)
  for (std::int64_t s = 0; s < std::int64_t(num); ++s) {
    const std::size_t b = std::size_t(offs[std::size_t(s)]), e = std::size_t(offs[std::size_t(s) + 1]);
    std::size_t count[256] = {};
    for (std::size_t i = b; i < e; ++i) ++count[in[i]];
    std::size_t i = b;
    for (int key = 0; key < 256 && i < e; ++key) {
      const std::size_t run_end = i + count[key];
      while (i < run_end && out[i] == u8(key)) ++i;
      if (i < run_end) break;
    }
    if (i < e) {
#pragma omp critical
      if (bad < 0 || std::int64_t(i) < bad) bad = std::int64_t(i);
    }
  }
  ASSERT_LT(bad, 0) << "n=" << n << " in " << num << " segments: the output differs from the sorted segment at index "
                    << bad << " (got " << int(out[std::size_t(bad)]) << ")";
}
}  // namespace
