#include "workloads/sweep/sweep_point_study.hpp"

#include <fmt/format.h>

#include <map>
#include <unordered_map>
#include <utility>

#include "hwmodels/yaml_schema.hpp"
#include "workloads/gemm/gemm_kernel_config.hpp"
#include "workloads/study_loader.hpp"

namespace tilesim::workloads {

namespace {

// The name a point gets when the workload has none.
constexpr std::string_view kDefaultName = "point";
constexpr std::string_view kItemPrefix = "workloads[0]";

std::vector<std::string> split_keys(const std::string& path) {
  std::vector<std::string> parts;
  std::size_t start = 0;
  while (true) {
    const auto dot = path.find('.', start);
    parts.push_back(path.substr(start, dot - start));
    if (dot == std::string::npos) return parts;
    start = dot + 1;
  }
}

YAML::Node find_value(const YAML::Node& map, const std::string& key) {
  if (!map.IsMap()) return YAML::Node(YAML::NodeType::Undefined);
  for (auto it = map.begin(); it != map.end(); ++it) {
    if (it->first.IsScalar() && it->first.Scalar() == key) return it->second;
  }
  return YAML::Node(YAML::NodeType::Undefined);
}

// Sets `key` ("tile.cluster.m") in `map`, creating maps on the way. Fails when
// the path runs through a value that is not a map.
std::optional<std::string> set_path(YAML::Node map, const std::string& key,
                                    const std::string& value) {
  const std::vector<std::string> parts = split_keys(key);
  std::string walked;
  for (std::size_t i = 0; i + 1 < parts.size(); ++i) {
    walked = config::join_keys(walked, parts[i]);
    YAML::Node child = map[parts[i]];
    if (!child.IsDefined() || child.IsNull()) {
      map[parts[i]] = YAML::Node(YAML::NodeType::Map);
      child.reset(map[parts[i]]);
    } else if (!child.IsMap()) {
      return fmt::format("`{}` is a single value in `workload`; it has no key `{}`", walked,
                         parts[i + 1]);
    }
    map.reset(child);  // reset, not assign: assigning a Node rewrites the tree
  }
  map[parts.back()] = value;
  return std::nullopt;
}

void use_flow_style(YAML::Node node) {
  node.SetStyle(YAML::EmitterStyle::Flow);
  if (node.IsMap()) {
    for (auto it = node.begin(); it != node.end(); ++it) use_flow_style(it->second);
  } else if (node.IsSequence()) {
    for (YAML::Node item : node) use_flow_style(item);
  }
}

// The key a `schedules:` entry sets: an attention workload's variant, a GEMM's
// schedule.
std::string series_key(const YAML::Node& workload) {
  return find_value(workload, "attention").IsDefined() ? "variant" : "schedule";
}

// Where a position of the generated text came from.
struct Attribution {
  SweepSource source;
  bool names_key = false;  // the message gets the workload key path in front
};
using Position = std::pair<int, int>;  // 0-based line and column, as in YAML::Mark

Position position(const YAML::Mark& mark) {
  return {mark.line, mark.column};
}

// Walks the generated workload beside the sweep's and records, for each node of
// the generated text, where in the sweep file it came from.
class MarkTable {
 public:
  MarkTable(std::string file, std::span<const PointSetting> settings,
            const std::optional<PointSchedule>& schedule, bool name_added, std::string schedule_key)
      : file_(std::move(file)),
        settings_(settings),
        schedule_(schedule),
        name_added_(name_added),
        schedule_key_(std::move(schedule_key)) {}

  void walk(const YAML::Node& generated, const YAML::Node& original, const std::string& path) {
    if (original.IsDefined()) {
      record(generated, base(original));
    } else if (const auto attribution = created(path)) {
      record(generated, *attribution);
    }
    if (generated.IsMap()) {
      const OriginalEntries entries = index_entries(original);
      for (auto it = generated.begin(); it != generated.end(); ++it) {
        walk_entry(it->first, it->second, original, entries,
                   config::join_keys(path, it->first.Scalar()));
      }
    } else if (generated.IsSequence()) {
      for (std::size_t i = 0; i < generated.size(); ++i) {
        const YAML::Node item = original.IsSequence() && i < original.size()
                                    ? original[i]
                                    : YAML::Node(YAML::NodeType::Undefined);
        walk(generated[i], item, fmt::format("{}[{}]", path, i));
      }
    }
  }

  const Attribution* find(const config::SourceLocation& where) const {
    const auto found = table_.find({where.line - 1, where.column - 1});
    return found == table_.end() ? nullptr : &found->second;
  }

