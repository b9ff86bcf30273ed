#pragma once
// Which bytes hit in L2. Blocks (BlockKey) are tracked with the fill count of
// L2 at their last use: a block is still resident if fewer than `capacity`
// bytes have been filled into L2 since then (an LRU stack-distance estimate
// that counts fills, not hits). CTAs that run together and read the same
// A row-panel or B column-panel chunk therefore share one HBM read, and reuse
// across waves depends on how much was streamed in between. A block is
// tracked as parts (e.g. k-block ranges of a panel chunk), so CTAs that read
// disjoint parts of it (split-K slices, Stream-K units) each miss their own.

#include <boost/container/small_vector.hpp>
#include <cstdint>
#include <unordered_map>

#include "sim/gpu/kernel_plan.hpp"

namespace tilesim::gpu {

struct BlockKeyHash {
  std::size_t operator()(const BlockKey& key) const {
    std::uint64_t h = (std::uint64_t{key.tensor} << 48) ^ (std::uint64_t{key.panel} << 24) ^
                      std::uint64_t{key.chunk};
    return std::hash<std::uint64_t>{}(h * 0x9E3779B97F4A7C15ULL);
  }
};

class L2ReuseModel {
 public:
  explicit L2ReuseModel(double capacity_bytes) : capacity_bytes_(capacity_bytes) {}

  // Records a read of `bytes`, the part [part_begin, part_end) of block `key`;
  // returns the bytes that miss.
  double read(const BlockKey& key, std::int64_t part_begin, std::int64_t part_end, double bytes);
  // Written data is allocated in L2 and displaces other blocks; under a key, a
  // later read of it can hit.
  void write(double bytes) { filled_bytes_ += bytes; }
  void write(const BlockKey& key, double bytes);
  double filled_bytes() const { return filled_bytes_; }

 private:
  double capacity_bytes_;
  double filled_bytes_ = 0;
  struct ResidentPart {
    std::int64_t begin;
    std::int64_t end;
    double filled_at;  // fill count at its last use
  };
  bool resident(const ResidentPart& part) const {
    return filled_bytes_ - part.filled_at < capacity_bytes_;
  }
  // A block is usually one part (every reader covers it) or a few (split-K
  // slices): kept inline in the map's node.
  using ResidentParts = boost::container::small_vector<ResidentPart, 2>;
  std::unordered_map<BlockKey, ResidentParts, BlockKeyHash> blocks_;
};

}  // namespace tilesim::gpu
