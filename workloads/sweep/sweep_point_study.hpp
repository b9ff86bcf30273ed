#pragma once
// One point of a sweep as a one-workload study: the sweep's `workload:` map with
// the point's values and schedule set, read by the study loader
// (load_study_text) and checked against the point's hardware exactly like a
// workload of a study file.
//
// The study text is generated, so the loader's positions are in that text. Each
// problem is mapped back to the sweep file: to the `vary:` value (or key) that
// caused it, to the `schedules:` item, or to the node of `workload:` it is about.
// The generated text is written in YAML flow style, where every node has a
// position of its own, so the mapping is exact.
//
// Writing and reading that text was 13% of a 1,000-point sweep (bench/README.md,
// round 7), so where the text's positions cannot show, a point is first read
// from the nodes themselves: in a sweep with `vary:` axes, whose every problem
// at run time is reported at its point (at_sweep_point), a point that reads
// cleanly this way is taken as read. A point with any problem is read again
// from the text, so that its messages are the ones the text gives.

#include <yaml-cpp/yaml.h>

#include <filesystem>
#include <mutex>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "hwmodels/diagnostics.hpp"
#include "hwmodels/hardware_spec.hpp"
#include "workloads/gemm/gemm_workload.hpp"
#include "workloads/study_loader.hpp"
#include "workloads/sweep/sweep_spec.hpp"

namespace tilesim::workloads {

// A workload key set by the point.
struct PointSetting {
  std::string key;    // "gemm.m"
  std::string value;  // "256"
  SweepSource value_source;
  SweepSource key_source;
};

struct PointSchedule {
  std::string name;
  SweepSource source;
};

class SweepPointStudy {
 public:
  // `workload`: the sweep's `workload:` map as read from `file`; `schedule_names`
  // and `config_dir` (model presets) as for load_study.
  // `axes`: whether the sweep varies anything (then a clean point is read
  // without the generated text).
  SweepPointStudy(const YAML::Node& workload, std::string file,
                  std::vector<std::string> schedule_names, std::filesystem::path config_dir,
                  bool axes);

  // The point's workload, or its problems in sweep-file terms; safe to call
  // from several threads at once. With `hardware`,
  // the kernel (profile and tile overrides) is resolved against it too; `point`
  // ("tile.m = 256, tile.stages = 4"), when not empty, is added to a kernel
  // problem laid at a varied value, since it depends on the other values too.
  config::Loaded<Workload> load(std::span<const PointSetting> settings,
                                const std::optional<PointSchedule>& schedule,
                                const hw::HardwareSpec* hardware,
                                const std::string& point = "") const;

 private:
  // `item`: the workload with the point's settings applied; it gets the
  // point's name and schedule.
  static YAML::Node study_node(YAML::Node item, const std::optional<PointSchedule>& schedule);
  std::string study_text(YAML::Node item, const std::optional<PointSchedule>& schedule) const;
  // The point's workload read from `item` itself; nothing when it has any
  // problem (the text then tells which).
  std::optional<Workload> read_clean(YAML::Node item, const std::optional<PointSchedule>& schedule,
                                     const hw::HardwareSpec* hardware) const;
  config::Diagnostics map_back(const config::Diagnostics& problems, const std::string& text,
                               std::span<const PointSetting> settings,
                               const std::optional<PointSchedule>& schedule) const;

  // yaml-cpp's nodes share state even when only read, so that points can be
  // loaded on several threads at once, the sweep's workload is read under a lock.
  mutable std::mutex workload_mutex_;
  YAML::Node workload_;
  std::string file_;
  std::vector<std::string> schedule_names_;
  std::filesystem::path config_dir_;
  StudyNodeReader node_reader_;  // for read_clean
  bool read_nodes_;              // read_clean first
};

}  // namespace tilesim::workloads
