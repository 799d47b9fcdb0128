// gpusort._gpusort_dist: the multi-GPU sort (include/gpusort/multi.hpp)
// behind gpusort.distributed and gpusort.sort(host_array, devices=...).
//
// A module of its own so that the base module never needs NCCL: this one
// links gpusort::multi and so libnccl.so.2, which the package loads only
// when a multi-GPU call is made (python/gpusort/_dist_load.py finds NCCL
// first: the nvidia-nccl wheel's, or the system's).
//
// Like _gpusort it speaks raw addresses: the package turns a framework's
// array into (address, key type code, device, stream) and allocates outputs
// and scratch with the framework's allocator. What it adds:
//   * NCCL communicators of our own, one per (process group, device) in the
//     package's cache: a unique id (bytes, broadcast by the caller through
//     its own group), ncclCommInitRankConfig with gpusort's comm_config(nranks)
//     (the exchange's CTAs capped so the sort beside it keeps the SMs),
//     destroy and abort; a communicator is a Python int (its address);
//   * one rank's sort of keys or pairs on device memory, two-phase: a size
//     query, then the call with the caller's scratch; or, with no scratch,
//     gpusort's allocating form (stream-ordered cudaMallocAsync);
//   * the convenience call over the first g GPUs of the process for a host
//     array (multi::sort(in, out, g)), and release_cache().
// The multi-GPU call synchronises its stream (NCCL takes the exchange's
// sizes on the host), so the GIL is released around it and around
// communicator setup, which waits for every rank.
#include <nanobind/nanobind.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/tuple.h>
#include <nanobind/stl/vector.h>

#include <gpusort/multi.hpp>
#include <gpusort/runtime.hpp>
#include <gpusort/detail/with_key.hpp>

#include "module_common.hpp"

#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_runtime_api.h>
#include <nccl.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <span>
#include <string>
#include <tuple>
#include <vector>

namespace nb = nanobind;

namespace {

using gpusort::errc;
using gpusort_py::device_guard;
using gpusort_py::fail;
using gpusort_py::key_of;

void nccl_check(ncclResult_t r, const std::string& what, ncclComm_t comm = nullptr) {
  if (r == ncclSuccess) return;
  std::string msg = what + " failed: " + ncclGetErrorString(r);
#if NCCL_VERSION_CODE >= NCCL_VERSION(2, 13, 0)
  const char* last = ncclGetLastError(comm);
  if (last && *last) msg += std::string(" (") + last + ")";
#else
  (void)comm;
#endif
  fail(r == ncclInvalidArgument || r == ncclInvalidUsage ? errc::invalid_argument : errc::cuda, msg);
}

ncclComm_t as_comm(std::uintptr_t c) {
  if (!c) fail(errc::invalid_argument, "a null NCCL communicator");
  return reinterpret_cast<ncclComm_t>(c);
}

gpusort::multi::options make_options(bool descending, bool nan_largest, std::uintptr_t stream) {
  gpusort::multi::options opt;
  opt.direction = descending ? gpusort::order::descending : gpusort::order::ascending;
  opt.nans = nan_largest ? gpusort::nan_order::largest : gpusort::nan_order::bits;
  opt.stream = reinterpret_cast<cudaStream_t>(stream);
  return opt;
}

// (bytes needed, this rank's count, every rank's count): the query returns
// (bytes, 0, []), a sort (0, count, counts).
using sort_result = std::tuple<std::size_t, std::size_t, std::vector<std::size_t>>;

sort_result sort_device(std::uintptr_t comm, int key, std::size_t n, std::size_t capacity, std::uintptr_t keys_in,
                        std::uintptr_t keys_out, std::uintptr_t vals_in, std::uintptr_t vals_out, std::size_t val_size,
                        bool descending, bool nan_largest, std::uintptr_t stream, int device, std::uintptr_t temp,
                        std::size_t temp_bytes, bool query) {
  const ncclComm_t c = as_comm(comm);
  const gpusort::multi::options opt = make_options(descending, nan_largest, stream);
  const char* op = val_size ? "distributed.sort_pairs" : "distributed.sort";
  nb::gil_scoped_release quiet;
  device_guard g(device);
  return gpusort::detail::with_key(key_of(key), [&]<class K>() -> sort_result {
    namespace md = gpusort::multi::detail;
    const K* kin = reinterpret_cast<const K*>(keys_in);
    K* kout = reinterpret_cast<K*>(keys_out);
    const void* vin = reinterpret_cast<const void*>(vals_in);
    void* vout = reinterpret_cast<void*>(vals_out);
    gpusort::multi::result r;
    if (query) {
      std::size_t bytes = 0;
      md::sort_device<K>(c, nullptr, &bytes, kin, kout, vin, vout, val_size, n, capacity, opt, op);
      return {bytes, 0, {}};
    }
    if (temp) {
      std::size_t bytes = temp_bytes;
      r = md::sort_device<K>(c, reinterpret_cast<void*>(temp), &bytes, kin, kout, vin, vout, val_size, n, capacity,
                             opt, op);
    } else {
      r = md::sort_device_alloc<K>(c, kin, kout, vin, vout, val_size, n, capacity, opt, op);
    }
    return {0, r.count, r.counts};
  });
}

// Out of place (data_in != data_out) or in place; multi::sort chooses how
// the keys move (a pageable output is filled with every core first).
void sort_host(int key, std::size_t n, std::uintptr_t data_in, std::uintptr_t data_out, int gpus, bool descending,
               bool nan_largest) {
  const gpusort::multi::options opt = make_options(descending, nan_largest, 0);
  nb::gil_scoped_release quiet;
  gpusort::detail::with_key(key_of(key), [&]<class K>() {
    gpusort::multi::sort(std::span<const K>(reinterpret_cast<const K*>(data_in), n),
                         std::span<K>(reinterpret_cast<K*>(data_out), n), gpus, opt);
  });
}

}  // namespace

