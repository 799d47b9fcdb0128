// gpusort multi-run: the multi-GPU sort's test driver, in every launch shape
// the library supports:
//   --threads N   one process drives N GPUs, a thread each (multi::init_comms)
//   --procs N     N processes with one GPU each, forked here before any
//                 CUDA or NCCL state exists; rank 0 (the parent) makes the
//                 ncclUniqueId and pipes it to the others, then every rank
//                 calls ncclCommInitRankConfig (multi::comm_config)
//   a launcher    under mpirun (OMPI_COMM_WORLD_RANK/SIZE, PMI_RANK/SIZE) or
//                 srun (SLURM_PROCID/NTASKS) this process is one rank, on
//                 GPU (local rank % visible GPUs); rank 0 writes the id to
//                 --id-file, which the others read (a path every rank
//                 sees: a shared folder across nodes)
// Every rank generates the same input (--n keys of --dist, --seed), sorts
// its equal shard (pairs: value = original index, --pairs), and checks its
// output range against std::stable_sort of the whole input, bit for bit
// (pairs: the stable permutation), with its share of n / p. --key, --dist
// and --n take comma lists (--key all: every key type); every combination
// runs over the one communicator. Exit 0 when every rank passed every one.
#include "args.hpp"
#include "commands.hpp"
#include "keys.hpp"

#include <cstdio>

#ifdef GPUSORT_HAS_MULTI
#include "harness/harness.hpp"

#include <gpusort/multi.hpp>

#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <tuple>
#include <numeric>
#include <string>
#include <thread>
#include <vector>

