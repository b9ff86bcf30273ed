#include "workloads/sweep/sweep_loader.hpp"

#include <gtest/gtest.h>

#include "tests/hwmodels/config_test_support.hpp"
#include "workloads/study_runner.hpp"

namespace tilesim::workloads {
namespace {

using tilesim::testing::HasDiagnostic;

// `other` stands for any second schedule: the loader only checks names.
SweepLoadOptions options() {
  SweepLoadOptions load;
  load.config_dir = TILESIM_CONFIG_DIR;
  load.schedule_names = {"data_parallel", "other"};
  return load;
}

config::Loaded<SweepSpec> load(std::string_view text, const SweepLoadOptions& with = options()) {
  return load_sweep_text(std::string(text), "sweep.yaml", with);
}

// 1-based column of `needle` on 1-based line `line` of `text`.
int column(std::string_view text, int line, std::string_view needle) {
  std::size_t start = 0;
  for (int i = 1; i < line; ++i) start = text.find('\n', start) + 1;
  const std::string_view row = text.substr(start, text.find('\n', start) - start);
  return static_cast<int>(row.find(needle)) + 1;
}

constexpr std::string_view kGrid = R"(hardware: h100_sxm
workload:
  gemm: {m: 1536, n: 1536, k: 1536, dtype: bf16}
schedules: [data_parallel, other]
vary:
  - key: gemm.m
    values: [256, 512, 1024]
  - key: hw.l2.capacity
    range: {from: "25 MiB", to: "100 MiB", factor: 2}
plot: {y: tflops, title: Grid}
)";

TEST(LoadSweep, ExpandsTheCartesianProductFirstKeyOutermost) {
  const auto loaded = load(kGrid);
  ASSERT_TRUE(loaded.ok()) << loaded.diagnostics.format();
  const SweepSpec& spec = *loaded.value;
  ASSERT_EQ(spec.axes.size(), 2u);
  EXPECT_EQ(spec.axes[0].target, SweepTarget::workload);
  EXPECT_EQ(spec.axes[1].target, SweepTarget::hardware_field);
  EXPECT_EQ(spec.axes[1].hardware_key(), "l2.capacity");
  EXPECT_EQ(spec.axes[1].unit, "MiB");
  EXPECT_EQ(spec.axes[1].label(), "hw.l2.capacity (MiB)");
  EXPECT_EQ(spec.point_count(), 9u);
  EXPECT_EQ(spec.schedules, (std::vector<std::string>{"data_parallel", "other"}));
  EXPECT_EQ(spec.plot_y, PlotMetric::tflops);
  EXPECT_EQ(spec.plot_title, "Grid");
  // One spec per distinct hardware.
  ASSERT_EQ(spec.hardware.size(), 3u);
  ASSERT_EQ(spec.jobs.size(), 18u);
  const std::vector<std::int64_t> m = {256, 512, 1024};
  const std::vector<double> l2_mib = {25, 50, 100};
  for (std::size_t job = 0; job < spec.jobs.size(); ++job) {
    const SweepJob& run = spec.jobs[job];
    EXPECT_EQ(run.point, job / 2);
    const auto& gemm = std::get<GemmWorkload>(run.workload);
    EXPECT_EQ(gemm.schedule, job % 2 == 0 ? "data_parallel" : "other");
    EXPECT_EQ(gemm.name, "point");
    const std::vector<std::size_t> at = spec.value_indices(run.point);
    EXPECT_EQ(at[0], run.point / 3);
    EXPECT_EQ(at[1], run.point % 3);
    EXPECT_EQ(gemm.problem.m, m[at[0]]);
    EXPECT_EQ(spec.hardware.at(run.hardware).l2.capacity_bytes, l2_mib[at[1]] * (1 << 20));
  }
}

TEST(LoadSweep, DefaultsToTheWorkloadsScheduleAndCreatesMissingMaps) {
  const auto loaded = load(R"(hardware: h100_sxm
workload:
  name: shape
  gemm: {m: 1536, n: 1536, k: 1536, dtype: bf16}
  schedule: other
vary:
  - key: tile.m
    values: [64, 128]
)");
  ASSERT_TRUE(loaded.ok()) << loaded.diagnostics.format();
  EXPECT_EQ(loaded.value->schedules, std::vector<std::string>{"other"});
  ASSERT_EQ(loaded.value->jobs.size(), 2u);
  const auto& gemm = std::get<GemmWorkload>(loaded.value->jobs[1].workload);
  EXPECT_EQ(gemm.tile.m, 128);
  EXPECT_EQ(gemm.name, "shape");
  EXPECT_EQ(loaded.value->plot_y, PlotMetric::time_us);
}

TEST(LoadSweep, SchedulesOfAnAttentionSweepAreVariants) {
  const auto loaded = load(R"(hardware: h100_sxm
workload:
  attention: {batch: 1, heads: 8, kv_heads: 8, q_len: 1, kv_len: 4096, head_dim: 128}
schedules: [flash_decoding, stream_k_decode]
vary:
  - key: attention.kv_len
    values: [1024, 8192]
)");
  ASSERT_TRUE(loaded.ok()) << loaded.diagnostics.format();
  ASSERT_EQ(loaded.value->jobs.size(), 4u);
  const auto& last = std::get<AttentionWorkload>(loaded.value->jobs[3].workload);
  EXPECT_EQ(last.variant, "stream_k_decode");
  EXPECT_EQ(last.shape.kv_lens, std::vector<std::int64_t>{8192});
}

TEST(LoadSweepProblems, AnUnknownVariantIsReportedAtItsSchedule) {
  constexpr std::string_view kText = R"(hardware: h100_sxm
workload:
  attention: {batch: 1, heads: 8, kv_heads: 8, q_len: 1, kv_len: 4096, head_dim: 128}
schedules: [flash_decoding, flash_decodng]
vary:
  - key: attention.kv_len
    values: [1024]
)";
  const auto loaded = load(kText);
  EXPECT_TRUE(HasDiagnostic(loaded.diagnostics, 4, column(kText, 4, "flash_decodng"),
                            "schedules[1]", "flash_decodng"));
}

