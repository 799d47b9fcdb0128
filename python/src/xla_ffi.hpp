// gpusort's sort, argsort and top-k as XLA custom calls (XLA's typed FFI),
// the handlers behind gpusort.jax. Built into the extension module when
// CMake finds XLA's FFI headers (jaxlib ships them); see xla_ffi.cpp.
#pragma once

#include <nanobind/nanobind.h>

// Adds xla_ffi_targets() to the module: {"cpu": {name: capsule}, "CUDA":
// {name: capsule}}, the handlers for jax.ffi.register_ffi_target.
void add_xla_ffi(nanobind::module_& m);
