// radix_onesweep's sort timed alone, from one translation unit: the library's
// instances take minutes to build, this file seconds, so two versions of a
// kernel header can be compared in one run. Build it twice, the second time
// with -I a directory that holds the changed header under the same relative
// path ahead of src/ ("radix/onesweep_pass.cuh"), then run both binaries in
// turn, A B B A (docs/perf/radix.md, "The scatter's addresses").
//
//   nvcc -O3 -std=c++20 -arch=sm_90 --expt-relaxed-constexpr \
//        -Iinclude -Isrc -Ibuild/generated bench/onesweep_driver.cu -o onesweep_driver
//
// Arguments (both optional): a substring of the cases to run ("u32+u32
// few16"), and the sorts a case (3 warm-ups first; fewer: every sort timed).
// Each case: device-generated input (uniform 32-bit keys, or sorted, reversed,
// 16 values, or normal floats: N(0, 1) by Box-Muller), 3 warm-up sorts and the median of 11 timed with CUDA events;
// the input is read-only (out of place), so nothing is restored between runs.
// The output of u32 keys is checked for order (floats and argsort's indices
// are timed only: the GPU suites check them).
#include "radix/onesweep.cuh"

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <type_traits>
#include <vector>

namespace {

using namespace gpusort::detail;

enum class input { uniform, sorted, reversed, few16, normal };
const char* name_of(input in) {
  switch (in) {
    case input::uniform: return "uniform";
    case input::sorted: return "sorted";
    case input::reversed: return "reversed";
    case input::few16: return "few16";
    case input::normal: return "normal";
  }
  return "?";
}

void check(cudaError_t e, const char* what) {
  if (e == cudaSuccess) return;
  std::fprintf(stderr, "%s: %s\n", what, cudaGetErrorString(e));
  std::exit(1);
}

__device__ unsigned mix(unsigned long long x) {  // splitmix64's finaliser
  x ^= x >> 31;
  x *= 0xBF58476D1CE4E5B9ull;
  x ^= x >> 29;
  x *= 0x94D049BB133111EBull;
  x ^= x >> 32;
  return unsigned(x);
}

__global__ void generate(unsigned* k, std::size_t n, unsigned seed, input in) {
  for (std::size_t i = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x; i < n;
       i += std::size_t(gridDim.x) * blockDim.x) {
    const unsigned r = mix((i + 1) * 0x9E3779B97F4A7C15ull ^ seed);
    switch (in) {
      case input::uniform: k[i] = r; break;
      case input::sorted: k[i] = unsigned(i / 3); break;
      case input::reversed: k[i] = unsigned((n - i) / 3); break;
      case input::few16: k[i] = mix(((r & 15u) + 77) * 0x9E3779B97F4A7C15ull); break;
      case input::normal: {
        const float u1 = (float(r >> 8) + 1.0f) * 0x1.0p-24f;
        const float u2 = float(mix((i + 1) * 0xD1B54A32D192ED03ull ^ seed) >> 8) * 0x1.0p-24f;
        k[i] = __float_as_uint(sqrtf(-2.0f * logf(u1)) * cospif(2.0f * u2));
        break;
      }
    }
  }
}

__global__ void count_falls(const unsigned* k, std::size_t n, unsigned* falls) {
  for (std::size_t i = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x; i + 1 < n;
       i += std::size_t(gridDim.x) * blockDim.x)
    if (k[i] > k[i + 1]) atomicAdd(falls, 1u);
}

// K keys (4 bytes) with P values (none, or 4 bytes); argsort: P is the
// index made by the passes, widened to int64 in the last write; nans_largest:
// the frameworks' order (NaNs after every number).
const char* only = nullptr;  // argv[1]: run the cases whose name holds it
int reps = 14;               // argv[2]: sorts a case (the first 3 are warm-ups)

template <class K, class P>
void run(const char* what, std::size_t n, input in, bool argsort = false, bool nans_largest = false) {
  static_assert(sizeof(K) == 4, "4-byte keys");
  char name[96];
  std::snprintf(name, sizeof name, "%s %s %zu", what, name_of(in), n);
  if (only && !std::strstr(name, only)) return;
  constexpr bool pairs = !is_no_value<P>;
  K *keys_in = nullptr, *keys_out = nullptr;
  P *vals_in = nullptr, *vals_out = nullptr;
  std::uint64_t* wide = nullptr;
  unsigned* falls = nullptr;
  void* temp = nullptr;
  check(cudaMalloc(&keys_in, n * sizeof(K)), "cudaMalloc");
  check(cudaMalloc(&keys_out, n * sizeof(K)), "cudaMalloc");
  check(cudaMalloc(&falls, sizeof(unsigned)), "cudaMalloc");
  generate<<<1024, 256>>>(reinterpret_cast<unsigned*>(keys_in), n, 7, in);
  if constexpr (pairs) {
    check(cudaMalloc(&vals_out, n * sizeof(P)), "cudaMalloc");
    if (!argsort) {
      check(cudaMalloc(&vals_in, n * sizeof(P)), "cudaMalloc");
      generate<<<1024, 256>>>(reinterpret_cast<unsigned*>(vals_in), n, 9, input::uniform);
    }
  }
  const call_context ctx = make_context("sort", what, "radix_onesweep", n);
  sort_problem<K, P> p;
  p.keys_in = keys_in;
  p.keys_out = keys_out;
  p.vals_in = vals_in;
  p.vals_out = vals_out;
  p.n = n;
  p.ord = key_order<K>(false, 0, 32, nans_largest);
  p.ctx = &ctx;
  if (argsort) {
    check(cudaMalloc(&wide, n * sizeof(std::uint64_t)), "cudaMalloc");
    p.form.positions = true;
    p.form.keys_dropped = true;
    p.form.wide_out = wide;
  }
  check(cudaMalloc(&temp, radix_onesweep::family::temp_bytes(p)), "cudaMalloc");
  cudaEvent_t start, stop;
  check(cudaEventCreate(&start), "cudaEventCreate");
  check(cudaEventCreate(&stop), "cudaEventCreate");
  std::vector<float> ms;
  for (int r = 0; r < reps; ++r) {
    check(cudaEventRecord(start), "cudaEventRecord");
    radix_onesweep::family::sort(p, temp);
    check(cudaEventRecord(stop), "cudaEventRecord");
    check(cudaEventSynchronize(stop), "cudaEventSynchronize");
    float t = 0;
    check(cudaEventElapsedTime(&t, start, stop), "cudaEventElapsedTime");
    if (r >= 3 || reps <= 3) ms.push_back(t);
  }
  const char* verified = "timed only";
  if (std::is_same_v<K, unsigned> && !argsort) {
    check(cudaMemset(falls, 0, sizeof(unsigned)), "cudaMemset");
    count_falls<<<1024, 256>>>(reinterpret_cast<const unsigned*>(keys_out), n, falls);
    unsigned h = 0;
    check(cudaMemcpy(&h, falls, sizeof(unsigned), cudaMemcpyDeviceToHost), "cudaMemcpy");
    verified = h == 0 ? "in order" : "OUT OF ORDER";
  }
  check(cudaGetLastError(), what);
  std::sort(ms.begin(), ms.end());
  std::printf("%-8s %-9s n=%-10zu median %.4f ms  %s\n", what, name_of(in), n, ms[ms.size() / 2], verified);
  cudaFree(keys_in);
  cudaFree(keys_out);
  cudaFree(vals_in);
  cudaFree(vals_out);
  cudaFree(wide);
  cudaFree(falls);
  cudaFree(temp);
  cudaEventDestroy(start);
  cudaEventDestroy(stop);
}

}  // namespace

