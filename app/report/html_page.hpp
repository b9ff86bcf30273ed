#pragma once
// One self-contained HTML page: inline CSS, inline SVG, tables that sort when a
// header is clicked, and nothing fetched from the network, so the file can be
// mailed or opened offline. A script run on load marks the body
// `data-status="ok"` (or the first error), which the browser test reads.

#include <string>
#include <string_view>
#include <vector>

namespace tilesim::report {

struct HtmlTable {
  std::vector<std::string> columns;
  std::vector<std::vector<std::string>> rows;  // text cells; a column of numbers sorts as numbers
};

class HtmlPage {
 public:
  explicit HtmlPage(std::string title);

  void heading(std::string_view text);
  void paragraph(std::string_view text);
  void preformatted(std::string_view text);
  // Markup from tilesim's own SVG writers; the XML declaration is dropped.
  void svg(std::string_view markup);
  void table(const HtmlTable& table);

  std::string render() const;

 private:
  std::string title_;
  std::string body_;
};

}  // namespace tilesim::report
