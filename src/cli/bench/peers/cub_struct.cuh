// Peers on the struct keys u32f32 and i64f64 (struct_key.hpp): cub::DeviceMergeSort
// with the comparator merge_path is given, keys only, out of place
// (StableSortKeysCopy), and cub::DeviceRadixSort with the decomposer that
// automatic is given, keys or pairs (offset width and CUB build: see
// cub_sorter.cuh).
#pragma once

#include "bench/cuda_check.hpp"
#include "bench/peers/cub_sorter.cuh"
#include "bench/struct_key.hpp"

#include <cub/device/device_merge_sort.cuh>
#include <cub/device/device_radix_sort.cuh>

namespace gpusort::cli::bench {

template <cub_build B>
class cub_struct_sorter final : public cub_sorter<u32f32, std::uint32_t, B, cub_struct_sorter<B>> {
 public:
  template <class N>
  static void call(void* temp, std::size_t& bytes, u32f32* keys_in, u32f32* keys_out, std::uint32_t*,
                   std::uint32_t*, N n, cudaStream_t stream) {
    cuda_check(cub::DeviceMergeSort::StableSortKeysCopy(temp, bytes, keys_in, keys_out, n, by_major_minor{},
                                                        stream),
               "cub::DeviceMergeSort::StableSortKeysCopy");
  }
};

template <cub_build B> std::unique_ptr<device_sorter<u32f32, std::uint32_t>> make_cub_struct() {
  return std::make_unique<cub_struct_sorter<B>>();
}

// cub::DeviceRadixSort with a decomposer on K, keys or pairs.
template <class K, class Decomposer, cub_build B>
class cub_decomposer_sorter final
    : public cub_sorter<K, std::uint32_t, B, cub_decomposer_sorter<K, Decomposer, B>> {
 public:
  template <class N>
  static void call(void* temp, std::size_t& bytes, K* keys_in, K* keys_out, std::uint32_t* vals_in,
                   std::uint32_t* vals_out, N n, cudaStream_t stream) {
    if (vals_in)
      cuda_check(cub::DeviceRadixSort::SortPairs(temp, bytes, keys_in, keys_out, vals_in, vals_out, n, Decomposer{},
                                                 stream),
                 "cub::DeviceRadixSort::SortPairs (decomposer)");
    else
      cuda_check(cub::DeviceRadixSort::SortKeys(temp, bytes, keys_in, keys_out, n, Decomposer{}, stream),
                 "cub::DeviceRadixSort::SortKeys (decomposer)");
  }
};

template <cub_build B> std::unique_ptr<device_sorter<u32f32, std::uint32_t>> make_cub_struct_radix() {
  return std::make_unique<cub_decomposer_sorter<u32f32, major_minor_decomposer, B>>();
}
// i64f64 by (id, score), both ascending: CUB's decomposer has one direction
// for every member.
template <cub_build B> std::unique_ptr<device_sorter<i64f64, std::uint32_t>> make_cub_i64f64_radix() {
  return std::make_unique<cub_decomposer_sorter<i64f64, id_score_decomposer, B>>();
}

}  // namespace gpusort::cli::bench

// One unit per CUB build; the key and value of the generated unit's name
// (cub_struct_u32f32_u32) are the struct key's and not otherwise used.
#define GPUSORT_CLI_INSTANTIATE_cub_struct(K, V)                                                       \
  template std::unique_ptr<gpusort::cli::bench::device_sorter<gpusort::cli::bench::u32f32, std::uint32_t>> \
  gpusort::cli::bench::make_cub_struct<GPUSORT_CLI_THIS_CUB>();                                            \
  template std::unique_ptr<gpusort::cli::bench::device_sorter<gpusort::cli::bench::u32f32, std::uint32_t>> \
  gpusort::cli::bench::make_cub_struct_radix<GPUSORT_CLI_THIS_CUB>();                                      \
  template std::unique_ptr<gpusort::cli::bench::device_sorter<gpusort::cli::bench::i64f64, std::uint32_t>> \
  gpusort::cli::bench::make_cub_i64f64_radix<GPUSORT_CLI_THIS_CUB>();
