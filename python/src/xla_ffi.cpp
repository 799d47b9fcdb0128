// gpusort's sort, argsort and top-k as XLA custom calls, through XLA's typed
// FFI (xla/ffi/api/ffi.h): the handlers that gpusort.jax calls with
// jax.ffi.ffi_call, so that the sorts run inside a jax.jit program.
//
// Shapes. The operand's last dimension is sorted; every leading dimension
// (a jax.vmap batch is one more) counts rows, so an operand of shape
// (..., m) is n / m rows of m keys: runtime.hpp's rows entry, which sorts
// each row on its own.
//
// CUDA. The handlers run on the stream XLA gives the call, with their
// scratch as one more result: runtime.hpp's two-phase calls, sized at trace
// time (xla_scratch_bytes) and queued on that stream with no host
// synchronisation, so the call is as asynchronous as XLA's own ops, and XLA
// plans the scratch as it plans every buffer. (XLA's FFI scratch allocator,
// used at first, refused 1.1 GB for 2^28 f32 keys on an 80 GB GPU.)
//
// CPU. The handlers run runtime.hpp's host calls (a GPU when present, else
// the parallel CPU sort) and return when done, as XLA's CPU ops do. Top-k,
// which has no host call, is the row's stable argsort cut to k.
//
// Every gpusort::error becomes an XLA error of its kind, with its message
// (a Python exception at the jax call).
#include "xla_ffi.hpp"

#include <gpusort/runtime.hpp>

#include <nanobind/stl/string.h>
#include <xla/ffi/api/ffi.h>

#include <cuda_runtime_api.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <exception>
#include <limits>
#include <string>
#include <utility>
#include <vector>

namespace ffi = xla::ffi;
namespace nb = nanobind;