int main(int argc, char** argv) {
  if (argc > 1) only = argv[1];
  if (argc > 2) reps = std::max(1, std::atoi(argv[2]));
  const std::size_t n27 = std::size_t(1) << 27, n28 = std::size_t(1) << 28;
  for (int round = 0; round < 2; ++round) {
    run<unsigned, no_value>("u32", n28, input::uniform);
    run<unsigned, unsigned>("u32+u32", n28, input::uniform);
    run<float, no_value>("f32", n27, input::uniform);
    run<unsigned, no_value>("u32", n27, input::uniform);
    run<unsigned, no_value>("u32", n27, input::sorted);
    run<unsigned, no_value>("u32", n27, input::reversed);
    run<unsigned, unsigned>("u32+u32", n27, input::sorted);
    run<unsigned, unsigned>("u32+u32", n27, input::reversed);
    run<unsigned, no_value>("u32", n27, input::few16);
    run<unsigned, unsigned>("u32+u32", n27, input::few16);
    run<float, unsigned>("f32 arg", n27, input::uniform, true);
    run<float, no_value>("f32", n27, input::normal);
    run<float, no_value>("f32 nanl", n27, input::normal, false, true);
    run<float, unsigned>("f32 arg", n27, input::normal, true);
    run<float, unsigned>("f32 argnl", n27, input::normal, true, true);
  }
}
