#pragma once
// N identical decoder layers from the simulation of a few.
//
// A model's layers have the same shapes and kernels; each reads its own
// weights (never in L2 when it starts) and the previous layer's output. So
// once the launch path and L2 have reached their steady state -- after the
// first layer: the host is as far ahead of the GPU as it will get, L2 holds
// the previous layer's activations -- every further layer starts in the same
// state and takes the same time, `period`. The model is simulated with
// kSimulatedLayers layers (embedding, layers, head); the result is extended
// by repeating the last simulated layer's kernels every `period` (the
// distance between the starts of the last two simulated layers) and moving
// the head behind them. tests/workloads/model checks that this matches a
// simulation of every layer.

#include <string>

#include "sim/gpu/simulation_result.hpp"

namespace tilesim::workloads {

inline constexpr int kSimulatedLayers = 3;

// Kernel names of layer i start with layer_prefix(i) ("L2.").
std::string layer_prefix(int layer);

struct RepeatedLayers {
  int simulated = 0;    // layers in the simulation
  int total = 0;        // layers of the model
  sim::SimTime period;  // time per repeated layer; zero when none is repeated
};

// `result` simulated `simulated` layers (kernels named layer_prefix(i)...);
// returns it with `total` layers. The repeated layers' CTA records carry no
// segments (traces show them without tile labels) and the bandwidth samples
// cover the simulated part.
gpu::SimulationResult repeat_last_layer(gpu::SimulationResult result, int simulated, int total,
                                        RepeatedLayers& repeated);

}  // namespace tilesim::workloads
