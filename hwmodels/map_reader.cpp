// The reading half of yaml_schema.hpp: checks a YAML map against the declared
// parameters and collects every problem.

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <set>

#include "hwmodels/closest_match.hpp"
#include "hwmodels/yaml_schema.hpp"

namespace tilesim::config {

namespace {

// ---- the declared key tree ---------------------------------------------------

std::vector<std::string> split_keys(std::string_view path) {
  std::vector<std::string> parts;
  std::size_t start = 0;
  while (true) {
    const auto dot = path.find('.', start);
    parts.emplace_back(path.substr(start, dot - start));
    if (dot == std::string_view::npos) {
      return parts;
    }
    start = dot + 1;
  }
}

// The maps implied by dotted keys: "sm.shared_memory.capacity" declares maps "",
// "sm" and "sm.shared_memory".
struct KeyTree {
  std::map<std::string, std::vector<std::string>> children;  // map path -> child names
  std::map<std::string, const Param*> leaves;                // key -> its parameter

  explicit KeyTree(std::span<const Param> params) {
    children[""];
    for (const Param& param : params) {
      const std::vector<std::string> parts = split_keys(param.key);
      std::string parent;
      for (const std::string& part : parts) {
        auto& names = children[parent];
        if (std::find(names.begin(), names.end(), part) == names.end()) {
          names.push_back(part);
        }
        parent = join_keys(parent, part);
        if (&part != &parts.back()) {
          children[parent];
        }
      }
      leaves[param.key] = &param;
    }
  }
  bool is_map(const std::string& path) const { return children.contains(path); }
};

struct Entry {
  YAML::Node key;
  YAML::Node value;
};

// A map's entries by key, the first of a duplicated key (reported by
// check_keys) kept. The key's node is kept too: a null value ("count:") has no
// useful position of its own.
using EntryIndex = std::map<std::string, Entry, std::less<>>;

YAML::Mark value_mark(const Entry& entry) {
  return entry.value.IsNull() ? entry.key.Mark() : entry.value.Mark();
}

class MapReader {
 public:
  MapReader(std::span<const Param> params, const ReadContext& context, Diagnostics& diagnostics)
      : params_(params), tree_(params), context_(context), diagnostics_(diagnostics) {
    clock_hz_ = context.clock_hz;
    clock_declared_ = std::any_of(params.begin(), params.end(),
                                  [](const Param& param) { return param.sets_clock; });
  }

  Values read(const YAML::Node& map) {
    if (!map.IsMap()) {
      error(map.Mark(), "",
            fmt::format("expected a map with keys {}, got {}", children(""), describe_node(map)));
      return {};
    }
    check_keys(map, "");
    for (const Param& param : params_) {
      read_param(map, param);
    }
    return std::move(values_);
  }

 private:
  void error(const YAML::Mark& mark, std::string_view key, std::string message) {
    diagnostics_.add(location_of(mark, context_.file), join_keys(context_.key_prefix, key),
                     std::move(message));
  }

  std::string children(const std::string& map_path) const {
    return join_names(tree_.children.at(map_path));
  }

  // Unknown, duplicate and misplaced keys, and maps given as something else.
  void check_keys(const YAML::Node& map, const std::string& map_path) {
    std::map<std::string, int> first_line;
    for (auto it = map.begin(); it != map.end(); ++it) {
      if (!it->first.IsScalar()) {
        error(it->first.Mark(), map_path, "keys must be plain names");
        continue;
      }
      const std::string& name = it->first.Scalar();
      const std::string path = join_keys(map_path, name);
      const int line = location_of(it->first.Mark(), context_.file).line;
      if (const auto [seen, inserted] = first_line.emplace(name, line); !inserted) {
        error(it->first.Mark(), path,
              fmt::format("duplicate key; first given on line {}", seen->second));
        continue;
      }
      if (tree_.leaves.contains(path)) {
        continue;  // the value is checked by read_param
      }
      if (!tree_.is_map(path)) {
        error(it->first.Mark(), path, unknown_key_message(name, tree_.children.at(map_path)));
        continue;
      }
      if (!it->second.IsMap()) {
        const YAML::Mark mark = it->second.IsNull() ? it->first.Mark() : it->second.Mark();
        error(mark, path,
              fmt::format("expected a map with keys {}, got {}", children(path),
                          describe_node(it->second)));
        continue;
      }
      check_keys(it->second, path);
    }
  }

