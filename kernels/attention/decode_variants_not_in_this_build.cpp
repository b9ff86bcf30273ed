// TEMPORARY (removed when branch attn-decode is merged): the decode variants'
// entry points, so that the dispatcher links before their kernels land in
// kernels/attention/decode/. Each says so loudly instead of computing anything.

#include <stdexcept>
#include <string>

#include "kernels/attention/attention_variants.hpp"

namespace tilesim::kernels {
namespace {

std::string not_in_this_build(std::string_view variant) {
  return "attention variant " + std::string(variant) +
         ": not in this build (its kernels come with kernels/attention/decode/)";
}

}  // namespace

std::optional<std::string> flash_decoding_problem_error(const AttentionProblem&) {
  return not_in_this_build("flash_decoding");
}
std::optional<std::string> paged_v1_problem_error(const AttentionProblem&) {
  return not_in_this_build("paged_v1");
}
std::optional<std::string> paged_v2_problem_error(const AttentionProblem&) {
  return not_in_this_build("paged_v2");
}
std::optional<std::string> stream_k_decode_problem_error(const AttentionProblem&) {
  return not_in_this_build("stream_k_decode");
}

AttentionWorkspaceSize flash_decoding_workspace_size(const AttentionProblem&) {
  throw std::logic_error(not_in_this_build("flash_decoding"));
}
AttentionWorkspaceSize paged_v1_workspace_size(const AttentionProblem&) {
  throw std::logic_error(not_in_this_build("paged_v1"));
}
AttentionWorkspaceSize paged_v2_workspace_size(const AttentionProblem&) {
  throw std::logic_error(not_in_this_build("paged_v2"));
}
AttentionWorkspaceSize stream_k_decode_workspace_size(const AttentionProblem&) {
  throw std::logic_error(not_in_this_build("stream_k_decode"));
}

int launch_flash_decoding(const AttentionProblem&, const AttentionTensors&, void*, cudaStream_t) {
  throw std::logic_error(not_in_this_build("flash_decoding"));
}
int launch_paged_v1(const AttentionProblem&, const AttentionTensors&, void*, cudaStream_t) {
  throw std::logic_error(not_in_this_build("paged_v1"));
}
int launch_paged_v2(const AttentionProblem&, const AttentionTensors&, void*, cudaStream_t) {
  throw std::logic_error(not_in_this_build("paged_v2"));
}
int launch_stream_k_decode(const AttentionProblem&, const AttentionTensors&, void*, cudaStream_t) {
  throw std::logic_error(not_in_this_build("stream_k_decode"));
}

}  // namespace tilesim::kernels
