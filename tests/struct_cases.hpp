// Records the struct suites share (gpu_structs_test.cu, gpu_big_rows_test.cu).
#pragma once

#include <cuda/std/tuple>

#include <cstdint>

namespace gpusort_test {

// Integers only, 3 bytes: keys alone, no payload, byte stores; sorted by
// (b, c, a).
struct tiny3 {
  std::uint8_t a;
  std::int8_t b;
  std::uint8_t c;
};
struct tiny3_decomposer {
  __host__ __device__ cuda::std::tuple<std::int8_t&, std::uint8_t&, std::uint8_t&> operator()(tiny3& t) const {
    return {t.b, t.c, t.a};
  }
};

}  // namespace gpusort_test