namespace {

using gpusort::errc;

// The key type of an XLA element type; false for one gpusort does not sort.
bool key_of(ffi::DataType t, gpusort::key_type& out) {
  switch (t) {
    case ffi::DataType::U8: out = gpusort::key_type::u8; return true;
    case ffi::DataType::U16: out = gpusort::key_type::u16; return true;
    case ffi::DataType::U32: out = gpusort::key_type::u32; return true;
    case ffi::DataType::U64: out = gpusort::key_type::u64; return true;
    case ffi::DataType::S8: out = gpusort::key_type::i8; return true;
    case ffi::DataType::S16: out = gpusort::key_type::i16; return true;
    case ffi::DataType::S32: out = gpusort::key_type::i32; return true;
    case ffi::DataType::S64: out = gpusort::key_type::i64; return true;
    case ffi::DataType::F16: out = gpusort::key_type::f16; return true;
    case ffi::DataType::BF16: out = gpusort::key_type::bf16; return true;
    case ffi::DataType::F32: out = gpusort::key_type::f32; return true;
    case ffi::DataType::F64: out = gpusort::key_type::f64; return true;
    default: return false;
  }
}

// An operand as gpusort's rows: spec.n keys as spec.rows rows of `cols`.
struct rows_of {
  gpusort::sort_spec spec;
  std::size_t cols = 0;
};

// Decodes the operand x of the call `op`; throws gpusort::error for an
// element type gpusort does not sort.
rows_of describe(const ffi::AnyBuffer& x, const char* op) {
  rows_of r;
  if (!key_of(x.element_type(), r.spec.key))
    throw gpusort::error(errc::invalid_argument, std::string(op) + ": the operand's element type is not a gpusort key type");
  const auto dims = x.dimensions();
  r.spec.n = x.element_count();
  r.cols = dims.size() == 0 ? 1 : std::size_t(dims.back());
  r.spec.rows = r.cols == 0 ? 0 : r.spec.n / r.cols;
  return r;
}

// The width of an index result (int32 or int64), checked against the row
// length it must count to.
int index_bytes_of(const ffi::AnyBuffer& indices, std::size_t cols, const char* op) {
  const ffi::DataType t = indices.element_type();
  if (t != ffi::DataType::S32 && t != ffi::DataType::S64)
    throw gpusort::error(errc::invalid_argument, std::string(op) + ": indices must be int32 or int64");
  if (t == ffi::DataType::S32 && cols > std::size_t(std::numeric_limits<std::int32_t>::max()))
    throw gpusort::error(errc::invalid_argument,
                         std::string(op) + ": rows of " + std::to_string(cols) + " keys need int64 indices");
  return t == ffi::DataType::S32 ? 4 : 8;
}

// NaNs as NumPy, PyTorch, CuPy and JAX order them (every NaN above +inf,
// all equal), or by their bits (CUB's order).
gpusort::nan_order nan_order_of(bool nan_largest) {
  return nan_largest ? gpusort::nan_order::largest : gpusort::nan_order::bits;
}

// Top-k's k: the values' last dimension, at most the row length.
std::size_t k_of(const ffi::AnyBuffer& values, std::size_t cols) {
  const auto dims = values.dimensions();
  const std::size_t k = dims.size() == 0 ? 1 : std::size_t(dims.back());
  if (k > cols) throw gpusort::error(errc::invalid_argument, "gpusort_topk: k is larger than the row");
  return k;
}

gpusort::options sort_options(bool descending, bool nan_largest, cudaStream_t stream) {
  gpusort::options opt;
  opt.direction = descending ? gpusort::order::descending : gpusort::order::ascending;
  opt.stream = stream;
  opt.nans = nan_order_of(nan_largest);
  return opt;
}

// Runs `body`; a thrown error becomes the XLA error of its kind.
template <class Body>
ffi::Error guarded(const char* op, Body&& body) {
  try {
    body();
    return ffi::Error::Success();
  } catch (const gpusort::error& e) {
    switch (e.code()) {
      case errc::invalid_argument:
      case errc::unsupported: return ffi::Error(ffi::ErrorCode::kInvalidArgument, e.what());
      case errc::out_of_memory: return ffi::Error(ffi::ErrorCode::kResourceExhausted, e.what());
      default: return ffi::Error(ffi::ErrorCode::kInternal, e.what());
    }
  } catch (const std::exception& e) {
    return ffi::Error(ffi::ErrorCode::kInternal, std::string(op) + ": " + e.what());
  }
}

// The CUDA calls, both phases: with a null temp they only size the scratch
// into `bytes` (xla_scratch_bytes, at trace time), else they queue the work.
// `x`, `out` and `out2` are the operand and the results.
void sort_call(void* temp, std::size_t& bytes, const rows_of& r, const void* x, void* out,
               const gpusort::options& opt) {
  gpusort::sort_device(temp, bytes, r.spec, x, out, nullptr, nullptr, 0, opt);
}

void argsort_call(void* temp, std::size_t& bytes, const rows_of& r, const void* x, void* indices, int ib,
                  const gpusort::options& opt) {
  gpusort::argsort_device(temp, bytes, r.spec, x, indices, ib, opt);
}

gpusort::topk_options topk_opts(bool largest, bool sorted, bool nan_largest, cudaStream_t stream) {
  gpusort::topk_options opt;
  opt.largest = largest;
  opt.sorted = sorted;
  opt.stream = stream;
  opt.nans = nan_order_of(nan_largest);
  return opt;
}

void topk_call(void* temp, std::size_t& bytes, const rows_of& r, std::size_t k, const void* x, void* values,
               void* indices, int ib, const gpusort::topk_options& opt) {
  gpusort::topk_device(temp, bytes, r.spec, k, x, values, indices, ib, opt);
}

// The scratch is the call's last result, a uint8 array that gpusort.jax sizes
// at trace time with xla_scratch_bytes (the same sizing as here), so that XLA
// plans it as it plans every buffer of the program. `call(nullptr, bytes)`
// sizes, `call(temp, bytes)` queues the work.
template <class Call>
void with_scratch(ffi::AnyBuffer& scratch, const char* op, Call&& call) {
  std::size_t need = 0;
  call(nullptr, need);
  std::size_t have = scratch.size_bytes();
  if (!scratch.untyped_data() || have < need)
    throw gpusort::error(errc::invalid_argument, std::string(op) + ": the scratch result holds " + std::to_string(have) +
                                                     " bytes, and the call needs " + std::to_string(need) +
                                                     " (it was sized for another device?)");
  call(scratch.untyped_data(), have);
}

// ---- CUDA --------------------------------------------------------------------
ffi::Error sort_cuda(cudaStream_t stream, bool descending, bool nan_largest, ffi::AnyBuffer x,
                     ffi::Result<ffi::AnyBuffer> y, ffi::Result<ffi::AnyBuffer> scratch) {
  return guarded("gpusort_sort", [&] {
    const rows_of r = describe(x, "gpusort_sort");
    if (r.spec.n == 0) return;
    const gpusort::options opt = sort_options(descending, nan_largest, stream);
    with_scratch(*scratch, "gpusort_sort", [&](void* temp, std::size_t& bytes) {
      sort_call(temp, bytes, r, x.untyped_data(), y->untyped_data(), opt);
    });
  });
}

ffi::Error argsort_cuda(cudaStream_t stream, bool descending, bool nan_largest, ffi::AnyBuffer x,
                        ffi::Result<ffi::AnyBuffer> indices, ffi::Result<ffi::AnyBuffer> scratch) {
  return guarded("gpusort_argsort", [&] {
    const rows_of r = describe(x, "gpusort_argsort");
    const int ib = index_bytes_of(*indices, r.cols, "gpusort_argsort");
    if (r.spec.n == 0) return;
    const gpusort::options opt = sort_options(descending, nan_largest, stream);
    with_scratch(*scratch, "gpusort_argsort", [&](void* temp, std::size_t& bytes) {
      argsort_call(temp, bytes, r, x.untyped_data(), indices->untyped_data(), ib, opt);
    });
  });
}

ffi::Error topk_cuda(cudaStream_t stream, bool largest, bool sorted, bool nan_largest, ffi::AnyBuffer x,
                     ffi::Result<ffi::AnyBuffer> values, ffi::Result<ffi::AnyBuffer> indices,
                     ffi::Result<ffi::AnyBuffer> scratch) {
  return guarded("gpusort_topk", [&] {
    const rows_of r = describe(x, "gpusort_topk");
    const int ib = index_bytes_of(*indices, r.cols, "gpusort_topk");
    const std::size_t k = k_of(*values, r.cols);
    if (r.spec.n == 0 || k == 0) return;
    const gpusort::topk_options opt = topk_opts(largest, sorted, nan_largest, stream);
    with_scratch(*scratch, "gpusort_topk", [&](void* temp, std::size_t& bytes) {
      topk_call(temp, bytes, r, k, x.untyped_data(), values->untyped_data(), indices->untyped_data(), ib, opt);
    });
  });
}

// The scratch bytes of a CUDA call on the current device, for its operand's
// key type and (rows, cols) shape: what the handler above will check. The
// sizing phase reads no memory; it sees stand-in addresses, one per buffer.
std::size_t xla_scratch_bytes(const std::string& op, int key, std::size_t rows, std::size_t cols, std::size_t k,
                              int index_bytes, bool flag, bool sorted, bool nan_largest) {
  if (key < 0 || key >= gpusort::key_type_count)
    throw gpusort::error(errc::invalid_argument, "xla_scratch_bytes: unknown key type code " + std::to_string(key));
  rows_of r;
  r.spec = gpusort::sort_spec{gpusort::key_type(key), rows * cols, cols == 0 ? 0 : rows};
  r.cols = cols;
  if (r.spec.n == 0 || (op == "topk" && k == 0)) return 0;
  const auto at = [](std::uintptr_t i) { return reinterpret_cast<void*>(i << 32); };
  std::size_t bytes = 0;
  if (op == "sort") sort_call(nullptr, bytes, r, at(1), at(2), sort_options(flag, nan_largest, nullptr));
  else if (op == "argsort") argsort_call(nullptr, bytes, r, at(1), at(2), index_bytes, sort_options(flag, nan_largest, nullptr));
  else if (op == "topk") topk_call(nullptr, bytes, r, k, at(1), at(2), at(3), index_bytes, topk_opts(flag, sorted, nan_largest, nullptr));
  else throw gpusort::error(errc::invalid_argument, "xla_scratch_bytes: unknown call '" + op + "'");
  return bytes;
}

// ---- CPU (host memory) ----------------------------------------------------------
ffi::Error sort_cpu(bool descending, bool nan_largest, ffi::AnyBuffer x, ffi::Result<ffi::AnyBuffer> y) {
  return guarded("gpusort_sort", [&] {
    const rows_of r = describe(x, "gpusort_sort");
    if (r.spec.n == 0) return;
    gpusort::sort_host(r.spec, x.untyped_data(), y->untyped_data(), nullptr, nullptr, 0,
                       sort_options(descending, nan_largest, nullptr));
  });
}

ffi::Error argsort_cpu(bool descending, bool nan_largest, ffi::AnyBuffer x, ffi::Result<ffi::AnyBuffer> indices) {
  return guarded("gpusort_argsort", [&] {
    const rows_of r = describe(x, "gpusort_argsort");
    const int ib = index_bytes_of(*indices, r.cols, "gpusort_argsort");
    if (r.spec.n == 0) return;
    gpusort::argsort_host(r.spec, x.untyped_data(), indices->untyped_data(), ib,
                          sort_options(descending, nan_largest, nullptr));
  });
}

// The k best of each row: the row's stable argsort (best first, equal keys
// by index, as the device's top-k breaks ties), cut to its first k; unsorted
// output puts those k back in index order. Then the keys are gathered.
ffi::Error topk_cpu(bool largest, bool sorted, bool nan_largest, ffi::AnyBuffer x, ffi::Result<ffi::AnyBuffer> values,
                    ffi::Result<ffi::AnyBuffer> indices) {
  return guarded("gpusort_topk", [&] {
    const rows_of r = describe(x, "gpusort_topk");
    const int ib = index_bytes_of(*indices, r.cols, "gpusort_topk");
    const std::size_t k = k_of(*values, r.cols);
    if (r.spec.n == 0 || k == 0) return;
    std::vector<std::int64_t> order(r.spec.n);
    gpusort::argsort_host(r.spec, x.untyped_data(), order.data(), 8, sort_options(largest, nan_largest, nullptr));
    const std::size_t w = gpusort::size_of(r.spec.key);
    const auto* in = static_cast<const unsigned char*>(x.untyped_data());
    auto* vo = static_cast<unsigned char*>(values->untyped_data());
    auto* io = static_cast<unsigned char*>(indices->untyped_data());
    for (std::size_t row = 0; row < r.spec.rows; ++row) {
      std::int64_t* best = order.data() + row * r.cols;
      if (!sorted) std::sort(best, best + k);
      const unsigned char* keys = in + row * r.cols * w;
      for (std::size_t j = 0; j < k; ++j) {
        const std::size_t slot = row * k + j;
        std::memcpy(vo + slot * w, keys + std::size_t(best[j]) * w, w);
        if (ib == 4) {
          const auto i32 = std::int32_t(best[j]);
          std::memcpy(io + slot * 4, &i32, 4);
        } else {
          std::memcpy(io + slot * 8, &best[j], 8);
        }
      }
    }
  });
}

}  // namespace