TEST(LoadSweepProblems, ALayerHasNoSchedules) {
  const auto loaded = load(R"(hardware: h100_sxm
workload:
  layer: {phase: decode, batch: 1, context: 1024}
schedules: [data_parallel]
vary:
  - key: layer.batch
    values: [1, 2]
)");
  EXPECT_TRUE(HasDiagnostic(loaded.diagnostics, 4, 13, "schedules[0]", "vary `layer.launch`"));
  EXPECT_EQ(loaded.diagnostics.items().size(), 1u) << loaded.diagnostics.format();
}

TEST(LoadSweep, VariesTheHardwareByName) {
  const auto loaded = load(R"(hardware: h100_sxm
workload:
  gemm: {m: 1536, n: 1536, k: 1536, dtype: bf16}
vary:
  - key: hardware
    values: [h100_sxm, h200_sxm]
)");
  ASSERT_TRUE(loaded.ok()) << loaded.diagnostics.format();
  ASSERT_EQ(loaded.value->hardware.size(), 2u);
  EXPECT_EQ(loaded.value->hardware[loaded.value->jobs[1].hardware].name, "h200_sxm");
  EXPECT_FALSE(loaded.value->axes[0].numeric());
}

TEST(LoadSweep, ShippedExamplesLoad) {
  SweepLoadOptions shipped = options();
  shipped.schedule_names = study_schedule_names(builtin_gemm_schedules());
  for (const char* name : {"stream_k_vs_m.yaml", "l2_capacity.yaml"}) {
    const auto loaded =
        load_sweep(std::filesystem::path(TILESIM_CONFIG_DIR) / "sweeps" / name, shipped);
    EXPECT_TRUE(loaded.ok()) << name << "\n" << loaded.diagnostics.format();
  }
}

