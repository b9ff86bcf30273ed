#include "app/report/schedule_choice_accuracy.hpp"

#include <algorithm>

namespace tilesim::report {
namespace {

ScheduleGroupOutcome judge(const std::string& problem,
                           const std::vector<const ScheduleCase*>& group) {
  const auto by = [](double ScheduleCase::*time) {
    return [time](const ScheduleCase* a, const ScheduleCase* b) { return a->*time < b->*time; };
  };
  const ScheduleCase& picked =
      **std::min_element(group.begin(), group.end(), by(&ScheduleCase::predicted_us));
  const ScheduleCase& best =
      **std::min_element(group.begin(), group.end(), by(&ScheduleCase::measured_us));
  ScheduleGroupOutcome outcome;
  outcome.problem = problem;
  outcome.cases = static_cast<int>(group.size());
  outcome.predicted_fastest = picked.name;
  outcome.measured_fastest = best.name;
  const double regret = picked.measured_us / best.measured_us - 1;
  outcome.regret_percent = 100 * regret;
  const double noise = std::max({kMinTieFraction, picked.noise_fraction, best.noise_fraction});
  outcome.tie = &picked != &best && regret <= noise;
  outcome.correct = &picked == &best || outcome.tie;
  return outcome;
}

}  // namespace

int ScheduleChoiceAccuracy::correct() const {
  return static_cast<int>(std::count_if(groups.begin(), groups.end(),
                                        [](const ScheduleGroupOutcome& g) { return g.correct; }));
}

double ScheduleChoiceAccuracy::top1_share() const {
  return groups.empty() ? 1.0 : static_cast<double>(correct()) / static_cast<double>(groups.size());
}

ScheduleChoiceAccuracy schedule_choice_accuracy(std::span<const ScheduleCase> cases) {
  std::vector<std::string> problems;  // first-seen order
  for (const ScheduleCase& c : cases) {
    if (std::find(problems.begin(), problems.end(), c.problem) == problems.end()) {
      problems.push_back(c.problem);
    }
  }
  ScheduleChoiceAccuracy accuracy;
  for (const std::string& problem : problems) {
    std::vector<const ScheduleCase*> group;
    for (const ScheduleCase& c : cases) {
      if (c.problem == problem) group.push_back(&c);
    }
    if (group.size() >= 2) accuracy.groups.push_back(judge(problem, group));
  }
  return accuracy;
}

}  // namespace tilesim::report
