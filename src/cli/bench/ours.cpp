// gpusort's own device sorts, timed through the two-phase API: scratch is
// queried and allocated once outside the timing, as a caller would.
#include "device_sorter.hpp"

namespace gpusort::cli::bench {

namespace {

template <class K> class ours final : public device_sorter<K> {
 public:
  ours(algorithm algo, pivot_rule pivots) {
    opt_.algo = algo;
    opt_.pivots = pivots;
  }

  std::size_t scratch_bytes(K* keys_in, K* keys_out, value_t* vals_in, value_t* vals_out,
                            std::size_t n) override {
    std::size_t bytes = 0;
    if (vals_in)
      sort_pairs<K, value_t>(nullptr, bytes, keys_in, keys_out, vals_in, vals_out, n, opt_);
    else
      sort_keys<K>(nullptr, bytes, keys_in, keys_out, n, opt_);
    return bytes;
  }

  void sort(void* temp, std::size_t temp_bytes, K* keys_in, K* keys_out, value_t* vals_in,
            value_t* vals_out, std::size_t n, cudaStream_t stream) override {
    options opt = opt_;
    opt.stream = stream;
    if (vals_in)
      sort_pairs<K, value_t>(temp, temp_bytes, keys_in, keys_out, vals_in, vals_out, n, opt);
    else
      sort_keys<K>(temp, temp_bytes, keys_in, keys_out, n, opt);
  }

 private:
  options opt_;
};

}  // namespace

template <class K> std::unique_ptr<device_sorter<K>> make_ours(algorithm algo, pivot_rule pivots) {
  return std::make_unique<ours<K>>(algo, pivots);
}

#define GPUSORT_CLI_OURS(K) template std::unique_ptr<device_sorter<K>> make_ours<K>(algorithm, pivot_rule);
GPUSORT_FOR_EACH_KEY(GPUSORT_CLI_OURS)
#undef GPUSORT_CLI_OURS

}  // namespace gpusort::cli::bench
