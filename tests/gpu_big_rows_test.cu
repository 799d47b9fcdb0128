// GPU suite: sorts by columns and of records of more than 2^31 rows in one
// call (issue sizes past int32 indices), generated and checked on the
// device (downloading tens of GB to check them on the host would take
// longer than the sorts):
//   * sort_by_columns_device of (u8 ascending, i16 descending) over
//     2^31 + 4099 rows into int64 indices: every index appears once, and
//     each row is not before the one before it in the order (ties by index:
//     stable);
//   * sort_structs_device of a 3-byte integer struct (the records carried in
//     their packed keys) over 2^31 + 4099 records: in order, and the same
//     multiset of records as the input (a count of each of the 2^24 values).
// Skipped, with the reason, where the device has too little memory.
#include "gpu_util.hpp"
#include "struct_cases.hpp"

#include <gpusort/columns.hpp>
#include <gpusort/structs.hpp>

#include <cuda/std/tuple>

#include <gtest/gtest.h>

#include <cstdint>
#include <string>

namespace {

using namespace gpusort_test;

constexpr std::size_t big_n = (std::size_t(1) << 31) + 4099;

__host__ __device__ std::uint64_t mix(std::uint64_t x) {  // splitmix64's finaliser
  x += 0x9E3779B97F4A7C15ull;
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
  return x ^ (x >> 31);
}

// Skips the test unless `bytes` (and 2 GiB more) are free on the device.
bool enough_memory(std::size_t bytes, std::string& why) {
  std::size_t free_b = 0, total_b = 0;
  GPUSORT_CUDA(cudaMemGetInfo(&free_b, &total_b));
  const std::size_t need = bytes + (std::size_t(2) << 30);
  if (free_b >= need) return true;
  why = "needs " + std::to_string(need >> 20) + " MiB of device memory, " + std::to_string(free_b >> 20) + " MiB free";
  return false;
}

__global__ void fill_columns(std::uint8_t* a, std::int16_t* b, std::size_t n) {
  for (std::size_t i = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += std::size_t(gridDim.x) * blockDim.x) {
    const std::uint64_t r = mix(i);
    a[i] = std::uint8_t(r % 7);             // few values: long runs of ties in the first column
    b[i] = std::int16_t(std::uint16_t(r >> 32) % 3001 - 1500);  // both signs
  }
}

// errors[0]: an index out of range or seen twice; errors[1]: a row before
// the one before it under (a ascending, b descending, index ascending).
__global__ void check_columns(const std::uint8_t* a, const std::int16_t* b, const std::int64_t* idx, std::size_t n,
                              unsigned* seen, unsigned long long* errors) {
  for (std::size_t i = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += std::size_t(gridDim.x) * blockDim.x) {
    const std::int64_t p = idx[i];
    if (p < 0 || std::size_t(p) >= n) {
      atomicAdd(&errors[0], 1ull);
      continue;
    }
    const unsigned bit = 1u << (p % 32);
    if (atomicOr(&seen[p / 32], bit) & bit) atomicAdd(&errors[0], 1ull);
    if (i == 0) continue;
    const std::int64_t q = idx[i - 1];
    if (q < 0 || std::size_t(q) >= n) continue;
    const bool in_order = a[q] != a[p] ? a[q] < a[p] : b[q] != b[p] ? b[q] > b[p] : q < p;
    if (!in_order) atomicAdd(&errors[1], 1ull);
  }
}

class GpuBigRows : public gpu_test {};

TEST_F(GpuBigRows, ColumnsPastInt32Rows) {
  const std::size_t n = big_n;
  std::size_t scratch = 0;  // sized with stand-in addresses, before any allocation
  {
    const gpusort::key_column cols[2] = {{gpusort::key_type::u8, reinterpret_cast<void*>(256), gpusort::order::ascending, 0},
                                         {gpusort::key_type::i16, reinterpret_cast<void*>(512), gpusort::order::descending, 0}};
    gpusort::sort_by_columns_device(nullptr, scratch, cols, 2, n, reinterpret_cast<void*>(1024), 8);
  }
  std::string why;
  if (!enough_memory(3 * n + 8 * n + n / 8 + scratch, why)) GTEST_SKIP() << why;
  device_buffer<std::uint8_t> a(n);
  device_buffer<std::int16_t> b(n);
  device_buffer<std::int64_t> idx(n);
  fill_columns<<<4096, 256>>>(a.data(), b.data(), n);
  GPUSORT_CUDA(cudaGetLastError());
  const gpusort::key_column cols[2] = {{gpusort::key_type::u8, a.data(), gpusort::order::ascending, 0},
                                       {gpusort::key_type::i16, b.data(), gpusort::order::descending, 0}};
  {
    device_buffer<std::uint8_t> temp(scratch);
    gpusort::sort_by_columns_device(temp.data(), scratch, cols, 2, n, idx.data(), 8);
    device_sync();
  }
  device_buffer<unsigned> seen((n + 31) / 32);
  seen.fill_bytes(0);
  device_buffer<unsigned long long> errors(2);
  errors.fill_bytes(0);
  check_columns<<<4096, 256>>>(a.data(), b.data(), idx.data(), n, seen.data(), errors.data());
  GPUSORT_CUDA(cudaGetLastError());
  device_sync();
  const auto e = errors.download();
  ASSERT_EQ(e[0], 0u) << n << " rows: indices out of range or repeated";
  ASSERT_EQ(e[1], 0u) << n << " rows: rows out of order";
}

__host__ __device__ unsigned value_of(const tiny3& t) {
  return unsigned(t.a) | unsigned(std::uint8_t(t.b)) << 8 | unsigned(t.c) << 16;
}

__global__ void fill_records(tiny3* r, std::size_t n) {
  for (std::size_t i = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += std::size_t(gridDim.x) * blockDim.x) {
    const std::uint64_t x = mix(i);
    r[i] = {std::uint8_t(x), std::int8_t(std::uint8_t(x >> 8) % 17 - 8), std::uint8_t((x >> 16) % 5)};
  }
}

// counts[v] += 1 for each input record of value v, -= 1 for each output
// record; errors: an output record before the one before it under (b, c,
// a) ascending.
__global__ void check_records(const tiny3* in, const tiny3* out, std::size_t n, int* counts,
                              unsigned long long* errors) {
  for (std::size_t i = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += std::size_t(gridDim.x) * blockDim.x) {
    atomicAdd(&counts[value_of(in[i])], 1);
    atomicSub(&counts[value_of(out[i])], 1);
    if (i == 0) continue;
    const tiny3 x = out[i - 1], y = out[i];
    const bool in_order = x.b != y.b ? x.b < y.b : x.c != y.c ? x.c < y.c : x.a <= y.a;
    if (!in_order) atomicAdd(errors, 1ull);
  }
}

__global__ void count_nonzero(const int* counts, std::size_t m, unsigned long long* errors) {
  for (std::size_t v = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x; v < m; v += std::size_t(gridDim.x) * blockDim.x)
    if (counts[v] != 0) atomicAdd(errors, 1ull);
}

TEST_F(GpuBigRows, RecordsPastInt32Rows) {
  const std::size_t n = big_n;
  std::size_t scratch = 0;
  gpusort::sort_structs_device(nullptr, scratch, reinterpret_cast<const tiny3*>(256), reinterpret_cast<tiny3*>(512), n,
                               tiny3_decomposer{});
  std::string why;
  if (!enough_memory(2 * 3 * n + (std::size_t(4) << 24) + scratch, why)) GTEST_SKIP() << why;
  device_buffer<tiny3> in(n), out(n);
  fill_records<<<4096, 256>>>(in.data(), n);
  GPUSORT_CUDA(cudaGetLastError());
  {
    device_buffer<std::uint8_t> temp(scratch);
    gpusort::sort_structs_device(temp.data(), scratch, in.data(), out.data(), n, tiny3_decomposer{});
    device_sync();
  }
  device_buffer<int> counts(std::size_t(1) << 24);
  counts.fill_bytes(0);
  device_buffer<unsigned long long> errors(2);
  errors.fill_bytes(0);
  check_records<<<4096, 256>>>(in.data(), out.data(), n, counts.data(), errors.data());
  count_nonzero<<<1024, 256>>>(counts.data(), std::size_t(1) << 24, errors.data() + 1);
  GPUSORT_CUDA(cudaGetLastError());
  device_sync();
  const auto e = errors.download();
  ASSERT_EQ(e[0], 0u) << n << " records: out of order";
  ASSERT_EQ(e[1], 0u) << n << " records: not the input's records";
}

}  // namespace
