#pragma once
// A set of flows ordered by (level cap, flow index), of which only the first is
// ever asked for: FluidNetwork's bottleneck mode needs the highest cap among
// the flows it could bind and the lowest among those it has bound. A binary
// heap whose removed entries stay until they reach the top: a flow's start or
// end costs O(log flows), where a sorted array moved every entry after it
// (quadratic in the flows when thousands run at once). Keys are unique, so the
// first entry is the same whatever order the entries were added in.

#include <algorithm>
#include <cstdint>
#include <stdexcept>
#include <utility>
#include <vector>

namespace tilesim::sim {

enum class CapOrder { highest_first, lowest_first };

template <CapOrder kOrder>
class FlowCapHeap {
 public:
  using Entry = std::pair<double, std::uint32_t>;  // (level cap, flow)

  std::size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }

  void insert(double cap, std::uint32_t flow) {
    if (flow >= members_.size()) members_.resize(flow + 1);
    Member& member = members_[flow];
    if (member.token != 0) {
      if (member.cap == cap) return;  // already in, as a set would have it
      throw std::logic_error("FlowCapHeap: a flow is in the set under another cap");
    }
    member = {cap, ++last_token_};
    // Removed entries that never reach the top are dropped in one pass once
    // they outnumber the live ones.
    if (heap_.size() > 2 * size_ + 64) {
      std::erase_if(heap_, [this](const Slot& slot) { return !is_live(slot); });
      std::make_heap(heap_.begin(), heap_.end(), Below{});
    }
    heap_.push_back({{cap, flow}, member.token});
    std::push_heap(heap_.begin(), heap_.end(), Below{});
    ++size_;
  }
  // Removes (cap, flow) if it is in the set.
  void erase(double cap, std::uint32_t flow) {
    if (flow >= members_.size() || members_[flow].token == 0 || members_[flow].cap != cap) return;
    members_[flow].token = 0;
    --size_;
  }
  bool contains(std::uint32_t flow) const {
    return flow < members_.size() && members_[flow].token != 0;
  }
  // Precondition: !empty().
  const Entry& first() {
    while (!is_live(heap_.front())) {
      std::pop_heap(heap_.begin(), heap_.end(), Below{});
      heap_.pop_back();
    }
    return heap_.front().entry;
  }
  template <typename Visit>
  void for_each(Visit visit) const {
    for (const Slot& slot : heap_) {
      if (is_live(slot)) visit(slot.entry);
    }
  }
  void clear() {
    for (const Slot& slot : heap_) members_[slot.entry.second].token = 0;
    heap_.clear();
    size_ = 0;
  }

 private:
  struct Slot {
    Entry entry;
    std::uint64_t token;  // which insertion of its flow: a removed one no longer matches
  };
  struct Member {
    double cap = 0;
    std::uint64_t token = 0;  // 0: not in the set
  };
  // std::*_heap keep first an entry that no other is "below".
  struct Below {
    bool operator()(const Slot& a, const Slot& b) const {
      return kOrder == CapOrder::highest_first ? a.entry < b.entry : b.entry < a.entry;
    }
  };
  bool is_live(const Slot& slot) const { return members_[slot.entry.second].token == slot.token; }

  std::vector<Slot> heap_;
  std::vector<Member> members_;  // by flow index
  std::size_t size_ = 0;         // live entries
  std::uint64_t last_token_ = 0;
};

}  // namespace tilesim::sim
