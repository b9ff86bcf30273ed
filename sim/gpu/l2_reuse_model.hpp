#pragma once
// Which bytes hit in L2: an LRU stack over blocks (BlockKey), by bytes. A
// block is still resident if fewer than `capacity` bytes of other blocks were
// used (read, hit or miss, or written) after its last use: its LRU stack
// distance. Hits count as well as fills: in pure Stream-K every CTA re-reads
// its own B panel one tile later while the other CTAs re-read theirs, so each
// re-read is pushed down the stack by all the others' (a fill-only count
// lets them all hit). CTAs that run together and read the same A row-panel or
// B column-panel chunk share one HBM read, and reuse across waves depends on
// how much was used in between. A block is tracked as parts (e.g. k-block
// ranges of a panel chunk), so CTAs that read disjoint parts of it (split-K
// slices, Stream-K units) each miss their own.
// Time bound (when given the L2's bandwidth): a read is counted whole when its
// step starts, but its lines stream over the step, so CTAs that start reading
// the same block together meet line by line on the card. No more bytes can
// have passed through L2 since a part's last use than its bandwidth moves in
// that time: the distance is the smaller of the two, so concurrent readers
// share a block whatever the order their steps started in.
// Drift (when given a reader drift): CTAs that do the same work do not stay
// in step on the card; two that started together are apart by about
// drift x their age (one standard deviation). A read of a part another CTA
// used last hits only for the share of offsets inside the residency window
// (capacity / bandwidth): P(|offset| < window), the offset normal. So
// lock-step partners of a long persistent launch (pure Stream-K units one
// band apart) share little, and young CTAs (a data-parallel wave) share all.

#include <boost/container/small_vector.hpp>
#include <cstdint>
#include <optional>
#include <vector>

#include "sim/gpu/block_key_map.hpp"
#include "sim/gpu/kernel_plan.hpp"

namespace tilesim::gpu {

// Who reads: a CTA (any id unique in the launch sequence) and when it started.
struct L2Reader {
  std::uint64_t cta = 0;
  double start_s = 0;
};

class L2ReuseModel {
 public:
  explicit L2ReuseModel(double capacity_bytes) : capacity_bytes_(capacity_bytes) {}
  // With the time bound: uses are stamped with the time `advance_to` last set.
  L2ReuseModel(double capacity_bytes, double bandwidth_bytes_per_s, double reader_drift = 0)
      : capacity_bytes_(capacity_bytes),
        bandwidth_bytes_per_s_(bandwidth_bytes_per_s),
        reader_drift_(reader_drift) {}

  // The time of the reads and writes that follow (seconds, not decreasing).
  void advance_to(double now_s) { now_s_ = now_s; }

  // Records a read of `bytes`, the part [part_begin, part_end) of block `key`;
  // returns the bytes that miss. `reader`: for the drift (none: in step).
  double read(const BlockKey& key, std::int64_t part_begin, std::int64_t part_end, double bytes,
              const L2Reader& reader = {});
  // Written data is allocated in L2 and displaces other blocks; under a key, a
  // later read of it can hit.
  void write(double bytes);
  void write(const BlockKey& key, double bytes);
  // Bytes brought into L2: read misses and writes.
  double filled_bytes() const { return filled_bytes_; }

 private:
  struct ResidentPart {
    std::int64_t begin;
    std::int64_t end;
    double bytes;
    std::int64_t use;   // its last use, in use order
    L2Reader user;      // who used it last
    double user_age_s;  // that CTA's age then
  };
  // Puts `bytes` on top of the stack; returns the use number.
  std::int64_t use(double bytes);
  // A part used again, or overwritten, leaves the slot of its use `use`.
  void leave(std::int64_t use, double bytes);
  // Moves the frontier to the oldest use fewer than `capacity` bytes below
  // the top; before residency is asked.
  void settle_frontier();
  // Resident: within `capacity` bytes of the top of the stack, or (with the
  // time bound) used less than capacity / bandwidth ago.
  bool resident(const ResidentPart& part) const;
  // Whether the drift applies between the part's last user and `reader`.
  bool drifts_apart(const ResidentPart& part, const L2Reader& reader) const;
  // The share of a resident part's bytes that hit for `reader` when they
  // drift apart (otherwise all of them).
  double in_step_share(const ResidentPart& part, const L2Reader& reader) const;

  double capacity_bytes_;
  std::optional<double> bandwidth_bytes_per_s_;
  double reader_drift_ = 0;
  double now_s_ = 0;
  double filled_bytes_ = 0;
  // Bytes of each use still on the stack, by use number (from 1): a part used
  // again leaves its old slot. Evicted parts stay: they only count for parts
  // older than themselves, which are evicted too.
  std::vector<double> slots_ = {0};
  std::vector<double> use_time_s_ = {0};  // per use number as slots_, with the time bound
  // The stack distance (bytes used after a use) only ever grows down the
  // stack, so the resident uses are those from `frontier_` on: it is the
  // oldest use with fewer than `capacity` bytes above it (after
  // settle_frontier), and `above_frontier_bytes_` the bytes used after it.
  // Both follow every use and leave; the frontier moves only when settled, so
  // a part that leaves and is put back on top moves it once, not twice.
  std::int64_t frontier_ = 0;
  double above_frontier_bytes_ = 0;
  // A block is usually one part (every reader covers it) or a few (split-K
  // slices): kept inline in the map's values.
  using ResidentParts = boost::container::small_vector<ResidentPart, 2>;
  BlockKeyMap<ResidentParts> blocks_;
};

}  // namespace tilesim::gpu
