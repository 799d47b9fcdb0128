// What the multi-GPU sort needs from the fabric between its ranks: an
// all-gather of equal blocks and one group of point-to-point transfers.
// The library's transport is NCCL's (nccl_transport.hpp: ncclAllGather, and
// ncclSend/ncclRecv in one group); the GPU tests add one that runs p ranks
// as threads on one device (tests/multi_fabric.hpp), so the sort's logic is
// checked for any p on a machine with one GPU. Plain C++.
#pragma once

#include <cuda_runtime_api.h>

#include <cstddef>
#include <span>

namespace gpusort::detail::multi {

class transport {
 public:
  virtual ~transport() = default;
  virtual int rank() const = 0;
  virtual int size() const = 0;
  // The CUDA device this rank runs on (the caller's current device must be it).
  virtual int device() const = 0;

  // recv[q * bytes, (q + 1) * bytes) = rank q's send[0, bytes), for every
  // rank q; enqueued on `stream`. Collective: every rank calls it.
  virtual void all_gather(const void* send, void* recv, std::size_t bytes, cudaStream_t stream) = 0;

  // One transfer of the group: `bytes` bytes to (send) or from (receive) `peer`.
  struct part {
    int peer;
    void* data;
    std::size_t bytes;
  };
  // Every send and receive of this rank, as one group enqueued on `stream`:
  // rank q's send to r and r's receive from q name the same byte count.
  // Collective: every rank calls it (with empty lists when it has none).
  virtual void exchange(std::span<const part> sends, std::span<const part> receives, cudaStream_t stream) = 0;
};

}  // namespace gpusort::detail::multi
