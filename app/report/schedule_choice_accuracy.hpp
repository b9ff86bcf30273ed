#pragma once
// Does the model pick the right schedule? Cases that share a problem (same
// kernel, shape and types) but differ in schedule form a group; the model is
// right for a group when the case it predicts fastest is the measured fastest,
// or measures within noise of it (a tie: either choice would be as good).

#include <span>
#include <string>
#include <vector>

namespace tilesim::report {

// Two measured times closer than this fraction are a tie even when the runs'
// own spread is smaller: sessions on one GPU differ by 2-5% (the dataset NOTES).
constexpr double kMinTieFraction = 0.02;

struct ScheduleCase {
  std::string problem;  // the group key, e.g. "tilesim_ref 1536x1536x4096 bf16->bf16"
  std::string name;
  double measured_us = 0;
  double noise_fraction = 0;  // the run's own spread, e.g. (p90 - median) / median
  double predicted_us = 0;
};

struct ScheduleGroupOutcome {
  std::string problem;
  int cases = 0;
  std::string predicted_fastest;
  std::string measured_fastest;
  double regret_percent = 0;  // how much slower the predicted pick measured, vs the best
  bool correct = false;       // same pick, or a tie
  bool tie = false;           // a different pick, within noise of the best
};

struct ScheduleChoiceAccuracy {
  std::vector<ScheduleGroupOutcome> groups;  // groups of two or more cases, in first-seen order
  int correct() const;
  double top1_share() const;  // correct / groups; 1 with no groups
};

ScheduleChoiceAccuracy schedule_choice_accuracy(std::span<const ScheduleCase> cases);

}  // namespace tilesim::report
