#pragma once
// A roofline plot as an SVG document, log-log: attained FLOP/s over arithmetic
// intensity (FLOPs per byte). Bandwidth ceilings are diagonals (FLOP/s =
// bytes/s x intensity) up to the highest compute roof; compute roofs are
// horizontal lines from where they meet the steepest ceiling. Marks are the
// runs: a filled circle, a filled square or a hollow square, optionally joined
// to another mark by a thin line (e.g. a run at its HBM and at its L2
// intensity, or predicted and measured). A mark with no FLOPs or no bytes has
// no place on log axes and is left out.

#include <optional>
#include <string>
#include <vector>

namespace tilesim::report {

struct RooflineRoof {
  std::string name;  // "HBM 3.09 TB/s", "bf16 tensor cores 1070 TFLOP/s"
  double value = 0;  // bytes/s for a ceiling, FLOP/s for a compute roof
};

enum class RooflineMarkShape { circle, square, hollow_square };

struct RooflineMark {
  std::string series;  // colour and legend entry
  double flops_per_byte = 0;
  double flops_per_s = 0;
  RooflineMarkShape shape = RooflineMarkShape::circle;
  std::optional<std::size_t> joined_to;  // index of another mark
};

struct RooflineShapeNote {
  RooflineMarkShape shape = RooflineMarkShape::circle;
  std::string text;  // what the shape stands for, in the legend
};

struct RooflineChart {
  std::string title;
  std::vector<RooflineRoof> bandwidth_ceilings;
  std::vector<RooflineRoof> compute_roofs;
  std::vector<RooflineMark> marks;
  std::vector<RooflineShapeNote> shape_notes;
};

std::string render_roofline(const RooflineChart& chart);

}  // namespace tilesim::report
