#include "sim/gpu/l2_reuse_model.hpp"

#include <algorithm>

namespace tilesim::gpu {

std::int64_t L2ReuseModel::use(double bytes) {
  slots_.push_back(bytes);
  if (bandwidth_bytes_per_s_) use_time_s_.resize(slots_.size(), now_s_);
  above_frontier_bytes_ += bytes;
  return static_cast<std::int64_t>(slots_.size()) - 1;
}

void L2ReuseModel::leave(std::int64_t use, double bytes) {
  slots_[static_cast<std::size_t>(use)] -= bytes;
  if (use > frontier_) above_frontier_bytes_ -= bytes;
}

void L2ReuseModel::settle_frontier() {
  // Down while the use below still fits, then up while the frontier's does not.
  while (frontier_ > 0 &&
         above_frontier_bytes_ + slots_[static_cast<std::size_t>(frontier_)] < capacity_bytes_) {
    above_frontier_bytes_ += slots_[static_cast<std::size_t>(frontier_)];
    --frontier_;
  }
  const auto top = static_cast<std::int64_t>(slots_.size()) - 1;
  while (above_frontier_bytes_ >= capacity_bytes_ && frontier_ < top) {
    ++frontier_;
    above_frontier_bytes_ -= slots_[static_cast<std::size_t>(frontier_)];
  }
}

bool L2ReuseModel::resident(const ResidentPart& part) const {
  if (capacity_bytes_ <= 0) return false;
  if (part.use >= frontier_) return true;
  if (!bandwidth_bytes_per_s_) return false;
  const double streamed =
      *bandwidth_bytes_per_s_ * (now_s_ - use_time_s_[static_cast<std::size_t>(part.use)]);
  return streamed < capacity_bytes_;
}

double L2ReuseModel::read(const BlockKey& key, std::int64_t part_begin, std::int64_t part_end,
                          double bytes) {
  ResidentParts& parts = blocks_[key];
  settle_frontier();
  parts.erase(std::remove_if(parts.begin(), parts.end(),
                             [this](const ResidentPart& part) { return !resident(part); }),
              parts.end());
  std::int64_t covered = 0;
  for (const ResidentPart& part : parts) {
    covered +=
        std::max<std::int64_t>(0, std::min(part.end, part_end) - std::max(part.begin, part_begin));
  }
  const auto width = static_cast<double>(std::max<std::int64_t>(1, part_end - part_begin));
  const double missed_bytes = bytes * (1 - static_cast<double>(covered) / width);
  filled_bytes_ += missed_bytes;
  // Parts this read touches merge into one, used now: they leave their old
  // places on the stack, and the merged part goes on top.
  ResidentPart merged{part_begin, part_end, bytes, 0};
  parts.erase(
      std::remove_if(parts.begin(), parts.end(),
                     [&](const ResidentPart& part) {
                       if (part.end < merged.begin || part.begin > merged.end) return false;
                       const std::int64_t begin = std::min(merged.begin, part.begin);
                       const std::int64_t end = std::max(merged.end, part.end);
                       // The union's bytes: the part's less what it shares with the read.
                       const std::int64_t overlap = std::max<std::int64_t>(
                           0, std::min(part_end, part.end) - std::max(part_begin, part.begin));
                       merged.bytes +=
                           std::max(0.0, part.bytes - bytes * static_cast<double>(overlap) / width);
                       merged.begin = begin;
                       merged.end = end;
                       leave(part.use, part.bytes);
                       return true;
                     }),
      parts.end());
  merged.use = use(merged.bytes);
  parts.push_back(merged);
  return missed_bytes;
}

void L2ReuseModel::write(double bytes) {
  filled_bytes_ += bytes;
  use(bytes);
}

// The writer produced the whole block, so every part a later read names is resident.
void L2ReuseModel::write(const BlockKey& key, double bytes) {
  filled_bytes_ += bytes;
  ResidentParts& parts = blocks_[key];
  for (const ResidentPart& part : parts) leave(part.use, part.bytes);
  constexpr std::int64_t kWholeBlock = std::int64_t{1} << 62;
  parts = {ResidentPart{-kWholeBlock, kWholeBlock, bytes, use(bytes)}};
}

}  // namespace tilesim::gpu