  void read_param(const YAML::Node& root, const Param& param) {
    const std::vector<std::string> parts = split_keys(param.key);
    YAML::Node map = root;  // the deepest map on the path that exists
    std::string path;
    for (std::size_t i = 0; i < parts.size(); ++i) {
      const EntryIndex& entries = entries_of(map, path);
      const auto entry = entries.find(parts[i]);
      path = join_keys(path, parts[i]);
      const bool last = i + 1 == parts.size();
      if (entry == entries.end()) {
        missing(map, path, param, last);
        return;
      }
      if (last) {
        store(param, entry->second);
        return;
      }
      if (!entry->second.value.IsMap()) {
        return;  // reported by check_keys
      }
      map.reset(entry->second.value);  // reset, not assign: assigning a Node rewrites the tree
    }
  }

  // The entries of the map at `map_path`, indexed the first time a parameter
  // looks into it: walking the map for every parameter (YAML iterators copy
  // both nodes of each entry) was most of the time of reading a workload.
  const EntryIndex& entries_of(const YAML::Node& map, const std::string& map_path) {
    const auto [found, inserted] = entries_by_map_.try_emplace(map_path);
    if (inserted) {
      for (auto it = map.begin(); it != map.end(); ++it) {
        if (it->first.IsScalar()) {
          found->second.try_emplace(it->first.Scalar(), Entry{it->first, it->second});
        }
      }
    }
    return found->second;
  }

  void missing(const YAML::Node& map, const std::string& path, const Param& param, bool is_leaf) {
    if (param.default_value) {
      Value value;
      value.where = location_of(map.Mark(), context_.file);
      value.defaulted = true;
      if (parse(param, YAML::Node(*param.default_value), value)) {
        values_[param.key] = std::move(value);
      }
      return;
    }
    if (!param.required || !reported_missing_.insert(path).second) {
      return;
    }
    if (is_leaf) {
      std::string_view doc = param.doc;
      if (doc.ends_with('.')) {
        doc.remove_suffix(1);
      }
      error(map.Mark(), path,
            fmt::format("missing required key; expected {} ({})", expected_text(param), doc));
    } else {
      error(map.Mark(), path,
            fmt::format("missing required map; expected a map with keys {}", children(path)));
    }
  }

  void store(const Param& param, const Entry& entry) {
    if (param.varies_by_gpu && entry.value.IsMap()) {
      store_by_gpu(param, entry);
      return;
    }
    Value value;
    value.where = location_of(value_mark(entry), context_.file);
    const bool ok = parse(param, entry.value, value);
    if (param.sets_clock) {
      clock_hz_ = ok ? std::optional<double>(value.number) : std::nullopt;
    }
    if (ok) {
      values_[param.key] = std::move(value);
    }
  }

