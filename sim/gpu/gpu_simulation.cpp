#include "sim/gpu/gpu_simulation.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <limits>
#include <map>
#include <optional>
#include <set>
#include <stdexcept>

#include "hwmodels/power_law.hpp"
#include "sim/engine/simulator.hpp"
#include "sim/gpu/block_scheduler.hpp"
#include "sim/gpu/cta_executor.hpp"
#include "sim/gpu/gpu_resources.hpp"
#include "sim/gpu/kernel_load_estimate.hpp"
#include "sim/gpu/launch_timing.hpp"
#include "sim/gpu/wave_fast_forward.hpp"

namespace tilesim::gpu {
namespace {

struct KernelState {
  const KernelLaunch* launch = nullptr;
  double tensor_efficiency = 1;  // the launch's, at the clock its grid allows
  double clock_fraction = 1;     // of sm.clock; 1 until known (estimated at the start)
  CtaDemand demand;
  std::int64_t next_cta = 0;
  std::int64_t finished_ctas = 0;
  std::vector<std::size_t> dependents;  // kernels that wait for this one
  int unfinished_dependencies = 0;
  bool has_dependencies = false;
  sim::SimTime dependencies_end;  // when the last dependency finished
  bool arrived = false;
  bool scheduled = false;  // its start is decided
  bool finished = false;
};

// SMs the grid keeps busy: resident CTAs on as many SMs as it fills.
int busy_sms(const KernelLaunch& launch, const KernelRecord& record, int sm_count) {
  if (record.ctas_per_sm == 0) return 0;
  return static_cast<int>(std::min<std::int64_t>(
      sm_count, (launch.cta_count + record.ctas_per_sm - 1) / record.ctas_per_sm));
}

// How much faster than the peak rate a fast-forward's measured period may
// have run (its tolerance): the early stop's bounds allow for it.
constexpr double kSkipTolerance = 1.02;

// Whether a finished run's time passes `limit_s`.
bool ran_past(const SimulationResult& result, double limit_s) {
  return limit_s < std::numeric_limits<double>::infinity() &&
         result.end() - result.start() > sim::SimTime::from_seconds(limit_s);
}

// One simulation: owns the engine and the GPU's state for the plan's lifetime.
class GpuRun {
 public:
  // clock_fractions: per kernel, the fraction of sm.clock its tensor work runs
  // at; empty: from the busy SMs (HardwareSpec::tensor_clock_fraction), or,
  // with `estimate_clocks`, from each kernel's estimated load
  // (estimate_kernel_load), taken when the kernel starts: a run stopped
  // before a kernel starts never estimates it.
  GpuRun(const KernelPlan& plan, const hw::HardwareSpec& spec, const SimulationOptions& options,
         std::vector<double> clock_fractions, bool estimate_clocks = false)
      : plan_(plan),
        clock_fractions_(std::move(clock_fractions)),
        estimate_clocks_(estimate_clocks),
        spec_(spec),
        resources_(simulator_, spec),
        scheduler_(spec.sm),
        executor_(simulator_, resources_, spec, options.attribute_time, options.fast_forward_units,
                  options.program_store),
        program_store_(options.program_store),
        load_replays_(options.load_replays),
        dependency_gap_(dependency_gap(spec.launch)),
        attribute_time_(options.attribute_time),
        stop_after_s_(options.stop_after_s),
        work_flops_(options.work_flops),
        peak_flops_per_s_(options.peak_flops_per_s),
        fast_forward_waves_(options.fast_forward_waves),
        moves_times_(options.fast_forward_waves || options.fast_forward_units),
        time_after_last_cta_(least_time_after_last_cta()),
        cta_dispatch_(sim::SimTime::from_seconds(spec.launch.cta_dispatch_s)) {
    simulator_.set_effort_limit(options.max_effort_events);
    if (options.record_bandwidth) {
      resources_.network().set_reallocation_observer([this] { sample_bandwidth(); });
    }
    if (work_flops_ > 0) {
      // Stopping at the next event: what is left runs past the limit anyway.
      executor_.watch_steps([this](int sm) {
        if (cannot_end_in_time(sm) || cannot_dispatch_in_time()) {
          simulator_.set_time_limit(simulator_.now());
        }
      });
    }
  }