 private:
  // The sweep's entries of one map by key, looked up once per generated key
  // (a map of many keys must not cost their square).
  struct OriginalEntry {
    YAML::Node key;    // the last one of that name, as the marks were recorded
    YAML::Node value;  // the first one's, as find_value reads it
  };
  using OriginalEntries = std::unordered_map<std::string, OriginalEntry>;

  static OriginalEntries index_entries(const YAML::Node& original) {
    OriginalEntries entries;
    if (!original.IsMap()) return entries;
    for (auto it = original.begin(); it != original.end(); ++it) {
      if (!it->first.IsScalar()) continue;
      const auto [found, inserted] =
          entries.try_emplace(it->first.Scalar(), OriginalEntry{it->first, it->second});
      if (!inserted) found->second.key = it->first;
    }
    return entries;
  }

  void walk_entry(const YAML::Node& key, const YAML::Node& value, const YAML::Node& original,
                  const OriginalEntries& entries, const std::string& path) {
    for (const PointSetting& setting : settings_) {
      if (setting.key == path) {
        record(key, {setting.key_source, true});
        record(value, {setting.value_source, true});
        return;
      }
    }
    if (path == schedule_key_ && schedule_) {
      record(key, {schedule_->source, true});
      record(value, {schedule_->source, true});
      return;
    }
    if (path == "name" && name_added_) {
      record(key, base(original));
      record(value, base(original));
      return;
    }
    const auto found = entries.find(key.Scalar());
    if (found == entries.end()) {
      if (const auto attribution = created(path)) record(key, *attribution);
      walk(value, YAML::Node(YAML::NodeType::Undefined), path);
      return;
    }
    record(key, base(found->second.key));
    walk(value, found->second.value, path);
  }

  void record(const YAML::Node& generated, const Attribution& attribution) {
    table_.insert_or_assign(position(generated.Mark()), attribution);
  }

  Attribution base(const YAML::Node& original) const {
    return {{config::location_of(original.Mark(), file_), ""}, false};
  }

  // A map created on the way to a varied key ("tile" for tile.m): the key's
  // fault. Anything else the generated text holds that the sweep's workload
  // does not (a key such as `null:` written back as `~`) is left unrecorded,
  // so that its problems are reported at the whole workload.
  std::optional<Attribution> created(const std::string& path) const {
    for (const PointSetting& setting : settings_) {
      if (setting.key.starts_with(path + ".")) return Attribution{setting.key_source, true};
    }
    return std::nullopt;
  }