  // A per-GPU map: every entry is checked; the entry of the first of
  // context_.gpu_keys the map has is stored (none when no GPU is given).
  void store_by_gpu(const Param& param, const Entry& entry) {
    std::vector<std::string> keys;
    std::map<std::string, Entry> entries;
    for (auto it = entry.value.begin(); it != entry.value.end(); ++it) {
      const std::string name = it->first.IsScalar() ? it->first.Scalar() : "";
      const std::string path = join_keys(param.key, name);
      if (!is_name_like(name)) {
        error(it->first.Mark(), param.key,
              "keys of a per-GPU map are architectures (e.g. sm90), an architecture's "
              "calibrated files (sm90.measured) or hardware names");
      } else if (const auto [seen, inserted] = entries.emplace(name, Entry{it->first, it->second});
                 !inserted) {
        error(it->first.Mark(), path,
              fmt::format("duplicate key; first given on line {}",
                          location_of(seen->second.key.Mark(), context_.file).line));
      } else {
        keys.push_back(name);
      }
    }
    std::map<std::string, Value> valid;
    for (const auto& [name, item] : entries) {
      Value value;
      value.where = location_of(value_mark(item), context_.file);
      if (parse(param.keyed(join_keys(param.key, name)), item.value, value)) {
        valid.emplace(name, std::move(value));
      }
    }
    if (context_.gpu_keys.empty()) return;
    for (const std::string& gpu : context_.gpu_keys) {
      if (!entries.contains(gpu)) continue;
      if (const auto found = valid.find(gpu); found != valid.end()) {
        values_[param.key] = std::move(found->second);
      }
      return;
    }
    std::vector<std::string> wanted;
    for (const std::string& gpu : context_.gpu_keys) wanted.push_back("`" + gpu + "`");
    error(value_mark(entry), param.key,
          fmt::format("no value for this GPU: the map gives {} but none of {}",
                      keys.empty() ? "nothing" : join_names(keys), join_names(wanted, " or ")));
  }

  // Parses `node` into `value`; reports and returns false when it is not valid.
  bool parse(const Param& param, const YAML::Node& node, Value& value) {
    const YAML::Mark mark = node.Mark();
    auto fail = [&](std::string message) {
      // value.where already points at the value (or its key, for a null value).
      diagnostics_.add(value.where.file.empty() ? location_of(mark, context_.file) : value.where,
                       join_keys(context_.key_prefix, param.key), std::move(message));
      return false;
    };
    if (param.type == ValueType::entries || param.type == ValueType::sequence) {
      const bool is_entries = param.type == ValueType::entries;
      if (is_entries ? !node.IsMap() : !node.IsSequence()) {
        return fail(fmt::format("expected {}, got {}", expected_text(param), describe_node(node)));
      }
      if (param.non_empty && node.size() == 0) {
        return fail(fmt::format("must not be empty; expected {}", expected_text(param)));
      }
      value.node.reset(node);
      return true;
    }
    if (!node.IsScalar()) {
      return fail(fmt::format("expected {}, got {}", expected_text(param), describe_node(node)));
    }
    value.text = node.Scalar();
    switch (param.type) {
      case ValueType::text:
        return check_text(param, value.text, fail);
      case ValueType::choice:
        return check_choice(param, value.text, fail);
      case ValueType::integer: {
        const Parsed<std::int64_t> parsed = parse_integer(value.text);
        if (!parsed.ok()) {
          return fail(fmt::format("{}; expected {}", parsed.error, expected_text(param)));
        }
        value.integer = *parsed.value;
        value.number = static_cast<double>(value.integer);
        if (param.step > 1 && value.integer % param.step != 0) {
          return fail(fmt::format("must be a multiple of {}, got {}", param.step, value.text));
        }
        return check_range(param, value, fail);
      }
      case ValueType::number: {
        const Parsed<double> parsed = parse_number(value.text);
        if (!parsed.ok()) {
          return fail(parsed.error);
        }
        value.number = *parsed.value;
        return check_range(param, value, fail);
      }
      case ValueType::quantity: {
        const Parsed<double> parsed = parse_quantity(value.text, param.quantity_kind, clock_hz_);
        if (!parsed.ok()) {
          // With a bad or missing clock the clock's own error says it all.
          const bool clockless = parsed.error.starts_with(kPerClockWithoutClock);
          return clockless && clock_declared_ ? false : fail(parsed.error);
        }
        value.number = *parsed.value;
        return check_range(param, value, fail);
      }
      case ValueType::entries:
      case ValueType::sequence:
        break;
    }
    return true;
  }

  template <typename Fail>
  static bool check_text(const Param& param, const std::string& text, Fail& fail) {
    if (text.empty()) {
      return fail(fmt::format("must not be empty; expected {}", expected_text(param)));
    }
    if (param.identifier && !is_name_like(text)) {
      return fail(fmt::format("\"{}\" is not a valid name: use letters, digits, _ - . only", text));
    }
    return true;
  }