  SimulationResult run() {
    result_.sm_count = spec_.sm.count;
    result_.max_ctas_per_sm = spec_.sm.max_ctas;
    const std::vector<LaunchTiming> timings = launch_timings(plan_, spec_.launch);
    kernels_.resize(plan_.kernels.size());
    result_.kernels.resize(plan_.kernels.size());
    for (std::size_t i = 0; i < plan_.kernels.size(); ++i) init_kernel(i, timings[i]);
    if (estimate_clocks_) prebuilt_programs_.resize(plan_.kernels.size());
    link_dependencies();
    if (fast_forward_waves_) {
      std::vector<std::int64_t> wave_ctas;
      for (const KernelRecord& record : result_.kernels)
        wave_ctas.push_back(std::int64_t{spec_.sm.count} * record.ctas_per_sm);
      fast_forward_.emplace(std::move(wave_ctas));
    }
    // Every CTA leaves a record: reserved once, not moved as the run grows.
    // So are the slots of the CTAs one grid keeps resident at once.
    std::int64_t total_ctas = 0;
    std::int64_t resident_ctas = 0;
    for (std::size_t i = 0; i < plan_.kernels.size(); ++i) {
      const std::int64_t cta_count = plan_.kernels[i].cta_count;
      total_ctas += cta_count;
      resident_ctas = std::max(
          resident_ctas,
          std::min(cta_count, std::int64_t{spec_.sm.count} * result_.kernels[i].ctas_per_sm));
    }
    result_.ctas.reserve(static_cast<std::size_t>(total_ctas));
    executor_.reserve_running(static_cast<std::size_t>(resident_ctas));
    running_ctas_.reserve(static_cast<std::size_t>(resident_ctas));
    if (moves_times_) running_offsets_.reserve(static_cast<std::size_t>(resident_ctas));
    for (std::size_t i = 0; i < plan_.kernels.size(); ++i) {
      simulator_.schedule_at(timings[i].arrival, sim::EventPriority::normal,
                             [this, i] { kernel_arrived(i); });
    }
    if (!simulator_.run()) {
      if (!simulator_.past_time_limit()) throw SimulationOverBudget(simulator_.effort());
      result_.stopped = true;
      result_.events = simulator_.events_processed();
      return std::move(result_);
    }
    for (std::size_t i = 0; i < kernels_.size(); ++i) {
      if (!kernels_[i].finished) {
        throw std::logic_error("simulation ended with unfinished CTAs in " + plan_.kernels[i].name);
      }
    }
    result_.events = simulator_.events_processed();
    result_.fluid_counts = resources_.network().counts();
    // A fast-forward moves results ahead of engine time: a run can end past
    // its limit without the engine's seeing it.
    result_.stopped = ran_past(result_, stop_after_s_);
    if (fast_forward_) fast_forward_->add_skipped(result_);
    return std::move(result_);
  }

 private:
  void init_kernel(std::size_t index, const LaunchTiming& timing) {
    const KernelLaunch& launch = plan_.kernels[index];
    KernelState& state = kernels_[index];
    state.launch = &launch;
    state.demand = scheduler_.demand_of(launch.footprint);
    KernelRecord& record = result_.kernels[index];
    record.name = launch.name;
    record.stream = launch.stream;
    record.host_issue_begin = timing.host_issue_begin;
    record.host_issue_end = timing.host_issue_end;
    record.cta_count = launch.cta_count;
    record.ctas_per_sm = scheduler_.ctas_per_sm(launch.footprint);
    if (record.ctas_per_sm == 0) {
      throw std::invalid_argument("kernel " + launch.name + ": one CTA does not fit on an SM");
    }
    if (attribute_time_) record.time_use_per_sm.resize(static_cast<std::size_t>(spec_.sm.count));
    record.waves = static_cast<double>(launch.cta_count) /
                   (static_cast<double>(spec_.sm.count) * record.ctas_per_sm);
    if (estimate_clocks_) return;  // estimate_clock, once the kernel starts
    state.clock_fraction =
        clock_fractions_.empty()
            ? spec_.tensor_clock_fraction(busy_sms(launch, record, spec_.sm.count))
            : clock_fractions_[index];
    state.tensor_efficiency = launch.tensor_efficiency * state.clock_fraction;
  }