NB_MODULE(_gpusort_dist, m) {
  m.doc() = "gpusort's multi-GPU module (NCCL): raw addresses. Use gpusort.distributed, not this.";
  gpusort_py::register_error_translator();

  m.def("nccl_version", [] {
    int v = 0;
    nccl_check(ncclGetVersion(&v), "ncclGetVersion");
    return v;
  }, "The NCCL version loaded (e.g. 22805 for 2.28.5).");
  m.def("device_count", [] {
    int count = 0;
    if (cudaGetDeviceCount(&count) != cudaSuccess) {
      cudaGetLastError();
      return 0;
    }
    return count;
  }, "The CUDA devices visible to this process (0 without a driver).");
  m.def("unique_id", [] {
    ncclUniqueId id;
    nccl_check(ncclGetUniqueId(&id), "ncclGetUniqueId");
    return nb::bytes(reinterpret_cast<const char*>(&id), sizeof id);
  }, "A new ncclUniqueId, as bytes: made by one rank, handed to every rank of the group.");
  m.def("unique_id_bytes", [] { return std::size_t(NCCL_UNIQUE_ID_BYTES); });
  m.def("comm_init",
        [](nb::bytes id, int nranks, int rank, int device) {
          if (id.size() != sizeof(ncclUniqueId))
            fail(errc::invalid_argument, "an NCCL unique id of " + std::to_string(id.size()) + " bytes (expected " +
                                             std::to_string(sizeof(ncclUniqueId)) + ")");
          if (nranks < 1 || rank < 0 || rank >= nranks)
            fail(errc::invalid_argument, "rank " + std::to_string(rank) + " of " + std::to_string(nranks));
          ncclUniqueId uid;
          std::memcpy(&uid, id.c_str(), sizeof uid);
          ncclConfig_t config = gpusort::multi::comm_config(nranks);
          ncclComm_t comm = nullptr;
          {
            nb::gil_scoped_release quiet;
            device_guard g(device);
            nccl_check(ncclCommInitRankConfig(&comm, nranks, uid, rank, &config),
                       "ncclCommInitRankConfig (rank " + std::to_string(rank) + " of " + std::to_string(nranks) +
                           " on device " + std::to_string(device) + ")");
          }
          return reinterpret_cast<std::uintptr_t>(comm);
        },
        nb::arg("unique_id"), nb::arg("nranks"), nb::arg("rank"), nb::arg("device"),
        "A communicator (its address) of rank `rank` of `nranks` on `device`, with gpusort's comm_config(nranks). "
        "Every rank must call it with the same id: it waits for all of them.");
  m.def("comm_destroy", [](std::uintptr_t c) {
    nb::gil_scoped_release quiet;
    nccl_check(ncclCommDestroy(as_comm(c)), "ncclCommDestroy");
  }, nb::arg("comm"));
  m.def("comm_abort", [](std::uintptr_t c) {
    nb::gil_scoped_release quiet;
    nccl_check(ncclCommAbort(as_comm(c)), "ncclCommAbort");
  }, nb::arg("comm"), "Frees the communicator at once, ending its pending operations (a rank that failed).");
  m.def("comm_info", [](std::uintptr_t c) {
    int count = 0, rank = 0, device = 0;
    const ncclComm_t comm = as_comm(c);
    nccl_check(ncclCommCount(comm, &count), "ncclCommCount", comm);
    nccl_check(ncclCommUserRank(comm, &rank), "ncclCommUserRank", comm);
    nccl_check(ncclCommCuDevice(comm, &device), "ncclCommCuDevice", comm);
    return std::make_tuple(count, rank, device);
  }, nb::arg("comm"), "(ranks, rank, device) of a communicator.");
  m.def("output_capacity", &gpusort::multi::output_capacity, nb::arg("n_total"), nb::arg("ranks"),
        "The keys any rank may receive when n_total keys are sorted over `ranks` ranks.");

  m.def("sort_device", &sort_device, nb::arg("comm"), nb::arg("key"), nb::arg("n"), nb::arg("capacity"),
        nb::arg("keys_in"), nb::arg("keys_out"), nb::arg("vals_in"), nb::arg("vals_out"), nb::arg("val_size"),
        nb::arg("descending"), nb::arg("nan_largest"), nb::arg("stream"), nb::arg("device"), nb::arg("temp") = 0,
        nb::arg("temp_bytes") = 0, nb::arg("query") = false,
        "One rank's multi-GPU sort of n keys (and values of val_size bytes) into outputs of `capacity`: "
        "query=True returns (bytes, 0, []); with temp, or with none (gpusort allocates on the stream), "
        "(0, count, counts). Synchronises the stream.");
  m.def("sort_host", &sort_host, nb::arg("key"), nb::arg("n"), nb::arg("data_in"), nb::arg("data_out"),
        nb::arg("gpus"), nb::arg("descending"), nb::arg("nan_largest"),
        "Sorts n host keys over GPUs 0 .. gpus - 1 of this process (0: all) into data_out (copied from "
        "data_in first when they differ).");
  m.def("release_cache", [] {
    nb::gil_scoped_release quiet;
    gpusort::multi::release_cache();
  }, "Frees what the host call keeps between calls: its communicators and memory pools.");
}
