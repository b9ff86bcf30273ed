#include "app/report/html_page.hpp"

#include <fmt/format.h>

#include <charconv>

#include "app/report/svg_canvas.hpp"  // xml_escape: HTML text escapes the same way

namespace tilesim::report {
namespace {

constexpr std::string_view kStyle = R"(
body { font-family: Helvetica, Arial, sans-serif; margin: 2em auto; padding: 0 1.5em; max-width: 1400px; color: #222; }
h1 { font-size: 1.5em; } h2 { font-size: 1.2em; margin-top: 2em; border-bottom: 1px solid #ccc; }
table { border-collapse: collapse; font-size: 0.85em; margin: 0.5em 0 1.5em; }
th, td { border: 1px solid #ddd; padding: 3px 8px; text-align: left; white-space: nowrap; }
td.number { text-align: right; font-variant-numeric: tabular-nums; }
th { background: #f0f0f0; cursor: pointer; user-select: none; }
th.sorted-up::after { content: " \25B2"; } th.sorted-down::after { content: " \25BC"; }
tr:nth-child(even) td { background: #fafafa; }
pre { background: #f6f6f6; padding: 0.8em; overflow-x: auto; font-size: 0.8em; }
.figure { overflow-x: auto; margin: 1em 0; }
)";

// Sorting by a clicked header: numbers as numbers, else text; again reverses.
constexpr std::string_view kScript = R"(
window.onerror = function (message) { document.body.dataset.status = "error: " + message; };
function sortTable(header) {
  const table = header.closest("table"), body = table.tBodies[0];
  const column = Array.from(header.parentNode.children).indexOf(header);
  const rows = Array.from(body.rows);
  const value = (row) => row.cells[column].textContent.trim();
  const numeric = rows.every((row) => value(row) === "" || !isNaN(Number(value(row))));
  const up = !header.classList.contains("sorted-up");
  rows.sort((a, b) => {
    const x = value(a), y = value(b);
    const order = numeric ? Number(x) - Number(y) : x.localeCompare(y);
    return up ? order : -order;
  });
  for (const th of header.parentNode.children) th.classList.remove("sorted-up", "sorted-down");
  header.classList.add(up ? "sorted-up" : "sorted-down");
  for (const row of rows) body.appendChild(row);
}
for (const header of document.querySelectorAll("th")) {
  header.addEventListener("click", () => sortTable(header));
}
if (!document.body.dataset.status) document.body.dataset.status = "ok";
)";

bool is_number(std::string_view text) {
  double value = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  return !text.empty() && error == std::errc{} && end == text.data() + text.size();
}

}  // namespace

HtmlPage::HtmlPage(std::string title) : title_(std::move(title)) {
  body_ += fmt::format("<h1>{}</h1>\n", xml_escape(title_));
}

void HtmlPage::heading(std::string_view text) {
  body_ += fmt::format("<h2>{}</h2>\n", xml_escape(text));
}

void HtmlPage::paragraph(std::string_view text) {
  body_ += fmt::format("<p>{}</p>\n", xml_escape(text));
}

void HtmlPage::preformatted(std::string_view text) {
  body_ += fmt::format("<pre>{}</pre>\n", xml_escape(text));
}

void HtmlPage::svg(std::string_view markup) {
  if (markup.starts_with("<?xml")) markup.remove_prefix(markup.find("?>") + 2);
  body_ += "<div class=\"figure\">";
  body_ += markup;
  body_ += "</div>\n";
}

void HtmlPage::table(const HtmlTable& table) {
  body_ += "<div class=\"figure\"><table>\n<thead><tr>";
  for (const std::string& column : table.columns) {
    body_ += fmt::format("<th>{}</th>", xml_escape(column));
  }
  body_ += "</tr></thead>\n<tbody>\n";
  for (const auto& row : table.rows) {
    body_ += "<tr>";
    for (const std::string& cell : row) {
      body_ += is_number(cell) ? "<td class=\"number\">" : "<td>";
      body_ += xml_escape(cell);
      body_ += "</td>";
    }
    body_ += "</tr>\n";
  }
  body_ += "</tbody>\n</table></div>\n";
}

std::string HtmlPage::render() const {
  return fmt::format(
      "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
      "<title>{}</title>\n<style>{}</style>\n</head>\n<body>\n{}<script>{}</script>\n"
      "</body>\n</html>\n",
      xml_escape(title_), kStyle, body_, kScript);
}

}  // namespace tilesim::report
