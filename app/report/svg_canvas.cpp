#include "app/report/svg_canvas.hpp"

#include <fmt/format.h>

namespace tilesim::report {

namespace {

// One decimal is finer than a pixel and keeps output stable across platforms;
// +0.0 avoids "-0.0".
std::string px(double value) {
  return fmt::format("{:.1f}", value + 0.0);
}

std::string stroke_attributes(const SvgStroke& stroke) {
  std::string attributes =
      fmt::format(R"( stroke="{}" stroke-width="{}")", stroke.color, px(stroke.width_px));
  if (!stroke.dash.empty()) attributes += fmt::format(R"( stroke-dasharray="{}")", stroke.dash);
  return attributes;
}

std::string_view anchor_name(TextAnchor anchor) {
  switch (anchor) {
    case TextAnchor::start:
      return "start";
    case TextAnchor::middle:
      return "middle";
    case TextAnchor::end:
      return "end";
  }
  return "start";
}

}  // namespace

std::string xml_escape(std::string_view text) {
  std::string escaped;
  for (const char c : text) {
    switch (c) {
      case '&':
        escaped += "&amp;";
        break;
      case '<':
        escaped += "&lt;";
        break;
      case '>':
        escaped += "&gt;";
        break;
      case '"':
        escaped += "&quot;";
        break;
      case '\'':
        escaped += "&apos;";
        break;
      default:
        escaped.push_back(c);
    }
  }
  return escaped;
}

SvgCanvas::SvgCanvas(double width_px, double height_px)
    : width_px_(width_px), height_px_(height_px) {}

void SvgCanvas::line(SvgPoint from, SvgPoint to, const SvgStroke& stroke) {
  body_ += fmt::format(R"(<line x1="{}" y1="{}" x2="{}" y2="{}"{}/>)", px(from.x), px(from.y),
                       px(to.x), px(to.y), stroke_attributes(stroke));
  body_ += '\n';
}

void SvgCanvas::rect(SvgPoint corner, double width_px, double height_px, std::string_view fill) {
  body_ += fmt::format(R"(<rect x="{}" y="{}" width="{}" height="{}" fill="{}"/>)", px(corner.x),
                       px(corner.y), px(width_px), px(height_px), fill);
  body_ += '\n';
}

void SvgCanvas::outlined_rect(SvgPoint corner, double width_px, double height_px,
                              const SvgStroke& stroke) {
  body_ +=
      fmt::format(R"(<rect x="{}" y="{}" width="{}" height="{}" fill="none"{}/>)", px(corner.x),
                  px(corner.y), px(width_px), px(height_px), stroke_attributes(stroke));
  body_ += '\n';
}

void SvgCanvas::circle(SvgPoint centre, double radius_px, std::string_view fill) {
  body_ += fmt::format(R"(<circle cx="{}" cy="{}" r="{}" fill="{}"/>)", px(centre.x), px(centre.y),
                       px(radius_px), fill);
  body_ += '\n';
}

void SvgCanvas::polyline(std::span<const SvgPoint> points, const SvgStroke& stroke,
                         std::string_view name) {
  std::string coordinates;
  for (const SvgPoint& point : points) {
    if (!coordinates.empty()) coordinates.push_back(' ');
    coordinates += px(point.x) + "," + px(point.y);
  }
  body_ += fmt::format(R"(<polyline class="{}" points="{}" fill="none"{}/>)", xml_escape(name),
                       coordinates, stroke_attributes(stroke));
  body_ += '\n';
}

void SvgCanvas::text(SvgPoint at, std::string_view content, const TextStyle& style,
                     bool vertical_centre) {
  std::string attributes = fmt::format(R"(x="{}" y="{}" font-size="{}" text-anchor="{}")", px(at.x),
                                       px(at.y), px(style.size_px), anchor_name(style.anchor));
  if (vertical_centre) attributes += R"( dominant-baseline="central")";
  if (style.color != "#000000") attributes += fmt::format(R"( fill="{}")", style.color);
  if (style.bold) attributes += R"( font-weight="bold")";
  if (style.rotate_deg != 0) {
    attributes += fmt::format(R"svg( transform="rotate({} {} {})")svg", px(style.rotate_deg),
                              px(at.x), px(at.y));
  }
  body_ += fmt::format("<text {}>{}</text>\n", attributes, xml_escape(content));
}

std::string SvgCanvas::document() const {
  return fmt::format(
      "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
      "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{0}\" height=\"{1}\" "
      "viewBox=\"0 0 {0} {1}\" font-family=\"Helvetica, Arial, sans-serif\">\n"
      "<rect x=\"0\" y=\"0\" width=\"{0}\" height=\"{1}\" fill=\"#ffffff\"/>\n"
      "{2}</svg>\n",
      px(width_px_), px(height_px_), body_);
}

}  // namespace tilesim::report
