// Reading `model:` workloads: a preset's values with the study's on top,
// defaults without one, and one clear error per problem.

#include <gtest/gtest.h>

#include <string>

#include "workloads/study_loader.hpp"
#include "workloads/study_runner.hpp"

namespace tilesim::workloads {
namespace {

config::Loaded<Study> load(const std::string& workloads_yaml) {
  return load_study_text("hardware: h100_sxm\nworkloads:\n" + workloads_yaml, "test.yaml",
                         study_schedule_names(builtin_gemm_schedules()), TILESIM_CONFIG_DIR);
}

TEST(ModelLoader, StudyKeysOverrideThePreset) {
  const config::Loaded<Study> study = load(R"(
  - name: qwen
    model: {preset: qwen2_5_7b, layers: 4, batch: 8, context: 1024, tokens: 256}
)");
  ASSERT_TRUE(study.ok()) << study.diagnostics.format();
  const auto& model = std::get<ModelWorkload>(study.value->workloads.at(0));
  EXPECT_EQ(model.shape.hidden, 3584);
  EXPECT_EQ(model.shape.heads, 28);
  EXPECT_EQ(model.shape.kv_heads, 4);
  EXPECT_EQ(model.shape.intermediate, 18944);
  EXPECT_EQ(model.vocab, 152064);
  EXPECT_EQ(model.shape.layers, 4);
  EXPECT_EQ(model.shape.batch, 8);
  EXPECT_EQ(model.prompt_tokens, 256);
  EXPECT_TRUE(model.prefill && model.decode);
}

TEST(ModelLoader, WithoutAPresetTheDimensionsAreLlama3_8B) {
  const config::Loaded<Study> study = load(R"(
  - name: default
    model: {phase: decode, context: 100}
)");
  ASSERT_TRUE(study.ok()) << study.diagnostics.format();
  const auto& model = std::get<ModelWorkload>(study.value->workloads.at(0));
  EXPECT_EQ(model.shape.hidden, 4096);
  EXPECT_EQ(model.shape.layers, 32);
  EXPECT_EQ(model.vocab, 128256);
  EXPECT_FALSE(model.prefill);
}

TEST(ModelLoader, UnknownPresetListsTheAvailableOnes) {
  const config::Loaded<Study> study = load(R"(
  - name: x
    model: {preset: llama3_9b, tokens: 10, context: 10}
)");
  ASSERT_FALSE(study.ok());
  const std::string text = study.diagnostics.format();
  EXPECT_NE(text.find("test.yaml:5:21: error: workloads[0].model.preset: unknown model preset "
                      "`llama3_9b`; did you mean `llama3_8b`?"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("mistral_7b"), std::string::npos) << text;
}

TEST(ModelLoader, EveryProblemIsReportedWhereItIsWritten) {
  const config::Loaded<Study> study = load(R"(
  - name: x
    model: {preset: llama3_8b, kv_heads: 5, phase: prefill, context: 10}
)");
  ASSERT_FALSE(study.ok());
  const std::string text = study.diagnostics.format();
  EXPECT_NE(text.find("test.yaml:5:42: error: workloads[0].model.kv_heads: heads (32) must be a "
                      "multiple of kv_heads (5)"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("model.tokens: missing"), std::string::npos) << text;
  EXPECT_NE(text.find("test.yaml:5:70: error: workloads[0].model.context: `context` applies"),
            std::string::npos)
      << text;
}

}  // namespace
}  // namespace tilesim::workloads
