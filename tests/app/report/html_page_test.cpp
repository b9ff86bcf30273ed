#include "app/report/html_page.hpp"

#include <gtest/gtest.h>

namespace tilesim::report {
namespace {

TEST(HtmlPage, EscapesTextSoInputCannotBecomeMarkup) {
  HtmlPage page("study <x>");
  page.table({{"name<"}, {{"<script>alert(1)</script>"}}});
  const std::string html = page.render();
  EXPECT_EQ(html.find("<script>alert"), std::string::npos);
  EXPECT_NE(html.find("&lt;script&gt;alert(1)&lt;/script&gt;"), std::string::npos);
  EXPECT_NE(html.find("<title>study &lt;x&gt;</title>"), std::string::npos);
}

TEST(HtmlPage, IsSelfContained) {
  HtmlPage page("t");
  page.svg("<?xml version=\"1.0\"?>\n<svg xmlns=\"http://www.w3.org/2000/svg\"></svg>");
  const std::string html = page.render();
  EXPECT_EQ(html.find("<?xml"), std::string::npos);  // not allowed inside HTML
  EXPECT_NE(html.find("<svg xmlns"), std::string::npos);
  for (const char* outside : {"<link", "src=", "@import", "url("}) {
    EXPECT_EQ(html.find(outside), std::string::npos) << outside;
  }
}

TEST(HtmlPage, NumbersAlignRightTextLeft) {
  HtmlPage page("t");
  page.table({{"name", "time_us"}, {{"a", "12.5"}, {"b", "-3e2"}}});
  const std::string html = page.render();
  EXPECT_NE(html.find("<td>a</td><td class=\"number\">12.5</td>"), std::string::npos);
  EXPECT_NE(html.find("<td class=\"number\">-3e2</td>"), std::string::npos);
}

}  // namespace
}  // namespace tilesim::report
