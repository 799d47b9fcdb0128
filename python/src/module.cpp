// gpusort._gpusort: the extension module behind the Python package.
//
// It speaks raw addresses: the package (python/gpusort/_arrays.py) turns a
// framework's array into (address, key type, shape, device, stream) and
// allocates the outputs in the caller's framework; this module runs
// runtime.hpp's calls on those addresses. A device call's scratch is the
// caller's (temp, temp_bytes: PyTorch's or CuPy's allocator, through the
// package) or comes from gpusort's pool; with pool_max >= 0 a call that needs
// more than pool_max bytes queues nothing and returns the bytes it needs
// (pool_max = 0: a size query). What it owns:
//   * a memory pool per device (cudaMemPoolCreate, kept between calls like
//     the frameworks' caching allocators) for the scratch of the calls that
//     bring none, taken and given back in stream order on the caller's stream;
//   * device buffers for outputs of frameworks that cannot allocate for us
//     (JAX, a bare DLPack or CUDA array interface producer);
//   * the mapping from gpusort::error to Python exceptions (module_common.hpp,
//     shared with the multi-GPU module _gpusort_dist, dist_module.cpp).
#include <nanobind/nanobind.h>
#include <nanobind/ndarray.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/string_view.h>
#include <nanobind/stl/pair.h>
#include <nanobind/stl/vector.h>

#include <gpusort/columns.hpp>
#include <gpusort/runtime.hpp>

#include "module_common.hpp"

#ifdef GPUSORT_XLA_FFI
#include "xla_ffi.hpp"
#endif

#include <cuda_runtime_api.h>

#include <chrono>
#include <cstdint>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

namespace nb = nanobind;