  template <typename Fail>
  static bool check_choice(const Param& param, const std::string& text, Fail& fail) {
    if (param.choices.empty()) {
      return check_text(param, text, fail);  // choices known only later
    }
    if (std::find(param.choices.begin(), param.choices.end(), text) != param.choices.end()) {
      return true;
    }
    const auto suggestion = closest_match(text, param.choices);
    return fail(fmt::format("unknown value `{}`; {}allowed: {}", text,
                            suggestion ? fmt::format("did you mean `{}`? ", *suggestion) : "",
                            join_names(param.choices)));
  }

  template <typename Fail>
  static bool check_range(const Param& param, const Value& value, Fail& fail) {
    const double x = value.number;
    const bool too_low =
        param.low && (x < param.low->value || (!param.low->inclusive && x == param.low->value));
    const bool too_high =
        param.high && (x > param.high->value || (!param.high->inclusive && x == param.high->value));
    if (!too_low && !too_high) {
      return true;
    }
    // Per-clock values are judged after conversion; show what they converted to.
    const bool per_clock = param.type == ValueType::quantity && value.text.ends_with("clk");
    const std::string got = per_clock ? fmt::format("\"{}\" (= {})", value.text,
                                                    format_quantity(x, param.quantity_kind))
                                      : fmt::format("\"{}\"", value.text);
    const bool positive_required =
        param.low && (param.low->value > 0 || (param.low->value == 0 && !param.low->inclusive));
    if (too_low && x <= 0 && positive_required) {
      return fail(fmt::format("must be > 0, got {}; allowed: {}", got, range_text(param)));
    }
    return fail(fmt::format("{} is out of range; allowed: {}", got, range_text(param)));
  }

  std::span<const Param> params_;
  KeyTree tree_;
  const ReadContext& context_;
  Diagnostics& diagnostics_;
  Values values_;
  std::set<std::string> reported_missing_;
  std::map<std::string, EntryIndex> entries_by_map_;  // by map path ("" for the root)
  std::optional<double> clock_hz_;
  bool clock_declared_ = false;
};

}  // namespace

Values read_map(const YAML::Node& map, std::span<const Param> params, const ReadContext& context,
                Diagnostics& diagnostics) {
  return MapReader(params, context, diagnostics).read(map);
}

KeyPathMatch match_key_path(std::span<const Param> params, std::string_view key_path) {
  const KeyTree tree(params);
  if (key_path.empty()) {
    return {nullptr, "",
            fmt::format("empty key; name one of: {}", join_names(tree.children.at("")))};
  }
  std::string path;
  const std::vector<std::string> parts = split_keys(key_path);
  for (std::size_t i = 0; i < parts.size(); ++i) {
    const std::string& allowed_parent = path;
    const std::string next = join_keys(path, parts[i]);
    if (const auto leaf = tree.leaves.find(next); leaf != tree.leaves.end()) {
      std::string rest;
      for (std::size_t j = i + 1; j < parts.size(); ++j) {
        rest = join_keys(rest, parts[j]);
      }
      return {leaf->second, rest, ""};
    }
    if (!tree.is_map(next)) {
      return {nullptr, "", unknown_key_message(parts[i], tree.children.at(allowed_parent))};
    }
    path = next;
  }
  return {nullptr, "",
          fmt::format("`{}` is a map; name one of its keys: {}", path,
                      join_names(tree.children.at(path)))};
}

std::string describe_node(const YAML::Node& node) {
  switch (node.Type()) {
    case YAML::NodeType::Scalar:
      return quoted(node.Scalar());
    case YAML::NodeType::Sequence:
      return "a list";
    case YAML::NodeType::Map:
      return "a map";
    case YAML::NodeType::Null:
    case YAML::NodeType::Undefined:
      return "nothing";
  }
  return "something else";
}

}  // namespace tilesim::config
