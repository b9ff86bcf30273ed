#include "sim/gpu/l2_reuse_model.hpp"

namespace tilesim::gpu {

double L2ReuseModel::read(const BlockKey& key, double bytes) {
  auto [entry, inserted] = last_use_.try_emplace(key, filled_bytes_);
  const bool resident = !inserted && filled_bytes_ - entry->second < capacity_bytes_;
  const double missed_bytes = resident ? 0.0 : bytes;
  filled_bytes_ += missed_bytes;
  entry->second = filled_bytes_;
  return missed_bytes;
}

void L2ReuseModel::write(const BlockKey& key, double bytes) {
  filled_bytes_ += bytes;
  last_use_[key] = filled_bytes_;
}

}  // namespace tilesim::gpu
