#pragma once
// A tiny SVG writer for report plots: lines, rectangles, circles, polylines and
// text in pixels. Coordinates are written with one decimal and text is
// XML-escaped, so the same plot is always the same bytes.

#include <span>
#include <string>
#include <string_view>

namespace tilesim::report {

struct SvgPoint {
  double x = 0;
  double y = 0;
};

struct SvgStroke {
  std::string color = "#000000";
  double width_px = 1;
  std::string dash;  // SVG stroke-dasharray, e.g. "3 3"; empty: solid
};

enum class TextAnchor { start, middle, end };

struct TextStyle {
  double size_px = 12;
  TextAnchor anchor = TextAnchor::start;
  std::string color = "#000000";
  bool bold = false;
  double rotate_deg = 0;  // about the anchor point; -90 reads bottom to top
};

class SvgCanvas {
 public:
  SvgCanvas(double width_px, double height_px);

  void line(SvgPoint from, SvgPoint to, const SvgStroke& stroke);
  void rect(SvgPoint corner, double width_px, double height_px, std::string_view fill);
  void outlined_rect(SvgPoint corner, double width_px, double height_px, const SvgStroke& stroke);
  void circle(SvgPoint centre, double radius_px, std::string_view fill);
  // One element for the whole line, with `name` as its class (e.g. a series).
  void polyline(std::span<const SvgPoint> points, const SvgStroke& stroke, std::string_view name);
  // `vertical_centre`: `at.y` is the middle of the text rather than its baseline.
  void text(SvgPoint at, std::string_view content, const TextStyle& style,
            bool vertical_centre = false);

  // The complete document.
  std::string document() const;

 private:
  double width_px_;
  double height_px_;
  std::string body_;
};

// &, <, >, " and ' as XML entities.
std::string xml_escape(std::string_view text);

}  // namespace tilesim::report