  // The kernel's clock from its estimated load; the simulation takes over the
  // programs the estimate built.
  void estimate_clock(std::size_t index) {
    KernelState& state = kernels_[index];
    KernelLoadEstimate estimate =
        estimate_kernel_load(*state.launch, spec_, program_store_, load_replays_);
    state.clock_fraction =
        hw::power_limited_clock_hz(spec_.power, spec_.sm.clock_hz, estimate.load) /
        spec_.sm.clock_hz;
    state.tensor_efficiency = state.launch->tensor_efficiency * state.clock_fraction;
    prebuilt_programs_[index] = std::move(estimate.programs);
    dispatch_bounded_ = bounds_dispatch(index);
  }

  // Whether the bound on CTAs still to dispatch (cannot_dispatch_in_time)
  // holds for kernel `index`: a one-kernel plan of one CTA per SM whose
  // waves are never skipped.
  bool bounds_dispatch(std::size_t index) const {
    return work_flops_ > 0 && plan_.kernels.size() == 1 &&
           result_.kernels[index].ctas_per_sm == 1 &&
           !(fast_forward_ && WaveFastForward::may_skip(plan_.kernels[index].cta_count,
                                                        std::int64_t{spec_.sm.count}));
  }

  // A kernel waits for the previous kernel of its stream and for the earlier
  // launches it names in depends_on.
  void link_dependencies() {
    std::map<int, std::size_t> last_in_stream;
    for (std::size_t index = 0; index < plan_.kernels.size(); ++index) {
      const KernelLaunch& launch = plan_.kernels[index];
      std::set<std::size_t> waits_for;
      if (const auto last = last_in_stream.find(launch.stream); last != last_in_stream.end()) {
        waits_for.insert(last->second);
      }
      for (const int dependency : launch.depends_on) {
        if (dependency < 0 || static_cast<std::size_t>(dependency) >= index) {
          throw std::invalid_argument(
              fmt::format("kernel {}: depends_on {} is not an earlier launch of the plan",
                          launch.name, dependency));
        }
        waits_for.insert(static_cast<std::size_t>(dependency));
      }
      for (const std::size_t dependency : waits_for)
        kernels_[dependency].dependents.push_back(index);
      kernels_[index].unfinished_dependencies = static_cast<int>(waits_for.size());
      kernels_[index].has_dependencies = !waits_for.empty();
      last_in_stream[launch.stream] = index;
    }
  }

  void kernel_arrived(std::size_t index) {
    kernels_[index].arrived = true;
    ++arrived_kernels_;
    schedule_start_if_ready(index);
  }

  // Once arrived with every dependency done, a kernel starts at once, or after
  // the front end's gap if a dependency ended less than that ago.
  void schedule_start_if_ready(std::size_t index) {
    KernelState& state = kernels_[index];
    if (!state.arrived || state.unfinished_dependencies > 0 || state.scheduled) return;
    state.scheduled = true;
    const sim::SimTime now = simulator_.now();
    const sim::SimTime ready =
        state.has_dependencies ? std::max(now, state.dependencies_end + dependency_gap_) : now;
    result_.kernels[index].ready = ready + offset();
    if (ready == now) {
      start_kernel(index);
    } else {
      ++pending_starts_;
      simulator_.schedule_at(ready, sim::EventPriority::normal, [this, index] {
        --pending_starts_;
        start_kernel(index);
      });
    }
  }

  void start_kernel(std::size_t index) {
    if (estimate_clocks_) estimate_clock(index);
    active_.push_back(index);
    if (kernels_[index].launch->cta_count == 0) {
      result_.kernels[index].start = simulator_.now() + offset();
      ++finished_kernels_;
      finish_kernel(index);
    }
    dispatch();
  }

