#pragma once
// A check that an SVG document is well-formed XML, for tests of the plots.

#include <gtest/gtest.h>

#include <string>
#include <string_view>
#include <vector>

namespace tilesim::testing {

// Well-formed XML, the parts SVG output uses: a declaration, elements with quoted
// attributes, self-closing tags, text, and the five predefined entities.
inline ::testing::AssertionResult IsWellFormedXml(const std::string& xml) {
  std::vector<std::string> open;
  std::size_t at = 0;
  auto fail = [&](const std::string& why) {
    return ::testing::AssertionFailure() << why << " at offset " << at;
  };
  auto entities_ok = [](std::string_view text) {
    for (std::size_t amp = text.find('&'); amp != std::string_view::npos;
         amp = text.find('&', amp + 1)) {
      const std::string_view rest = text.substr(amp);
      if (!rest.starts_with("&amp;") && !rest.starts_with("&lt;") && !rest.starts_with("&gt;") &&
          !rest.starts_with("&quot;") && !rest.starts_with("&apos;")) {
        return false;
      }
    }
    return true;
  };
  bool root_seen = false;
  while (at < xml.size()) {
    const std::size_t tag = xml.find('<', at);
    const std::string_view text(xml.data() + at,
                                (tag == std::string::npos ? xml.size() : tag) - at);
    if (!entities_ok(text) || text.find('>') != std::string_view::npos) return fail("bad text");
    if (open.empty() && text.find_first_not_of(" \n") != std::string_view::npos) {
      return fail("text outside the root");
    }
    if (tag == std::string::npos) break;
    const std::size_t end = xml.find('>', tag);
    if (end == std::string::npos) return fail("unclosed tag");
    const std::string body = xml.substr(tag + 1, end - tag - 1);
    at = end + 1;
    if (body.starts_with("?xml")) {
      if (tag != 0 || !body.ends_with("?")) return fail("misplaced declaration");
      continue;
    }
    if (body.starts_with("/")) {
      if (open.empty() || open.back() != body.substr(1)) return fail("mismatched </" + body);
      open.pop_back();
      continue;
    }
    const bool self_closing = body.ends_with("/");
    const std::string inner = self_closing ? body.substr(0, body.size() - 1) : body;
    const std::string name = inner.substr(0, inner.find(' '));
    if (name.empty() || inner.find('<') != std::string::npos) return fail("bad tag " + body);
    // Attributes: name="value" pairs, values without < and with valid entities.
    std::size_t cursor = name.size();
    while (cursor < inner.size()) {
      if (inner[cursor] == ' ') {
        ++cursor;
        continue;
      }
      const std::size_t equals = inner.find("=\"", cursor);
      if (equals == std::string::npos) return fail("bad attribute in " + body);
      const std::size_t close = inner.find('"', equals + 2);
      if (close == std::string::npos) return fail("unterminated attribute in " + body);
      if (!entities_ok(std::string_view(inner).substr(equals + 2, close - equals - 2))) {
        return fail("bad entity in " + body);
      }
      cursor = close + 1;
    }
    if (open.empty() && root_seen) return fail("second root element");
    root_seen = true;
    if (!self_closing) open.push_back(name);
  }
  if (!open.empty()) return fail("unclosed <" + open.back() + ">");
  return root_seen ? ::testing::AssertionSuccess() : fail("no root element");
}

}  // namespace tilesim::testing