namespace {

// The handlers' signatures, as XLA passes their arguments (in this order):
// the CUDA ones first take XLA's stream, and return their scratch last.
auto on_cuda() { return ffi::Ffi::Bind().Ctx<ffi::PlatformStream<cudaStream_t>>(); }
auto on_cpu() { return ffi::Ffi::Bind(); }

// (descending, nan_largest; keys) -> sorted keys, or indices.
template <class Binding>
auto sort_signature(Binding&& b) {
  return std::move(b).template Attr<bool>("descending").template Attr<bool>("nan_largest")
      .template Arg<ffi::AnyBuffer>().template Ret<ffi::AnyBuffer>();
}

// (largest, sorted, nan_largest; keys) -> (the k best keys, their indices).
template <class Binding>
auto topk_signature(Binding&& b) {
  return std::move(b).template Attr<bool>("largest").template Attr<bool>("sorted").template Attr<bool>("nan_largest")
      .template Arg<ffi::AnyBuffer>().template Ret<ffi::AnyBuffer>().template Ret<ffi::AnyBuffer>();
}

}  // namespace

XLA_FFI_DEFINE_HANDLER_SYMBOL(gpusort_xla_sort_cuda, sort_cuda,
                              sort_signature(on_cuda()).Ret<ffi::AnyBuffer>());
