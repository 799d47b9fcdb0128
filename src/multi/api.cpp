// include/gpusort/multi.hpp's calls: check the arguments, map the key to
// its carrier, and hand one rank's call to the generated multi_<kind>.cu
// units (shard_sort.cuh) over NCCL's transport; the convenience call runs a
// thread per GPU of this process over init_comms' communicators.
#include "core/validate.hpp"
#include "host/staging.hpp"
#include "multi/digit_plan.hpp"
#include "multi/entry.hpp"
#include "multi/nccl_transport.hpp"
#include "multi/plan.hpp"
#include "multi/shard_sort.hpp"

#include <gpusort/detail/core/context.hpp>

#include <atomic>
#include <exception>
#include <mutex>
#include <string>
#include <thread>
#include <type_traits>
#include <vector>

namespace gpusort {

namespace multi::detail {
void release_pools_and_comms();
}

namespace multi {
void release_cache() { detail::release_pools_and_comms(); }

ncclConfig_t comm_config(int ranks) {
  ncclConfig_t c = NCCL_CONFIG_INITIALIZER;
#if NCCL_VERSION_CODE >= NCCL_VERSION(2, 17, 0)
  c.maxCTAs = comm_ctas_for(ranks);
#endif
  return c;
}

std::vector<ncclComm_t> init_comms(int g) { return init_comms(g, comm_config(g)); }

std::vector<ncclComm_t> init_comms(int g, const ncclConfig_t& config) {
  const gpusort::detail::call_context ctx = gpusort::detail::make_context("multi::init_comms", "-", "nccl", 0);
  if (g < 1) ctx.fail(errc::invalid_argument, std::to_string(g) + " GPUs");
  int devices = 0, current = 0;
  ctx.check(cudaGetDeviceCount(&devices), "cudaGetDeviceCount");
  if (g > devices)
    ctx.fail(errc::invalid_argument, std::to_string(g) + " GPUs asked, " + std::to_string(devices) + " visible");
  ctx.check(cudaGetDevice(&current), "cudaGetDevice");
  auto nccl = [&](ncclResult_t r, const char* what) {
    if (r != ncclSuccess) ctx.fail(errc::cuda, std::string(what) + " failed: " + ncclGetErrorString(r));
  };
  ncclUniqueId id;
  nccl(ncclGetUniqueId(&id), "ncclGetUniqueId");
  std::vector<ncclComm_t> comms(static_cast<std::size_t>(g), nullptr);
  std::vector<ncclConfig_t> configs(static_cast<std::size_t>(g), config);  // read at ncclGroupEnd
  nccl(ncclGroupStart(), "ncclGroupStart");
  for (int q = 0; q < g; ++q) {
    ctx.check(cudaSetDevice(q), "cudaSetDevice");
    nccl(ncclCommInitRankConfig(&comms[std::size_t(q)], g, id, q, &configs[std::size_t(q)]), "ncclCommInitRankConfig");
  }
  const ncclResult_t end = ncclGroupEnd();
  cudaSetDevice(current);
  nccl(end, "ncclGroupEnd (communicator setup)");
  return comms;
}

std::size_t output_capacity(std::size_t n_total, int ranks) {
  const std::size_t p = std::size_t(ranks > 0 ? ranks : 1);
  const std::size_t share = (n_total + p - 1) / p, floor = n_total < 65536 ? n_total : 65536;
  const std::size_t cap = share + share / 16 + 1;
  return cap > floor ? cap : floor;
}
}  // namespace multi

namespace detail::multi {
namespace {

template <class K> constexpr bool multi_built() {
#define GPUSORT_MULTI_BUILT(KT) \
  if (std::is_same_v<carrier_t<K>, KT>) return true;
#include "gpusort_multi_built.inc"
#undef GPUSORT_MULTI_BUILT
  return false;
}

gpusort::multi::result to_result(const shard_result& s) {
  gpusort::multi::result r;
  r.count = s.count;
  r.counts = s.counts;
  r.partition_ms = s.partition_ms;
  r.exchange_ms = s.exchange_ms;
  r.sort_ms = s.sort_ms;
  r.merge_ms = s.merge_ms;
  switch (s.used) {
    case form::partition_first: r.used = gpusort::multi::strategy::partition_first; break;
    case form::sort_first: r.used = gpusort::multi::strategy::sort_first; break;
    case form::radix_first: r.used = gpusort::multi::strategy::radix_first; break;
    default: r.used = gpusort::multi::strategy::automatic; break;
  }
  return r;
}

form form_of(gpusort::multi::strategy how) {
  switch (how) {
    case gpusort::multi::strategy::partition_first: return form::partition_first;
    case gpusort::multi::strategy::sort_first: return form::sort_first;
    case gpusort::multi::strategy::radix_first: return form::radix_first;
    default: return form::automatic;
  }
}

}  // namespace

template <class K>
gpusort::multi::result sort_with(transport& tx, void* temp, std::size_t* temp_bytes, const K* keys_in, K* keys_out,
                                 const void* vals_in, void* vals_out, std::size_t val_size, std::size_t n,
                                 std::size_t capacity, const gpusort::multi::options& opt, const char* op) {
  using C = carrier_t<K>;
  const call_context ctx = make_context(op, key_info<K>::name, "nccl_sample", n, temp_bytes ? *temp_bytes : 0);
  if (!temp_bytes) ctx.fail(errc::invalid_argument, "temp_bytes is null");
  if (n > 0 && !keys_in) ctx.fail(errc::invalid_argument, "null input keys with n > 0");
  if (capacity > 0 && !keys_out) ctx.fail(errc::invalid_argument, "null output keys with capacity > 0");
  if (val_size > 0 && ((n > 0 && !vals_in) || (capacity > 0 && !vals_out)))
    ctx.fail(errc::invalid_argument, "null value pointer");
  if (val_size > 16) ctx.fail(errc::invalid_argument, "values wider than 16 bytes");
  const key_order<K> ord = checked_order<K>(opt, ctx);
  if (tx.size() > max_ranks)
    ctx.fail(errc::unsupported, std::to_string(tx.size()) + " ranks (at most " + std::to_string(max_ranks) + ")");
  if (opt.rounds < 0 || opt.rounds > gpusort::multi::max_rounds)
    ctx.fail(errc::invalid_argument, "rounds " + std::to_string(opt.rounds) + " (0 to " +
                                         std::to_string(gpusort::multi::max_rounds) + ")");
  int device = -1;
  ctx.check(cudaGetDevice(&device), "cudaGetDevice");
  if (device != tx.device())
    ctx.fail(errc::invalid_argument, "the current device is " + std::to_string(device) + ", the communicator's rank " +
                                         std::to_string(tx.rank()) + " runs on device " + std::to_string(tx.device()));
  if constexpr (!multi_built<K>()) {
    ctx.fail(errc::unsupported, "not in this build (see the CMake option GPUSORT_KEYS)");
  } else {
    gpusort::options local = opt;
    local_sort_fn sort_local = [&](void* t, std::size_t* b, const void* kin, void* kout, const void* vin, void* vout,
                                   std::size_t m) {
      sort_device<K>(t, b, static_cast<const K*>(kin), static_cast<K*>(kout), vin, vout, val_size, m, local, op);
    };
    // radix first: stable sorts by a range of the order's bits (the top 8:
    // onesweep, a histogram and one pass; a part's bits below its constant
    // top bits: the automatic algorithm), and the segmented sort by the bits
    // below the top digit
    constexpr int width = int(sizeof(K)) * 8;
    range_sort_fn sort_range = [&](void* t, std::size_t* b, const void* kin, void* kout, const void* vin, void* vout,
                                   std::size_t m, int begin_bit, int end_bit) {
      gpusort::options range = opt;
      if (end_bit - begin_bit == top_bits) range.algo = algorithm::radix_onesweep;
      range.begin_bit = begin_bit;
      range.end_bit = end_bit;
      sort_device<K>(t, b, static_cast<const K*>(kin), static_cast<K*>(kout), vin, vout, val_size, m, range, op);
    };
    gpusort::options lower = opt;
    lower.begin_bit = 0;
    lower.end_bit = width > top_bits ? width - top_bits : width;
    segmented_sort_fn sort_lower = [&](void* t, std::size_t* b, const void* kin, void* kout, const void* vin,
                                       void* vout, std::size_t m, std::size_t segments, const std::uint64_t* begin,
                                       const std::uint64_t* end) {
      segmented_sort_device<K>(t, b, static_cast<const K*>(kin), static_cast<K*>(kout), vin, vout, val_size, m,
                               segments, begin, end, 8, lower, op);
    };
    shard_result out;
    const shard_call<C> c{&tx,
                          temp,
                          temp_bytes,
                          reinterpret_cast<const C*>(keys_in),
                          reinterpret_cast<C*>(keys_out),
                          vals_in,
                          vals_out,
                          val_size,
                          n,
                          capacity,
                          carried_order(ord),
                          opt.stream,
                          &ctx,
                          &sort_local,
                          &sort_range,
                          &sort_lower,
                          opt.timed,
                          form_of(opt.how),
                          opt.rounds ? opt.rounds : gpusort::multi::default_rounds,
                          &out};
    sort_shard<C>(c);
    return to_result(out);
  }
}

}  // namespace detail::multi

namespace multi::detail {

template <class K>
result sort_device(ncclComm_t comm, void* temp, std::size_t* temp_bytes, const K* keys_in, K* keys_out,
                   const void* vals_in, void* vals_out, std::size_t val_size, std::size_t n, std::size_t capacity,
                   const options& opt, const char* op) {
  const gpusort::detail::call_context ctx =
      gpusort::detail::make_context(op, gpusort::detail::key_info<K>::name, "nccl_sample", n);
  gpusort::detail::multi::nccl_transport tx(comm, ctx);
  return gpusort::detail::multi::sort_with<K>(tx, temp, temp_bytes, keys_in, keys_out, vals_in, vals_out, val_size,
                                              n, capacity, opt, op);
}

template <class K>
result sort_device_alloc(ncclComm_t comm, const K* keys_in, K* keys_out, const void* vals_in, void* vals_out,
                         std::size_t val_size, std::size_t n, std::size_t capacity, const options& opt,
                         const char* op) {
  result r;
  gpusort::detail::allocating_call(
      gpusort::detail::make_context(op, gpusort::detail::key_info<K>::name, "nccl_sample", n), opt.stream,
      [&](void* temp, std::size_t& bytes) {
        r = sort_device<K>(comm, temp, &bytes, keys_in, keys_out, vals_in, vals_out, val_size, n, capacity, opt, op);
      });
  return r;
}

// Communicators of the convenience call (init_comms: comm_config), kept
// between calls (making them costs far more than a sort of millions of
// keys); a call takes a set out of the cache and returns it when done, so
// concurrent calls never share one.
struct comm_cache {
  std::mutex m;
  std::vector<std::vector<ncclComm_t>> idle;
};
comm_cache& comms_cache() {
  static comm_cache* c = new comm_cache;  // never destroyed: NCCL may be gone at exit
  return *c;
}
std::vector<ncclComm_t> take_comms(int g) {
  {
    std::lock_guard<std::mutex> lock(comms_cache().m);
    auto& idle = comms_cache().idle;
    for (auto it = idle.begin(); it != idle.end(); ++it)
      if (int(it->size()) == g) {
        std::vector<ncclComm_t> c = std::move(*it);
        idle.erase(it);
        return c;
      }
  }
  return gpusort::multi::init_comms(g);
}

// Device memory of the convenience call: a pool of its own per device
// (cudaMemPoolCreate) that keeps what it maps between calls (release
// threshold: never). A call maps its shard, output and scratch, about six
// times its shard's keys (radix first and partition first; four for sort
// first); the default pool
// gives that back to the driver at each synchronisation, so every call would
// map it again. release_cache() trims these pools.
struct pool_cache {
  std::mutex m;
  std::vector<cudaMemPool_t> pools;  // by device; null until used
};
pool_cache& pools_cache() {
  static pool_cache* c = new pool_cache;  // never destroyed, as the communicators
  return *c;
}
cudaMemPool_t call_pool(const gpusort::detail::call_context& ctx, int device) {
  std::lock_guard<std::mutex> lock(pools_cache().m);
  auto& pools = pools_cache().pools;
  if (pools.size() <= std::size_t(device)) pools.resize(std::size_t(device) + 1, nullptr);
  cudaMemPool_t& pool = pools[std::size_t(device)];
  if (!pool) {
    cudaMemPoolProps props{};
    props.allocType = cudaMemAllocationTypePinned;
    props.location.type = cudaMemLocationTypeDevice;
    props.location.id = device;
    ctx.check(cudaMemPoolCreate(&pool, &props), "cudaMemPoolCreate");
    std::uint64_t keep = ~std::uint64_t(0);
    ctx.check(cudaMemPoolSetAttribute(pool, cudaMemPoolAttrReleaseThreshold, &keep),
              "cudaMemPoolSetAttribute(release threshold)");
  }
  return pool;
}

// The convenience call: a thread per GPU. A failure on one GPU aborts every
// communicator, so the others leave their collectives with an error too;
// the first error is rethrown.
template <class K> void sort_host(const K* in, K* out_keys, std::size_t n, int gpus, const options& opt) {
  namespace gd = gpusort::detail;
  const gd::call_context ctx = gd::make_context("multi::sort", gd::key_info<K>::name, "nccl_sample", n);
  if (n > 0 && (!in || !out_keys)) ctx.fail(errc::invalid_argument, "null data with n > 0");
  // Each GPU's thread reads its shard of `in` and writes its range of `out`
  // when it is done, while the others may still be reading theirs: the two
  // must be one array or apart.
  const auto addr = [](const void* p) { return reinterpret_cast<std::uintptr_t>(p); };
  if (in != out_keys && addr(in) < addr(out_keys) + n * sizeof(K) && addr(out_keys) < addr(in) + n * sizeof(K))
    ctx.fail(errc::invalid_argument, "in and out overlap without being the same array");
  int devices = 0;
  ctx.check(cudaGetDeviceCount(&devices), "cudaGetDeviceCount");
  if (gpus < 0 || gpus > devices)
    ctx.fail(errc::invalid_argument,
             std::to_string(gpus) + " GPUs asked for, " + std::to_string(devices) + " visible");
  const int g = gpus > 0 ? gpus : devices;
  if (n == 0) return;
  std::vector<ncclComm_t> comms = take_comms(g);
  const bool out_device = gd::host::is_device(out_keys),
             out_pinned = !out_device && gd::host::is_pinned(out_keys);
  // A pageable output apart from a host input: copy with every core first,
  // then sort it in place. The staging threads would otherwise fault in a
  // new array's pages themselves, one thread a GPU (2e9 u32 on two H100s:
  // 555 ms out of place against 401 by the copy and the in-place sort).
  if (in != out_keys && !out_device && !out_pinned && !gd::host::is_device(in)) {
    gd::host::parallel_copy(out_keys, in, n * sizeof(K));
    in = out_keys;
  }
  const bool in_device = gd::host::is_device(in), in_pinned = !in_device && gd::host::is_pinned(in);
  const std::size_t cap = output_capacity(n, g);
  std::vector<std::exception_ptr> errors(static_cast<std::size_t>(g));
  std::once_flag abort_once;
  std::atomic<bool> aborted{false};
  auto abort_all = [&] {
    std::call_once(abort_once, [&] {
      aborted = true;
      for (ncclComm_t c : comms) ncclCommAbort(c);
    });
  };
  auto rank_main = [&](int q) {
    cudaStream_t st = nullptr;
    K *shard = nullptr, *out = nullptr;
    void* temp = nullptr;
    try {
      ctx.check(cudaSetDevice(q), "cudaSetDevice");
      ctx.check(cudaStreamCreateWithFlags(&st, cudaStreamNonBlocking), "cudaStreamCreate");
      const cudaMemPool_t pool = call_pool(ctx, q);
      const std::size_t lo = gd::multi::share_end(n, g, q), hi = gd::multi::share_end(n, g, q + 1), m = hi - lo;
      ctx.check(cudaMallocFromPoolAsync(reinterpret_cast<void**>(&shard), (m ? m : 1) * sizeof(K), pool, st),
                "cudaMallocFromPoolAsync(shard)");
      ctx.check(cudaMallocFromPoolAsync(reinterpret_cast<void**>(&out), (cap ? cap : 1) * sizeof(K), pool, st),
                "cudaMallocFromPoolAsync(output)");
      options o = opt;
      o.stream = st;
      result res;
      {
        gd::host::mover mv(ctx, st, st);
        if (in_device)
          ctx.check(cudaMemcpyAsync(shard, in + lo, m * sizeof(K), cudaMemcpyDefault, st), "cudaMemcpyAsync(shard)");
        else mv.up(shard, in + lo, m * sizeof(K), in_pinned);
        std::size_t bytes = 0;
        sort_device<K>(comms[std::size_t(q)], nullptr, &bytes, shard, out, nullptr, nullptr, 0, m, cap, o, "multi::sort");
        ctx.check(cudaMallocFromPoolAsync(&temp, bytes ? bytes : 1, pool, st), "cudaMallocFromPoolAsync(scratch)");
        res = sort_device<K>(comms[std::size_t(q)], temp, &bytes, shard, out, nullptr, nullptr, 0, m, cap, o,
                             "multi::sort");
        std::size_t at = 0;
        for (int t = 0; t < q; ++t) at += res.counts[std::size_t(t)];
        if (out_device)
          ctx.check(cudaMemcpyAsync(out_keys + at, out, res.count * sizeof(K), cudaMemcpyDefault, st),
                    "cudaMemcpyAsync(result)");
        else mv.down(out_keys + at, out, res.count * sizeof(K), out_pinned);
        mv.drain();
      }
      ctx.check(cudaStreamSynchronize(st), "cudaStreamSynchronize");
    } catch (...) {
      errors[std::size_t(q)] = std::current_exception();
      abort_all();
    }
    if (temp) cudaFreeAsync(temp, st);
    if (shard) cudaFreeAsync(shard, st);
    if (out) cudaFreeAsync(out, st);
    if (st) {
      cudaStreamSynchronize(st);
      cudaStreamDestroy(st);
    }
  };
  std::vector<std::thread> threads;
  for (int q = 0; q < g; ++q) threads.emplace_back(rank_main, q);
  for (auto& t : threads) t.join();
  if (!aborted) {
    std::lock_guard<std::mutex> lock(comms_cache().m);
    comms_cache().idle.push_back(std::move(comms));
  }
  for (auto& e : errors)
    if (e) std::rethrow_exception(e);
}

void release_pools_and_comms() {
  {
    std::lock_guard<std::mutex> lock(pools_cache().m);
    for (cudaMemPool_t p : pools_cache().pools)
      if (p) cudaMemPoolTrimTo(p, 0);
  }
  std::vector<std::vector<ncclComm_t>> idle;
  {
    std::lock_guard<std::mutex> lock(comms_cache().m);
    idle.swap(comms_cache().idle);
  }
  for (auto& set : idle)
    for (ncclComm_t c : set) ncclCommDestroy(c);
}

#define GPUSORT_INSTANTIATE_MULTI(K)                                                                                \
  template result sort_device<K>(ncclComm_t, void*, std::size_t*, const K*, K*, const void*, void*, std::size_t,  \
                                 std::size_t, std::size_t, const options&, const char*);                          \
  template result sort_device_alloc<K>(ncclComm_t, const K*, K*, const void*, void*, std::size_t, std::size_t,    \
                                       std::size_t, const options&, const char*);                                 \
  template void sort_host<K>(const K*, K*, std::size_t, int, const options&);
GPUSORT_FOR_EACH_KEY(GPUSORT_INSTANTIATE_MULTI)
#undef GPUSORT_INSTANTIATE_MULTI

}  // namespace multi::detail

namespace detail::multi {
#define GPUSORT_INSTANTIATE_SORT_WITH(K)                                                                              \
  template gpusort::multi::result sort_with<K>(transport&, void*, std::size_t*, const K*, K*, const void*, void*, \
                                               std::size_t, std::size_t, std::size_t,                             \
                                               const gpusort::multi::options&, const char*);
GPUSORT_FOR_EACH_KEY(GPUSORT_INSTANTIATE_SORT_WITH)
#undef GPUSORT_INSTANTIATE_SORT_WITH
}  // namespace detail::multi

}  // namespace gpusort
