// The run-time typed API (runtime.hpp): one switch from key_type to the
// typed calls, and the rows and argsort layers on top of them.
//
// Device phases (two-phase, one scratch allocation carved by temp_layout):
//   rows > 1   row offsets (rows.cu), then the segmented sort;
//   argsort    a pairs sort of (key, row-local index) whose sorted keys
//              are dropped: indices 32-bit while a row has fewer than 2^32
//              keys (half the value bytes of every pass), widened to int64
//              at the end when the caller asks for int64; the iota and the
//              dropped keys lie in the output while it is not yet written
//              (argsort_device below).
// Host phases: an out-of-place call copies with every core, then sorts in
// place through sort(std::span)'s path. Rows go through the device (copy
// in, segmented sort, copy out) when one is present, else every row is
// sorted by its own thread (std::stable_sort under key_order: CUB's order).
#include "core/device_call.hpp"
#include "core/rows.hpp"
#include "core/runtime_formed.hpp"
#include "core/segmented_rows.hpp"
#include "core/two_phase.hpp"
#include "core/validate.hpp"
#include <gpusort/detail/with_key.hpp>
#include "host/staging.hpp"

#include <gpusort/detail/core/temp_layout.hpp>
#include <gpusort/runtime.hpp>

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstring>
#include <memory>
#include <numeric>
#include <string>
#include <utility>
#include <vector>

