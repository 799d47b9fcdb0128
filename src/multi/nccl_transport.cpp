// nccl_transport.hpp's definitions.
#include "multi/nccl_transport.hpp"

#include <string>

namespace gpusort::detail::multi {

nccl_transport::nccl_transport(ncclComm_t comm, const call_context& ctx) : comm_(comm), ctx_(ctx) {
  if (!comm) ctx.fail(errc::invalid_argument, "the NCCL communicator is null");
  check(ncclCommCount(comm, &size_), "ncclCommCount");
  check(ncclCommUserRank(comm, &rank_), "ncclCommUserRank");
  check(ncclCommCuDevice(comm, &device_), "ncclCommCuDevice");
}

void nccl_transport::check(ncclResult_t r, const char* what) const {
  if (r == ncclSuccess) return;
  std::string msg = std::string(what) + " failed: " + ncclGetErrorString(r);
  const char* last = ncclGetLastError(comm_);
  if (last && *last) msg += std::string(" (") + last + ")";
  ctx_.fail(r == ncclInvalidArgument || r == ncclInvalidUsage ? errc::invalid_argument : errc::cuda, msg);
}

void nccl_transport::all_gather(const void* send, void* recv, std::size_t bytes, cudaStream_t stream) {
  check(ncclAllGather(send, recv, bytes, ncclUint8, comm_, stream), "ncclAllGather");
}

void nccl_transport::exchange(std::span<const part> sends, std::span<const part> receives, cudaStream_t stream) {
  check(ncclGroupStart(), "ncclGroupStart");
  ncclResult_t r = ncclSuccess;
  for (const part& s : sends)
    if (r == ncclSuccess) r = ncclSend(s.data, s.bytes, ncclUint8, s.peer, comm_, stream);
  for (const part& v : receives)
    if (r == ncclSuccess) r = ncclRecv(v.data, v.bytes, ncclUint8, v.peer, comm_, stream);
  const ncclResult_t end = ncclGroupEnd();
  check(r, "ncclSend/ncclRecv");
  check(end, "ncclGroupEnd");
}

}  // namespace gpusort::detail::multi