  // Hands out CTAs in launch order; a cluster goes out whole or not at all.
  void dispatch() {
    for (std::size_t index : active_) {
      KernelState& state = kernels_[index];
      const KernelLaunch& launch = *state.launch;
      while (state.next_cta < launch.cta_count) {
        const std::int64_t group =
            std::min<std::int64_t>(launch.cluster_size, launch.cta_count - state.next_cta);
        if (!scheduler_.has_room_for(state.demand, group)) break;
        if (fast_forward_ && may_fast_forward()) {
          const std::int64_t skipped = fast_forward_->skip(index, launch, state.next_cta);
          state.next_cta += skipped;
          state.finished_ctas += skipped;
        }
        for (std::int64_t i = 0; i < group; ++i) start_cta(index, state.next_cta++);
      }
    }
    // A persistent grid's units are skipped only once nothing else can start.
    executor_.allow_unit_skips(may_fast_forward() &&
                               kernels_[active_.front()].next_cta ==
                                   kernels_[active_.front()].launch->cta_count);
  }

  void start_cta(std::size_t kernel_index, std::int64_t cta_index) {
    KernelState& state = kernels_[kernel_index];
    if (cta_index == 0) {
      result_.kernels[kernel_index].start = simulator_.now() + offset();
      // Engine times never run ahead of the result's (a fast-forward only
      // adds), so stopping on engine time never stops a run that would end in time.
      if (!time_limit_set_ && stop_after_s_ < std::numeric_limits<double>::infinity()) {
        time_limit_ = simulator_.now() + sim::SimTime::from_seconds(stop_after_s_);
        simulator_.set_time_limit(time_limit_);
      }
      time_limit_set_ = true;
    }
    const CtaPlacement placement = *scheduler_.place(state.demand);
    const std::uint32_t record_slot = take_record_slot();
    CtaRecord& record = running_ctas_[record_slot];
    record.kernel = static_cast<std::int32_t>(kernel_index);
    record.cta = cta_index;
    record.sm = placement.sm;
    record.slot = placement.slot;
    // Engine time until the CTA ends; finish_cta moves its times by the offset
    // in force now (a fast-forward later leaves it alone).
    record.dispatched = simulator_.now();
    CtaProgram program = take_program(kernel_index, cta_index);
    if (fast_forward_) fast_forward_->note_dispatched(kernel_index, cta_index, program);
    if (moves_times_) running_offsets_[record_slot] = offset();
    executor_.run(placement.sm, static_cast<std::uint32_t>(kernel_index), state.tensor_efficiency,
                  std::move(program), sim::SimTime::from_seconds(spec_.launch.cta_dispatch_s),
                  [this, record_slot](CtaOutcome&& outcome, const CtaTimeUses& time_use,
                                      sim::SimTime skipped_time) {
                    finish_cta(record_slot, std::move(outcome), time_use, skipped_time);
                  });
  }

  CtaProgram take_program(std::size_t kernel, std::int64_t cta) {
    if (kernel < prebuilt_programs_.size() &&
        static_cast<std::size_t>(cta) < prebuilt_programs_[kernel].size()) {
      return std::move(prebuilt_programs_[kernel][static_cast<std::size_t>(cta)]);
    }
    CtaProgram program = executor_.spare_program();
    kernels_[kernel].launch->programs->build(cta, program);
    return program;
  }

  std::uint32_t take_record_slot() {
    if (free_record_slots_.empty()) {
      running_ctas_.emplace_back();
      if (moves_times_) running_offsets_.emplace_back();
      return static_cast<std::uint32_t>(running_ctas_.size() - 1);
    }
    const std::uint32_t slot = free_record_slots_.back();
    free_record_slots_.pop_back();
    return slot;
  }