TEST(SweepReference, EveryKeyIsDocumented) {
  const std::vector<config::ReferenceSection> sections = sweep_reference_sections();
  ASSERT_EQ(sections.size(), 2u);
  std::vector<std::string> keys;
  for (const config::ReferenceSection& section : sections) {
    for (const config::Param& param : section.params) {
      EXPECT_FALSE(param.doc.empty()) << param.key;
      keys.push_back(section.key_prefix + param.key);
    }
  }
  for (const char* key : {"hardware", "workload", "schedules", "vary", "plot.y", "plot.title",
                          "vary[].key", "vary[].values", "vary[].range.from", "vary[].range.to",
                          "vary[].range.step", "vary[].range.factor"}) {
    EXPECT_NE(std::find(keys.begin(), keys.end(), key), keys.end()) << key;
  }
}

// Every problem of the file at once, each at its line and column.
constexpr std::string_view kBad = R"(hardware: h100_sxm
workload:
  gemm: {m: 1536, n: 1536, k: 1536, dtype: bf16}
  tyle: {m: 128}
schedules: [data_parallel, othr]
vary:
  - key: gemm.mm
    values: [256, 512]
  - key: hw.l2.capcity
    values: ["25 MiB"]
plott: {y: time_us}
)";

TEST(LoadSweepProblems, AreReportedTogetherAtTheirPositions) {
  const auto loaded = load(kBad);
  ASSERT_FALSE(loaded.ok());
  const config::Diagnostics& problems = loaded.diagnostics;
  EXPECT_TRUE(HasDiagnostic(problems, 4, 3, "workload.tyle", "did you mean `tile`?"));
  EXPECT_TRUE(HasDiagnostic(problems, 5, column(kBad, 5, "othr"), "schedules[1]",
                            "unknown value `othr`; did you mean `other`?"));
  EXPECT_TRUE(HasDiagnostic(problems, 7, column(kBad, 7, "gemm.mm"), "vary[0].key",
                            "gemm.mm: unknown key `mm`; did you mean `m`?"));
  EXPECT_TRUE(HasDiagnostic(problems, 9, column(kBad, 9, "hw.l2"), "vary[1].key",
                            "unknown key `capcity`; did you mean `capacity`?"));
  EXPECT_TRUE(HasDiagnostic(problems, 11, 1, "plott", "did you mean `plot`?"));
  EXPECT_EQ(problems.size(), 5u) << problems.format();
  for (const config::Diagnostic& problem : problems.items()) {
    EXPECT_EQ(problem.where.file, "sweep.yaml");
  }
}

constexpr std::string_view kBadValues = R"(hardware: h100_sxm
workload:
  gemm: {n: 1536, k: 1536, dtype: bf16}
vary:
  - key: gemm.m
    values: [256, 0, 512]
  - key: hw.l2.capacity
    values: ["1 KiB", "50 MiB"]
)";

TEST(LoadSweepProblems, BadValuesAreReportedAtTheValue) {
  const auto loaded = load(kBadValues);
  ASSERT_FALSE(loaded.ok());
  const config::Diagnostics& problems = loaded.diagnostics;
  EXPECT_TRUE(HasDiagnostic(problems, 6, column(kBadValues, 6, "0,"), "vary[0].values[1]",
                            "gemm.m: must be > 0, got \"0\""));
  EXPECT_TRUE(HasDiagnostic(problems, 8, column(kBadValues, 8, "\"1 KiB"), "vary[1].values[0]",
                            "hw.l2.capacity: \"1 KiB\" is out of range"));
  EXPECT_EQ(problems.size(), 2u) << problems.format();
}

constexpr std::string_view kBadRanges = R"(hardware: h100_sxm
workload:
  gemm: {n: 1536, k: 1536, dtype: bf16}
vary:
  - key: gemm.m
    range: {from: 512, to: 256, step: 128}
  - key: hw.l2.capacity
    range: {from: "25 MiB", to: "200 MiB", factr: 2}
)";

