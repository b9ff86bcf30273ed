#pragma once
// A hash map from BlockKey to a value, for the L2 reuse model's lookup on
// every read: open addressing with linear probing over a compact array of
// (key, index) entries, the values kept densely beside it. A lookup touches a
// cache line or two where a node-based map chases a bucket and a node. Keys
// are only ever added (the model keeps every block it has seen), so there are
// no tombstones; iteration order is never observed.

#include <cstdint>
#include <limits>
#include <vector>

#include "sim/gpu/kernel_plan.hpp"

namespace tilesim::gpu {

template <typename Value>
class BlockKeyMap {
 public:
  // The value under `key`, value-initialized when the key is new. The
  // reference holds until the next new key.
  Value& operator[](const BlockKey& key) {
    if (!entries_.empty()) {
      for (std::size_t at = home(key);; at = (at + 1) & mask()) {
        const Entry& entry = entries_[at];
        if (entry.value == kEmpty) break;
        if (entry.key == key) return values_[entry.value];
      }
    }
    return insert(key);
  }

 private:
  struct Entry {
    BlockKey key;
    std::uint32_t value = kEmpty;  // index into values_
  };
  static constexpr std::uint32_t kEmpty = std::numeric_limits<std::uint32_t>::max();
  // 128 keys before the first growth: most GEMMs' A and B panel chunks.
  static constexpr int kInitialBits = 8;

  std::size_t mask() const { return entries_.size() - 1; }
  // A key not in the map yet. Kept out of line, so that the lookup above is
  // small enough to inline into the L2 model's read (1-1.5% of a prediction's
  // instructions, callgrind).
  [[gnu::noinline]] Value& insert(const BlockKey& key) {
    if (2 * (values_.size() + 1) > entries_.size()) grow();
    std::size_t at = home(key);
    while (entries_[at].value != kEmpty) at = (at + 1) & mask();
    entries_[at] = {key, static_cast<std::uint32_t>(values_.size())};
    return values_.emplace_back();
  }
  // The key's fields mixed (MurmurHash3's finalizer), its top bits the home slot.
  std::size_t home(const BlockKey& key) const {
    std::uint64_t mixed = (std::uint64_t{key.tensor} << 48) ^ (std::uint64_t{key.panel} << 24) ^
                          std::uint64_t{key.chunk};
    mixed = (mixed ^ (mixed >> 33)) * 0xFF51AFD7ED558CCDULL;
    mixed = (mixed ^ (mixed >> 33)) * 0xC4CEB9FE1A85EC53ULL;
    return static_cast<std::size_t>(mixed >> (64 - bits_));
  }
  // Doubles the entries (at most half full after) and places every key again.
  void grow() {
    bits_ = entries_.empty() ? kInitialBits : bits_ + 1;
    std::vector<Entry> old = std::move(entries_);
    entries_.assign(std::size_t{1} << bits_, Entry{});
    values_.reserve(entries_.size() / 2);
    for (const Entry& entry : old) {
      if (entry.value == kEmpty) continue;
      std::size_t at = home(entry.key);
      while (entries_[at].value != kEmpty) at = (at + 1) & mask();
      entries_[at] = entry;
    }
  }

  int bits_ = 0;
  std::vector<Entry> entries_;
  std::vector<Value> values_;
};

}  // namespace tilesim::gpu
