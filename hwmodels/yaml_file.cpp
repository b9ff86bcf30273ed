#include "hwmodels/yaml_file.hpp"

#include <fmt/format.h>
#include <yaml-cpp/depthguard.h>

#include <algorithm>
#include <cstdint>
#include <fstream>
#include <sstream>
#include <string_view>

#include "hwmodels/yaml_schema.hpp"

namespace tilesim::config {
namespace {

// Nodes a document may expand to, aliases followed: far above any real
// config (a sweep's 10,000 values, a batch's 65,536 kv_lens), far below what
// a "billion laughs" of nested aliases unfolds to, which would take minutes
// and gigabytes to walk.
constexpr std::size_t kMaxExpandedNodes = 1'000'000;

// Bytes a config file may hold: a sweep of 10,000 values or a batch of 65,536
// kv_lens takes well under a MiB, and parsing stays well under a second.
constexpr std::size_t kMaxFileBytes = std::size_t{4} << 20;

// 1-based line and column of byte `offset`.
SourceLocation location_at(std::string_view text, std::size_t offset, const std::string& origin) {
  const std::string_view before = text.substr(0, offset);
  const std::size_t newline = before.rfind('\n');
  const std::size_t column = newline == std::string_view::npos ? offset : offset - newline - 1;
  const auto line = std::count(before.begin(), before.end(), '\n');
  return {origin, static_cast<int>(line) + 1, static_cast<int>(column) + 1};
}

// Length of the UTF-8 sequence starting at `at`, or 0 if it is not valid.
std::size_t utf8_sequence_length(std::string_view text, std::size_t at) {
  const auto byte = [&](std::size_t i) { return static_cast<unsigned char>(text[i]); };
  const unsigned char lead = byte(at);
  std::size_t length = 0;
  std::uint32_t low = 0;  // smallest code point of that length (no overlong forms)
  std::uint32_t code = 0;
  if (lead < 0x80) return 1;
  if ((lead & 0xE0) == 0xC0) {
    length = 2, low = 0x80, code = lead & 0x1Fu;
  } else if ((lead & 0xF0) == 0xE0) {
    length = 3, low = 0x800, code = lead & 0x0Fu;
  } else if ((lead & 0xF8) == 0xF0) {
    length = 4, low = 0x10000, code = lead & 0x07u;
  } else {
    return 0;
  }
  if (at + length > text.size()) return 0;
  for (std::size_t i = 1; i < length; ++i) {
    if ((byte(at + i) & 0xC0) != 0x80) return 0;
    code = (code << 6) | (byte(at + i) & 0x3Fu);
  }
  const bool surrogate = code >= 0xD800 && code <= 0xDFFF;
  return code < low || code > 0x10FFFF || surrogate ? 0 : length;
}

// Depth a document may unfold to, aliases followed: yaml-cpp's limit for
// nesting as written. An alias inside the node it names (`a: &a [*a]`) makes
// a cycle, which would unfold forever and overflow the stack.
constexpr int kMaxUnfoldedDepth = 500;

struct UnfoldLimit {
  YAML::Mark mark;        // the first node past the limit
  bool too_deep = false;  // else too many nodes
};

// Counts nodes with aliases followed, stopping at either limit: the first node
// past it is returned, so a bomb or a cycle is reported without being unfolded.
std::optional<UnfoldLimit> first_node_past_limit(const YAML::Node& node, std::size_t& budget,
                                                 int depth = 0) {
  if (depth > kMaxUnfoldedDepth) return UnfoldLimit{node.Mark(), true};
  if (budget == 0) return UnfoldLimit{node.Mark(), false};
  --budget;
  if (node.IsSequence() || node.IsMap()) {
    for (auto it = node.begin(); it != node.end(); ++it) {
      const YAML::Node value = node.IsMap() ? it->second : *it;
      if (auto past = first_node_past_limit(value, budget, depth + 1)) return past;
    }
  }
  return std::nullopt;
}

}  // namespace

bool is_config_text(std::string_view text, const std::string& origin, Diagnostics& diagnostics) {
  if (text.size() > kMaxFileBytes) {
    diagnostics.add({origin, 1, 1}, "",
                    fmt::format("the file is {} bytes; tilesim reads files of at most {} MiB",
                                text.size(), kMaxFileBytes >> 20));
    return false;
  }
  for (std::size_t at = 0; at < text.size();) {
    if (text[at] == '\0') {
      diagnostics.add(location_at(text, at, origin), "",
                      "NUL byte: this is not a text file; tilesim reads UTF-8 text");
      return false;
    }
    const std::size_t length = utf8_sequence_length(text, at);
    if (length == 0) {
      diagnostics.add(location_at(text, at, origin), "",
                      fmt::format("byte 0x{:02X} is not UTF-8; tilesim reads UTF-8 text",
                                  static_cast<unsigned char>(text[at])));
      return false;
    }
    at += length;
  }
  return true;
}

std::optional<YAML::Node> load_yaml_file(const std::filesystem::path& path,
                                         Diagnostics& diagnostics) {
  const std::string file = path.string();
  std::error_code error;
  std::ifstream stream(path, std::ios::binary);
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
  if (!is_config_text(text, origin, diagnostics)) return std::nullopt;
  try {
    YAML::Node document = YAML::Load(text);
    if (document.IsNull()) {
      diagnostics.add({origin, 1, 1}, "", "file is empty; expected a YAML map");
      return std::nullopt;
    }
    std::size_t budget = kMaxExpandedNodes;
    if (const auto past = first_node_past_limit(document, budget)) {
      diagnostics.add(
          location_of(past->mark, origin), "",
          past->too_deep
              ? fmt::format("the document nests more than {} levels deep through YAML aliases "
                            "(*name): an alias inside the node it names never ends; write the "
                            "values out",
                            kMaxUnfoldedDepth)
              : fmt::format("the document unfolds to more than {} nodes through YAML "
                            "aliases (*name); write the values out, or use fewer aliases",
                            kMaxExpandedNodes));
      return std::nullopt;
    }
    return document;
  } catch (const YAML::DeepRecursion& e) {
    diagnostics.add({origin, e.mark.line + 1, e.mark.column + 1}, "",
                    fmt::format("YAML nested more than {} levels deep", e.depth()));
  } catch (const YAML::ParserException& e) {
    diagnostics.add({origin, e.mark.line + 1, e.mark.column + 1}, "",
                    "YAML syntax error: " + e.msg);
  } catch (const YAML::Exception& e) {
    diagnostics.add({origin, 1, 1}, "", "cannot read YAML: " + e.msg);
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
