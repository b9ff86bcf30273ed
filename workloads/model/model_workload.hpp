#pragma once
// A whole decoder-only transformer as a study workload (`model:`): embedding,
// `layers` identical Llama-style decoder layers, final RMSNorm and LM head.
// One run per phase (the prefill of one prompt: time to first token; one
// decode step of a batch: time per output token) and per `fused` / `launch`
// choice. Dimensions come from a preset (configs/models/) that the study's
// keys override.

#include <cstdint>
#include <string>

#include "hwmodels/diagnostics.hpp"
#include "workloads/graph/decoder_layer.hpp"

namespace tilesim::workloads {

struct ModelWorkload {
  std::string name;
  std::string preset;  // as written: a name under configs/models/ or a path; empty: none
  // Dimensions, `layers` = the model's depth, and the decode step's batch and
  // context; `phase` and `tokens` are set per run.
  DecoderLayerShape shape;
  std::int64_t vocab = 128256;
  bool tied_embeddings = false;  // the LM head shares the embedding table
  std::int64_t prompt_tokens = 0;
  bool prefill = true;  // `phase: prefill` or `both`
  bool decode = true;   // `phase: decode` or `both`
  // Set only when the study names them: otherwise per phase (flash /
  // flash_decoding, data_parallel / split_k) as for `layer:`.
  std::string attention;
  std::string schedule;
  std::string fused = "true";         // true | false | framework | compare
  std::string launch = "cuda_graph";  // eager | cuda_graph | compare
  config::SourceLocation where;
};

}  // namespace tilesim::workloads