  void finish_cta(std::uint32_t record_slot, CtaOutcome&& outcome, const CtaTimeUses& time_use,
                  sim::SimTime skipped_time) {
    CtaRecord record = std::move(running_ctas_[record_slot]);
    running_ctas_[record_slot] = {};
    free_record_slots_.push_back(record_slot);
    const auto kernel_index = static_cast<std::size_t>(record.kernel);
    KernelState& state = kernels_[kernel_index];
    scheduler_.release({record.sm, record.slot}, state.demand);
    record.finished = simulator_.now();
    record.outcome = std::move(outcome);
    if (moves_times_) {
      shift_times(record, running_offsets_[record_slot]);
      record.finished += skipped_time;  // its outcome's later times are moved already
    }
    if (fast_forward_) fast_forward_->note_finished(record, time_use);
    KernelRecord& kernel = result_.kernels[kernel_index];
    kernel.traffic += record.outcome.traffic;
    kernel.flops += record.outcome.flops;
    if (attribute_time_) kernel.time_use_per_sm[static_cast<std::size_t>(record.sm)] += time_use;
    result_.ctas.push_back(std::move(record));
    if (++state.finished_ctas == state.launch->cta_count) {
      // Every kernel pays its own ramp and drain; the plan's last kernel to
      // end also pays the run's fixed cost once (the largest of its
      // kernels'): back-to-back kernels overlap that, as an empty graph
      // node's ~0.8 us shows.
      const double run_fixed_s = ++finished_kernels_ == plan_.kernels.size() ? plan_fixed_s() : 0;
      const double fixed_s = state.launch->ramp_and_drain_s + run_fixed_s;
      if (fixed_s > 0) {
        result_.kernels[kernel_index].fixed_overhead = sim::SimTime::from_seconds(fixed_s);
        simulator_.schedule_at(simulator_.now() + result_.kernels[kernel_index].fixed_overhead,
                               sim::EventPriority::normal,
                               [this, kernel_index] { finish_kernel(kernel_index); });
      } else {
        finish_kernel(kernel_index);
      }
    }
    dispatch();
  }

  // Whether the flops not begun yet (SimulationOptions::work_flops), at the
  // GPU's peak rate at the fastest clock any kernel may run at (1 for a kernel
  // whose clock is estimated when it starts, until it does), end the run past
  // its time limit; or the tensor flops not begun yet of the CTAs on `sm`, the
  // SM whose step just began, at its share of that rate (each SM's tensor
  // cores run its CTAs' MMAs one after another, bench/README.md round 20).
  // Not once a skip has moved times: a wave skip's CTAs'
  // flops are never begun, and the unit fast-forward moves times when it is
  // armed but adds each CTA's skipped flops only when that CTA jumps (counting
  // them twice stopped 4096x15360x5120's pure Stream-K, the winner). A skip
  // still to come shortens engine time, but its results move by the skipped
  // work's measured period, which ran at no more than the peak rate (within
  // the fast-forwards' tolerance, kSkipTolerance). After its last CTA the run
  // still pays its fixed costs (least_time_after_last_cta).
  bool cannot_end_in_time(int sm) const {
    if (work_flops_ <= 0 || !time_limit_set_ || time_limit_ == sim::SimTime::infinite() ||
        offset() != sim::SimTime{}) {
      return false;
    }
    double fastest_clock = 0;
    for (const KernelState& kernel : kernels_) {
      fastest_clock = std::max(fastest_clock, kernel.clock_fraction);
    }
    const double peak_flops_per_s = peak_flops_per_s_ * fastest_clock * kSkipTolerance;
    const double left_flops =
        std::max(work_flops_ - executor_.flops_begun(),
                 executor_.tensor_flops_left(sm) * static_cast<double>(spec_.sm.count));
    if (left_flops <= 0) return false;
    return (time_limit_ - simulator_.now() - time_after_last_cta_).seconds() <
           left_flops / peak_flops_per_s;
  }

