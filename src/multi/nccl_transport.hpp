// The library's transport (transport.hpp) over an NCCL communicator: the
// all-gather is ncclAllGather, the exchange one ncclGroupStart/End group of
// ncclSend and ncclRecv (byte counts, so any key and value width moves).
#pragma once

#include "multi/transport.hpp"

#include <gpusort/detail/core/context.hpp>

#include <nccl.h>

namespace gpusort::detail::multi {

class nccl_transport final : public transport {
 public:
  nccl_transport(ncclComm_t comm, const call_context& ctx);
  int rank() const override { return rank_; }
  int size() const override { return size_; }
  int device() const override { return device_; }
  void all_gather(const void* send, void* recv, std::size_t bytes, cudaStream_t stream) override;
  void exchange(std::span<const part> sends, std::span<const part> receives, cudaStream_t stream) override;

 private:
  void check(ncclResult_t r, const char* what) const;
  ncclComm_t comm_;
  const call_context& ctx_;
  int rank_ = 0, size_ = 1, device_ = 0;
};

}  // namespace gpusort::detail::multi
