// Bad `graph:` and `layer:` workloads: one clear error each, at file:line.

#include <gtest/gtest.h>

#include <string>

#include "workloads/gemm/gemm_schedule.hpp"
#include "workloads/study_loader.hpp"
#include "workloads/study_runner.hpp"

namespace tilesim::workloads {
namespace {

std::string problems_of(const std::string& workloads_yaml) {
  config::Loaded<Study> study =
      load_study_text("hardware: h100_sxm\nworkloads:\n" + workloads_yaml, "bad.yaml",
                      study_schedule_names(builtin_gemm_schedules()));
  EXPECT_FALSE(study.ok());
  return study.diagnostics.format();
}

TEST(GraphLoader, AnUnknownKernelInAfterIsNamedWithItsLine) {
  const std::string problems = problems_of(R"(
  - name: g
    graph:
      kernels:
        - {name: a, op: rmsnorm, cols: 4096}
        - {name: b, op: softmax, cols: 4096, after: [c]}
)");
  EXPECT_NE(problems.find("bad.yaml:8:"), std::string::npos) << problems;
  EXPECT_NE(problems.find("workloads[0].graph.kernels[1].after"), std::string::npos) << problems;
  EXPECT_NE(problems.find("no earlier kernel named `c`; earlier kernels: a"), std::string::npos)
      << problems;
}

TEST(GraphLoader, AnInputOfTheWrongShapeIsRejected) {
  const std::string problems = problems_of(R"(
  - name: g
    graph:
      kernels:
        - {name: mm, op: gemm, m: 64, n: 128, k: 256}
        - {name: norm, op: rmsnorm, rows: 64, cols: 256, inputs: [mm]}
)");
  EXPECT_NE(problems.find("reads a 64x256 tensor, but its input has 64x128"), std::string::npos)
      << problems;
}

TEST(GraphLoader, AKeyOfAnotherOpIsUnknownWithTheAllowedKeys) {
  const std::string problems = problems_of(R"(
  - name: g
    graph:
      kernels:
        - {name: a, op: elementwise, cols: 64, m: 3}
)");
  EXPECT_NE(problems.find("unknown key `m`"), std::string::npos) << problems;
  EXPECT_NE(problems.find("function"), std::string::npos) << problems;
}

TEST(GraphLoader, AnUnknownOpListsTheOps) {
  const std::string problems = problems_of(R"(
  - name: g
    graph:
      kernels:
        - {name: a, op: conv, cols: 64}
)");
  EXPECT_NE(problems.find("elementwise, rmsnorm, layernorm, softmax, mean, gemm, attention"),
            std::string::npos)
      << problems;
}

TEST(GraphLoader, APrefillLayerNeedsTokensAndNoContext) {
  const std::string problems = problems_of(R"(
  - name: l
    layer: {phase: prefill, context: 4096}
)");
  EXPECT_NE(problems.find("prefill needs `tokens`"), std::string::npos) << problems;
  EXPECT_NE(problems.find("`context` applies to decode only"), std::string::npos) << problems;
}

TEST(GraphLoader, HeadsMustBeAMultipleOfKvHeads) {
  const std::string problems = problems_of(R"(
  - name: l
    layer: {phase: decode, context: 128, heads: 32, kv_heads: 5}
)");
  EXPECT_NE(problems.find("bad.yaml:5:"), std::string::npos) << problems;
  EXPECT_NE(problems.find("must be a multiple of kv_heads"), std::string::npos) << problems;
}

}  // namespace
}  // namespace tilesim::workloads