  // Whether a CTA still to dispatch cannot end in time: none is dispatched
  // before a resident CTA ends (dispatch() hands out CTAs as long as there is
  // room), which takes at least the tensor flops it has not begun at its SM's
  // share of the peak (one CTA per SM), and then it takes its dispatch and its
  // own tensor flops at that share: the next CTA's, while its program is one
  // the load estimate built (bounds_dispatch). Asked every kDispatchCheckSteps
  // steps: its scan of the SMs costs more than a step, and asking less often
  // only stops a run later.
  bool cannot_dispatch_in_time() {
    constexpr std::uint32_t kDispatchCheckSteps = 64;
    if (!dispatch_bounded_ || ++steps_since_dispatch_check_ < kDispatchCheckSteps) return false;
    steps_since_dispatch_check_ = 0;
    const KernelState& kernel = kernels_.front();
    const auto next = static_cast<std::size_t>(kernel.next_cta);
    if (next >= prebuilt_programs_.front().size() || !time_limit_set_ ||
        time_limit_ == sim::SimTime::infinite() || offset() != sim::SimTime{}) {
      return false;
    }
    double next_flops = 0;
    for (const CtaStep& step : prebuilt_programs_.front()[next].steps) {
      if (step.unit == ExecutionUnit::tensor) next_flops += step.flops;
    }
    const double sm_flops_per_s = peak_flops_per_s_ * kernel.clock_fraction * kSkipTolerance /
                                  static_cast<double>(spec_.sm.count);
    double first_free_flops = std::numeric_limits<double>::infinity();
    for (int sm = 0; sm < spec_.sm.count; ++sm) {
      first_free_flops = std::min(first_free_flops, executor_.tensor_flops_left(sm));
    }
    const double left_s = (first_free_flops + next_flops) / sm_flops_per_s;
    return (time_limit_ - simulator_.now() - time_after_last_cta_ - cta_dispatch_).seconds() <
           left_s;
  }

  // What the run pays at least after its last CTA ends: the kernel that ends
  // last pays its ramp and drain and the plan's fixed cost (finish_cta). None
  // when a kernel has no CTAs (it ends without them).
  sim::SimTime least_time_after_last_cta() const {
    if (plan_.kernels.empty()) return {};
    double ramp_and_drain_s = std::numeric_limits<double>::infinity();
    for (const KernelLaunch& launch : plan_.kernels) {
      if (launch.cta_count == 0) return {};
      ramp_and_drain_s = std::min(ramp_and_drain_s, launch.ramp_and_drain_s);
    }
    return sim::SimTime::from_seconds(ramp_and_drain_s + plan_fixed_s());
  }

  double plan_fixed_s() const {
    double fixed_s = 0;
    for (const KernelLaunch& launch : plan_.kernels)
      fixed_s = std::max(fixed_s, launch.fixed_overhead_s);
    return fixed_s;
  }

  void finish_kernel(std::size_t index) {
    KernelState& state = kernels_[index];
    state.finished = true;
    result_.kernels[index].end = simulator_.now() + offset();
    std::erase(active_, index);
    for (const std::size_t dependent : state.dependents) {
      KernelState& waiting = kernels_[dependent];
      --waiting.unfinished_dependencies;
      waiting.dependencies_end = std::max(waiting.dependencies_end, simulator_.now());
      schedule_start_if_ready(dependent);
    }
  }

  void sample_bandwidth() {
    const sim::FluidNetwork& network = resources_.network();
    BandwidthSample sample{simulator_.now() + offset(),
                           network.usage_per_ps(resources_.hbm()) * 1e12,
                           network.usage_per_ps(resources_.l2()) * 1e12};
    if (!result_.bandwidth.empty() && result_.bandwidth.back().time == sample.time) {
      result_.bandwidth.back() = sample;
    } else {
      result_.bandwidth.push_back(sample);
    }
  }

  // Added to engine times: the waves and the units skipped so far.
  sim::SimTime offset() const {
    return (fast_forward_ ? fast_forward_->offset() : sim::SimTime{}) +
           executor_.skipped_unit_time();
  }

  // A skip moves every later time, so only while one kernel runs and no other
  // has a launch or start still to come.
  bool may_fast_forward() const {
    return active_.size() == 1 && arrived_kernels_ == plan_.kernels.size() && pending_starts_ == 0;
  }

