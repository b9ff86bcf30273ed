#include "workloads/sweep/sweep_axis_reader.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <map>
#include <string_view>
#include <variant>

#include "hwmodels/hardware_schema.hpp"
#include "workloads/sweep/sweep_values.hpp"

namespace tilesim::workloads {

using config::Param;
using config::Value;

namespace {

constexpr std::size_t kMaxAxes = 2;
constexpr std::size_t kMaxValueBytes = 4096;  // a path is the longest value there is
constexpr std::string_view kRangeShape =
    "a range is {from, to, step} (linear) or {from, to, factor} (geometric)";

// No workload key is longer; a point's study is emitted as YAML and read back,
// and YAML allows an implicit key of at most 1024 characters.
constexpr std::size_t kMaxKeyPartChars = 64;

bool is_key_part(std::string_view part) {
  return !part.empty() && part.size() <= kMaxKeyPartChars && std::ranges::all_of(part, [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '_' || c == '-';
  });
}

bool is_key_path(std::string_view key) {
  std::size_t start = 0;
  while (true) {
    const std::size_t dot = key.find('.', start);
    if (!is_key_part(key.substr(start, dot - start))) return false;
    if (dot == std::string_view::npos) return true;
    start = dot + 1;
  }
}

// The start of a long key, enough to find it by.
std::string shortened(const std::string& key) {
  constexpr std::size_t kShownChars = 80;
  return key.size() <= kShownChars ? key : key.substr(0, kShownChars) + "...";
}

// Why `key` cannot be varied, or nullopt with its target set.
std::optional<std::string> key_problem(const std::string& key, SweepTarget& target) {
  if (key == "hardware") {
    target = SweepTarget::hardware;
    return std::nullopt;
  }
  if (key == "schedule") {
    return "vary the schedule with the top-level `schedules:` list, e.g. "
           "schedules: [data_parallel, stream_k]";
  }
  if (key == "name") return "`name` cannot be varied: rows are told apart by the varied values";
  if (key == "hw" || key.starts_with("hw.")) {
    target = SweepTarget::hardware_field;
    const std::vector<Param> params = hw::hardware_schema().params();
    // Profile names inside `kernels` are known only from the file: the hardware
    // loader checks the rest of such a path.
    const config::KeyPathMatch match =
        config::match_key_path(params, key.size() > 3 ? key.substr(3) : "");
    if (match.param == nullptr) return fmt::format("hardware key: {}", match.error);
    return std::nullopt;
  }
  target = SweepTarget::workload;
  if (!is_key_path(key)) {
    return fmt::format(
        "\"{}\" is not a key path: names of letters, digits, `_` or `-`, each at most {} "
        "characters, joined by dots; write e.g. gemm.m, tile.k or hw.l2.capacity",
        shortened(key), kMaxKeyPartChars);
  }
  return std::nullopt;
}

class AxisReader {
 public:
  AxisReader(const std::string& file, config::Diagnostics& diagnostics)
      : file_(file), diagnostics_(diagnostics), schema_(vary_entry_schema()) {}

  std::optional<SweepAxis> read(const YAML::Node& item, std::size_t index) {
    SweepAxis axis;
    axis.entry_path = fmt::format("vary[{}]", index);
    axis.key_source.key_path = axis.entry_path + ".key";
    config::ReadContext context;
    context.file = file_;
    context.key_prefix = axis.entry_path;
    const config::Values values = schema_.read(item, context, axis, diagnostics_);
    if (!item.IsMap()) return std::nullopt;  // reported by the schema
    const bool key_ok = values.contains("key") && check_key(axis);
    const YAML::Node list = item["values"];
    const YAML::Node range = item["range"];
    if (list.IsDefined() && range.IsDefined()) {
      add(item, axis.entry_path, "give either `values` (a list) or `range`, not both");
    } else if (!list.IsDefined() && !range.IsDefined()) {
      add(item, axis.entry_path,
          fmt::format("missing `values` (a list) or `range`; {}", kRangeShape));
    } else if (values.contains("values")) {
      read_list(values.at("values").node, axis);
    } else if (range.IsDefined() && range.IsMap()) {
      read_range(range, values, axis);
    }
    if (key_ok && axis.values.empty() && axis.target == SweepTarget::workload) {
      SweepAxis stand_in = axis;
      SweepValue one;
      one.text = "1";
      one.source.key_path = kStandInKeyPath;
      stand_in.values.push_back(std::move(one));
      unchecked_.push_back(std::move(stand_in));
    }
    if (!key_ok || axis.values.empty()) return std::nullopt;
    return axis;
  }

  std::vector<SweepAxis> take_unchecked() { return std::move(unchecked_); }

 private:
  void add(const YAML::Node& node, std::string key_path, std::string message) {
    diagnostics_.add(config::location_of(node.Mark(), file_), std::move(key_path),
                     std::move(message));
  }

  bool check_key(SweepAxis& axis) {
    const auto problem = key_problem(axis.key, axis.target);
    if (problem) diagnostics_.add(axis.key_source.where, axis.key_source.key_path, *problem);
    return !problem;
  }