XLA_FFI_DEFINE_HANDLER_SYMBOL(gpusort_xla_argsort_cuda, argsort_cuda,
                              sort_signature(on_cuda()).Ret<ffi::AnyBuffer>());
XLA_FFI_DEFINE_HANDLER_SYMBOL(gpusort_xla_topk_cuda, topk_cuda,
                              topk_signature(on_cuda()).Ret<ffi::AnyBuffer>());
XLA_FFI_DEFINE_HANDLER_SYMBOL(gpusort_xla_sort_cpu, sort_cpu, sort_signature(on_cpu()));
XLA_FFI_DEFINE_HANDLER_SYMBOL(gpusort_xla_argsort_cpu, argsort_cpu, sort_signature(on_cpu()));
XLA_FFI_DEFINE_HANDLER_SYMBOL(gpusort_xla_topk_cpu, topk_cpu, topk_signature(on_cpu()));

namespace {

nb::capsule handler(XLA_FFI_Error* (*fn)(XLA_FFI_CallFrame*)) { return nb::capsule(reinterpret_cast<void*>(fn)); }

}  // namespace

void add_xla_ffi(nb::module_& m) {
  m.def("xla_ffi_targets", [] {
    nb::dict cpu, cuda;
    cpu["gpusort_sort"] = handler(gpusort_xla_sort_cpu);
    cpu["gpusort_argsort"] = handler(gpusort_xla_argsort_cpu);
    cpu["gpusort_topk"] = handler(gpusort_xla_topk_cpu);
    cuda["gpusort_sort"] = handler(gpusort_xla_sort_cuda);
    cuda["gpusort_argsort"] = handler(gpusort_xla_argsort_cuda);
    cuda["gpusort_topk"] = handler(gpusort_xla_topk_cuda);
    nb::dict targets;
    targets["cpu"] = cpu;
    targets["CUDA"] = cuda;
    return targets;
  }, "The XLA FFI handlers behind gpusort.jax, by platform: {platform: {target name: capsule}}.");
  m.def("xla_scratch_bytes", &xla_scratch_bytes, nb::arg("op"), nb::arg("key"), nb::arg("rows"), nb::arg("cols"),
        nb::arg("k"), nb::arg("index_bytes"), nb::arg("flag"), nb::arg("sorted"), nb::arg("nan_largest"),
        "The scratch bytes of the CUDA handler `op` ('sort', 'argsort', 'topk') on the current device; flag is "
        "descending (sort, argsort) or largest (topk).");
}