namespace gpusort::cli {
namespace {

const char* usage =
    "usage: gpusort multi-run (--threads N | --procs N | under mpirun/srun --id-file PATH)\n"
    "                         [--key K,..|all] [--pairs] [--n N,..] [--dist D,..] [--seed S] [--descending]\n"
    "                         [--strategy auto|partition_first|sort_first|radix_first] [--rounds K]\n"
    "  sorts --n generated keys (default 2^24 u32 uniform) over N GPUs with the\n"
    "  multi-GPU sort and checks every rank's range against std::stable_sort;\n"
    "  lists run every combination.\n";

struct job {
  std::string key = "u32", dist = "uniform";
  bool pairs = false, descending = false;
  multi::strategy how = multi::strategy::automatic;
  int rounds = 0;
  std::size_t n = std::size_t(1) << 24;
  std::uint64_t seed = 1;
};

void nccl_ok(ncclResult_t r, const char* what) {
  if (r != ncclSuccess) throw usage_error(std::string(what) + " failed: " + ncclGetErrorString(r));
}

// One rank: sort its shard, check its range. Returns whether it passed.
template <class K> bool run_rank(const job& j, ncclComm_t comm, int rank, int ranks, bool loud) {
  harness::dist d;
  if (!harness::parse_dist(j.dist, d)) throw usage_error("unknown distribution '" + j.dist + "'");
  const auto keys = harness::generate<K>(d, j.n, j.seed);
  const std::size_t lo = j.n * std::size_t(rank) / std::size_t(ranks), hi = j.n * std::size_t(rank + 1) / std::size_t(ranks);
  const std::size_t m = hi - lo, cap = multi::output_capacity(j.n, ranks);
  cudaStream_t st;
  if (cudaStreamCreateWithFlags(&st, cudaStreamNonBlocking) != cudaSuccess) throw usage_error("cudaStreamCreate failed");
  K *in = nullptr, *out = nullptr;
  std::uint64_t *vin = nullptr, *vout = nullptr;
  auto alloc = [](void** p, std::size_t b) {
    if (cudaMalloc(p, b ? b : 1) != cudaSuccess) throw usage_error("cudaMalloc failed");
  };
  alloc(reinterpret_cast<void**>(&in), m * sizeof(K));
  alloc(reinterpret_cast<void**>(&out), cap * sizeof(K));
  cudaMemcpy(in, keys.data() + lo, m * sizeof(K), cudaMemcpyHostToDevice);
  if (j.pairs) {
    alloc(reinterpret_cast<void**>(&vin), m * 8);
    alloc(reinterpret_cast<void**>(&vout), cap * 8);
    std::vector<std::uint64_t> idx(m);
    std::iota(idx.begin(), idx.end(), std::uint64_t(lo));
    cudaMemcpy(vin, idx.data(), m * 8, cudaMemcpyHostToDevice);
  }
  multi::options o;
  o.stream = st;
  o.timed = true;
  o.how = j.how;
  o.rounds = j.rounds;
  o.direction = j.descending ? order::descending : order::ascending;
  const auto t0 = std::chrono::steady_clock::now();
  const multi::result res = j.pairs ? multi::sort_pairs(in, out, vin, vout, m, cap, comm, o)
                                    : multi::sort_keys(in, out, m, cap, comm, o);
  cudaStreamSynchronize(st);
  const double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
  std::vector<K> got(res.count);
  std::vector<std::uint64_t> gv(j.pairs ? res.count : 0);
  cudaMemcpy(got.data(), out, res.count * sizeof(K), cudaMemcpyDeviceToHost);
  if (j.pairs) cudaMemcpy(gv.data(), vout, res.count * 8, cudaMemcpyDeviceToHost);
  for (void* p : {static_cast<void*>(in), static_cast<void*>(out), static_cast<void*>(vin), static_cast<void*>(vout)})
    if (p) cudaFree(p);
  cudaStreamDestroy(st);
  // the oracle: the stable order of the whole input; this rank's range of it
  const detail::key_order<K> ord(j.descending, 0, int(sizeof(K)) * 8);
  std::vector<std::size_t> idx(j.n);
  std::iota(idx.begin(), idx.end(), std::size_t(0));
  std::stable_sort(idx.begin(), idx.end(),
                   [&](std::size_t a, std::size_t b) { return ord.key_rank(keys[a]) < ord.key_rank(keys[b]); });
  std::size_t at = 0, sum = 0;
  for (int q = 0; q < ranks; ++q) {
    if (q < rank) at += res.counts[std::size_t(q)];
    sum += res.counts[std::size_t(q)];
  }
  bool ok = sum == j.n && at + res.count <= j.n;
  for (std::size_t i = 0; ok && i < res.count; ++i) {
    ok = std::memcmp(&got[i], &keys[idx[at + i]], sizeof(K)) == 0;
    if (ok && j.pairs) ok = gv[i] == idx[at + i];
  }
  if (!loud && ok) return true;
  const double share = double(j.n) / ranks;
  std::printf("rank %d/%d (GPU %d): %zu keys (%.2f%% of n / p) in %.3f ms: partition %.3f, exchange %.3f, sorts %.3f, "
              "merges %.3f; %s %s %s n=%zu %s\n",
              rank, ranks, [] { int dv = -1; cudaGetDevice(&dv); return dv; }(), res.count,
              share > 0 ? 100.0 * double(res.count) / share : 100.0, ms, double(res.partition_ms),
              double(res.exchange_ms), double(res.sort_ms), double(res.merge_ms), ok ? "verified" : "WRONG", j.key.c_str(),
              j.dist.c_str(), j.n, j.pairs ? "pairs" : "keys");
  std::fflush(stdout);
  return ok;
}

// Every job over one communicator; a line per job when there is one, else
// per failure, and a summary per rank.
bool run_jobs(const std::vector<job>& jobs, ncclComm_t comm, int rank, int ranks) {
  std::size_t passed = 0;
  for (const job& j : jobs) {
    bool ok = false;
    if (!with_key(j.key, [&]<class K>() { ok = run_rank<K>(j, comm, rank, ranks, jobs.size() == 1); }))
      throw usage_error("unknown key type '" + j.key + "'");
    passed += ok;
  }
  if (jobs.size() > 1) {
    std::printf("rank %d/%d: %zu of %zu cases verified\n", rank, ranks, passed, jobs.size());
    std::fflush(stdout);
  }
  return passed == jobs.size();
}

// Every combination of the --key, --dist and --n lists, checked before any
// GPU work so that a typo fails at once on every rank.
std::vector<job> jobs_of(const parsed_args& a) {
  job base;
  base.pairs = a.flag("pairs");
  base.descending = a.flag("descending");
  base.seed = parse_count(a.value_or("seed", "1"), "--seed");
  const std::string how = a.value_or("strategy", "auto");
  if (how == "partition_first") base.how = multi::strategy::partition_first;
  else if (how == "sort_first") base.how = multi::strategy::sort_first;
  else if (how == "radix_first") base.how = multi::strategy::radix_first;
  else if (how != "auto") throw usage_error("--strategy: auto, partition_first, sort_first or radix_first");
  base.rounds = int(parse_count(a.value_or("rounds", "0"), "--rounds"));
  if (base.rounds > multi::max_rounds) throw usage_error("--rounds: 0 to " + std::to_string(multi::max_rounds));
  std::vector<std::string> keys = split_list(a.value_or("key", "u32"));
  if (keys.size() == 1 && keys[0] == "all") keys.assign(std::begin(key_names), std::end(key_names));
  std::vector<job> jobs;
  for (const auto& k : keys) {
    if (!with_key(k, []<class>() {})) throw usage_error("unknown key type '" + k + "'");
    for (const auto& d : split_list(a.value_or("dist", "uniform"))) {
      harness::dist dd;
      if (!harness::parse_dist(d, dd)) throw usage_error("unknown distribution '" + d + "'");
      for (const auto& n : split_list(a.value_or("n", "2^24"))) {
        job j = base;
        j.key = k;
        j.dist = d;
        j.n = std::size_t(parse_count(n, "--n"));
        jobs.push_back(j);
      }
    }
  }
  return jobs;
}

// This process's rank and size under a launcher, if any.
bool launched(int& rank, int& size, int& local) {
  for (auto [r, s, l] : {std::tuple{"OMPI_COMM_WORLD_RANK", "OMPI_COMM_WORLD_SIZE", "OMPI_COMM_WORLD_LOCAL_RANK"},
                         {"PMI_RANK", "PMI_SIZE", "MPI_LOCALRANKID"},
                         {"SLURM_PROCID", "SLURM_NTASKS", "SLURM_LOCALID"}}) {
    const char *rv = std::getenv(r), *sv = std::getenv(s), *lv = std::getenv(l);
    if (rv && sv) {
      rank = std::atoi(rv);
      size = std::atoi(sv);
      local = lv ? std::atoi(lv) : rank;
      return true;
    }
  }
  return false;
}

}  // namespace

int cmd_multi_run(int argc, char** argv) {
  parsed_args a(argc, argv, 2,
                {{"threads", true}, {"procs", true}, {"id-file", true}, {"key", true}, {"pairs", false},
                 {"n", true}, {"dist", true}, {"seed", true}, {"descending", false}, {"strategy", true},
                 {"rounds", true}},
                "multi-run");
  if (a.flag("help")) {
    std::printf("%s", usage);
    return exit_ok;
  }
  a.expect_positionals(0, 0, "no positional arguments");
  const std::vector<job> jobs = jobs_of(a);
  int rank = 0, size = 0, local = 0;
  if (a.value("threads")) {  // one process, a thread per GPU
    const int g = int(parse_count(*a.value("threads"), "--threads"));
    std::vector<ncclComm_t> comms = multi::init_comms(g);
    std::vector<int> ok(static_cast<std::size_t>(g), 0);
    std::vector<std::thread> threads;
    for (int q = 0; q < g; ++q)
      threads.emplace_back([&, q] {
        cudaSetDevice(q);
        try {
          ok[std::size_t(q)] = run_jobs(jobs, comms[std::size_t(q)], q, g);
        } catch (const std::exception& e) {  // its peers wait on it in NCCL: stop here
          std::fflush(stdout);
          std::fprintf(stderr, "rank %d: %s; stopping (its peers wait on it in NCCL)\n", q, e.what());
          std::_Exit(exit_failure);
        }
      });
    for (auto& t : threads) t.join();
    for (ncclComm_t c : comms) ncclCommDestroy(c);
    return std::all_of(ok.begin(), ok.end(), [](int x) { return x; }) ? exit_ok : exit_failure;
  }
  ncclUniqueId id;
  if (a.value("procs")) {  // N processes, forked before any CUDA or NCCL state exists; the id by pipe
    const int g = int(parse_count(*a.value("procs"), "--procs"));
    std::fflush(stdout);
    std::vector<pid_t> kids;
    std::vector<int> pipes;
    int from_parent = -1;
    for (int q = 1; q < g; ++q) {
      int fd[2];
      if (pipe(fd) != 0) throw usage_error("pipe failed");
      const pid_t pid = fork();
      if (pid < 0) throw usage_error("fork failed");
      if (pid == 0) {
        close(fd[1]);
        for (int w : pipes) close(w);
        rank = q;
        from_parent = fd[0];
        kids.clear();
        break;
      }
      close(fd[0]);
      pipes.push_back(fd[1]);
      kids.push_back(pid);
    }
    size = g;
    local = rank;
    bool ok = false;
    try {
      if (rank == 0) {
        nccl_ok(ncclGetUniqueId(&id), "ncclGetUniqueId");
        for (int w : pipes) {
          if (write(w, &id, sizeof id) != ssize_t(sizeof id)) throw usage_error("write to a child failed");
          close(w);
        }
      } else if (read(from_parent, &id, sizeof id) != ssize_t(sizeof id)) {
        throw usage_error("no NCCL id from the parent");
      }
      int devices = 0;
      cudaGetDeviceCount(&devices);
      cudaSetDevice(devices > 0 ? local % devices : 0);
      ncclComm_t comm;
      ncclConfig_t config = multi::comm_config(size);
      nccl_ok(ncclCommInitRankConfig(&comm, size, id, rank, &config), "ncclCommInitRankConfig");
      ok = run_jobs(jobs, comm, rank, size);
      ncclCommDestroy(comm);
    } catch (const std::exception& e) {
      std::fprintf(stderr, "rank %d: %s\n", rank, e.what());
    }
    if (rank != 0) {
      std::fflush(stdout);
      std::_Exit(ok ? exit_ok : exit_failure);
    }
    for (pid_t k : kids) {
      int status = 0;
      waitpid(k, &status, 0);
      ok = ok && WIFEXITED(status) && WEXITSTATUS(status) == 0;
    }
    return ok ? exit_ok : exit_failure;
  }
  if (!launched(rank, size, local))
    throw usage_error("give --threads N or --procs N, or run under mpirun/srun with --id-file PATH");
  const std::string path = a.required("id-file");
  if (rank == 0) {
    nccl_ok(ncclGetUniqueId(&id), "ncclGetUniqueId");
    const std::string tmp = path + ".tmp";
    std::ofstream(tmp, std::ios::binary).write(reinterpret_cast<const char*>(&id), sizeof id);
    std::rename(tmp.c_str(), path.c_str());
  } else {
    for (int tries = 0;; ++tries) {
      std::ifstream f(path, std::ios::binary);
      if (f.read(reinterpret_cast<char*>(&id), sizeof id)) break;
      if (tries > 600) throw usage_error("no NCCL id in " + path + " after 60 s");
      std::this_thread::sleep_for(std::chrono::milliseconds(100));
    }
  }
  int devices = 0;
  cudaGetDeviceCount(&devices);
  cudaSetDevice(devices > 0 ? local % devices : 0);
  ncclComm_t comm;
  ncclConfig_t config = multi::comm_config(size);
  nccl_ok(ncclCommInitRankConfig(&comm, size, id, rank, &config), "ncclCommInitRankConfig");
  const bool ok = run_jobs(jobs, comm, rank, size);
  ncclCommDestroy(comm);
  if (rank == 0) std::remove(path.c_str());
  return ok ? exit_ok : exit_failure;
}

}  // namespace gpusort::cli
#else
namespace gpusort::cli {
int cmd_multi_run(int, char**) {
  std::printf("multi-run: this build has no multi-GPU sort (CMake did not find NCCL)\n");
  return exit_usage;
}
}  // namespace gpusort::cli
#endif