  void read_list(const YAML::Node& list, SweepAxis& axis) {
    std::map<std::string, int> first_line;
    std::vector<std::string> texts;
    for (std::size_t i = 0; i < list.size(); ++i) {
      const YAML::Node item = list[i];
      const std::string key_path = fmt::format("{}.values[{}]", axis.entry_path, i);
      const config::SourceLocation where = config::location_of(item.Mark(), file_);
      if (!item.IsScalar()) {
        diagnostics_.add(where, key_path,
                         fmt::format("expected a value (a number, a quantity or a name), got {}",
                                     config::describe_node(item)));
        continue;
      }
      if (item.Scalar().size() > kMaxValueBytes) {
        // Each point's study is generated from the values: a huge one would be
        // copied and parsed once per point.
        diagnostics_.add(where, key_path,
                         fmt::format("a value of {} bytes; at most {} are allowed",
                                     item.Scalar().size(), kMaxValueBytes));
        continue;
      }
      if (const auto [seen, inserted] = first_line.emplace(item.Scalar(), where.line); !inserted) {
        diagnostics_.add(where, key_path,
                         fmt::format("duplicate value \"{}\"; first given on line {}",
                                     item.Scalar(), seen->second));
        continue;
      }
      texts.push_back(item.Scalar());
      axis.values.push_back({item.Scalar(), std::nullopt, {where, key_path}});
    }
    const AxisNumbers numbers = axis_numbers(texts);
    axis.unit = numbers.unit;
    for (std::size_t i = 0; i < axis.values.size(); ++i) axis.values[i].number = numbers.numbers[i];
  }

  void read_range(const YAML::Node& range, const config::Values& values, SweepAxis& axis) {
    const std::string key_path = axis.entry_path + ".range";
    bool complete = true;
    for (const char* field : {"from", "to"}) {
      if (!range[field].IsDefined()) {
        add(range, key_path, fmt::format("missing `{}`; {}", field, kRangeShape));
        complete = false;
      }
    }
    // A field that is present but not in `values` was reported by the schema.
    auto text = [&](const std::string& field) -> std::optional<std::string> {
      const auto found = values.find("range." + field);
      return found == values.end() ? std::nullopt : std::optional(found->second.text);
    };
    const RangeSpec spec{text("from").value_or(""), text("to").value_or(""), text("step"),
                         values.contains("range.factor")
                             ? std::optional(values.at("range.factor").number)
                             : std::nullopt};
    if (!complete || !text("from") || !text("to") || (range["step"].IsDefined() && !spec.step) ||
        (range["factor"].IsDefined() && !spec.factor)) {
      return;
    }
    const auto expanded = expand_range(spec, kMaxAxisValues);
    if (const auto* problem = std::get_if<RangeProblem>(&expanded)) {
      const auto field = values.find("range." + problem->field);
      if (problem->field.empty() || field == values.end()) {
        add(range, key_path, problem->message);
      } else {
        diagnostics_.add(field->second.where, config::join_keys(key_path, problem->field),
                         problem->message);
      }
      return;
    }
    const auto& range_values = std::get<ExpandedRange>(expanded);
    axis.unit = range_values.unit;
    const config::SourceLocation where = config::location_of(range.Mark(), file_);
    for (const RangeValue& value : range_values.values) {
      axis.values.push_back({value.text, value.number, {where, key_path}});
    }
  }

  const std::string& file_;
  config::Diagnostics& diagnostics_;
  config::Schema<SweepAxis> schema_;
  std::vector<SweepAxis> unchecked_;
};

}  // namespace

config::Schema<SweepAxis> vary_entry_schema() {
  config::Schema<SweepAxis> s;
  s.add(Param::text("key").describe(
            "What to vary: a workload key path (`gemm.m`, `tile.k`, `splits`, "
            "`attention.kv_len`, `layer.batch`, ...), `hw.` and a hardware key path "
            "(`hw.l2.capacity`, "
            "`hw.hbm.bandwidth`, `hw.sm.count`), or `hardware` (names or paths of GPUs)."),
        [](SweepAxis& axis, const Value& value) {
          axis.key = value.text;
          axis.key_source.where = value.where;
        });
  s.add(Param::sequence("values").optional().not_empty().describe(
      "The values, in order: numbers, quantities (`\"25 MiB\"`) or names."));
  s.add(Param::text("range.from")
            .optional()
            .describe("First value of a range: a number or a quantity (`\"25 MiB\"`); generated "
                      "values keep its unit."));
  s.add(Param::text("range.to")
            .optional()
            .describe("Last value of a range (included when a step lands on it); the same kind as "
                      "`from`."));
  s.add(Param::text("range.step")
            .optional()
            .describe("Linear range: the increment, the same kind as `from`."));
  s.add(Param::number("range.factor")
            .greater_than(1)
            .optional()
            .describe("Geometric range: each value is the previous one times this. Integers in "
                      "give integers out (rounded)."));
  return s;
}

SweepAxes read_sweep_axes(const YAML::Node& vary, const std::string& file,
                          config::Diagnostics& diagnostics) {
  SweepAxes axes;
  AxisReader reader(file, diagnostics);
  std::map<std::string, std::string> first_use;  // key -> the entry that varies it
  for (std::size_t i = 0; i < vary.size(); ++i) {
    if (i == kMaxAxes) {
      diagnostics.add(config::location_of(vary[i].Mark(), file), fmt::format("vary[{}]", i),
                      fmt::format("at most {} keys can be varied (a line chart or a heat map); "
                                  "got {}",
                                  kMaxAxes, vary.size()));
      break;
    }
    std::optional<SweepAxis> axis = reader.read(vary[i], i);
    if (!axis) continue;
    if (const auto [seen, inserted] = first_use.emplace(axis->key, axis->entry_path); !inserted) {
      diagnostics.add(axis->key_source.where, axis->key_source.key_path,
                      fmt::format("`{}` is already varied by {}", axis->key, seen->second));
      continue;
    }
    axes.axes.push_back(std::move(*axis));
  }
  axes.unchecked = reader.take_unchecked();
  return axes;
}

}  // namespace tilesim::workloads
