// API-level GPU tests shared by every family (called from the family
// suite's *Api tests): value widths, the two-phase and in-place overloads,
// a non-default stream, out-of-memory reporting, host spans and empty
// inputs. Keys are u32 (and f64 for values) unless said otherwise.
#pragma once

#include "gpu_cases.hpp"

#include <gpusort/gpusort.hpp>

#include <span>

namespace gpusort_test {

// 1, 2, 4, 8, 16-byte values take the payload path; 3- and 12-byte values
// the index + gather path inside the library.
inline void test_value_widths(gpusort::algorithm algo, const std::vector<std::size_t>& sizes) {
  for (std::size_t n : sizes)
    for (auto dir : {gpusort::order::ascending, gpusort::order::descending}) {
      const sort_case c{h::dist::uniform, n, dir, 0, -1, 6000 + n};
      const sort_case dup{h::dist::few_unique, n, dir, 0, -1, 6100 + n};
      GPUSORT_CASE((run_values<std::uint32_t, std::uint8_t>(algo, c)));
      GPUSORT_CASE((run_values<std::uint32_t, std::uint16_t>(algo, c)));
      GPUSORT_CASE((run_values<std::uint32_t, value3>(algo, c)));
      GPUSORT_CASE((run_values<std::uint32_t, std::uint32_t>(algo, dup)));
      GPUSORT_CASE((run_values<std::uint32_t, std::uint64_t>(algo, c)));
      GPUSORT_CASE((run_values<std::uint32_t, value12>(algo, dup)));
      GPUSORT_CASE((run_values<std::uint32_t, value16>(algo, c)));
      GPUSORT_CASE((run_values<double, value3>(algo, dup)));
      GPUSORT_CASE((run_values<double, value12>(algo, c)));
      GPUSORT_CASE((run_values<std::uint8_t, value16>(algo, c)));
    }
}

// The size query writes temp_bytes and touches nothing else; the run with
// exactly that scratch sorts. (Pairs run two-phase in every run_pairs case.)
inline void test_two_phase(gpusort::algorithm algo, std::size_t n) {
  const auto opt = make_options(gpusort::order::ascending, 0, -1, algo);
  const auto in = h::generate<std::uint32_t>(h::dist::uniform, n, 7);
  device_buffer<std::uint32_t> d_in(in), d_out(n);
  d_out.fill_bytes(0xA5);
  const auto poisoned = d_out.download();

  std::size_t bytes = 12345;
  gpusort::sort_keys(nullptr, bytes, d_in.data(), d_out.data(), n, opt);
  std::size_t again = 0;
  gpusort::sort_keys(nullptr, again, d_in.data(), d_out.data(), n, opt);
  EXPECT_EQ(bytes, again) << "the size query is not deterministic";
  device_sync();
  ASSERT_EQ(d_out.download(), poisoned) << "the size query wrote the output";
  ASSERT_EQ(d_in.download(), in) << "the size query wrote the input";

  device_buffer<unsigned char> temp(bytes);
  gpusort::sort_keys(temp.data(), bytes, d_in.data(), d_out.data(), n, opt);
  device_sync();
  const auto out = d_out.download();
  const auto r = h::verify_keys(in.data(), out.data(), n, opt, gpusort::is_stable(algo));
  EXPECT_TRUE(r.ok) << r.message;
}

inline void test_in_place(gpusort::algorithm algo, std::size_t n) {
  const bool stable = gpusort::is_stable(algo);
  for (auto dir : {gpusort::order::ascending, gpusort::order::descending}) {
    const auto opt = make_options(dir, 0, -1, algo);
    const auto in = h::generate<float>(h::dist::float_special, n, 8);
    std::vector<std::uint32_t> idx(n);
    std::iota(idx.begin(), idx.end(), 0u);
    {  // keys, allocating overload
      device_buffer<float> d(in);
      gpusort::sort_keys(d.data(), n, opt);
      device_sync();
      const auto out = d.download();
      const auto r = h::verify_keys(in.data(), out.data(), n, opt, stable);
      ASSERT_TRUE(r.ok) << "in-place sort_keys " << name(dir) << ": " << r.message;
    }
    {  // keys, two-phase overload
      device_buffer<float> d(in);
      std::size_t bytes = 0;
      gpusort::sort_keys(nullptr, bytes, d.data(), n, opt);
      device_buffer<unsigned char> temp(bytes);
      gpusort::sort_keys(temp.data(), bytes, d.data(), n, opt);
      device_sync();
      const auto out = d.download();
      const auto r = h::verify_keys(in.data(), out.data(), n, opt, stable);
      ASSERT_TRUE(r.ok) << "in-place two-phase sort_keys " << name(dir) << ": " << r.message;
    }
    {  // pairs, allocating overload
      device_buffer<float> dk(in);
      device_buffer<std::uint32_t> dv(idx);
      gpusort::sort_pairs(dk.data(), dv.data(), n, opt);
      device_sync();
      const auto keys = dk.download();
      const auto vals = dv.download();
      const auto r = h::verify_pairs(in.data(), keys.data(), vals.data(), n, opt, stable);
      ASSERT_TRUE(r.ok) << "in-place sort_pairs " << name(dir) << ": " << r.message;
    }
    {  // pairs, two-phase overload
      device_buffer<float> dk(in);
      device_buffer<std::uint32_t> dv(idx);
      std::size_t bytes = 0;
      gpusort::sort_pairs(nullptr, bytes, dk.data(), dv.data(), n, opt);
      device_buffer<unsigned char> temp(bytes);
      gpusort::sort_pairs(temp.data(), bytes, dk.data(), dv.data(), n, opt);
      device_sync();
      const auto keys = dk.download();
      const auto vals = dv.download();
      const auto r = h::verify_pairs(in.data(), keys.data(), vals.data(), n, opt, stable);
      ASSERT_TRUE(r.ok) << "in-place two-phase sort_pairs " << name(dir) << ": " << r.message;
    }
  }
}

// Work queued on a non-blocking stream: the upload, the sort and the
// download are all asynchronous on it, and only that stream is waited for.
// A sort that ran on another stream would race with the copies.
inline void test_stream(gpusort::algorithm algo, std::size_t n) {
  cuda_stream stream;
  auto opt = make_options(gpusort::order::descending, 0, -1, algo);
  opt.stream = stream.get();
  const auto in = h::generate<std::uint64_t>(h::dist::uniform, n, 9);
  pinned_buffer<std::uint64_t> host_in(n), host_out(n), host_vals(n);
  std::copy(in.begin(), in.end(), host_in.data());
  device_buffer<std::uint64_t> d_in(n), d_out(n), d_vals(n);
  for (int round = 0; round < 2; ++round) {
    GPUSORT_CUDA(cudaMemcpyAsync(d_in.data(), host_in.data(), n * 8, cudaMemcpyHostToDevice, stream.get()));
    if (round == 0) {
      gpusort::sort_keys(d_in.data(), d_out.data(), n, opt);
    } else {  // two-phase, scratch from the stream-ordered allocator
      std::size_t bytes = 0;
      gpusort::sort_keys(nullptr, bytes, d_in.data(), d_out.data(), n, opt);
      void* temp = nullptr;
      GPUSORT_CUDA(cudaMallocAsync(&temp, bytes ? bytes : 1, stream.get()));
      gpusort::sort_keys(temp, bytes, d_in.data(), d_out.data(), n, opt);
      GPUSORT_CUDA(cudaFreeAsync(temp, stream.get()));
    }
    GPUSORT_CUDA(cudaMemcpyAsync(host_out.data(), d_out.data(), n * 8, cudaMemcpyDeviceToHost, stream.get()));
    GPUSORT_CUDA(cudaMemsetAsync(d_out.data(), 0, n * 8, stream.get()));
    stream.sync();
    const auto r = h::verify_keys(in.data(), host_out.data(), n, opt, gpusort::is_stable(algo));
    ASSERT_TRUE(r.ok) << "round " << round << ": " << r.message;
  }
  // Pairs on the stream too.
  std::vector<std::uint64_t> idx(n);
  std::iota(idx.begin(), idx.end(), 0ull);
  device_buffer<std::uint64_t> d_idx(idx);
  GPUSORT_CUDA(cudaMemcpyAsync(d_in.data(), host_in.data(), n * 8, cudaMemcpyHostToDevice, stream.get()));
  gpusort::sort_pairs(d_in.data(), d_out.data(), d_idx.data(), d_vals.data(), n, opt);
  GPUSORT_CUDA(cudaMemcpyAsync(host_out.data(), d_out.data(), n * 8, cudaMemcpyDeviceToHost, stream.get()));
  GPUSORT_CUDA(cudaMemcpyAsync(host_vals.data(), d_vals.data(), n * 8, cudaMemcpyDeviceToHost, stream.get()));
  stream.sync();
  const auto r = h::verify_pairs(in.data(), host_out.data(), host_vals.data(), n, opt, gpusort::is_stable(algo));
  ASSERT_TRUE(r.ok) << "pairs: " << r.message;
}

// Holds all the device memory cudaMalloc will still give, until destroyed:
// one block as large as possible, then ever smaller ones for the rest.
class memory_hog {
 public:
  memory_hog() {
    device_sync();
    cudaMemPool_t pool;
    GPUSORT_CUDA(cudaDeviceGetDefaultMemPool(&pool, 0));
    GPUSORT_CUDA(cudaMemPoolTrimTo(pool, 0));  // cached pool memory would hide the shortage
    std::size_t chunk = 0, total = 0;
    GPUSORT_CUDA(cudaMemGetInfo(&chunk, &total));
    while (chunk >= 4096) {
      void* p = nullptr;
      if (cudaMalloc(&p, chunk) == cudaSuccess) {
        blocks_.push_back(p);
      } else {
        cudaGetLastError();
        chunk /= 2;
      }
    }
  }
  ~memory_hog() {
    for (void* p : blocks_) cudaFree(p);
  }
  memory_hog(const memory_hog&) = delete;
  memory_hog& operator=(const memory_hog&) = delete;

