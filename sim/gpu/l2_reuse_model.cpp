#include "sim/gpu/l2_reuse_model.hpp"

#include <algorithm>

namespace tilesim::gpu {

void L2ReuseModel::add_at(std::int64_t use, double bytes) {
  slots_[static_cast<std::size_t>(use)] += bytes;
  used_bytes_ += bytes;
  for (auto i = static_cast<std::size_t>(use); i < tree_.size(); i += i & (~i + 1)) {
    tree_[i] += bytes;
  }
}

std::int64_t L2ReuseModel::use(double bytes) {
  if (slots_.empty()) slots_.push_back(0);  // use numbers start at 1
  const auto next = static_cast<std::int64_t>(slots_.size());
  slots_.push_back(0);
  if (bandwidth_bytes_per_s_) {
    use_time_s_.resize(slots_.size());
    use_time_s_.back() = now_s_;
  }
  if (slots_.size() > tree_.size()) {
    // Grow the tree to twice the uses and rebuild it from the slots (amortised O(1)).
    tree_.assign(2 * slots_.size(), 0);
    for (std::size_t i = 1; i < tree_.size(); ++i) {
      if (i < slots_.size()) tree_[i] += slots_[i];
      const std::size_t parent = i + (i & (~i + 1));
      if (parent < tree_.size()) tree_[parent] += tree_[i];
    }
  }
  add_at(next, bytes);
  return next;
}

double L2ReuseModel::used_since(std::int64_t use) const {
  double through = 0;
  for (auto i = static_cast<std::size_t>(use); i > 0; i -= i & (~i + 1)) through += tree_[i];
  return used_bytes_ - through;
}

bool L2ReuseModel::resident(const ResidentPart& part) const {
  double distance = used_since(part.use);
  if (bandwidth_bytes_per_s_) {
    const double streamed =
        *bandwidth_bytes_per_s_ * (now_s_ - use_time_s_[static_cast<std::size_t>(part.use)]);
    distance = std::min(distance, streamed);
  }
  return distance < capacity_bytes_;
}

double L2ReuseModel::read(const BlockKey& key, std::int64_t part_begin, std::int64_t part_end,
                          double bytes) {
  ResidentParts& parts = blocks_[key];
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
                       add_at(part.use, -part.bytes);
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
  for (const ResidentPart& part : parts) add_at(part.use, -part.bytes);
  constexpr std::int64_t kWholeBlock = std::int64_t{1} << 62;
  parts = {ResidentPart{-kWholeBlock, kWholeBlock, bytes, use(bytes)}};
}

}  // namespace tilesim::gpu