  std::string file_;
  std::span<const PointSetting> settings_;
  const std::optional<PointSchedule>& schedule_;
  bool name_added_;
  std::string schedule_key_;
  std::map<Position, Attribution> table_;
};

// The loader names the workload "workloads[0]", the kernel resolver by its name.
std::string relative_key(const std::string& key_path, const std::string& workload_name) {
  for (const std::string_view prefix : {kItemPrefix, std::string_view(workload_name)}) {
    if (key_path == prefix) return "";
    if (key_path.starts_with(prefix) && key_path.size() > prefix.size() &&
        key_path[prefix.size()] == '.') {
      return key_path.substr(prefix.size() + 1);
    }
  }
  return key_path;
}

}  // namespace

SweepPointStudy::SweepPointStudy(const YAML::Node& workload, std::string file,
                                 std::vector<std::string> schedule_names,
                                 std::filesystem::path config_dir, bool axes)
    : workload_(workload),
      file_(std::move(file)),
      schedule_names_(std::move(schedule_names)),
      config_dir_(std::move(config_dir)),
      node_reader_(schedule_names_, config_dir_),
      read_nodes_(axes) {}

YAML::Node SweepPointStudy::study_node(YAML::Node item,
                                       const std::optional<PointSchedule>& schedule) {
  if (!find_value(item, "name").IsDefined()) item["name"] = std::string(kDefaultName);
  if (schedule) item[series_key(item)] = schedule->name;
  YAML::Node workloads(YAML::NodeType::Sequence);
  workloads.push_back(item);
  YAML::Node study(YAML::NodeType::Map);
  study["hardware"] = "sweep";
  study["workloads"] = workloads;
  return study;
}

std::string SweepPointStudy::study_text(YAML::Node item,
                                        const std::optional<PointSchedule>& schedule) const {
  const YAML::Node study = study_node(item, schedule);
  use_flow_style(study["workloads"]);
  YAML::Emitter out;
  out << study;
  return out.c_str();
}

// Exact for a clean point: the text holds the same keys in the same order with
// the same scalars (the emitter quotes a string that would read back as null),
// and reading uses nothing of a node but its type, its scalar and its
// position; positions show only in problems and in the workload's own
// position fields, which reach no output in a sweep with axes.
std::optional<Workload> SweepPointStudy::read_clean(YAML::Node item,
                                                    const std::optional<PointSchedule>& schedule,
                                                    const hw::HardwareSpec* hardware) const {
  config::Loaded<Study> study = node_reader_.read(study_node(item, schedule), file_);
  if (!study.ok() || !study.diagnostics.empty()) return std::nullopt;
  Workload& loaded = study.value->workloads.front();
  const auto* gemm = std::get_if<GemmWorkload>(&loaded);
  if (gemm != nullptr && hardware != nullptr &&
      !resolve_gemm_kernel(*gemm, *hardware).diagnostics.empty()) {
    return std::nullopt;
  }
  return std::move(loaded);
}

config::Loaded<Workload> SweepPointStudy::load(std::span<const PointSetting> settings,
                                               const std::optional<PointSchedule>& schedule,
                                               const hw::HardwareSpec* hardware,
                                               const std::string& point) const {
  config::Loaded<Workload> result;
  YAML::Node item = [this] {
    const std::scoped_lock lock(workload_mutex_);
    return YAML::Clone(workload_);
  }();
  for (const PointSetting& setting : settings) {
    if (const auto problem = set_path(item, setting.key, setting.value)) {
      result.diagnostics.add(setting.key_source.where, setting.key_source.key_path, *problem);
    }
  }
  if (!result.diagnostics.empty()) return result;
  if (read_nodes_) {
    result.value = read_clean(item, schedule, hardware);
    if (result.value) return result;
  }

  const std::string text = study_text(item, schedule);
  config::Loaded<Study> study = load_study_text(text, file_, schedule_names_, config_dir_);
  result.diagnostics = map_back(study.diagnostics, text, settings, schedule);
  if (!study.ok()) return result;
  const Workload& loaded = study.value->workloads.front();
  const auto* gemm = std::get_if<GemmWorkload>(&loaded);
  if (gemm == nullptr) {
    if (result.diagnostics.empty()) result.value = loaded;
    return result;
  }
  const GemmWorkload& workload = *gemm;
  if (hardware != nullptr) {
    // Whether a kernel fits depends on every tile field and the hardware, so a
    // problem laid at one varied value names the whole point.
    const config::Diagnostics fit =
        map_back(resolve_gemm_kernel(workload, *hardware).diagnostics, text, settings, schedule);
    for (const config::Diagnostic& problem : fit.items()) {
      const bool at_value = problem.key_path.starts_with("vary[");
      result.diagnostics.add(problem.where, problem.key_path,
                             at_value && !point.empty()
                                 ? fmt::format("{} (at {})", problem.message, point)
                                 : problem.message);
    }
  }
  if (result.diagnostics.empty()) result.value = workload;
  return result;
}

config::Diagnostics SweepPointStudy::map_back(const config::Diagnostics& problems,
                                              const std::string& text,
                                              std::span<const PointSetting> settings,
                                              const std::optional<PointSchedule>& schedule) const {
  config::Diagnostics mapped;
  if (problems.empty()) return mapped;
  const std::scoped_lock lock(workload_mutex_);
  const YAML::Node name = find_value(workload_, "name");
  const std::string workload_name = name.IsScalar() ? name.Scalar() : std::string(kDefaultName);
  MarkTable table(file_, settings, schedule, !name.IsDefined(), series_key(workload_));
  table.walk(YAML::Load(text)["workloads"][0], workload_, "");
  const Attribution whole{{config::location_of(workload_.Mark(), file_), ""}, false};
  for (const config::Diagnostic& problem : problems.items()) {
    const std::string key = relative_key(problem.key_path, workload_name);
    const Attribution* found = table.find(problem.where);
    Attribution attribution = found != nullptr ? *found : whole;
    // A problem reported at the whole workload about a varied key (a tile that
    // does not fit) is that value's.
    if (!attribution.names_key) {
      for (const PointSetting& setting : settings) {
        if (setting.key == key) attribution = {setting.value_source, true};
      }
    }
    if (attribution.names_key) {
      mapped.add(attribution.source.where, attribution.source.key_path,
                 fmt::format("{}: {}", key, problem.message));
    } else {
      mapped.add(attribution.source.where, config::join_keys("workload", key), problem.message);
    }
  }
  return mapped;
}

}  // namespace tilesim::workloads