TEST(LoadSweepProblems, BadRanges) {
  const auto loaded = load(kBadRanges);
  ASSERT_FALSE(loaded.ok());
  const config::Diagnostics& problems = loaded.diagnostics;
  EXPECT_TRUE(HasDiagnostic(problems, 6, column(kBadRanges, 6, "256"), "vary[0].range.to",
                            "less than `from`"));
  EXPECT_TRUE(HasDiagnostic(problems, 8, column(kBadRanges, 8, "factr"), "vary[1].range.factr",
                            "did you mean `factor`?"));
  EXPECT_TRUE(HasDiagnostic(problems, 8, column(kBadRanges, 8, "{"), "vary[1].range",
                            "give either `step`"));
  EXPECT_EQ(problems.size(), 3u) << problems.format();
}

constexpr std::string_view kBadEntries = R"(hardware: h100_sxm
workload:
  gemm: {m: 1536, n: 1536, k: 1536, dtype: bf16}
  schedule: data_parallel
schedules: [data_parallel]
vary:
  - key: schedule
    values: [data_parallel]
  - key: gemm.m
  - key: gemm.n
    values: [1]
)";

TEST(LoadSweepProblems, BadEntries) {
  const auto loaded = load(kBadEntries);
  ASSERT_FALSE(loaded.ok());
  const config::Diagnostics& problems = loaded.diagnostics;
  EXPECT_TRUE(HasDiagnostic(problems, 4, 3, "workload.schedule", "remove one of them"));
  EXPECT_TRUE(HasDiagnostic(problems, 7, 10, "vary[0].key", "top-level `schedules:`"));
  EXPECT_TRUE(HasDiagnostic(problems, 9, 5, "vary[1]", "missing `values` (a list) or `range`"));
  EXPECT_TRUE(HasDiagnostic(problems, 10, 5, "vary[2]", "at most 2 keys can be varied"));
  EXPECT_EQ(problems.size(), 4u) << problems.format();
}

TEST(LoadSweepProblems, TileThatDoesNotFitNamesTheValueAndThePoint) {
  const auto loaded = load(R"(hardware: h100_sxm
workload:
  gemm: {m: 1536, n: 1536, k: 1536, dtype: bf16}
  tile: {n: 256, k: 64}
vary:
  - key: tile.m
    values: [128, 256]
  - key: tile.stages
    values: [2, 4]
)");
  ASSERT_FALSE(loaded.ok());
  EXPECT_TRUE(HasDiagnostic(loaded.diagnostics, 9, 17, "vary[1].values[1]",
                            "tile.stages: the pipeline needs 4 stages x (256x64 + 256x64)"));
  EXPECT_TRUE(HasDiagnostic(loaded.diagnostics, 9, 17, "vary[1].values[1]",
                            "(at tile.m = 256, tile.stages = 4)"));
  EXPECT_EQ(loaded.diagnostics.size(), 1u) << loaded.diagnostics.format();
}

TEST(LoadSweepProblems, ProblemOfTheWholeWorkloadAtALaterPointNamesThePoint) {
  const auto loaded = load(R"(hardware: h100_sxm
workload:
  gemm: {m: 1536, n: 1536, k: 1536, dtype: bf16}
  tile: {m: 256, n: 256, stages: 4}
vary:
  - key: hw.sm.shared_memory.per_cta_max
    values: ["227 KiB", "200 KiB"]
)");
  ASSERT_FALSE(loaded.ok());
  // 256 KiB does not fit either, so the first point's problem is reported as it is.
  EXPECT_TRUE(HasDiagnostic(loaded.diagnostics, 3, 3, "workload.tile.stages", "(227 KiB)"));
  EXPECT_TRUE(HasDiagnostic(loaded.diagnostics, 3, 3, "workload.tile.stages",
                            "(at hw.sm.shared_memory.per_cta_max = 200 KiB)"));
  EXPECT_EQ(loaded.diagnostics.size(), 2u) << loaded.diagnostics.format();
}

