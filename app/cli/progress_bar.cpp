#include "app/cli/progress_bar.hpp"

#include <fmt/format.h>
#include <unistd.h>

#include <cstdio>

namespace tilesim::cli {

namespace {
constexpr int kBarWidth = 30;
}  // namespace

ProgressBar::ProgressBar(std::string what)
    : what_(std::move(what)), enabled_(isatty(fileno(stderr)) == 1) {}

ProgressBar::~ProgressBar() {
  if (enabled_ && shown_percent_ >= 0) std::fputs("\r\033[K", stderr);
}

void ProgressBar::update(std::size_t done, std::size_t total) {
  if (!enabled_ || total == 0) return;
  const auto percent = static_cast<int>(done * 100 / total);
  if (percent == shown_percent_) return;
  shown_percent_ = percent;
  const int filled = percent * kBarWidth / 100;
  fmt::print(stderr, "\r[{:=<{}}{:<{}}] {:3}%  {}/{} {}", "", filled, "", kBarWidth - filled,
             percent, done, total, what_);
  std::fflush(stderr);
}

}  // namespace tilesim::cli