 private:
  std::vector<void*> blocks_;
};

// With the device full, the allocating overload must throw
// errc::out_of_memory, leave the input untouched and the device usable.
inline void test_out_of_memory(gpusort::algorithm algo, std::size_t n) {
  const auto opt = make_options(gpusort::order::ascending, 0, -1, algo);
  const auto in = h::generate<std::uint32_t>(h::dist::uniform, n, 10);
  const auto vals = make_values<value12>(n);  // 12-byte values: index + gather path
  device_buffer<std::uint32_t> d_in(in), d_out(n);
  device_buffer<value12> d_vin(vals), d_vout(n);
  std::size_t keys_bytes = 0, pairs_bytes = 0;
  gpusort::sort_keys(nullptr, keys_bytes, d_in.data(), d_out.data(), n, opt);
  gpusort::sort_pairs(nullptr, pairs_bytes, d_in.data(), d_out.data(), d_vin.data(), d_vout.data(), n, opt);
  if (keys_bytes == 0 && pairs_bytes == 0) GTEST_SKIP() << "this algorithm needs no scratch at n=" << n;
  const bool use_keys = keys_bytes > 0;
  {
    memory_hog hog;
    try {
      if (use_keys) gpusort::sort_keys(d_in.data(), d_out.data(), n, opt);
      else gpusort::sort_pairs(d_in.data(), d_out.data(), d_vin.data(), d_vout.data(), n, opt);
      cudaDeviceSynchronize();
      ADD_FAILURE() << "no exception with the device full (" << (use_keys ? "sort_keys" : "sort_pairs")
                    << " needs " << (use_keys ? keys_bytes : pairs_bytes) << " scratch bytes)";
    } catch (const gpusort::error& e) {
      EXPECT_EQ(int(e.code()), int(gpusort::errc::out_of_memory)) << e.what();
      EXPECT_EQ(e.cuda_error(), cudaErrorMemoryAllocation) << e.what();
    }
  }
  device_sync();
  ASSERT_EQ(d_in.download(), in) << "the input keys were modified by the failed call";
  const auto vin_back = d_vin.download();
  for (std::size_t i = 0; i < n; ++i)
    ASSERT_TRUE(same_value(vin_back[i], vals[i])) << "input value " << i << " modified by the failed call";
  // The device is still usable.
  gpusort::sort_keys(d_in.data(), d_out.data(), n, opt);
  device_sync();
  const auto out = d_out.download();
  const auto r = h::verify_keys(in.data(), out.data(), n, opt, gpusort::is_stable(algo));
  EXPECT_TRUE(r.ok) << "after the failure: " << r.message;
}

// gpusort::sort on host memory runs on the GPU when there is one.
inline void test_host_span(gpusort::algorithm algo, std::size_t n) {
  const auto opt = make_options(gpusort::order::ascending, 0, -1, algo);
  const bool stable = gpusort::is_stable(algo);
  const auto in = h::generate<__half>(h::dist::float_special, n, 11);
  auto keys = in;
  EXPECT_EQ(gpusort::sort(std::span<__half>(keys), opt), gpusort::backend::gpu);
  auto r = h::verify_keys(in.data(), keys.data(), n, opt, stable);
  ASSERT_TRUE(r.ok) << "keys: " << r.message;
  keys = in;
  std::vector<std::uint64_t> idx(n);
  std::iota(idx.begin(), idx.end(), 0ull);
  EXPECT_EQ(gpusort::sort(std::span<__half>(keys), std::span<std::uint64_t>(idx), opt), gpusort::backend::gpu);
  r = h::verify_pairs(in.data(), keys.data(), idx.data(), n, opt, stable);
  ASSERT_TRUE(r.ok) << "pairs: " << r.message;
}

// n == 0 is valid with null pointers, in every overload.
inline void test_empty(gpusort::algorithm algo) {
  const auto opt = make_options(gpusort::order::ascending, 0, -1, algo);
  std::uint32_t* null = nullptr;
  std::size_t bytes = 0;
  EXPECT_NO_THROW(gpusort::sort_keys<std::uint32_t>(nullptr, null, 0, opt));
  EXPECT_NO_THROW(gpusort::sort_keys<std::uint32_t>(null, 0, opt));
  EXPECT_NO_THROW(gpusort::sort_keys<std::uint32_t>(nullptr, bytes, nullptr, null, 0, opt));
  EXPECT_NO_THROW((gpusort::sort_pairs<std::uint32_t, std::uint32_t>(nullptr, null, nullptr, null, 0, opt)));
  EXPECT_NO_THROW((gpusort::sort_pairs<std::uint32_t, std::uint32_t>(null, null, 0, opt)));
  std::vector<float> none;
  EXPECT_NO_THROW(gpusort::sort(std::span<float>(none), opt));
  device_sync();
}

}  // namespace gpusort_test
