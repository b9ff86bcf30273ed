#include "hwmodels/yaml_file.hpp"

#include <fstream>
#include <sstream>

namespace tilesim::config {

std::optional<YAML::Node> load_yaml_file(const std::filesystem::path& path,
                                         Diagnostics& diagnostics) {
  const std::string file = path.string();
  std::error_code error;
  std::ifstream stream(path);
  if (!stream || std::filesystem::is_directory(path, error)) {
    diagnostics.add({file, 0, 0}, "", "cannot open file");
    return std::nullopt;
  }
  std::ostringstream text;
  text << stream.rdbuf();
  return load_yaml_text(text.str(), file, diagnostics);
}

std::optional<YAML::Node> load_yaml_text(const std::string& text, const std::string& origin,
                                         Diagnostics& diagnostics) {
  try {
    YAML::Node document = YAML::Load(text);
    if (document.IsNull()) {
      diagnostics.add({origin, 0, 0}, "", "file is empty; expected a YAML map");
      return std::nullopt;
    }
    return document;
  } catch (const YAML::ParserException& e) {
    diagnostics.add({origin, e.mark.line + 1, e.mark.column + 1}, "",
                    "YAML syntax error: " + e.msg);
  } catch (const YAML::Exception& e) {
    diagnostics.add({origin, 0, 0}, "", "cannot read YAML: " + e.msg);
  }
  return std::nullopt;
}

void set_scalar_at(YAML::Node map, std::string_view key_path, const std::string& value) {
  const std::size_t dot = key_path.find('.');
  const std::string key(key_path.substr(0, dot));
  if (dot == std::string_view::npos) {
    map.remove(key);
    map[key] = value;
    return;
  }
  YAML::Node child = map[key];
  if (!child.IsDefined() || child.IsNull()) {
    map[key] = YAML::Node(YAML::NodeType::Map);
    child.reset(map[key]);
  }
  if (child.IsMap()) set_scalar_at(child, key_path.substr(dot + 1), value);
}

}  // namespace tilesim::config
