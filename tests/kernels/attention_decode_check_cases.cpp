// Decode cases of tilesim-attention-check: filled by the decode kernels
// (kernels/attention/decode/); none in a build without them.

#include "tests/kernels/attention_check_cases.hpp"

namespace tilesim::kernels::attention_check {

std::vector<CheckCase> decode_check_cases() {
  return {};
}

}  // namespace tilesim::kernels::attention_check
