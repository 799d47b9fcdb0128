// What the package's two extension modules (_gpusort, module.cpp, and
// _gpusort_dist, dist_module.cpp) share: gpusort::error with a CUDA error's
// name, the caller's device kept around a call, and the one mapping from
// gpusort::error to Python's exceptions, so that both modules raise alike.
#pragma once

#include <nanobind/nanobind.h>

#include <gpusort/error.hpp>
#include <gpusort/runtime.hpp>

#include <cuda_runtime_api.h>

#include <exception>
#include <string>

namespace gpusort_py {

[[noreturn]] inline void fail(gpusort::errc code, const std::string& what, cudaError_t e = cudaSuccess) {
  std::string msg = "gpusort: " + what;
  if (e != cudaSuccess) msg += std::string(": ") + cudaGetErrorName(e) + " (" + cudaGetErrorString(e) + ")";
  throw gpusort::error(code, msg, e);
}

// The key type behind a runtime.hpp key_type code (the package's dtype map).
inline gpusort::key_type key_of(int code) {
  if (code < 0 || code >= gpusort::key_type_count)
    fail(gpusort::errc::invalid_argument, "unknown key type code " + std::to_string(code));
  return gpusort::key_type(code);
}

// Runs with `device` current, and puts the caller's device back.
class device_guard {
 public:
  explicit device_guard(int device) {
    cudaGetDevice(&old_);
    if (device != old_) {
      const cudaError_t e = cudaSetDevice(device);
      if (e != cudaSuccess) {
        cudaGetLastError();
        fail(gpusort::errc::invalid_argument, "device " + std::to_string(device) + " cannot be used", e);
      }
      set_ = true;
    }
  }
  ~device_guard() {
    if (set_) cudaSetDevice(old_);
  }
  device_guard(const device_guard&) = delete;
  device_guard& operator=(const device_guard&) = delete;

 private:
  int old_ = 0;
  bool set_ = false;
};

// gpusort::error -> the Python exception of its kind, with its message:
// ValueError for bad arguments and what a build does not support,
// MemoryError, OSError, RuntimeError for CUDA (and NCCL) failures.
inline void register_error_translator() {
  nanobind::register_exception_translator([](const std::exception_ptr& p, void*) {
    try {
      std::rethrow_exception(p);
    } catch (const gpusort::error& e) {
      switch (e.code()) {
        case gpusort::errc::invalid_argument:
        case gpusort::errc::unsupported: PyErr_SetString(PyExc_ValueError, e.what()); break;
        case gpusort::errc::out_of_memory: PyErr_SetString(PyExc_MemoryError, e.what()); break;
        case gpusort::errc::io: PyErr_SetString(PyExc_OSError, e.what()); break;
        default: PyErr_SetString(PyExc_RuntimeError, e.what());
      }
    }
  });
}

}  // namespace gpusort_py
