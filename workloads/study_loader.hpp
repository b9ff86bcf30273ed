#pragma once
// Reads a study YAML file into a Study, reporting every problem at once.

#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "hwmodels/diagnostics.hpp"
#include "workloads/study.hpp"

namespace YAML {
class Node;
}  // namespace YAML

namespace tilesim::workloads {

// `gemm_schedules` are the names a `schedule:` value may take (from the schedule
// registry), so the loader can say what is allowed. `config_dir` (configs/)
// is where a model's `preset:` name is looked up; empty: presets only by path.
config::Loaded<Study> load_study(const std::filesystem::path& path,
                                 const std::vector<std::string>& gemm_schedules,
                                 const std::filesystem::path& config_dir = {});

// The same for study YAML held in memory (e.g. one point of a sweep); `origin`
// names it in diagnostics.
config::Loaded<Study> load_study_text(const std::string& text, const std::string& origin,
                                      const std::vector<std::string>& gemm_schedules,
                                      const std::filesystem::path& config_dir = {});

// The same for studies already read as YAML (e.g. the points of a sweep, built
// in memory), with the nodes' own positions. It builds the workload keys'
// schema once, not per study: a sweep reads a study per point. Safe to use
// from several threads at once.
class StudyNodeReader {
 public:
  explicit StudyNodeReader(std::vector<std::string> gemm_schedules,
                           std::filesystem::path config_dir = {});
  ~StudyNodeReader();
  StudyNodeReader(const StudyNodeReader&) = delete;
  StudyNodeReader& operator=(const StudyNodeReader&) = delete;

  // `origin` names the study in diagnostics.
  config::Loaded<Study> read(const YAML::Node& root, const std::string& origin) const;

 private:
  struct Schemas;
  std::vector<std::string> gemm_schedules_;
  std::filesystem::path config_dir_;
  std::unique_ptr<const Schemas> schemas_;
};

// The Markdown reference of every hardware and study parameter, committed as
// docs/config.md (print it from `tilesim schema`). Generated from the same
// declarations that validate the files.
std::string render_config_reference_markdown();

}  // namespace tilesim::workloads
