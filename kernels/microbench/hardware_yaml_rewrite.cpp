#include "kernels/microbench/hardware_yaml_rewrite.hpp"

#include <yaml-cpp/yaml.h>

#include <sstream>
#include <utility>

#include "hwmodels/yaml_file.hpp"

namespace tilesim::microbench {
namespace {

std::vector<std::string> split_lines(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream stream(text);
  for (std::string line; std::getline(stream, line);) lines.push_back(line);
  return lines;
}

// The scalar node at a dotted path, or an undefined node.
YAML::Node scalar_at(const YAML::Node& root, const std::string& key_path) {
  YAML::Node node = root;
  std::istringstream keys(key_path);
  for (std::string key; std::getline(keys, key, '.');) {
    // Lookups through a const node never add the key; reset() moves the handle
    // without assigning through it.
    const YAML::Node child = std::as_const(node)[key];
    if (!node.IsMap() || !child) return YAML::Node(YAML::NodeType::Undefined);
    node.reset(child);
  }
  return node.IsScalar() ? node : YAML::Node(YAML::NodeType::Undefined);
}

// `line` with everything from `column` replaced by `value`, then the comment at
// the column where the old one began (or two spaces after the value).
std::string replace_value(const std::string& line, std::size_t column, const std::string& value,
                          const std::string& comment) {
  const std::size_t old_comment = line.find(" #", column);
  std::string result = line.substr(0, column) + value;
  const std::size_t comment_column =
      old_comment == std::string::npos ? 0 : line.find('#', old_comment);
  result.append(comment_column > result.size() + 1 ? comment_column - result.size() : 2, ' ');
  return result + "# " + comment;
}

}  // namespace

config::Loaded<std::string> rewrite_hardware_yaml(const std::string& base_text,
                                                  const std::string& origin,
                                                  const std::vector<MeasuredField>& fields) {
  config::Loaded<std::string> loaded;
  const std::optional<YAML::Node> root =
      config::load_yaml_text(base_text, origin, loaded.diagnostics);
  if (!root) return loaded;
  std::vector<std::string> lines = split_lines(base_text);
  for (const MeasuredField& field : fields) {
    const YAML::Node value = scalar_at(*root, field.key_path);
    if (!value.IsDefined()) {
      loaded.diagnostics.add({origin, 0, 0}, field.key_path,
                             "no scalar value at this key to replace with the measured one");
      continue;
    }
    const YAML::Mark mark = value.Mark();
    std::string& line = lines[static_cast<std::size_t>(mark.line)];
    line = replace_value(line, static_cast<std::size_t>(mark.column), field.value, field.comment);
  }
  if (!loaded.diagnostics.empty()) return loaded;
  std::string text;
  for (const std::string& line : lines) text += line + "\n";
  loaded.value = std::move(text);
  return loaded;
}

}  // namespace tilesim::microbench
