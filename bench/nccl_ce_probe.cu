// Whether NCCL can move the multi-GPU sort's exchange on the copy engines:
// two GPUs of one process, one thread (group calls). Three setups: plain
// cudaMalloc buffers and the default CTA policy (what the sort does today);
// buffers from ncclMemAlloc registered as symmetric windows, default policy;
// the same with NCCL_CTA_POLICY_ZERO. For each:
//   send/recv  one group, each rank sending `bytes` to the other
//   alltoall   ncclAlltoAll of `bytes` a peer (looked up at run time: an
//              older NCCL lacks it)
// each alone and beside an 8 GiB device-to-device copy on each GPU (the
// local work an exchange would hide under); send/recv also beside a copy of
// `bytes` (the sort's own share, copied while it exchanges), in GB/s a
// direction, median of
// 5 timed runs after a warm-up. bench/p2p_probe.cu gives the copy engines'
// and SM loads' rates without NCCL; docs/perf/multi_gpu.md has both.
// Built with the multi-GPU target when NCCL is found (target nccl_ce_probe).
// Run: nccl_ce_probe [GiB a direction, default 2]
#include <cuda_runtime.h>
#include <dlfcn.h>
#include <nccl.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <vector>

#include "probe_check.hpp"

#define NCHECK(x)                                                          \
  do {                                                                     \
    const ncclResult_t r_ = (x);                                           \
    probe_check(r_ == ncclSuccess, #x, ncclGetErrorString(r_), __LINE__);  \
  } while (0)

// Windows (ncclCommWindowRegister) and CTA policies came with NCCL 2.28; an
// older nccl.h builds a probe that says so.
#if NCCL_VERSION_CODE >= NCCL_VERSION(2, 28, 0)
using alltoall_fn = ncclResult_t (*)(const void*, void*, size_t, ncclDataType_t, ncclComm_t, cudaStream_t);

namespace {

constexpr int ranks = 2;

struct rank_state {
  ncclComm_t comm = nullptr;
  cudaStream_t xfer = nullptr, load = nullptr;
  cudaEvent_t start = nullptr, stop = nullptr;
  char* send = nullptr;  // [peer][bytes] (alltoall's layout; send/recv uses the peer's slot)
  char* recv = nullptr;
  ncclWindow_t send_win = nullptr, recv_win = nullptr;
  char* load_src = nullptr;
  char* load_dst = nullptr;
};

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

// Communicators over devices 0 and 1 from one thread, with a CTA policy.
void make_comms(rank_state (&r)[ranks], int policy) {
  ncclUniqueId id;
  NCHECK(ncclGetUniqueId(&id));
  NCHECK(ncclGroupStart());
  for (int d = 0; d < ranks; ++d) {
    CHECK(cudaSetDevice(d));
    ncclConfig_t config = NCCL_CONFIG_INITIALIZER;
    config.CTAPolicy = policy;
    NCHECK(ncclCommInitRankConfig(&r[d].comm, ranks, id, d, &config));
  }
  NCHECK(ncclGroupEnd());
}

}  // namespace

int main(int argc, char** argv) {
  const size_t bytes = size_t((argc > 1 ? std::atof(argv[1]) : 2.0) * double(size_t(1) << 30));
  const size_t load_bytes = size_t(8) << 30;
  int count = 0;
  CHECK(cudaGetDeviceCount(&count));
  if (count < ranks) {
    std::printf("needs two GPUs, found %d\n", count);
    return 0;
  }
  int version = 0;
  NCHECK(ncclGetVersion(&version));
  const auto alltoall = reinterpret_cast<alltoall_fn>(dlsym(RTLD_DEFAULT, "ncclAlltoAll"));
  std::printf("NCCL %d; ncclAlltoAll %s; %.2f GiB a direction\n", version, alltoall ? "present" : "absent",
              double(bytes) / double(size_t(1) << 30));

  struct setup {
    int policy;
    bool windows;
    const char* name;
  };
  for (const setup& set : {setup{NCCL_CTA_POLICY_DEFAULT, false, "plain"}, setup{NCCL_CTA_POLICY_DEFAULT, true, "windows"},
                           setup{NCCL_CTA_POLICY_ZERO, true, "zero-CTA"}}) {
    const int policy = set.policy;
    const char* pname = set.name;
    rank_state r[ranks];
    make_comms(r, policy);
    for (int d = 0; d < ranks; ++d) {
      CHECK(cudaSetDevice(d));
      CHECK(cudaStreamCreateWithFlags(&r[d].xfer, cudaStreamNonBlocking));
      CHECK(cudaStreamCreateWithFlags(&r[d].load, cudaStreamNonBlocking));
      CHECK(cudaEventCreate(&r[d].start));
      CHECK(cudaEventCreate(&r[d].stop));
      if (set.windows) {
        NCHECK(ncclMemAlloc(reinterpret_cast<void**>(&r[d].send), bytes * ranks));
        NCHECK(ncclMemAlloc(reinterpret_cast<void**>(&r[d].recv), bytes * ranks));
      } else {
        CHECK(cudaMalloc(&r[d].send, bytes * ranks));
        CHECK(cudaMalloc(&r[d].recv, bytes * ranks));
      }
      CHECK(cudaMemset(r[d].send, d + 1, bytes * ranks));
      CHECK(cudaMalloc(&r[d].load_src, load_bytes));
      CHECK(cudaMalloc(&r[d].load_dst, load_bytes));
    }
    if (set.windows) {
      NCHECK(ncclGroupStart());
      for (int d = 0; d < ranks; ++d) {
        CHECK(cudaSetDevice(d));
        NCHECK(ncclCommWindowRegister(r[d].comm, r[d].send, bytes * ranks, &r[d].send_win, NCCL_WIN_COLL_SYMMETRIC));
        NCHECK(ncclCommWindowRegister(r[d].comm, r[d].recv, bytes * ranks, &r[d].recv_win, NCCL_WIN_COLL_SYMMETRIC));
      }
      NCHECK(ncclGroupEnd());
    }

    auto sendrecv = [&] {
      NCHECK(ncclGroupStart());
      for (int d = 0; d < ranks; ++d) {
        const int peer = 1 - d;
        NCHECK(ncclSend(r[d].send + peer * bytes, bytes, ncclUint8, peer, r[d].comm, r[d].xfer));
        NCHECK(ncclRecv(r[d].recv + peer * bytes, bytes, ncclUint8, peer, r[d].comm, r[d].xfer));
      }
      NCHECK(ncclGroupEnd());
    };
    auto all_to_all = [&] {
      NCHECK(ncclGroupStart());
      for (int d = 0; d < ranks; ++d) NCHECK(alltoall(r[d].send, r[d].recv, bytes, ncclUint8, r[d].comm, r[d].xfer));
      NCHECK(ncclGroupEnd());
    };
    // loaded: bytes of a local copy on each GPU beside the transfer (0: none)
    auto measure = [&](const char* what, const std::function<void()>& op, size_t loaded) {
      std::vector<double> rates;
      for (int rep = 0; rep < 6; ++rep) {
        for (int d = 0; d < ranks; ++d) {
          CHECK(cudaSetDevice(d));
          CHECK(cudaDeviceSynchronize());
          CHECK(cudaEventRecord(r[d].start, r[d].xfer));
          if (loaded)
            CHECK(cudaMemcpyAsync(r[d].load_dst, r[d].load_src, loaded, cudaMemcpyDeviceToDevice, r[d].load));
        }
        op();
        float worst = 0;
        for (int d = 0; d < ranks; ++d) {
          CHECK(cudaSetDevice(d));
          CHECK(cudaEventRecord(r[d].stop, r[d].xfer));
          CHECK(cudaEventSynchronize(r[d].stop));
          float ms = 0;
          CHECK(cudaEventElapsedTime(&ms, r[d].start, r[d].stop));
          worst = std::max(worst, ms);
        }
        if (rep > 0) rates.push_back(double(bytes) / (double(worst) * 1e-3) / 1e9);
      }
      std::printf("%-9s %-44s %8.1f GB/s a direction\n", pname, what, median(rates));
    };
    measure("send/recv group", sendrecv, 0);
    measure("send/recv group, beside an 8 GiB local copy", sendrecv, load_bytes);
    // the sort's case: its own share (as large as what it sends) copied
    // into the receive buffer while the exchange travels
    measure("send/recv group, beside a copy of its own size", sendrecv, bytes);
    if (alltoall) {
      measure("ncclAlltoAll", all_to_all, 0);
      measure("ncclAlltoAll, beside an 8 GiB local copy", all_to_all, load_bytes);
    }
    for (int d = 0; d < ranks; ++d) {
      CHECK(cudaSetDevice(d));
      CHECK(cudaDeviceSynchronize());
    }
    if (set.windows) {
      NCHECK(ncclGroupStart());
      for (int d = 0; d < ranks; ++d) {
        CHECK(cudaSetDevice(d));
        NCHECK(ncclCommWindowDeregister(r[d].comm, r[d].send_win));
        NCHECK(ncclCommWindowDeregister(r[d].comm, r[d].recv_win));
      }
      NCHECK(ncclGroupEnd());
    }
    for (int d = 0; d < ranks; ++d) {
      CHECK(cudaSetDevice(d));
      if (set.windows) {
        NCHECK(ncclMemFree(r[d].send));
        NCHECK(ncclMemFree(r[d].recv));
      } else {
        CHECK(cudaFree(r[d].send));
        CHECK(cudaFree(r[d].recv));
      }
      CHECK(cudaFree(r[d].load_src));
      CHECK(cudaFree(r[d].load_dst));
      NCHECK(ncclCommDestroy(r[d].comm));
    }
  }
  return 0;
}
#else
int main() {
  std::printf("built against NCCL %d.%d: the probe needs 2.28 (windows, CTA policies)\n", NCCL_MAJOR, NCCL_MINOR);
  return 0;
}
#endif
