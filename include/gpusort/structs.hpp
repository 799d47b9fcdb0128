// Sorting an array of structs by radix on their arithmetic members, with
// CUB's decomposer interface: a functor that returns a tuple of references
// to the members that form the key, most significant first.
//
//   struct row { std::int64_t id; float score; std::uint32_t tag; };
//   struct by_id_score {
//     __host__ __device__ cuda::std::tuple<std::int64_t&, float&> operator()(row& r) const {
//       return {r.id, r.score};
//     }
//   };
//   std::size_t bytes = 0;
//   gpusort::sort_structs_device(nullptr, bytes, d_in, d_out, n, by_id_score{}, opt);
//   gpusort::sort_structs_device(d_temp, bytes, d_in, d_out, n, by_id_score{}, opt);
//
// The structs are ordered by the members in turn (each as a sort of its
// type orders it, in opt.direction, or in directions[i] when given: CUB has
// one direction for all), stable, and moved whole; the _pairs form moves
// values with them. The members' offsets are read on the host by applying
// the decomposer to one default-constructed struct, so the decomposer must
// be callable on the host (CUB's are __host__ __device__). Members of every
// key type (and bool) are allowed, std::tuple or cuda::std::tuple.
//
// How: the members are strided key columns (columns.hpp), packed into one
// normalized key per 64 bits of members. When the members tile a struct of
// at most 8 bytes, the sort carries the structs in those keys, with the
// values beside them, and rebuilds them from the sorted keys; otherwise it
// radix-sorts (key, row) pairs and one gather moves the structs
// (src/columns/records.cpp). Two-phase, stream-ordered, no host
// synchronisation.
#pragma once

#include <gpusort/columns.hpp>

#include <cuda/std/tuple>

#include <cstddef>
#include <cstdint>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

namespace gpusort {

namespace detail {

template <class M> constexpr key_type key_type_of() {
  using T = std::remove_cv_t<M>;
  if constexpr (std::is_same_v<T, bool> || std::is_same_v<T, std::uint8_t>) return key_type::u8;
  else if constexpr (std::is_same_v<T, std::uint16_t>) return key_type::u16;
  else if constexpr (std::is_same_v<T, std::uint32_t>) return key_type::u32;
  else if constexpr (std::is_same_v<T, std::uint64_t>) return key_type::u64;
  else if constexpr (std::is_same_v<T, std::int8_t>) return key_type::i8;
  else if constexpr (std::is_same_v<T, std::int16_t>) return key_type::i16;
  else if constexpr (std::is_same_v<T, std::int32_t>) return key_type::i32;
  else if constexpr (std::is_same_v<T, std::int64_t>) return key_type::i64;
  else if constexpr (std::is_same_v<T, __half>) return key_type::f16;
  else if constexpr (std::is_same_v<T, __nv_bfloat16>) return key_type::bf16;
  else if constexpr (std::is_same_v<T, float>) return key_type::f32;
  else if constexpr (std::is_same_v<T, double>) return key_type::f64;
  else static_assert(sizeof(T) == 0, "gpusort: a decomposer member must be an arithmetic key type");
}

template <class> struct is_std_tuple : std::false_type {};
template <class... Ts> struct is_std_tuple<std::tuple<Ts...>> : std::true_type {};

template <class Tuple, class F> void for_each_member(Tuple&& t, F&& f) {
  if constexpr (is_std_tuple<std::remove_cvref_t<Tuple>>::value)
    std::apply([&](auto&... m) { (f(m), ...); }, t);
  else
    cuda::std::apply([&](auto&... m) { (f(m), ...); }, t);
}

// The decomposer's members as key columns of the structs at `first`.
template <class T, class Decomposer>
std::vector<key_column> struct_fields(const T* first, Decomposer dec, const options& opt, const order* directions) {
  static_assert(std::is_trivially_copyable_v<T> && std::is_default_constructible_v<T>,
                "gpusort: structs sorted by a decomposer must be trivially copyable and default-constructible");
  T probe{};
  std::vector<key_column> fields;
  for_each_member(dec(probe), [&](auto& m) {
    using M = std::remove_reference_t<decltype(m)>;
    const auto offset = std::size_t(reinterpret_cast<const unsigned char*>(&m) -
                                    reinterpret_cast<const unsigned char*>(&probe));
    const order dir = directions ? directions[fields.size()] : opt.direction;
    fields.push_back({key_type_of<M>(), reinterpret_cast<const unsigned char*>(first) + offset, dir, sizeof(T)});
  });
  return fields;
}

}  // namespace detail

template <class T, class Decomposer>
void sort_structs_device(void* temp, std::size_t& temp_bytes, const T* in, T* out, std::size_t n, Decomposer dec,
                         const options& opt = {}, const order* directions = nullptr) {
  const auto fields = detail::struct_fields(in, dec, opt, directions);
  sort_records_device(temp, temp_bytes, in, out, sizeof(T), fields.data(), fields.size(), n, nullptr, nullptr, 0, opt);
}

template <class T, class V, class Decomposer>
void sort_structs_pairs_device(void* temp, std::size_t& temp_bytes, const T* keys_in, T* keys_out, const V* vals_in,
                               V* vals_out, std::size_t n, Decomposer dec, const options& opt = {},
                               const order* directions = nullptr) {
  const auto fields = detail::struct_fields(keys_in, dec, opt, directions);
  sort_records_device(temp, temp_bytes, keys_in, keys_out, sizeof(T), fields.data(), fields.size(), n, vals_in,
                      vals_out, sizeof(V), opt);
}

}  // namespace gpusort