namespace {

using gpusort::errc;
using gpusort_py::device_guard;
using gpusort_py::fail;

// ---- scratch: one pool per device, memory kept between calls -------------------
cudaMemPool_t pool_for(int device) {
  static std::mutex lock;
  static std::vector<cudaMemPool_t> pools;
  std::lock_guard<std::mutex> g(lock);
  if (pools.empty()) {
    int count = 0;
    if (cudaGetDeviceCount(&count) != cudaSuccess) {
      cudaGetLastError();
      count = 0;
    }
    pools.assign(std::size_t(count), nullptr);
  }
  if (device < 0 || std::size_t(device) >= pools.size()) fail(errc::invalid_argument, "no CUDA device " + std::to_string(device));
  if (!pools[std::size_t(device)]) {
    cudaMemPoolProps props{};
    props.allocType = cudaMemAllocationTypePinned;
    props.location.type = cudaMemLocationTypeDevice;
    props.location.id = device;
    cudaMemPool_t p = nullptr;
    cudaError_t e = cudaMemPoolCreate(&p, &props);
    if (e != cudaSuccess) fail(errc::cuda, "cudaMemPoolCreate", e);
    std::uint64_t keep = UINT64_MAX;  // cached until release_memory()
    cudaMemPoolSetAttribute(p, cudaMemPoolAttrReleaseThreshold, &keep);
    pools[std::size_t(device)] = p;
  }
  return pools[std::size_t(device)];
}

// Scratch for one call, taken and freed in stream order on `stream`. A
// failed allocation trims the pool and tries once more before it reports
// out of memory (nothing has been written then).
struct scratch {
  void* ptr = nullptr;
  cudaStream_t stream = nullptr;
  scratch(std::size_t bytes, int device, cudaStream_t s) : stream(s) {
    if (bytes == 0) return;
    cudaMemPool_t pool = pool_for(device);
    cudaError_t e = cudaMallocFromPoolAsync(&ptr, bytes, pool, s);
    if (e == cudaErrorMemoryAllocation) {
      cudaGetLastError();
      cudaMemPoolTrimTo(pool, 0);
      e = cudaMallocFromPoolAsync(&ptr, bytes, pool, s);
    }
    if (e != cudaSuccess) {
      cudaGetLastError();
      ptr = nullptr;
      fail(e == cudaErrorMemoryAllocation ? errc::out_of_memory : errc::cuda,
           "scratch of " + std::to_string(bytes) + " bytes on device " + std::to_string(device), e);
    }
  }
  ~scratch() {
    if (ptr) cudaFreeAsync(ptr, stream);
  }
  scratch(const scratch&) = delete;
  scratch& operator=(const scratch&) = delete;
};

// The scratch of one two-phase call `run(temp, temp_bytes)`: the caller's
// (temp, temp_bytes) when temp is given, else gpusort's pool when the call
// needs at most pool_max bytes (pool_max < 0: any size). Returns 0 once the
// work is queued, or the bytes needed when nothing was queued (more than
// pool_max): the caller allocates them on the call's stream and calls again.
constexpr std::uintptr_t temp_alignment = 256;  // what the library carves its slots to

template <class Run>
std::size_t with_scratch(Run&& run, std::uintptr_t temp, std::size_t temp_bytes, std::int64_t pool_max, int device,
                         cudaStream_t stream) {
  if (temp) {
    if (temp % temp_alignment)
      fail(errc::invalid_argument, "scratch at " + std::to_string(temp) + " is not " + std::to_string(temp_alignment) +
                                       "-byte aligned");
    run(reinterpret_cast<void*>(temp), temp_bytes);
    return 0;
  }
  std::size_t bytes = 0;
  run(nullptr, bytes);
  if (pool_max >= 0 && bytes > std::size_t(pool_max)) return bytes;
  scratch t(bytes, device, stream);
  run(t.ptr, bytes);
  return 0;
}

// ---- device buffers handed to Python (outputs for JAX and bare producers) ---
// cudaMalloc'd and freed with cudaFree, which waits for the device: a
// framework that received the buffer through DLPack may still have work on
// it in a stream this module does not know.
struct device_buffer {
  std::uintptr_t ptr = 0;
  std::size_t bytes = 0;
  int device = 0;
  device_buffer(std::size_t b, int dev) : bytes(b), device(dev) {
    device_guard g(dev);
    void* p = nullptr;
    const cudaError_t e = cudaMalloc(&p, b ? b : 1);
    if (e != cudaSuccess) {
      cudaGetLastError();
      fail(e == cudaErrorMemoryAllocation ? errc::out_of_memory : errc::cuda,
           "cudaMalloc(" + std::to_string(b) + " bytes) for an output on device " + std::to_string(dev), e);
    }
    ptr = reinterpret_cast<std::uintptr_t>(p);
  }
  ~device_buffer() {
    if (ptr) {
      device_guard g(device);
      cudaFree(reinterpret_cast<void*>(ptr));
    }
  }
  device_buffer(const device_buffer&) = delete;
  device_buffer& operator=(const device_buffer&) = delete;
};

// DLPack dtypes of the key types and of raw value widths.
nb::dlpack::dtype dl_dtype(const std::string& kind, int bits) {
  std::uint8_t code = 0;
  if (kind == "u") code = std::uint8_t(nb::dlpack::dtype_code::UInt);
  else if (kind == "i") code = std::uint8_t(nb::dlpack::dtype_code::Int);
  else if (kind == "f") code = std::uint8_t(nb::dlpack::dtype_code::Float);
  else if (kind == "bf") code = std::uint8_t(nb::dlpack::dtype_code::Bfloat);
  else if (kind == "c") code = std::uint8_t(nb::dlpack::dtype_code::Complex);
  else if (kind == "b") code = std::uint8_t(nb::dlpack::dtype_code::Bool);
  else fail(errc::invalid_argument, "unknown dtype kind '" + kind + "'");
  return nb::dlpack::dtype{code, std::uint8_t(bits), 1};
}

// A view of a device_buffer as an array of the given framework ("jax", or
// "" for nanobind's own DLPack producer), owned by the buffer object.
nb::object as_array(nb::handle buffer, const std::string& kind, int bits, const std::vector<std::size_t>& shape,
                    const std::string& framework) {
  const device_buffer& b = nb::cast<const device_buffer&>(buffer);
  void* p = reinterpret_cast<void*>(b.ptr);
  const nb::dlpack::dtype dt = dl_dtype(kind, bits);
  if (framework == "jax")
    return nb::cast(nb::ndarray<nb::jax>(p, shape.size(), shape.data(), buffer, nullptr, dt, nb::device::cuda::value, b.device));
  return nb::cast(nb::ndarray<>(p, shape.size(), shape.data(), buffer, nullptr, dt, nb::device::cuda::value, b.device));
}

gpusort::options make_options(bool descending, const std::string& algo, int begin_bit, int end_bit,
                              std::uintptr_t stream, bool nan_largest) {
  gpusort::options opt;
  opt.nans = nan_largest ? gpusort::nan_order::largest : gpusort::nan_order::bits;
  if (!gpusort::parse_algorithm(algo, opt.algo)) fail(errc::invalid_argument, "unknown algorithm '" + algo + "'");
  opt.direction = descending ? gpusort::order::descending : gpusort::order::ascending;
  opt.begin_bit = begin_bit;
  opt.end_bit = end_bit;
  opt.stream = reinterpret_cast<cudaStream_t>(stream);
  return opt;
}

gpusort::sort_spec make_spec(int key, std::size_t n, std::size_t rows) {
  return gpusort::sort_spec{gpusort_py::key_of(key), n, rows};
}

template <class T> T* addr(std::uintptr_t a) { return reinterpret_cast<T*>(a); }

std::vector<gpusort::key_column> key_columns(const std::vector<int>& keys, const std::vector<std::uintptr_t>& ptrs,
                                             const std::vector<bool>& descending) {
  if (ptrs.size() != keys.size() || descending.size() != keys.size())
    fail(errc::invalid_argument, "sort_by_columns: keys, ptrs and descending differ in length");
  std::vector<gpusort::key_column> cols;
  for (std::size_t c = 0; c < keys.size(); ++c) {
    const gpusort::sort_spec s = make_spec(keys[c], 0, 1);  // checks the code
    cols.push_back({s.key, addr<const void>(ptrs[c]),
                    descending[c] ? gpusort::order::descending : gpusort::order::ascending});
  }
  return cols;
}

}  // namespace