namespace gpusort {

namespace {

using detail::two_phase;
using detail::with_key;

constexpr std::array<key_type, key_type_count> all_keys = {
    key_type::u8,  key_type::u16, key_type::u32, key_type::u64,  key_type::i8,  key_type::i16,
    key_type::i32, key_type::i64, key_type::f16, key_type::bf16, key_type::f32, key_type::f64};

using detail::call_context;
using detail::temp_layout;

call_context context_for(const char* op, key_type t, const sort_spec& s, const options& opt, bool rows_path) {
  call_context ctx = detail::make_context(op, "?", rows_path ? "segmented" : to_string(opt.algo).data(), s.n);
  with_key(t, [&]<class K>() { ctx.key = detail::key_info<K>::name; });
  if (s.rows == 0 ? s.n != 0 : s.n % s.rows != 0)
    ctx.fail(errc::invalid_argument, std::to_string(s.n) + " keys do not split into " + std::to_string(s.rows) + " rows");
  return ctx;
}

// Sizing phase: the inner calls see a stand-in for pointers that the scratch
// will hold (they check pointers before sizing, and never read them). Each
// buffer has its own, as inner calls size in-place calls (equal pointers)
// apart from out-of-place ones.
void* stand_in(void* p, bool sizing, int which = 0) { return sizing && !p ? detail::stand_in<void>(which) : p; }

std::size_t row_len(const sort_spec& s) { return s.rows ? s.n / s.rows : 0; }
int offset_bytes_for(const sort_spec& s) { return s.n <= 0xFFFFFFFFull ? 4 : 8; }

// One device sort of keys (and values) into out, rows or not, its scratch
// taken from L. Both phases run it; `sizing` is the first.
template <class K>
void device_sort_into(temp_layout& L, bool sizing, const sort_spec& s, const K* keys_in, K* keys_out,
                      const void* vals_in, void* vals_out, std::size_t val_size, const options& opt,
                      const call_context& ctx, const detail::argsort_form& form = {}) {
  if (s.rows > 1) {
    const int ob = offset_bytes_for(s);
    void* offsets = L.take<std::uint8_t>((s.rows + 1) * std::size_t(ob));
    std::size_t inner = 0;
    detail::segmented_sort_device<K>(nullptr, &inner, keys_in, keys_out, vals_in, vals_out, val_size, s.n, s.rows,
                                     stand_in(offsets, sizing), stand_in(offsets, sizing), ob, opt, ctx.op, row_len(s));
    void* inner_temp = L.take<std::uint8_t>(inner);
    if (sizing) return;
    detail::launch_row_offsets(ctx, offsets, ob, s.rows, row_len(s), opt.stream);
    detail::segmented_sort_device<K>(inner_temp, &inner, keys_in, keys_out, vals_in, vals_out, val_size, s.n, s.rows,
                                     offsets, static_cast<std::uint8_t*>(offsets) + ob, ob, opt, ctx.op, row_len(s));
    return;
  }
  std::size_t inner = 0;
  detail::sort_device_formed<K>(nullptr, &inner, keys_in, keys_out, vals_in, vals_out, val_size, s.n, opt, ctx.op,
                                form);
  void* inner_temp = L.take<std::uint8_t>(inner);
  if (sizing) return;
  detail::sort_device_formed<K>(inner_temp, &inner, keys_in, keys_out, vals_in, vals_out, val_size, s.n, opt, ctx.op,
                                form);
}


void check_index_bytes(const call_context& ctx, const sort_spec& s, int index_bytes) {
  if (index_bytes != 4 && index_bytes != 8)
    ctx.fail(errc::invalid_argument, "index width must be 4 or 8 bytes, not " + std::to_string(index_bytes));
  if (index_bytes == 4 && row_len(s) > 0x7FFFFFFFull)
    ctx.fail(errc::invalid_argument, "int32 indices for rows of " + std::to_string(row_len(s)) + " keys");
}

// What argsort asks of its arguments, on the device and on the host.
void check_argsort(const call_context& ctx, const sort_spec& s, const void* keys_in, const void* indices_out,
                   int index_bytes, const options& opt) {
  check_index_bytes(ctx, s, index_bytes);
  if (!is_stable(opt.algo))
    ctx.fail(errc::unsupported, "argsort needs a stable algorithm (ties keep their input order)");
  if (s.n > 0 && (!keys_in || !indices_out)) ctx.fail(errc::invalid_argument, "null pointer with n > 0");
}

// ---- the CPU rows and segments: one segment per thread, under key_order ------------
// seg(r) gives segment r's [begin, end); out-of-place calls write only the
// segments' elements.
template <class K, class Seg>
void cpu_segments(std::size_t segments, Seg seg, const K* keys_in, K* keys_out, const void* vals_in, void* vals_out,
                  std::size_t val_size, void* indices, int index_bytes, const options& opt, const call_context& ctx) {
  const detail::key_order<K> ord = detail::checked_order<K>(opt, ctx);
  const bool permute = indices || val_size;
  const bool stage = (keys_out && keys_in == keys_out) || (val_size && vals_in == vals_out);
#pragma omp parallel
  {
    std::vector<std::uint64_t> perm;
    std::vector<unsigned char> staged;
#pragma omp for schedule(dynamic, 16)
    for (std::int64_t r = 0; r < std::int64_t(segments); ++r) {
      const auto [at, end] = seg(std::size_t(r));
      if (end <= at) continue;
      const std::size_t len = end - at;
      const auto before = [&](const K& a, const K& b) { return ord.key_rank(a) < ord.key_rank(b); };
      if (!permute) {
        if (keys_in != keys_out) std::copy(keys_in + at, keys_in + end, keys_out + at);
        std::stable_sort(keys_out + at, keys_out + end, before);
        continue;
      }
      perm.resize(len);
      if (stage) staged.resize(len * std::max(sizeof(K), val_size));
      std::iota(perm.begin(), perm.end(), std::uint64_t(0));
      const K* row = keys_in + at;
      std::stable_sort(perm.begin(), perm.end(), [&](std::uint64_t a, std::uint64_t b) { return before(row[a], row[b]); });
      if (indices) {
        for (std::size_t i = 0; i < len; ++i) {
          if (index_bytes == 8) static_cast<std::int64_t*>(indices)[at + i] = std::int64_t(perm[i]);
          else static_cast<std::int32_t*>(indices)[at + i] = std::int32_t(perm[i]);
        }
      }
      if (keys_out) {
        K* dst = keys_in == keys_out ? reinterpret_cast<K*>(staged.data()) : keys_out + at;
        for (std::size_t i = 0; i < len; ++i) dst[i] = row[perm[i]];
        if (keys_in == keys_out) std::memcpy(keys_out + at, staged.data(), len * sizeof(K));
      }
      if (val_size) {
        const auto* src = static_cast<const unsigned char*>(vals_in) + at * val_size;
        auto* out = static_cast<unsigned char*>(vals_out) + at * val_size;
        unsigned char* dst = vals_in == vals_out ? staged.data() : out;
        for (std::size_t i = 0; i < len; ++i) std::memcpy(dst + i * val_size, src + perm[i] * val_size, val_size);
        if (vals_in == vals_out) std::memcpy(out, staged.data(), len * val_size);
      }
    }
  }
}

template <class K>
void cpu_rows(const sort_spec& s, const K* keys_in, K* keys_out, const void* vals_in, void* vals_out,
              std::size_t val_size, void* indices, int index_bytes, const options& opt, const call_context& ctx) {
  const std::size_t len = row_len(s);
  const auto seg = [len](std::size_t r) { return std::pair<std::size_t, std::size_t>(r * len, r * len + len); };
  cpu_segments<K>(s.rows, seg, keys_in, keys_out, vals_in, vals_out, val_size, indices, index_bytes, opt, ctx);
}

// ---- the device rows of host data: copy in, sort, copy out ------------------------
struct device_scratch {
  void* ptr = nullptr;
  ~device_scratch() {
    if (ptr) cudaFree(ptr);
  }
};

// Returns false (nothing written) when the device cannot hold the call.
template <class K>
bool gpu_rows(const sort_spec& s, const K* keys_in, K* keys_out, const void* vals_in, void* vals_out,
              std::size_t val_size, void* indices, int index_bytes, const options& opt, const call_context& ctx) {
  // sized at a stand-in base, so that the inner query sees the buffers apart, as they will be
  const auto layout = [&](void* base, K*& k, void*& v, void*& inner_temp, std::size_t& inner) {
    temp_layout L(base);
    k = L.take<K>(s.n);
    v = indices ? L.take<std::uint8_t>(s.n * std::size_t(index_bytes)) : val_size ? L.take<std::uint8_t>(s.n * val_size) : nullptr;
    inner = 0;
    if (indices) argsort_device(nullptr, inner, s, k, v, index_bytes, opt);
    else sort_device(nullptr, inner, s, k, k, v, v, val_size, opt);
    inner_temp = L.take<std::uint8_t>(inner);
    return L.bytes();
  };
  K* dk = nullptr;
  void *dv = nullptr, *inner_temp = nullptr;
  std::size_t inner = 0;
  const std::size_t bytes = layout(detail::stand_in<void>(0), dk, dv, inner_temp, inner);
  device_scratch dev;
  if (cudaMalloc(&dev.ptr, bytes ? bytes : 1) != cudaSuccess) {
    cudaGetLastError();
    dev.ptr = nullptr;
    return false;
  }
  layout(dev.ptr, dk, dv, inner_temp, inner);
  const cudaStream_t st = opt.stream;
  ctx.check(cudaMemcpyAsync(dk, keys_in, s.n * sizeof(K), cudaMemcpyHostToDevice, st), "cudaMemcpyAsync(keys in)");
  if (indices) {
    argsort_device(inner_temp, inner, s, dk, dv, index_bytes, opt);
    ctx.check(cudaMemcpyAsync(indices, dv, s.n * std::size_t(index_bytes), cudaMemcpyDeviceToHost, st), "cudaMemcpyAsync(indices out)");
  } else {
    if (val_size) ctx.check(cudaMemcpyAsync(dv, vals_in, s.n * val_size, cudaMemcpyHostToDevice, st), "cudaMemcpyAsync(values in)");
    sort_device(inner_temp, inner, s, dk, dk, dv, dv, val_size, opt);
    ctx.check(cudaMemcpyAsync(keys_out, dk, s.n * sizeof(K), cudaMemcpyDeviceToHost, st), "cudaMemcpyAsync(keys out)");
    if (val_size) ctx.check(cudaMemcpyAsync(vals_out, dv, s.n * val_size, cudaMemcpyDeviceToHost, st), "cudaMemcpyAsync(values out)");
  }
  ctx.check(cudaStreamSynchronize(st), "cudaStreamSynchronize");
  return true;
}

template <class K>
backend host_rows(const sort_spec& s, const K* keys_in, K* keys_out, const void* vals_in, void* vals_out,
                  std::size_t val_size, void* indices, int index_bytes, const options& opt, bool force_cpu,
                  const call_context& ctx) {
  if (!force_cpu && gpu_available() &&
      gpu_rows<K>(s, keys_in, keys_out, vals_in, vals_out, val_size, indices, index_bytes, opt, ctx))
    return backend::gpu;
  cpu_rows<K>(s, keys_in, keys_out, vals_in, vals_out, val_size, indices, index_bytes, opt, ctx);
  return backend::cpu_parallel;
}

}  // namespace

std::string_view to_string(key_type t) {
  std::string_view name;
  with_key(t, [&]<class K>() { name = detail::key_info<K>::name; });
  return name;
}

bool parse_key_type(std::string_view name, key_type& out) {
  for (key_type t : all_keys)
    if (to_string(t) == name) {
      out = t;
      return true;
    }
  return false;
}

std::size_t size_of(key_type t) {
  std::size_t bytes = 0;
  with_key(t, [&]<class K>() { bytes = sizeof(K); });
  return bytes;
}

void detail::sort_device_formed(void* temp, std::size_t& temp_bytes, const sort_spec& s, const void* keys_in,
                                void* keys_out, const void* vals_in, void* vals_out, std::size_t val_size,
                                const options& opt, const detail::argsort_form& form) {
  const call_context ctx = context_for(val_size ? "sort_pairs" : "sort_keys", s.key, s, opt, s.rows > 1);
  with_key(s.key, [&]<class K>() {
    const auto phases = [&](void* base) {
      temp_layout L(base);
      device_sort_into<K>(L, base == nullptr, s, static_cast<const K*>(keys_in), static_cast<K*>(keys_out), vals_in,
                          vals_out, val_size, opt, ctx, s.rows > 1 ? detail::argsort_form{} : form);
      return L.bytes();
    };
    two_phase(ctx, temp, temp_bytes, phases);
  });
}

void sort_device(void* temp, std::size_t& temp_bytes, const sort_spec& s, const void* keys_in, void* keys_out,
                 const void* vals_in, void* vals_out, std::size_t val_size, const options& opt) {
  detail::sort_device_formed(temp, temp_bytes, s, keys_in, keys_out, vals_in, vals_out, val_size, opt, {});
}

void topk_device(void* temp, std::size_t& temp_bytes, const sort_spec& s, std::size_t k, const void* keys_in,
                 void* keys_out, void* indices_out, int index_bytes, const topk_options& opt) {
  if (s.rows == 0 || s.n % s.rows != 0)
    throw error(errc::invalid_argument, "gpusort::topk_device: n = " + std::to_string(s.n) +
                                            " is not a whole number of rows (" + std::to_string(s.rows) + ")");
  const int ib = indices_out ? index_bytes : 0;
  with_key(s.key, [&]<class K>() {
    const K* in = static_cast<const K*>(keys_in);
    K* out = static_cast<K*>(keys_out);
    if (s.rows == 1)
      detail::topk_device<K>(temp, &temp_bytes, in, out, indices_out, ib, nullptr, nullptr, 0, s.n, k, opt, "topk");
    else
      detail::segmented_topk_device<K>(temp, &temp_bytes, in, out, indices_out, ib, s.n, s.rows, nullptr,
                                       nullptr, 8, s.n / s.rows, k, opt, "topk_rows");
  });
}

// argsort's buffers. The sort is out of place (in place, a radix sort adds a
// copy launch whenever an odd number of digits vary); the sorted keys it
// writes are dropped, so they, and the iota it reads, lie in the output
// where they fit, the output being written only at the end (unless it
// overlaps the keys: then all lie in scratch, and the indices are copied or
// widened into the output last):
//   int64 output, rows < 2^32 keys, K <= 4 bytes: output = [iota u32 |
//       sorted keys]; scratch: the sorted u32 indices, widened into the
//       output last
//   int64 output, rows < 2^32 keys, 8-byte keys: output = the sorted keys;
//       scratch: iota and the sorted u32 indices, widened last
//   int32 output: the sorted indices go straight to the output; scratch:
//       the sorted keys and iota
//   rows of 2^32 keys or more: u64 indices straight to the output; scratch:
//       the sorted keys and iota
// and then the sort's own scratch (radix: a second key and index buffer, and
// its tables). Bytes of scratch per key for f32 keys, int64 indices and
// onesweep: 4 (sorted u32) + 4 + 4 (its second buffers) = 12, at most the
// keys' and the indices' size, and 0.22 for onesweep's look-back tables; it
// was 20 with the sorted keys, iota and the sorted u32 in scratch. With 8-byte
// keys: 20 (was 28); with int32 indices: 2 K + 8 (unchanged: the output holds
// only the indices).
// One row (not rows) asks the sort for argsort's form (core/device_call.hpp):
// where the family takes it (onesweep), the iota is never written or read
// (the first pass makes each index from its key's place), the last pass
// stores no keys, and, where the output lies apart from the keys, it writes
// the indices widened straight into the output (the iota's and the sorted
// keys' slots there are read by no launch after the one before it). f32 keys,
// int64 indices: 84 bytes a key moved by onesweep's four passes, the iota and
// the widening, 64 with the form. Other families get the iota and the
// widening made around them, as before.
void argsort_device(void* temp, std::size_t& temp_bytes, const sort_spec& s, const void* keys_in, void* indices_out,
                    int index_bytes, const options& opt) {
  const call_context ctx = context_for("argsort", s.key, s, opt, s.rows > 1);
  check_argsort(ctx, s, keys_in, indices_out, index_bytes, opt);
  const bool narrow = row_len(s) <= 0xFFFFFFFFull;  // indices sorted as u32
  const int carried_bytes = narrow ? 4 : 8;
  const bool widen = index_bytes == 8 && narrow;
  with_key(s.key, [&]<class K>() {
    const auto at = [](const void* p) { return reinterpret_cast<std::uintptr_t>(p); };
    const bool apart = at(indices_out) + s.n * std::size_t(index_bytes) <= at(keys_in) ||
                       at(keys_in) + s.n * sizeof(K) <= at(indices_out);
    // both phases carve the same slots; the run phase also launches
    const auto phases = [&](void* base) {
      const bool sizing = base == nullptr;
      temp_layout L(base);
      auto* out = static_cast<std::uint8_t*>(indices_out);
      void *keys_out = nullptr, *iota = nullptr, *sorted_idx = indices_out;
      if (!apart) {
        keys_out = L.take<K>(s.n);
        iota = L.take<std::uint8_t>(s.n * std::size_t(carried_bytes));
        sorted_idx = L.take<std::uint8_t>(s.n * std::size_t(carried_bytes));
      } else if (widen && sizeof(K) <= 4) {
        iota = out;
        keys_out = out + s.n * sizeof(std::uint32_t);
        sorted_idx = L.take<std::uint32_t>(s.n);
      } else if (widen) {
        keys_out = out;
        iota = L.take<std::uint32_t>(s.n);
        sorted_idx = L.take<std::uint32_t>(s.n);
      } else {
        keys_out = L.take<K>(s.n);
        iota = L.take<std::uint8_t>(s.n * std::size_t(carried_bytes));
      }
      // One row: the sort makes the indices, drops the keys and, where the
      // output lies apart from the keys, widens into it (argsort_form);
      // rows: row-local indices made here, for the segmented sort.
      detail::argsort_form form;
      if (s.rows <= 1) {
        form.positions = true;
        form.keys_dropped = true;
        if (widen && apart) form.wide_out = static_cast<std::uint64_t*>(indices_out);
      } else if (!sizing) {
        detail::launch_row_iota(ctx, iota, carried_bytes, s.n, row_len(s), opt.stream);
      }
      device_sort_into<K>(L, sizing, s, static_cast<const K*>(keys_in), static_cast<K*>(stand_in(keys_out, sizing, 1)),
                          stand_in(iota, sizing, 2), stand_in(sorted_idx, sizing, 3), std::size_t(carried_bytes), opt,
                          ctx, form);
      if (sizing) return L.bytes();
      if (widen) {
        if (!form.wide_out) detail::launch_widen(ctx, sorted_idx, indices_out, s.n, opt.stream);
      } else if (sorted_idx != indices_out) {
        ctx.check(cudaMemcpyAsync(indices_out, sorted_idx, s.n * std::size_t(carried_bytes), cudaMemcpyDeviceToDevice,
                                  opt.stream),
                  "cudaMemcpyAsync(indices)");
      }
      return L.bytes();
    };
    two_phase(ctx, temp, temp_bytes, phases);
  });
}

void segmented_sort_device(void* temp, std::size_t& temp_bytes, key_type key, std::size_t n, std::size_t segments,
                           void* keys, void* vals, std::size_t val_size, const void* offsets, int offset_bytes,
                           const options& opt) {
  with_key(key, [&]<class K>() {
    const auto* o = static_cast<const std::uint8_t*>(offsets);
    const int width = offset_bytes < 0 ? -offset_bytes : offset_bytes;
    detail::segmented_sort_device<K>(temp, &temp_bytes, static_cast<const K*>(keys), static_cast<K*>(keys), vals, vals,
                                     val_size, n, segments, o, o ? o + width : nullptr, offset_bytes, opt,
                                     "segmented_sort");
  });
}

backend segmented_sort_host(key_type key, std::size_t n, std::size_t segments, void* keys, void* vals,
                            std::size_t val_size, const void* offsets, int offset_bytes, const options& opt) {
  const sort_spec s{key, n, 1};
  const call_context ctx = context_for("segmented_sort", key, s, opt, true);
  if (offset_bytes != 4 && offset_bytes != -4 && offset_bytes != 8 && offset_bytes != -8)
    ctx.fail(errc::invalid_argument, "offsets must be 32- or 64-bit integers");
  if (segments > 0 && !offsets) ctx.fail(errc::invalid_argument, "null offsets with segments");
  if (n > 0 && !keys) ctx.fail(errc::invalid_argument, "null key pointer with n > 0");
  if (val_size && n > 0 && !vals) ctx.fail(errc::invalid_argument, "null value pointer with n > 0");
  // offsets clamped to [0, n], as on the device
  const auto offset = [&](std::size_t i) -> std::size_t {
    std::int64_t v = 0;
    switch (offset_bytes) {
      case 4: v = std::int64_t(static_cast<const std::uint32_t*>(offsets)[i]); break;
      case -4: v = static_cast<const std::int32_t*>(offsets)[i]; break;
      case 8: {
        const std::uint64_t u = static_cast<const std::uint64_t*>(offsets)[i];
        v = u > n ? std::int64_t(n) : std::int64_t(u);
        break;
      }
      default: v = static_cast<const std::int64_t*>(offsets)[i];
    }
    return std::size_t(std::clamp<std::int64_t>(v, 0, std::int64_t(n)));
  };
  const auto seg = [&](std::size_t r) { return std::pair<std::size_t, std::size_t>(offset(r), offset(r + 1)); };
  with_key(key, [&]<class K>() {
    cpu_segments<K>(segments, seg, static_cast<K*>(keys), static_cast<K*>(keys), vals, vals, val_size, nullptr, 0, opt, ctx);
  });
  return backend::cpu_parallel;
}

backend sort_host(const sort_spec& s, const void* keys_in, void* keys_out, const void* vals_in, void* vals_out,
                  std::size_t val_size, const options& opt, bool force_cpu) {
  const call_context ctx = context_for(val_size ? "sort_pairs" : "sort", s.key, s, opt, s.rows > 1);
  if (s.n > 0 && (!keys_in || !keys_out)) ctx.fail(errc::invalid_argument, "null key pointer with n > 0");
  if (val_size && s.n > 0 && (!vals_in || !vals_out)) ctx.fail(errc::invalid_argument, "null value pointer with n > 0");
  backend ran = force_cpu || !gpu_available() ? backend::cpu_parallel : backend::gpu;
  if (s.n == 0) return ran;
  with_key(s.key, [&]<class K>() {
    const K* in = static_cast<const K*>(keys_in);
    K* out = static_cast<K*>(keys_out);
    if (s.rows > 1) {
      ran = host_rows<K>(s, in, out, vals_in, vals_out, val_size, nullptr, 0, opt, force_cpu, ctx);
      return;
    }
    detail::checked_order<K>(opt, ctx);  // before anything is written
    if (in != out) detail::host::parallel_copy(out, in, s.n * sizeof(K));
    if (val_size && vals_in != vals_out) detail::host::parallel_copy(vals_out, vals_in, s.n * val_size);
    ran = detail::sort_host<K>(out, val_size ? vals_out : nullptr, val_size, s.n, opt, force_cpu);
  });
  return ran;
}

backend argsort_host(const sort_spec& s, const void* keys_in, void* indices_out, int index_bytes, const options& opt,
                     bool force_cpu) {
  const call_context ctx = context_for("argsort", s.key, s, opt, s.rows > 1);
  check_argsort(ctx, s, keys_in, indices_out, index_bytes, opt);
  backend ran = force_cpu || !gpu_available() ? backend::cpu_parallel : backend::gpu;
  if (s.n == 0) return ran;
  with_key(s.key, [&]<class K>() {
    const K* in = static_cast<const K*>(keys_in);
    if (s.rows > 1) {
      ran = host_rows<K>(s, in, nullptr, nullptr, nullptr, 0, indices_out, index_bytes, opt, force_cpu, ctx);
      return;
    }
    detail::checked_order<K>(opt, ctx);
    const auto keys = std::make_unique_for_overwrite<K[]>(s.n);  // sorted alongside, then dropped
    detail::host::parallel_copy(keys.get(), in, s.n * sizeof(K));
#pragma omp parallel for schedule(static)
    for (std::int64_t i = 0; i < std::int64_t(s.n); ++i) {
      if (index_bytes == 8) static_cast<std::int64_t*>(indices_out)[i] = i;
      else static_cast<std::int32_t*>(indices_out)[i] = std::int32_t(i);
    }
    ran = detail::sort_host<K>(keys.get(), indices_out, std::size_t(index_bytes), s.n, opt, force_cpu);
  });
  return ran;
}

}  // namespace gpusort
