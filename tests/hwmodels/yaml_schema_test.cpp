#include "hwmodels/yaml_schema.hpp"

#include <gtest/gtest.h>

#include <cmath>

#include "hwmodels/hardware_schema.hpp"
#include "tests/hwmodels/config_test_support.hpp"

namespace tilesim::config {
namespace {

using tilesim::testing::HasDiagnostic;

struct Toy {
  std::string name;
  int count = 0;
  double rate = 0;
  double period = 0;
  int level = -1;
  std::optional<int> extra;
  std::string mode;
};

Schema<Toy> toy_schema() {
  Schema<Toy> s;
  s.add(Param::text("name").name_like().describe("Name."), into(&Toy::name));
  s.add(Param::quantity("clock", QuantityKind::frequency)
            .range("1 MHz", "10 GHz")
            .clock()
            .describe("Clock."));
  s.add(Param::integer("inner.count").range(1, 64).multiple_of(4).describe("Count."),
        into(&Toy::count));
  s.add(Param::quantity("inner.rate", QuantityKind::bandwidth)
            .range("1 GB/s", "1 TB/s")
            .describe("Rate."),
        into(&Toy::rate));
  s.add(Param::quantity("inner.deep.period", QuantityKind::time)
            .range("1 ns", "1 s")
            .describe("Period."),
        into(&Toy::period));
  s.add(Param::integer("level").range(0, 9).default_to("3").describe("Level."), into(&Toy::level));
  s.add(Param::integer("extra").range(0, 9).optional().describe("Extra."), into(&Toy::extra));
  s.add(Param::choice("mode", {"fast", "slow"}).default_to("fast").describe("Mode."),
        into(&Toy::mode));
  return s;
}

struct ToyRead {
  Toy toy;
  Values values;
  Diagnostics diagnostics;
};

ToyRead read_toy(const std::string& yaml, const std::string& prefix = "") {
  ToyRead result;
  ReadContext context;
  context.file = "toy.yaml";
  context.key_prefix = prefix;
  result.values = toy_schema().read(YAML::Load(yaml), context, result.toy, result.diagnostics);
  return result;
}

TEST(ReadMap, ValidMapFillsTheTarget) {
  const ToyRead r = read_toy(
      "name: t1\nclock: 1 GHz\ninner:\n  count: 8\n  rate: 4 B/clk\n  deep: {period: 2 clk}\n");
  ASSERT_TRUE(r.diagnostics.empty()) << r.diagnostics.format();
  EXPECT_EQ(r.toy.name, "t1");
  EXPECT_EQ(r.toy.count, 8);
  EXPECT_EQ(r.toy.rate, 4e9);  // per clock, with the clock read in the same map
  EXPECT_EQ(r.toy.period, 2e-9);
  EXPECT_EQ(r.toy.level, 3);  // default
  EXPECT_EQ(r.toy.extra, std::nullopt);
  EXPECT_EQ(r.toy.mode, "fast");
  EXPECT_EQ(r.values.at("inner.count").where.line, 4);
  EXPECT_EQ(r.values.at("inner.count").where.column, 10);
  EXPECT_TRUE(r.values.at("level").defaulted);
  EXPECT_EQ(r.values.at("level").where.line, 1);  // the map it would be in
}

TEST(ReadMap, MissingKeysAreReportedOncePerMissingMap) {
  const ToyRead r = read_toy("name: t1\nclock: 1 GHz\n");
  ASSERT_EQ(r.diagnostics.size(), 1u) << r.diagnostics.format();
  EXPECT_TRUE(HasDiagnostic(r.diagnostics, 1, 1, "inner",
                            "missing required map; expected a map with keys count, rate, deep"));
}

TEST(ReadMap, MissingLeafPointsAtItsMap) {
  const ToyRead r =
      read_toy("name: t1\nclock: 1 GHz\ninner:\n  count: 8\n  deep: {period: 1 ns}\n");
  ASSERT_EQ(r.diagnostics.size(), 1u) << r.diagnostics.format();
  EXPECT_TRUE(HasDiagnostic(r.diagnostics, 4, 3, "inner.rate",
                            "missing required key; expected a bandwidth from 1 GB/s to 1 TB/s, "
                            "e.g. \"3.35 TB/s\" (Rate)"));
}

TEST(ReadMap, KeyPrefixIsPrependedToEveryPath) {
  const ToyRead r = read_toy(
      "name: t1\nclock: 1 GHz\ninner: {count: 3, rate: 1 TB/s, deep: "
      "{period: 1 ns}}\nbogus: 1\n",
      "items[2]");
  EXPECT_TRUE(HasDiagnostic(r.diagnostics, 3, 16, "items[2].inner.count", "multiple of 4"));
  EXPECT_TRUE(HasDiagnostic(r.diagnostics, 4, 1, "items[2].bogus", "unknown key `bogus`"));
}

TEST(ReadMap, UnknownKeysAtEveryLevel) {
  const ToyRead r = read_toy(
      "name: t1\nclock: 1 GHz\ninner:\n  count: 8\n  rat: 1 TB/s\n  deep: {perod: 1 ns}\nmod: "
      "slow\n");
  EXPECT_TRUE(HasDiagnostic(r.diagnostics, 5, 3, "inner.rat",
                            "unknown key `rat`; did you mean `rate`? allowed keys: count, rate, "
                            "deep"));
  EXPECT_TRUE(HasDiagnostic(r.diagnostics, 6, 10, "inner.deep.perod",
                            "did you mean `period`? allowed keys: period"));
  EXPECT_TRUE(HasDiagnostic(r.diagnostics, 7, 1, "mod", "did you mean `mode`?"));
  // The misspelt keys also leave their parameters missing.
  EXPECT_TRUE(HasDiagnostic(r.diagnostics, 4, 3, "inner.rate", "missing required key"));
  EXPECT_TRUE(HasDiagnostic(r.diagnostics, 6, 9, "inner.deep.period", "missing required key"));
  EXPECT_EQ(r.diagnostics.size(), 5u) << r.diagnostics.format();
}

TEST(ReadMap, WrongYamlTypes) {
  const ToyRead r = read_toy("name: [a, b]\nclock: 1 GHz\ninner: 5\nlevel: {x: 1}\n");
  EXPECT_TRUE(HasDiagnostic(r.diagnostics, 1, 7, "name",
                            "expected a name (letters, digits, _ - .), got a list"));
  EXPECT_TRUE(HasDiagnostic(r.diagnostics, 3, 8, "inner",
                            "expected a map with keys count, rate, deep, got \"5\""));
  EXPECT_TRUE(
      HasDiagnostic(r.diagnostics, 4, 8, "level", "expected an integer from 0 to 9, got a map"));
  EXPECT_EQ(r.diagnostics.size(), 3u) << r.diagnostics.format();
}

TEST(ReadMap, RootThatIsNotAMap) {
  Toy toy;
  Diagnostics diagnostics;
  ReadContext context;
  context.file = "toy.yaml";
  toy_schema().read(YAML::Load("- 1\n- 2\n"), context, toy, diagnostics);
  EXPECT_TRUE(HasDiagnostic(diagnostics, 1, 1, "", "expected a map with keys name, clock, inner"));
}

TEST(ReadMap, NullValuePointsAtItsKey) {
  const ToyRead r =
      read_toy("name: t1\nclock:\ninner: {count: 4, rate: 1 TB/s, deep: {period: 1 ns}}\n");
  EXPECT_TRUE(HasDiagnostic(r.diagnostics, 2, 1, "clock", "got nothing"));
}

TEST(ReadMap, DuplicateKeys) {
  const ToyRead r = read_toy(
      "name: t1\nclock: 1 GHz\nname: t2\ninner: {count: 4, rate: 1 TB/s, deep: {period: 1 ns}}\n");
  ASSERT_EQ(r.diagnostics.size(), 1u) << r.diagnostics.format();
  EXPECT_TRUE(HasDiagnostic(r.diagnostics, 3, 1, "name", "duplicate key; first given on line 1"));
}

TEST(ReadMap, BadClockDoesNotCascadeIntoPerClockValues) {
  const ToyRead r =
      read_toy("name: t1\nclock: 1 Gz\ninner: {count: 4, rate: 4 B/clk, deep: {period: 1 ns}}\n");
  ASSERT_EQ(r.diagnostics.size(), 1u) << r.diagnostics.format();
  EXPECT_TRUE(HasDiagnostic(r.diagnostics, 2, 8, "clock", "unknown unit \"Gz\""));
}

TEST(ReadMap, RangeMessages) {
  const ToyRead r = read_toy(
      "name: t1\nclock: 0 Hz\ninner: {count: 128, rate: 2 TB/s, deep: {period: -1 ns}}\nlevel: "
      "-1\nmode: slw\n");
  EXPECT_TRUE(HasDiagnostic(r.diagnostics, 2, 8, "clock",
                            "must be > 0, got \"0 Hz\"; allowed: 1 MHz to 10 GHz"));
  EXPECT_TRUE(HasDiagnostic(r.diagnostics, 3, 16, "inner.count",
                            "\"128\" is out of range; allowed: 1 to 64"));
  EXPECT_TRUE(HasDiagnostic(r.diagnostics, 3, 27, "inner.rate",
                            "\"2 TB/s\" is out of range; allowed: 1 GB/s to 1 TB/s"));
  EXPECT_TRUE(HasDiagnostic(r.diagnostics, 3, 50, "inner.deep.period", "must be > 0"));
  // 0 is allowed for `level`, so -1 is out of range rather than "must be > 0".
  EXPECT_TRUE(
      HasDiagnostic(r.diagnostics, 4, 8, "level", "\"-1\" is out of range; allowed: 0 to 9"));
  EXPECT_TRUE(HasDiagnostic(r.diagnostics, 5, 7, "mode",
                            "unknown value `slw`; did you mean `slow`? allowed: fast, slow"));
  EXPECT_EQ(r.diagnostics.size(), 6u) << r.diagnostics.format();
}

TEST(ReadMap, InvalidNames) {
  const ToyRead r = read_toy(
      "name: my gpu!\nclock: 1 GHz\ninner: {count: 4, rate: 1 TB/s, deep: {period: 1 ns}}\n");
  EXPECT_TRUE(HasDiagnostic(r.diagnostics, 1, 7, "name", "is not a valid name"));
}

TEST(MatchKeyPath, FindsParametersAndExplainsMisses) {
  const std::vector<Param> params = toy_schema().params();
  const KeyPathMatch rate = match_key_path(params, "inner.rate");
  ASSERT_NE(rate.param, nullptr);
  EXPECT_EQ(rate.param->key, "inner.rate");
  EXPECT_EQ(rate.rest, "");
  EXPECT_EQ(match_key_path(params, "inner.rat").error,
            "unknown key `rat`; did you mean `rate`? allowed keys: count, rate, deep");
  EXPECT_EQ(match_key_path(params, "inner").error,
            "`inner` is a map; name one of its keys: count, rate, deep");
  EXPECT_EQ(match_key_path(params, "level.x").rest, "x");
  EXPECT_NE(match_key_path(params, "").error.find("empty key"), std::string::npos);
}

TEST(ParamText, ExpectedAndRangeTexts) {
  EXPECT_EQ(range_text(Param::number("x").greater_than(0).at_most(1)), "> 0 and <= 1");
  EXPECT_EQ(range_text(Param::integer("x").range(1, 1024)), "1 to 1024");
  EXPECT_EQ(range_text(Param::text("x")), "");
  EXPECT_EQ(expected_text(Param::integer("x").range(16, 512).multiple_of(16)),
            "a multiple of 16 from 16 to 512");
  EXPECT_EQ(expected_text(Param::quantity("x", QuantityKind::size).range("1 KiB", "4 MiB")),
            "a size from 1 KiB to 4 MiB, e.g. \"50 MiB\"");
  EXPECT_EQ(expected_text(Param::choice("x", {"a", "b"})), "one of a, b");
}

// Every declaration must be documented and have a plausible range that parses.
TEST(HardwareSchema, EveryDeclarationIsComplete) {
  std::vector<Param> params = hw::hardware_schema().params();
  const std::vector<Param> profile = hw::kernel_profile_schema().params();
  params.insert(params.end(), profile.begin(), profile.end());
  for (const Param& param : params) {
    EXPECT_FALSE(param.doc.empty()) << param.key;
    const bool numeric = param.type == ValueType::integer || param.type == ValueType::number ||
                         param.type == ValueType::quantity;
    if (numeric) {
      ASSERT_TRUE(param.low.has_value()) << param.key;
      ASSERT_TRUE(param.high.has_value()) << param.key;
      EXPECT_TRUE(std::isfinite(param.low->value)) << param.key << " " << param.low->text;
      EXPECT_TRUE(std::isfinite(param.high->value)) << param.key << " " << param.high->text;
      EXPECT_LT(param.low->value, param.high->value) << param.key;
    }
  }
}

}  // namespace
}  // namespace tilesim::config
