// What the two host pipelines (in_core.cpp, out_of_core.cpp) share: the call,
// its three streams (copies in, sorts and merges, copies out) and the events
// that order them. The call is synchronous, so nothing outlives it.
#pragma once

#include "host/plan.hpp"
#include "host/staging.hpp"

#include <gpusort/detail/core/context.hpp>
#include <gpusort/gpusort.hpp>

#include <cuda_runtime_api.h>

#include <cstddef>
#include <vector>

namespace gpusort::detail::host {

template <class K> struct host_call {
  K* keys;
  void* vals;  // null for keys alone
  std::size_t val_size, n;
  options opt;  // the caller's; stream is the caller's stream
  const call_context* ctx;
  bool keys_pinned, vals_pinned;
};

class links {
 public:
  cudaStream_t up = nullptr, work = nullptr, down = nullptr;

  // The three streams start after the work already on the caller's stream.
  links(const call_context& ctx, cudaStream_t caller) : ctx_(ctx) {
    for (cudaStream_t* s : {&up, &work, &down})
      ctx.check(cudaStreamCreateWithFlags(s, cudaStreamNonBlocking), "cudaStreamCreateWithFlags");
    const cudaEvent_t start = mark(caller);
    for (cudaStream_t s : {up, work, down}) wait(s, start);
  }
  ~links() {
    for (cudaStream_t s : {up, work, down})
      if (s) {
        cudaStreamSynchronize(s);
        cudaStreamDestroy(s);
      }
    for (cudaEvent_t e : events_) cudaEventDestroy(e);
  }
  links(const links&) = delete;
  links& operator=(const links&) = delete;

  // An event after everything issued so far on s.
  cudaEvent_t mark(cudaStream_t s) {
    cudaEvent_t e;
    ctx_.check(cudaEventCreateWithFlags(&e, cudaEventDisableTiming), "cudaEventCreateWithFlags");
    events_.push_back(e);
    ctx_.check(cudaEventRecord(e, s), "cudaEventRecord");
    return e;
  }
  void wait(cudaStream_t s, cudaEvent_t e) { ctx_.check(cudaStreamWaitEvent(s, e, 0), "cudaStreamWaitEvent"); }
  // s waits for everything issued so far on `on`.
  void after(cudaStream_t s, cudaStream_t on) { wait(s, mark(on)); }
  void finish() {
    for (cudaStream_t s : {up, work, down}) ctx_.check(cudaStreamSynchronize(s), "cudaStreamSynchronize");
  }

 private:
  const call_context& ctx_;
  std::vector<cudaEvent_t> events_;
};

// The device scratch of one sort_device call of n items (query phase).
template <class K> std::size_t sort_temp(const host_call<K>& c, std::size_t n) {
  std::size_t bytes = 0;
  sort_device<K>(nullptr, &bytes, c.keys, c.keys, c.vals, c.vals, c.val_size, n, c.opt, "sort");
  return bytes;
}
// Sorts n items in place in device memory on `stream`.
template <class K>
void sort_on_device(const host_call<K>& c, void* temp, std::size_t temp_bytes, K* keys, void* vals, std::size_t n,
                    cudaStream_t stream) {
  options o = c.opt;
  o.stream = stream;
  sort_device<K>(temp, &temp_bytes, keys, keys, vals, vals, c.val_size, n, o, "sort");
}

// The merge tile of K's carrier for this call, 0 when the pipeline cannot
// merge it (a partial bit range, a value width without a payload type).
template <class K> std::size_t merge_tile_for(const host_call<K>& c);

template <class K> void sort_in_core(const host_call<K>& c, const in_core_plan& p, void* device, links& l, mover& m);
template <class K>
void sort_out_of_core(const host_call<K>& c, const out_of_core_plan& p, void* device, links& l, mover& m);

}  // namespace gpusort::detail::host