TEST(LoadSweepProblems, UnknownHardwareAndConflictingOverrides) {
  constexpr std::string_view kText = R"(hardware: h100_sxm
workload:
  gemm: {m: 1536, n: 1536, k: 1536, dtype: bf16}
vary:
  - key: hardware
    values: [h100_sxm, h300]
  - key: hw.hbm.bandwidth
    values: ["3 TB/s"]
)";
  SweepLoadOptions with = options();
  with.overrides = {{"hbm.bandwidth", "4 TB/s"}};
  with.hardware_override = "h200_sxm";
  const auto loaded = load(kText, with);
  ASSERT_FALSE(loaded.ok());
  const config::Diagnostics& problems = loaded.diagnostics;
  EXPECT_TRUE(HasDiagnostic(problems, 6, column(kText, 6, "h300"), "vary[0].values[1]",
                            "unknown hardware `h300`"));
  EXPECT_TRUE(HasDiagnostic(problems, 7, 10, "vary[1].key", "also set by --set"));
  EXPECT_TRUE(HasDiagnostic(problems, 0, 0, "", "--hw cannot be used"));
}

// Points are read on several threads in rounds; what comes out is the same as
// with one thread: the jobs in point order, the GPUs in the order of first use,
// the problems and where their listing stops.
SweepLoadOptions on_threads(int threads) {
  SweepLoadOptions with = options();
  with.threads = threads;
  return with;
}

TEST(LoadSweep, ReadsPointsOnThreadsInPointOrder) {
  // 3 rounds of points, with a GPU per l2.capacity value.
  constexpr std::string_view kText = R"(hardware: h100_sxm
workload:
  gemm: {m: 1536, n: 1536, k: 1536, dtype: bf16}
vary:
  - key: gemm.m
    range: {from: 128, to: 12800, step: 128}
  - key: hw.l2.capacity
    values: ["25 MiB", "50 MiB", "100 MiB"]
)";
  const auto one = load(kText, on_threads(1));
  const auto four = load(kText, on_threads(4));
  ASSERT_TRUE(one.ok()) << one.diagnostics.format();
  ASSERT_TRUE(four.ok()) << four.diagnostics.format();
  ASSERT_EQ(one.value->jobs.size(), 300u);
  ASSERT_EQ(four.value->jobs.size(), 300u);
  ASSERT_EQ(four.value->hardware.size(), 3u);
  for (std::size_t i = 0; i < 300; ++i) {
    const SweepJob& a = one.value->jobs[i];
    const SweepJob& b = four.value->jobs[i];
    EXPECT_EQ(b.number, i);
    EXPECT_EQ(b.point, i);
    EXPECT_EQ(b.hardware, a.hardware);
    EXPECT_EQ(b.hardware, i % 3);
    EXPECT_EQ(std::get<GemmWorkload>(b.workload).problem.m,
              std::get<GemmWorkload>(a.workload).problem.m);
    EXPECT_EQ(std::get<GemmWorkload>(b.workload).problem.m,
              128 * static_cast<std::int64_t>(i / 3 + 1));
  }
  for (std::size_t i = 0; i < 3; ++i) {
    EXPECT_EQ(four.value->hardware[i].l2.capacity_bytes, one.value->hardware[i].l2.capacity_bytes);
  }
}

TEST(LoadSweepProblems, AreTheSameOnThreadsAndStopAtTheSamePoint) {
  // Every point's tile is too large, each problem naming its point.
  constexpr std::string_view kText = R"(hardware: h100_sxm
workload:
  gemm: {m: 1536, n: 1536, k: 1536, dtype: bf16}
  tile: {m: 256, n: 256, k: 64}
vary:
  - key: gemm.m
    range: {from: 128, to: 38400, step: 128}
  - key: tile.stages
    values: [6]
)";
  const auto one = load(kText, on_threads(1));
  const auto four = load(kText, on_threads(4));
  ASSERT_FALSE(one.ok());
  EXPECT_TRUE(HasDiagnostic(four.diagnostics, 6, 10, "vary", "more than 20 points have problems"));
  EXPECT_EQ(four.diagnostics.size(), 21u) << four.diagnostics.format();
  EXPECT_EQ(four.diagnostics.format(), one.diagnostics.format());
}

}  // namespace
}  // namespace tilesim::workloads
