#include "sim/gpu/l2_reuse_model.hpp"

#include <algorithm>

namespace tilesim::gpu {

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
  // Parts this read touches merge into one, used now.
  ResidentPart merged{part_begin, part_end, filled_bytes_};
  parts.erase(std::remove_if(parts.begin(), parts.end(),
                             [&](const ResidentPart& part) {
                               if (part.end < merged.begin || part.begin > merged.end) return false;
                               merged.begin = std::min(merged.begin, part.begin);
                               merged.end = std::max(merged.end, part.end);
                               return true;
                             }),
              parts.end());
  parts.push_back(merged);
  return missed_bytes;
}

// The writer produced the whole block, so every part a later read names is resident.
void L2ReuseModel::write(const BlockKey& key, double bytes) {
  filled_bytes_ += bytes;
  constexpr std::int64_t kWholeBlock = std::int64_t{1} << 62;
  blocks_[key] = {ResidentPart{-kWholeBlock, kWholeBlock, filled_bytes_}};
}

}  // namespace tilesim::gpu
