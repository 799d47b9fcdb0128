// 128-bit integer keys (gpusort.hpp's sort_keys and sort_pairs with
// unsigned __int128 or __int128): the record sort of their two 64-bit
// halves (detail/wide_key.hpp), high half first. The record sort packs each
// half's order-preserving bits less its minimum (so halves that vary in few
// bits sort in few digits), sorts (packed half, row) pairs stably by radix,
// the low half first and then the high half through the low half's order
// (the least-significant-key-first rule), and gathers the keys and values
// once through the permutation.
#include <gpusort/detail/core/context.hpp>
#include <gpusort/detail/wide_key.hpp>

#include <string>

namespace gpusort::detail {

void check_wide_call(const call_context& ctx, const void* keys_in, const void* keys_out, const void* vals_in,
                const void* vals_out, std::size_t val_size, std::size_t n, const options& opt) {
  if (opt.begin_bit != 0 || (opt.end_bit != -1 && opt.end_bit != 128))
    ctx.fail(errc::invalid_argument, "a bit range of 128-bit keys ([" + std::to_string(opt.begin_bit) + ", " +
                                         std::to_string(opt.end_bit) + ")): they sort by the whole key");
  if (n == 0) return;
  if (!keys_in || !keys_out) ctx.fail(errc::invalid_argument, "null key pointer with n > 0");
  if (val_size > 0 && (!vals_in || !vals_out)) ctx.fail(errc::invalid_argument, "null value pointer with n > 0");
  if (reinterpret_cast<std::uintptr_t>(keys_in) % 8 != 0 || reinterpret_cast<std::uintptr_t>(keys_out) % 8 != 0)
    ctx.fail(errc::invalid_argument, "128-bit keys not aligned to 8 bytes");
}

void sort_wide_device(void* temp, std::size_t* temp_bytes, bool is_signed, const void* keys_in, void* keys_out,
                      const void* vals_in, void* vals_out, std::size_t val_size, std::size_t n, const options& opt,
                      const char* op) {
  const call_context ctx =
      make_context(op, is_signed ? "i128" : "u128", "radix", n, temp && temp_bytes ? *temp_bytes : 0);
  if (!temp_bytes) ctx.fail(errc::invalid_argument, "temp_bytes is null");
  check_wide_call(ctx, keys_in, keys_out, vals_in, vals_out, val_size, n, opt);
  key_column fields[2];
  wide_fields(is_signed, keys_in, opt.direction, fields);
  sort_records_device(temp, *temp_bytes, keys_in, keys_out, 16, fields, 2, n, vals_in, vals_out, val_size, opt);
}

void sort_wide_device_alloc(bool is_signed, const void* keys_in, void* keys_out, const void* vals_in, void* vals_out,
                            std::size_t val_size, std::size_t n, const options& opt, const char* op) {
  allocating_call(make_context(op, is_signed ? "i128" : "u128", "radix", n), opt.stream,
                  [&](void* temp, std::size_t& bytes) {
                    sort_wide_device(temp, &bytes, is_signed, keys_in, keys_out, vals_in, vals_out, val_size, n, opt,
                                     op);
                  });
}

}  // namespace gpusort::detail
