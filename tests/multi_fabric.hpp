// A test transport for the multi-GPU sort (src/multi/transport.hpp): p
// ranks as p host threads on ONE device, each with its own streams and
// buffers. A collective is three barriers: publish (buffers and an event
// after the producing work), copy (each rank pulls what it receives with
// cudaMemcpyAsync once the sender's event has fired), release (nobody
// reuses a buffer before every reader's copy is done). So the sort's logic
// (samples, splitters, partition, the exchange's offsets, the merges) is
// checked for any p on a machine with one GPU; NCCL's transport is the same
// two calls over ncclAllGather and ncclSend/ncclRecv.
#pragma once

#include "gpu_util.hpp"
#include "multi/transport.hpp"

#include <barrier>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

namespace gpusort_test {

class fabric {
 public:
  explicit fabric(int ranks) : ranks_(ranks), bar_(ranks), slots_(std::size_t(ranks)) {
    for (slot& s : slots_) {
      GPUSORT_CUDA(cudaEventCreateWithFlags(&s.ready, cudaEventDisableTiming));
      GPUSORT_CUDA(cudaEventCreateWithFlags(&s.done, cudaEventDisableTiming));
    }
  }
  ~fabric() {
    for (slot& s : slots_) {
      cudaEventDestroy(s.ready);
      cudaEventDestroy(s.done);
    }
  }
  fabric(const fabric&) = delete;
  fabric& operator=(const fabric&) = delete;

 private:
  friend class fabric_rank;
  using part = gpusort::detail::multi::transport::part;
  struct slot {
    const void* send = nullptr;
    std::vector<part> sends;
    cudaEvent_t ready = nullptr, done = nullptr;
  };
  int ranks_;
  std::barrier<> bar_;
  std::vector<slot> slots_;
};

class fabric_rank final : public gpusort::detail::multi::transport {
 public:
  fabric_rank(fabric& f, int rank) : f_(f), rank_(rank) { GPUSORT_CUDA(cudaGetDevice(&device_)); }
  int rank() const override { return rank_; }
  int size() const override { return f_.ranks_; }
  int device() const override { return device_; }

  void all_gather(const void* send, void* recv, std::size_t bytes, cudaStream_t stream) override {
    fabric::slot& me = f_.slots_[std::size_t(rank_)];
    me.send = send;
    GPUSORT_CUDA(cudaEventRecord(me.ready, stream));
    f_.bar_.arrive_and_wait();
    for (int q = 0; q < f_.ranks_; ++q) {
      const fabric::slot& from = f_.slots_[std::size_t(q)];
      GPUSORT_CUDA(cudaStreamWaitEvent(stream, from.ready, 0));
      if (bytes)
        GPUSORT_CUDA(cudaMemcpyAsync(static_cast<std::uint8_t*>(recv) + std::size_t(q) * bytes, from.send, bytes,
                                     cudaMemcpyDeviceToDevice, stream));
    }
    release(stream);
  }

  void exchange(std::span<const part> sends, std::span<const part> receives, cudaStream_t stream) override {
    fabric::slot& me = f_.slots_[std::size_t(rank_)];
    me.sends.assign(sends.begin(), sends.end());
    GPUSORT_CUDA(cudaEventRecord(me.ready, stream));
    f_.bar_.arrive_and_wait();
    std::vector<std::size_t> taken(std::size_t(f_.ranks_), 0);  // receives matched per peer, in order
    for (const part& v : receives) {
      const fabric::slot& from = f_.slots_[std::size_t(v.peer)];
      std::size_t seen = 0;
      const part* match = nullptr;
      for (const part& s : from.sends)
        if (s.peer == rank_ && seen++ == taken[std::size_t(v.peer)]) {
          match = &s;
          break;
        }
      if (!match || match->bytes != v.bytes)
        throw std::logic_error("fabric: rank " + std::to_string(rank_) + " receives " + std::to_string(v.bytes) +
                               " bytes from rank " + std::to_string(v.peer) + ", which sends " +
                               (match ? std::to_string(match->bytes) : std::string("nothing")));
      ++taken[std::size_t(v.peer)];
      GPUSORT_CUDA(cudaStreamWaitEvent(stream, from.ready, 0));
      GPUSORT_CUDA(cudaMemcpyAsync(v.data, match->data, v.bytes, cudaMemcpyDeviceToDevice, stream));
    }
    release(stream);
  }

 private:
  // every reader's copy done before anyone reuses a buffer; slots stay put
  // until every rank has waited on the events
  void release(cudaStream_t stream) {
    GPUSORT_CUDA(cudaEventRecord(f_.slots_[std::size_t(rank_)].done, stream));
    f_.bar_.arrive_and_wait();
    for (int q = 0; q < f_.ranks_; ++q) GPUSORT_CUDA(cudaStreamWaitEvent(stream, f_.slots_[std::size_t(q)].done, 0));
    f_.bar_.arrive_and_wait();
  }
  fabric& f_;
  int rank_;
  int device_ = 0;
};

}  // namespace gpusort_test
