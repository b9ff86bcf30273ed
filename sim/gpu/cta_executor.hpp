#pragma once
// Runs CTA programs on SMs: each step becomes one fluid flow that pulls its
// reads through L2 (misses also through HBM) and keeps its execution unit busy
// at the same time, preceded by one exposed memory latency when the step
// starts a pipeline, and by a wait on a fixup flag when it names one.
// When asked, it also records what each CTA's time went to (CtaTimeUses).

#include <cstdint>
#include <functional>
#include <optional>
#include <vector>

#include "hwmodels/hardware_spec.hpp"
#include "sim/engine/counter_board.hpp"
#include "sim/engine/simulator.hpp"
#include "sim/gpu/cta_program_store.hpp"
#include "sim/gpu/gpu_resources.hpp"
#include "sim/gpu/kernel_plan.hpp"
#include "sim/gpu/l2_reuse_model.hpp"
#include "sim/gpu/simulation_result.hpp"
#include "sim/gpu/unit_fast_forward.hpp"

namespace tilesim::gpu {

class CtaExecutor {
 public:
  // `time_use` is all zero unless the executor attributes time. `skipped_time`:
  // what the CTA's units skipped (approximate mode); the outcome's times from
  // its skip on are moved by it already, its end is to be.
  using DoneCallback = std::function<void(CtaOutcome&& outcome, const CtaTimeUses& time_use,
                                          sim::SimTime skipped_time)>;

  // `fast_forward_units`: approximate mode's UnitFastForward. `program_store`
  // (not owned; may be null): where spare programs come from once the run's
  // own are used, and where its programs' storage goes when it ends.
  CtaExecutor(sim::Simulator& simulator, GpuResources& resources, const hw::HardwareSpec& spec,
              bool attribute_time, bool fast_forward_units = false,
              CtaProgramStore* program_store = nullptr);
  ~CtaExecutor();
  CtaExecutor(const CtaExecutor&) = delete;
  CtaExecutor& operator=(const CtaExecutor&) = delete;

  // Starts `program` on `sm` once `start_delay` has passed (the CTA's
  // dispatch). `kernel` scopes the program's flags: CTAs of one kernel share them.
  void run(int sm, std::uint32_t kernel, double tensor_efficiency, CtaProgram program,
           sim::SimTime start_delay, DoneCallback on_done);
  // Room for this many CTAs running at once, and their flows (one step
  // each): a run that knows its grids does not grow them step by step.
  void reserve_running(std::size_t ctas) {
    running_.reserve(ctas);
    resources_.network().reserve_flows(ctas);
    if (unit_fast_forward_) unit_fast_forward_->reserve(ctas);
  }
  // CTAs still waiting on flags (non-zero after a run means a deadlock).
  std::size_t blocked_count() const { return flags_.blocked_count(); }
  // Whether running CTAs may skip units now (UnitFastForward::set_allowed).
  void allow_unit_skips(bool allowed) {
    if (unit_fast_forward_) unit_fast_forward_->set_allowed(allowed);
  }
  // An emptied program of a finished CTA, whose storage the next program can
  // be built into (CtaProgramSource::build), or else one from the program
  // store; an empty one when there is none.
  CtaProgram spare_program();
  // Flops of every step begun or skipped so far, over all CTAs.
  double flops_begun() const { return flops_begun_; }
  // Called with the step's SM once each step has begun (after flops_begun()
  // and tensor_flops_left() count it). Watching also keeps tensor_flops_left.
  void watch_steps(std::function<void(int sm)> on_step_begun) {
    on_step_begun_ = std::move(on_step_begun);
    tensor_flops_left_.assign(static_cast<std::size_t>(spec_.sm.count), 0.0);
  }
  // While steps are watched: the tensor-core flops of the steps not begun yet
  // of the CTAs running on `sm`.
  double tensor_flops_left(int sm) const {
    return tensor_flops_left_[static_cast<std::size_t>(sm)];
  }
  // What skipping CTAs' later times move by (zero until units are skipped).
  sim::SimTime skipped_unit_time() const {
    return unit_fast_forward_ ? unit_fast_forward_->skipped_time() : sim::SimTime{};
  }

 private:
  struct RunningCta {
    int sm = 0;
    std::uint32_t kernel = 0;
    double tensor_efficiency = 1;
    CtaProgram program;
    std::size_t next_step = 0;
    L2Reader reader;  // this CTA, for the L2 model's drift
    CtaOutcome outcome;
    CtaTimeUses time_use;
    DoneCallback on_done;
    // A step's flow while it waits out the pipeline fill's latency.
    sim::FlowDemands pending_demands;
    double pending_cap = 0;
    // What time under the step's own cap counts as: its bytes in flight
    // (memory latency), or, where its min_duration_s caps it lower, its unit.
    CtaTimeUse own_cap_use = CtaTimeUse::memory_latency;
    // Added to every time recorded after the CTA skipped units (UnitFastForward).
    sim::SimTime skipped_time;
  };

  void start_next_step(std::uint32_t running_index);
  // At the first step of a unit: skips units when the fast-forward says so.
  void skip_units(std::uint32_t running_index);
  // A flag wait is over (after the step's wake time, if it blocked): count it, start the step.
  void end_wait(std::uint32_t running_index, sim::SimTime wait_begin);
  void begin_step(std::uint32_t running_index);
  void start_flow(std::uint32_t running_index, sim::FlowDemands&& demands, double cap);
  void end_step(std::uint32_t running_index);
  void finish(std::uint32_t running_index);
  void add_limited_time(std::uint32_t running_index, sim::ResourceId limit, sim::SimTime duration);
  std::uint64_t flag_key(const RunningCta& cta, std::uint32_t flag) const {
    return (std::uint64_t{cta.kernel} << 32) | flag;
  }

  sim::Simulator& simulator_;
  GpuResources& resources_;
  const hw::HardwareSpec& spec_;
  CtaProgramStore* program_store_;
  bool attribute_time_;
  L2ReuseModel l2_;
  sim::CounterBoard flags_;
  std::optional<UnitFastForward> unit_fast_forward_;  // approximate mode only
  std::vector<RunningCta> running_;                   // slots, reused through free_
  std::vector<std::uint32_t> free_;
  std::vector<CtaProgram> spare_programs_;  // finished CTAs' programs, for their storage
  std::uint64_t started_ctas_ = 0;          // the last CTA's id (ids from 1)
  double flops_begun_ = 0;
  std::function<void(int sm)> on_step_begun_;
  std::vector<double> tensor_flops_left_;  // per SM, while steps are watched
};

}  // namespace tilesim::gpu
