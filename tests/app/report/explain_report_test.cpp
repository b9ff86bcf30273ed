// The reports of tilesim explain, roofline and hierarchy: text that names the
// bound and the breakdown, JSON with every cause, and SVGs that are
// well-formed XML with the ceilings, roofs and levels drawn.

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "app/explain/memory_hierarchy.hpp"
#include "app/explain/run_explanation.hpp"
#include "app/report/explain_json.hpp"
#include "app/report/explain_text.hpp"
#include "app/report/hierarchy_svg.hpp"
#include "app/report/hierarchy_table.hpp"
#include "app/report/roofline_svg.hpp"
#include "tests/support/shipped_hardware.hpp"
#include "tests/support/well_formed_xml.hpp"
#include "workloads/study_loader.hpp"
#include "workloads/study_runner.hpp"

namespace tilesim::report {
namespace {

using testing::IsWellFormedXml;

std::vector<explain::RunExplanation> explain_decode() {
  const hw::HardwareSpec spec = testing::shipped_hardware("h100_sxm");
  const workloads::GemmScheduleRegistry schedules = workloads::builtin_gemm_schedules();
  config::Loaded<workloads::Study> study = workloads::load_study_text(
      "hardware: h100_sxm\nworkloads:\n  - name: decode\n    gemm: {m: 16, n: 8192, k: 8192, "
      "dtype: bf16}\n"
      "    tile: {m: 64, n: 128, k: 64}\n",
      "test.yaml", workloads::study_schedule_names(schedules));
  EXPECT_TRUE(study.ok()) << study.diagnostics.format();
  if (!study.ok()) return {};
  auto explained = explain::explain_study(*study.value, spec, schedules);
  EXPECT_TRUE(explained.ok()) << explained.diagnostics.format();
  return explained.ok() ? *explained.value : std::vector<explain::RunExplanation>{};
}

std::size_t count(const std::string& text, const std::string& needle) {
  std::size_t found = 0;
  for (std::size_t at = text.find(needle); at != std::string::npos;
       at = text.find(needle, at + 1)) {
    ++found;
  }
  return found;
}

TEST(ExplainText, NamesTheBoundTheBreakdownAndTheWhatIfs) {
  const std::string text = explain_text(explain_decode());
  EXPECT_NE(text.find("bound: bandwidth-bound at HBM"), std::string::npos) << text;
  EXPECT_NE(text.find("HBM bandwidth"), std::string::npos) << text;
  EXPECT_NE(text.find("total"), std::string::npos) << text;
  EXPECT_NE(text.find("2x HBM bandwidth"), std::string::npos) << text;
  EXPECT_NE(text.find("as stream_k"), std::string::npos) << text;
}

TEST(ExplainJson, HasEveryCauseAndTheWhatIfs) {
  const std::vector<explain::RunExplanation> explained = explain_decode();
  ASSERT_EQ(explained.size(), 1u);
  const nlohmann::ordered_json json = explain_json(explained.front());
  EXPECT_EQ(json["bound"], "hbm");
  ASSERT_EQ(json["breakdown_us"].size(), explain::kTimeCauseCount);
  double total = 0;
  for (const auto& [cause, us] : json["breakdown_us"].items()) total += us.get<double>();
  EXPECT_NEAR(total, json["time_us"].get<double>(), 1e-6);
  EXPECT_GT(json["roofline"]["hbm_ridge_flops_per_byte"].get<double>(), 300);
  EXPECT_GE(json["what_if"].size(), 3u);
}

TEST(RooflineSvg, IsWellFormedWithEveryRoofAndMark) {
  RooflineChart chart;
  chart.title = "a <roofline> & more";
  chart.bandwidth_ceilings = {{"HBM", 3e12}, {"L2", 7e12}};
  chart.compute_roofs = {{"tensor", 1e15}, {"fp32", 6e13}};
  chart.marks = {{"decode", 16, 4.8e13, RooflineMarkShape::circle, std::nullopt},
                 {"decode", 14, 4.8e13, RooflineMarkShape::hollow_square, 0},
                 {"measured", 16, 4e13, RooflineMarkShape::square, 0}};
  chart.shape_notes = {{RooflineMarkShape::circle, "predicted"},
                       {RooflineMarkShape::square, "measured"},
                       {RooflineMarkShape::hollow_square, "at L2"}};
  const std::string svg = render_roofline(chart);
  EXPECT_TRUE(IsWellFormedXml(svg)) << svg;
  EXPECT_NE(svg.find("a &lt;roofline&gt; &amp; more"), std::string::npos);
  // Two ceilings, two dashed roofs, two dashed joins; 2 + 1 legend circles.
  EXPECT_EQ(count(svg, R"(stroke-dasharray="6 3")"), 2u);
  EXPECT_EQ(count(svg, R"(stroke-dasharray="2 2")"), 2u);
  EXPECT_EQ(count(svg, "<circle"), 1u + 2u + 1u);
}

TEST(HierarchyReports, TableAndSvgShowEveryLevel) {
  const hw::HardwareSpec spec = testing::shipped_hardware("h100_sxm");
  const std::vector<explain::MemoryLevel> levels = explain::memory_hierarchy(spec);
  const std::string table = hierarchy_table(spec, levels);
  EXPECT_NE(table.find("registers"), std::string::npos) << table;
  EXPECT_NE(table.find("50 MiB"), std::string::npos) << table;
  EXPECT_NE(table.find("3.09 TB/s"), std::string::npos) << table;
  const std::string svg = hierarchy_svg(spec, levels);
  EXPECT_TRUE(IsWellFormedXml(svg)) << svg;
  EXPECT_EQ(count(svg, "<rect"), 1u + levels.size());  // background + one per level
  EXPECT_NE(svg.find("shared memory / L1"), std::string::npos);
}

// Every committed picture (docs/img, golden outputs) parses as XML.
TEST(CommittedSvgs, AreWellFormedXml) {
  const std::filesystem::path root(TILESIM_SOURCE_DIR);
  std::size_t checked = 0;
  for (const char* folder : {"docs/img", "tests/app/cli/golden"}) {
    for (const auto& entry : std::filesystem::directory_iterator(root / folder)) {
      if (entry.path().extension() != ".svg") continue;
      std::ifstream file(entry.path(), std::ios::binary);
      const std::string svg((std::istreambuf_iterator<char>(file)),
                            std::istreambuf_iterator<char>());
      EXPECT_TRUE(IsWellFormedXml(svg)) << entry.path();
      ++checked;
    }
  }
  EXPECT_GE(checked, 3u);
}

}  // namespace
}  // namespace tilesim::report
