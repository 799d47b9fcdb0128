// The shape the CUB peers share: CUB's two-phase call (query the scratch,
// then sort) behind device_sorter, with the offset width as the sorter's
// variant (cub_offsets.hpp): the bench selects "int32" or "int64" and
// times each. Derived supplies
//   template <class N> static void call(temp, bytes, keys_in, keys_out,
//                                       vals_in, vals_out, N n, stream)
// and is called with N = int or std::int64_t. A peer whose CUB call has
// another shape (a segmented sort) uses cub_offsets.hpp the same way.
// The variants name the CUB version the unit was built with ("CUB 3.6.0,
// offsets"), so the table and the CSV's '# peer' lines say both.
#pragma once

#include "bench/device_sorter.hpp"
#include "bench/peers/cub_offsets.hpp"
#include "bench/peers/this_cub.cuh"

namespace gpusort::cli::bench {

// CUB's two-phase call behind device_sorter: Derived supplies
//   void run(void* temp, std::size_t& bytes, keys_in, keys_out, vals_in, vals_out, n, stream) const
// (temp == nullptr: the size query), for the radix and merge peers below and
// the segmented peer (cub_segmented.cuh).
template <class K, class V, class Derived> class two_phase_sorter : public device_sorter<K, V> {
 public:
  std::size_t scratch_bytes(K* keys_in, K* keys_out, V* vals_in, V* vals_out,
                            std::size_t n) override {
    std::size_t bytes = 0;
    self().run(nullptr, bytes, keys_in, keys_out, vals_in, vals_out, n, nullptr);
    return bytes;
  }
  void sort(void* temp, std::size_t temp_bytes, K* keys_in, K* keys_out, V* vals_in,
            V* vals_out, std::size_t n, cudaStream_t stream) override {
    self().run(temp, temp_bytes, keys_in, keys_out, vals_in, vals_out, n, stream);
  }

 private:
  const Derived& self() const { return static_cast<const Derived&>(*this); }
};

// B: the CUB the unit compiles against (this_cub.cuh), which Derived also
// takes, so the two builds never share a symbol.
template <class K, class V, cub_build B, class Derived>
class cub_sorter : public two_phase_sorter<K, V, cub_sorter<K, V, B, Derived>> {
 public:
  variant_list variants(std::size_t n) const override {
    return {this_cub_name<B>() + ", offsets", offset_width_names(n)};
  }
  void select_variant(const std::string& name) override { width_ = parse_offset_width(name); }

  void run(void* temp, std::size_t& bytes, K* keys_in, K* keys_out, V* vals_in,
           V* vals_out, std::size_t n, cudaStream_t stream) const {
    with_offset(width_, n, [&](auto count) {
      Derived::template call<decltype(count)>(temp, bytes, keys_in, keys_out, vals_in, vals_out,
                                              count, stream);
    });
  }

 private:
  offset_width width_ = offset_width::int64;  // valid for every n
};

}  // namespace gpusort::cli::bench