  const KernelPlan& plan_;
  std::vector<double> clock_fractions_;
  bool estimate_clocks_;
  std::vector<std::vector<CtaProgram>> prebuilt_programs_;  // the estimate's, taken as CTAs start
  const hw::HardwareSpec& spec_;
  sim::Simulator simulator_;
  GpuResources resources_;
  BlockScheduler scheduler_;
  CtaExecutor executor_;
  CtaProgramStore* program_store_;   // not owned; may be null (SimulationOptions)
  KernelLoadReplays* load_replays_;  // not owned; may be null (SimulationOptions)
  sim::SimTime dependency_gap_;
  bool attribute_time_;
  double stop_after_s_;
  bool time_limit_set_ = false;  // at the first CTA's dispatch
  sim::SimTime time_limit_ = sim::SimTime::infinite();
  double work_flops_;
  double peak_flops_per_s_;
  bool fast_forward_waves_;
  bool moves_times_;  // a fast-forward may move later times: records keep their offsets
  sim::SimTime time_after_last_cta_;  // least_time_after_last_cta
  sim::SimTime cta_dispatch_;         // a CTA's start delay (CtaExecutor::run)
  bool dispatch_bounded_ = false;     // bounds_dispatch, once the kernel starts
  std::uint32_t steps_since_dispatch_check_ = 0;
  std::optional<WaveFastForward> fast_forward_;  // with fast_forward_waves_ only
  std::vector<KernelState> kernels_;
  std::size_t arrived_kernels_ = 0;
  std::size_t pending_starts_ = 0;       // kernels whose start is scheduled but not yet reached
  std::size_t finished_kernels_ = 0;     // kernels whose last CTA has ended
  std::vector<std::size_t> active_;      // started and still dispatching or running, in start order
  std::vector<CtaRecord> running_ctas_;  // slots, reused through free_record_slots_
  std::vector<std::uint32_t> free_record_slots_;
  std::vector<sim::SimTime> running_offsets_;  // per record slot: the offset at its dispatch
  SimulationResult result_;
};

}  // namespace

SimulationOverBudget::SimulationOverBudget(double effort_events)
    : std::runtime_error(
          fmt::format("simulation stopped after {:.3g} events of effort", effort_events)),
      effort_events_(effort_events) {}

SimulationResult simulate(const KernelPlan& plan, const hw::HardwareSpec& spec,
                          const SimulationOptions& options) {
  if (spec.power.limit_w <= 0) return GpuRun(plan, spec, options, {}).run();
  if (options.estimate_power_load) return GpuRun(plan, spec, options, {}, true).run();
  // The power law: a first run with every kernel at sm.clock measures each
  // kernel's load (busy SMs, tensor flops and DRAM bytes per second); the clock
  // at which that load fits the limit is the one the second run uses. When
  // every kernel fits at sm.clock, the first run is the answer.
  // The first run is never stopped early: its load sets the clock.
  const std::vector<double> at_max(plan.kernels.size(), 1.0);
  SimulationOptions probe_options = options;
  probe_options.stop_after_s = std::numeric_limits<double>::infinity();
  SimulationResult probe = GpuRun(plan, spec, probe_options, at_max).run();
  std::vector<double> fractions;
  fractions.reserve(plan.kernels.size());
  for (std::size_t i = 0; i < plan.kernels.size(); ++i) {
    const KernelRecord& record = probe.kernels[i];
    const double time_s = (record.end - record.fixed_overhead - record.start).seconds();
    hw::KernelLoad load;
    load.busy_sms = busy_sms(plan.kernels[i], record, spec.sm.count);
    load.clock_hz = spec.sm.clock_hz;
    if (time_s > 0) {
      load.flops_per_s = record.flops * plan.kernels[i].tensor_energy_fraction / time_s;
      load.hbm_bytes_per_s = record.traffic.hbm_bytes() / time_s;
    }
    fractions.push_back(hw::power_limited_clock_hz(spec.power, spec.sm.clock_hz, load) /
                        spec.sm.clock_hz);
  }
  if (fractions == at_max) {
    // The probe is the answer, judged against the limit the caller set.
    probe.stopped = ran_past(probe, options.stop_after_s);
    return probe;
  }
  return GpuRun(plan, spec, options, std::move(fractions)).run();
}

}  // namespace tilesim::gpu