NB_MODULE(_gpusort, m) {
  m.doc() = "gpusort's extension module: sorts on raw addresses. Use the gpusort package, not this.";

  gpusort_py::register_error_translator();

  m.def("key_names", [] {
    std::vector<std::string> names;
    for (int k = 0; k < gpusort::key_type_count; ++k) names.emplace_back(gpusort::to_string(gpusort::key_type(k)));
    return names;
  }, "The key type names, in code order (u8 .. f64).");
  m.def("algorithm_names", [] {
    // the library's own name table (api.cpp), in enum order
    std::vector<std::pair<std::string, bool>> out;
    // every id until the table has no name for it (the graph suite's rule), so a family
    // added at the end of the enum (radix_msd) is listed too
    for (int i = int(gpusort::algorithm::automatic); !gpusort::to_string(gpusort::algorithm(i)).empty(); ++i) {
      const auto a = gpusort::algorithm(i);
      out.emplace_back(std::string(gpusort::to_string(a)), gpusort::is_stable(a));
    }
    return out;
  }, "(name, stable) for every algorithm.");
  m.def("gpu_available", &gpusort::gpu_available, "Whether a usable CUDA device is present.");

  // The device calls: scratch as with_scratch says (temp, temp_bytes, pool_max).
  m.def("sort_device",
        [](int key, std::size_t n, std::size_t rows, std::uintptr_t keys_in, std::uintptr_t keys_out,
           std::uintptr_t vals_in, std::uintptr_t vals_out, std::size_t val_size, bool descending,
           const std::string& algo, int begin_bit, int end_bit, std::uintptr_t stream, int device,
           std::uintptr_t temp, std::size_t temp_bytes, std::int64_t pool_max, bool nan_largest) {
          const gpusort::sort_spec s = make_spec(key, n, rows);
          const gpusort::options opt = make_options(descending, algo, begin_bit, end_bit, stream, nan_largest);
          nb::gil_scoped_release quiet;
          device_guard g(device);
          return with_scratch(
              [&](void* t, std::size_t& bytes) {
                gpusort::sort_device(t, bytes, s, addr<const void>(keys_in), addr<void>(keys_out),
                                     addr<const void>(vals_in), addr<void>(vals_out), val_size, opt);
              },
              temp, temp_bytes, pool_max, device, opt.stream);
        },
        nb::arg("key"), nb::arg("n"), nb::arg("rows"), nb::arg("keys_in"), nb::arg("keys_out"), nb::arg("vals_in"),
        nb::arg("vals_out"), nb::arg("val_size"), nb::arg("descending"), nb::arg("algo"), nb::arg("begin_bit"),
        nb::arg("end_bit"), nb::arg("stream"), nb::arg("device"), nb::arg("temp") = 0, nb::arg("temp_bytes") = 0,
        nb::arg("pool_max") = -1, nb::arg("nan_largest") = false);
  m.def("argsort_device",
        [](int key, std::size_t n, std::size_t rows, std::uintptr_t keys_in, std::uintptr_t indices_out,
           int index_bytes, bool descending, const std::string& algo, int begin_bit, int end_bit,
           std::uintptr_t stream, int device,
           std::uintptr_t temp, std::size_t temp_bytes, std::int64_t pool_max, bool nan_largest) {
          const gpusort::sort_spec s = make_spec(key, n, rows);
          const gpusort::options opt = make_options(descending, algo, begin_bit, end_bit, stream, nan_largest);
          nb::gil_scoped_release quiet;
          device_guard g(device);
          return with_scratch(
              [&](void* t, std::size_t& bytes) {
                gpusort::argsort_device(t, bytes, s, addr<const void>(keys_in), addr<void>(indices_out), index_bytes,
                                        opt);
              },
              temp, temp_bytes, pool_max, device, opt.stream);
        },
        nb::arg("key"), nb::arg("n"), nb::arg("rows"), nb::arg("keys_in"), nb::arg("indices_out"),
        nb::arg("index_bytes"), nb::arg("descending"), nb::arg("algo"), nb::arg("begin_bit"), nb::arg("end_bit"),
        nb::arg("stream"), nb::arg("device"), nb::arg("temp") = 0, nb::arg("temp_bytes") = 0,
        nb::arg("pool_max") = -1, nb::arg("nan_largest") = false);
  m.def("topk_device",
        [](int key, std::size_t n, std::size_t rows, std::size_t k, std::uintptr_t keys_in, std::uintptr_t keys_out,
           std::uintptr_t indices_out, int index_bytes, bool largest, bool sorted, std::uintptr_t stream, int device,
           std::uintptr_t temp, std::size_t temp_bytes, std::int64_t pool_max, bool nan_largest) {
          const gpusort::sort_spec s = make_spec(key, n, rows);
          gpusort::topk_options opt;
          opt.largest = largest;
          opt.sorted = sorted;
          opt.stream = reinterpret_cast<cudaStream_t>(stream);
          opt.nans = nan_largest ? gpusort::nan_order::largest : gpusort::nan_order::bits;
          nb::gil_scoped_release quiet;
          device_guard g(device);
          return with_scratch(
              [&](void* t, std::size_t& bytes) {
                gpusort::topk_device(t, bytes, s, k, addr<const void>(keys_in), addr<void>(keys_out),
                                     addr<void>(indices_out), index_bytes, opt);
              },
              temp, temp_bytes, pool_max, device, opt.stream);
        },
        nb::arg("key"), nb::arg("n"), nb::arg("rows"), nb::arg("k"), nb::arg("keys_in"), nb::arg("keys_out"),
        nb::arg("indices_out"), nb::arg("index_bytes"), nb::arg("largest"), nb::arg("sorted"), nb::arg("stream"),
        nb::arg("device"), nb::arg("temp") = 0, nb::arg("temp_bytes") = 0,
        nb::arg("pool_max") = -1, nb::arg("nan_largest") = false);
  m.def("sort_host",
        [](int key, std::size_t n, std::size_t rows, std::uintptr_t keys_in, std::uintptr_t keys_out,
           std::uintptr_t vals_in, std::uintptr_t vals_out, std::size_t val_size, bool descending,
           const std::string& algo, int begin_bit, int end_bit, bool force_cpu, bool nan_largest) {
          const gpusort::sort_spec s = make_spec(key, n, rows);
          const gpusort::options opt = make_options(descending, algo, begin_bit, end_bit, 0, nan_largest);
          nb::gil_scoped_release quiet;
          return std::string(gpusort::to_string(gpusort::sort_host(s, addr<const void>(keys_in), addr<void>(keys_out),
                                                                   addr<const void>(vals_in), addr<void>(vals_out),
                                                                   val_size, opt, force_cpu)));
        },
        nb::arg("key"), nb::arg("n"), nb::arg("rows"), nb::arg("keys_in"), nb::arg("keys_out"),
        nb::arg("vals_in"), nb::arg("vals_out"), nb::arg("val_size"), nb::arg("descending"), nb::arg("algo"),
        nb::arg("begin_bit"), nb::arg("end_bit"), nb::arg("force_cpu"), nb::arg("nan_largest") = false);
  m.def("argsort_host",
        [](int key, std::size_t n, std::size_t rows, std::uintptr_t keys_in, std::uintptr_t indices_out,
           int index_bytes, bool descending, const std::string& algo, int begin_bit, int end_bit, bool force_cpu,
           bool nan_largest) {
          const gpusort::sort_spec s = make_spec(key, n, rows);
          const gpusort::options opt = make_options(descending, algo, begin_bit, end_bit, 0, nan_largest);
          nb::gil_scoped_release quiet;
          return std::string(gpusort::to_string(gpusort::argsort_host(s, addr<const void>(keys_in),
                                                                      addr<void>(indices_out), index_bytes, opt,
                                                                      force_cpu)));
        },
        nb::arg("key"), nb::arg("n"), nb::arg("rows"), nb::arg("keys_in"), nb::arg("indices_out"),
        nb::arg("index_bytes"), nb::arg("descending"), nb::arg("algo"), nb::arg("begin_bit"),
        nb::arg("end_bit"), nb::arg("force_cpu"), nb::arg("nan_largest") = false);

  // The sort by columns: keys[c] (key type codes), ptrs[c] (addresses of n
  // keys each) and descending[c], first column primary.
  m.def("sort_by_columns_device",
        [](const std::vector<int>& keys, const std::vector<std::uintptr_t>& ptrs, const std::vector<bool>& descending,
           std::size_t n, std::uintptr_t indices_out, int index_bytes, bool nan_largest, std::uintptr_t stream,
           int device, std::uintptr_t temp, std::size_t temp_bytes, std::int64_t pool_max) {
          const std::vector<gpusort::key_column> cols = key_columns(keys, ptrs, descending);
          gpusort::options opt = make_options(false, "auto", 0, -1, stream, nan_largest);
          nb::gil_scoped_release quiet;
          device_guard g(device);
          return with_scratch(
              [&](void* t, std::size_t& bytes) {
                gpusort::sort_by_columns_device(t, bytes, cols.data(), cols.size(), n, addr<void>(indices_out),
                                                index_bytes, opt);
              },
              temp, temp_bytes, pool_max, device, opt.stream);
        },
        nb::arg("keys"), nb::arg("ptrs"), nb::arg("descending"), nb::arg("n"), nb::arg("indices_out"),
        nb::arg("index_bytes"), nb::arg("nan_largest"), nb::arg("stream"), nb::arg("device"), nb::arg("temp") = 0,
        nb::arg("temp_bytes") = 0, nb::arg("pool_max") = -1);
  m.def("sort_by_columns_host",
        [](const std::vector<int>& keys, const std::vector<std::uintptr_t>& ptrs, const std::vector<bool>& descending,
           std::size_t n, std::uintptr_t indices_out, int index_bytes, bool nan_largest) {
          const std::vector<gpusort::key_column> cols = key_columns(keys, ptrs, descending);
          const gpusort::options opt = make_options(false, "auto", 0, -1, 0, nan_largest);
          nb::gil_scoped_release quiet;
          gpusort::sort_by_columns_host(cols.data(), cols.size(), n, addr<void>(indices_out), index_bytes, opt);
        },
        nb::arg("keys"), nb::arg("ptrs"), nb::arg("descending"), nb::arg("n"), nb::arg("indices_out"),
        nb::arg("index_bytes"), nb::arg("nan_largest"));

  m.def("segmented_sort_device",
        [](int key, std::size_t n, std::size_t segments, std::uintptr_t keys, std::uintptr_t vals, std::size_t val_size,
           std::uintptr_t offsets, int offset_bytes, bool descending, int begin_bit, int end_bit, std::uintptr_t stream,
           int device, std::uintptr_t temp, std::size_t temp_bytes, std::int64_t pool_max, bool nan_largest) {
          const gpusort::key_type k = gpusort_py::key_of(key);
          const gpusort::options opt = make_options(descending, "auto", begin_bit, end_bit, stream, nan_largest);
          nb::gil_scoped_release quiet;
          device_guard g(device);
          return with_scratch(
              [&](void* t, std::size_t& bytes) {
                gpusort::segmented_sort_device(t, bytes, k, n, segments, addr<void>(keys),
                                               addr<void>(vals), val_size, addr<const void>(offsets), offset_bytes, opt);
              },
              temp, temp_bytes, pool_max, device, opt.stream);
        },
        nb::arg("key"), nb::arg("n"), nb::arg("segments"), nb::arg("keys"), nb::arg("vals"), nb::arg("val_size"),
        nb::arg("offsets"), nb::arg("offset_bytes"), nb::arg("descending"), nb::arg("begin_bit"), nb::arg("end_bit"),
        nb::arg("stream"), nb::arg("device"), nb::arg("temp") = 0, nb::arg("temp_bytes") = 0,
        nb::arg("pool_max") = -1, nb::arg("nan_largest") = false);
  m.def("segmented_sort_host",
        [](int key, std::size_t n, std::size_t segments, std::uintptr_t keys, std::uintptr_t vals, std::size_t val_size,
           std::uintptr_t offsets, int offset_bytes, bool descending, int begin_bit, int end_bit, bool nan_largest) {
          const gpusort::key_type k = gpusort_py::key_of(key);
          const gpusort::options opt = make_options(descending, "auto", begin_bit, end_bit, 0, nan_largest);
          nb::gil_scoped_release quiet;
          return std::string(gpusort::to_string(gpusort::segmented_sort_host(
              k, n, segments, addr<void>(keys), addr<void>(vals), val_size,
              addr<const void>(offsets), offset_bytes, opt)));
        },
        nb::arg("key"), nb::arg("n"), nb::arg("segments"), nb::arg("keys"), nb::arg("vals"),
        nb::arg("val_size"), nb::arg("offsets"), nb::arg("offset_bytes"), nb::arg("descending"),
        nb::arg("begin_bit"), nb::arg("end_bit"), nb::arg("nan_largest") = false);

  // gpusort's own stream on a device (non-blocking), for producers that
  // publish none (JAX): the work runs there and is waited for before the
  // output is handed back.
  m.def("own_stream", [](int device) {
    static std::mutex lock;
    static std::vector<std::uintptr_t> streams;
    std::lock_guard<std::mutex> held(lock);
    if (device < 0) fail(errc::invalid_argument, "no CUDA device " + std::to_string(device));
    if (streams.size() <= std::size_t(device)) streams.resize(std::size_t(device) + 1, 0);
    if (!streams[std::size_t(device)]) {
      device_guard g(device);
      cudaStream_t s = nullptr;
      const cudaError_t e = cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking);
      if (e != cudaSuccess) fail(errc::cuda, "cudaStreamCreateWithFlags", e);
      streams[std::size_t(device)] = reinterpret_cast<std::uintptr_t>(s);
    }
    return streams[std::size_t(device)];
  });
  // The device that holds a pointer, or -1 for host memory (CUDA array
  // interface producers name no device).
  m.def("pointer_device", [](std::uintptr_t p) {
    cudaPointerAttributes a{};
    if (cudaPointerGetAttributes(&a, reinterpret_cast<void*>(p)) != cudaSuccess) {
      cudaGetLastError();
      return -1;
    }
    return a.type == cudaMemoryTypeDevice || a.type == cudaMemoryTypeManaged ? a.device : -1;
  });
  // Any DLPack producer: (address, shape, strides in items or None, dtype
  // kind, bits, DLPack device type, device id).
  m.def("dlpack_info", [](nb::ndarray<nb::ro> a) {
    std::vector<std::size_t> shape(a.ndim());
    std::vector<std::int64_t> strides(a.ndim());
    for (std::size_t i = 0; i < a.ndim(); ++i) {
      shape[i] = a.shape(i);
      strides[i] = a.stride(i);
    }
    const auto dt = a.dtype();
    const char* kind = dt.code == std::uint8_t(nb::dlpack::dtype_code::UInt)     ? "u"
                       : dt.code == std::uint8_t(nb::dlpack::dtype_code::Int)    ? "i"
                       : dt.code == std::uint8_t(nb::dlpack::dtype_code::Float)  ? "f"
                       : dt.code == std::uint8_t(nb::dlpack::dtype_code::Bfloat) ? "bf"
                       : dt.code == std::uint8_t(nb::dlpack::dtype_code::Bool)   ? "b"
                       : dt.code == std::uint8_t(nb::dlpack::dtype_code::Complex) ? "c"
                                                                                  : "?";
    return nb::make_tuple(reinterpret_cast<std::uintptr_t>(a.data()), shape, strides, kind, int(dt.bits),
                          a.device_type(), a.device_id());
  });

  m.def("copy_device", [](std::uintptr_t dst, std::uintptr_t src, std::size_t bytes, std::uintptr_t stream, int device) {
    device_guard g(device);
    const cudaError_t e = cudaMemcpyAsync(addr<void>(dst), addr<const void>(src), bytes, cudaMemcpyDeviceToDevice,
                                          reinterpret_cast<cudaStream_t>(stream));
    if (e != cudaSuccess) fail(errc::cuda, "cudaMemcpyAsync(" + std::to_string(bytes) + " bytes)", e);
  });
  // The C++ call that python -m gpusort.bench sets the package's overhead
  // against: `reps` calls of gpusort::sort_keys<float>(temp, bytes, in, out,
  // n) with the scratch allocated once (the fastest C++ use), each waited
  // for; the mean seconds per call.
  m.def("cxx_sort_seconds", [](std::uintptr_t in, std::uintptr_t out, std::size_t n, int reps, int device) {
    nb::gil_scoped_release quiet;
    device_guard g(device);
    std::size_t bytes = 0;
    gpusort::sort_keys<float>(nullptr, bytes, addr<const float>(in), addr<float>(out), n);
    scratch t(bytes, device, nullptr);
    const auto start = std::chrono::steady_clock::now();
    for (int r = 0; r < reps; ++r) {
      gpusort::sort_keys<float>(t.ptr, bytes, addr<const float>(in), addr<float>(out), n);
      const cudaError_t e = cudaStreamSynchronize(nullptr);
      if (e != cudaSuccess) fail(errc::cuda, "cudaStreamSynchronize", e);
    }
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count() / reps;
  });
  m.def("stream_synchronize", [](std::uintptr_t stream, int device) {
    nb::gil_scoped_release quiet;
    device_guard g(device);
    const cudaError_t e = cudaStreamSynchronize(reinterpret_cast<cudaStream_t>(stream));
    if (e != cudaSuccess) fail(errc::cuda, "cudaStreamSynchronize", e);
  });
  m.def("release_memory", [] {
    int count = 0;
    if (cudaGetDeviceCount(&count) != cudaSuccess) {
      cudaGetLastError();
      return;
    }
    for (int d = 0; d < count; ++d) {
      device_guard g(d);
      cudaDeviceSynchronize();
      cudaMemPoolTrimTo(pool_for(d), 0);
    }
  }, "Gives the scratch memory cached by gpusort back to the device.");
  m.def("pool_bytes", [](int device) {
    device_guard g(device);
    cudaMemPool_t pool = pool_for(device);
    std::uint64_t reserved = 0, used = 0;
    cudaError_t e = cudaMemPoolGetAttribute(pool, cudaMemPoolAttrReservedMemCurrent, &reserved);
    if (e == cudaSuccess) e = cudaMemPoolGetAttribute(pool, cudaMemPoolAttrUsedMemCurrent, &used);
    if (e != cudaSuccess) fail(errc::cuda, "cudaMemPoolGetAttribute", e);
    return std::make_pair(reserved, used);
  }, nb::arg("device"), "(reserved, in use): the bytes of gpusort's scratch pool on a device.");

#ifdef GPUSORT_XLA_FFI
  add_xla_ffi(m);
#endif

  nb::class_<device_buffer>(m, "DeviceBuffer", "Device memory owned by gpusort (outputs for JAX and bare producers).")
      .def(nb::init<std::size_t, int>(), nb::arg("bytes"), nb::arg("device"))
      .def_ro("ptr", &device_buffer::ptr)
      .def_ro("bytes", &device_buffer::bytes)
      .def_ro("device", &device_buffer::device);
  m.def("as_array", &as_array, nb::arg("buffer"), nb::arg("kind"), nb::arg("bits"), nb::arg("shape"),
        nb::arg("framework"), "A view of a DeviceBuffer as an array of the framework ('jax' or '').");
}
