#include "workloads/sweep/sweep_values.hpp"

#include <gtest/gtest.h>

namespace tilesim::workloads {
namespace {

std::vector<std::string> texts(const std::variant<ExpandedRange, RangeProblem>& expanded) {
  std::vector<std::string> result;
  for (const RangeValue& value : std::get<ExpandedRange>(expanded).values) {
    result.push_back(value.text);
  }
  return result;
}

const RangeProblem& problem(const std::variant<ExpandedRange, RangeProblem>& expanded) {
  return std::get<RangeProblem>(expanded);
}

TEST(ParseAxisNumber, PlainNumbersAndQuantities) {
  const auto integer = parse_axis_number("256");
  ASSERT_TRUE(integer);
  EXPECT_EQ(integer->value, 256);
  EXPECT_TRUE(integer->integer);
  EXPECT_TRUE(integer->unit.empty());

  const auto fraction = parse_axis_number("0.5");
  ASSERT_TRUE(fraction);
  EXPECT_EQ(fraction->value, 0.5);
  EXPECT_FALSE(fraction->integer);

  const auto size = parse_axis_number("25 MiB");
  ASSERT_TRUE(size);
  EXPECT_EQ(size->value, 25);
  EXPECT_EQ(size->unit, "MiB");
  EXPECT_EQ(size->unit_si, 1024.0 * 1024.0);
  EXPECT_EQ(size->kind, config::QuantityKind::size);

  const auto bandwidth = parse_axis_number("4.8TB/s");
  ASSERT_TRUE(bandwidth);
  EXPECT_EQ(bandwidth->unit, "TB/s");
  EXPECT_DOUBLE_EQ(bandwidth->value, 4.8);
}

TEST(ParseAxisNumber, NamesAndPerClockUnitsAreNotNumbers) {
  EXPECT_FALSE(parse_axis_number("bf16"));
  EXPECT_FALSE(parse_axis_number("two_tile"));
  EXPECT_FALSE(parse_axis_number("260 clk"));  // needs the hardware's clock
}

TEST(AxisNumbers, ConvertToTheFirstUnit) {
  const std::vector<std::string> values = {"25 MiB", "0.5 GiB", "100 MB"};
  const AxisNumbers numbers = axis_numbers(values);
  EXPECT_EQ(numbers.unit, "MiB");
  ASSERT_EQ(numbers.numbers.size(), 3u);
  EXPECT_EQ(numbers.numbers[0], 25);
  EXPECT_EQ(numbers.numbers[1], 512);
  EXPECT_NEAR(*numbers.numbers[2], 100e6 / (1 << 20), 1e-9);
}

TEST(AxisNumbers, MixedKindsAndNamesHaveNoNumber) {
  const std::vector<std::string> values = {"25 MiB", "3 TB/s", "12", "bf16"};
  const AxisNumbers numbers = axis_numbers(values);
  EXPECT_TRUE(numbers.numbers[0]);
  EXPECT_FALSE(numbers.numbers[1]);
  EXPECT_FALSE(numbers.numbers[2]);
  EXPECT_FALSE(numbers.numbers[3]);
  const std::vector<std::string> plain = {"1", "2.5"};
  EXPECT_EQ(axis_numbers(plain).numbers[1], 2.5);
  EXPECT_TRUE(axis_numbers(plain).unit.empty());
}

TEST(ExpandRange, LinearIntegersIncludeTheEnd) {
  const auto expanded = expand_range({"128", "512", "128", std::nullopt}, 100);
  EXPECT_EQ(texts(expanded), (std::vector<std::string>{"128", "256", "384", "512"}));
  // An end the step does not land on is left out.
  EXPECT_EQ(texts(expand_range({"1", "10", "4", std::nullopt}, 100)),
            (std::vector<std::string>{"1", "5", "9"}));
}

TEST(ExpandRange, LinearFractionsDoNotAccumulateRoundingError) {
  const auto expanded = expand_range({"0.1", "0.5", "0.1", std::nullopt}, 100);
  EXPECT_EQ(texts(expanded), (std::vector<std::string>{"0.1", "0.2", "0.3", "0.4", "0.5"}));
}

TEST(ExpandRange, GeometricQuantitiesKeepTheUnitOfFrom) {
  const auto expanded = expand_range({"25 MiB", "200 MiB", std::nullopt, 2.0}, 100);
  EXPECT_EQ(texts(expanded), (std::vector<std::string>{"25 MiB", "50 MiB", "100 MiB", "200 MiB"}));
  EXPECT_EQ(std::get<ExpandedRange>(expanded).unit, "MiB");
  EXPECT_EQ(std::get<ExpandedRange>(expanded).values[3].number, 200);
  // `to` in another unit of the same kind.
  EXPECT_EQ(texts(expand_range({"25 MiB", "0.1953125 GiB", std::nullopt, 2.0}, 100)),
            (std::vector<std::string>{"25 MiB", "50 MiB", "100 MiB", "200 MiB"}));
}

TEST(ExpandRange, LinearQuantities) {
  EXPECT_EQ(texts(expand_range({"2 TB/s", "4 TB/s", "500 GB/s", std::nullopt}, 100)),
            (std::vector<std::string>{"2 TB/s", "2.5 TB/s", "3 TB/s", "3.5 TB/s", "4 TB/s"}));
}

TEST(ExpandRange, GeometricIntegersAreRoundedWithoutDuplicates) {
  EXPECT_EQ(texts(expand_range({"256", "4096", std::nullopt, 2.0}, 100)),
            (std::vector<std::string>{"256", "512", "1024", "2048", "4096"}));
  EXPECT_EQ(texts(expand_range({"100", "1000", std::nullopt, 1.5}, 100)),
            (std::vector<std::string>{"100", "150", "225", "338", "506", "759"}));
  EXPECT_EQ(texts(expand_range({"1", "3", std::nullopt, 1.1}, 100)),
            (std::vector<std::string>{"1", "2", "3"}));
}

TEST(ExpandRange, ProblemsNameTheField) {
  EXPECT_EQ(problem(expand_range({"bf16", "4", "1", std::nullopt}, 100)).field, "from");
  EXPECT_EQ(problem(expand_range({"25 MiB", "200", "1 MiB", std::nullopt}, 100)).field, "to");
  EXPECT_EQ(problem(expand_range({"256", "128", "1", std::nullopt}, 100)).field, "to");
  EXPECT_EQ(problem(expand_range({"1", "4", "1 MiB", std::nullopt}, 100)).field, "step");
  EXPECT_EQ(problem(expand_range({"1", "4", "0", std::nullopt}, 100)).field, "step");
  EXPECT_EQ(problem(expand_range({"0", "4", std::nullopt, 2.0}, 100)).field, "from");
  // Neither or both of step and factor, and too many values: the range as a whole.
  EXPECT_EQ(problem(expand_range({"1", "4", std::nullopt, std::nullopt}, 100)).field, "");
  EXPECT_EQ(problem(expand_range({"1", "4", "1", 2.0}, 100)).field, "");
  const RangeProblem too_many = problem(expand_range({"1", "1000", "1", std::nullopt}, 100));
  EXPECT_EQ(too_many.field, "");
  EXPECT_NE(too_many.message.find("gives 1000 values; at most 100"), std::string::npos)
      << too_many.message;
}

TEST(ExpandRange, SingleValue) {
  EXPECT_EQ(texts(expand_range({"64", "64", "8", std::nullopt}, 100)),
            (std::vector<std::string>{"64"}));
  EXPECT_EQ(texts(expand_range({"64", "64", std::nullopt, 2.0}, 100)),
            (std::vector<std::string>{"64"}));
}

}  // namespace
}  // namespace tilesim::workloads
