#include "sim/gpu/l2_reuse_model.hpp"

#include <algorithm>
#include <cmath>

namespace tilesim::gpu {

inline std::int64_t L2ReuseModel::use(double bytes) {
  slots_.push_back(bytes);
  if (bandwidth_bytes_per_s_) use_time_s_.push_back(now_s_);
  above_frontier_bytes_ += bytes;
  return static_cast<std::int64_t>(slots_.size()) - 1;
}

inline void L2ReuseModel::leave(std::int64_t use, double bytes) {
  slots_[static_cast<std::size_t>(use)] -= bytes;
  if (use > frontier_) above_frontier_bytes_ -= bytes;
}

inline void L2ReuseModel::settle_frontier() {
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

inline bool L2ReuseModel::resident(const ResidentPart& part) const {
  if (capacity_bytes_ <= 0) return false;
  if (part.use >= frontier_) return true;
  if (!bandwidth_bytes_per_s_) return false;
  const double streamed =
      *bandwidth_bytes_per_s_ * (now_s_ - use_time_s_[static_cast<std::size_t>(part.use)]);
  return streamed < capacity_bytes_;
}

inline bool L2ReuseModel::drifts_apart(const ResidentPart& part, const L2Reader& reader) const {
  // CTA 0: no CTA (written data, whose reader waited for it; the approximate mode).
  return reader_drift_ > 0 && bandwidth_bytes_per_s_ && reader.cta != 0 && part.user.cta != 0 &&
         part.user.cta != reader.cta;
}

double L2ReuseModel::in_step_share(const ResidentPart& part, const L2Reader& reader) const {
  const double age_s = now_s_ - reader.start_s;
  const double sigma_s = reader_drift_ * std::hypot(age_s, part.user_age_s);
  if (sigma_s <= 0) return 1;
  const double window_s = capacity_bytes_ / *bandwidth_bytes_per_s_;
  return std::erf(window_s / (sigma_s * std::sqrt(2.0)));
}

double L2ReuseModel::read(const BlockKey& key, std::int64_t part_begin, std::int64_t part_end,
                          double bytes, const L2Reader& reader) {
  ResidentParts& parts = blocks_[key];
  settle_frontier();
  const auto width = static_cast<double>(std::max<std::int64_t>(1, part_end - part_begin));
  // One pass over the block's parts, in their order: evicted parts go; the
  // resident ones count what they cover of the read, and those the read
  // touches merge into one part, used now: they leave their old places on
  // the stack, and the merged part goes on top, after the parts kept. The
  // parts are compacted in place: a read costs no moves of the parts it
  // keeps where they are.
  // A part the read does not overlap adds nothing to `covered` (0 x a share in
  // [0, 1]), so its drift share is not asked for.
  double covered = 0;
  ResidentPart merged{part_begin, part_end, bytes, 0, reader, now_s_ - reader.start_s};
  std::size_t kept = 0;
  for (std::size_t index = 0; index < parts.size(); ++index) {
    const ResidentPart& part = parts[index];
    if (!resident(part)) continue;
    const std::int64_t overlap =
        std::max<std::int64_t>(0, std::min(part_end, part.end) - std::max(part_begin, part.begin));
    if (overlap > 0) {
      const double share = drifts_apart(part, reader) ? in_step_share(part, reader) : 1.0;
      covered += static_cast<double>(overlap) * share;
    }
    if (part.end < merged.begin || part.begin > merged.end) {
      if (kept != index) parts[kept] = part;
      ++kept;
      continue;
    }
    // The union's bytes: the part's less what it shares with the read.
    merged.bytes += std::max(0.0, part.bytes - bytes * static_cast<double>(overlap) / width);
    merged.begin = std::min(merged.begin, part.begin);
    merged.end = std::max(merged.end, part.end);
    leave(part.use, part.bytes);
  }
  const double missed_bytes = bytes * (1 - covered / width);
  filled_bytes_ += missed_bytes;
  merged.use = use(merged.bytes);
  if (kept < parts.size()) {
    parts[kept] = merged;
    if (kept + 1 < parts.size()) parts.resize(kept + 1);
  } else {
    parts.push_back(merged);
  }
  return missed_bytes;
}

// A step that writes nothing (a main-loop step) leaves no use: a use of no
// bytes would move no distance, only lengthen the stack the frontier walks.
void L2ReuseModel::write(double bytes) {
  if (bytes == 0) return;
  filled_bytes_ += bytes;
  use(bytes);
}

// The writer produced the whole block, so every part a later read names is resident.
void L2ReuseModel::write(const BlockKey& key, double bytes) {
  filled_bytes_ += bytes;
  ResidentParts& parts = blocks_[key];
  for (const ResidentPart& part : parts) leave(part.use, part.bytes);
  constexpr std::int64_t kWholeBlock = std::int64_t{1} << 62;
  parts = {ResidentPart{-kWholeBlock, kWholeBlock, bytes, use(bytes), {}, 0}};
}

}  // namespace tilesim::gpu
