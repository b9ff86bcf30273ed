#include "sim/gpu/cta_executor.hpp"

#include <algorithm>
#include <utility>

#include "sim/gpu/sm_load_path.hpp"

namespace tilesim::gpu {
namespace {

constexpr double kPsPerSecond = 1e12;

// A step's time on its execution unit, in busy picoseconds. A file-local
// function, so that the compiler inlines it into begin_step (a member
// function's call cannot be inlined in this position-independent code).
double busy_ps(const CtaStep& step, double tensor_efficiency, const hw::HardwareSpec& spec) {
  if (step.flops <= 0) return 0;
  switch (step.unit) {
    case ExecutionUnit::tensor:
      return step.flops / (spec.sm_mma_flops_per_s(step.mma_type) * tensor_efficiency) *
             kPsPerSecond;
    case ExecutionUnit::fp32:
      return step.flops / spec.sm.fp32_flops_per_s * kPsPerSecond;
    case ExecutionUnit::sfu:
      return step.flops / spec.sm.sfu_ops_per_s * kPsPerSecond;
  }
  return 0;
}

CtaTimeUse unit_time_use(ExecutionUnit unit) {
  switch (unit) {
    case ExecutionUnit::tensor:
      return CtaTimeUse::tensor;
    case ExecutionUnit::fp32:
      return CtaTimeUse::fp32;
    case ExecutionUnit::sfu:
      return CtaTimeUse::sfu;
  }
  return CtaTimeUse::tensor;
}

}  // namespace

CtaExecutor::CtaExecutor(sim::Simulator& simulator, GpuResources& resources,
                         const hw::HardwareSpec& spec, bool attribute_time, bool fast_forward_units,
                         CtaProgramStore* program_store)
    : simulator_(simulator),
      resources_(resources),
      spec_(spec),
      program_store_(program_store),
      attribute_time_(attribute_time),
      l2_(spec.l2.reuse_capacity_bytes(), spec.l2.bandwidth_bytes_per_s, spec.l2.reader_drift),
      flags_(simulator) {
  if (fast_forward_units) unit_fast_forward_.emplace();
  if (attribute_time_) {
    resources_.network().set_limit_observer(
        [this](std::uint32_t owner, sim::ResourceId limit, sim::SimTime duration) {
          add_limited_time(owner, limit, duration);
        });
  }
}

void CtaExecutor::add_limited_time(std::uint32_t running_index, sim::ResourceId limit,
                                   sim::SimTime duration) {
  RunningCta& cta = running_[running_index];
  CtaTimeUse use = cta.own_cap_use;  // the flow's own cap
  if (limit != sim::FluidNetwork::kOwnCap) {
    switch (resources_.kind(limit)) {
      case GpuResourceKind::hbm:
        use = CtaTimeUse::hbm;
        break;
      case GpuResourceKind::l2:
        use = CtaTimeUse::l2;
        break;
      case GpuResourceKind::l2_port:
        use = CtaTimeUse::l2_port;
        break;
      case GpuResourceKind::tensor:
        use = CtaTimeUse::tensor;
        break;
      case GpuResourceKind::fp32:
        use = CtaTimeUse::fp32;
        break;
      case GpuResourceKind::sfu:
        use = CtaTimeUse::sfu;
        break;
    }
  }
  cta.time_use[use] += duration;
}

void CtaExecutor::run(int sm, std::uint32_t kernel, double tensor_efficiency, CtaProgram program,
                      sim::SimTime start_delay, DoneCallback on_done) {
  std::uint32_t index = 0;
  if (free_.empty()) {
    index = static_cast<std::uint32_t>(running_.size());
    running_.emplace_back();
  } else {
    index = free_.back();
    free_.pop_back();
  }
  RunningCta& cta = running_[index];
  cta.sm = sm;
  cta.kernel = kernel;
  cta.program = std::move(program);
  cta.tensor_efficiency = tensor_efficiency * cta.program.tensor_speed;
  cta.next_step = 0;
  // Id 0: in step with every CTA (the L2 model does not smear its sharing).
  ++started_ctas_;
  cta.reader = {cta.program.drifts ? started_ctas_ : 0, (simulator_.now() + start_delay).seconds()};
  cta.on_done = std::move(on_done);
  cta.outcome.segments.reserve(cta.program.segments.size());
  for (const CtaWorkLabel& label : cta.program.segments) {
    cta.outcome.segments.push_back({label, {sim::SimTime::infinite(), sim::SimTime{}}});
  }
  cta.time_use = {};
  cta.skipped_time = {};
  if (on_step_begun_) {
    double tensor_flops = 0;
    for (const CtaStep& step : cta.program.steps) {
      if (step.unit == ExecutionUnit::tensor) tensor_flops += step.flops;
    }
    tensor_flops_left_[static_cast<std::size_t>(sm)] += tensor_flops;
  }
  if (unit_fast_forward_) unit_fast_forward_->started(index);
  if (attribute_time_) cta.time_use[CtaTimeUse::dispatch] += start_delay;
  simulator_.schedule_after(start_delay, sim::EventPriority::normal,
                            [this, index] { start_next_step(index); });
}

CtaExecutor::~CtaExecutor() {
  if (!program_store_) return;
  for (CtaProgram& program : spare_programs_) program_store_->keep(std::move(program));
  for (RunningCta& cta : running_) program_store_->keep(std::move(cta.program));
}

CtaProgram CtaExecutor::spare_program() {
  if (spare_programs_.empty()) return program_store_ ? program_store_->take() : CtaProgram{};
  CtaProgram program = std::move(spare_programs_.back());
  spare_programs_.pop_back();
  return program;
}

void CtaExecutor::start_next_step(std::uint32_t running_index) {
  RunningCta& cta = running_[running_index];
  if (cta.next_step == cta.program.steps.size()) {
    finish(running_index);
    return;
  }
  const bool unit_start = cta.next_step == 0 || cta.program.steps[cta.next_step].segment !=
                                                    cta.program.steps[cta.next_step - 1].segment;
  if (unit_fast_forward_ && unit_start) skip_units(running_index);
  const CtaStep& step = cta.program.steps[cta.next_step];
  if (!cta.outcome.segments.empty()) {
    sim::SimTime& begin = cta.outcome.segments[step.segment].span.begin;
    begin = std::min(begin, simulator_.now() + cta.skipped_time);
  }
  if (!step.wait) {
    begin_step(running_index);
    return;
  }
  const sim::SimTime wait_begin = simulator_.now();
  const bool waited = flags_.wait_until(
      flag_key(cta, step.wait->flag), step.wait->count,
      [this, running_index, wait_begin, wake_s = step.wake_s] {
        if (simulator_.now() == wait_begin || wake_s <= 0) {
          end_wait(running_index, wait_begin);
          return;
        }
        simulator_.schedule_after(
            sim::SimTime::from_seconds(wake_s), sim::EventPriority::normal,
            [this, running_index, wait_begin] { end_wait(running_index, wait_begin); });
      });
  (void)waited;
}

void CtaExecutor::skip_units(std::uint32_t running_index) {
  RunningCta& cta = running_[running_index];
  const std::optional<UnitSkip> skip = unit_fast_forward_->at_unit_start(
      running_index, cta.program, cta.next_step, simulator_.now(), cta.outcome, cta.time_use);
  if (!skip) return;
  // Flops, L2 and write bytes from the skipped steps; HBM reads and time uses
  // as the agreeing units' means; segment spans back to back.
  sim::SimTime unit_begin = simulator_.now();
  for (std::size_t index = cta.next_step; index < skip->end_step; ++index) {
    const CtaStep& step = cta.program.steps[index];
    if (index > cta.next_step && step.segment != cta.program.steps[index - 1].segment) {
      unit_begin += skip->period;
    }
    for (const BlockRead& read : step.reads) {
      cta.outcome.traffic.l2_read_bytes += read.bytes / read.multicast;
    }
    cta.outcome.traffic.write_bytes += step.write_bytes;
    cta.outcome.flops += step.flops;
    flops_begun_ += step.flops;
    if (on_step_begun_ && step.unit == ExecutionUnit::tensor) {
      tensor_flops_left_[static_cast<std::size_t>(cta.sm)] -= step.flops;
    }
    if (!cta.outcome.segments.empty()) {
      cta.outcome.segments[step.segment].span = {unit_begin, unit_begin + skip->period};
    }
  }
  cta.outcome.traffic.hbm_read_bytes +=
      skip->hbm_read_bytes_per_unit * static_cast<double>(skip->units);
  if (attribute_time_) {
    for (std::size_t use = 0; use < kCtaTimeUseCount; ++use) {
      cta.time_use.time[use] += skip->time_use_per_unit.time[use] * skip->units;
    }
  }
  cta.next_step = skip->end_step;
  cta.skipped_time = skip->period * skip->units;
}

void CtaExecutor::end_wait(std::uint32_t running_index, sim::SimTime wait_begin) {
  RunningCta& waiting = running_[running_index];
  if (simulator_.now() > wait_begin) {
    waiting.outcome.waits.push_back(
        {wait_begin + waiting.skipped_time, simulator_.now() + waiting.skipped_time});
    if (attribute_time_) {
      waiting.time_use[CtaTimeUse::flag_wait] += simulator_.now() - wait_begin;
    }
  }
  begin_step(running_index);
}

void CtaExecutor::begin_step(std::uint32_t running_index) {
  RunningCta& cta = running_[running_index];
  const CtaStep& step = cta.program.steps[cta.next_step];

  double read_bytes = 0;
  double l2_read_bytes = 0;
  double missed_bytes = 0;
  l2_.advance_to(simulator_.now().seconds());
  for (const BlockRead& read : step.reads) {
    read_bytes += read.bytes;
    l2_read_bytes += read.bytes / read.multicast;
    missed_bytes += l2_.read(read.key, read.part_begin, read.part_end, read.bytes, cta.reader);
  }
  if (step.write_key) {
    l2_.write(*step.write_key, step.write_bytes);
  } else {
    l2_.write(step.write_bytes);
  }
  cta.outcome.traffic += MemoryTraffic{l2_read_bytes, missed_bytes, step.write_bytes};
  cta.outcome.flops += step.flops;
  flops_begun_ += step.flops;
  if (on_step_begun_) {
    if (step.unit == ExecutionUnit::tensor) {
      tensor_flops_left_[static_cast<std::size_t>(cta.sm)] -= step.flops;
    }
    on_step_begun_(cta.sm);
  }

  const double miss_share = read_bytes > 0 ? missed_bytes / read_bytes : 0;
  const double latency_s = step.read_latency_s > 0 ? step.read_latency_s
                                                   : (1 - miss_share) * spec_.l2.latency_s +
                                                         miss_share * spec_.hbm.latency_s;

  // The first demand sets the unit of the flow's fair share: bytes from L2.
  sim::FlowDemands demands = {
      {resources_.l2(), l2_read_bytes + step.write_bytes},
      {resources_.hbm(), missed_bytes + step.write_bytes},
      {resources_.l2_port(cta.sm), sm_port_bytes(step, read_bytes, spec_)},
      {resources_.unit(cta.sm, step.unit), busy_ps(step, cta.tensor_efficiency, spec_)},
  };
  // A miss passes through its slice twice: HBM's data is written into the
  // data array (the fill) before the SM reads it like a hit.
  if (spec_.l2.slice_bandwidth_bytes_per_s > 0) {
    demands.push_back({resources_.l2_slices(), l2_read_bytes + missed_bytes + step.write_bytes});
  }
  double cap = sim::FluidNetwork::kUncapped;
  if (read_bytes > 0 && step.bytes_in_flight > 0) {
    const double bytes_per_ps = step.bytes_in_flight / (latency_s * kPsPerSecond);
    cap = bytes_per_ps / read_bytes;
  }
  const double min_duration_cap =
      step.min_duration_s > 0 ? 1 / (step.min_duration_s * kPsPerSecond) : cap;
  cta.own_cap_use = min_duration_cap < cap ? unit_time_use(step.unit) : CtaTimeUse::memory_latency;
  cap = std::min(cap, min_duration_cap);
  const double delay_s = step.setup_s + (read_bytes > 0 ? step.first_data_waits * latency_s : 0);
  if (delay_s > 0) {
    if (attribute_time_) {
      // The delay is rounded as a whole; the fill gets what the overhead leaves.
      const sim::SimTime delay = sim::SimTime::from_seconds(delay_s);
      const sim::SimTime overhead = step.setup_s > 0
                                        ? std::min(delay, sim::SimTime::from_seconds(step.setup_s))
                                        : sim::SimTime{};
      cta.time_use[CtaTimeUse::overhead] += overhead;
      cta.time_use[CtaTimeUse::pipeline_fill] += delay - overhead;
    }
    cta.pending_demands = std::move(demands);
    cta.pending_cap = cap;
    simulator_.schedule_after(
        sim::SimTime::from_seconds(delay_s), sim::EventPriority::normal, [this, running_index] {
          RunningCta& waiting = running_[running_index];
          start_flow(running_index, std::move(waiting.pending_demands), waiting.pending_cap);
        });
  } else {
    start_flow(running_index, std::move(demands), cap);
  }
}

void CtaExecutor::start_flow(std::uint32_t running_index, sim::FlowDemands&& demands, double cap) {
  resources_.network().start_flow(
      std::move(demands), cap, [this, running_index] { end_step(running_index); }, running_index);
}

void CtaExecutor::end_step(std::uint32_t running_index) {
  RunningCta& cta = running_[running_index];
  const CtaStep& step = cta.program.steps[cta.next_step++];
  if (!cta.outcome.segments.empty()) {
    cta.outcome.segments[step.segment].span.end = simulator_.now() + cta.skipped_time;
  }
  if (step.signal) flags_.increment(flag_key(cta, *step.signal));
  start_next_step(running_index);
}

void CtaExecutor::finish(std::uint32_t running_index) {
  RunningCta& cta = running_[running_index];
  DoneCallback on_done = std::move(cta.on_done);
  CtaOutcome outcome = std::move(cta.outcome);
  const CtaTimeUses time_use = cta.time_use;
  const sim::SimTime skipped_time = cta.skipped_time;
  for (SegmentSpan& segment : outcome.segments) {
    if (segment.span.begin == sim::SimTime::infinite()) segment.span = {};  // had no steps
  }
  spare_programs_.push_back(std::move(cta.program));
  cta.outcome = {};
  if (unit_fast_forward_) unit_fast_forward_->finished(running_index);
  free_.push_back(running_index);
  on_done(std::move(outcome), time_use, skipped_time);
}

}  // namespace tilesim::gpu
