// The device entry behind every public sort_keys / sort_pairs call: check
// the arguments, resolve the algorithm, and hand the call to the unit that
// was built for its algorithm and key type (run_family.cuh). This unit
// holds no kernel, so editing a family never rebuilds it.
#include "core/device_call.hpp"
#include "core/validate.hpp"
#include "radix/msd_plan.hpp"

#include <gpusort/detail/core/context.hpp>
#include <gpusort/gpusort.hpp>

#include <string>
#include <type_traits>

namespace gpusort::detail {
namespace {

// Whether this build holds algorithm a for key type K (its carrier).
template <class K> constexpr bool is_built(algorithm a) {
  using C = carrier_t<K>;
#define GPUSORT_BUILT(A, KT) \
  if (std::is_same_v<C, KT> && a == algorithm::A) return true;
#include "gpusort_built.inc"
#undef GPUSORT_BUILT
  return false;
}

// What `automatic` runs: the fastest family measured (bench/results/,
// docs/perf/radix.md): the MSD hybrid for 8-byte integer keys from msd_min_keys
// keys on (fewer passes over wide keys) and for doubles from msd_min_doubles to
// msd_max_doubles keys, onesweep otherwise. Doubles took onesweep while the MSD
// plan sent their skewed sign and exponent digits to its LSD mode. With the
// counting local sort and the plan's third-level share, radix_msd beats
// onesweep on them (2^27, H100: f64 uniform 6.13 against 8.33 ms, normal + u32
// 10.13 against 12.63) but where its plan still picks LSD mode (unit doubles:
// 8.71 against 8.22, its empty levels' launches). That was measured at 2^27
// only, so doubles take radix_msd in [2^27, 2^28] alone: below, LSD mode's
// fixed launches weigh more against a shorter sort; above 2^28 radix_msd has no
// LSD mode (tuning::lsd_max_keys), and its levels lost 9% to onesweep on unit
// doubles at 2^27 (9.33 against 8.58 ms).
constexpr std::size_t msd_min_keys = std::size_t(1) << 22;
constexpr std::size_t msd_min_doubles = std::size_t(1) << 27, msd_max_doubles = std::size_t(1) << 28;
// radix_msd's local sort takes up to radix_msd::local_shared_max (127,040)
// bytes of shared memory a block (8-byte keys with 8-byte values,
// docs/install.md), more than sm_86, sm_89 and sm_120 let one block have
// (101,376): there automatic keeps to onesweep. Two host queries, no
// synchronisation (graph capture stays legal).
constexpr int msd_local_shared_bytes = int(radix_msd::local_shared_max);
bool msd_fits_device() {
  int device = 0, optin = 0;
  if (cudaGetDevice(&device) != cudaSuccess ||
      cudaDeviceGetAttribute(&optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, device) != cudaSuccess) {
    cudaGetLastError();
    return false;
  }
  return optin >= msd_local_shared_bytes;
}
template <class K> algorithm resolve(algorithm a, std::size_t n) {
  if (a != algorithm::automatic) return a;
  const bool in_range = key_traits<K>::is_float ? n >= msd_min_doubles && n <= msd_max_doubles : n >= msd_min_keys;
  if (sizeof(K) == 8 && in_range && is_built<K>(algorithm::radix_msd) && msd_fits_device())
    return algorithm::radix_msd;
  return algorithm::radix_onesweep;
}

const char* algo_name(algorithm a) {
  const std::string_view name = to_string(a);
  return name.empty() ? "?" : name.data();
}

// The (algorithm, carrier key) units this build holds: gpusort_built.inc is
// written by CMake from families.def, GPUSORT_ALGORITHMS and GPUSORT_KEYS.
// A key that is not its own carrier (signed integers, bf16: key_traits.hpp)
// is handed over as its carrier, with the order carried_order gives.
template <class K> void dispatch(algorithm a, const device_call<K>& c) {
  using C = carrier_t<K>;
  if constexpr (!std::is_same_v<C, K>) {
    const device_call<C> as_carrier{c.temp,     c.temp_bytes, reinterpret_cast<const C*>(c.keys_in),
                                    reinterpret_cast<C*>(c.keys_out), c.vals_in, c.vals_out, c.val_size, c.n,
                                    carried_order(c.ord), c.stream, c.ctx, c.pivots, c.form};
    return dispatch(a, as_carrier);
  } else {
#define GPUSORT_BUILT(A, KT) \
  if constexpr (std::is_same_v<K, KT>) \
    if (a == algorithm::A) return run_algorithm<algorithm::A, K>(c);
#include "gpusort_built.inc"
#undef GPUSORT_BUILT
    c.ctx->fail(errc::unsupported, "not in this build (see the CMake options GPUSORT_ALGORITHMS and GPUSORT_KEYS)");
  }
}

}  // namespace

template <class K>
void sort_device_formed(void* temp, std::size_t* temp_bytes, const K* keys_in, K* keys_out, const void* vals_in,
                        void* vals_out, std::size_t val_size, std::size_t n, const options& opt, const char* op,
                        const argsort_form& form) {
  const algorithm algo = resolve<K>(opt.algo, n);
  const call_context ctx = make_context(op, key_info<K>::name, algo_name(algo), n, temp_bytes ? *temp_bytes : 0);
  if (!temp_bytes) ctx.fail(errc::invalid_argument, "temp_bytes is null");
  if (to_string(algo).empty()) ctx.fail(errc::invalid_argument, "unknown algorithm " + std::to_string(int(opt.algo)));
  if (n > 0 && (!keys_in || !keys_out)) ctx.fail(errc::invalid_argument, "null key pointer with n > 0");
  if (val_size > 0 && n > 0 && (!vals_in || !vals_out)) ctx.fail(errc::invalid_argument, "null value pointer with n > 0");
  if (val_size > 16) ctx.fail(errc::invalid_argument, "values wider than 16 bytes");
  const device_call<K> c{temp,     temp_bytes, keys_in, keys_out,   vals_in, vals_out,
                         val_size, n,          checked_order<K>(opt, ctx), opt.stream, &ctx, opt.pivots, form};
  if (form.any() && val_size != 4 && val_size != 8)
    ctx.fail(errc::invalid_argument, "argsort's indices must be 4 or 8 bytes");
  if (form.wide_out && val_size != 4) ctx.fail(errc::invalid_argument, "only 4-byte indices are widened");
  dispatch(algo, c);
}

template <class K>
void sort_device(void* temp, std::size_t* temp_bytes, const K* keys_in, K* keys_out, const void* vals_in,
                 void* vals_out, std::size_t val_size, std::size_t n, const options& opt, const char* op) {
  sort_device_formed<K>(temp, temp_bytes, keys_in, keys_out, vals_in, vals_out, val_size, n, opt, op, {});
}

template <class K>
void sort_device_alloc(const K* keys_in, K* keys_out, const void* vals_in, void* vals_out, std::size_t val_size,
                       std::size_t n, const options& opt, const char* op) {
  allocating_call(make_context(op, key_info<K>::name, algo_name(resolve<K>(opt.algo, n)), n), opt.stream,
                  [&](void* temp, std::size_t& bytes) {
                    sort_device<K>(temp, &bytes, keys_in, keys_out, vals_in, vals_out, val_size, n, opt, op);
                  });
}

#define GPUSORT_INSTANTIATE_DEVICE(K)                                                                              \
  template void sort_device<K>(void*, std::size_t*, const K*, K*, const void*, void*, std::size_t, std::size_t, \
                               const options&, const char*);                                                    \
  template void sort_device_formed<K>(void*, std::size_t*, const K*, K*, const void*, void*, std::size_t,        \
                                      std::size_t, const options&, const char*, const argsort_form&);          \
  template void sort_device_alloc<K>(const K*, K*, const void*, void*, std::size_t, std::size_t, const options&, \
                                     const char*);
GPUSORT_FOR_EACH_KEY(GPUSORT_INSTANTIATE_DEVICE)

}  // namespace gpusort::detail
